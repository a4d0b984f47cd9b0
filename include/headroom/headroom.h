/* SPDX-License-Identifier: MIT */
/* headroom: a userspace XDP datapath. The whole public API. */
#ifndef HEADROOM_H
#define HEADROOM_H

#include "headroom/opts.h"
#include "headroom/object.h"
#include "headroom/map.h"
#include "headroom/test_run.h"
#include "headroom/tunnel.h"
#include "headroom/perf.h"
#include "headroom/ringbuf.h"
#include "headroom/user_ringbuf.h"
#include "headroom/fib.h"
#include "headroom/ct.h"
#include "headroom/xsk.h"
#include "headroom/devices.h"
#include "headroom/datapath.h"
#include "headroom/cpumap.h"

#endif /* HEADROOM_H */
