// SPDX-License-Identifier: MIT
/*
 * The sink: the stand-in for the network stack. Skbs delivered to it (the
 * receiving device counts them as delivered; the sink as its rx) and
 * frames transmitted to it are optionally written to a pcap file, or a
 * pcapng file whose per-packet comments carry the skb's fields and
 * metadata, and their frames go back to their pools.
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
#include "dev/pcap_file.h"
#include "dev/pcapng.h"

struct sink_priv {
	struct hr_pcap_writer *out;
	struct hr_pcapng_writer *ng;
};

/* "hr-meta: HEX" of @len bytes (at most 255: skb_metadata_len's). */
static void meta_comment(char *buf, size_t size, const uint8_t *meta,
			 uint32_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = (size_t)snprintf(buf, size, "hr-meta: ");
	uint32_t i;

	for (i = 0; i < len && n + 2 < size; i++) {
		buf[n++] = hex[meta[i] >> 4];
		buf[n++] = hex[meta[i] & 15];
	}
	buf[n] = 0;
}

static void sink_write_ng(struct hr_pcapng_writer *ng, const void *data,
			  uint32_t len, const char *first, const uint8_t *meta,
			  uint32_t meta_len)
{
	char mc[16 + 2 * 256];
	const char *comments[2] = { first, mc };
	struct hr_pcapng_rec r = { .data = data,
				   .caplen = len,
				   .comments = comments,
				   .ncomments = meta_len ? 2 : 1 };

	if (meta_len)
		meta_comment(mc, sizeof(mc), meta, meta_len);
	hr_pcapng_write(ng, &r);
}

static void sink_skb_ng(struct hr_pcapng_writer *ng, const struct hr_skb *skb)
{
	char c[160];

	snprintf(c, sizeof(c),
		 "hr-skb: len %u mark %u priority %u tc_index %u "
		 "tc_classid %u hash %u",
		 skb->len, skb->mark, skb->priority, skb->tc_index,
		 skb->tc_classid, skb->hash);
	sink_write_ng(ng, skb->data, skb->len, c, skb->data - skb->meta_len,
		      skb->meta_len);
}

static void sink_deliver(struct hr_dev *dev, struct hr_worker *w,
			 struct hr_skb *skb)
{
	struct sink_priv *p = dev->priv;
	struct hr_dev_stats *st = &dev->stats[w->id];

	hr_stat_add(&st->rx_packets, 1);
	hr_stat_add(&st->rx_bytes, skb->len);
	if (p->out)
		hr_pcap_writer_write(p->out, skb->data, skb->len);
	if (p->ng)
		sink_skb_ng(p->ng, skb);
	hr_skb_free(skb);
}

/* Frames redirected to a sink leave on its "wire" (the caller counts
 * them as sent). */
static int sink_xdp_xmit(struct hr_dev *dev, struct hr_worker *w,
			 struct hr_xdp_frame **frames, int n, uint32_t flags)
{
	struct sink_priv *p = dev->priv;
	char c[48];
	int i;

	if (p->ng && !(flags & ~HR_XDP_XMIT_FLUSH)) {
		for (i = 0; i < n; i++) {
			const uint8_t *d = frames[i]->data;

			snprintf(c, sizeof(c), "hr-xmit: len %u",
				 frames[i]->len);
			sink_write_ng(p->ng, d, frames[i]->len, c,
				      d - frames[i]->metasize,
				      frames[i]->metasize);
		}
	}
	return hr_dev_xmit_to_file(p->out, frames, n, flags);
}

static bool sink_rx_done(struct hr_dev *dev)
{
	return true;
}

static void sink_destroy(struct hr_dev *dev)
{
	struct sink_priv *p = dev->priv;

	if (p) {
		hr_pcap_writer_close(p->out);
		hr_pcapng_close(p->ng);
		free(p);
	}
	hr_dev_common_free(dev);
}

static const struct hr_dev_ops sink_ops = {
	.kind = "sink",
	.xdp_xmit = sink_xdp_xmit,
	.rx_done = sink_rx_done,
	.destroy = sink_destroy,
};

uint64_t hr_dev_sink_written(struct hr_dev *dev)
{
	struct sink_priv *p = dev->priv;

	if (p->ng)
		return hr_pcapng_count(p->ng);
	return p->out ? hr_pcap_writer_count(p->out) : 0;
}

int hr_dev_sink_create(struct hr_datapath *dp, const char *name,
		       const struct hr_sink_opts *opts, struct hr_dev **out)
{
	const char *path = HR_OPTS_GET(opts, pcap_path, NULL);
	const char *ng_path = HR_OPTS_GET(opts, pcapng_path, NULL);
	struct hr_dev *dev;
	struct sink_priv *p;
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
	if (path) {
		err = hr_pcap_writer_open(path, &p->out);
		if (err)
			goto fail;
	}
	if (ng_path) {
		err = hr_pcapng_open(ng_path, HR_PCAPNG_AUTO, &p->ng);
		if (err)
			goto fail;
	}
	hr_dev_init(dev, name, &sink_ops, 0);
	dev->deliver = sink_deliver;
	hr_dev_common_setup(dev, false, NULL);
	/* A sink receives nothing of its own: a token pool. */
	err = hr_dev_common_register(dp, dev, 1);
	if (err)
		goto fail;
	*out = dev;
	return 0;
fail:
	sink_destroy(dev);
	return err;
}
