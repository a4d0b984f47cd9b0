// SPDX-License-Identifier: MIT
/*
 * The pcap device: one RX queue replaying the packets of a pcap or pcapng
 * file (read whole at creation), with RX hints per packet from a
 * JSON-lines file; what it transmits is written to an output pcap.
 * libpcap itself is only used in pcap_file.c (see there why).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headroom/devices.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "dev/dev.h"
#include "dev/dev_common.h"
#include "dev/hints_file.h"
#include "dev/pcap_file.h"
#include "util/print.h"

#define PCAP_POOL_DEFAULT 4096
#define PCAP_PKT_MAX \
	(HR_FRAME_SIZE - HR_XDP_PACKET_HEADROOM - HR_SKB_SHINFO_SIZE)

struct pcap_priv {
	struct hr_pcap_pkts pkts;
	/* One per packet of the file, in the standard layout, or NULL. */
	struct hr_rx_hints *hints;
	struct hr_pcap_writer *out;
	uint64_t total; /* packets to replay: pkts.n * loops */
	uint64_t next; /* written by the polling worker only */
	_Atomic uint64_t sent;
	int read_err;
};

/* A packet the hints file says nothing of, or every packet without one:
 * the device reports all three hints, this packet has none (-ENODATA). */
static const struct hr_rx_hints pcap_no_hints = {
	.supported = HR_RX_HINTS_ALL,
};

static int pcap_poll(struct hr_dev *dev, struct hr_napi *napi, int budget)
{
	struct pcap_priv *p = dev->priv;
	void *frames[HR_NAPI_BUDGET];
	uint64_t left = p->total - p->next;
	unsigned int n, i;

	if (napi->queue || !left)
		return 0;
	n = budget < HR_NAPI_BUDGET ? (unsigned int)budget : HR_NAPI_BUDGET;
	if (n > left)
		n = (unsigned int)left;
	n = hr_pool_get_bulk(dev->pool, frames, n);
	for (i = 0; i < n; i++) {
		size_t idx = (size_t)((p->next + i) % p->pkts.n);
		uint32_t len = p->pkts.len[idx];
		struct hr_xdp_buff xdp;

		hr_xdp_init_buff(&xdp, HR_FRAME_SIZE, &dev->rxq[0]);
		hr_xdp_prepare_buff(&xdp, frames[i], HR_XDP_PACKET_HEADROOM,
				    len, dev->meta_supported);
		xdp.hints = p->hints ? &p->hints[p->pkts.fidx[idx]] :
				       &pcap_no_hints;
		memcpy(xdp.data, p->pkts.data + p->pkts.off[idx], len);
		hr_xdp_rx(napi, &xdp);
	}
	p->next += n;
	atomic_store_explicit(&p->sent, p->next, memory_order_release);
	return (int)n;
}

/* Transmitted frames go to the output file, then back to their pool. */
static int pcap_xdp_xmit(struct hr_dev *dev, struct hr_worker *w,
			 struct hr_xdp_frame **frames, int n, uint32_t flags)
{
	return hr_dev_xmit_to_file(((struct pcap_priv *)dev->priv)->out, frames,
				   n, flags);
}

static bool pcap_rx_done(struct hr_dev *dev)
{
	struct pcap_priv *p = dev->priv;

	return atomic_load_explicit(&p->sent, memory_order_acquire) >= p->total;
}

static void pcap_destroy(struct hr_dev *dev)
{
	struct pcap_priv *p = dev->priv;

	if (p) {
		hr_pcap_pkts_free(&p->pkts);
		free(p->hints);
		hr_pcap_writer_close(p->out);
		free(p);
	}
	hr_dev_common_free(dev);
}

static const struct hr_dev_ops pcap_ops = {
	.kind = "pcap",
	.poll = pcap_poll,
	.xdp_xmit = pcap_xdp_xmit,
	.rx_done = pcap_rx_done,
	.destroy = pcap_destroy,
};

uint64_t hr_dev_pcap_packets(struct hr_dev *dev)
{
	return ((struct pcap_priv *)dev->priv)->pkts.n;
}

uint64_t hr_dev_pcap_oversized(struct hr_dev *dev)
{
	return ((struct pcap_priv *)dev->priv)->pkts.oversized;
}

int hr_dev_pcap_read_error(struct hr_dev *dev)
{
	return ((struct pcap_priv *)dev->priv)->read_err;
}

/* The hints file, as the standard layout (the VLAN protocol in network
 * byte order, as the kfunc reports it). */
static int pcap_load_hints(struct pcap_priv *p, const char *path)
{
	struct hr_hint *h;
	size_t i, n = p->pkts.nfile ? p->pkts.nfile : 1;
	int err = hr_hints_load(path, p->pkts.nfile, &h);

	if (err)
		return err;
	p->hints = calloc(n, sizeof(*p->hints));
	if (!p->hints) {
		free(h);
		return -ENOMEM;
	}
	for (i = 0; i < p->pkts.nfile; i++) {
		struct hr_rx_hints *d = &p->hints[i];

		d->supported = HR_RX_HINTS_ALL;
		d->present = (h[i].have & HR_HINT_TIMESTAMP ?
				      HR_RX_HINT_TIMESTAMP :
				      0) |
			     (h[i].have & HR_HINT_HASH ? HR_RX_HINT_HASH : 0) |
			     (h[i].have & HR_HINT_VLAN ? HR_RX_HINT_VLAN : 0);
		d->timestamp = h[i].timestamp;
		d->hash = h[i].hash;
		d->hash_type = h[i].rss_type;
		d->vlan_proto =
			(uint16_t)(h[i].vlan_proto << 8 | h[i].vlan_proto >> 8);
		d->vlan_tci = h[i].vlan_tci;
	}
	free(h);
	return 0;
}

static int pcap_load(struct pcap_priv *p, const struct hr_pcap_opts *opts)
{
	const char *path = HR_OPTS_GET(opts, path, NULL);
	const char *hints = HR_OPTS_GET(opts, hints_path, NULL);
	const char *out = HR_OPTS_GET(opts, out_path, NULL);
	uint32_t loops = HR_OPTS_GET(opts, loops, 0);
	int err;

	if (!path)
		return -EINVAL;
	err = hr_pcap_read_all(path, PCAP_PKT_MAX, &p->pkts);
	/* A damaged file still gives the packets before the damage. */
	if (err && err != -EIO)
		return err;
	p->read_err = err;
	if (p->pkts.oversized)
		hr_pr_warn("%s: %llu packets longer than %u bytes "
			   "dropped (frame size limit)\n",
			   path, (unsigned long long)p->pkts.oversized,
			   PCAP_PKT_MAX);
	if (p->pkts.truncated)
		hr_pr_warn("%s: %llu packets captured shorter than "
			   "their length dropped\n",
			   path, (unsigned long long)p->pkts.truncated);
	p->total = (uint64_t)p->pkts.n * (loops ? loops : 1);
	if (hints) {
		/* Indexes count every packet of the file, kept or not. */
		err = pcap_load_hints(p, hints);
		if (err)
			return err;
	}
	if (out) {
		err = hr_pcap_writer_open(out, &p->out);
		if (err)
			return err;
	}
	return 0;
}

int hr_dev_pcap_create(struct hr_datapath *dp, const char *name,
		       const struct hr_pcap_opts *opts, struct hr_dev **out)
{
	uint32_t frames = HR_OPTS_GET(opts, pool_frames, 0);
	bool no_meta = HR_OPTS_GET(opts, no_meta, false);
	struct hr_dev *dev;
	struct pcap_priv *p;
	int err;

	if (!name || !out)
		return -EINVAL;
	dev = calloc(1, sizeof(*dev));
	p = calloc(1, sizeof(*p));
	if (!dev || !p) {
		free(dev);
		free(p);
		return -ENOMEM;
	}
	dev->priv = p;
	err = pcap_load(p, opts);
	if (err)
		goto fail;
	hr_dev_init(dev, name, &pcap_ops, 1);
	hr_dev_common_setup(dev, !no_meta, &hr_xdp_std_meta_ops);
	err = hr_dev_common_register(dp, dev,
				     frames ? frames : PCAP_POOL_DEFAULT);
	if (err)
		goto fail;
	*out = dev;
	return 0;
fail:
	pcap_destroy(dev);
	return err;
}
