// SPDX-License-Identifier: MIT
/*
 * Local dynptrs forged on the stack (the kernel's verifier refuses these
 * programs; headroom, without one, must end the run instead of touching
 * memory it was not given): 16 bytes of type local naming memory the
 * program picks from packet byte 14, then bpf_dynptr_read or
 * bpf_dynptr_data through them.
 *
 *   0  the packet, 16 bytes, read 4       (its own memory: allowed)
 *   1  address 0x1000, 16 bytes, read 4   (nothing of the program's)
 *   2  the packet, 8192 bytes, read at 4000 (past the packet)
 *   3  address 0x1000, 16 bytes, bpf_dynptr_data of 8
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int local_forged(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u8 *p = data, out[4];
	__u64 d[2];
	__u8 sel;

	if ((void *)(p + 15) > end)
		return XDP_ABORTED;
	sel = p[14];
	d[0] = sel == 1 || sel == 3 ? 0x1000 : (__u64)(long)data;
	d[1] = 1u << 28 | (sel == 2 ? 8192 : 16);
	if (sel == 3)
		return bpf_dynptr_data((void *)d, 0, 8) ? XDP_PASS : XDP_DROP;
	return bpf_dynptr_read(out, sizeof(out), (void *)d, sel == 2 ? 4000 : 0,
			       0) ?
		       XDP_DROP :
		       XDP_PASS;
}

char _license[] SEC("license") = "GPL";
