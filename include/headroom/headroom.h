/* SPDX-License-Identifier: MIT */
/* headroom: a userspace XDP datapath. The whole public API. */
#ifndef HEADROOM_H
#define HEADROOM_H

#include "opts.h"
#include "object.h"
#include "map.h"
#include "test_run.h"
#include "perf.h"
#include "ringbuf.h"
#include "fib.h"
#include "xsk.h"
#include "devices.h"
#include "datapath.h"
#include "cpumap.h"

#endif /* HEADROOM_H */
