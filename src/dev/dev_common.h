/* SPDX-License-Identifier: MIT */
/* What the device kinds of this directory share when they are created. */
#ifndef HR_DEV_DEV_COMMON_H
#define HR_DEV_DEV_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "dev/dev.h"

/* XDP_XMIT_FLUSH, the only flag of ndo_xdp_xmit (XDP_XMIT_FLAGS_MASK). */
#ifndef HR_XDP_XMIT_FLUSH
#define HR_XDP_XMIT_FLUSH 1u
#endif

/* Metadata support and hint ops of @dev and of every RX queue. */
void hr_dev_common_setup(struct hr_dev *dev, bool meta_supported,
			 const struct hr_xdp_metadata_ops *meta_ops);

/* Gives @dev a pool of @nframes frames and registers it with @dp. */
int hr_dev_common_register(struct hr_datapath *dp, struct hr_dev *dev,
			   uint32_t nframes);

struct hr_pcap_writer;
struct hr_xdp_frame;

/*
 * ndo_xdp_xmit of a device whose "wire" is a file (or nothing): each
 * frame is written to @out when there is one, then freed; all are taken.
 */
int hr_dev_xmit_to_file(struct hr_pcap_writer *out,
			struct hr_xdp_frame **frames, int n, uint32_t flags);

/* Frees what every device has: its pool and the struct itself. */
void hr_dev_common_free(struct hr_dev *dev);

#endif /* HR_DEV_DEV_COMMON_H */
