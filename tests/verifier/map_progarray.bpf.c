/* A lookup in a program array: only bpf_tail_call may take one. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} jt SEC(".maps");

SEC("xdp") int bad_map_progarray(struct xdp_md *ctx)
{
	__u32 k = 0;

	if (bpf_map_lookup_elem(&jt, &k))
		return XDP_DROP;
	return XDP_PASS;
}

SEC("xdp") int ok_map_progarray(struct xdp_md *ctx)
{
	bpf_tail_call(ctx, &jt, 0);
	return XDP_PASS;
}
