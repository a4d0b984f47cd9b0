/* A bpf_for_each_map_elem callback writing past the map's value. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

static long bump_past(void *map, __u32 *key, __u64 *val, void *c)
{
	val[1] = 1;
	return 0;
}

static long bump(void *map, __u32 *key, __u64 *val, void *c)
{
	val[0] += 1;
	return 0;
}

SEC("xdp") int bad_cb_each(struct xdp_md *ctx)
{
	bpf_for_each_map_elem(&vals, bump_past, NULL, 0);
	return XDP_PASS;
}

SEC("xdp") int ok_cb_each(struct xdp_md *ctx)
{
	bpf_for_each_map_elem(&vals, bump, NULL, 0);
	return XDP_PASS;
}
