/* SPDX-License-Identifier: MIT */
/*
 * A test's packets (packet i from a callback) replayed on both sides of
 * an oracle test: into headroom by a device that puts each into a frame
 * of its pool at XDP_PACKET_HEADROOM, with metadata support and no RX
 * hints, and is done once all of them went in; into the kernel by an
 * AF_PACKET socket sending them on an interface.
 */
#ifndef HR_TESTS_REPLAY_DEV_H
#define HR_TESTS_REPLAY_DEV_H

#include <stdint.h>

struct hr_datapath;
struct hr_dev;

/* Packet @i (below the count given) and its length. */
typedef const uint8_t *(*t_replay_pkt_fn)(unsigned int i, uint32_t *len);

/* Registered in @dp as @name with one queue; NULL after a failed check. */
struct hr_dev *t_replay_dev(struct hr_datapath *dp, const char *name,
			    t_replay_pkt_fn pkt, unsigned int count);

/* The packets sent on kernel interface @ifindex (current namespace) with
 * AF_PACKET, a pause every 32 so that they stay well inside veth's rings
 * of 256; 0, or -1 after a failed check. */
int t_replay_send(int ifindex, t_replay_pkt_fn pkt, unsigned int count);

#endif /* HR_TESTS_REPLAY_DEV_H */
