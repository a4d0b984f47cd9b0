// SPDX-License-Identifier: MIT
/*
 * The afpacket device: a kernel interface through AF_PACKET sockets, as
 * libpcap and tcpdump read it (net/packet/af_packet.c). Each RX queue is a
 * socket with a TPACKET_V3 ring (blocks of frames the kernel retires to
 * us), all joined in one PACKET_FANOUT_HASH group so the kernel spreads
 * flows over the queues by skb hash; transmit goes through sendmmsg() on
 * queue 0's socket.
 *
 * The hints are computed here, as the generator's NIC does: the Toeplitz
 * hash with the standard key over the IPv4/IPv6 addresses (and ports for
 * TCP and UDP), its rss type, and the ring's receive timestamp
 * (CLOCK_REALTIME, tp_sec/tp_nsec).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <netinet/in.h>

#include "headroom/devices.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "dev/dev.h"
#include "dev/dev_common.h"
#include "dev/netif.h"
#include "dev/toeplitz.h"
#include "util/print.h"

#define AFP_POOL_DEFAULT 4096
#define AFP_BLOCK_DEFAULT (1u << 20)
#define AFP_BLOCKS_DEFAULT 8u
#define AFP_FRAME 2048u
#define AFP_PKT_MAX \
	(HR_FRAME_SIZE - HR_XDP_PACKET_HEADROOM - HR_SKB_SHINFO_SIZE)
#define AFP_TX_BATCH 64

/* XDP_RSS_* bits of enum xdp_rss_hash_type (include/net/xdp.h). */
#define RSS_L3_IPV4 (1u << 0)
#define RSS_L3_IPV6 (1u << 1)
#define RSS_L4 (1u << 3)
#define RSS_L4_TCP (1u << 4)
#define RSS_L4_UDP (1u << 5)

struct afp_queue {
	int fd;
	uint8_t *ring;
	size_t ring_sz;
	unsigned int nblocks, block_sz;
	unsigned int cur; /* block we read next */
	/* The block being read: next packet, packets left. */
	struct tpacket3_hdr *pkt;
	uint32_t left;
	struct hr_rx_hints desc[HR_NAPI_BUDGET];
	uint64_t tp_packets, tp_drops; /* PACKET_STATISTICS summed */
} __attribute__((aligned(64)));

struct afp_priv {
	int kifindex;
	bool outgoing;
	pthread_mutex_t tx_lock;
	_Atomic uint64_t tx_sent, tx_errors;
	struct afp_queue q[HR_DEV_MAX_QUEUES];
};

/* Software RSS over the packet, as the generator's NIC (gen.c). */
static void afp_rss(const uint8_t *d, uint32_t len, struct hr_rx_hints *h)
{
	uint8_t tuple[36];
	uint32_t off = HR_ETH_HLEN, alen, l4, n, type;
	uint16_t proto;
	uint8_t ipproto;

	if (len < HR_ETH_HLEN)
		return;
	proto = (uint16_t)(d[12] << 8 | d[13]);
	if (proto == ETH_P_8021Q && len >= 18) {
		proto = (uint16_t)(d[16] << 8 | d[17]);
		off += 4;
	}
	if (proto == ETH_P_IP && len >= off + 20) {
		alen = 4;
		ipproto = d[off + 9];
		memcpy(tuple, d + off + 12, 8);
		l4 = off + (uint32_t)(d[off] & 15) * 4;
		/* A later fragment has no ports. */
		if ((d[off + 6] & 0x1f) | d[off + 7])
			ipproto = 0;
		type = RSS_L3_IPV4;
	} else if (proto == ETH_P_IPV6 && len >= off + 40) {
		alen = 16;
		ipproto = d[off + 6];
		memcpy(tuple, d + off + 8, 32);
		l4 = off + 40;
		type = RSS_L3_IPV6;
	} else {
		return;
	}
	n = 2 * alen;
	if ((ipproto == IPPROTO_TCP || ipproto == IPPROTO_UDP) &&
	    len >= l4 + 4) {
		memcpy(tuple + n, d + l4, 4);
		n += 4;
		type |= RSS_L4 |
			(ipproto == IPPROTO_TCP ? RSS_L4_TCP : RSS_L4_UDP);
	}
	h->hash = hr_toeplitz(hr_rss_default_key, HR_RSS_KEY_SIZE, tuple, n);
	h->hash_type = type;
	h->present |= HR_RX_HINT_HASH;
}

static struct tpacket_block_desc *afp_block(struct afp_queue *q, unsigned int i)
{
	return (struct tpacket_block_desc *)(q->ring + (size_t)i * q->block_sz);
}

static void afp_release_block(struct afp_queue *q)
{
	__atomic_store_n(&afp_block(q, q->cur)->hdr.bh1.block_status,
			 TP_STATUS_KERNEL, __ATOMIC_RELEASE);
	q->cur = (q->cur + 1) % q->nblocks;
	q->pkt = NULL;
}

static int afp_poll(struct hr_dev *dev, struct hr_napi *napi, int budget)
{
	struct afp_priv *p = dev->priv;
	struct afp_queue *q = &p->q[napi->queue];
	int done = 0;

	if (budget > HR_NAPI_BUDGET)
		budget = HR_NAPI_BUDGET;
	while (done < budget) {
		struct tpacket_block_desc *b = afp_block(q, q->cur);
		struct tpacket3_hdr *t;
		struct hr_rx_hints *h;
		struct hr_xdp_buff xdp;
		uint8_t *frame;
		uint32_t len;

		if (!q->pkt) {
			if (!(__atomic_load_n(&b->hdr.bh1.block_status,
					      __ATOMIC_ACQUIRE) &
			      TP_STATUS_USER))
				break;
			q->left = b->hdr.bh1.num_pkts;
			q->pkt = (struct tpacket3_hdr
					  *)((uint8_t *)b +
					     b->hdr.bh1.offset_to_first_pkt);
			if (!q->left) {
				afp_release_block(q);
				continue;
			}
		}
		t = q->pkt;
		len = t->tp_snaplen;
		frame = len <= AFP_PKT_MAX ? hr_pool_get(dev->pool) : NULL;
		if (!frame && len <= AFP_PKT_MAX)
			break; /* no frame now: the packet waits */
		if (frame) {
			h = &q->desc[done];
			memset(h, 0, sizeof(*h));
			h->supported = HR_RX_HINT_HASH | HR_RX_HINT_TIMESTAMP |
				       HR_RX_HINT_VLAN;
			memcpy(frame + HR_XDP_PACKET_HEADROOM,
			       (uint8_t *)t + t->tp_mac, len);
			afp_rss(frame + HR_XDP_PACKET_HEADROOM, len, h);
			h->timestamp = (uint64_t)t->tp_sec * 1000000000ull +
				       t->tp_nsec;
			h->present |= HR_RX_HINT_TIMESTAMP;
			/* The kernel strips a VLAN tag it offloaded and
			 * says so in the ring. */
			if (t->tp_status & TP_STATUS_VLAN_VALID) {
				h->vlan_tci = (uint16_t)t->hv1.tp_vlan_tci;
				h->vlan_proto =
					t->tp_status & TP_STATUS_VLAN_TPID_VALID ?
						htons((uint16_t)t->hv1
							      .tp_vlan_tpid) :
						htons(ETH_P_8021Q);
				h->present |= HR_RX_HINT_VLAN;
			}
			hr_xdp_init_buff(&xdp, HR_FRAME_SIZE,
					 &dev->rxq[napi->queue]);
			hr_xdp_prepare_buff(&xdp, frame, HR_XDP_PACKET_HEADROOM,
					    len, dev->meta_supported);
			xdp.hints = h;
			hr_xdp_rx(napi, &xdp);
			done++;
		}
		if (--q->left)
			q->pkt = (struct tpacket3_hdr *)((uint8_t *)t +
							 t->tp_next_offset);
		else
			afp_release_block(q);
	}
	return done;
}

static int afp_xdp_xmit(struct hr_dev *dev, struct hr_worker *w,
			struct hr_xdp_frame **frames, int n, uint32_t flags)
{
	struct afp_priv *p = dev->priv;
	struct mmsghdr msg[AFP_TX_BATCH];
	struct iovec iov[AFP_TX_BATCH];
	int i, k, sent;

	if (flags & ~HR_XDP_XMIT_FLUSH)
		return -EINVAL;
	for (k = 0; k < n && k < AFP_TX_BATCH; k++) {
		if (frames[k]->flags & HR_XDP_FLAGS_HAS_FRAGS)
			break;
		iov[k] = (struct iovec){ frames[k]->data, frames[k]->len };
		memset(&msg[k], 0, sizeof(msg[k]));
		msg[k].msg_hdr.msg_iov = &iov[k];
		msg[k].msg_hdr.msg_iovlen = 1;
	}
	if (!k)
		return -EINVAL;
	pthread_mutex_lock(&p->tx_lock);
	sent = sendmmsg(p->q[0].fd, msg, (unsigned int)k, MSG_DONTWAIT);
	pthread_mutex_unlock(&p->tx_lock);
	if (sent < 0)
		sent = 0;
	/* What the socket did not take is lost, as on a full qdisc. */
	atomic_fetch_add_explicit(&p->tx_sent, (uint64_t)sent,
				  memory_order_relaxed);
	atomic_fetch_add_explicit(&p->tx_errors, (uint64_t)(k - sent),
				  memory_order_relaxed);
	for (i = 0; i < k; i++)
		hr_xdp_return_frame(frames[i]);
	return k;
}

static void afp_destroy(struct hr_dev *dev)
{
	struct afp_priv *p = dev->priv;
	unsigned int i;

	if (p) {
		for (i = 0; i < HR_DEV_MAX_QUEUES; i++) {
			if (p->q[i].ring)
				munmap(p->q[i].ring, p->q[i].ring_sz);
			if (p->q[i].fd >= 0)
				close(p->q[i].fd);
		}
		pthread_mutex_destroy(&p->tx_lock);
		free(p);
	}
	hr_dev_common_free(dev);
}

static const struct hr_dev_ops afp_ops = {
	.kind = "afpacket",
	.poll = afp_poll,
	.xdp_xmit = afp_xdp_xmit,
	.destroy = afp_destroy,
};

static int afp_socket(struct afp_priv *p, struct afp_queue *q, unsigned int nq,
		      int fanout_id)
{
	struct tpacket_req3 req = {
		.tp_block_size = q->block_sz,
		.tp_block_nr = q->nblocks,
		.tp_frame_size = AFP_FRAME,
		.tp_frame_nr = q->block_sz / AFP_FRAME * q->nblocks,
		.tp_retire_blk_tov = 1, /* ms: a partial block is ours soon */
	};
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = p->kifindex,
	};
	int v = TPACKET_V3, one = 1, fanout;

	q->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (q->fd < 0)
		return -errno;
	if (setsockopt(q->fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)) ||
	    setsockopt(q->fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)))
		return -errno;
	/* Our own transmits are PACKET_OUTGOING; PACKET_IGNORE_OUTGOING
	 * keeps them (and the host's) out unless asked for. */
	if (!p->outgoing &&
	    setsockopt(q->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
		       sizeof(one)))
		return -errno;
	q->ring_sz = (size_t)q->block_sz * q->nblocks;
	q->ring = mmap(NULL, q->ring_sz, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_LOCKED, q->fd, 0);
	if (q->ring == MAP_FAILED) {
		q->ring = mmap(NULL, q->ring_sz, PROT_READ | PROT_WRITE,
			       MAP_SHARED, q->fd, 0);
		if (q->ring == MAP_FAILED) {
			q->ring = NULL;
			return -errno;
		}
	}
	/* Bound only now, so no packet lands before the ring is set. */
	sll.sll_protocol = htons(ETH_P_ALL);
	if (bind(q->fd, (struct sockaddr *)&sll, sizeof(sll)))
		return -errno;
	if (nq > 1) {
		fanout = (fanout_id & 0xffff) | (PACKET_FANOUT_HASH << 16);
		if (setsockopt(q->fd, SOL_PACKET, PACKET_FANOUT, &fanout,
			       sizeof(fanout)))
			return -errno;
	}
	return 0;
}

int hr_dev_afpacket_create(struct hr_datapath *dp, const char *name,
			   const char *ifname,
			   const struct hr_afpacket_opts *opts,
			   struct hr_dev **out)
{
	unsigned int nrxq = HR_OPTS_GET(opts, nrxq, 0);
	uint32_t frames = HR_OPTS_GET(opts, pool_frames, 0);
	uint32_t bsz = HR_OPTS_GET(opts, block_size, 0);
	uint32_t bnr = HR_OPTS_GET(opts, block_count, 0);
	struct hr_dev *dev;
	struct afp_priv *p;
	unsigned int i;
	int err;

	if (!name || !ifname || !out || nrxq > HR_DEV_MAX_QUEUES ||
	    (bsz && (bsz % 4096 || bsz < AFP_FRAME)) || bnr > 1024)
		return -EINVAL;
	dev = calloc(1, sizeof(*dev));
	p = aligned_alloc(64, (sizeof(*p) + 63) & ~(size_t)63);
	if (!dev || !p) {
		free(dev);
		free(p);
		return -ENOMEM;
	}
	memset(p, 0, sizeof(*p));
	pthread_mutex_init(&p->tx_lock, NULL);
	for (i = 0; i < HR_DEV_MAX_QUEUES; i++)
		p->q[i].fd = -1;
	p->outgoing = HR_OPTS_GET(opts, outgoing, false);
	dev->priv = p;
	hr_dev_init(dev, name, &afp_ops, nrxq);
	err = hr_netif_query(ifname, &p->kifindex, &dev->mtu, dev->dev_addr);
	if (err) {
		hr_pr_warn("%s: no such interface: %s\n", ifname,
			   strerror(-err));
		goto fail;
	}
	for (i = 0; i < dev->nrxq; i++) {
		p->q[i].block_sz = bsz ? bsz : AFP_BLOCK_DEFAULT;
		p->q[i].nblocks = bnr ? bnr : AFP_BLOCKS_DEFAULT;
		err = afp_socket(p, &p->q[i], dev->nrxq,
				 (int)getpid() ^ p->kifindex);
		if (err) {
			hr_pr_warn("%s: AF_PACKET queue %u: %s\n", ifname, i,
				   strerror(-err));
			goto fail;
		}
	}
	hr_dev_common_setup(dev, true, &hr_xdp_std_meta_ops);
	err = hr_dev_common_register(dp, dev,
				     frames ? frames : AFP_POOL_DEFAULT);
	if (err)
		goto fail;
	*out = dev;
	return 0;
fail:
	afp_destroy(dev);
	return err;
}

int hr_dev_afpacket_stats(struct hr_dev *dev, struct hr_afpacket_stats *st)
{
	struct hr_afpacket_stats s = { .sz = sizeof(s) };
	struct afp_priv *p;
	unsigned int i;

	if (!dev || dev->ops != &afp_ops || !st || st->sz < sizeof(size_t))
		return -EINVAL;
	p = dev->priv;
	for (i = 0; i < dev->nrxq; i++) {
		struct tpacket_stats_v3 ts;
		socklen_t len = sizeof(ts);

		/* Reading resets the kernel's counters: keep a sum. */
		if (!getsockopt(p->q[i].fd, SOL_PACKET, PACKET_STATISTICS, &ts,
				&len)) {
			p->q[i].tp_packets += ts.tp_packets;
			p->q[i].tp_drops += ts.tp_drops;
		}
		s.tp_packets += p->q[i].tp_packets;
		s.tp_drops += p->q[i].tp_drops;
	}
	s.tx_sent = atomic_load(&p->tx_sent);
	s.tx_errors = atomic_load(&p->tx_errors);
	memcpy(st, &s, st->sz < sizeof(s) ? st->sz : sizeof(s));
	return 0;
}
