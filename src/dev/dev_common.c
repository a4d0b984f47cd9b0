// SPDX-License-Identifier: MIT
#include <errno.h>

#include <stdlib.h>

#include "core/datapath.h"
#include "core/pool.h"
#include "dev/dev_common.h"
#include "headroom/datapath.h"
#include "dev/pcap_file.h"

void hr_dev_common_setup(struct hr_dev *dev, bool meta_supported,
			 const struct hr_xdp_metadata_ops *meta_ops)
{
	unsigned int q;

	dev->meta_supported = meta_supported;
	dev->meta_ops = meta_ops;
	for (q = 0; q < dev->nrxq; q++) {
		dev->rxq[q].meta_supported = meta_supported;
		dev->rxq[q].meta_ops = meta_ops;
		dev->rxq[q].dev = dev;
		dev->rxq[q].queue_index = q;
	}
}

int hr_dev_common_register(struct hr_datapath *dp, struct hr_dev *dev,
			   uint32_t nframes)
{
	unsigned int q;
	int err;

	if (!dev->pool) {
		err = hr_pool_create(nframes, &dev->pool);
		if (err)
			return err;
	}
	err = hr_dp_register_dev(dp, dev);
	if (err)
		return err;
	/* The ifindex is known once registered. */
	for (q = 0; q < dev->nrxq; q++)
		dev->rxq[q].ifindex = dev->ifindex;
	return 0;
}

int hr_dev_xmit_to_file(struct hr_pcap_writer *out,
			struct hr_xdp_frame **frames, int n, uint32_t flags)
{
	int i;

	if (flags & ~HR_XDP_XMIT_FLUSH)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (out)
			hr_pcap_writer_write(out, frames[i]->data,
					     frames[i]->len);
		hr_xdp_return_frame(frames[i]);
	}
	return n;
}

void hr_dev_common_free(struct hr_dev *dev)
{
	if (dev->pool)
		hr_pool_destroy(dev->pool);
	free(dev);
}
