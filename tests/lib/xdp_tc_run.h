/* SPDX-License-Identifier: MIT */
/*
 * One XDP program and one tc ingress program of an object over a list of
 * frames, on both sides of a differential test:
 *
 *   kernel:   AF_PACKET sendto() on veth A of a pair -> veth_xmit ->
 *             B's native XDP -> skb -> B's tc ingress;
 *   headroom: a pcap device replaying the same frames through the same
 *             programs, into a sink.
 *
 * The programs leave what they saw in maps, which the caller reads.
 */
#ifndef HR_TESTS_XDP_TC_RUN_H
#define HR_TESTS_XDP_TC_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "headroom/datapath.h"
#include "headroom/test_run.h"

struct bpf_object;
struct hr_object;
struct t_netns;

#define T_FRAME_MAX 1514

struct t_frames {
	unsigned int n;
	/* Frame @i into @buf (T_FRAME_MAX bytes); its length. */
	uint32_t (*frame)(void *arg, unsigned int i, uint8_t *buf);
	void *arg;
};

/* What the programs leave: @n records of @size bytes in array map @map
 * (keys 0 .. n - 1), each starting with a 32-bit count of its runs. */
struct t_krecs {
	const char *map;
	void *recs;
	size_t size;
	unsigned int n;
};

/*
 * The kernel side: programs @xdp and @tc of @o on veth B of @ns, the
 * frames sent on A by a socket that receives nothing (so that no tap
 * holds a clone of B's skbs), the records read into @r->recs until each
 * has a run (or 3 s) and once more a little later, and the programs
 * detached. 0, or -1 after a failed check.
 */
int t_veth_xdp_tc(const struct t_netns *ns, struct bpf_object *o,
		  const char *xdp, const char *tc, const struct t_frames *f,
		  const struct t_krecs *r);

/*
 * Headroom's side: a one-worker datapath under @engine, a pcap device
 * replaying the frames with programs @xdp and @tc of @o attached (both
 * checked to run under @engine), into a sink, until idle. @dc receives
 * the device's counters. 0, or -1 after a failed check.
 */
int t_dp_xdp_tc(enum hr_engine engine, struct hr_object *o, const char *xdp,
		const char *tc, const struct t_frames *f,
		struct hr_dev_counters *dc);

#endif /* HR_TESTS_XDP_TC_RUN_H */
