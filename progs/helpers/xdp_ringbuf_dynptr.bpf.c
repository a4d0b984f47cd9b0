// SPDX-License-Identifier: MIT
/*
 * A ring buffer record as a dynptr: bpf_ringbuf_reserve_dynptr with the
 * size and flags the packet gives, then bpf_dynptr_memset, _write, _read,
 * _data and _size on it, bpf_ringbuf_query, and bpf_ringbuf_submit_dynptr
 * or _discard_dynptr (after a failed reserve too, as the verifier
 * demands); the answers go back in the packet and the records to the
 * ring, for test_ringbuf_dynptr to compare with the kernel.
 */
#include "hr_dynptr.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

/* After the Ethernet header: the case in, the answers out. */
struct rb_rec {
	__u32 size, flags;
	__u32 discard, off; /* where the 16 bytes are written */
	__u8 bytes[16];
	long long ret, memset_ret, write_ret, read_ret;
	long long dsize, data_ok, avail;
	__u8 back[16];
};

SEC("xdp")
int xdp_ringbuf_dynptr(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct rb_rec *r = data + 14;
	struct bpf_dynptr d;
	/* These helpers take no packet pointers: the bytes go by the stack. */
	__u8 bytes[16], back[16] = {};
	__u64 *p;

	if ((void *)(r + 1) > data_end)
		return XDP_ABORTED;
	r->ret = bpf_ringbuf_reserve_dynptr(&rb, r->size, r->flags, &d);
	r->dsize = bpf_dynptr_size(&d);
	r->memset_ret = bpf_dynptr_memset(&d, 0, r->size, 0x5a);
	__builtin_memcpy(bytes, r->bytes, 16);
	r->write_ret = bpf_dynptr_write(&d, r->off, bytes, 16, 0);
	r->read_ret = bpf_dynptr_read(back, 16, &d, r->off, 0);
	__builtin_memcpy(r->back, back, 16);
	p = bpf_dynptr_data(&d, 0, 8);
	r->data_ok = p != 0;
	if (p)
		*p ^= 0xffff;
	r->avail = bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA);
	if (r->discard)
		bpf_ringbuf_discard_dynptr(&d, 0);
	else
		bpf_ringbuf_submit_dynptr(&d, BPF_RB_NO_WAKEUP);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
