// SPDX-License-Identifier: MIT
/*
 * For the JIT's direct calls of hash lookups (tests/vm/test_jit.c): the
 * program of bench_lookup.bpf.c on this worker's values in a PERCPU_HASH.
 */
#define BENCH_LOOKUP_MAP_TYPE BPF_MAP_TYPE_PERCPU_HASH
#include "../bench/bench_lookup.bpf.c"
