// SPDX-License-Identifier: MIT
/*
 * The generator device, like pktgen: Ethernet (optionally 802.1Q), IPv4
 * or IPv6, UDP, TCP or ICMP, round robin over flows. It behaves like a
 * NIC with RSS: each flow hashes (Toeplitz, standard key) to an RX queue,
 * and the hash, its type, a timestamp and an offloaded VLAN tag are
 * reported to XDP programs through the metadata kfuncs.
 *
 * Every flow's headers, with their checksums, are built once at creation;
 * a packet costs two copies into a pooled frame.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "headroom/devices.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "dev/dev.h"
#include "dev/dev_common.h"
#include "dev/toeplitz.h"

#define GEN_HDR_MAX 96
#define GEN_POOL_DEFAULT 4096
/* Packets up to this long are written from a per-flow image, whole
 * cache lines at a time (gen_fill). */
#define GEN_IMG_MAX 128
#define GEN_LINE 64

/* XDP_RSS_* bits of enum xdp_rss_hash_type (include/net/xdp.h). */
#define RSS_L3_IPV4 (1u << 0)
#define RSS_L3_IPV6 (1u << 1)
#define RSS_L4 (1u << 3)
#define RSS_L4_TCP (1u << 4)
#define RSS_L4_UDP (1u << 5)

struct gen_flow {
	/* The whole packet, headers and payload, padded with payload
	 * to whole lines (p->img_len; 0 for longer packets). */
	uint8_t img[GEN_IMG_MAX] __attribute__((aligned(GEN_LINE)));
	uint8_t hdr[GEN_HDR_MAX];
	uint16_t hdr_len;
	uint32_t hash;
	uint32_t rss_type;
};

/* The RX descriptors of the current poll batch are struct hr_rx_hints
 * (the standard layout, read directly by the kfuncs and the JIT): the
 * hash, its type and a timestamp for every packet, and an offloaded VLAN
 * tag when the device strips one (only a stripped tag is reported; an
 * in-band one is in the data). Constant fields are set at creation. */

struct gen_queue {
	uint32_t *flows; /* flow indexes hashed to this queue, ascending */
	uint32_t nflows;
	uint32_t next;
	uint64_t quota; /* packets to send; UINT64_MAX: no limit */
	uint64_t rate; /* packets a second; 0: no pacing */
	uint64_t start_ns; /* CLOCK_MONOTONIC at the first poll */
	_Atomic uint64_t sent;
	atomic_bool done;
	struct hr_rx_hints desc[HR_NAPI_BUDGET];
	/* The last batch's drops, kept for the next (gen_take), and the
	 * pool tag each slot of that batch had when it was handed over. */
	struct hr_rx_recycle rc;
	uint32_t slot_tag[HR_NAPI_BUDGET];
} __attribute__((aligned(64)));

struct gen_priv {
	struct hr_gen_opts o;
	uint32_t len; /* bytes of each packet in the buffer */
	uint32_t img_len; /* len rounded up to lines, or 0 (gen_flow) */
	uint16_t vlan_tci;
	struct gen_flow *flows;
	uint32_t nflows;
	uint8_t payload[HR_GEN_PKT_MAX];
	struct gen_queue q[HR_DEV_MAX_QUEUES];
};

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The time pacing and a duration count from, or 0 when the queue has
 * neither: then nothing reads it (gen_allowance, gen_queue_finished), and
 * a poll is spared a clock read it would make for nothing.
 */
static uint64_t gen_now(const struct gen_priv *p, const struct gen_queue *q)
{
	if (!q->rate && !p->o.duration_ns)
		return 0;
	return clock_ns(CLOCK_MONOTONIC);
}

/* How many packets queue @q may send now, at most @budget. */
static uint32_t gen_allowance(struct gen_priv *p, struct gen_queue *q,
			      uint64_t now, int budget)
{
	uint64_t sent = atomic_load_explicit(&q->sent, memory_order_relaxed);
	uint64_t n = (uint64_t)budget, due;

	if (q->quota != UINT64_MAX && q->quota - sent < n)
		n = q->quota - sent;
	if (p->o.duration_ns && now - q->start_ns >= p->o.duration_ns)
		return 0;
	if (q->rate) {
		/* Paced per poll: whatever fell due since the start. */
		due = (uint64_t)((unsigned __int128)q->rate *
				 (now - q->start_ns) / 1000000000u);
		if (due <= sent)
			return 0;
		if (due - sent < n)
			n = due - sent;
	}
	return (uint32_t)n;
}

static bool gen_queue_finished(struct gen_priv *p, struct gen_queue *q,
			       uint64_t now)
{
	if (!q->nflows)
		return true;
	if (q->quota != UINT64_MAX &&
	    atomic_load_explicit(&q->sent, memory_order_relaxed) >= q->quota)
		return true;
	return p->o.duration_ns && now - q->start_ns >= p->o.duration_ns;
}

/*
 * A short packet is copied from its flow's image a whole line at a time,
 * constant-size copies the compiler inlines, where two calls to memcpy of
 * odd lengths cost more than the bytes. The bytes past data_end that this
 * writes are tailroom, within the frame below skb_shared_info (GEN_IMG_MAX
 * after the headroom): a program reaches them only by growing the tail,
 * and bpf_xdp_adjust_tail clears what it grows.
 */
static void gen_fill(struct gen_priv *p, const struct gen_flow *f,
		     uint8_t *data)
{
	uint32_t o;

	if (p->img_len) {
		for (o = 0; o < p->img_len; o += GEN_LINE)
			__builtin_memcpy(data + o, f->img + o, GEN_LINE);
		return;
	}
	memcpy(data, f->hdr, f->hdr_len);
	memcpy(data + f->hdr_len, p->payload, p->len - f->hdr_len);
}

/*
 * A frame's pool tag is flow index + 1 when the frame still holds that
 * flow's packet as gen_fill wrote it: the pool keeps a tag only when the
 * frame came back with its bytes untouched (an XDP_DROP by a run that
 * wrote no packet byte, rx.c) and clears it on any other return. Such a
 * frame is not written again, as the kernel's live-frames page pool
 * writes a page once and not when it is recycled; the program still
 * sees exactly the generator's packet. Every packet of the device has
 * the same length and place in its frame, so the flow says it all.
 */
static uint32_t gen_refill(struct hr_dev *dev, struct gen_priv *p,
			   const struct gen_flow *f, void *frame, uint32_t tag)
{
	uint32_t want = (uint32_t)(f - p->flows) + 1;

	if (tag == want)
		return want;
	gen_fill(p, f, (uint8_t *)frame + HR_XDP_PACKET_HEADROOM);
	hr_pool_set_tag(dev->pool, frame, want);
	return want;
}

/* Gives what @q still keeps back to the pool (each with its tag when it
 * came back clean, as its pool's put would take it). */
static void gen_give_back(struct hr_dev *dev, struct gen_queue *q,
			  unsigned int from)
{
	if (q->rc.n > from)
		hr_pool_put_bulk_clean(dev->pool, q->rc.q + from,
				       q->rc.n - from, q->rc.clean >> from);
	q->rc.n = 0;
	q->rc.clean = 0;
}

/*
 * Up to @n frames for a batch, with their pool tags: the last batch's
 * drops first, in the order they came back (so each tends to meet its
 * flow again, as hr_pool_put_bulk_clean's order does), then the pool's.
 * A kept frame's tag is the one its slot had when the batch was handed
 * over, valid only when the run wrote none of its bytes (its clean bit),
 * else 0: exactly what the pool would have kept had it been put back.
 * What is kept beyond @n goes back to the pool.
 */
static unsigned int gen_take(struct hr_dev *dev, struct gen_queue *q,
			     void **frames, uint32_t *tags, unsigned int n)
{
	unsigned int k = q->rc.n < n ? q->rc.n : n, i;

	for (i = 0; i < k; i++) {
		frames[i] = q->rc.q[i];
		tags[i] = (q->rc.clean >> i & 1) ? q->slot_tag[q->rc.from[i]] :
						   0;
	}
	gen_give_back(dev, q, k);
	if (k < n)
		k += hr_pool_get_bulk_tags(dev->pool, frames + k, tags + k,
					   n - k);
	return k;
}

/* Only the queue's worker writes it: a plain add, read as a sum. */
static void gen_sent(struct gen_queue *q, uint32_t n)
{
	atomic_store_explicit(
		&q->sent,
		atomic_load_explicit(&q->sent, memory_order_relaxed) + n,
		memory_order_relaxed);
}

static int gen_poll(struct hr_dev *dev, struct hr_napi *napi, int budget)
{
	struct gen_priv *p = dev->priv;
	struct gen_queue *q = &p->q[napi->queue];
	struct hr_xdp_buff xdp[HR_NAPI_BUDGET];
	void *frames[HR_NAPI_BUDGET];
	uint32_t tags[HR_NAPI_BUDGET];
	unsigned int skip;
	uint64_t now, ts;
	uint32_t n, i, next, nflows, len;
	struct hr_rxq_info *rxq;
	bool last, meta;

	if (atomic_load_explicit(&q->done, memory_order_relaxed))
		return 0;
	now = gen_now(p, q);
	if (!q->start_ns)
		q->start_ns = now;
	if (gen_queue_finished(p, q, now)) {
		gen_give_back(dev, q, 0);
		atomic_store_explicit(&q->done, true, memory_order_release);
		return 0;
	}
	if (budget > HR_NAPI_BUDGET)
		budget = HR_NAPI_BUDGET;
	n = gen_allowance(p, q, now, budget);
	if (!n)
		return 0;
	/* A NIC without RX buffers generates nothing: wait for frames. */
	n = gen_take(dev, q, frames, tags, n);
	if (!n)
		return 0;
	/* The batch that completes the count gives its drops back to the
	 * pool, so that a generator done holds no frame. */
	last = q->quota != UINT64_MAX &&
	       q->quota - atomic_load_explicit(&q->sent,
					       memory_order_relaxed) <=
		       n;
	skip = napi->worker->dp->bench_skip;
	if (__builtin_expect(skip & HR_BENCH_SKIP_RX, 0)) {
		/* Kept untouched: each keeps its tag. */
		for (i = 0; i < n; i++) {
			q->rc.q[i] = frames[i];
			q->rc.from[i] = (uint8_t)i;
			q->slot_tag[i] = tags[i];
		}
		q->rc.n = n;
		q->rc.clean = n < 64 ? (1ull << n) - 1 : ~0ull;
		if (last)
			gen_give_back(dev, q, 0);
		gen_sent(q, n);
		return (int)n;
	}
	ts = clock_ns(CLOCK_REALTIME);
	/* The loop's invariants in locals: its stores into the queue's
	 * descriptors and tags would otherwise make the compiler read them
	 * again a packet. */
	next = q->next;
	nflows = q->nflows;
	rxq = &dev->rxq[napi->queue];
	len = p->len;
	meta = dev->meta_supported;
	for (i = 0; i < n; i++) {
		const struct gen_flow *f = &p->flows[q->flows[next]];
		struct hr_rx_hints *d = &q->desc[i];

		if (++next == nflows)
			next = 0;
		d->timestamp = ts;
		d->hash = f->hash;
		d->hash_type = f->rss_type;
		hr_xdp_init_buff(&xdp[i], HR_FRAME_SIZE, rxq);
		hr_xdp_prepare_buff(&xdp[i], frames[i], HR_XDP_PACKET_HEADROOM,
				    len, meta);
		xdp[i].hints = d;
		if (!(skip & HR_BENCH_SKIP_FILL))
			q->slot_tag[i] =
				gen_refill(dev, p, f, frames[i], tags[i]);
		else
			q->slot_tag[i] = tags[i];
	}
	q->next = next;
	/* The frames are the pool's, in hand, without fragments: what
	 * hr_xdp_rx_bulk_recycle asks. */
	if (last) {
		hr_xdp_rx_bulk(napi, xdp, n);
	} else {
		hr_xdp_rx_bulk_recycle(napi, xdp, n, &q->rc);
	}
	gen_sent(q, n);
	return (int)n;
}

/* Transmitting out of a generator: onto the wire and freed (the caller
 * counts what was sent). */
static int gen_xdp_xmit(struct hr_dev *dev, struct hr_worker *w,
			struct hr_xdp_frame **frames, int n, uint32_t flags)
{
	return hr_dev_xmit_to_file(NULL, frames, n, flags);
}

static bool gen_rx_done(struct hr_dev *dev)
{
	struct gen_priv *p = dev->priv;
	unsigned int i;

	for (i = 0; i < dev->nrxq; i++)
		if (p->q[i].nflows &&
		    !atomic_load_explicit(&p->q[i].done, memory_order_acquire))
			return false;
	return true;
}

/*
 * A stopped generator keeps no frame, nor does one on a stopped
 * datapath. hr_dev_close calls this after a grace period, with no poll
 * of the device running or to come until it is opened again, and
 * hr_dp_stop (as quiesce) after joining every worker, so the polling
 * thread's frames are ours to give.
 */
static void gen_stop(struct hr_dev *dev)
{
	struct gen_priv *p = dev->priv;
	unsigned int i;

	for (i = 0; i < HR_DEV_MAX_QUEUES; i++)
		gen_give_back(dev, &p->q[i], 0);
}

static void gen_destroy(struct hr_dev *dev)
{
	struct gen_priv *p = dev->priv;
	unsigned int i;

	if (p) {
		if (dev->pool)
			gen_stop(dev);
		for (i = 0; i < HR_DEV_MAX_QUEUES; i++)
			free(p->q[i].flows);
		free(p->flows);
		free(p);
	}
	hr_dev_common_free(dev);
}

static const struct hr_dev_ops gen_ops = {
	.kind = "gen",
	.stop = gen_stop,
	.quiesce = gen_stop,
	.poll = gen_poll,
	.xdp_xmit = gen_xdp_xmit,
	.rx_done = gen_rx_done,
	.destroy = gen_destroy,
};

uint64_t hr_dev_gen_sent(struct hr_dev *dev)
{
	struct gen_priv *p = dev->priv;
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < dev->nrxq; i++)
		sum += atomic_load_explicit(&p->q[i].sent,
					    memory_order_relaxed);
	return sum;
}

/* --- building the flows ------------------------------------------------ */

static uint32_t csum_add(uint32_t sum, const void *buf, size_t len)
{
	const uint8_t *b = buf;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(b[i] << 8 | b[i + 1]);
	if (len & 1)
		sum += (uint32_t)b[len - 1] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* @addr (network order, @alen bytes) plus @n in its last 32 bits. */
static void addr_add(uint8_t *out, const uint8_t *base, size_t alen, uint32_t n)
{
	uint32_t last;

	memcpy(out, base, alen);
	memcpy(&last, out + alen - 4, 4);
	last = htonl(ntohl(last) + n);
	memcpy(out + alen - 4, &last, 4);
}

static uint16_t port_of(uint16_t min, uint16_t max, uint32_t f)
{
	if (max < min)
		max = min;
	return (uint16_t)(min + f % ((uint32_t)max - min + 1));
}

static unsigned int l4_hdr_len(int proto)
{
	return proto == IPPROTO_TCP ? 20 : 8;
}

static unsigned int gen_hdr_len(const struct hr_gen_opts *o)
{
	return 14 + (o->vlan && !o->vlan_offload ? 4 : 0) +
	       (o->ip_version == 6 ? 40 : 20) + l4_hdr_len(o->l4_proto);
}

static void gen_build_l4(const struct gen_priv *p, uint8_t *l4, uint32_t f,
			 uint16_t sport, uint16_t dport, uint32_t l4_len,
			 uint32_t sum)
{
	const struct hr_gen_opts *o = &p->o;
	unsigned int hl = l4_hdr_len(o->l4_proto);
	uint16_t csum_off;

	memset(l4, 0, hl);
	if (o->l4_proto == IPPROTO_UDP) {
		put16(l4, sport);
		put16(l4 + 2, dport);
		put16(l4 + 4, (uint16_t)l4_len);
		csum_off = 6;
	} else if (o->l4_proto == IPPROTO_TCP) {
		put16(l4, sport);
		put16(l4 + 2, dport);
		put16(l4 + 4, 0);
		put16(l4 + 6, 1); /* sequence number 1 */
		l4[12] = 5 << 4; /* data offset: 20 bytes */
		l4[13] = 0x10; /* ACK */
		put16(l4 + 14, 0xffff); /* window */
		csum_off = 16;
	} else {
		l4[0] = o->ip_version == 6 ? 128 : 8; /* echo request */
		put16(l4 + 4, (uint16_t)f); /* identifier */
		csum_off = 2;
	}
	sum = csum_add(sum, l4, hl);
	sum = csum_add(sum, p->payload, l4_len - hl);
	put16(l4 + csum_off, csum_fold(sum));
	/* UDP sends an all-zero checksum as 0xffff (RFC 768). */
	if (o->l4_proto == IPPROTO_UDP && !(l4[6] | l4[7]))
		put16(l4 + 6, 0xffff);
}

static void gen_build_flow(struct gen_priv *p, uint32_t f)
{
	const struct hr_gen_opts *o = &p->o;
	struct gen_flow *fl = &p->flows[f];
	bool v6 = o->ip_version == 6, tcp_udp;
	size_t alen = v6 ? 16 : 4;
	uint8_t src[16], dst[16], tuple[36], *b = fl->hdr, *ip, *l4;
	uint16_t sport, dport;
	uint32_t l3_len, l4_len, sum, proto;

	tcp_udp = o->l4_proto == IPPROTO_TCP || o->l4_proto == IPPROTO_UDP;
	addr_add(src, o->src_addr, alen, f % o->src_addr_count);
	addr_add(dst, o->dst_addr, alen, f % o->dst_addr_count);
	sport = port_of(o->src_port_min, o->src_port_max, f);
	dport = port_of(o->dst_port_min, o->dst_port_max, f);

	memcpy(b, o->dst_mac, 6);
	memcpy(b + 6, o->src_mac, 6);
	b += 12;
	if (o->vlan && !o->vlan_offload) {
		put16(b, 0x8100);
		put16(b + 2, p->vlan_tci);
		b += 4;
	}
	put16(b, v6 ? 0x86dd : 0x0800);
	ip = b + 2;
	l3_len = p->len - (uint32_t)(ip - fl->hdr);
	proto = o->l4_proto;
	if (v6) {
		if (proto == IPPROTO_ICMP)
			proto = IPPROTO_ICMPV6;
		l4_len = l3_len - 40;
		memset(ip, 0, 40);
		ip[0] = 0x60;
		put16(ip + 4, (uint16_t)l4_len);
		ip[6] = (uint8_t)proto;
		ip[7] = 64;
		memcpy(ip + 8, src, 16);
		memcpy(ip + 24, dst, 16);
		l4 = ip + 40;
	} else {
		l4_len = l3_len - 20;
		memset(ip, 0, 20);
		ip[0] = 0x45;
		put16(ip + 2, (uint16_t)l3_len);
		put16(ip + 6, 0x4000); /* DF */
		ip[8] = 64;
		ip[9] = (uint8_t)proto;
		memcpy(ip + 12, src, 4);
		memcpy(ip + 16, dst, 4);
		put16(ip + 10, csum_fold(csum_add(0, ip, 20)));
		l4 = ip + 20;
	}
	/* Pseudo-header for TCP, UDP and ICMPv6; plain ICMP has none. */
	sum = 0;
	if (tcp_udp || v6) {
		sum = csum_add(sum, src, alen);
		sum = csum_add(sum, dst, alen);
		sum += proto + (l4_len & 0xffff) + (l4_len >> 16);
	}
	gen_build_l4(p, l4, f, sport, dport, l4_len, sum);
	fl->hdr_len = (uint16_t)(l4 + l4_hdr_len(o->l4_proto) - fl->hdr);
	if (p->img_len) {
		memcpy(fl->img, fl->hdr, fl->hdr_len);
		memcpy(fl->img + fl->hdr_len, p->payload,
		       p->img_len - fl->hdr_len);
	}

	/* The NIC's RSS: addresses, then ports for TCP and UDP. */
	memcpy(tuple, src, alen);
	memcpy(tuple + alen, dst, alen);
	put16(tuple + 2 * alen, sport);
	put16(tuple + 2 * alen + 2, dport);
	fl->hash = hr_toeplitz(hr_rss_default_key, HR_RSS_KEY_SIZE, tuple,
			       2 * alen + (tcp_udp ? 4 : 0));
	fl->rss_type = v6 ? RSS_L3_IPV6 : RSS_L3_IPV4;
	if (o->l4_proto == IPPROTO_TCP)
		fl->rss_type |= RSS_L4 | RSS_L4_TCP;
	else if (o->l4_proto == IPPROTO_UDP)
		fl->rss_type |= RSS_L4 | RSS_L4_UDP;
}

static int gen_check_opts(struct hr_gen_opts *o)
{
	static const uint8_t v4_src[4] = { 198, 18, 0, 1 };
	static const uint8_t v4_dst[4] = { 198, 18, 1, 1 };
	static const uint8_t v6_src[16] = { 0xfc, [15] = 1 };
	static const uint8_t v6_dst[16] = { 0xfc, [13] = 1, [15] = 1 };
	static const uint8_t zero[16];

	if (!o->ip_version)
		o->ip_version = 4;
	if (!o->l4_proto)
		o->l4_proto = IPPROTO_UDP;
	if (o->l4_proto == IPPROTO_ICMPV6)
		o->l4_proto = IPPROTO_ICMP;
	if ((o->ip_version != 4 && o->ip_version != 6) ||
	    (o->l4_proto != IPPROTO_UDP && o->l4_proto != IPPROTO_TCP &&
	     o->l4_proto != IPPROTO_ICMP))
		return -EINVAL;
	if (!memcmp(o->src_addr, zero, 16))
		memcpy(o->src_addr, o->ip_version == 6 ? v6_src : v4_src,
		       o->ip_version == 6 ? 16 : 4);
	if (!memcmp(o->dst_addr, zero, 16))
		memcpy(o->dst_addr, o->ip_version == 6 ? v6_dst : v4_dst,
		       o->ip_version == 6 ? 16 : 4);
	if (!o->src_addr_count)
		o->src_addr_count = 1;
	if (!o->dst_addr_count)
		o->dst_addr_count = 1;
	if (!o->src_port_min && !o->src_port_max)
		o->src_port_min = o->src_port_max = 9;
	if (!o->dst_port_min && !o->dst_port_max)
		o->dst_port_min = o->dst_port_max = 9;
	if (!o->flows)
		o->flows = 1;
	if (!o->pkt_size)
		o->pkt_size = HR_GEN_PKT_MIN;
	if (!o->nrxq)
		o->nrxq = 1;
	if (!o->pool_frames)
		o->pool_frames = GEN_POOL_DEFAULT;
	if (o->nrxq > HR_DEV_MAX_QUEUES || o->vlan_id > 4095 ||
	    o->vlan_prio > 7)
		return -EINVAL;
	if (o->pkt_size < HR_GEN_PKT_MIN || o->pkt_size > HR_GEN_PKT_MAX ||
	    o->pkt_size < gen_hdr_len(o))
		return -EINVAL;
	return 0;
}

/* Copies what the caller's (possibly older, smaller) struct has. */
static void gen_copy_opts(struct hr_gen_opts *o, const struct hr_gen_opts *in)
{
	memset(o, 0, sizeof(*o));
	if (in && in->sz)
		memcpy(o, in, in->sz < sizeof(*o) ? in->sz : sizeof(*o));
	o->sz = sizeof(*o);
}

static int gen_setup_queues(struct hr_dev *dev, struct gen_priv *p)
{
	const struct hr_gen_opts *o = &p->o;
	uint32_t f, nq = dev->nrxq, qi;

	for (qi = 0; qi < nq; qi++) {
		p->q[qi].flows = calloc(p->nflows, sizeof(uint32_t));
		if (!p->q[qi].flows)
			return -ENOMEM;
		p->q[qi].quota = o->count ? 0 : UINT64_MAX;
		p->q[qi].next = 0;
	}
	for (f = 0; f < p->nflows; f++) {
		struct gen_queue *q = &p->q[p->flows[f].hash % nq];

		q->flows[q->nflows++] = f;
		/* Flow f's share of the count, as round robin gives it. */
		if (o->count)
			q->quota += o->count / p->nflows +
				    (f < o->count % p->nflows);
	}
	for (qi = 0; qi < nq; qi++) {
		struct gen_queue *q = &p->q[qi];

		if (o->rate_pps)
			q->rate = o->rate_pps * q->nflows / p->nflows;
		if (o->rate_pps && q->nflows && !q->rate)
			q->rate = 1;
		atomic_init(&q->done, !q->nflows);
	}
	return 0;
}

/* What every descriptor has whatever the packet. */
static void gen_init_desc(struct gen_priv *p)
{
	bool tag = p->o.vlan && p->o.vlan_offload;
	unsigned int q, i;

	for (q = 0; q < HR_DEV_MAX_QUEUES; q++) {
		for (i = 0; i < HR_NAPI_BUDGET; i++) {
			struct hr_rx_hints *d = &p->q[q].desc[i];

			d->supported = HR_RX_HINTS_ALL;
			d->present = HR_RX_HINT_TIMESTAMP | HR_RX_HINT_HASH |
				     (tag ? HR_RX_HINT_VLAN : 0);
			d->vlan_proto = tag ? htons(0x8100) : 0;
			d->vlan_tci = tag ? p->vlan_tci : 0;
		}
	}
}

int hr_dev_gen_create(struct hr_datapath *dp, const char *name,
		      const struct hr_gen_opts *opts, struct hr_dev **out)
{
	struct hr_dev *dev;
	struct gen_priv *p;
	uint32_t i;
	int err;

	if (!name || !out)
		return -EINVAL;
	dev = calloc(1, sizeof(*dev));
	p = aligned_alloc(64, (sizeof(*p) + 63) & ~(size_t)63);
	if (!dev || !p) {
		free(dev);
		free(p);
		return -ENOMEM;
	}
	memset(p, 0, sizeof(*p));
	dev->priv = p;
	gen_copy_opts(&p->o, opts);
	err = gen_check_opts(&p->o);
	if (err)
		goto fail;
	p->len = p->o.pkt_size;
	if (p->len <= GEN_IMG_MAX)
		p->img_len = (p->len + GEN_LINE - 1) & ~(GEN_LINE - 1);
	p->vlan_tci = (uint16_t)(p->o.vlan_prio << 13 | p->o.vlan_id);
	for (i = 0; i < HR_GEN_PKT_MAX; i++)
		p->payload[i] = (uint8_t)i;
	p->nflows = p->o.flows;
	/* A 32-bit count of lines cannot overflow a 64-bit size. */
	p->flows =
		aligned_alloc(GEN_LINE, (size_t)p->nflows * sizeof(*p->flows));
	if (p->flows)
		memset(p->flows, 0, (size_t)p->nflows * sizeof(*p->flows));
	if (!p->flows) {
		err = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < p->nflows; i++)
		gen_build_flow(p, i);

	hr_dev_init(dev, name, &gen_ops, p->o.nrxq);
	err = gen_setup_queues(dev, p);
	if (err)
		goto fail;
	if (p->len > HR_ETH_HLEN + dev->mtu)
		dev->mtu = p->len - HR_ETH_HLEN;
	gen_init_desc(p);
	hr_dev_common_setup(dev, !p->o.no_meta,
			    p->o.no_hints ? NULL : &hr_xdp_std_meta_ops);
	err = hr_dev_common_register(dp, dev, p->o.pool_frames);
	if (err)
		goto fail;
	*out = dev;
	return 0;
fail:
	gen_destroy(dev);
	return err;
}
