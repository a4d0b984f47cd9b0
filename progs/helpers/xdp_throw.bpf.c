// SPDX-License-Identifier: MIT
/*
 * bpf_throw with the default exception callback: the program ends at
 * once and returns the cookie, from the main function or from two
 * bpf-to-bpf frames down, in the case the packet's first byte picks; the
 * second byte is the cookie, and a count before the throw shows which
 * instructions ran. test_throw compares each case with the kernel.
 *
 *   0  no throw: XDP_TX
 *   1  throw in the main function
 *   2  throw two calls down, after the callee wrote the packet
 *   3  throw in a global function
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern void bpf_throw(__u64 cookie) __ksym;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} throw_runs SEC(".maps");

static void count(void)
{
	__u32 k = 0;
	__u64 *n = bpf_map_lookup_elem(&throw_runs, &k);

	if (n)
		*n += 1;
}

static __attribute__((noinline)) int inner(__u8 *p, __u8 cookie)
{
	p[2] = 0xee;
	if (cookie)
		bpf_throw(cookie);
	return 7;
}

static __attribute__((noinline)) int outer(__u8 *p, __u8 cookie)
{
	int r = inner(p, cookie);

	p[3] = (__u8)r; /* not reached after a throw */
	return r;
}

__attribute__((noinline)) int global_throw(__u32 cookie)
{
	if (cookie < 4)
		bpf_throw(cookie);
	return 0;
}

SEC("xdp")
int xdp_throw(struct xdp_md *ctx)
{
	__u8 *p = (void *)(long)ctx->data;
	__u8 *end = (void *)(long)ctx->data_end;
	__u8 cookie;

	if (p + 4 > end)
		return XDP_PASS;
	cookie = p[1] & 3;
	count();
	switch (p[0]) {
	case 1:
		bpf_throw(cookie);
		break;
	case 2:
		p[3] = (__u8)outer(p, cookie);
		break;
	case 3:
		global_throw(cookie);
		break;
	}
	count();
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
