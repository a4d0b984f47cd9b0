// SPDX-License-Identifier: MIT
/* Skeleton-style configuration: const volatile globals set before load. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const volatile __u32 verdict = XDP_PASS;
const volatile __u8 drop_first_byte = 0; /* 0: off */
const volatile __u64 stamp = 0;
__u32 seen = 0; /* .bss */

SEC("xdp")
int conv_rodata(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u64 s;

	if ((void *)(data + 8) > end)
		return XDP_ABORTED;
	seen++;
	if (drop_first_byte && data[0] == drop_first_byte)
		return XDP_DROP;
	s = stamp; /* one volatile read, then a plain copy */
	__builtin_memcpy(data, &s, 8);
	return verdict;
}

char _license[] SEC("license") = "GPL";
