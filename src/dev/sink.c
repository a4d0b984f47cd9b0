// SPDX-License-Identifier: MIT
/*
 * The sink: the stand-in for the network stack. Skbs delivered to it (the
 * receiving device counts them as delivered; the sink as its rx) and
 * frames transmitted to it are optionally written to a pcap file, and
 * their frames go back to their pools.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "headroom/devices.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "dev/dev.h"
#include "dev/dev_common.h"
#include "dev/pcap_file.h"

struct sink_priv {
	struct hr_pcap_writer *out;
};

static void sink_deliver(struct hr_dev *dev, struct hr_worker *w,
			 struct hr_skb *skb)
{
	struct sink_priv *p = dev->priv;
	struct hr_dev_stats *st = &dev->stats[w->id];

	hr_stat_add(&st->rx_packets, 1);
	hr_stat_add(&st->rx_bytes, skb->len);
	if (p->out)
		hr_pcap_writer_write(p->out, skb->data, skb->len);
	hr_skb_free(skb);
}

/* Frames redirected to a sink leave on its "wire" (the caller counts
 * them as sent). */
static int sink_xdp_xmit(struct hr_dev *dev, struct hr_worker *w,
			 struct hr_xdp_frame **frames, int n, uint32_t flags)
{
	return hr_dev_xmit_to_file(((struct sink_priv *)dev->priv)->out, frames,
				   n, flags);
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

	return p->out ? hr_pcap_writer_count(p->out) : 0;
}

int hr_dev_sink_create(struct hr_datapath *dp, const char *name,
		       const struct hr_sink_opts *opts, struct hr_dev **out)
{
	const char *path = HR_OPTS_GET(opts, pcap_path, NULL);
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
