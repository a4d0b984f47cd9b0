// SPDX-License-Identifier: MIT
/*
 * tc tunnel metadata helpers (net/core/filter.c): bpf_skb_get_tunnel_key,
 * bpf_skb_set_tunnel_key, bpf_skb_get_tunnel_opt, bpf_skb_set_tunnel_opt,
 * over the skb's struct hr_tun_info (progs/ctx.h).
 *
 * As in the kernel, a set writes one metadata_dst per CPU (md_dst, here
 * per thread: one worker is one CPU) and points the skb at it, so a get
 * after a set in the same program reads what was set, in the kernel's
 * terms: the set stores the remote end as the transmit destination and a
 * get reads the receive source, so the addresses come back swapped.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/bpf.h>

#include "progs/ctx.h"
#include "helpers/helpers.h"

/* The flags of linux/bpf.h, by value: older headers lack some. */
#define HR_F_TUNINFO_IPV6 (1ull << 0)
#define HR_F_ZERO_CSUM_TX (1ull << 1)
#define HR_F_DONT_FRAGMENT (1ull << 2)
#define HR_F_SEQ_NUMBER (1ull << 3)
#define HR_F_NO_TUNNEL_KEY (1ull << 4) /* set_tunnel_key */
#define HR_F_TUNINFO_FLAGS (1ull << 4) /* get_tunnel_key */

/* IP_TUNNEL_*_BIT of linux/if_tunnel.h. */
#define TUN_CSUM (1u << 0)
#define TUN_KEY (1u << 2)
#define TUN_SEQ (1u << 3)
#define TUN_DONT_FRAGMENT (1u << 8)
#define TUN_NOCACHE (1u << 13)
#define TUN_VTI (1u << 16)
/* ip_tunnel_set_options_present: GENEVE, VXLAN, ERSPAN, GTP, PFCP. */
#define TUN_OPTS_PRESENT \
	((1u << 11) | (1u << 12) | (1u << 14) | (1u << 15) | (1u << 17))

#define KEY_SIZE sizeof(struct bpf_tunnel_key)
#define KEY_OFF(f) offsetof(struct bpf_tunnel_key, f)
#define IPV6_FLOWLABEL_MASK 0xfffffu

static __thread struct hr_tun_info md_dst;

static struct hr_tc_ctx *ctx_of(struct hr_run *run)
{
	return run->priv;
}

static bool info_ipv6(const struct hr_tun_info *info)
{
	return info->mode & HR_TUN_INFO_IPV6;
}

/* The shorter layouts of older struct bpf_tunnel_key the kernel still
 * takes (remote_ipv6[1]: IPv4 only, checked by the get). */
static bool compat_size(uint32_t size)
{
	return size == KEY_OFF(local_ipv6[0]) ||
	       size == KEY_OFF(tunnel_label) || size == KEY_OFF(tunnel_ext) ||
	       size == KEY_OFF(remote_ipv6[1]);
}

/* ip_tunnel_flags_to_be16: the low 16 flag bits as TUNNEL_* in network
 * order, with VTI_ISVTI (0x0001 as stored, so on a little-endian host
 * the first byte) for the VTI bit. */
static uint16_t flags_be16(uint32_t flags)
{
	uint16_t be = htons((uint16_t)flags);
	uint8_t b[2];

	memcpy(b, &be, 2);
	if (flags & TUN_VTI)
		b[0] |= 1;
	memcpy(&be, b, 2);
	return be;
}

/* The key as the kernel's get fills it: the receive side's view (src
 * is the remote end), addresses in host order for IPv4. */
static void key_fill(struct bpf_tunnel_key *k, const struct hr_tun_info *info,
		     uint64_t flags)
{
	uint32_t a;

	memset(k, 0, sizeof(*k));
	k->tunnel_id = (uint32_t)info->id;
	k->tunnel_tos = info->tos;
	k->tunnel_ttl = info->ttl;
	if (flags & HR_F_TUNINFO_FLAGS)
		k->tunnel_flags = flags_be16(info->flags);
	if (flags & HR_F_TUNINFO_IPV6) {
		memcpy(k->remote_ipv6, info->src, 16);
		memcpy(k->local_ipv6, info->dst, 16);
		k->tunnel_label = info->label;
		return;
	}
	memcpy(&a, info->src, 4);
	k->remote_ipv4 = ntohl(a);
	memcpy(&a, info->dst, 4);
	k->local_ipv4 = ntohl(a);
}

/* bpf_skb_get_tunnel_key: on any error the whole buffer is zeroed. */
static int get_key(const struct hr_tun_info *info, uint8_t *to, uint32_t size,
		   uint64_t flags)
{
	struct bpf_tunnel_key k;
	int err = -EINVAL;

	if (!info || (flags & ~(HR_F_TUNINFO_IPV6 | HR_F_TUNINFO_FLAGS)))
		goto clear;
	/* The family is checked before the size. */
	if (info_ipv6(info) != !!(flags & HR_F_TUNINFO_IPV6)) {
		err = -EPROTO;
		goto clear;
	}
	if (size != KEY_SIZE &&
	    (!compat_size(size) ||
	     (size == KEY_OFF(remote_ipv6[1]) && info_ipv6(info))))
		goto clear;
	key_fill(&k, info, flags);
	memcpy(to, &k, size);
	return 0;
clear:
	memset(to, 0, size);
	return err;
}

/* bpf_skb_set_tunnel_key: the per-CPU metadata, cleared but for its
 * options' bytes, then filled for transmission. */
static int set_key(struct hr_tc_ctx *c, const uint8_t *from, uint32_t size,
		   uint64_t flags)
{
	struct hr_tun_info *info = &md_dst;
	struct bpf_tunnel_key k;
	uint32_t a;

	if (flags &
	    ~(HR_F_TUNINFO_IPV6 | HR_F_ZERO_CSUM_TX | HR_F_DONT_FRAGMENT |
	      HR_F_SEQ_NUMBER | HR_F_NO_TUNNEL_KEY))
		return -EINVAL;
	if (size != KEY_SIZE && !compat_size(size))
		return -EINVAL;
	memset(&k, 0, sizeof(k));
	memcpy(&k, from, size);
	if ((!(flags & HR_F_TUNINFO_IPV6) && k.tunnel_label) || k.tunnel_ext)
		return -EINVAL;

	c->tun = info;
	memset(info, 0, offsetof(struct hr_tun_info, opts));
	info->mode = HR_TUN_INFO_TX;
	info->flags = TUN_NOCACHE;
	info->flags |= flags & HR_F_DONT_FRAGMENT ? TUN_DONT_FRAGMENT : 0;
	info->flags |= flags & HR_F_ZERO_CSUM_TX ? 0 : TUN_CSUM;
	info->flags |= flags & HR_F_SEQ_NUMBER ? TUN_SEQ : 0;
	info->flags |= flags & HR_F_NO_TUNNEL_KEY ? 0 : TUN_KEY;
	/* tun_id is 64 bits; the key gives the low 32. */
	info->id = k.tunnel_id;
	info->tos = k.tunnel_tos;
	info->ttl = k.tunnel_ttl;
	if (flags & HR_F_TUNINFO_IPV6) {
		info->mode |= HR_TUN_INFO_IPV6;
		memcpy(info->dst, k.remote_ipv6, 16);
		memcpy(info->src, k.local_ipv6, 16);
		info->label = k.tunnel_label & IPV6_FLOWLABEL_MASK;
		return 0;
	}
	a = htonl(k.remote_ipv4);
	memcpy(info->dst, &a, 4);
	a = htonl(k.local_ipv4);
	memcpy(info->src, &a, 4);
	return 0;
}

/* bpf_skb_get_tunnel_opt: the options' length, or an error with the
 * buffer zeroed. */
static int get_opt(const struct hr_tun_info *info, uint8_t *to, uint32_t size)
{
	int err = -ENOENT;

	if (!info || !(info->flags & TUN_OPTS_PRESENT))
		goto clear;
	if (size < info->opts_len) {
		err = -ENOMEM;
		goto clear;
	}
	memcpy(to, info->opts, info->opts_len);
	memset(to + info->opts_len, 0, size - info->opts_len);
	return info->opts_len;
clear:
	memset(to, 0, size);
	return err;
}

/* bpf_skb_set_tunnel_opt: only on the metadata a set attached to this
 * skb. The present bits stay once set, whatever the length after. */
static int set_opt(const struct hr_tc_ctx *c, const uint8_t *from,
		   uint32_t size)
{
	struct hr_tun_info *info = &md_dst;

	if (c->tun != info || (size & 3))
		return -EINVAL;
	if (size > HR_TUN_OPTS_MAX)
		return -ENOMEM;
	info->opts_len = (uint8_t)size;
	if (size) {
		memcpy(info->opts, from, size);
		info->flags |= TUN_OPTS_PRESENT;
	}
	return 0;
}

static uint64_t skb_get_tunnel_key(uint64_t r1, uint64_t key, uint64_t size,
				   uint64_t flags, uint64_t r5,
				   struct hr_run *run)
{
	uint8_t *to = hr_run_mem(run, key, (uint32_t)size, true);

	if (!to)
		return 0;
	return (uint64_t)(int64_t)get_key(ctx_of(run)->tun, to, (uint32_t)size,
					  flags);
}

static uint64_t skb_set_tunnel_key(uint64_t r1, uint64_t key, uint64_t size,
				   uint64_t flags, uint64_t r5,
				   struct hr_run *run)
{
	const uint8_t *from = hr_run_mem(run, key, (uint32_t)size, false);

	if (!from)
		return 0;
	return (uint64_t)(int64_t)set_key(ctx_of(run), from, (uint32_t)size,
					  flags);
}

static uint64_t skb_get_tunnel_opt(uint64_t r1, uint64_t opt, uint64_t size,
				   uint64_t r4, uint64_t r5, struct hr_run *run)
{
	uint8_t *to = hr_run_mem(run, opt, (uint32_t)size, true);

	if (!to)
		return 0;
	return (uint64_t)(int64_t)get_opt(ctx_of(run)->tun, to, (uint32_t)size);
}

static uint64_t skb_set_tunnel_opt(uint64_t r1, uint64_t opt, uint64_t size,
				   uint64_t r4, uint64_t r5, struct hr_run *run)
{
	const uint8_t *from = hr_run_mem(run, opt, (uint32_t)size, false);

	if (!from)
		return 0;
	return (uint64_t)(int64_t)set_opt(ctx_of(run), from, (uint32_t)size);
}

const struct hr_helper hr_helper_skb_get_tunnel_key = {
	.id = BPF_FUNC_skb_get_tunnel_key,
	.name = "bpf_skb_get_tunnel_key",
	.fn = skb_get_tunnel_key,
};

const struct hr_helper hr_helper_skb_set_tunnel_key = {
	.id = BPF_FUNC_skb_set_tunnel_key,
	.name = "bpf_skb_set_tunnel_key",
	.fn = skb_set_tunnel_key,
};

const struct hr_helper hr_helper_skb_get_tunnel_opt = {
	.id = BPF_FUNC_skb_get_tunnel_opt,
	.name = "bpf_skb_get_tunnel_opt",
	.fn = skb_get_tunnel_opt,
};

const struct hr_helper hr_helper_skb_set_tunnel_opt = {
	.id = BPF_FUNC_skb_set_tunnel_opt,
	.name = "bpf_skb_set_tunnel_opt",
	.fn = skb_set_tunnel_opt,
};
