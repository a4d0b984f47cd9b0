// SPDX-License-Identifier: MIT
/*
 * For tests/cli/test_abort_access.sh: programs the kernel's verifier would
 * refuse, each aborting in headroom on one memory access whose detail
 * (kind, size, region, offset, bounds) the test checks under both
 * engines: a packet read past data_end only for short packets, a metadata
 * read before data_meta, stores past array and hash map values, below the
 * stack frame, a helper writing past the stack, a store past global data,
 * a load past the context, one through NULL and a tc read past data_end.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

/* Checks the Ethernet header only, then reads the 4 bytes at 54: a packet
 * of 58 bytes or more passes, a 56-byte one reads 2 bytes past data_end. */
SEC("xdp")
int short_read(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if (data + 14 > end)
		return XDP_DROP;
	return *(volatile __u32 *)(data + 54) ? XDP_PASS : XDP_DROP;
}

/* The 4 bytes before data_meta. */
SEC("xdp")
int meta_before(struct xdp_md *ctx)
{
	void *meta = (void *)(long)ctx->data_meta;

	return *(volatile __u32 *)(meta - 4) ? XDP_PASS : XDP_DROP;
}

/* A 4-byte store at offset 8 of an 8-byte value. */
SEC("xdp")
int value_past(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&counts, &k);

	if (!v)
		return XDP_DROP;
	*(volatile __u32 *)((char *)v + 8) = 1;
	return XDP_PASS;
}

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} flows SEC(".maps");

/* The same in a hash map, whose values lie inside their elements: the
 * bytes after one are the next element's, no value's. */
SEC("xdp")
int hash_past(struct xdp_md *ctx)
{
	__u32 k = 7;
	__u64 zero = 0, *v;

	bpf_map_update_elem(&flows, &k, &zero, BPF_ANY);
	v = bpf_map_lookup_elem(&flows, &k);
	if (!v)
		return XDP_DROP;
	*(volatile __u32 *)((char *)v + 12) = 1;
	return XDP_PASS;
}

/* An 8-byte store at r10-520, 8 bytes below the 512-byte frame. */
SEC("xdp")
__attribute__((naked)) int stack_below(void)
{
	asm volatile("r1 = 1;"
		     "*(u64 *)(r10 - 520) = r1;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

/* bpf_xdp_load_bytes (189) copying 32 bytes into the 16 at r10-16. */
SEC("xdp")
__attribute__((naked)) int helper_past(void)
{
	asm volatile("r2 = 0;"
		     "r3 = r10;"
		     "r3 += -16;"
		     "r4 = 32;"
		     "call 189;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

/* The only global of .bss, 4 bytes, and a store right after it. */
static volatile __u32 hits;

SEC("xdp")
int global_past(struct xdp_md *ctx)
{
	(&hits)[1] = 1;
	return XDP_PASS;
}

/* A load of the 4 bytes after struct xdp_md (24 bytes), at a context
 * offset the loader cannot see (r2 is the context plus 20 plus 4). */
SEC("xdp")
__attribute__((naked)) int ctx_past(void)
{
	asm volatile("r2 = r1;"
		     "r2 += 20;"
		     "r3 = *(u32 *)(r1 + 0);"
		     "r3 &= 0;"
		     "r3 += 4;"
		     "r2 += r3;"
		     "r0 = *(u32 *)(r2 + 0);"
		     "exit;" ::
			     : "memory");
}

/* A load through a NULL pointer plus 16. */
SEC("xdp")
__attribute__((naked)) int null_read(void)
{
	asm volatile("r1 = 0;"
		     "r0 = *(u32 *)(r1 + 16);"
		     "exit;" ::
			     : "memory");
}

/* tc: the Ethernet header checked, then a 2-byte read at offset 20. */
SEC("tc")
int tc_short_read(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;

	if (data + 14 > end)
		return TC_ACT_SHOT;
	return *(volatile __u16 *)(data + 20) ? TC_ACT_OK : TC_ACT_SHOT;
}

char LICENSE[] SEC("license") = "GPL";
