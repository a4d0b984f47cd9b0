// SPDX-License-Identifier: MIT
/*
 * BPF_PROG_TEST_RUN for tc programs (bpf_prog_test_run_skb): the packet
 * in an skb on the loopback device, the MAC header pushed back so the
 * program sees it, and the __sk_buff fields the kernel lets user space set.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "progs/prog.h"
#include "progs/ctx.h"
#include "progs/test_run_priv.h"
#include "core/pool.h"

/* NET_SKB_PAD + NET_IP_ALIGN on x86-64. */
#define TC_TEST_HEADROOM 64u
#define GSO_MAX_SEGS 65535u
#define IP_HLEN_MIN 20u /* sizeof(struct iphdr) */
#define IPV6_HLEN 40u /* sizeof(struct ipv6hdr) */
#define GSO_LEGACY_MAX_SIZE 65536u

#define SKB_OFF(f) offsetof(struct __sk_buff, f)
#define SKB_END(f) (SKB_OFF(f) + sizeof(((struct __sk_buff *)0)->f))

static bool range_zero(const void *p, size_t from, size_t to)
{
	const uint8_t *b = p;

	for (; from < to; from++)
		if (b[from])
			return false;
	return true;
}

/* convert___skb_to_skb: only these fields may be set by user space. */
static int skb_ctx_check(const struct __sk_buff *s, uint32_t len)
{
	if (!range_zero(s, 0, SKB_OFF(mark)) ||
	    !range_zero(s, SKB_END(mark), SKB_OFF(priority)) ||
	    !range_zero(s, SKB_END(ifindex), SKB_OFF(cb)) ||
	    !range_zero(s, SKB_END(cb), SKB_OFF(tstamp)) ||
	    !range_zero(s, SKB_END(gso_segs), SKB_OFF(gso_size)) ||
	    !range_zero(s, SKB_END(gso_size), SKB_OFF(hwtstamp)) ||
	    !range_zero(s, SKB_END(hwtstamp), sizeof(*s)))
		return -EINVAL;
	if (s->wire_len &&
	    (s->wire_len < len || s->wire_len > GSO_LEGACY_MAX_SIZE))
		return -EINVAL;
	if (s->gso_segs > GSO_MAX_SEGS)
		return -EINVAL;
	return 0;
}

/* eth_type_trans on the loopback device: its address and its broadcast
 * address are both 00:00:00:00:00:00, so a multicast destination (even
 * ff:ff:ff:ff:ff:ff) is PACKET_MULTICAST. */
static void eth_type_trans(const uint8_t *pkt, uint32_t len,
			   struct __sk_buff *skb)
{
	static const uint8_t zero[ETH_ALEN];
	uint16_t proto;

	if (!memcmp(pkt, zero, ETH_ALEN))
		skb->pkt_type = PACKET_HOST;
	else if (pkt[0] & 1)
		skb->pkt_type = PACKET_MULTICAST;
	else
		skb->pkt_type = PACKET_OTHERHOST;

	memcpy(&proto, pkt + 12, 2);
	if (ntohs(proto) >= ETH_P_802_3_MIN)
		skb->protocol = proto;
	else if (len >= ETH_HLEN + 2 && pkt[14] == 0xff && pkt[15] == 0xff)
		skb->protocol = htons(ETH_P_802_3);
	else
		skb->protocol = htons(ETH_P_802_2);
}

/* SKB_DATA_ALIGN: SMP_CACHE_BYTES, 64 on x86-64. */
#define SKB_DATA_ALIGN(x) (((x) + 63u) & ~(uint64_t)63u)
/* The skb's header offsets from head are 16 bits, as the kernel's are:
 * no head may be bigger (only a GSO skb's bpf_skb_change_head, which has
 * no length limit, could ask for one; the kernel would fail it too). */
#define TC_TEST_HEAD_MAX 65536u

/*
 * pskb_expand_head for the test run's skb: a new head of the old one plus
 * @nhead in front and @ntail behind, cache-aligned, plus the shinfo,
 * rounded up as kmalloc_reserve rounds (past a page, the page allocator's
 * power of two), so the tailroom after it is the kernel's. The old bytes
 * go @nhead in; the old head is released (the frame at the run's end).
 */
static int tc_test_expand_head(struct hr_tc_ctx *c, uint32_t nhead,
			       uint32_t ntail)
{
	uint64_t osize = c->frame_sz - HR_SKB_SHINFO_SIZE;
	uint64_t size =
		SKB_DATA_ALIGN(osize + nhead + ntail) + HR_SKB_SHINFO_SIZE;
	size_t data_off = (size_t)(c->data - c->head);
	size_t len = (size_t)(c->data_end - c->data);
	uint64_t alloc = HR_FRAME_SIZE;
	uint8_t *head;

	while (alloc < size)
		alloc <<= 1;
	if (alloc > TC_TEST_HEAD_MAX)
		return -ENOMEM;
	head = hr_mem_low((size_t)alloc);
	if (!head)
		return -ENOMEM;
	memcpy(head + nhead, c->head, data_off + len);
	if (c->grown)
		hr_mem_low_free(c->grown, c->grown_sz);
	c->grown = head;
	c->grown_sz = (size_t)alloc;
	c->head = head;
	c->data = head + nhead + data_off;
	c->data_end = c->data + len;
	c->frame_sz = (uint32_t)alloc;
	return 0;
}

/* The metadata a collect_md tunnel device attaches to what it receives
 * (a receive-mode ip_tunnel_info: src is the remote end), from the
 * caller's ->sz bytes of @md. */
static int tun_in(const struct hr_tunnel_md *md, struct hr_tun_info *info)
{
	struct hr_tunnel_md in;
	size_t alen;

	memset(&in, 0, sizeof(in));
	if (md->sz < offsetof(struct hr_tunnel_md, tx))
		return -EINVAL;
	memcpy(&in, md, md->sz < sizeof(in) ? md->sz : sizeof(in));
	if ((in.family != AF_INET && in.family != AF_INET6) || in.tx ||
	    (in.flags & ~HR_TUNNEL_F_ALL) || in.label > 0xfffffu ||
	    (in.family == AF_INET && in.label))
		return -EINVAL;
	alen = in.family == AF_INET ? 4 : 16;
	memset(info, 0, sizeof(*info));
	info->mode = in.family == AF_INET6 ? HR_TUN_INFO_IPV6 : 0;
	info->id = in.id;
	memcpy(info->src, in.remote, alen);
	memcpy(info->dst, in.local, alen);
	info->flags = in.flags;
	info->label = in.label;
	info->tos = in.tos;
	info->ttl = in.ttl;
	info->opts_len = in.opts_len;
	memcpy(info->opts, in.opts, in.opts_len);
	return 0;
}

/* The skb's metadata after the run into the caller's ->sz bytes of @md. */
static void tun_out(const struct hr_tun_info *info, struct hr_tunnel_md *md)
{
	struct hr_tunnel_md out;
	bool tx = info && (info->mode & HR_TUN_INFO_TX);
	size_t alen;

	memset(&out, 0, sizeof(out));
	out.sz = md->sz;
	if (info) {
		out.family = info->mode & HR_TUN_INFO_IPV6 ? AF_INET6 : AF_INET;
		alen = out.family == AF_INET ? 4 : 16;
		out.tx = tx;
		out.id = info->id;
		/* Sent: to dst from src; received: from src to dst. */
		memcpy(out.remote, tx ? info->dst : info->src, alen);
		memcpy(out.local, tx ? info->src : info->dst, alen);
		out.tos = info->tos;
		out.ttl = info->ttl;
		out.label = info->label;
		out.flags = info->flags;
		out.opts_len = info->opts_len;
		memcpy(out.opts, info->opts, info->opts_len);
	}
	memcpy(md, &out, md->sz < sizeof(out) ? md->sz : sizeof(out));
}

static void tc_sync(void *priv, struct hr_run *run)
{
	hr_tc_ctx_sync(priv, run);
}

/* What the program sees; user-set fields come from @in. */
static void skb_ctx_fill(struct hr_tc_ctx *c, const struct __sk_buff *in,
			 uint32_t len)
{
	struct __sk_buff *s = &c->skb;

	memset(s, 0, sizeof(*s));
	s->mark = in->mark;
	s->priority = in->priority;
	s->ingress_ifindex = in->ingress_ifindex;
	s->ifindex = in->ifindex > 1 ? in->ifindex : 1;
	memcpy(s->cb, in->cb, sizeof(s->cb));
	s->tstamp = in->tstamp;
	s->wire_len = in->wire_len ? in->wire_len : len;
	s->gso_segs = in->gso_segs;
	s->gso_size = in->gso_size;
	s->hwtstamp = in->hwtstamp;
	eth_type_trans(c->data, len, s);
}

/* convert_skb_to___skb */
static void skb_ctx_out(const struct hr_tc_ctx *c, struct __sk_buff *out)
{
	const struct __sk_buff *s = &c->skb;

	memset(out, 0, sizeof(*out));
	out->mark = s->mark;
	out->priority = s->priority;
	out->ingress_ifindex = s->ingress_ifindex;
	out->ifindex = s->ifindex;
	out->tstamp = s->tstamp;
	memcpy(out->cb, s->cb, sizeof(out->cb));
	out->wire_len = s->wire_len;
	out->gso_segs = s->gso_segs;
	out->gso_size = s->gso_size;
	out->hwtstamp = s->hwtstamp;
}

int hr_tc_test_run(struct hr_prog *prog, struct hr_test_run_opts *o)
{
	uint32_t size = o->data_size_in, retval = 0, duration = 0;
	const struct hr_tunnel_md *tin = HR_OPTS_GET(o, tunnel_in, NULL);
	struct hr_tunnel_md *tout = HR_OPTS_GET(o, tunnel_out, NULL);
	struct __sk_buff in, out;
	struct hr_tun_info rx;
	struct hr_tc_ctx c;
	struct hr_run *run;
	bool have_ctx;
	void *frame;
	int ret;

	ret = hr_ctx_init(o, &in, sizeof(in), &have_ctx);
	if (ret)
		return ret;
	if (size < ETH_HLEN ||
	    size > HR_FRAME_SIZE - TC_TEST_HEADROOM - HR_SKB_SHINFO_SIZE ||
	    !o->data_in)
		return -EINVAL;
	/* Only the loopback device exists for test runs. */
	if (have_ctx && in.ifindex > 1)
		return -ENODEV;
	if (have_ctx) {
		ret = skb_ctx_check(&in, size);
		if (ret)
			return ret;
	}
	if (tin) {
		ret = tun_in(tin, &rx);
		if (ret)
			return ret;
	}
	frame = hr_test_frame();
	if (!frame)
		return -ENOMEM;
	memset(frame, 0, HR_FRAME_SIZE);
	memset(&c, 0, sizeof(c));
	c.head = frame;
	c.data = (uint8_t *)frame + TC_TEST_HEADROOM;
	c.data_end = c.data + size;
	c.frame_sz = HR_FRAME_SIZE;
	c.expand_head = tc_test_expand_head;
	memcpy(c.data, o->data_in, size);
	skb_ctx_fill(&c, &in, size);
	c.tun = tin ? &rx : NULL;
	/* The kernel pulls the IP header of IPv4 and IPv6 packets before the
	 * run (for the socket it attaches) and refuses shorter ones. */
	if ((c.skb.protocol == htons(ETH_P_IP) &&
	     size < ETH_HLEN + IP_HLEN_MIN) ||
	    (c.skb.protocol == htons(ETH_P_IPV6) &&
	     size < ETH_HLEN + IPV6_HLEN)) {
		ret = -EINVAL;
		goto out;
	}

	run = malloc(sizeof(*run));
	if (!run) {
		ret = -ENOMEM;
		goto out;
	}
	run->ctx = &c.skb;
	ret = hr_run_repeat(prog, run, o, &retval, &duration, tc_sync, &c);
	if (!ret && run->abort)
		hr_test_access_fill(prog, run, (uintptr_t)c.data, o);
	if (!ret && tout)
		tun_out(c.tun, tout);
	free(run);
	if (ret)
		goto out;
	ret = hr_test_finish(o, c.data, (uint32_t)(c.data_end - c.data), retval,
			     duration);
	if (!ret && have_ctx) {
		skb_ctx_out(&c, &out);
		ret = hr_ctx_finish(o, &out, sizeof(out));
	}
out:
	hr_mem_low_free(c.grown, c.grown_sz);
	hr_test_frame_put(frame);
	return ret;
}
