// SPDX-License-Identifier: MIT
/*
 * bpf_strncmp of the 8 bytes after the Ethernet header against constant
 * strings, at several lengths, answers written back after them, for
 * test_strncmp to compare with the kernel.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_strncmp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u8 *p = data + 14;
	char buf[8];
	__s8 *out = data + 22;

	if ((void *)(out + 6) > data_end)
		return XDP_ABORTED;
	__builtin_memcpy(buf, p, sizeof(buf));
	out[0] = bpf_strncmp(buf, 8, "hello");
	out[1] = bpf_strncmp(buf, 3, "hello");
	out[2] = bpf_strncmp(buf, 1, "h");
	out[3] = bpf_strncmp(buf, 8, "");
	out[4] = bpf_strncmp(buf, 8, "\x80\x7f");
	out[5] = bpf_strncmp(buf, 5, "hello world");
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
