// SPDX-License-Identifier: MIT
/*
 * bpf_timer_init, bpf_timer_set_callback, bpf_timer_start and
 * bpf_timer_cancel on the struct bpf_timer of an array's and a hash's
 * values, in the case the packet picks; every return goes back in the
 * packet, and the callbacks count into the value and into counts[id], for
 * test_timer to compare with the kernel.
 *
 *   0  the sequence: cancel and start before init, two bad clocks, init,
 *      init again, start before a callback, set_callback, bad start
 *      flags, start, cancel armed, start after the cancel dropped the
 *      callback, cancel idle, set_callback, start (arg ns, flags)
 *   1  cancel
 *   2  set_callback, start (arg ns, flags)
 *   3  init (flags arg)
 *   4  a callback that starts its own timer again at 0 ns, for ever
 *      (headroom only: the bound on a runaway timer)
 *   5  the element deleted by the program (hash)
 *   6  a callback that cancels its own timer (-EDEADLK into cb_ret)
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_BOOTTIME 7
/* Only packets carrying it are cases: the corpus tests' generated
 * packets must not arm timers whose firing they cannot predict. */
#define TIMER_MAGIC 0x54494d45

#define HR_ASYNC_FIELD struct bpf_timer
#include "hr_async.h"

/* After the Ethernet header: the case in, the answers out. */
struct timer_rec {
	__u32 mode;
	__u32 map; /* 0 arr, 1 hmap */
	__u32 key;
	__u32 magic; /* TIMER_MAGIC: other packets pass untouched */
	__u64 arg;
	__u64 flags;
	__s64 r[16];
};

static int timer_cb(void *map, __u32 *key, struct aval *v)
{
	count(v, *key);
	return 0;
}

static int rearm_cb(void *map, __u32 *key, struct aval *v)
{
	count(v, *key);
	bpf_timer_start(&v->f, 0, 0);
	return 0;
}

static int deadlk_cb(void *map, __u32 *key, struct aval *v)
{
	count(v, *key);
	__sync_fetch_and_add(&v->cb_ret, bpf_timer_cancel(&v->f));
	return 0;
}

static __always_inline void run_case(struct timer_rec *r, void *map,
				     struct aval *v)
{
	struct bpf_timer *t = &v->f;

	switch (r->mode) {
	case 0:
		r->r[0] = bpf_timer_cancel(t);
		r->r[1] = bpf_timer_start(t, 1000, 0);
		r->r[2] = bpf_timer_init(t, map, 3);
		r->r[3] = bpf_timer_init(t, map, 16 | CLOCK_MONOTONIC);
		r->r[4] = bpf_timer_init(t, map, CLOCK_MONOTONIC);
		r->r[5] = bpf_timer_init(t, map, CLOCK_MONOTONIC);
		r->r[6] = bpf_timer_start(t, 1000, 0);
		r->r[7] = bpf_timer_set_callback(t, timer_cb);
		r->r[8] = bpf_timer_start(t, 1000, 4);
		r->r[9] = bpf_timer_start(t, 1000000000ull, 0);
		r->r[10] = bpf_timer_cancel(t);
		r->r[11] = bpf_timer_start(t, 1000, 0);
		r->r[12] = bpf_timer_cancel(t);
		r->r[13] = bpf_timer_set_callback(t, timer_cb);
		r->r[14] = bpf_timer_start(t, r->arg, r->flags);
		break;
	case 1:
		r->r[0] = bpf_timer_cancel(t);
		break;
	case 2:
		r->r[0] = bpf_timer_set_callback(t, timer_cb);
		r->r[1] = bpf_timer_start(t, r->arg, r->flags);
		break;
	case 3:
		r->r[0] = bpf_timer_init(t, map, r->arg);
		break;
	case 4:
		r->r[0] = bpf_timer_set_callback(t, rearm_cb);
		r->r[1] = bpf_timer_start(t, 0, 0);
		break;
	case 6:
		r->r[0] = bpf_timer_set_callback(t, deadlk_cb);
		r->r[1] = bpf_timer_start(t, r->arg, 0);
		break;
	}
}

SEC("xdp")
int xdp_timer(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct timer_rec *r = data + 14;
	struct aval zero = {}, *v;
	__u32 key;

	if ((void *)(r + 1) > data_end || r->magic != TIMER_MAGIC)
		return XDP_PASS;
	key = r->key & 15;
	zero.id = key + 16 * (r->map & 1);
	if (r->map == 0) {
		v = bpf_map_lookup_elem(&arr, &key);
		if (!v)
			return XDP_ABORTED;
		/* Set before any of the element's timers can run. */
		if (r->mode == 0 || r->mode == 3)
			v->id = zero.id;
		run_case(r, &arr, v);
		return XDP_PASS;
	}
	if (r->mode == 5) {
		r->r[0] = bpf_map_delete_elem(&hmap, &key);
		return XDP_PASS;
	}
	v = bpf_map_lookup_elem(&hmap, &key);
	if (!v) {
		bpf_map_update_elem(&hmap, &key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&hmap, &key);
		if (!v)
			return XDP_ABORTED;
	}
	run_case(r, &hmap, v);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
