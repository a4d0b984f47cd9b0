// SPDX-License-Identifier: MIT
/*
 * bpf_user_ringbuf_drain callbacks that reach what the verifier keeps
 * them from (it refuses these programs; headroom, without one, must end
 * the run there, and leave the ring drainable): the selector is packet
 * byte 14; each callback first stores the sample's first 8 bytes, read
 * through bpf_dynptr_data, in `last` (samples are 8 bytes).
 *
 *   0  nothing more (allowed: the drain's count is the return value)
 *   1  a load one byte past the sample
 *   2  a store into the dynptr itself (a const struct bpf_dynptr)
 *   3  bpf_ringbuf_submit_dynptr of it ("cannot release unowned const
 *      bpf_dynptr")
 *   4  the sample's address kept, and loaded from after the drain
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 4096);
} urb SEC(".maps");

__u64 last, kept;

static long forge_cb(struct bpf_dynptr *dynptr, void *ctx)
{
	__u8 sel = *(__u8 *)ctx;
	volatile __u8 *b;
	__u64 *p;

	p = bpf_dynptr_data(dynptr, 0, 8);
	if (!p)
		return 1;
	last = *p;
	b = (volatile __u8 *)p;
	if (sel == 1)
		last = b[8];
	else if (sel == 2)
		*(volatile __u64 *)dynptr = 0;
	else if (sel == 3)
		bpf_ringbuf_submit_dynptr(dynptr, 0);
	else if (sel == 4)
		kept = (__u64)(long)p;
	return 0;
}

SEC("xdp")
int user_ringbuf_forged(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u8 *pkt = data, sel;
	long n;

	if ((void *)(pkt + 15) > end)
		return XDP_ABORTED;
	sel = pkt[14];
	n = bpf_user_ringbuf_drain(&urb, forge_cb, &sel, 0);
	if (sel == 4 && kept)
		last = *(volatile __u64 *)(long)kept;
	return n;
}

char _license[] SEC("license") = "GPL";
