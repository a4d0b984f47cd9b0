// SPDX-License-Identifier: MIT
/*
 * bpf_user_ringbuf_drain over the samples user space submitted, from an
 * XDP and a tc program, for test_user_ringbuf_drain to compare with the
 * kernel: the case after the
 * Ethernet header says which ring (urb, 4 KiB, or urb_big, UR_BIG bytes),
 * the flags, after how many samples the callback returns 1, whether it
 * writes into the sample and whether it drains the same ring again from
 * inside (-EBUSY). The callback stores what it saw of each of the first
 * 16 samples in `seen` (the dynptr's size and read-only bit, the first
 * and last bytes by bpf_dynptr_read and bpf_dynptr_data, its write's
 * answer) and
 * counts every call; the drain's return and the counts go back in the
 * packet.
 */
#include "hr_dynptr.h"

#ifndef UR_BIG
#define UR_BIG (2 << 20)
#endif

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 4096);
} urb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, UR_BIG);
} urb_big SEC(".maps");

/* Sizes libbpf rounds up to a power-of-2 number of pages (8192, 4096),
 * as headroom's loader must. */
struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 5000);
} urb_odd SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1000);
} rb_odd SEC(".maps");

struct seen {
	__u32 size, rdonly;
	long long read_ret, data_ok, write_ret, nest_ret;
	__u8 bytes[32];
	__u64 first8;
	__u8 tail[8]; /* the last 8 bytes, when there are 8 */
	long long tail_ret;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, struct seen);
} seen SEC(".maps");

/* After the Ethernet header: the case in, the answers out. */
struct ur_case {
	__u32 big, stop_after;
	__u64 flags;
	__u32 write, nest;
	long long ret, calls;
};

struct cb_ctx {
	__u32 calls, stop_after, write, nest;
};

static long nested_cb(struct bpf_dynptr *dynptr, void *ctx)
{
	return 0;
}

static long sample_cb(struct bpf_dynptr *dynptr, void *ctx)
{
	struct cb_ctx *c = ctx;
	__u32 i = c->calls, n;
	struct seen *s;
	__u8 one = 0xee;
	__u64 *p;

	c->calls++;
	s = bpf_map_lookup_elem(&seen, &i);
	if (s) {
		s->size = bpf_dynptr_size(dynptr);
		s->rdonly = bpf_dynptr_is_rdonly(dynptr);
		n = s->size < 32 ? s->size : 32;
		s->read_ret = bpf_dynptr_read(s->bytes, n, dynptr, 0, 0);
		p = bpf_dynptr_data(dynptr, 0, 8);
		s->data_ok = p != 0;
		if (p)
			s->first8 = *p;
		if (s->size >= 8)
			s->tail_ret = bpf_dynptr_read(s->tail, 8, dynptr,
						      s->size - 8, 0);
		if (c->write)
			s->write_ret = bpf_dynptr_write(dynptr, 0, &one, 1, 0);
		if (c->nest)
			s->nest_ret =
				bpf_user_ringbuf_drain(&urb, nested_cb, 0, 0);
	}
	if (c->stop_after && c->calls >= c->stop_after)
		return 1;
	return 0;
}

/* Drains the ring the case at @r says, and puts the answers there. */
static __always_inline void drain_case(struct ur_case *r)
{
	struct cb_ctx c = {};

	c.stop_after = r->stop_after;
	c.write = r->write;
	c.nest = r->nest;
	if (r->big)
		r->ret = bpf_user_ringbuf_drain(&urb_big, sample_cb, &c,
						r->flags);
	else
		r->ret = bpf_user_ringbuf_drain(&urb, sample_cb, &c, r->flags);
	r->calls = c.calls;
}

SEC("xdp")
int xdp_user_ringbuf(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ur_case *r = data + 14;

	if ((void *)(r + 1) <= data_end)
		drain_case(r);
	return XDP_PASS;
}

SEC("tc")
int tc_user_ringbuf(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct ur_case *r = data + 14;

	if ((void *)(r + 1) <= data_end)
		drain_case(r);
	return 0; /* TC_ACT_OK */
}

char _license[] SEC("license") = "GPL";
