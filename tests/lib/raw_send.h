/* SPDX-License-Identifier: MIT */
/*
 * Frames sent on a kernel interface of the current namespace through an
 * AF_PACKET raw socket, the one way every namespace test puts traffic on
 * a veth: replayed oracle packets, a test case's frames, a few numbered
 * frames.
 */
#ifndef HR_TESTS_RAW_SEND_H
#define HR_TESTS_RAW_SEND_H

#include <stdint.h>

/* Frame @i written to @buf (room for @cap bytes); its length, or 0 to
 * stop. */
typedef uint32_t (*t_raw_frame_fn)(void *arg, unsigned int i, uint8_t *buf,
				   uint32_t cap);

/* Frames 0 .. @count - 1 sent on @ifindex to the broadcast address, a
 * pause every 32 so that they stay well inside veth's rings of 256; 0, or
 * -errno of the first socket call that failed (nothing more is sent). */
int t_raw_send(int ifindex, t_raw_frame_fn fn, void *arg, unsigned int count);

/* @count copies of @pkt sent on @ifindex as fast as sendmmsg() goes, 64
 * a call, past the qdisc (PACKET_QDISC_BYPASS): a load generator where
 * the kernel's live frames are refused. The frames sent, or -errno when
 * the socket cannot be had. */
int64_t t_raw_flood(int ifindex, const void *pkt, uint32_t len, uint64_t count);

#endif /* HR_TESTS_RAW_SEND_H */
