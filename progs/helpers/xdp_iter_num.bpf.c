// SPDX-License-Identifier: MIT
/*
 * The numeric iterator (bpf_iter_num_new, _next, _destroy) over bounds
 * the packet gives, the RCU and preemption markers around it, and
 * bpf_ktime_get_tai_ns, answering in the packet for test_iter_num to
 * compare with the kernel.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* 6.4's UAPI type, absent from the 6.1 headers this builds against; the
 * verifier knows the iterator by this name and size. */
struct bpf_iter_num {
	__u64 __opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;
extern void bpf_preempt_disable(void) __ksym;
extern void bpf_preempt_enable(void) __ksym;

/* After the Ethernet header: the bounds in, the answers out. */
struct iter_rec {
	int start, end;
	int ret, count;
	long long sum;
	int first, last;
	int after; /* next() once more after the end */
	int pad;
};

SEC("xdp")
int xdp_iter_num(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct iter_rec *r = data + 14;
	struct bpf_iter_num it;
	int *v;

	if ((void *)(r + 1) > data_end)
		return XDP_ABORTED;
	r->count = 0;
	r->sum = 0;
	r->first = -1;
	r->last = -1;
	bpf_rcu_read_lock();
	r->ret = bpf_iter_num_new(&it, r->start, r->end);
	while ((v = bpf_iter_num_next(&it))) {
		if (!r->count)
			r->first = *v;
		r->count++;
		r->sum += *v;
		r->last = *v;
	}
	r->after = bpf_iter_num_next(&it) != 0;
	bpf_iter_num_destroy(&it);
	bpf_rcu_read_unlock();
	return XDP_PASS;
}

/*
 * The TAI clock twice, with preemption "off" between, against the
 * caller's own TAI reading at offset 16: bit 0 not before it, bit 1 the
 * clock not going back, bit 2 within a second of it (the packet keeps
 * no time, so the answer is the same from the kernel and headroom).
 */
SEC("xdp")
int xdp_tai(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u64 *t = data + 16, a, b;

	if ((void *)(t + 2) > data_end)
		return XDP_ABORTED;
	bpf_preempt_disable();
	a = bpf_ktime_get_tai_ns();
	b = bpf_ktime_get_tai_ns();
	bpf_preempt_enable();
	t[1] = (a >= t[0]) | (b >= a) << 1 |
	       (a >= t[0] && a - t[0] < 1000000000ull) << 2;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
