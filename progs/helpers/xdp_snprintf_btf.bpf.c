// SPDX-License-Identifier: MIT
/*
 * bpf_snprintf_btf over kernel types the program holds itself: the packet
 * picks the type (struct ethhdr, iphdr, tcphdr, in6_addr, xdp_md,
 * list_head, enum xdp_action, int, __u64, bpf_fib_lookup,
 * bpf_tunnel_key, or an ethhdr read in place in the packet), the
 * object's bytes, the flags and the output size (1 to OUT); the BTF id
 * is the kernel's (bpf_core_type_id_kernel), or the packet's own for the
 * error cases, the btf_ptr size may be cut to 8 and ptr->ptr set to any
 * address. The return and the text go back in the packet for
 * test_snprintf_btf to compare with the kernel.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#define OUT 1024
#define OPT_SHORT_PTR 1 /* btf_ptr_size 8 */
#define OPT_TYPE_ID 2 /* the record's type_id */

struct list_head {
	struct list_head *next, *prev;
};

/* After the Ethernet header: the case in, the answers out. */
struct sbtf_rec {
	__u32 which, size;
	__u64 flags;
	__u32 type_id; /* with OPT_TYPE_ID: used instead of the kernel's */
	__u32 opts; /* OPT_* */
	__u64 bad_ptr; /* non-zero: ptr->ptr (headroom's cases) */
	__u8 obj[64];
	long long ret;
	char out[OUT];
};

char out[OUT];

SEC("xdp")
int xdp_snprintf_btf(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct sbtf_rec *r = data + 14;
	__u64 obj[8];
	struct btf_ptr p = {};
	__u32 size;
	long long ret;

	if ((void *)(r + 1) > data_end)
		return XDP_ABORTED;
	__builtin_memcpy(obj, r->obj, sizeof(obj));
	__builtin_memset(out, 0, sizeof(out));
	p.ptr = obj;
	switch (r->which) {
	case 0:
		p.type_id = bpf_core_type_id_kernel(struct ethhdr);
		break;
	case 1:
		p.type_id = bpf_core_type_id_kernel(struct iphdr);
		break;
	case 2:
		p.type_id = bpf_core_type_id_kernel(struct tcphdr);
		break;
	case 3:
		p.type_id = bpf_core_type_id_kernel(struct in6_addr);
		break;
	case 4:
		p.type_id = bpf_core_type_id_kernel(struct xdp_md);
		break;
	case 5:
		p.type_id = bpf_core_type_id_kernel(struct list_head);
		break;
	case 6:
		p.type_id = bpf_core_type_id_kernel(enum xdp_action);
		break;
	case 7:
		p.type_id = bpf_core_type_id_kernel(int);
		break;
	case 8:
		p.type_id = bpf_core_type_id_kernel(__u64);
		break;
	case 10:
		p.type_id = bpf_core_type_id_kernel(struct bpf_fib_lookup);
		break;
	case 11:
		p.type_id = bpf_core_type_id_kernel(struct bpf_tunnel_key);
		break;
	default:
		/* The Ethernet header where it is, in the packet. */
		p.ptr = data;
		p.type_id = bpf_core_type_id_kernel(struct ethhdr);
	}
	if (r->opts & OPT_TYPE_ID)
		p.type_id = r->type_id;
	if (r->bad_ptr)
		p.ptr = (void *)(long)r->bad_ptr;
	size = (r->size & (OUT - 1)) + 1;
	if (r->opts & OPT_SHORT_PTR)
		ret = bpf_snprintf_btf(out, size, &p, 8, r->flags);
	else
		ret = bpf_snprintf_btf(out, size, &p, sizeof(p), r->flags);
	r->ret = ret;
	__builtin_memcpy(r->out, out, sizeof(out));
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
