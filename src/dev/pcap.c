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
#include "../core/datapath.h"
#include "../core/pool.h"
#include "dev.h"
#include "dev_common.h"
#include "hints_file.h"
#include "pcap_file.h"

#define PCAP_POOL_DEFAULT 4096
#define PCAP_PKT_MAX \
	(HR_FRAME_SIZE - HR_XDP_PACKET_HEADROOM - HR_SKB_SHINFO_SIZE)

struct pcap_priv {
	struct hr_pcap_pkts pkts;
	struct hr_hint *hints; /* one per packet, or NULL */
	struct hr_pcap_writer *out;
	uint64_t total; /* packets to replay: pkts.n * loops */
	uint64_t next; /* written by the polling worker only */
	_Atomic uint64_t sent;
	int read_err;
};

static int pcap_rx_timestamp(const struct hr_xdp_buff *xdp, uint64_t *ts)
{
	const struct hr_hint *h = xdp->hints;

	if (!h || !(h->have & HR_HINT_TIMESTAMP))
		return -ENODATA;
	*ts = h->timestamp;
	return 0;
}

static int pcap_rx_hash(const struct hr_xdp_buff *xdp, uint32_t *hash,
			uint32_t *rss_type)
{
	const struct hr_hint *h = xdp->hints;

	if (!h || !(h->have & HR_HINT_HASH))
		return -ENODATA;
	*hash = h->hash;
	*rss_type = h->rss_type;
	return 0;
}

static int pcap_rx_vlan_tag(const struct hr_xdp_buff *xdp, uint16_t *proto,
			    uint16_t *tci)
{
	const struct hr_hint *h = xdp->hints;

	if (!h || !(h->have & HR_HINT_VLAN))
		return -ENODATA;
	*proto = (uint16_t)(h->vlan_proto << 8 | h->vlan_proto >> 8);
	*tci = h->vlan_tci;
	return 0;
}

static const struct hr_xdp_metadata_ops pcap_meta_ops = {
	.rx_timestamp = pcap_rx_timestamp,
	.rx_hash = pcap_rx_hash,
	.rx_vlan_tag = pcap_rx_vlan_tag,
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
		xdp.hints = p->hints ? &p->hints[p->pkts.fidx[idx]] : NULL;
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
		fprintf(stderr,
			"headroom: %s: %llu packets longer than %u bytes "
			"dropped (frame size limit)\n",
			path, (unsigned long long)p->pkts.oversized,
			PCAP_PKT_MAX);
	if (p->pkts.truncated)
		fprintf(stderr,
			"headroom: %s: %llu packets captured shorter than "
			"their length dropped\n",
			path, (unsigned long long)p->pkts.truncated);
	p->total = (uint64_t)p->pkts.n * (loops ? loops : 1);
	if (hints) {
		/* Indexes count every packet of the file, kept or not. */
		err = hr_hints_load(hints, p->pkts.nfile, &p->hints);
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
	hr_dev_common_setup(dev, !no_meta, &pcap_meta_ops);
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
