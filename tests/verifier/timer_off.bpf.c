/* A bpf_timer helper handed the value but not its timer
 * (check_map_field_pointer). */
#include "v.h"
#include "timer.h"

SEC("xdp") int bad_timer_off(struct xdp_md *ctx)
{
	struct tval *v = TIMER_VAL(timers);

	bpf_timer_init((struct bpf_timer *)&v->n, &timers, CLOCK_MONOTONIC);
	return XDP_PASS;
}

SEC("xdp") int ok_timer_off(struct xdp_md *ctx)
{
	struct tval *v = TIMER_VAL(timers);

	bpf_timer_init(&v->t, &timers, CLOCK_MONOTONIC);
	return XDP_PASS;
}
