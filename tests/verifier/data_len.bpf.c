/* bpf_dynptr_data's length must be a constant the verifier knows
 * (ARG_CONST_ALLOC_SIZE_OR_ZERO), not only a bounded number. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[2]);
} dl_vals SEC(".maps");

SEC("xdp") int bad_data_len(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u32 key = 0, n = (ctx->ingress_ifindex & 7) + 1;
	__u8 *mem = bpf_map_lookup_elem(&dl_vals, &key), *p;

	if (!mem)
		return XDP_DROP;
	bpf_dynptr_from_mem(mem, 16, 0, &d);
	p = bpf_dynptr_data(&d, 0, n);
	return p && p[0] ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_data_len(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u32 key = 0;
	__u8 *mem = bpf_map_lookup_elem(&dl_vals, &key), *p;

	if (!mem)
		return XDP_DROP;
	bpf_dynptr_from_mem(mem, 16, 0, &d);
	p = bpf_dynptr_data(&d, 0, 8);
	return p && p[0] ? XDP_PASS : XDP_DROP;
}
