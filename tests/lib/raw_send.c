// SPDX-License-Identifier: MIT
/* Frames on a kernel interface through AF_PACKET: see raw_send.h. */
#include "raw_send.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#define RAW_FRAME_MAX 16384

/* A raw socket that receives nothing (protocol 0) and @sll addressing
 * broadcast on @ifindex; the socket or -errno. */
static int raw_socket(int ifindex, struct sockaddr_ll *sll)
{
	int s;

	if (ifindex <= 0)
		return -ENODEV;
	memset(sll, 0, sizeof(*sll));
	sll->sll_family = AF_PACKET;
	sll->sll_ifindex = ifindex;
	sll->sll_halen = ETH_ALEN;
	memset(sll->sll_addr, 0xff, ETH_ALEN);
	s = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	return s < 0 ? -errno : s;
}

int t_raw_send(int ifindex, t_raw_frame_fn fn, void *arg, unsigned int count)
{
	static __thread uint8_t buf[RAW_FRAME_MAX];
	struct timespec ts = { 0, 200000 };
	struct sockaddr_ll sll;
	int s = raw_socket(ifindex, &sll), err = 0;
	unsigned int i;

	if (s < 0)
		return s;
	for (i = 0; i < count && !err; i++) {
		uint32_t len = fn(arg, i, buf, sizeof(buf));

		if (!len)
			break;
		if (sendto(s, buf, len, 0, (struct sockaddr *)&sll,
			   sizeof(sll)) != (ssize_t)len)
			err = errno ? -errno : -EIO;
		/* veth's ring holds 256: let the peer's NAPI keep up. */
		if (i % 32 == 31)
			nanosleep(&ts, NULL);
	}
	close(s);
	return err;
}

int64_t t_raw_flood(int ifindex, const void *pkt, uint32_t len, uint64_t count)
{
	struct iovec iov = { .iov_base = (void *)pkt, .iov_len = len };
	struct mmsghdr msgs[64];
	struct sockaddr_ll sll;
	int s = raw_socket(ifindex, &sll), one = 1;
	uint64_t sent = 0;
	unsigned int i;

	if (s < 0)
		return s;
	/* Without the qdisc bypass the frames queue in the qdisc too. */
	setsockopt(s, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < 64; i++) {
		msgs[i].msg_hdr.msg_name = &sll;
		msgs[i].msg_hdr.msg_namelen = sizeof(sll);
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	while (sent < count) {
		unsigned int n =
			count - sent < 64 ? (unsigned int)(count - sent) : 64;
		int r = sendmmsg(s, msgs, n, 0);

		if (r < 0 && errno != ENOBUFS && errno != EAGAIN &&
		    errno != EINTR)
			break;
		if (r > 0)
			sent += (uint64_t)r;
	}
	close(s);
	return (int64_t)sent;
}
