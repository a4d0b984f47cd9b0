/* xdp_md's egress_ifindex read by a plain XDP program: only programs
 * attached to a devmap entry may read it. */
#include "v.h"

SEC("xdp") int bad_ctx_egress(struct xdp_md *ctx)
{
	return ctx->egress_ifindex == 3 ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_ctx_egress(struct xdp_md *ctx)
{
	return ctx->ingress_ifindex == 3 ? XDP_DROP : XDP_PASS;
}
