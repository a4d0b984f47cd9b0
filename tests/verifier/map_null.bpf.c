/* A map lookup's result used before its NULL test. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} cnt SEC(".maps");

SEC("xdp") int bad_map_null(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&cnt, &k);

	*v += 1;
	return XDP_PASS;
}

SEC("xdp") int ok_map_null(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&cnt, &k);

	if (!v)
		return XDP_PASS;
	*v += 1;
	return XDP_PASS;
}
