// SPDX-License-Identifier: MIT
/*
 * bpf_timer and bpf_wq state and the callbacks' scheduler, after
 * kernel/bpf/helpers.c (__bpf_async_init, bpf_timer_start,
 * bpf_timer_cancel, bpf_timer_cancel_and_free, bpf_timer_cb; bpf_wq_start,
 * bpf_wq_work, bpf_wq_cancel_and_free).
 *
 * Each map that has had a timer or a wq initialised gets a struct
 * hr_map_timers: a table of its initialised timers and wqs, keyed by the
 * address of their struct bpf_timer or bpf_wq, and one thread that sleeps
 * until the earliest armed expiry and runs the due callbacks one at a
 * time, each as a run of its own (its program's maps and regions, a fresh
 * stack, its own budget), as the kernel's bpf_timer_cb runs callback_fn
 * from an hrtimer softirq with the program's map, the element's key and
 * its value. A started wq is a record due now (the kernel's work item
 * queued on system_wq): the same thread runs its callback as soon as the
 * run that started it has ended (the work waits on this CPU's pool for
 * the program to return), in the kernel a sleepable one on a worker, here
 * a run like a timer's (nothing a callback may call here sleeps). A wq
 * started again before its callback ran stays queued once (queue_work on
 * a pending work); started from its own callback it runs again.
 *
 * Locking: one mutex a map, held only for table changes, never while a
 * callback runs, so a callback may use every timer helper and map
 * operation. Map code calls hr_map_timer_free_value() under its own
 * locks; this file never takes a map lock, so the order is always map
 * lock, then timer mutex.
 *
 * Bounds: a callback is one run with HR_DEFAULT_BUDGET, stopped like any
 * run when it spends it. A callback that keeps its timer armed for 0 ns
 * (or many timers that keep each other armed) would keep the thread busy
 * for ever: after HR_TIMER_BURST callbacks in a row without sleeping the
 * thread sleeps HR_TIMER_BREATHER_NS, so such a map costs at most one
 * thread and runs its callbacks at a bounded rate, while program runs on
 * other threads, the timer helpers and map teardown go on (the mutex is
 * free between callbacks).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/map_timer.h"
#include "maps/map_kptr.h"
#include "progs/prog.h"
#include "util/print.h"
#include "vm/vm.h"

#define HR_TIMER_BUCKETS 256
#define HR_TIMER_BURST 64
#define HR_TIMER_BREATHER_NS 100000ll
/* The longest sleep: a CLOCK_REALTIME timer notices a clock step within. */
#define HR_TIMER_MAX_SLEEP_NS 100000000ll
#define HR_NSEC 1000000000ll

struct hr_timer {
	struct hr_timer *next; /* in its hash chain */
	uint8_t *slot; /* its struct bpf_timer */
	uint8_t *value; /* the value holding it */
	const void *key; /* the element's key; NULL for an array */
	uint32_t index; /* an array element's index */
	int clock;
	bool wq; /* a struct bpf_wq: armed is its work's pending bit */
	/* Runs that started this wq and go on: it waits for them. */
	unsigned int holds;
	/* The callback (cb.prog, callback_fn); NULL: none set. */
	const struct hr_prog *prog;
	uint32_t pc;
	unsigned int cpu; /* of the run that armed it */
	bool armed;
	bool freed; /* forgotten while its callback ran */
	int64_t expires; /* ns on @clock */
	/* Cancellers waiting for its running callback: a record forgotten
	 * meanwhile is freed by the last of them. */
	unsigned int waiters;
	/* Cancellers waiting for this timer from other timers' callbacks
	 * (the kernel's t->cancelling), read from other maps' threads. */
	int cancelling;
};

struct hr_map_timers {
	pthread_mutex_t lock;
	pthread_cond_t wake; /* the thread: a new expiry, or stop */
	pthread_cond_t done; /* cancellers: a callback ended */
	pthread_t thread;
	bool started, stop;
	struct hr_timer *hash[HR_TIMER_BUCKETS];
	struct hr_timer *running; /* whose callback runs now */
	const struct hr_prog *running_prog;
	struct hr_map *map;
};

/* The timer whose callback this thread runs (the kernel's per-CPU
 * hrtimer_running). */
static __thread struct hr_timer *timer_running;

bool hr_map_timer_type_ok(uint32_t map_type)
{
	return map_type == HR_MAP_HASH || map_type == HR_MAP_LRU_HASH ||
	       map_type == HR_MAP_ARRAY;
}

static int64_t clock_now(int clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * HR_NSEC + ts.tv_nsec;
}

static unsigned int bucket_of(const void *slot)
{
	uintptr_t a = (uintptr_t)slot >> 3;

	return (unsigned int)((a ^ (a >> 8) ^ (a >> 16)) % HR_TIMER_BUCKETS);
}

/* With the lock. */
static struct hr_timer *find(struct hr_map_timers *ts, const void *slot)
{
	struct hr_timer *t = ts->hash[bucket_of(slot)];

	while (t && t->slot != slot)
		t = t->next;
	return t;
}

/* With the lock: unlinks @t from its chain. */
static void unlink_timer(struct hr_map_timers *ts, struct hr_timer *t)
{
	struct hr_timer **p = &ts->hash[bucket_of(t->slot)];

	while (*p && *p != t)
		p = &(*p)->next;
	if (*p)
		*p = t->next;
}

static struct hr_map_timers *timers_of(struct hr_map *map)
{
	return __atomic_load_n(&map->timers, __ATOMIC_ACQUIRE);
}

/* What a callback needs of its timer, copied under the lock. */
struct hr_timer_call {
	const struct hr_prog *prog;
	uint32_t pc;
	unsigned int cpu;
	uint8_t *value;
	const void *key;
	uint32_t index;
	bool wq;
};

/* The key region and arguments of one callback, then its run; true when
 * the run was stopped. */
static bool run_callback(struct hr_map *map, struct hr_run *run,
			 const struct hr_timer_call *c)
{
	const struct hr_object *obj = c->prog->obj;
	unsigned int n = obj ? obj->nregions : 0;
	struct hr_region *regions = malloc((n + 1) * sizeof(*regions));
	uint32_t index = c->index;
	const void *key = c->key ? c->key : &index;
	uint64_t args[5] = { (uintptr_t)map, (uintptr_t)key,
			     (uintptr_t)c->value, 0, 0 };
	uint64_t r0;
	bool stopped;

	if (!regions)
		return true;
	hr_prog_run_init(c->prog, run, NULL);
	run->cpu = c->cpu;
	if (n)
		memcpy(regions, obj->regions, n * sizeof(*regions));
	/* The key as the kernel hands it: the element's own, or the
	 * array index on the callback's stack; read-only either way. */
	regions[n] = (struct hr_region){
		.start = (uintptr_t)key,
		.end = (uintptr_t)key +
		       (c->key ? map->attr.key_size : sizeof(index)),
		.flags = HR_REGION_READ,
	};
	run->regions = regions;
	run->nregions = n + 1;
	run->callback = hr_interp_callback;
	r0 = hr_interp_callback(run, c->pc, args);
	/* The verifier holds the callback's r0 to 0; nothing reads it. */
	if (run->lock || run->nheld)
		r0 = hr_run_release_locks(run, r0);
	(void)r0;
	stopped = run->abort != HR_ABORT_NONE;
	if (stopped)
		hr_pr_warn("a %s callback of '%s' was stopped at insn %u: %s\n",
			   c->wq ? "bpf_wq" : "bpf_timer",
			   c->prog->name ? c->prog->name : "?", run->abort_pc,
			   hr_abort_str(run->abort));
	free(regions);
	return stopped;
}

/* The earliest armed timer, and how long until it is due (<= 0: due). */
static struct hr_timer *earliest(struct hr_map_timers *ts, int64_t *wait)
{
	struct hr_timer *best = NULL, *t;
	int64_t best_wait = 0;
	unsigned int b;

	for (b = 0; b < HR_TIMER_BUCKETS; b++)
		for (t = ts->hash[b]; t; t = t->next) {
			int64_t w;

			if (!t->armed || t->holds)
				continue;
			w = t->expires - clock_now(t->clock);
			if (!best || w < best_wait) {
				best = t;
				best_wait = w;
			}
		}
	*wait = best_wait;
	return best;
}

static void sleep_until(struct hr_map_timers *ts, int64_t ns)
{
	struct timespec ts_abs;
	int64_t at;

	if (ns > HR_TIMER_MAX_SLEEP_NS)
		ns = HR_TIMER_MAX_SLEEP_NS;
	at = clock_now(CLOCK_MONOTONIC) + ns;
	ts_abs.tv_sec = at / HR_NSEC;
	ts_abs.tv_nsec = at % HR_NSEC;
	pthread_cond_timedwait(&ts->wake, &ts->lock, &ts_abs);
}

static void *timer_thread(void *arg)
{
	struct hr_map_timers *ts = arg;
	struct hr_run *run = aligned_alloc(16, sizeof(*run));
	unsigned int burst = 0;

	pthread_mutex_lock(&ts->lock);
	while (!ts->stop) {
		struct hr_timer_call call;
		struct hr_timer *t;
		int64_t wait;

		t = earliest(ts, &wait);
		if (!t) {
			burst = 0;
			pthread_cond_wait(&ts->wake, &ts->lock);
			continue;
		}
		if (wait > 0) {
			burst = 0;
			sleep_until(ts, wait);
			continue;
		}
		if (burst++ >= HR_TIMER_BURST) {
			burst = 0;
			sleep_until(ts, HR_TIMER_BREATHER_NS);
			continue;
		}
		/* hrtimer_run_softirq: dequeued, then the callback. */
		t->armed = false;
		if (!t->prog || !run)
			continue;
		call = (struct hr_timer_call){ .prog = t->prog,
					       .pc = t->pc,
					       .cpu = t->cpu,
					       .value = t->value,
					       .key = t->key,
					       .index = t->index,
					       .wq = t->wq };
		ts->running = t;
		ts->running_prog = t->prog;
		pthread_mutex_unlock(&ts->lock);
		timer_running = t;
		run_callback(ts->map, run, &call);
		timer_running = NULL;
		pthread_mutex_lock(&ts->lock);
		ts->running = NULL;
		ts->running_prog = NULL;
		if (t->freed && !t->waiters)
			free(t);
		pthread_cond_broadcast(&ts->done);
	}
	pthread_mutex_unlock(&ts->lock);
	free(run);
	return NULL;
}

/* The map's timer state, made on its first timer. */
static struct hr_map_timers *timers_get(struct hr_map *map)
{
	static pthread_mutex_t make_lock = PTHREAD_MUTEX_INITIALIZER;
	struct hr_map_timers *ts = timers_of(map);
	pthread_condattr_t ca;

	if (ts)
		return ts;
	pthread_mutex_lock(&make_lock);
	ts = timers_of(map);
	if (ts)
		goto out;
	ts = calloc(1, sizeof(*ts));
	if (!ts)
		goto out;
	ts->map = map;
	pthread_mutex_init(&ts->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&ts->wake, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&ts->done, NULL);
	if (pthread_create(&ts->thread, NULL, timer_thread, ts)) {
		pthread_cond_destroy(&ts->wake);
		pthread_cond_destroy(&ts->done);
		pthread_mutex_destroy(&ts->lock);
		free(ts);
		ts = NULL;
		goto out;
	}
	ts->started = true;
	__atomic_store_n(&map->timers, ts, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&make_lock);
	return ts;
}

/* The map's timer state, locked; NULL when it has none (made first when
 * @make). */
static struct hr_map_timers *lock_timers(struct hr_map *map, bool make)
{
	struct hr_map_timers *ts = make ? timers_get(map) : timers_of(map);

	if (ts)
		pthread_mutex_lock(&ts->lock);
	return ts;
}

/* __bpf_async_init for a timer on @clock or a wq (@wq). */
static int async_init(struct hr_map *map, void *slot, int clock,
		      const void *key, uint32_t index, bool wq)
{
	struct hr_map_timers *ts = lock_timers(map, true);
	struct hr_timer *t;
	int ret = 0;

	if (!ts)
		return -ENOMEM;
	if (find(ts, slot)) {
		ret = -EBUSY;
		goto out;
	}
	/* Maps with timers must be held by user space: one being freed
	 * has no users left (map->usercnt is 0). */
	if (ts->stop) {
		ret = -EPERM;
		goto out;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		ret = -ENOMEM;
		goto out;
	}
	t->slot = slot;
	t->value = (uint8_t *)slot - (wq ? map->wq_off : map->timer_off);
	t->key = key;
	t->index = index;
	t->clock = clock;
	t->wq = wq;
	t->next = ts->hash[bucket_of(slot)];
	ts->hash[bucket_of(slot)] = t;
out:
	pthread_mutex_unlock(&ts->lock);
	return ret;
}

int hr_map_timer_init(struct hr_map *map, void *slot, int clock,
		      const void *key, uint32_t index)
{
	return async_init(map, slot, clock, key, index, false);
}

int hr_map_wq_init(struct hr_map *map, void *slot, const void *key,
		   uint32_t index)
{
	/* A work item has no clock: it is due when started, now on the
	 * thread's monotonic clock. */
	return async_init(map, slot, CLOCK_MONOTONIC, key, index, true);
}

int hr_map_timer_set_callback(struct hr_map *map, void *slot,
			      const struct hr_prog *prog, uint32_t pc)
{
	struct hr_map_timers *ts = lock_timers(map, false);
	struct hr_timer *t = ts ? find(ts, slot) : NULL;
	int ret = 0;

	if (!ts)
		return -EINVAL;
	if (!t)
		ret = -EINVAL;
	else if (ts->stop)
		ret = -EPERM;
	else
		t->prog = prog, t->pc = pc;
	pthread_mutex_unlock(&ts->lock);
	return ret;
}

/* ns_to_ktime: the kernel's expiry is a signed 64-bit time, added with
 * saturation (ktime_add_safe) to the clock for a relative start. */
static int64_t expiry(int clock, uint64_t nsecs, uint64_t flags)
{
	int64_t rel = (int64_t)nsecs, now;

	if (flags & HR_F_TIMER_ABS)
		return rel;
	now = clock_now(clock);
	if (rel > 0 && now > INT64_MAX - rel)
		return INT64_MAX;
	return now + rel;
}

int hr_map_timer_start(struct hr_map *map, void *slot, uint64_t nsecs,
		       uint64_t flags, unsigned int cpu)
{
	struct hr_map_timers *ts;
	struct hr_timer *t;
	int ret = 0;

	if (flags & ~(HR_F_TIMER_ABS | HR_F_TIMER_CPU_PIN))
		return -EINVAL;
	ts = lock_timers(map, false);
	if (!ts)
		return -EINVAL;
	t = find(ts, slot);
	if (!t || !t->prog) {
		ret = -EINVAL;
	} else {
		/* hrtimer_start on an armed timer moves it. */
		t->expires = expiry(t->clock, nsecs, flags);
		t->armed = true;
		t->cpu = cpu;
		pthread_cond_signal(&ts->wake);
	}
	pthread_mutex_unlock(&ts->lock);
	return ret;
}

int hr_map_wq_start(struct hr_map *map, void *slot, unsigned int cpu, bool hold)
{
	struct hr_map_timers *ts = lock_timers(map, false);
	struct hr_timer *t;
	int ret = 0;

	if (!ts)
		return -EINVAL;
	t = find(ts, slot);
	if (!t || !t->wq || !t->prog) {
		ret = -EINVAL;
		goto out;
	}
	if (!t->armed) {
		/* queue_work: a pending work stays where it is. */
		t->expires = clock_now(t->clock);
		t->armed = true;
		t->cpu = cpu;
	}
	if (hold)
		t->holds++;
	else
		pthread_cond_signal(&ts->wake);
out:
	pthread_mutex_unlock(&ts->lock);
	return ret;
}

void hr_map_wq_release(struct hr_map *map, void *slot)
{
	struct hr_map_timers *ts = lock_timers(map, false);
	struct hr_timer *t = ts ? find(ts, slot) : NULL;

	if (!ts)
		return;
	if (t && t->holds && !--t->holds)
		pthread_cond_signal(&ts->wake);
	pthread_mutex_unlock(&ts->lock);
}

int hr_map_timer_cancel(struct hr_map *map, void *slot)
{
	struct hr_map_timers *ts = timers_of(map);
	struct hr_timer *t,
		*cur = __atomic_load_n(&timer_running, __ATOMIC_RELAXED);
	bool inc = false;
	int ret = 0;

	if (!ts)
		return -EINVAL;
	pthread_mutex_lock(&ts->lock);
	t = find(ts, slot);
	if (!t) {
		ret = -EINVAL;
		goto out;
	}
	if (cur == t) {
		/* Its own callback: waiting for it would never end. */
		ret = -EDEADLK;
		goto out;
	}
	if (cur) {
		/* From another timer's callback: give up when a callback is
		 * cancelling ours, as the kernel does, since each might be
		 * waiting for the other. */
		__atomic_add_fetch(&t->cancelling, 1, __ATOMIC_SEQ_CST);
		inc = true;
		if (__atomic_load_n(&cur->cancelling, __ATOMIC_SEQ_CST)) {
			ret = -EDEADLK;
			goto out;
		}
	}
	/* drop_prog_refcnt: a cancelled timer needs a callback again. */
	t->prog = NULL;
	/* hrtimer_cancel: waits while the callback runs, then dequeues. */
	t->waiters++;
	while (ts->running == t)
		pthread_cond_wait(&ts->done, &ts->lock);
	t->waiters--;
	if (!t->freed) {
		ret = t->armed ? 1 : 0;
		t->armed = false;
	}
out:
	if (inc)
		__atomic_sub_fetch(&t->cancelling, 1, __ATOMIC_SEQ_CST);
	if (t && t->freed && !t->waiters && ts->running != t)
		free(t);
	pthread_mutex_unlock(&ts->lock);
	return ret;
}

/* With the lock: the record of @slot, if any, disarmed and forgotten. */
static void free_slot(struct hr_map_timers *ts, void *slot)
{
	struct hr_timer *t = find(ts, slot);

	if (!t)
		return;
	unlink_timer(ts, t);
	t->armed = false;
	t->prog = NULL;
	/* A running callback's record goes when it returns, or when the
	 * last canceller waiting for it is done. */
	if (ts->running == t || t->waiters)
		t->freed = true;
	else
		free(t);
}

void hr_map_timer_free_value(struct hr_map *map, void *value)
{
	struct hr_map_timers *ts;

	/* bpf_obj_free_fields frees the kptrs' objects as well. */
	if (map->nkptrs)
		hr_map_kptr_free_value(map, value);
	if (map->list_off >= 0)
		hr_map_list_free_value(map, value);
	if (map->timer_off < 0 && map->wq_off < 0)
		return;
	ts = lock_timers(map, false);
	if (!ts)
		return;
	if (map->timer_off >= 0)
		free_slot(ts, (uint8_t *)value + map->timer_off);
	/* bpf_wq_cancel_and_free: a queued work never runs (its callback
	 * is dropped before the delete work cancels it). */
	if (map->wq_off >= 0)
		free_slot(ts, (uint8_t *)value + map->wq_off);
	pthread_mutex_unlock(&ts->lock);
}

void hr_map_timer_stored(struct hr_map *map, void *value)
{
	if (map->nkptrs)
		hr_map_kptr_free_value(map, value);
	if (map->list_off >= 0)
		hr_map_list_free_value(map, value);
	if (map->timer_off < 0 && map->wq_off < 0)
		return;
	hr_map_timer_free_value(map, value);
	if (map->timer_off >= 0)
		hr_map_value_zero((uint8_t *)value + map->timer_off,
				  HR_BPF_TIMER_SIZE);
	if (map->wq_off >= 0)
		hr_map_value_zero((uint8_t *)value + map->wq_off,
				  HR_BPF_WQ_SIZE);
}

void hr_map_timers_forget_object(struct hr_map *map,
				 const struct hr_object *obj)
{
	struct hr_map_timers *ts = lock_timers(map, false);
	struct hr_timer *t;
	unsigned int b;

	if (!ts)
		return;
	for (b = 0; b < HR_TIMER_BUCKETS; b++)
		for (t = ts->hash[b]; t; t = t->next)
			if (t->prog && t->prog->obj == obj) {
				t->prog = NULL;
				t->armed = false;
			}
	while (ts->running_prog && ts->running_prog->obj == obj &&
	       timer_running != ts->running)
		pthread_cond_wait(&ts->done, &ts->lock);
	pthread_mutex_unlock(&ts->lock);
}

void hr_map_timers_free(struct hr_map *map)
{
	struct hr_map_timers *ts = timers_of(map);
	struct hr_timer *t;
	unsigned int b;

	if (!ts)
		return;
	pthread_mutex_lock(&ts->lock);
	ts->stop = true;
	pthread_cond_signal(&ts->wake);
	pthread_mutex_unlock(&ts->lock);
	if (ts->started)
		pthread_join(ts->thread, NULL);
	for (b = 0; b < HR_TIMER_BUCKETS; b++)
		while ((t = ts->hash[b]) != NULL) {
			ts->hash[b] = t->next;
			free(t);
		}
	pthread_cond_destroy(&ts->wake);
	pthread_cond_destroy(&ts->done);
	pthread_mutex_destroy(&ts->lock);
	map->timers = NULL;
	free(ts);
}
