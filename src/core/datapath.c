// SPDX-License-Identifier: MIT
/*
 * The datapath's control side: workers, device registration, queue
 * assignment, program attachment with a grace period, and the public
 * counters. Everything here runs on the control thread under dp->lock;
 * the workers only ever see pointers published with release stores.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <headroom/datapath.h>

#include "core/datapath.h"

_Static_assert(HR_DEV_COUNTERS_DROPS >= HR_DROP__MAX, "room for drops");
_Static_assert(HR_ERRNO_MAX == 134, "public redirect_err size");

#define HR_FIRST_IFINDEX 2 /* 1 is lo's */

static struct hr_datapath *_Atomic default_dp;

struct hr_datapath *hr_dp_default(void)
{
	return atomic_load(&default_dp);
}

static void worker_free(struct hr_worker *w)
{
	if (!w)
		return;
	free(w->run);
	free(w);
}

static struct hr_worker *worker_new(struct hr_datapath *dp, unsigned int id,
				    int cpu)
{
	struct hr_worker *w = aligned_alloc(64, (sizeof(*w) + 63) & ~63ul);

	if (!w)
		return NULL;
	memset(w, 0, sizeof(*w));
	w->run = aligned_alloc(64, (sizeof(struct hr_run) + 63) & ~63ul);
	if (!w->run) {
		free(w);
		return NULL;
	}
	w->dp = dp;
	w->id = id;
	w->cpu = cpu;
	return w;
}

int hr_dp_create(const struct hr_datapath_opts *opts, struct hr_datapath **out)
{
	unsigned int n = HR_OPTS_GET(opts, nworkers, 0u), i;
	const int *cpus = HR_OPTS_GET(opts, cpus, (const int *)NULL);
	unsigned int backlog = HR_OPTS_GET(opts, max_backlog, 0u);
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct hr_datapath *dp;

	*out = NULL;
	if (opts && opts->sz < sizeof(size_t))
		return -EINVAL;
	if (!n)
		n = 1;
	if (n > HR_MAX_WORKERS || backlog > HR_MAX_BACKLOG_LIMIT)
		return -EINVAL;
	dp = calloc(1, sizeof(*dp));
	if (!dp)
		return -ENOMEM;
	pthread_mutex_init(&dp->lock, NULL);
	dp->engine = HR_OPTS_GET(opts, engine, HR_ENGINE_DEFAULT);
	dp->next_ifindex = HR_FIRST_IFINDEX;
	dp->max_backlog = backlog ? backlog : HR_MAX_BACKLOG;
	for (i = 0; i < n; i++) {
		int cpu = cpus ? cpus[i] : (int)i;

		if (cpu >= ncpu)
			cpu = -1;
		dp->workers[i] = worker_new(dp, i, cpu);
		if (!dp->workers[i]) {
			dp->nworkers = i;
			hr_dp_destroy(dp);
			return -ENOMEM;
		}
	}
	dp->nworkers = n;
	atomic_store(&default_dp, dp);
	*out = dp;
	return 0;
}

unsigned int hr_dp_worker_count(const struct hr_datapath *dp)
{
	return dp->nworkers;
}

void hr_dp_destroy(struct hr_datapath *dp)
{
	struct hr_datapath *self = dp;
	unsigned int i, q;

	if (!dp)
		return;
	hr_dp_stop(dp);
	/* Queued skbs hold frames of the devices' pools. */
	hr_rps_destroy(dp);
	/* Maps may outlive the datapath: their NAPIs let go of what they
	 * hold while the pools and workers still exist. */
	for (i = 0; i < dp->nworkers; i++) {
		struct hr_worker *w = dp->workers[i];

		for (q = 0; w && q < HR_MAX_NAPI; q++) {
			struct hr_napi *napi = w->napi[q];

			if (napi && napi->detach) {
				w->napi[q] = NULL;
				napi->detach(napi);
			}
		}
	}
	for (i = 0; i < HR_MAX_IFINDEX; i++) {
		struct hr_dev *dev = dp->devs[i];

		for (q = 0; q < HR_DEV_MAX_QUEUES; q++)
			free(dp->queue_napi[i][q]);
		if (!dev)
			continue;
		hr_dev_close(dev);
		dp->devs[i] = NULL;
		if (dev->ops && dev->ops->destroy)
			dev->ops->destroy(dev);
	}
	for (i = 0; i < dp->nworkers; i++)
		worker_free(dp->workers[i]);
	atomic_compare_exchange_strong(&default_dp, &self, NULL);
	pthread_mutex_destroy(&dp->lock);
	free(dp->stats_prev);
	free(dp);
}

int hr_dp_start(struct hr_datapath *dp)
{
	unsigned int i;
	int err;

	for (i = 0; i < HR_MAX_IFINDEX; i++) {
		if (!dp->devs[i] || atomic_load(&dp->devs[i]->up))
			continue;
		err = hr_dev_open(dp->devs[i]);
		if (err)
			return err;
	}
	for (i = 0; i < dp->nworkers; i++) {
		if (dp->workers[i]->started)
			continue;
		err = hr_worker_start(dp->workers[i]);
		if (err) {
			hr_dp_stop(dp);
			return err;
		}
	}
	atomic_store(&dp->running, true);
	return 0;
}

void hr_dp_stop(struct hr_datapath *dp)
{
	unsigned int i;

	for (i = 0; i < dp->nworkers; i++)
		hr_worker_stop(dp->workers[i]);
	atomic_store(&dp->running, false);
	/* Every worker joined: no poll runs, and a worker started again
	 * (pthread_create) sees what this thread wrote. */
	for (i = 0; i < HR_MAX_IFINDEX; i++) {
		struct hr_dev *dev =
			__atomic_load_n(&dp->devs[i], __ATOMIC_ACQUIRE);

		if (dev && dev->ops->quiesce)
			dev->ops->quiesce(dev);
	}
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static bool devs_done(struct hr_datapath *dp)
{
	unsigned int i;

	for (i = 0; i < HR_MAX_IFINDEX; i++) {
		struct hr_dev *dev = dp->devs[i];

		if (dev && dev->ops->rx_done && !dev->ops->rx_done(dev))
			return false;
	}
	return true;
}

/* Two more rounds on every worker, none of which found work. */
static bool two_idle_rounds(struct hr_datapath *dp)
{
	uint64_t r[HR_MAX_WORKERS], b[HR_MAX_WORKERS];
	unsigned int i;
	bool idle = true;

	for (i = 0; i < dp->nworkers; i++) {
		r[i] = atomic_load(&dp->workers[i]->rounds);
		b[i] = atomic_load(&dp->workers[i]->busy_rounds);
	}
	for (i = 0; i < dp->nworkers; i++) {
		struct hr_worker *w = dp->workers[i];

		if (!w->started) {
			while (atomic_load(&w->rounds) < r[i] + 2)
				hr_worker_poll_once(w);
			continue;
		}
		while (atomic_load(&w->rounds) < r[i] + 2)
			usleep(50);
	}
	for (i = 0; i < dp->nworkers; i++)
		if (atomic_load(&dp->workers[i]->busy_rounds) != b[i])
			idle = false;
	return idle;
}

int hr_dp_run_until_idle(struct hr_datapath *dp, int timeout_ms)
{
	uint64_t end = now_ms() + (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms);
	struct timespec pause = { 0, 1000000 };
	unsigned int i;
	bool polled;

	for (;;) {
		if (devs_done(dp) && two_idle_rounds(dp))
			return 0;
		if (timeout_ms >= 0 && now_ms() >= end)
			return -ETIMEDOUT;
		/* Not started: keep polling here. Started ones poll on
		 * their own: only look again now and then, so this thread
		 * does not take their CPU. */
		polled = false;
		for (i = 0; i < dp->nworkers; i++) {
			if (dp->workers[i]->started)
				continue;
			hr_worker_poll_once(dp->workers[i]);
			polled = true;
		}
		if (!polled)
			nanosleep(&pause, NULL);
	}
}

int hr_dp_register_dev(struct hr_datapath *dp, struct hr_dev *dev)
{
	unsigned int q;
	int err = 0;

	pthread_mutex_lock(&dp->lock);
	if (dp->next_ifindex >= HR_MAX_IFINDEX) {
		err = -ENOSPC;
		goto out;
	}
	dev->ifindex = dp->next_ifindex++;
	dev->dp = dp;
	for (q = 0; q < HR_DEV_MAX_QUEUES; q++) {
		dev->rxq[q].ifindex = dev->ifindex;
		dev->rxq[q].queue_index = q;
		dev->rxq[q].dev = dev;
	}
	__atomic_store_n(&dp->devs[dev->ifindex], dev, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&dp->lock);
	return err;
}

int hr_dp_assign_queue(struct hr_datapath *dp, struct hr_dev *dev,
		       unsigned int queue, unsigned int worker)
{
	struct hr_napi *napi;
	int err;

	if (!dev || dev->dp != dp || queue >= dev->nrxq ||
	    worker >= dp->nworkers)
		return -EINVAL;
	napi = dp->queue_napi[dev->ifindex][queue];
	if (napi) {
		if (napi->worker == dp->workers[worker])
			return 0;
		hr_worker_del_napi(napi->worker, napi);
	} else {
		napi = calloc(1, sizeof(*napi));
		if (!napi)
			return -ENOMEM;
		napi->dev = dev;
		napi->queue = queue;
		dp->queue_napi[dev->ifindex][queue] = napi;
	}
	err = hr_worker_add_napi(dp->workers[worker], napi);
	if (err)
		napi->worker = NULL;
	return err;
}

int hr_dev_open(struct hr_dev *dev)
{
	int err;

	if (atomic_load(&dev->up))
		return 0;
	if (dev->ops->open) {
		err = dev->ops->open(dev);
		if (err)
			return err;
	}
	atomic_store(&dev->up, true);
	return 0;
}

void hr_dev_close(struct hr_dev *dev)
{
	if (!atomic_exchange(&dev->up, false))
		return;
	/* No poll or enqueue that saw it up is still running. */
	if (dev->dp)
		hr_dp_synchronize(dev->dp);
	if (dev->ops->stop)
		dev->ops->stop(dev);
}

static struct hr_prog *attach(struct hr_dev *dev, struct hr_prog *_Atomic *slot,
			      struct hr_prog *prog)
{
	struct hr_prog *old = atomic_exchange(slot, prog);

	if (dev->dp)
		hr_dp_synchronize(dev->dp);
	return old;
}

struct hr_prog *hr_dev_attach_xdp(struct hr_dev *dev, struct hr_prog *prog)
{
	return attach(dev, &dev->xdp_prog, prog);
}

struct hr_prog *hr_dev_attach_tc(struct hr_dev *dev, struct hr_prog *prog)
{
	return attach(dev, &dev->tc_ingress, prog);
}

void hr_dev_set_stack(struct hr_dev *dev, struct hr_dev *sink)
{
	__atomic_store_n(&dev->stack, sink, __ATOMIC_RELEASE);
}

uint32_t hr_dev_ifindex(const struct hr_dev *dev)
{
	return dev->ifindex;
}

const char *hr_dev_name(const struct hr_dev *dev)
{
	return dev->name;
}

struct hr_dev *hr_dp_dev_by_name(struct hr_datapath *dp, const char *name)
{
	unsigned int i;

	for (i = 0; i < HR_MAX_IFINDEX; i++)
		if (dp->devs[i] && !strcmp(dp->devs[i]->name, name))
			return dp->devs[i];
	return NULL;
}

const char *hr_dev_drop_name(unsigned int i)
{
	return i < HR_DROP__MAX ? hr_drop_reason_str(i) : NULL;
}

int hr_dev_get_queue_counters(const struct hr_dev *dev, unsigned int queue,
			      uint64_t *rx_packets, uint64_t *rx_bytes)
{
	uint64_t p = 0, b = 0;
	unsigned int w;

	if (!dev || queue >= HR_DEV_MAX_QUEUES)
		return -EINVAL;
	for (w = 0; w < HR_MAX_WORKERS; w++) {
		p += __atomic_load_n(&dev->qstats[queue][w].rx_packets,
				     __ATOMIC_RELAXED);
		b += __atomic_load_n(&dev->qstats[queue][w].rx_bytes,
				     __ATOMIC_RELAXED);
	}
	if (rx_packets)
		*rx_packets = p;
	if (rx_bytes)
		*rx_bytes = b;
	return 0;
}

int hr_dev_get_counters(const struct hr_dev *dev, struct hr_dev_counters *c)
{
	struct hr_dev_counters full;
	struct hr_dev_stats s;
	size_t sz;
	unsigned int i;

	if (!c || c->sz < sizeof(size_t))
		return -EINVAL;
	sz = c->sz < sizeof(full) ? c->sz : sizeof(full);
	hr_dev_stats_sum(dev, &s);
	memset(&full, 0, sizeof(full));
	full.rx_packets = s.rx_packets;
	full.rx_bytes = s.rx_bytes;
	full.tx_packets = s.tx_packets;
	full.tx_bytes = s.tx_bytes;
	full.xdp_aborted = s.xdp[0];
	full.xdp_drop = s.xdp[1];
	full.xdp_pass = s.xdp[2];
	full.xdp_tx = s.xdp[3];
	full.xdp_redirect = s.xdp[4];
	full.xdp_exception = s.xdp_exception;
	full.delivered = s.delivered;
	full.tc_stolen = s.tc_stolen;
	full.tc_redirect = s.tc_redirect;
	for (i = 0; i < HR_DROP__MAX; i++) {
		full.drops[i] = s.drops[i];
		full.drops_total += s.drops[i];
	}
	for (i = 0; i < HR_ERRNO_MAX; i++) {
		full.redirect_err[i] = s.redirect_err[i];
		full.redirect_err_total += s.redirect_err[i];
	}
	memcpy((char *)c + sizeof(size_t), (char *)&full + sizeof(size_t),
	       sz - sizeof(size_t));
	return 0;
}

int hr_dp_watch_map(struct hr_datapath *dp, struct hr_map *map)
{
	int err = 0;

	pthread_mutex_lock(&dp->lock);
	if (dp->nwatch == sizeof(dp->watch) / sizeof(dp->watch[0]))
		err = -ENOSPC;
	else
		dp->watch[dp->nwatch++] = map;
	pthread_mutex_unlock(&dp->lock);
	return err;
}
