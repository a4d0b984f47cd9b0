/* A map value read past its value_size. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} h SEC(".maps");

SEC("xdp") int bad_map_oob(struct xdp_md *ctx)
{
	__u32 k = 1;
	__u32 *v = bpf_map_lookup_elem(&h, &k);

	if (!v)
		return XDP_PASS;
	return v[2] ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_map_oob(struct xdp_md *ctx)
{
	__u32 k = 1;
	__u32 *v = bpf_map_lookup_elem(&h, &k);

	if (!v)
		return XDP_PASS;
	return v[1] ? XDP_DROP : XDP_PASS;
}
