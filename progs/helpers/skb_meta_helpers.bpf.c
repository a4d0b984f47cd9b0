// SPDX-License-Identifier: MIT
/*
 * What the tc skb helpers do to the skb metadata (the layouts are in
 * include/hr_skb_meta_helpers.h; tests/helpers/test_skb_meta_helpers_kernel.c runs
 * it in the kernel's veth path and in headroom's datapath):
 *
 *   smh_xdp  strips the case's filler, makes its metadata with
 *            bpf_xdp_adjust_meta and fills it (SMH_META_BYTE), PASS.
 *   smh_tc   at tc ingress: makes an skb_meta dynptr, calls the case's
 *            helpers one after the other, recording each result, the
 *            metadata length, the packet length and where data is
 *            (one call is a memset through that first dynptr),
 *            then what data_meta .. data holds, what a new skb_meta
 *            dynptr and the first one read, and the packet; SHOT.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "hr_dynptr.h"
#include "hr_skb_meta_helpers.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SMH_NCASES);
	__type(key, __u32);
	__type(value, struct smh_case);
} smh_cases SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SMH_NCASES);
	__type(key, __u32);
	__type(value, struct smh_rec);
} smh_recs SEC(".maps");

/* The case named by an Ethernet source address at @p, or NULL. */
static __always_inline struct smh_case *case_of(const __u8 *p, __u32 *key)
{
	struct smh_case *c;

	if (p[0] != SMH_SRC0 || p[1] != SMH_SRC1 || p[2] != SMH_SRC2)
		return NULL;
	*key = (__u32)p[3] << 8 | p[4];
	c = bpf_map_lookup_elem(&smh_cases, key);
	if (!c || c->magic != SMH_MAGIC)
		return NULL;
	return c;
}

SEC("xdp")
int smh_xdp(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *end = (void *)(long)ctx->data_end;
	struct smh_case *c;
	struct smh_rec *rec;
	__u32 key, fill;
	int rc;

	if (data + ETH_HLEN > end || data[12] != (SMH_ETH_P_FILL >> 8) ||
	    data[13] != (SMH_ETH_P_FILL & 0xff))
		return XDP_PASS;
	c = case_of(data + 6, &key);
	if (!c)
		return XDP_PASS;
	fill = SMH_WIRE_LEN - c->pkt_len;
	if (bpf_xdp_adjust_head(ctx, (int)fill))
		return XDP_DROP;
	rec = bpf_map_lookup_elem(&smh_recs, &key);
	rc = hr_meta_make(ctx, c->meta_len, key);
	if (rec)
		rec->xdp = rc;
	return XDP_PASS;
}

static __always_inline long
do_op(struct __sk_buff *skb, const struct smh_op *op, struct bpf_dynptr *meta)
{
	__u8 bytes[8];
	struct bpf_dynptr d;
	/* 1 .. 8 bytes (b of 1 .. 8; anything else wraps). */
	__u32 n = ((op->b - 1) & 7) + 1, i, ifindex;

#pragma unroll
	for (i = 0; i < 8; i++)
		bytes[i] = SMH_STORE_BYTE(i);
	switch (op->helper) {
	case SMH_VLAN_PUSH:
		return bpf_skb_vlan_push(skb, (__be16)op->a, (__u16)op->b);
	case SMH_VLAN_POP:
		return bpf_skb_vlan_pop(skb);
	case SMH_ADJUST_ROOM:
		return bpf_skb_adjust_room(skb, (__s32)op->a, op->b, op->c);
	case SMH_CHANGE_HEAD:
		return bpf_skb_change_head(skb, op->a, op->c);
	case SMH_CHANGE_TAIL:
		return bpf_skb_change_tail(skb, op->a, op->c);
	case SMH_PULL_DATA:
		return bpf_skb_pull_data(skb, op->a);
	case SMH_CHANGE_PROTO:
		return bpf_skb_change_proto(skb, (__be16)op->a, op->c);
	case SMH_STORE_BYTES:
		return bpf_skb_store_bytes(skb, op->a, bytes, n, op->c);
	case SMH_L3_CSUM:
		return bpf_l3_csum_replace(skb, op->a, op->b, (__u32)op->c,
					   op->c >> 32);
	case SMH_L4_CSUM:
		return bpf_l4_csum_replace(skb, op->a, op->b, (__u32)op->c,
					   op->c >> 32);
	case SMH_CLONE_REDIRECT:
		ifindex = op->a == SMH_SELF ? skb->ifindex : op->a;
		return bpf_clone_redirect(skb, ifindex, op->c);
	case SMH_REDIRECT:
		return bpf_redirect(op->a, op->c);
	case SMH_LOAD_BYTES:
		return bpf_skb_load_bytes(skb, op->a, bytes, n);
	case SMH_DYNPTR_WRITE:
		if (bpf_dynptr_from_skb(skb, 0, &d))
			return -1000;
		return bpf_dynptr_write(&d, op->a, bytes, n, 0);
	case SMH_META_MEMSET:
		return bpf_dynptr_memset(meta, op->a, op->b, SMH_MEMSET_BYTE);
	default:
		return -1001;
	}
}

/* @n bytes (at most SMH_MAX_META) of @p into @out; the read's result. */
static __always_inline long dp_read(__u8 *out, __u32 n, struct bpf_dynptr *p)
{
	n &= 0xff;
	if (n > SMH_MAX_META)
		n = SMH_MAX_META;
	return bpf_dynptr_read(out, n, p, 0, 0);
}

SEC("tc")
int smh_tc(struct __sk_buff *skb)
{
	struct bpf_dynptr old, new;
	struct smh_case *c;
	struct smh_rec *rec;
	__u8 src[6], *dm, *dd;
	__u32 key, n;
	int i;

	if (bpf_skb_load_bytes(skb, 6, src, sizeof(src)))
		return TC_ACT_OK;
	c = case_of(src, &key);
	if (!c)
		return TC_ACT_OK;
	rec = bpf_map_lookup_elem(&smh_recs, &key);
	if (!rec)
		return TC_ACT_OK;
	rec->seen++;
	/* A pointer into the map (root may): the test subtracts. */
	rec->data0 = skb->data;
	rec->meta_len0 = skb->data - skb->data_meta;
	rec->old_create = bpf_dynptr_from_skb_meta(skb, 0, &old);
	rec->old_size = bpf_dynptr_size(&old);

#pragma unroll
	for (i = 0; i < SMH_NOPS; i++) {
		if (i >= c->nops)
			break;
		rec->step[i].rc = (__s32)do_op(skb, &c->ops[i], &old);
		rec->step[i].meta_len = skb->data - skb->data_meta;
		rec->step[i].len = skb->data_end - skb->data;
		rec->step[i].moved = skb->data;
	}
	rec->protocol = skb->protocol;
	rec->vlan_present = skb->vlan_present;
	rec->vlan_tci = skb->vlan_tci;
	rec->vlan_proto = skb->vlan_proto;
	rec->len = skb->len;

	dm = (void *)(long)skb->data_meta;
	dd = (void *)(long)skb->data;
#pragma unroll
	for (i = 0; i < SMH_MAX_META; i++) {
		if (dm + i + 1 > dd)
			break;
		rec->meta[i] = dm[i];
	}
	rec->new_create = bpf_dynptr_from_skb_meta(skb, 0, &new);
	rec->new_size = bpf_dynptr_size(&new);
	rec->new_rd = (__s32)dp_read(rec->new_bytes, rec->new_size, &new);
	rec->old_size_end = bpf_dynptr_size(&old);
	rec->old_rd = (__s32)dp_read(rec->old_bytes, rec->old_size_end, &old);
	n = skb->len;
	if (n > SMH_PKT_SNAP)
		n = SMH_PKT_SNAP;
	if (n < 1)
		n = 1;
	rec->pkt_rd = (__s32)bpf_skb_load_bytes(skb, 0, rec->pkt, n);
	return TC_ACT_SHOT;
}

char _license[] SEC("license") = "GPL";
