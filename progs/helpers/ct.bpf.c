// SPDX-License-Identifier: MIT
/*
 * The conntrack kfuncs driven by a request in the packet (after the
 * Ethernet header): look a tuple up, or allocate, set up and insert an
 * entry, with the sizes and options the request gives, good and bad.
 * The program writes back what every call answered (NULL or not, the
 * options after the call, the int results) and the fields it read
 * through the struct nf_conn it was given (status, mark, timeout, zone
 * and both tuples), for test_ct to compare with the kernel. struct
 * nf_conn is read through CO-RE, as against the kernel's own BTF.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_ct.h"

union nf_inet_addr {
	__u32 all[4];
	__be32 ip;
	__be32 ip6[4];
};

/* The fields read, relocated against the target BTF. */
struct nf_conntrack_man {
	union nf_inet_addr u3;
	union {
		__be16 all;
	} u;
	__u16 l3num;
} __attribute__((preserve_access_index));

struct nf_conntrack_tuple {
	struct nf_conntrack_man src;
	struct {
		union nf_inet_addr u3;
		union {
			__be16 all;
		} u;
		__u8 protonum;
		__u8 dir;
	} dst;
} __attribute__((preserve_access_index));

struct nf_conntrack_tuple_hash {
	struct nf_conntrack_tuple tuple;
} __attribute__((preserve_access_index));

struct nf_conntrack_zone {
	__u16 id;
	__u8 flags;
	__u8 dir;
} __attribute__((preserve_access_index));

struct nf_conntrack {
	struct {
		struct {
			int counter;
		} refs;
	} use;
} __attribute__((preserve_access_index));

struct nf_conn {
	struct nf_conntrack ct_general;
	__u32 timeout;
	struct nf_conntrack_zone zone;
	struct nf_conntrack_tuple_hash tuplehash[2];
	unsigned long status;
	__u32 mark;
} __attribute__((preserve_access_index));

struct nf_conn___init {
	struct nf_conn ct;
} __attribute__((preserve_access_index));

#define CT_HZ 250 /* CONFIG_HZ of the test machines */
#define IPS_CONFIRMED 8

enum { OP_LOOKUP = 1, OP_ALLOC = 2 };

/* Which calls a request asks for. */
#define DO_TIMEOUT 1 /* set_timeout (alloc) / change_timeout (lookup) */
#define DO_STATUS 2 /* set_status / change_status */
#define DO_MARK 4 /* ct->mark = mark */
#define DO_NAT_SRC 8
#define DO_NAT_DST 16

/* What was read through the entry. */
struct ct_view {
	__u64 status;
	__u32 mark;
	__u32 timeout; /* raw unconfirmed, else seconds left (rounded) */
	__u16 zone_id;
	__u8 zone_dir;
	__u8 pad;
	__u16 l3num;
	__u8 protonum;
	__u8 dir1; /* the reply tuple's dir */
	__u32 osrc[4], odst[4];
	__u16 osport, odport;
	__u32 rsrc[4], rdst[4];
	__u16 rsport, rdport;
	__s32 use; /* the references */
	__u32 pad2;
};

struct ct_req {
	__u32 op;
	__u32 tuple_sz;
	__u32 opts_sz;
	__u32 timeout;
	__u32 status;
	__u32 flags;
	__u32 mark;
	__u32 nat_addr;
	__s32 nat_port;
	__u32 pad;
	__u8 tuple[40];
	struct bpf_ct_opts opts;
	__u8 opts_pad[8];
	/* out */
	__s32 found;
	__s32 inserted;
	__s32 r_timeout;
	__s32 r_status;
	__s32 r_nat_src;
	__s32 r_nat_dst;
	struct ct_view before, after;
};

static __always_inline void view(struct nf_conn *ct, struct ct_view *v)
{
	__u32 t = ct->timeout;
	int i;

	v->status = ct->status;
	v->use = ct->ct_general.use.refs.counter;
	v->mark = ct->mark;
	if (v->status & IPS_CONFIRMED)
		t = (t - (__u32)bpf_jiffies64() + CT_HZ / 2) / CT_HZ;
	v->timeout = t;
	v->zone_id = ct->zone.id;
	v->zone_dir = ct->zone.dir;
	v->l3num = ct->tuplehash[0].tuple.src.l3num;
	v->protonum = ct->tuplehash[0].tuple.dst.protonum;
	v->dir1 = ct->tuplehash[1].tuple.dst.dir;
	for (i = 0; i < 4; i++) {
		v->osrc[i] = ct->tuplehash[0].tuple.src.u3.all[i];
		v->odst[i] = ct->tuplehash[0].tuple.dst.u3.all[i];
		v->rsrc[i] = ct->tuplehash[1].tuple.src.u3.all[i];
		v->rdst[i] = ct->tuplehash[1].tuple.dst.u3.all[i];
	}
	v->osport = ct->tuplehash[0].tuple.src.u.all;
	v->odport = ct->tuplehash[0].tuple.dst.u.all;
	v->rsport = ct->tuplehash[1].tuple.src.u.all;
	v->rdport = ct->tuplehash[1].tuple.dst.u.all;
}

/* The sizes, bounded so the verifier knows the buffers hold them. */
static __always_inline __u32 bound(__u32 v, __u32 max)
{
	return v > max ? max : v;
}

static __always_inline void after_lookup(struct ct_req *q, struct nf_conn *ct)
{
	view(ct, &q->before);
	if (q->flags & DO_TIMEOUT)
		q->r_timeout = bpf_ct_change_timeout(ct, q->timeout);
	if (q->flags & DO_STATUS)
		q->r_status = bpf_ct_change_status(ct, q->status);
	if (q->flags & DO_MARK)
		ct->mark = q->mark;
	view(ct, &q->after);
	bpf_ct_release(ct);
}

static __always_inline void after_alloc(struct ct_req *q,
					struct nf_conn___init *ct)
{
	union nf_inet_addr a = {};
	struct nf_conn *ins;

	a.ip = q->nat_addr;
	if (q->flags & DO_TIMEOUT)
		bpf_ct_set_timeout(ct, q->timeout);
	if (q->flags & DO_STATUS)
		q->r_status = bpf_ct_set_status(ct, q->status);
	if (q->flags & DO_MARK)
		((struct nf_conn *)ct)->mark = q->mark;
	if (q->flags & DO_NAT_SRC)
		q->r_nat_src = bpf_ct_set_nat_info(ct, &a, q->nat_port,
						   NF_NAT_MANIP_SRC);
	if (q->flags & DO_NAT_DST)
		q->r_nat_dst = bpf_ct_set_nat_info(ct, &a, q->nat_port,
						   NF_NAT_MANIP_DST);
	view((struct nf_conn *)ct, &q->before);
	ins = bpf_ct_insert_entry(ct);
	if (!ins)
		return;
	q->inserted = 1;
	view(ins, &q->after);
	bpf_ct_release(ins);
}

#define CT_PROG(SEC_NAME, NAME, CTX, LOOKUP, ALLOC)              \
	SEC(SEC_NAME)                                            \
	int NAME(CTX *ctx)                                       \
	{                                                        \
		void *data = (void *)(long)ctx->data;            \
		void *end = (void *)(long)ctx->data_end;         \
		struct ct_req *q = data + 14;                    \
		struct bpf_sock_tuple t = {};                    \
		struct bpf_ct_opts o[2] = {};                    \
		__u32 tsz, osz;                                  \
		struct nf_conn___init *nc;                       \
		struct nf_conn *ct;                              \
                                                                 \
		if ((void *)(q + 1) > end)                       \
			return 1;                                \
		__builtin_memcpy(&t, q->tuple, sizeof(t));       \
		__builtin_memcpy(&o[0], &q->opts, sizeof(o[0])); \
		tsz = bound(q->tuple_sz, sizeof(t));             \
		osz = bound(q->opts_sz, sizeof(o));              \
		if (q->op == OP_LOOKUP) {                        \
			ct = LOOKUP(ctx, &t, tsz, &o[0], osz);   \
			q->found = ct != 0;                      \
			if (ct)                                  \
				after_lookup(q, ct);             \
		} else if (q->op == OP_ALLOC) {                  \
			nc = ALLOC(ctx, &t, tsz, &o[0], osz);    \
			q->found = nc != 0;                      \
			if (nc)                                  \
				after_alloc(q, nc);              \
		}                                                \
		__builtin_memcpy(&q->opts, &o[0], sizeof(o[0])); \
		return 2;                                        \
	}

CT_PROG("xdp", xdp_ct, struct xdp_md, bpf_xdp_ct_lookup, bpf_xdp_ct_alloc)
CT_PROG("tc", tc_ct, struct __sk_buff, bpf_skb_ct_lookup, bpf_skb_ct_alloc)

char LICENSE[] SEC("license") = "GPL";
