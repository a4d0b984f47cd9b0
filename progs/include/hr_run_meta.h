/* SPDX-License-Identifier: MIT */
/* The 16 bytes of metadata progs/cli/run_*.bpf.c hand from XDP through
 * cpumap to tc (tests/cli/test_run.c reads them back). */
#ifndef HR_RUN_META_H
#define HR_RUN_META_H

#include <linux/types.h>

struct run_meta {
	__u32 hash;
	__u32 rss_type;
	__u32 ts_lo;
	__u32 magic;
};

#define RUN_MAGIC 0x4e555248 /* "HRUN" */

#endif /* HR_RUN_META_H */
