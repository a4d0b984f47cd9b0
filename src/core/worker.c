// SPDX-License-Identifier: MIT
/*
 * Workers: one thread each, pinned to its CPU, polling its NAPI instances
 * with a budget of 64 and flushing after each round (net_rx_action and
 * xdp_do_flush). Each round is one grace-period epoch: the counter is odd
 * while the worker may hold pointers to programs and entries, even
 * between rounds; hr_dp_synchronize waits on it like synchronize_rcu.
 */
#include <errno.h>
#include <sched.h>
#include <time.h>

#include "core/datapath.h"
#include "core/frame.h"

/* Idle rounds before the worker yields, and before it sleeps. */
#define HR_IDLE_YIELD 64
#define HR_IDLE_SLEEP 1024
#define HR_IDLE_SLEEP_NS 50000L

static int napi_poll(struct hr_napi *napi, int budget)
{
	if (napi->poll)
		return napi->poll(napi, budget);
	/* A stopped device's queues are not polled. Acquire: what the
	 * control thread wrote into the device while it was down (its stop
	 * op, hr_dev_close, before hr_dev_open's store) is seen by the poll
	 * (a generator's kept frames given back, gen.c); a plain load on
	 * x86. */
	if (!napi->dev || !napi->dev->ops->poll ||
	    !atomic_load_explicit(&napi->dev->up, memory_order_acquire))
		return 0;
	return napi->dev->ops->poll(napi->dev, napi, HR_NAPI_BUDGET);
}

/*
 * One thread polls a worker at a time (its own thread once started, the
 * control thread before), so the counters below have a single writer:
 * a load and a store update them, where a locked add per poll cost more
 * than the packets of a small batch. Only entering the epoch needs the
 * full barrier: hr_dp_synchronize, about to free a program or map, must
 * not read an even epoch once this poll may have read that program or
 * map. Leaving only has to come after every read of the poll, which a
 * release store orders.
 */
static void counter_inc(_Atomic uint64_t *c, memory_order mo)
{
	atomic_store_explicit(
		c, atomic_load_explicit(c, memory_order_relaxed) + 1, mo);
}

int hr_worker_poll_once(struct hr_worker *w)
{
	unsigned int i, n;
	int work = 0, ret;

	atomic_fetch_add(&w->epoch, 1); /* odd: inside */
	n = atomic_load_explicit(&w->nnapi, memory_order_acquire);
	for (i = 0; i < n && i < HR_MAX_NAPI; i++) {
		struct hr_napi *napi =
			__atomic_load_n(&w->napi[i], __ATOMIC_ACQUIRE);

		if (!napi)
			continue;
		ret = napi_poll(napi, HR_NAPI_BUDGET);
		if (ret > 0)
			work += ret;
	}
	hr_xdp_do_flush(w);
	w->polls++;
	if (!work)
		w->idle_polls++;
	else
		counter_inc(&w->busy_rounds, memory_order_relaxed);
	counter_inc(&w->rounds, memory_order_release);
	counter_inc(&w->epoch, memory_order_release); /* even: quiescent */
	return work;
}

static void idle_backoff(unsigned int idle)
{
	struct timespec ts = { 0, HR_IDLE_SLEEP_NS };

	if (idle >= HR_IDLE_SLEEP)
		nanosleep(&ts, NULL);
	else if (idle >= HR_IDLE_YIELD)
		sched_yield();
}

static void *worker_main(void *arg)
{
	struct hr_worker *w = arg;
	unsigned int idle = 0;

	if (w->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		/* Fewer host CPUs than workers: run unpinned. */
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	hr_frame_cache_begin();
	while (!atomic_load_explicit(&w->stop, memory_order_acquire)) {
		if (hr_worker_poll_once(w)) {
			idle = 0;
			continue;
		}
		if (idle < HR_IDLE_SLEEP)
			idle++;
		idle_backoff(idle);
	}
	hr_frame_cache_end();
	return NULL;
}

int hr_worker_start(struct hr_worker *w)
{
	int err;

	atomic_store(&w->stop, false);
	err = pthread_create(&w->thread, NULL, worker_main, w);
	if (err)
		return -err;
	w->started = true;
	return 0;
}

void hr_worker_stop(struct hr_worker *w)
{
	if (!w->started)
		return;
	atomic_store(&w->stop, true);
	pthread_join(w->thread, NULL);
	w->started = false;
}

int hr_worker_add_napi(struct hr_worker *w, struct hr_napi *napi)
{
	struct hr_datapath *dp = w->dp;
	unsigned int n;
	int err = 0;

	pthread_mutex_lock(&dp->lock);
	n = atomic_load(&w->nnapi);
	if (n == HR_MAX_NAPI) {
		err = -ENOSPC;
	} else {
		napi->worker = w;
		__atomic_store_n(&w->napi[n], napi, __ATOMIC_RELEASE);
		atomic_store_explicit(&w->nnapi, n + 1, memory_order_release);
	}
	pthread_mutex_unlock(&dp->lock);
	return err;
}

void hr_worker_del_napi(struct hr_worker *w, struct hr_napi *napi)
{
	struct hr_datapath *dp = w->dp;
	unsigned int n, i;
	bool found = false;

	pthread_mutex_lock(&dp->lock);
	n = atomic_load(&w->nnapi);
	for (i = 0; i < n; i++) {
		if (__atomic_load_n(&w->napi[i], __ATOMIC_RELAXED) != napi)
			continue;
		/* The last one takes its slot: a round in progress may poll
		 * that one twice or miss it once, never a removed one after
		 * the grace period below. */
		__atomic_store_n(&w->napi[i],
				 __atomic_load_n(&w->napi[n - 1],
						 __ATOMIC_RELAXED),
				 __ATOMIC_RELEASE);
		__atomic_store_n(&w->napi[n - 1], NULL, __ATOMIC_RELEASE);
		atomic_store_explicit(&w->nnapi, n - 1, memory_order_release);
		found = true;
		break;
	}
	pthread_mutex_unlock(&dp->lock);
	if (found)
		hr_dp_synchronize(dp);
}

void hr_dp_synchronize(struct hr_datapath *dp)
{
	uint64_t snap[HR_MAX_WORKERS];
	unsigned int i;

	for (i = 0; i < dp->nworkers; i++)
		snap[i] = atomic_load(&dp->workers[i]->epoch);
	for (i = 0; i < dp->nworkers; i++) {
		struct hr_worker *w = dp->workers[i];

		if (!(snap[i] & 1))
			continue;
		while (atomic_load(&w->epoch) == snap[i])
			sched_yield();
	}
}
