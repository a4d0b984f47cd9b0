// SPDX-License-Identifier: MIT
/*
 * For the JIT's inlined ARRAY lookups (tests/vm/test_jit.c): the value at
 * the key in the packet's first byte, plus one into it; 7 when the key
 * is out of range (NULL).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* progs/vm/jit_percpu.bpf.c builds this program on a PERCPU_ARRAY. */
#ifndef BENCH_LOOKUP_MAP_TYPE
#define BENCH_LOOKUP_MAP_TYPE BPF_MAP_TYPE_ARRAY
#endif

struct {
	__uint(type, BENCH_LOOKUP_MAP_TYPE);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} values SEC(".maps");

SEC("xdp")
int bench_lookup(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u32 key, *v;

	if (data + 1 > data_end)
		return XDP_ABORTED;
	key = *(__u8 *)data;
	v = bpf_map_lookup_elem(&values, &key);
	if (!v)
		return 7;
	*v += 1;
	return *v;
}

char _license[] SEC("license") = "GPL";
