// SPDX-License-Identifier: MIT
/*
 * Routes, neighbours and devices for bpf_fib_lookup, and the lookup
 * itself after net/core/filter.c bpf_ipv4_fib_lookup and
 * bpf_ipv6_fib_lookup: one main table (no policy rules), longest prefix
 * first and the lowest metric among equals, error-type routes answering
 * before any device check. Readers take a read lock: the tables change
 * only by configuration.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>

#include "core/fib.h"

#define HR_RT_TABLE_MAIN 254

struct fib_tables {
	pthread_rwlock_t lock;
	struct hr_fib_route *routes;
	unsigned int nroutes;
	struct hr_fib_neigh *neighs;
	unsigned int nneighs;
	struct hr_fib_dev *devs;
	unsigned int ndevs;
	bool ipv6_forwarding;
};

static struct fib_tables fib = { .lock = PTHREAD_RWLOCK_INITIALIZER };

static unsigned int addr_len(int family)
{
	return family == AF_INET ? 4 : 16;
}

static bool family_ok(int family)
{
	return family == AF_INET || family == AF_INET6;
}

static void *grow(void *arr, unsigned int n, size_t elem)
{
	return realloc(arr, (n + 1) * elem);
}

static struct hr_fib_dev *dev_find(uint32_t ifindex)
{
	unsigned int i;

	for (i = 0; i < fib.ndevs; i++)
		if (fib.devs[i].ifindex == ifindex)
			return &fib.devs[i];
	return NULL;
}

int hr_fib_dev_set(const struct hr_fib_dev *dev)
{
	struct hr_fib_dev *d, *arr;
	int err = 0;

	if (!dev || !dev->ifindex)
		return -EINVAL;
	pthread_rwlock_wrlock(&fib.lock);
	d = dev_find(dev->ifindex);
	if (!d) {
		arr = grow(fib.devs, fib.ndevs, sizeof(*arr));
		if (!arr) {
			err = -ENOMEM;
			goto out;
		}
		fib.devs = arr;
		d = &fib.devs[fib.ndevs++];
	}
	*d = *dev;
	if (!d->mtu)
		d->mtu = 1500;
out:
	pthread_rwlock_unlock(&fib.lock);
	return err;
}

int hr_fib_route_add(const struct hr_fib_route *r)
{
	struct hr_fib_route *arr;
	unsigned int i;
	int err = 0;

	if (!r || !family_ok(r->family) ||
	    r->prefix_len > 8 * addr_len(r->family) ||
	    (r->gw_family && !family_ok(r->gw_family)))
		return -EINVAL;
	pthread_rwlock_wrlock(&fib.lock);
	if (r->type == HR_FIB_UNICAST && !dev_find(r->ifindex)) {
		err = -ENODEV;
		goto out;
	}
	for (i = 0; i < fib.nroutes; i++) {
		const struct hr_fib_route *o = &fib.routes[i];

		if (o->family == r->family && o->prefix_len == r->prefix_len &&
		    o->metric == r->metric &&
		    !memcmp(o->dst, r->dst, addr_len(r->family))) {
			err = -EEXIST;
			goto out;
		}
	}
	arr = grow(fib.routes, fib.nroutes, sizeof(*arr));
	if (!arr) {
		err = -ENOMEM;
		goto out;
	}
	fib.routes = arr;
	fib.routes[fib.nroutes++] = *r;
out:
	pthread_rwlock_unlock(&fib.lock);
	return err;
}

int hr_fib_neigh_add(const struct hr_fib_neigh *n)
{
	struct hr_fib_neigh *arr;
	unsigned int i;
	int err = 0;

	if (!n || !family_ok(n->family))
		return -EINVAL;
	pthread_rwlock_wrlock(&fib.lock);
	for (i = 0; i < fib.nneighs; i++) {
		struct hr_fib_neigh *o = &fib.neighs[i];

		if (o->family == n->family && o->ifindex == n->ifindex &&
		    !memcmp(o->addr, n->addr, addr_len(n->family))) {
			*o = *n;
			goto out;
		}
	}
	arr = grow(fib.neighs, fib.nneighs, sizeof(*arr));
	if (!arr) {
		err = -ENOMEM;
		goto out;
	}
	fib.neighs = arr;
	fib.neighs[fib.nneighs++] = *n;
out:
	pthread_rwlock_unlock(&fib.lock);
	return err;
}

void hr_fib_set_ipv6_forwarding(bool on)
{
	pthread_rwlock_wrlock(&fib.lock);
	fib.ipv6_forwarding = on;
	pthread_rwlock_unlock(&fib.lock);
}

void hr_fib_flush(void)
{
	pthread_rwlock_wrlock(&fib.lock);
	free(fib.routes);
	free(fib.neighs);
	free(fib.devs);
	fib.routes = NULL;
	fib.neighs = NULL;
	fib.devs = NULL;
	fib.nroutes = fib.nneighs = fib.ndevs = 0;
	fib.ipv6_forwarding = false;
	pthread_rwlock_unlock(&fib.lock);
}

uint32_t hr_fib_dev_mtu(uint32_t ifindex)
{
	const struct hr_fib_dev *d;
	uint32_t mtu;

	pthread_rwlock_rdlock(&fib.lock);
	d = dev_find(ifindex);
	mtu = d ? d->mtu : 0;
	pthread_rwlock_unlock(&fib.lock);
	return mtu;
}

static bool prefix_match(const uint8_t *a, const uint8_t *prefix,
			 unsigned int bits)
{
	unsigned int bytes = bits / 8, rest = bits % 8;

	if (memcmp(a, prefix, bytes))
		return false;
	if (!rest)
		return true;
	return !((a[bytes] ^ prefix[bytes]) & (0xff00u >> rest));
}

/*
 * The route for @dst: longest prefix, then lowest metric. With @oif set
 * (BPF_FIB_LOOKUP_OUTPUT) IPv4 unicast routes via other devices are
 * passed over, as fib_lookup_good_nhc does; error routes answer
 * regardless. IPv6 takes the oif as a preference only (no strict
 * lookup), so with one route per prefix it does not matter.
 */
static const struct hr_fib_route *route_find(int family, const uint8_t *dst,
					     uint32_t oif)
{
	const struct hr_fib_route *best = NULL;
	unsigned int i;

	for (i = 0; i < fib.nroutes; i++) {
		const struct hr_fib_route *r = &fib.routes[i];

		if (r->family != family ||
		    !prefix_match(dst, r->dst, r->prefix_len))
			continue;
		if (oif && family == AF_INET && r->type == HR_FIB_UNICAST &&
		    r->ifindex != oif)
			continue;
		if (!best || r->prefix_len > best->prefix_len ||
		    (r->prefix_len == best->prefix_len &&
		     r->metric < best->metric))
			best = r;
	}
	return best;
}

static const struct hr_fib_neigh *neigh_find(int family, const void *addr,
					     uint32_t ifindex)
{
	unsigned int i;

	for (i = 0; i < fib.nneighs; i++) {
		const struct hr_fib_neigh *n = &fib.neighs[i];

		if (n->family == family && n->ifindex == ifindex &&
		    !memcmp(n->addr, addr, addr_len(family)))
			return n;
	}
	return NULL;
}

static bool all_zero(const uint8_t *p, unsigned int n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* bpf_fib_set_fwd_params */
static int fwd_params(struct bpf_fib_lookup *p, uint32_t mtu)
{
	p->h_vlan_TCI = 0;
	p->h_vlan_proto = 0;
	if (mtu)
		p->mtu_result = (uint16_t)mtu;
	return BPF_FIB_LKUP_RET_SUCCESS;
}

static int route_result(const struct hr_fib_route *r)
{
	switch (r->type) {
	case HR_FIB_UNICAST:
		return -1;
	case HR_FIB_BLACKHOLE:
		return BPF_FIB_LKUP_RET_BLACKHOLE;
	case HR_FIB_UNREACHABLE:
		return BPF_FIB_LKUP_RET_UNREACHABLE;
	case HR_FIB_PROHIBIT:
		return BPF_FIB_LKUP_RET_PROHIBIT;
	default:
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	}
}

static int lookup(struct bpf_fib_lookup *p, uint32_t flags, bool check_mtu)
{
	bool v4 = p->family == AF_INET;
	const uint8_t *dst = v4 ? (const uint8_t *)&p->ipv4_dst :
				  (const uint8_t *)p->ipv6_dst;
	const struct hr_fib_route *r;
	const struct hr_fib_dev *in, *out;
	const struct hr_fib_neigh *n;
	uint32_t mtu = 0;
	int rc;

	in = dev_find(p->ifindex);
	if (!in)
		return -ENODEV;
	if (v4 ? !in->forwarding : !fib.ipv6_forwarding)
		return BPF_FIB_LKUP_RET_FWD_DISABLED;
	if ((flags & HR_FIB_LOOKUP_DIRECT) && (flags & HR_FIB_LOOKUP_TBID)) {
		uint32_t tbid = p->tbid;

		p->tbid = 0;
		if (tbid != HR_RT_TABLE_MAIN)
			return BPF_FIB_LKUP_RET_NOT_FWDED;
	}
	r = route_find(p->family, dst,
		       flags & HR_FIB_LOOKUP_OUTPUT ? p->ifindex : 0);
	if (!r)
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	rc = route_result(r);
	if (rc >= 0)
		return rc;
	out = dev_find(r->ifindex);
	if (!out)
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	if (check_mtu) {
		mtu = r->mtu ? r->mtu : out->mtu;
		if (p->tot_len > mtu) {
			p->mtu_result = (uint16_t)mtu;
			return BPF_FIB_LKUP_RET_FRAG_NEEDED;
		}
	}
	p->rt_metric = r->metric;
	p->ifindex = out->ifindex;
	/* The gateway replaces dst before the source is chosen (the
	 * IPv6 order; IPv4 source selection cannot fail). */
	if (r->gw_family == AF_INET6 && v4) {
		p->family = AF_INET6;
		memcpy(p->ipv6_dst, r->gw, 16);
	} else if (r->gw_family) {
		memcpy(v4 ? (void *)&p->ipv4_dst : (void *)p->ipv6_dst, r->gw,
		       addr_len(r->gw_family));
	}
	if (flags & HR_FIB_LOOKUP_SRC) {
		const uint8_t *src = all_zero(r->prefsrc, addr_len(p->family)) ?
					     (v4 ? out->addr4 : out->addr6) :
					     r->prefsrc;

		if (!v4 && all_zero(src, 16))
			return HR_FIB_LKUP_RET_NO_SRC_ADDR;
		memcpy(v4 ? (void *)&p->ipv4_src : (void *)p->ipv6_src, src,
		       addr_len(p->family));
	}
	if (flags & HR_FIB_LOOKUP_SKIP_NEIGH)
		return fwd_params(p, mtu);
	n = r->gw_family == AF_INET6 || !v4 ?
		    neigh_find(AF_INET6, p->ipv6_dst, out->ifindex) :
		    neigh_find(AF_INET, &p->ipv4_dst, out->ifindex);
	if (!n)
		return BPF_FIB_LKUP_RET_NO_NEIGH;
	memcpy(p->dmac, n->mac, 6);
	memcpy(p->smac, out->mac, 6);
	return fwd_params(p, mtu);
}

int hr_fib_lookup(struct bpf_fib_lookup *p, uint32_t flags, bool check_mtu)
{
	int rc;

	if (p->family != AF_INET && p->family != AF_INET6)
		return -EAFNOSUPPORT;
	pthread_rwlock_rdlock(&fib.lock);
	rc = lookup(p, flags, check_mtu);
	pthread_rwlock_unlock(&fib.lock);
	return rc;
}
