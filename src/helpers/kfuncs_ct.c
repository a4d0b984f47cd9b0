// SPDX-License-Identifier: MIT
/*
 * The conntrack kfuncs of XDP and tc programs, after Linux 6.18's
 * net/netfilter/nf_conntrack_bpf.c (bpf_xdp_ct_lookup, bpf_skb_ct_lookup,
 * bpf_xdp_ct_alloc, bpf_skb_ct_alloc, bpf_ct_insert_entry,
 * bpf_ct_release, bpf_ct_set_timeout, bpf_ct_change_timeout,
 * bpf_ct_set_status, bpf_ct_change_status) and nf_nat_bpf.c
 * (bpf_ct_set_nat_info), over headroom's table (core/ct.c).
 *
 * An entry handed out is the run's reference, kept among its held
 * records: the program reads that entry's struct nf_conn image and
 * nothing past it, writes its mark alone (as the kernel's verifier
 * allows), and whatever it has not let go of when the run ends is let
 * go then. The kernel's verifier tells an allocated
 * entry (struct nf_conn___init) from an inserted or found one and
 * refuses a call with the wrong kind; here such a call stops the run.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "helpers/helpers.h"
#include "core/ct.h"

/* struct bpf_ct_opts (nf_conntrack_bpf.c), NF_BPF_CT_OPTS_SZ bytes; 12
 * bytes is the size before the zone fields, still accepted. */
struct ct_opts {
	int32_t netns_id;
	int32_t error;
	uint8_t l4proto;
	uint8_t dir;
	uint16_t ct_zone_id;
	uint8_t ct_zone_dir;
	uint8_t reserved[3];
};

#define CT_OPTS_SZ 16
#define CT_OPTS_SZ_OLD 12
#define CT_CURRENT_NETNS (-1) /* BPF_F_CURRENT_NETNS */
#define CT_ZONE_DIR_BOTH 3 /* NF_CT_DEFAULT_ZONE_DIR */
#define CT_TUPLE4_SZ 12 /* sizeof(bpf_sock_tuple.ipv4) */
#define CT_TUPLE6_SZ 36 /* sizeof(bpf_sock_tuple.ipv6) */
/* The timeout bpf_*_ct_alloc gives, in seconds. */
#define CT_ALLOC_TIMEOUT 10

static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

/* ---- references ---- */

/* The two kinds of reference (hr_held_rec.kind): an allocated entry
 * (struct nf_conn___init) and an inserted or found one. */
enum { CT_REF_INIT = 1, CT_REF_CONN };

static void drop_ct(void *ct)
{
	hr_ct_put(ct);
}

/* Holds @ct for the run; its image's address, or 0 (with @ct let go)
 * when the run holds all it can. */
static uint64_t hold(struct hr_run *run, struct hr_ct *ct, bool init)
{
	uint8_t *img = hr_ct_image(ct);

	if (run->nheld >= HR_MAX_HELD_RECORDS) {
		hr_ct_put(ct);
		return 0;
	}
	run->held[run->nheld++] = (struct hr_held_rec){
		.start = (uintptr_t)img,
		.end = (uintptr_t)img + hr_ct_image_size(ct),
		.drop = drop_ct,
		.obj = ct,
		.kind = init ? CT_REF_INIT : CT_REF_CONN,
		/* nf_conntrack_bpf.c's btf_struct_access: mark alone. */
		.wr_lo = (uintptr_t)img + hr_ct_mark_off(ct),
		.wr_hi = (uintptr_t)img + hr_ct_mark_off(ct) + 4,
	};
	return (uintptr_t)img;
}

/* The run's reference @ptr of the kind @init, or NULL after stopping
 * the run: the kernel's verifier takes no other pointer here. */
static struct hr_held_rec *held(struct hr_run *run, uint64_t ptr, bool init)
{
	unsigned int kind = init ? CT_REF_INIT : CT_REF_CONN, i;

	for (i = 0; i < run->nheld; i++)
		if (run->held[i].drop == drop_ct && run->held[i].kind == kind &&
		    run->held[i].start == ptr)
			return &run->held[i];
	hr_run_abort(run, HR_ABORT_HELPER_ARG, ptr);
	return NULL;
}

static struct hr_ct *held_ct(struct hr_run *run, uint64_t ptr, bool init)
{
	struct hr_held_rec *h = held(run, ptr, init);

	return h ? h->obj : NULL;
}

static void unhold(struct hr_run *run, struct hr_held_rec *h)
{
	*h = run->held[--run->nheld];
}

/* ---- arguments ---- */

/* The options, @sz bytes as the verifier checks them, and at least the
 * error field every failure writes. */
static struct ct_opts *opts_get(struct hr_run *run, uint64_t addr, uint32_t sz)
{
	uint32_t need = offsetof(struct ct_opts, l4proto);

	return hr_run_mem(run, addr, sz > need ? sz : need, true);
}

/* The size and reserved-field rules both lookups and allocations apply
 * first. */
static int opts_check(const struct ct_opts *o, uint32_t sz)
{
	if (sz == CT_OPTS_SZ)
		return o->reserved[0] || o->reserved[1] || o->reserved[2] ?
			       -EINVAL :
			       0;
	if (sz == CT_OPTS_SZ_OLD)
		return o->ct_zone_id ? -EINVAL : 0;
	return -EINVAL;
}

static bool l4_ok(uint8_t proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP;
}

/* bpf_nf_ct_tuple_parse for the original direction: @b is a struct
 * bpf_sock_tuple of @len bytes. */
static int tuple_parse(const uint8_t *b, uint32_t len, uint8_t proto,
		       struct hr_ct_tuple *t)
{
	unsigned int alen = len == CT_TUPLE4_SZ ? 4 : 16;

	if (!l4_ok(proto))
		return -EPROTO;
	memset(t, 0, sizeof(*t));
	if (len != CT_TUPLE4_SZ && len != CT_TUPLE6_SZ)
		return -EAFNOSUPPORT;
	t->l3num = alen == 4 ? AF_INET : AF_INET6;
	memcpy(t->src, b, alen);
	memcpy(t->dst, b + alen, alen);
	memcpy(&t->sport, b + 2 * alen, 2);
	memcpy(&t->dport, b + 2 * alen + 2, 2);
	t->protonum = proto;
	return 0;
}

/* The zone the options name (the default one for 12-byte options),
 * writing back the direction the kernel fills in. */
static void opts_zone(struct ct_opts *o, uint32_t sz, struct hr_ct_zone *z)
{
	*z = (struct hr_ct_zone){ .dir = CT_ZONE_DIR_BOTH };
	if (sz != CT_OPTS_SZ)
		return;
	if (!o->ct_zone_dir)
		o->ct_zone_dir = CT_ZONE_DIR_BOTH;
	z->id = o->ct_zone_id;
	z->dir = o->ct_zone_dir;
}

/* The namespace rule: the current one (-1) only; no other namespace has
 * an id here, so any id answers as an unknown one does. */
static int netns_check(int32_t id)
{
	return id < CT_CURRENT_NETNS ? -EINVAL : 0;
}

/* ---- lookup and allocation ---- */

/*
 * The checks __bpf_nf_ct_lookup and __bpf_nf_ct_alloc_entry make, in
 * the order each makes them (the lookup tests the protocol before the
 * namespace id): 0 with the original tuple @t and the zone @z, or the
 * error for opts->error.
 */
static int ct_args(struct ct_opts *o, uint32_t osz, const uint8_t *b,
		   uint32_t tsz, bool lookup, struct hr_ct_tuple *t,
		   struct hr_ct_zone *z)
{
	int err = opts_check(o, osz);

	if (!err && lookup && !l4_ok(o->l4proto))
		err = -EPROTO;
	if (!err)
		err = netns_check(o->netns_id);
	if (!err)
		err = tuple_parse(b, tsz, o->l4proto, t);
	if (!err && o->netns_id >= 0)
		err = -ENONET;
	if (!err)
		opts_zone(o, osz, z);
	return err;
}

/* A found entry (@lookup) or a new one, or 0 with opts->error set. */
static uint64_t ct_get(uint64_t tuple, uint64_t tuple_sz, uint64_t opts,
		       uint64_t opts_sz, bool lookup, struct hr_run *run)
{
	uint32_t tsz = (uint32_t)tuple_sz, osz = (uint32_t)opts_sz;
	struct ct_opts *o = opts_get(run, opts, osz);
	const uint8_t *b = tsz ? hr_run_mem(run, tuple, tsz, false) : NULL;
	struct hr_ct_tuple t;
	struct hr_ct_zone z;
	struct hr_ct *ct = NULL;
	uint8_t dir = 0;
	uint64_t ret;
	int err;

	if (!o || (tsz && !b))
		return 0;
	err = ct_args(o, osz, b, tsz, lookup, &t, &z);
	if (!err) {
		ct = lookup ? hr_ct_find_get(&t, &z, &dir) :
			      hr_ct_alloc(&t, &z, CT_ALLOC_TIMEOUT * HR_HZ);
		if (!ct)
			err = lookup ? -ENOENT : -ENOMEM;
	}
	if (err) {
		o->error = err;
		return 0;
	}
	if (lookup)
		o->dir = dir;
	/* A run holding HR_MAX_HELD_RECORDS references gets no more: NULL
	 * and -ENOMEM, as an allocation the kernel could not make. */
	ret = hold(run, ct, !lookup);
	if (!ret)
		o->error = -ENOMEM;
	return ret;
}

/* The XDP and tc twins differ only in where the kernel finds the
 * namespace, which here is always the one there is. */
static uint64_t ct_lookup_fn(uint64_t ctx, uint64_t tuple, uint64_t tuple_sz,
			     uint64_t opts, uint64_t opts_sz,
			     struct hr_run *run)
{
	return ct_get(tuple, tuple_sz, opts, opts_sz, true, run);
}

static uint64_t ct_alloc_fn(uint64_t ctx, uint64_t tuple, uint64_t tuple_sz,
			    uint64_t opts, uint64_t opts_sz, struct hr_run *run)
{
	return ct_get(tuple, tuple_sz, opts, opts_sz, false, run);
}

/* ---- entries the run holds ---- */

/* bpf_ct_insert_entry: the reference to the allocated entry becomes one
 * to the inserted entry; on a clash the entry is freed and NULL comes
 * back. */
static uint64_t ct_insert_entry(uint64_t nfct, uint64_t r2, uint64_t r3,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_held_rec *h = held(run, nfct, true);
	struct hr_ct *ct;

	if (!h)
		return 0;
	ct = h->obj;
	if (hr_ct_insert(ct)) {
		unhold(run, h);
		hr_ct_put(ct);
		return 0;
	}
	h->kind = CT_REF_CONN;
	return nfct;
}

static uint64_t ct_release(uint64_t nfct, uint64_t r2, uint64_t r3, uint64_t r4,
			   uint64_t r5, struct hr_run *run)
{
	struct hr_held_rec *h;
	struct hr_ct *ct;

	if (!nfct)
		return 0;
	h = held(run, nfct, false);
	if (!h)
		return 0;
	ct = h->obj;
	unhold(run, h);
	hr_ct_put(ct);
	return 0;
}

/* msecs_to_jiffies for HZ dividing 1000: rounded up, and a negative
 * int (2^31 ms or more) an infinite timeout, MAX_JIFFY_OFFSET. */
static uint64_t ms_to_jiffies(uint32_t ms)
{
	if ((int32_t)ms < 0)
		return UINT64_MAX >> 2;
	return ((uint64_t)ms + 1000 / HR_HZ - 1) / (1000 / HR_HZ);
}

static uint64_t ct_set_timeout(uint64_t nfct, uint64_t ms, uint64_t r3,
			       uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_ct *ct = held_ct(run, nfct, true);

	if (ct)
		hr_ct_set_timeout(ct, ms_to_jiffies((uint32_t)ms));
	return 0;
}

static uint64_t ct_change_timeout(uint64_t nfct, uint64_t ms, uint64_t r3,
				  uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_ct *ct = held_ct(run, nfct, false);

	return ct ? ret_int(hr_ct_change_timeout(ct,
						 ms_to_jiffies((uint32_t)ms))) :
		    0;
}

static uint64_t ct_set_status(uint64_t nfct, uint64_t status, uint64_t r3,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_ct *ct = held_ct(run, nfct, true);

	return ct ? ret_int(hr_ct_change_status(ct, (uint32_t)status)) : 0;
}

static uint64_t ct_change_status(uint64_t nfct, uint64_t status, uint64_t r3,
				 uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_ct *ct = held_ct(run, nfct, false);

	return ct ? ret_int(hr_ct_change_status(ct, (uint32_t)status)) : 0;
}

/* bpf_ct_set_nat_info(nfct, addr, port, manip): @addr is a union
 * nf_inet_addr (16 bytes); a port above 0 is taken, as its low 16 bits. */
static uint64_t ct_set_nat_info(uint64_t nfct, uint64_t addr, uint64_t port,
				uint64_t manip, uint64_t r5, struct hr_run *run)
{
	struct hr_ct *ct = held_ct(run, nfct, true);
	const uint8_t *a = ct ? hr_run_mem(run, addr, 16, false) : NULL;
	int32_t p = (int32_t)port;

	if (!a)
		return 0;
	return ret_int(hr_ct_set_nat(ct, a, p > 0 ? htons((uint16_t)p) : 0,
				     (uint32_t)manip != 0));
}

/* The set is registered for both types, but each twin takes its own
 * type's context only. */
const struct hr_kfunc hr_kfunc_xdp_ct_lookup = {
	.name = "bpf_xdp_ct_lookup",
	.fn = ct_lookup_fn,
	.ctx_type = HR_KPROG_XDP,
};
const struct hr_kfunc hr_kfunc_skb_ct_lookup = {
	.name = "bpf_skb_ct_lookup",
	.fn = ct_lookup_fn,
	.ctx_type = HR_KPROG_SCHED_CLS,
};
const struct hr_kfunc hr_kfunc_xdp_ct_alloc = {
	.name = "bpf_xdp_ct_alloc",
	.fn = ct_alloc_fn,
	.ctx_type = HR_KPROG_XDP,
};
const struct hr_kfunc hr_kfunc_skb_ct_alloc = {
	.name = "bpf_skb_ct_alloc",
	.fn = ct_alloc_fn,
	.ctx_type = HR_KPROG_SCHED_CLS,
};
HR_KFUNC(ct_insert_entry, ct_insert_entry);
HR_KFUNC(ct_release, ct_release);
HR_KFUNC(ct_set_timeout, ct_set_timeout);
HR_KFUNC(ct_change_timeout, ct_change_timeout);
HR_KFUNC(ct_set_status, ct_set_status);
HR_KFUNC(ct_change_status, ct_change_status);
HR_KFUNC(ct_set_nat_info, ct_set_nat_info);

/* The kernel registers one set for BPF_PROG_TYPE_XDP and SCHED_CLS. */
const struct hr_kfunc *const hr_ct_kfuncs[] = {
	&hr_kfunc_xdp_ct_lookup,   &hr_kfunc_skb_ct_lookup,
	&hr_kfunc_xdp_ct_alloc,	   &hr_kfunc_skb_ct_alloc,
	&hr_kfunc_ct_insert_entry, &hr_kfunc_ct_release,
	&hr_kfunc_ct_set_timeout,  &hr_kfunc_ct_change_timeout,
	&hr_kfunc_ct_set_status,   &hr_kfunc_ct_change_status,
	&hr_kfunc_ct_set_nat_info, NULL,
};
