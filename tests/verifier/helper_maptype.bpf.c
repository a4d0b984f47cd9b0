/* bpf_redirect_map given a hash map. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} hm SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} dm SEC(".maps");

SEC("xdp") int bad_helper_maptype(struct xdp_md *ctx)
{
	return bpf_redirect_map(&hm, 0, XDP_PASS);
}

SEC("xdp") int ok_helper_maptype(struct xdp_md *ctx)
{
	return bpf_redirect_map(&dm, 0, XDP_PASS);
}
