// SPDX-License-Identifier: MIT
/*
 * bpf_wq_init, bpf_wq_set_callback_impl and bpf_wq_start on the struct
 * bpf_wq of an array's and a hash's values, in the case the packet picks;
 * every return goes back in the packet, and the callbacks count into the
 * value and into counts[id], for test_wq to compare with the kernel.
 *
 *   0  the sequence: start and set_callback before init, init with
 *      flags, init, init again, start before a callback, set_callback
 *      with flags, start, set_callback, start with flags, start twice
 *   1  init (flags arg)
 *   2  set_callback, start (flags arg)
 *   3  set_callback, start, then the element deleted (hash) or
 *      overwritten (array) by the program before the callback could run
 *   4  set_callback to a callback that starts its wq again from itself
 *      until it has run 3 times (start's returns summed into cb_ret)
 *
 * xdp_wq_nocb runs the sequence's calls that need no callback (start
 * before init, init with flags, init, init again, start before a
 * callback, start with flags), for kernels that refuse
 * bpf_wq_set_callback_impl to programs that are not sleepable.
 */
#include "hr_wq.h"

/* Only packets carrying it are cases: the corpus tests' generated
 * packets must not start wqs whose runs they cannot predict. */
#define WQ_MAGIC 0x57514d47

#define HR_ASYNC_FIELD struct bpf_wq
#include "hr_async.h"

/* After the Ethernet header: the case in, the answers out. */
struct wq_rec {
	__u32 mode;
	__u32 map; /* 0 arr, 1 hmap */
	__u32 key;
	__u32 magic; /* WQ_MAGIC: other packets pass untouched */
	__u64 flags;
	__s64 r[16];
};

static int wq_cb(void *map, int *key, void *value)
{
	count(value, *key);
	return 0;
}

static int again_cb(void *map, int *key, void *value)
{
	struct aval *v = value;

	if (count(v, *key) < 3)
		__sync_fetch_and_add(&v->cb_ret, bpf_wq_start(&v->f, 0));
	return 0;
}

static __always_inline void run_case(struct wq_rec *r, void *map,
				     struct aval *v, __u32 key)
{
	struct bpf_wq *w = &v->f;
	struct aval zero = { .id = v->id };

	switch (r->mode) {
	case 0:
		r->r[0] = bpf_wq_start(w, 0);
		r->r[1] = bpf_wq_set_callback(w, wq_cb, 0);
		r->r[2] = bpf_wq_init(w, map, 1);
		r->r[3] = bpf_wq_init(w, map, 0);
		r->r[4] = bpf_wq_init(w, map, 0);
		r->r[5] = bpf_wq_start(w, 0);
		r->r[6] = bpf_wq_set_callback(w, wq_cb, 1);
		r->r[7] = bpf_wq_start(w, 0);
		r->r[8] = bpf_wq_set_callback(w, wq_cb, 0);
		r->r[9] = bpf_wq_start(w, 4);
		r->r[10] = bpf_wq_start(w, 0);
		r->r[11] = bpf_wq_start(w, 0);
		break;
	case 1:
		r->r[0] = bpf_wq_init(w, map, r->flags);
		break;
	case 2:
		r->r[0] = bpf_wq_set_callback(w, wq_cb, 0);
		r->r[1] = bpf_wq_start(w, r->flags);
		break;
	case 3:
		r->r[0] = bpf_wq_set_callback(w, wq_cb, 0);
		r->r[1] = bpf_wq_start(w, 0);
		/* bpf_obj_free_fields: bpf_wq_cancel_and_free. */
		if (map == (void *)&hmap)
			r->r[2] = bpf_map_delete_elem(map, &key);
		else
			r->r[2] = bpf_map_update_elem(map, &key, &zero, 0);
		break;
	case 4:
		r->r[0] = bpf_wq_set_callback(w, again_cb, 0);
		r->r[1] = bpf_wq_start(w, 0);
		break;
	}
}

SEC("xdp")
int xdp_wq(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct wq_rec *r = data + 14;
	struct aval zero = {}, *v;
	__u32 key;

	if ((void *)(r + 1) > data_end || r->magic != WQ_MAGIC)
		return XDP_PASS;
	key = r->key & 15;
	zero.id = key + 16 * (r->map & 1);
	if (r->map == 0) {
		v = bpf_map_lookup_elem(&arr, &key);
		if (!v)
			return XDP_ABORTED;
		/* Set before any of the element's callbacks can run. */
		if (r->mode == 0 || r->mode == 1)
			v->id = zero.id;
		run_case(r, &arr, v, key);
		return XDP_PASS;
	}
	v = bpf_map_lookup_elem(&hmap, &key);
	if (!v) {
		bpf_map_update_elem(&hmap, &key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&hmap, &key);
		if (!v)
			return XDP_ABORTED;
	}
	run_case(r, &hmap, v, key);
	return XDP_PASS;
}

SEC("xdp")
int xdp_wq_nocb(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct wq_rec *r = data + 14;
	struct aval zero = {}, *v;
	void *map = &arr;
	__u32 key;

	if ((void *)(r + 1) > data_end || r->magic != WQ_MAGIC)
		return XDP_PASS;
	key = r->key & 15;
	if (r->map == 0) {
		v = bpf_map_lookup_elem(&arr, &key);
	} else {
		map = &hmap;
		bpf_map_update_elem(&hmap, &key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&hmap, &key);
	}
	if (!v)
		return XDP_ABORTED;
	r->r[0] = bpf_wq_start(&v->f, 0);
	r->r[1] = bpf_wq_init(&v->f, map, 1);
	r->r[2] = bpf_wq_init(&v->f, map, 0);
	r->r[3] = bpf_wq_init(&v->f, map, 0);
	r->r[4] = bpf_wq_start(&v->f, 0);
	r->r[5] = bpf_wq_start(&v->f, 4);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
