/* Redirect maps take only some helpers from a program
 * (check_map_func_compatibility): a cpumap no lookup, a devmap a lookup
 * (a read-only value) but no update. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} devs SEC(".maps");

SEC("xdp") int bad_map_redirect_types(struct xdp_md *ctx)
{
	__u32 k = 0, *v = bpf_map_lookup_elem(&cpus, &k);

	return v ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_map_redirect_types(struct xdp_md *ctx)
{
	__u32 k = 0, *v = bpf_map_lookup_elem(&devs, &k);

	return v && *v == 1 ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int bad_map_redirect_update(struct xdp_md *ctx)
{
	__u32 k = 0, v = 1;

	return bpf_map_update_elem(&devs, &k, &v, 0) ? XDP_DROP : XDP_PASS;
}
