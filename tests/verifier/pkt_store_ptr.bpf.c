/* A pointer stored into a map value: root may (no leak rule), so both load. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} slot SEC(".maps");

SEC("xdp") int ok_store_ptr(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&slot, &k);

	if (v)
		*v = (__u64)(long)v;
	return XDP_PASS;
}

SEC("xdp") int ok_store_num(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&slot, &k);

	if (v)
		*v = 7;
	return XDP_PASS;
}
