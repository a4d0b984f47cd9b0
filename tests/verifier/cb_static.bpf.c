/* A callback must be a static function (check_ld_imm). */
#include "v.h"

long count_global(__u32 i, void *c)
{
	return 0;
}

static long count_static(__u32 i, void *c)
{
	return 0;
}

SEC("xdp") int bad_cb_static(struct xdp_md *ctx)
{
	bpf_loop(4, count_global, NULL, 0);
	return XDP_PASS;
}

SEC("xdp") int ok_cb_static(struct xdp_md *ctx)
{
	bpf_loop(4, count_static, NULL, 0);
	return XDP_PASS;
}
