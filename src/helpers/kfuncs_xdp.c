// SPDX-License-Identifier: MIT
/*
 * The XDP RX metadata kfuncs (net/core/xdp.c): each reads the packet's
 * hints in the standard layout when the run has them (run->rx_hints, see
 * struct hr_rx_hints), else asks the receiving device's metadata ops.
 * Without a device or without that hint the answer is -EOPNOTSUPP, as the
 * kernel's default kfunc bodies give to programs that are not bound to a
 * device; -ENODATA when this packet has none. Values are written only
 * with 0. The JIT inlines all of this (jit_x86.c, inline_hint).
 */
#include <errno.h>

#include "helpers/helpers.h"
#include "progs/ctx.h"

static const struct hr_xdp_metadata_ops *meta_ops(struct hr_run *run)
{
	struct hr_xdp_ctx *c = run->priv;

	if (!c || !c->xdp || !c->xdp->rxq)
		return NULL;
	return c->xdp->rxq->meta_ops;
}

static uint64_t rx_timestamp(uint64_t ctx, uint64_t ts_ptr, uint64_t r3,
			     uint64_t r4, uint64_t r5, struct hr_run *run)
{
	const struct hr_xdp_metadata_ops *ops = meta_ops(run);
	struct hr_xdp_ctx *c = run->priv;
	uint64_t *ts, v;
	int ret;

	ts = hr_run_mem(run, ts_ptr, sizeof(*ts), true);
	if (!ts)
		return 0;
	if (run->rx_hints) {
		ret = hr_rx_hint_get(run->rx_hints, HR_RX_HINT_TIMESTAMP);
		if (!ret)
			__builtin_memcpy(ts, &run->rx_hints->timestamp,
					 sizeof(*ts));
		return (uint64_t)(int64_t)ret;
	}
	if (!ops || !ops->rx_timestamp)
		return (uint64_t)-EOPNOTSUPP;
	/* The op writes what the driver writes, on failure too (veth's
	 * vlan tag): it starts from the program's bytes, all copied back. */
	__builtin_memcpy(&v, ts, sizeof(v));
	ret = ops->rx_timestamp(c->xdp, &v);
	__builtin_memcpy(ts, &v, sizeof(v));
	return (uint64_t)(int64_t)ret;
}

static uint64_t rx_hash(uint64_t ctx, uint64_t hash_ptr, uint64_t type_ptr,
			uint64_t r4, uint64_t r5, struct hr_run *run)
{
	const struct hr_xdp_metadata_ops *ops = meta_ops(run);
	struct hr_xdp_ctx *c = run->priv;
	uint32_t *hash, *type, h, t;
	int ret;

	hash = hr_run_mem(run, hash_ptr, sizeof(*hash), true);
	if (!hash)
		return 0;
	type = hr_run_mem(run, type_ptr, sizeof(*type), true);
	if (!type)
		return 0;
	if (run->rx_hints) {
		ret = hr_rx_hint_get(run->rx_hints, HR_RX_HINT_HASH);
		if (!ret) {
			__builtin_memcpy(hash, &run->rx_hints->hash,
					 sizeof(*hash));
			__builtin_memcpy(type, &run->rx_hints->hash_type,
					 sizeof(*type));
		}
		return (uint64_t)(int64_t)ret;
	}
	if (!ops || !ops->rx_hash)
		return (uint64_t)-EOPNOTSUPP;
	__builtin_memcpy(&h, hash, sizeof(h));
	__builtin_memcpy(&t, type, sizeof(t));
	ret = ops->rx_hash(c->xdp, &h, &t);
	__builtin_memcpy(hash, &h, sizeof(h));
	__builtin_memcpy(type, &t, sizeof(t));
	return (uint64_t)(int64_t)ret;
}

static uint64_t rx_vlan_tag(uint64_t ctx, uint64_t proto_ptr, uint64_t tci_ptr,
			    uint64_t r4, uint64_t r5, struct hr_run *run)
{
	const struct hr_xdp_metadata_ops *ops = meta_ops(run);
	struct hr_xdp_ctx *c = run->priv;
	uint16_t *proto, *tci, p, t;
	int ret;

	proto = hr_run_mem(run, proto_ptr, sizeof(*proto), true);
	if (!proto)
		return 0;
	tci = hr_run_mem(run, tci_ptr, sizeof(*tci), true);
	if (!tci)
		return 0;
	if (run->rx_hints) {
		ret = hr_rx_hint_get(run->rx_hints, HR_RX_HINT_VLAN);
		if (!ret) {
			__builtin_memcpy(proto, &run->rx_hints->vlan_proto,
					 sizeof(*proto));
			__builtin_memcpy(tci, &run->rx_hints->vlan_tci,
					 sizeof(*tci));
		}
		return (uint64_t)(int64_t)ret;
	}
	if (!ops || !ops->rx_vlan_tag)
		return (uint64_t)-EOPNOTSUPP;
	__builtin_memcpy(&p, proto, sizeof(p));
	__builtin_memcpy(&t, tci, sizeof(t));
	ret = ops->rx_vlan_tag(c->xdp, &p, &t);
	__builtin_memcpy(proto, &p, sizeof(p));
	__builtin_memcpy(tci, &t, sizeof(t));
	return (uint64_t)(int64_t)ret;
}

const struct hr_kfunc hr_kfunc_xdp_metadata_rx_timestamp = {
	.name = "bpf_xdp_metadata_rx_timestamp",
	.fn = rx_timestamp,
};

const struct hr_kfunc hr_kfunc_xdp_metadata_rx_hash = {
	.name = "bpf_xdp_metadata_rx_hash",
	.fn = rx_hash,
};

const struct hr_kfunc hr_kfunc_xdp_metadata_rx_vlan_tag = {
	.name = "bpf_xdp_metadata_rx_vlan_tag",
	.fn = rx_vlan_tag,
};
