/* Three ring buffer records reserved, the first discarded, two leaked:
 * the kernel names the older of the two. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

/* Three records into a, b and c, or XDP_PASS with none held. */
#define RESERVE3(a, b, c)                           \
	do {                                        \
		a = bpf_ringbuf_reserve(&rb, 8, 0); \
		if (!a)                             \
			return XDP_PASS;            \
		b = bpf_ringbuf_reserve(&rb, 8, 0); \
		if (!b) {                           \
			bpf_ringbuf_discard(a, 0);  \
			return XDP_PASS;            \
		}                                   \
		c = bpf_ringbuf_reserve(&rb, 8, 0); \
		if (!c) {                           \
			bpf_ringbuf_discard(b, 0);  \
			bpf_ringbuf_discard(a, 0);  \
			return XDP_PASS;            \
		}                                   \
	} while (0)

SEC("xdp") int bad_rb_order(struct xdp_md *ctx)
{
	__u64 *a, *b, *c;

	RESERVE3(a, b, c);
	bpf_ringbuf_discard(a, 0);
	return XDP_DROP;
}

SEC("xdp") int ok_rb_order(struct xdp_md *ctx)
{
	__u64 *a, *b, *c;

	RESERVE3(a, b, c);
	bpf_ringbuf_discard(a, 0);
	bpf_ringbuf_discard(c, 0);
	bpf_ringbuf_discard(b, 0);
	return XDP_DROP;
}
