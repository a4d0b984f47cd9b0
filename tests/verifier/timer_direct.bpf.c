/* A struct bpf_timer is the helpers' alone: no load or store may touch
 * it (check_map_access). */
#include "v.h"
#include "timer.h"

SEC("xdp") int bad_timer_direct(struct xdp_md *ctx)
{
	struct tval *v = TIMER_VAL(timers);

	*(volatile __u64 *)&v->t = 0;
	return XDP_PASS;
}

SEC("xdp") int ok_timer_direct(struct xdp_md *ctx)
{
	struct tval *v = TIMER_VAL(timers);

	*(volatile __u64 *)&v->n = 0;
	return XDP_PASS;
}
