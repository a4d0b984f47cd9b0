// SPDX-License-Identifier: MIT
/* The parts of the device interface every device kind shares. */
#include <stdio.h>
#include <string.h>

#include "dev/dev.h"
#include "core/datapath.h"

static const char *const drop_names[HR_DROP__MAX] = {
	[HR_DROP_NO_FRAME] = "no_frame",
	[HR_DROP_MTU] = "mtu",
	[HR_DROP_RING_FULL] = "ring_full",
	[HR_DROP_XMIT_ERROR] = "xmit_error",
	[HR_DROP_TX_ERROR] = "tx_error",
	[HR_DROP_REDIRECT_ERROR] = "redirect_error",
	[HR_DROP_TC_SHOT] = "tc_shot",
	[HR_DROP_DEV_DOWN] = "dev_down",
	[HR_DROP_EGRESS_PROG] = "egress_prog",
	[HR_DROP_BACKLOG] = "cpu_backlog",
};

const char *hr_drop_reason_str(enum hr_drop_reason reason)
{
	if ((unsigned int)reason >= HR_DROP__MAX || !drop_names[reason])
		return "unknown";
	return drop_names[reason];
}

void hr_dev_init(struct hr_dev *dev, const char *name,
		 const struct hr_dev_ops *ops, unsigned int nrxq)
{
	unsigned int i;

	snprintf(dev->name, sizeof(dev->name), "%s", name ? name : "");
	dev->ops = ops;
	dev->mtu = 1500;
	if (nrxq < 1)
		nrxq = 1;
	if (nrxq > HR_DEV_MAX_QUEUES)
		nrxq = HR_DEV_MAX_QUEUES;
	dev->nrxq = nrxq;
	for (i = 0; i < HR_DEV_MAX_QUEUES; i++) {
		dev->rxq[i].queue_index = i;
		dev->rxq[i].dev = dev;
		dev->rxq[i].meta_supported = dev->meta_supported;
		dev->rxq[i].meta_ops = dev->meta_ops;
		dev->rxq[i].ifindex = dev->ifindex;
	}
	atomic_store(&dev->up, false);
}

struct hr_dev *hr_dev_get_by_index(struct hr_datapath *dp, uint32_t ifindex)
{
	if (!dp || !ifindex || ifindex >= HR_MAX_IFINDEX)
		return NULL;
	return __atomic_load_n(&dp->devs[ifindex], __ATOMIC_ACQUIRE);
}

void hr_dev_stats_sum(const struct hr_dev *dev, struct hr_dev_stats *out)
{
	const uint64_t *in;
	uint64_t *o = (uint64_t *)out;
	size_t n = sizeof(*out) / sizeof(uint64_t), i, w;

	memset(out, 0, sizeof(*out));
	/* Counters are written by their worker only; a reader may see a
	 * value one packet old, never a torn one (64-bit aligned). */
	for (w = 0; w < HR_MAX_WORKERS; w++) {
		in = (const uint64_t *)&dev->stats[w];
		for (i = 0; i < n; i++)
			o[i] += __atomic_load_n(&in[i], __ATOMIC_RELAXED);
	}
}
