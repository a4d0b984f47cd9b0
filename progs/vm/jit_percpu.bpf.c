// SPDX-License-Identifier: MIT
/*
 * For the JIT's inlined PERCPU_ARRAY lookups (tests/vm/test_jit.c): the
 * program of bench_lookup.bpf.c on this worker's values, so 7 also when
 * the worker is out of the map's CPUs.
 */
#define BENCH_LOOKUP_MAP_TYPE BPF_MAP_TYPE_PERCPU_ARRAY
#include "../bench/bench_lookup.bpf.c"
