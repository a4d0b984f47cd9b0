/* An xskmap's lookup gives its socket or NULL (map_value_or_null, then
 * PTR_TO_XDP_SOCK): used before its NULL test it is refused; tested and
 * dropped, as AF_XDP programs do before bpf_redirect_map, it is fine. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} xsks SEC(".maps");

SEC("xdp") int bad_xsk_lookup(struct xdp_md *ctx)
{
	__u32 k = ctx->rx_queue_index, *s = bpf_map_lookup_elem(&xsks, &k);

	return *s ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_xsk_lookup(struct xdp_md *ctx)
{
	__u32 k = ctx->rx_queue_index;

	if (bpf_map_lookup_elem(&xsks, &k))
		return bpf_redirect_map(&xsks, k, 0);
	return XDP_PASS;
}
