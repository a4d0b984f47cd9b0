// SPDX-License-Identifier: MIT
/* bench_cpu.bpf.c steering by the RX hash (headroom bench --steer hash). */
#define BENCH_CPU_BY_HASH
#include "bench_cpu.bpf.c"
