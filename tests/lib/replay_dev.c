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
#include "raw_send.h"
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

/* The replay's packet @i copied out for t_raw_send. */
static uint32_t replay_frame(void *arg, unsigned int i, uint8_t *buf,
			     uint32_t cap)
{
	t_replay_pkt_fn pkt = *(t_replay_pkt_fn *)arg;
	uint32_t len;
	const uint8_t *p = pkt(i, &len);

	if (len > cap)
		return 0;
	memcpy(buf, p, len);
	return len;
}

int t_replay_send(int ifindex, t_replay_pkt_fn pkt, unsigned int count)
{
	int err = t_raw_send(ifindex, replay_frame, &pkt, count);

	CHECK(!err, "AF_PACKET send on ifindex %d: %s", ifindex,
	      strerror(-err));
	return err ? -1 : 0;
}
