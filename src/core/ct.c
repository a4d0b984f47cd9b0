// SPDX-License-Identifier: MIT
/*
 * The conntrack table after net/netfilter/nf_conntrack_core.c: the lookup
 * (nf_conntrack_find_get with its zone rule and expiry), allocation
 * (nf_conntrack_alloc), insertion (nf_conntrack_hash_check_insert), the
 * timeout and status changes the BPF kfuncs make (__nf_ct_set_timeout,
 * __nf_ct_change_timeout, nf_ct_change_status_common) and NAT set-up
 * (net/netfilter/nf_nat_core.c nf_nat_setup_info, without port clash
 * resolution). One list under one lock: a test's table is small.
 *
 * Each entry's struct nf_conn image is the entry itself: the table reads
 * the tuples and status from the bytes programs read, so what a program
 * sees is what the table matches.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/netfilter/nf_conntrack_common.h>

#include "core/ct.h"
#include "headroom/opts.h"

#define CT_DIR_ORIGINAL 0
#define CT_DIR_REPLY 1
#define CT_ZONE_DIR_BOTH 3 /* NF_CT_DEFAULT_ZONE_DIR */
/* __nf_ct_set_timeout caps a timeout at INT_MAX jiffies. */
#define CT_TIMEOUT_MAX 0x7fffffffull

/* struct nf_conn as Linux 6.18 lays it out on x86-64 (pahole). */
/* As a macro, so that the table's static initializer can name it too
 * (a const object is not a constant expression to every compiler). */
#define HR_CT_LAYOUT_6_18                                                   \
	{                                                                   \
		.size = 248, .use = 0, .timeout = 8, .zone = 12,            \
		.tuplehash = 16, .hash_size = 56, .hash_tuple = 16,         \
		.status = 128, .mark = 168, .proto = 184, .proto_size = 64, \
		.tcp_state = 184 + 40,                                      \
	}

const struct hr_ct_layout hr_ct_layout_6_18 = HR_CT_LAYOUT_6_18;

struct hr_ct {
	struct hr_ct *next; /* in the table */
	unsigned int refs; /* the table's lock held */
	bool in_table;
	struct hr_ct_layout lay; /* the image's */
	uint8_t *img;
};

static struct {
	pthread_mutex_t lock;
	struct hr_ct *head;
	struct hr_ct_layout lay;
} tab = { .lock = PTHREAD_MUTEX_INITIALIZER, .lay = HR_CT_LAYOUT_6_18 };

uint64_t hr_jiffies64(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec) /
	       (1000000000ull / HR_HZ);
}

/* nfct_time_stamp: the low 32 bits of jiffies. */
static uint32_t now32(void)
{
	return (uint32_t)hr_jiffies64();
}

/* ---- the image's fields ---- */

static struct hr_ct_tuple *tuple_of(const struct hr_ct *ct, int dir)
{
	return (struct hr_ct_tuple *)(ct->img + ct->lay.tuplehash +
				      (uint32_t)dir * ct->lay.hash_size +
				      ct->lay.hash_tuple);
}

static uint64_t status_of(const struct hr_ct *ct)
{
	uint64_t v;

	memcpy(&v, ct->img + ct->lay.status, sizeof(v));
	return v;
}

static void status_set(struct hr_ct *ct, uint64_t v)
{
	memcpy(ct->img + ct->lay.status, &v, sizeof(v));
}

static uint32_t timeout_of(const struct hr_ct *ct)
{
	uint32_t v;

	memcpy(&v, ct->img + ct->lay.timeout, sizeof(v));
	return v;
}

static void timeout_put(struct hr_ct *ct, uint32_t v)
{
	memcpy(ct->img + ct->lay.timeout, &v, sizeof(v));
}

static struct hr_ct_zone zone_of(const struct hr_ct *ct)
{
	struct hr_ct_zone z;

	memcpy(&z, ct->img + ct->lay.zone, sizeof(z));
	return z;
}

static bool confirmed(const struct hr_ct *ct)
{
	return status_of(ct) & IPS_CONFIRMED;
}

/*
 * ct_general.use as the kernel counts it: the table's reference and each
 * one handed out; an allocated entry not yet inserted shows 0 (the
 * kernel's count starts there and its insertion sets 2). The table's
 * lock held.
 */
static void use_sync(struct hr_ct *ct)
{
	int32_t use = ct->in_table ? (int32_t)ct->refs + 1 : 0;

	memcpy(ct->img + ct->lay.use, &use, sizeof(use));
}

/* nf_ct_is_expired. */
static bool expired(const struct hr_ct *ct)
{
	return (int32_t)(timeout_of(ct) - now32()) <= 0;
}

/* ---- layout ---- */

static bool field_ok(const struct hr_ct_layout *l, uint32_t off, uint32_t len)
{
	return (uint64_t)off + len <= l->size;
}

static bool layout_ok(const struct hr_ct_layout *l)
{
	return l->size && l->size <= 4096 && (l->status & 7) == 0 &&
	       l->hash_size >= l->hash_tuple + sizeof(struct hr_ct_tuple) &&
	       field_ok(l, l->use, 4) && field_ok(l, l->timeout, 4) &&
	       field_ok(l, l->zone, 4) &&
	       field_ok(l, l->tuplehash, 2 * l->hash_size) &&
	       field_ok(l, l->status, 8) && field_ok(l, l->mark, 4) &&
	       field_ok(l, l->proto, l->proto_size) &&
	       field_ok(l, l->tcp_state, 1);
}

static uint8_t *image_new(const struct hr_ct_layout *l)
{
	/* 8-aligned, as a slab object: status is an unsigned long. */
	uint8_t *img = aligned_alloc(8, (l->size + 7) & ~7u);

	if (img)
		memset(img, 0, l->size);
	return img;
}

/* The same entry in layout @l: every field the table knows moved. */
static int relay(struct hr_ct *ct, const struct hr_ct_layout *l)
{
	const struct hr_ct_layout *o = &ct->lay;
	uint8_t *img = image_new(l);
	int d;

	if (!img)
		return -ENOMEM;
	memcpy(img + l->use, ct->img + o->use, 4);
	memcpy(img + l->timeout, ct->img + o->timeout, 4);
	memcpy(img + l->zone, ct->img + o->zone, 4);
	for (d = 0; d < 2; d++)
		memcpy(img + l->tuplehash + d * l->hash_size + l->hash_tuple,
		       tuple_of(ct, d), sizeof(struct hr_ct_tuple));
	memcpy(img + l->status, ct->img + o->status, 8);
	memcpy(img + l->mark, ct->img + o->mark, 4);
	memcpy(img + l->proto, ct->img + o->proto,
	       l->proto_size < o->proto_size ? l->proto_size : o->proto_size);
	free(ct->img);
	ct->img = img;
	ct->lay = *l;
	return 0;
}

int hr_ct_set_layout(const struct hr_ct_layout *l)
{
	struct hr_ct *ct;
	int err = 0;

	if (!l || !layout_ok(l))
		return -EINVAL;
	pthread_mutex_lock(&tab.lock);
	tab.lay = *l;
	/* Entries no program holds take the new layout; a held one keeps
	 * the image its holder reads. */
	for (ct = tab.head; ct && !err; ct = ct->next)
		if (!ct->refs && memcmp(&ct->lay, l, sizeof(*l)))
			err = relay(ct, l);
	pthread_mutex_unlock(&tab.lock);
	return err;
}

/* ---- the table ---- */

static void ct_free(struct hr_ct *ct)
{
	free(ct->img);
	free(ct);
}

static void unlink_ct(struct hr_ct *ct)
{
	struct hr_ct **pp;

	for (pp = &tab.head; *pp; pp = &(*pp)->next)
		if (*pp == ct) {
			*pp = ct->next;
			break;
		}
	ct->in_table = false;
	if (!ct->refs)
		ct_free(ct);
	else
		use_sync(ct);
}

/* The garbage collector's work, done where it matters: an expired entry
 * is never found and blocks no insertion. */
static void gc_expired(void)
{
	struct hr_ct *ct, *next;

	for (ct = tab.head; ct; ct = next) {
		next = ct->next;
		if (expired(ct))
			unlink_ct(ct);
	}
}

/* nf_ct_tuple_equal: addresses, ports, families and protocol. */
static bool tuple_equal(const struct hr_ct_tuple *a,
			const struct hr_ct_tuple *b)
{
	return !memcmp(a->src, b->src, 16) && a->sport == b->sport &&
	       a->l3num == b->l3num && !memcmp(a->dst, b->dst, 16) &&
	       a->dport == b->dport && a->protonum == b->protonum;
}

/* nf_ct_zone_id: a zone applies to the directions its dir names. */
static uint16_t zone_id(const struct hr_ct_zone *z, int dir)
{
	return (z->dir & (1u << dir)) ? z->id : 0;
}

/*
 * Whether a search for @t, hashed in the zone id @hash_zid and keyed in
 * @zone, meets @ct's tuple @dir: the same hash bucket (both hashed with
 * their zone's id for their direction) and nf_ct_key_equal.
 */
static bool key_meets(const struct hr_ct *ct, int dir,
		      const struct hr_ct_tuple *t, uint16_t hash_zid,
		      const struct hr_ct_zone *zone)
{
	struct hr_ct_zone cz = zone_of(ct);
	uint16_t id = zone_id(&cz, dir);

	return tuple_equal(tuple_of(ct, dir), t) && id == hash_zid &&
	       id == zone_id(zone, dir) && confirmed(ct);
}

struct hr_ct *hr_ct_find_get(const struct hr_ct_tuple *t,
			     const struct hr_ct_zone *zone, uint8_t *dir)
{
	uint16_t hz = zone_id(zone, CT_DIR_ORIGINAL);
	struct hr_ct *ct;
	int d;

	pthread_mutex_lock(&tab.lock);
	gc_expired();
	for (ct = tab.head; ct; ct = ct->next)
		for (d = 0; d < 2; d++)
			if (key_meets(ct, d, t, hz, zone)) {
				ct->refs++;
				use_sync(ct);
				*dir = (uint8_t)d;
				goto out;
			}
out:
	pthread_mutex_unlock(&tab.lock);
	return ct;
}

/* nf_ct_invert_tuple for TCP and UDP: source and destination swapped. */
static void invert(struct hr_ct_tuple *r, const struct hr_ct_tuple *t)
{
	memset(r, 0, sizeof(*r));
	memcpy(r->src, t->dst, 16);
	memcpy(r->dst, t->src, 16);
	r->sport = t->dport;
	r->dport = t->sport;
	r->l3num = t->l3num;
	r->protonum = t->protonum;
}

static struct hr_ct *ct_new(const struct hr_ct_tuple *orig,
			    const struct hr_ct_tuple *reply,
			    const struct hr_ct_zone *zone)
{
	struct hr_ct *ct = calloc(1, sizeof(*ct));

	if (!ct)
		return NULL;
	pthread_mutex_lock(&tab.lock);
	ct->lay = tab.lay;
	pthread_mutex_unlock(&tab.lock);
	ct->img = image_new(&ct->lay);
	if (!ct->img) {
		free(ct);
		return NULL;
	}
	ct->refs = 1;
	*tuple_of(ct, CT_DIR_ORIGINAL) = *orig;
	*tuple_of(ct, CT_DIR_REPLY) = *reply;
	tuple_of(ct, CT_DIR_ORIGINAL)->dir = CT_DIR_ORIGINAL;
	tuple_of(ct, CT_DIR_REPLY)->dir = CT_DIR_REPLY;
	memcpy(ct->img + ct->lay.zone, zone, sizeof(*zone));
	return ct;
}

struct hr_ct *hr_ct_alloc(const struct hr_ct_tuple *orig,
			  const struct hr_ct_zone *zone, uint32_t jiffies)
{
	struct hr_ct_tuple reply;
	struct hr_ct *ct;

	invert(&reply, orig);
	ct = ct_new(orig, &reply, zone);
	if (ct)
		hr_ct_set_timeout(ct, jiffies);
	return ct;
}

/* Whether @t (of @ct's direction @dir) meets an entry of the table. */
static bool clashes(const struct hr_ct *ct, int dir)
{
	struct hr_ct_zone z = zone_of(ct);
	uint16_t hz = zone_id(&z, dir);
	const struct hr_ct_tuple *t = tuple_of(ct, dir);
	const struct hr_ct *e;
	int d;

	for (e = tab.head; e; e = e->next)
		for (d = 0; d < 2; d++)
			if (key_meets(e, d, t, hz, &z))
				return true;
	return false;
}

static int insert_locked(struct hr_ct *ct)
{
	gc_expired();
	if (clashes(ct, CT_DIR_ORIGINAL) || clashes(ct, CT_DIR_REPLY))
		return -EEXIST;
	/* Confirmed from here: the relative timeout becomes a deadline. */
	timeout_put(ct, timeout_of(ct) + now32());
	status_set(ct, status_of(ct) | IPS_CONFIRMED);
	ct->next = tab.head;
	tab.head = ct;
	ct->in_table = true;
	use_sync(ct);
	return 0;
}

int hr_ct_insert(struct hr_ct *ct)
{
	int err;

	pthread_mutex_lock(&tab.lock);
	err = ct->in_table ? -EEXIST : insert_locked(ct);
	pthread_mutex_unlock(&tab.lock);
	return err;
}

void hr_ct_put(struct hr_ct *ct)
{
	pthread_mutex_lock(&tab.lock);
	if (!--ct->refs && !ct->in_table)
		ct_free(ct);
	else
		use_sync(ct);
	pthread_mutex_unlock(&tab.lock);
}

void *hr_ct_image(struct hr_ct *ct)
{
	return ct->img;
}

uint32_t hr_ct_image_size(const struct hr_ct *ct)
{
	return ct->lay.size;
}

uint32_t hr_ct_mark_off(const struct hr_ct *ct)
{
	return ct->lay.mark;
}

/* ---- what the kfuncs change ---- */

void hr_ct_set_timeout(struct hr_ct *ct, uint64_t jiffies)
{
	if (jiffies > CT_TIMEOUT_MAX)
		jiffies = CT_TIMEOUT_MAX;
	timeout_put(ct, (uint32_t)jiffies + (confirmed(ct) ? now32() : 0));
}

int hr_ct_change_timeout(struct hr_ct *ct, uint64_t jiffies)
{
	if (status_of(ct) & IPS_FIXED_TIMEOUT)
		return -EPERM;
	hr_ct_set_timeout(ct, jiffies);
	return status_of(ct) & IPS_DYING ? -ETIME : 0;
}

int hr_ct_change_status(struct hr_ct *ct, uint32_t status)
{
	uint64_t cur = status_of(ct), d = cur ^ status;
	uint64_t on = status & ~(uint64_t)IPS_UNCHANGEABLE_MASK;
	uint64_t off = ~(uint64_t)status & ~(uint64_t)IPS_UNCHANGEABLE_MASK;
	uint64_t bits = (1ull << __IPS_MAX_BIT) - 1;

	if (d & (IPS_EXPECTED | IPS_CONFIRMED | IPS_DYING))
		return -EBUSY;
	/* SEEN_REPLY and ASSURED may be set, never cleared. */
	if ((d & IPS_SEEN_REPLY) && !(status & IPS_SEEN_REPLY))
		return -EBUSY;
	if ((d & IPS_ASSURED) && !(status & IPS_ASSURED))
		return -EBUSY;
	/* Only the bits below __IPS_MAX_BIT move; the rest stay. */
	status_set(ct, (cur & ~(off & bits)) | (on & bits));
	return 0;
}

int hr_ct_set_nat(struct hr_ct *ct, const uint8_t addr[16], uint16_t port,
		  int manip)
{
	uint64_t done = manip ? IPS_DST_NAT_DONE : IPS_SRC_NAT_DONE;
	struct hr_ct_tuple cur, want, reply;
	uint16_t l3 = tuple_of(ct, CT_DIR_ORIGINAL)->l3num;

	if (l3 != AF_INET && l3 != AF_INET6)
		return -EINVAL;
	/* A confirmed entry is left alone (NF_ACCEPT). */
	if (confirmed(ct))
		return 0;
	if (status_of(ct) & done)
		return -ENOMEM; /* NF_DROP */
	/* What the original direction looks like after the manip. */
	invert(&cur, tuple_of(ct, CT_DIR_REPLY));
	/* The whole union nf_inet_addr, IPv4 too, as the kernel's one-
	 * address range does (find_best_ips_proto). */
	want = cur;
	memcpy(manip ? want.dst : want.src, addr, 16);
	if (port) {
		if (manip)
			want.dport = port;
		else
			want.sport = port;
	}
	if (!tuple_equal(&want, &cur)) {
		invert(&reply, &want);
		reply.dir = CT_DIR_REPLY;
		*tuple_of(ct, CT_DIR_REPLY) = reply;
		status_set(ct,
			   status_of(ct) | (manip ? IPS_DST_NAT : IPS_SRC_NAT));
	}
	status_set(ct, status_of(ct) | done);
	return 0;
}

/* ---- the C API ---- */

static int tuple_from_opts(const struct hr_ct_entry_opts *o,
			   struct hr_ct_tuple *t)
{
	unsigned int alen = o->family == AF_INET ? 4 : 16;

	if (o->family != AF_INET && o->family != AF_INET6)
		return -EINVAL;
	if (o->proto != IPPROTO_TCP && o->proto != IPPROTO_UDP)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	memcpy(t->src, o->src, alen);
	memcpy(t->dst, o->dst, alen);
	t->sport = htons(o->sport);
	t->dport = htons(o->dport);
	t->l3num = (uint16_t)o->family;
	t->protonum = o->proto;
	return 0;
}

int hr_ct_add(const struct hr_ct_entry_opts *o)
{
	struct hr_ct_zone z = { .dir = CT_ZONE_DIR_BOTH };
	struct hr_ct_tuple t;
	uint64_t secs;
	struct hr_ct *ct;
	int err;

	if (!o || o->sz < offsetof(struct hr_ct_entry_opts, tcp_state) + 1 ||
	    tuple_from_opts(o, &t) || o->zone_dir > CT_ZONE_DIR_BOTH ||
	    o->tcp_state > HR_CT_TCP_SYN_SENT2 ||
	    (o->tcp_state && o->proto != IPPROTO_TCP))
		return -EINVAL;
	z.id = o->zone;
	if (o->zone_dir)
		z.dir = o->zone_dir;
	secs = o->timeout ? o->timeout : o->proto == IPPROTO_TCP ? 432000 : 120;
	ct = hr_ct_alloc(&t, &z, 0);
	if (!ct)
		return -ENOMEM;
	hr_ct_set_timeout(ct, secs * HR_HZ);
	status_set(ct, o->status & ~(uint32_t)IPS_CONFIRMED);
	memcpy(ct->img + ct->lay.mark, &o->mark, sizeof(o->mark));
	ct->img[ct->lay.tcp_state] = o->tcp_state;
	err = hr_ct_insert(ct);
	hr_ct_put(ct);
	return err;
}

void hr_ct_flush(void)
{
	pthread_mutex_lock(&tab.lock);
	while (tab.head)
		unlink_ct(tab.head);
	pthread_mutex_unlock(&tab.lock);
}

unsigned int hr_ct_count(void)
{
	unsigned int n = 0;
	struct hr_ct *ct;

	pthread_mutex_lock(&tab.lock);
	gc_expired();
	for (ct = tab.head; ct; ct = ct->next)
		n++;
	pthread_mutex_unlock(&tab.lock);
	return n;
}
