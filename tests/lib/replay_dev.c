// SPDX-License-Identifier: MIT
/* The replaying of the oracle tests (replay_dev.h): a device whose NAPI
 * poll fills frames from the test's packets, and AF_PACKET sends. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "harness.h"
#include "headroom/datapath.h"
#include "replay_dev.h"
#include "core/datapath.h"
#include "core/pool.h"

#define REPLAY_POOL 512

struct replay {
	struct hr_dev dev;
	t_replay_pkt_fn pkt;
	unsigned int count;
	_Atomic unsigned int next;
};

static int replay_poll(struct hr_dev *dev, struct hr_napi *napi, int budget)
{
	struct replay *r = (struct replay *)dev;
	struct hr_xdp_buff xdp;
	const uint8_t *p;
	unsigned int i;
	uint8_t *frame;
	uint32_t len;
	int got;

	for (got = 0; got < budget; got++) {
		i = atomic_load(&r->next);
		if (i >= r->count || !(frame = hr_pool_get(dev->pool)))
			break;
		atomic_store(&r->next, i + 1);
		p = r->pkt(i, &len);
		hr_xdp_init_buff(&xdp, HR_FRAME_SIZE, &dev->rxq[napi->queue]);
		hr_xdp_prepare_buff(&xdp, frame, HR_XDP_PACKET_HEADROOM, len,
				    true);
		memcpy(xdp.data, p, len);
		xdp.hints = NULL;
		hr_xdp_rx(napi, &xdp);
	}
	return got;
}

static bool replay_done(struct hr_dev *dev)
{
	struct replay *r = (struct replay *)dev;

	return atomic_load(&r->next) >= r->count;
}

static void replay_destroy(struct hr_dev *dev)
{
	hr_pool_destroy(dev->pool);
	free(dev);
}

static const struct hr_dev_ops replay_ops = {
	.kind = "replay",
	.poll = replay_poll,
	.rx_done = replay_done,
	.destroy = replay_destroy,
};

struct hr_dev *t_replay_dev(struct hr_datapath *dp, const char *name,
			    t_replay_pkt_fn pkt, unsigned int count)
{
	struct replay *r = calloc(1, sizeof(*r));

	if (!r) {
		CHECK(0, "replay device: out of memory");
		return NULL;
	}
	r->pkt = pkt;
	r->count = count;
	r->dev.meta_supported = true;
	hr_dev_init(&r->dev, name, &replay_ops, 1);
	if (hr_pool_create(REPLAY_POOL, &r->dev.pool)) {
		CHECK(0, "replay device: pool");
		free(r);
		return NULL;
	}
	if (hr_dp_register_dev(dp, &r->dev)) {
		CHECK(0, "replay device: register");
		replay_destroy(&r->dev);
		return NULL;
	}
	return &r->dev;
}

int t_replay_send(int ifindex, t_replay_pkt_fn pkt, unsigned int count)
{
	struct sockaddr_ll sll = { 0 };
	struct timespec ts = { 0, 200000 };
	const uint8_t *p;
	unsigned int i;
	uint32_t len;
	int s;

	s = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (s < 0) {
		CHECK(0, "AF_PACKET socket: %s", strerror(errno));
		return -1;
	}
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = ifindex;
	sll.sll_halen = ETH_ALEN;
	memset(sll.sll_addr, 0xff, ETH_ALEN);
	for (i = 0; i < count; i++) {
		ssize_t n;

		p = pkt(i, &len);
		n = sendto(s, p, len, 0, (struct sockaddr *)&sll, sizeof(sll));
		CHECK(n == (ssize_t)len, "sendto %u: %zd (%s)", i, n,
		      strerror(errno));
		if (i % 32 == 31)
			nanosleep(&ts, NULL);
	}
	close(s);
	return 0;
}
