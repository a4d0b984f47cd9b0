/* An inner map from a map-in-map lookup used without its NULL test. */
#include "v.h"

struct inner {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} in0 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct inner);
} outer SEC(".maps") = { .values = { &in0 } };

SEC("xdp") int bad_mim_null(struct xdp_md *ctx)
{
	__u32 k = 0;
	void *m = bpf_map_lookup_elem(&outer, &k);
	__u64 *v;

	v = bpf_map_lookup_elem(m, &k);
	if (!v)
		return XDP_PASS;
	return *v ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_mim_null(struct xdp_md *ctx)
{
	__u32 k = 0;
	void *m = bpf_map_lookup_elem(&outer, &k);
	__u64 *v;

	if (!m)
		return XDP_PASS;
	v = bpf_map_lookup_elem(m, &k);
	if (!v)
		return XDP_PASS;
	return *v ? XDP_DROP : XDP_PASS;
}
