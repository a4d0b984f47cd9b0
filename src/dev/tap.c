// SPDX-License-Identifier: MIT
/*
 * The tap device: a TAP interface of the kernel (drivers/net/tun.c, opened
 * through /dev/net/tun with IFF_TAP | IFF_NO_PI) as a headroom device.
 * What the kernel transmits on the interface is read as RX and runs the
 * device's XDP program; frames headroom transmits on the device, and skbs
 * delivered to it as some device's stack, are written into the kernel,
 * which receives them as from a wire (tun_get_user).
 *
 * With IFF_VNET_HDR every frame carries a struct virtio_net_hdr. We offer
 * the kernel no offloads (TUNSETOFFLOAD 0), so it segments and checksums
 * in software before handing frames to us; a frame still marked
 * VIRTIO_NET_HDR_F_NEEDS_CSUM has its checksum completed here (as
 * skb_checksum_help), and a GSO frame, which we cannot split, is dropped
 * and counted. What we write carries an empty header: complete packets.
 *
 * TUN has no xdp_metadata_ops: its hint kfuncs are -EOPNOTSUPP.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/if_tun.h>
#include <linux/virtio_net.h>

#include "headroom/devices.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "dev/dev.h"
#include "dev/dev_common.h"
#include "dev/netif.h"
#include "util/print.h"

#define TAP_POOL_DEFAULT 4096
#define TAP_PKT_MAX \
	(HR_FRAME_SIZE - HR_XDP_PACKET_HEADROOM - HR_SKB_SHINFO_SIZE)

struct tap_priv {
	int fd;
	bool vnet;
	char ifname[IFNAMSIZ];
	pthread_mutex_t wlock; /* writes from several workers, in order */
	_Atomic uint64_t rx_frames, rx_gso_dropped, tx_frames, tx_errors;
};

/* The Internet checksum of @len bytes at @p, folded and complemented. */
static uint16_t tap_csum(const uint8_t *p, uint32_t len)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* VIRTIO_NET_HDR_F_NEEDS_CSUM: the kernel left the sum from csum_start
 * (seeded with the pseudo-header) to be folded in at csum_offset. */
static int tap_complete_csum(uint8_t *data, uint32_t len,
			     const struct virtio_net_hdr *h)
{
	uint32_t start = h->csum_start, off = h->csum_offset;
	uint16_t c;

	if (start >= len || start + off + 2 > len)
		return -EINVAL;
	c = tap_csum(data + start, len - start);
	data[start + off] = (uint8_t)(c >> 8);
	data[start + off + 1] = (uint8_t)c;
	return 0;
}

static int tap_poll(struct hr_dev *dev, struct hr_napi *napi, int budget)
{
	struct tap_priv *p = dev->priv;
	int done = 0;

	while (done < budget) {
		struct virtio_net_hdr h = { 0 };
		struct iovec iov[2];
		struct hr_xdp_buff xdp;
		uint8_t *frame, *data;
		ssize_t n;
		int k = 0;

		frame = hr_pool_get(dev->pool);
		if (!frame)
			break;
		data = frame + HR_XDP_PACKET_HEADROOM;
		if (p->vnet)
			iov[k++] = (struct iovec){ &h, sizeof(h) };
		iov[k++] = (struct iovec){ data, TAP_PKT_MAX };
		n = readv(p->fd, iov, k);
		if (n <= 0) {
			hr_pool_put(dev->pool, frame);
			break;
		}
		done++;
		if (p->vnet)
			n -= (ssize_t)sizeof(h);
		if (n < (ssize_t)HR_ETH_HLEN ||
		    (p->vnet && h.gso_type != VIRTIO_NET_HDR_GSO_NONE) ||
		    (h.flags & VIRTIO_NET_HDR_F_NEEDS_CSUM &&
		     tap_complete_csum(data, (uint32_t)n, &h))) {
			atomic_fetch_add_explicit(&p->rx_gso_dropped, 1,
						  memory_order_relaxed);
			hr_pool_put(dev->pool, frame);
			continue;
		}
		atomic_fetch_add_explicit(&p->rx_frames, 1,
					  memory_order_relaxed);
		hr_xdp_init_buff(&xdp, HR_FRAME_SIZE, &dev->rxq[napi->queue]);
		hr_xdp_prepare_buff(&xdp, frame, HR_XDP_PACKET_HEADROOM,
				    (uint32_t)n, dev->meta_supported);
		xdp.hints = NULL;
		hr_xdp_rx(napi, &xdp);
	}
	return done;
}

/* One frame into the kernel: an empty virtio header, the packet, and an
 * 802.1Q tag put back when @vlan_tci came out of the packet. */
static int tap_write(struct tap_priv *p, const uint8_t *data, uint32_t len,
		     bool vlan, uint16_t vlan_proto, uint16_t vlan_tci)
{
	struct virtio_net_hdr h = { .gso_type = VIRTIO_NET_HDR_GSO_NONE };
	uint8_t tag[4];
	struct iovec iov[4];
	int k = 0;
	ssize_t n;

	if (p->vnet)
		iov[k++] = (struct iovec){ &h, sizeof(h) };
	if (vlan && len >= 12) {
		memcpy(tag, &vlan_proto, 2);
		tag[2] = (uint8_t)(vlan_tci >> 8);
		tag[3] = (uint8_t)vlan_tci;
		iov[k++] = (struct iovec){ (void *)data, 12 };
		iov[k++] = (struct iovec){ tag, 4 };
		iov[k++] = (struct iovec){ (void *)(data + 12), len - 12 };
	} else {
		iov[k++] = (struct iovec){ (void *)data, len };
	}
	n = writev(p->fd, iov, k);
	if (n < 0) {
		atomic_fetch_add_explicit(&p->tx_errors, 1,
					  memory_order_relaxed);
		return -errno;
	}
	atomic_fetch_add_explicit(&p->tx_frames, 1, memory_order_relaxed);
	return 0;
}

static int tap_xdp_xmit(struct hr_dev *dev, struct hr_worker *w,
			struct hr_xdp_frame **frames, int n, uint32_t flags)
{
	struct tap_priv *p = dev->priv;
	int i;

	if (flags & ~HR_XDP_XMIT_FLUSH)
		return -EINVAL;
	pthread_mutex_lock(&p->wlock);
	for (i = 0; i < n; i++) {
		/* The kernel's tun takes linear frames from XDP too; a
		 * fragment list would need its own iovec each: refused. */
		if (frames[i]->flags & HR_XDP_FLAGS_HAS_FRAGS)
			break;
		/* A full socket buffer loses the frame, as on a wire. */
		tap_write(p, frames[i]->data, frames[i]->len, false, 0, 0);
		hr_xdp_return_frame(frames[i]);
	}
	pthread_mutex_unlock(&p->wlock);
	return i ? i : -EINVAL;
}

/* As some device's stack: the skb goes into the kernel's. */
static void tap_deliver(struct hr_dev *dev, struct hr_worker *w,
			struct hr_skb *skb)
{
	struct tap_priv *p = dev->priv;
	struct hr_dev_stats *st = &dev->stats[w->id];

	hr_stat_add(&st->rx_packets, 1);
	hr_stat_add(&st->rx_bytes, skb->len);
	pthread_mutex_lock(&p->wlock);
	tap_write(p, skb->data, skb->len, skb->vlan_present, skb->vlan_proto,
		  skb->vlan_tci);
	pthread_mutex_unlock(&p->wlock);
	hr_skb_free(skb);
}

static void tap_destroy(struct hr_dev *dev)
{
	struct tap_priv *p = dev->priv;

	if (p) {
		if (p->fd >= 0)
			close(p->fd);
		pthread_mutex_destroy(&p->wlock);
		free(p);
	}
	hr_dev_common_free(dev);
}

static const struct hr_dev_ops tap_ops = {
	.kind = "tap",
	.poll = tap_poll,
	.xdp_xmit = tap_xdp_xmit,
	.destroy = tap_destroy,
};

static int tap_open(struct tap_priv *p, const char *ifname)
{
	struct ifreq r = { 0 };
	int sz = sizeof(struct virtio_net_hdr);

	p->fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (p->fd < 0)
		return -errno;
	snprintf(r.ifr_name, sizeof(r.ifr_name), "%s", ifname);
	r.ifr_flags = IFF_TAP | IFF_NO_PI | (p->vnet ? IFF_VNET_HDR : 0);
	if (ioctl(p->fd, TUNSETIFF, &r))
		return -errno;
	snprintf(p->ifname, sizeof(p->ifname), "%s", r.ifr_name);
	if (p->vnet && ioctl(p->fd, TUNSETVNETHDRSZ, &sz))
		return -errno;
	/* No offloads: complete, segmented frames from the kernel. */
	if (ioctl(p->fd, TUNSETOFFLOAD, 0))
		return -errno;
	return hr_netif_up(p->ifname);
}

int hr_dev_tap_create(struct hr_datapath *dp, const char *name,
		      const char *ifname, const struct hr_tap_opts *opts,
		      struct hr_dev **out)
{
	uint32_t frames = HR_OPTS_GET(opts, pool_frames, 0);
	struct hr_dev *dev;
	struct tap_priv *p;
	int kifindex, err;

	if (!name || !ifname || !out || strlen(ifname) >= IFNAMSIZ)
		return -EINVAL;
	dev = calloc(1, sizeof(*dev));
	p = calloc(1, sizeof(*p));
	if (!dev || !p) {
		free(dev);
		free(p);
		return -ENOMEM;
	}
	p->fd = -1;
	pthread_mutex_init(&p->wlock, NULL);
	p->vnet = !HR_OPTS_GET(opts, no_vnet_hdr, false);
	dev->priv = p;
	hr_dev_init(dev, name, &tap_ops, 1);
	dev->deliver = tap_deliver;
	err = tap_open(p, ifname);
	if (err) {
		hr_pr_warn("%s: TAP: %s\n", ifname, strerror(-err));
		goto fail;
	}
	err = hr_netif_query(p->ifname, &kifindex, &dev->mtu, dev->dev_addr);
	if (err)
		goto fail;
	hr_dev_common_setup(dev, true, NULL);
	err = hr_dev_common_register(dp, dev,
				     frames ? frames : TAP_POOL_DEFAULT);
	if (err)
		goto fail;
	*out = dev;
	return 0;
fail:
	tap_destroy(dev);
	return err;
}

static bool is_tap(const struct hr_dev *dev)
{
	return dev && dev->ops == &tap_ops;
}

int hr_dev_tap_stats(struct hr_dev *dev, struct hr_tap_stats *st)
{
	struct hr_tap_stats s = { .sz = sizeof(s) };
	struct tap_priv *p;

	if (!is_tap(dev) || !st || st->sz < sizeof(size_t))
		return -EINVAL;
	p = dev->priv;
	s.rx_frames = atomic_load(&p->rx_frames);
	s.rx_gso_dropped = atomic_load(&p->rx_gso_dropped);
	s.tx_frames = atomic_load(&p->tx_frames);
	s.tx_errors = atomic_load(&p->tx_errors);
	memcpy(st, &s, st->sz < sizeof(s) ? st->sz : sizeof(s));
	return 0;
}

int hr_dev_tap_fd(const struct hr_dev *dev)
{
	return is_tap(dev) ? ((const struct tap_priv *)dev->priv)->fd : -EINVAL;
}
