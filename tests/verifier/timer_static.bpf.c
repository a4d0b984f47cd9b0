/* A timer callback must be a static function (check_ld_imm). */
#include "v.h"
#include "timer.h"

int fire_global(void *map, __u32 *key, struct tval *v)
{
	return 0;
}

static int fire_static(void *map, __u32 *key, struct tval *v)
{
	return 0;
}

SEC("xdp") int bad_timer_static(struct xdp_md *ctx)
{
	struct tval *v = TIMER_VAL(timers);

	bpf_timer_set_callback(&v->t, fire_global);
	return XDP_PASS;
}

SEC("xdp") int ok_timer_static(struct xdp_md *ctx)
{
	struct tval *v = TIMER_VAL(timers);

	bpf_timer_set_callback(&v->t, fire_static);
	return XDP_PASS;
}
