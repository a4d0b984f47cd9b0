/* A hint kfunc in a program that is not device-bound. */
#include "v.h"
#include "hr_rx_kfuncs.h"

SEC("xdp") int bad_hint_devbound(struct xdp_md *ctx)
{
	__u32 hash = 0;
	enum xdp_rss_hash_type type = 0;

	bpf_xdp_metadata_rx_hash(ctx, &hash, &type);
	return hash & 1 ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_hint_devbound(struct xdp_md *ctx)
{
	__u32 hash = bpf_get_prandom_u32();

	return hash & 1 ? XDP_PASS : XDP_DROP;
}
