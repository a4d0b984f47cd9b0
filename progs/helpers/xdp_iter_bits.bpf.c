// SPDX-License-Identifier: MIT
/*
 * The bits iterator (bpf_iter_bits_new, _next, _destroy) over words on
 * the stack, in a map value of 512 words, at a NULL or a raw address,
 * with the word count the packet gives, answering in the packet for
 * test_iter_bits to compare with the kernel.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_iter_bits.h"

#define BIG_WORDS 512

struct big {
	__u64 w[BIG_WORDS];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct big);
} big SEC(".maps");

/* Where the words are (bits_rec.src). */
enum { SRC_STACK, SRC_NULL, SRC_ADDR, SRC_MAP, SRC_CHANGED };

/* After the Ethernet header: the case in, the answers out. */
struct bits_rec {
	__u32 nr_words, src;
	__u64 addr; /* SRC_ADDR */
	__u64 words[4]; /* the stack's words; the map's repeat them */
	int ret, count;
	int first, last;
	long long sum;
	int after; /* next() once more after the end */
	int pad;
};

SEC("xdp")
int xdp_iter_bits(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct bits_rec *r = data + 14;
	struct bpf_iter_bits it;
	__u64 words[4];
	const __u64 *src = words;
	struct big *b;
	__u32 k = 0;
	int *v, i;

	if ((void *)(r + 1) > data_end)
		return XDP_ABORTED;
	b = bpf_map_lookup_elem(&big, &k);
	if (!b)
		return XDP_ABORTED;
	for (i = 0; i < 4; i++)
		words[i] = r->words[i];
	if (r->src == SRC_NULL)
		src = 0;
	else if (r->src == SRC_ADDR)
		src = (const __u64 *)r->addr;
	else if (r->src == SRC_MAP) {
		for (i = 0; i < BIG_WORDS; i++)
			b->w[i] = r->words[i & 3];
		src = b->w;
	}
	r->count = 0;
	r->sum = 0;
	r->first = -1;
	r->last = -1;
	r->ret = bpf_iter_bits_new(&it, src, r->nr_words);
	/* The iterator took a copy: changing the words now changes
	 * nothing it gives. */
	if (r->src == SRC_CHANGED)
		for (i = 0; i < 4; i++)
			words[i] = ~words[i];
	while ((v = bpf_iter_bits_next(&it))) {
		if (!r->count)
			r->first = *v;
		r->count++;
		r->sum += *v;
		r->last = *v;
	}
	r->after = bpf_iter_bits_next(&it) != 0;
	bpf_iter_bits_destroy(&it);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
