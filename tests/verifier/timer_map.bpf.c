/* bpf_timer_init's map is not the timer's (check_func_arg: map_uid). */
#include "v.h"
#include "timer.h"

SEC("xdp") int bad_timer_map(struct xdp_md *ctx)
{
	struct tval *v = TIMER_VAL(timers);

	bpf_timer_init(&v->t, &other, CLOCK_MONOTONIC);
	return XDP_PASS;
}

SEC("xdp") int ok_timer_map(struct xdp_md *ctx)
{
	struct tval *v = TIMER_VAL(other);

	bpf_timer_init(&v->t, &other, CLOCK_MONOTONIC);
	return XDP_PASS;
}
