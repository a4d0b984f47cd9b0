/* A timer callback's body is walked too (set_timer_callback_state: the
 * map, the key, the value): one writing past the value. */
#include "v.h"
#include "timer.h"

static int fire_past(void *map, __u32 *key, struct tval *v)
{
	(&v->n)[1] = *key;
	return 0;
}

static int fire(void *map, __u32 *key, struct tval *v)
{
	v->n = *key;
	return 0;
}

SEC("xdp") int bad_timer_cb(struct xdp_md *ctx)
{
	struct tval *v = TIMER_VAL(timers);

	bpf_timer_set_callback(&v->t, fire_past);
	return XDP_PASS;
}

SEC("xdp") int ok_timer_cb(struct xdp_md *ctx)
{
	struct tval *v = TIMER_VAL(timers);

	bpf_timer_set_callback(&v->t, fire);
	return XDP_PASS;
}
