/* A byte a helper wrote to the stack reads back as any number of its
 * size (STACK_MISC): used as an index into a map value it must be
 * bounded first. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[6]);
} tbl SEC(".maps");

SEC("xdp") int bad_stack_misc(struct xdp_md *ctx)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&tbl, &key);
	__u8 sel;

	if (!v || bpf_xdp_load_bytes(ctx, 0, &sel, 1))
		return XDP_DROP;
	if (sel > 6)
		return XDP_DROP;
	return v[sel] ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_stack_misc(struct xdp_md *ctx)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&tbl, &key);
	__u8 sel;

	if (!v || bpf_xdp_load_bytes(ctx, 0, &sel, 1))
		return XDP_DROP;
	if (sel > 5)
		return XDP_DROP;
	return v[sel] ? XDP_PASS : XDP_DROP;
}
