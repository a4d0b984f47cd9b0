// SPDX-License-Identifier: MIT
/*
 * The resilient spin lock (bpf_res_spin_lock, _unlock, _lock_irqsave,
 * _unlock_irqrestore) on map values, and bpf_local_irq_save / _restore,
 * in the case the packet picks; the returns and the values counted under
 * the locks go back in the packet for test_res_lock to compare with the
 * kernel.
 *
 *   0  lock, count, unlock
 *   1  lock_irqsave, count, unlock_irqrestore
 *   2  one element locked through two lookups: the second -EDEADLK
 *   3  two elements, nested
 *   4  irq save, count, irq restore
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* Linux 6.15's UAPI type, absent from the 6.1 headers. */
struct bpf_res_spin_lock {
	__u32 val;
};

extern int bpf_res_spin_lock(struct bpf_res_spin_lock *lock) __ksym;
extern void bpf_res_spin_unlock(struct bpf_res_spin_lock *lock) __ksym;
extern int bpf_res_spin_lock_irqsave(struct bpf_res_spin_lock *lock,
				     unsigned long *flags__irq_flag) __ksym;
extern void
bpf_res_spin_unlock_irqrestore(struct bpf_res_spin_lock *lock,
			       unsigned long *flags__irq_flag) __ksym;
extern void bpf_local_irq_save(unsigned long *flags__irq_flag) __ksym;
extern void bpf_local_irq_restore(unsigned long *flags__irq_flag) __ksym;

struct val {
	struct bpf_res_spin_lock lock;
	__u32 pad;
	__u64 count;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct val);
} vals SEC(".maps");

/* After the Ethernet header: the case in, the answers out. */
struct lock_rec {
	__u32 mode;
	int r1, r2, r3;
	__u64 base; /* the count each case starts from */
	__u64 count0, count1;
};

SEC("xdp")
int xdp_res_lock(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct lock_rec *r = data + 14;
	__u32 k0 = 0, k1 = 1;
	struct val *a, *b, *c;
	unsigned long flags;
	__u64 base, n0 = 0, n1 = 0;
	int r1 = 0, r2 = 0, r3 = 0;

	if ((void *)(r + 1) > data_end)
		return XDP_ABORTED;
	a = bpf_map_lookup_elem(&vals, &k0);
	b = bpf_map_lookup_elem(&vals, &k0);
	c = bpf_map_lookup_elem(&vals, &k1);
	if (!a || !b || !c)
		return XDP_ABORTED;
	base = r->base;
	switch (r->mode) {
	case 0:
		r1 = bpf_res_spin_lock(&a->lock);
		if (r1)
			break;
		a->count = base + 1;
		n0 = a->count;
		bpf_res_spin_unlock(&a->lock);
		break;
	case 1:
		r1 = bpf_res_spin_lock_irqsave(&a->lock, &flags);
		if (r1)
			break;
		a->count = base + 2;
		n0 = a->count;
		bpf_res_spin_unlock_irqrestore(&a->lock, &flags);
		break;
	case 2:
		r1 = bpf_res_spin_lock(&a->lock);
		if (r1)
			break;
		r2 = bpf_res_spin_lock(&b->lock);
		if (!r2) {
			b->count = base + 100;
			bpf_res_spin_unlock(&b->lock);
		}
		a->count = base + 3;
		n0 = a->count;
		bpf_res_spin_unlock(&a->lock);
		break;
	case 3:
		r1 = bpf_res_spin_lock(&a->lock);
		if (r1)
			break;
		r2 = bpf_res_spin_lock(&c->lock);
		if (!r2) {
			c->count = base + 5;
			n1 = c->count;
			bpf_res_spin_unlock(&c->lock);
		}
		a->count = base + 4;
		n0 = a->count;
		bpf_res_spin_unlock(&a->lock);
		break;
	case 4:
		bpf_local_irq_save(&flags);
		a->count = base + 6;
		n0 = a->count;
		bpf_local_irq_restore(&flags);
		break;
	default:
		r3 = -1;
	}
	r->r1 = r1;
	r->r2 = r2;
	r->r3 = r3;
	r->count0 = n0;
	r->count1 = n1;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
