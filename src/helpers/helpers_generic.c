// SPDX-License-Identifier: MIT
/*
 * Helpers for the map types beyond arrays and hashes, and the generic
 * helpers programs take for granted: queue/stack push, pop and peek,
 * bpf_tail_call, the ring buffer (its records also as dynptrs:
 * kernel/bpf/ringbuf.c's bpf_ringbuf_reserve_dynptr, _submit_dynptr and
 * _discard_dynptr), bpf_loop, bpf_for_each_map_elem,
 * bpf_spin_lock, bpf_check_mtu (XDP), clocks and bpf_get_numa_node_id.
 * As in helpers_map.c, every pointer is checked against the run's memory
 * first; a bad one has already aborted the run, so return at once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progs/ctx.h"
#include "helpers/dynptr.h"
#include "helpers/helpers.h"
#include "vm/mem.h"
#include "progs/prog.h"
#include "vm/vm.h"
#include "dev/dev.h"
#include "maps/fd_array.h"
#include "maps/map.h"
#include "maps/map_impl.h"
#include "maps/ringbuf.h"
#include "core/ct.h"

/* BPF_MAX_LOOPS (include/linux/bpf.h). */
#define HR_BPF_MAX_LOOPS (8 * 1024 * 1024)
#define HR_MTU_CHK_RET_SUCCESS 0
#define HR_MTU_CHK_RET_FRAG_NEEDED 1

static uint64_t hr_err(int err)
{
	return (uint64_t)(int64_t)err;
}

/* Queue and stack. */

static uint64_t hr_map_push_elem_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				    uint64_t r4, uint64_t r5,
				    struct hr_run *run)
{
	struct hr_map *map = hr_run_map(run, r1);
	const void *value;

	if (!map)
		return 0;
	value = hr_run_mem(run, r2, map->attr.value_size, false);
	if (!value)
		return 0;
	if (!map->ops->push)
		return hr_err(-EINVAL);
	if (hr_map_prog_rdonly(map))
		return hr_err(-EPERM);
	return hr_err(map->ops->push(map, value, r3));
}

/* Pop (@del) or peek into the program's buffer in r2. */
static uint64_t hr_map_get_elem(uint64_t r1, uint64_t r2, struct hr_run *run,
				bool del)
{
	struct hr_map *map = hr_run_map(run, r1);
	void *value;

	if (!map)
		return 0;
	value = hr_run_mem(run, r2, map->attr.value_size, true);
	if (!value)
		return 0;
	if (!map->ops->pop)
		return hr_err(-EINVAL);
	return hr_err(del ? map->ops->pop(map, value) :
			    map->ops->peek(map, value));
}

static uint64_t hr_map_pop_elem_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				   uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return hr_map_get_elem(r1, r2, run, true);
}

static uint64_t hr_map_peek_elem_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				    uint64_t r4, uint64_t r5,
				    struct hr_run *run)
{
	return hr_map_get_elem(r1, r2, run, false);
}

/*
 * Whether @callee may run in @caller's place: the kernel guarantees it at
 * load and map update (bpf_prog_map_compatible(): the same program type,
 * expected attach type and xdp.frags), so a program always runs on the
 * context its rules were made for. A map filled before its caller was
 * known can still hold another kind here: that tail call fails.
 */
static bool hr_tail_call_compatible(const struct hr_prog *caller,
				    const struct hr_prog *callee)
{
	return caller && caller->type == callee->type &&
	       caller->expected_attach == callee->expected_attach &&
	       caller->frags == callee->frags;
}

/*
 * bpf_tail_call(ctx, map, index): the interpreter's JMP_TAIL_CALL order.
 * An index out of range, the 34th call or an empty slot fall through:
 * the helper returns and the program goes on after the call (the kernel
 * leaves r0 unknown; -ENOENT here). The chain counter grows even when
 * the slot turns out to be empty, as in the kernel.
 *
 * ctx must be the run's context itself (ARG_PTR_TO_CTX, no offset: the
 * verifier refuses anything else at load). The target starts with it as
 * r1, and the JIT compiled the target taking its entry r1 to be the
 * context; a program passing anything else aborts here instead.
 */
static uint64_t hr_tail_call_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	struct hr_map *map;
	uint32_t index = (uint32_t)r3;
	struct hr_prog *prog;

	if (!run->ctx || r1 != (uintptr_t)run->ctx) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, r1);
		return 0;
	}
	map = hr_run_map(run, r2);
	if (!map)
		return 0;
	if (map->attr.type != HR_MAP_PROG_ARRAY)
		return hr_err(-EINVAL);
	if (index >= map->attr.max_entries)
		return hr_err(-ENOENT);
	if (run->tail_call_cnt >= HR_MAX_TAIL_CALLS)
		return hr_err(-ENOENT);
	run->tail_call_cnt++;
	prog = hr_prog_array_get(map, index);
	if (!prog)
		return hr_err(-ENOENT);
	if (!hr_tail_call_compatible(run->vm->prog, prog))
		return hr_err(-ENOENT);
	run->tail_call = &prog->vm;
	/* A program of another object reaches its own maps and globals
	 * (the compatibility test above needs a caller program). */
	if (prog->obj != run->vm->prog->obj)
		hr_prog_run_use_object(prog, run);
	return 0;
}

/* Ring buffer. */

static struct hr_map *hr_run_ringbuf(struct hr_run *run, uint64_t r1)
{
	struct hr_map *map = hr_run_map(run, r1);

	if (map && map->attr.type != HR_MAP_RINGBUF) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, r1);
		return NULL;
	}
	return map;
}

static uint64_t hr_ringbuf_output_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				     uint64_t r4, uint64_t r5,
				     struct hr_run *run)
{
	struct hr_map *map = hr_run_ringbuf(run, r1);
	const void *data;
	void *rec;

	if (!map)
		return 0;
	data = hr_run_mem(run, r2, r3, false);
	if (!data && r3)
		return 0;
	if (r4 & ~(HR_RB_NO_WAKEUP | HR_RB_FORCE_WAKEUP))
		return hr_err(-EINVAL);
	rec = hr_ringbuf_reserve(map, r3);
	if (!rec)
		return hr_err(-EAGAIN);
	memcpy(rec, data, r3);
	hr_ringbuf_commit(map, rec, false);
	return 0;
}

/*
 * A reserved record becomes the run's: writable to it alone, until it
 * submits or discards it (the verifier's reference to the record). A run
 * already holding HR_MAX_HELD_RECORDS gets NULL, as a full ring would
 * answer, before anything is reserved.
 */
static uint8_t *hr_ringbuf_hold(struct hr_run *run, struct hr_map *map,
				uint64_t size)
{
	struct hr_held_rec *h;
	uint8_t *rec;

	if (run->nheld >= HR_MAX_HELD_RECORDS)
		return NULL;
	rec = hr_ringbuf_reserve(map, size);
	if (!rec)
		return NULL;
	h = &run->held[run->nheld++];
	*h = (struct hr_held_rec){ .start = (uintptr_t)rec,
				   .end = (uintptr_t)rec + size,
				   .map = map };
	return rec;
}

static uint64_t hr_ringbuf_reserve_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				      uint64_t r4, uint64_t r5,
				      struct hr_run *run)
{
	struct hr_map *map = hr_run_ringbuf(run, r1);

	if (!map || r3)
		return 0;
	return (uintptr_t)hr_ringbuf_hold(run, map, r2);
}

/* Submit or discard a record the run holds, and let go of it. */
static uint64_t hr_ringbuf_finish(uint64_t sample, struct hr_run *run,
				  bool discard)
{
	unsigned int i;

	for (i = 0; i < run->nheld; i++) {
		struct hr_held_rec *h = &run->held[i];

		/* A kfunc's object is no ring buffer record. */
		if (h->start != sample || h->drop)
			continue;
		hr_ringbuf_commit(h->map, (void *)h->start, discard);
		*h = run->held[--run->nheld];
		return 0;
	}
	hr_run_abort(run, HR_ABORT_HELPER_ARG, sample);
	return 0;
}

static uint64_t hr_ringbuf_submit_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				     uint64_t r4, uint64_t r5,
				     struct hr_run *run)
{
	return hr_ringbuf_finish(r1, run, false);
}

static uint64_t hr_ringbuf_discard_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				      uint64_t r4, uint64_t r5,
				      struct hr_run *run)
{
	return hr_ringbuf_finish(r1, run, true);
}

/*
 * bpf_ringbuf_reserve_dynptr(map, size, flags, ptr): the record as a
 * dynptr of type RINGBUF, which the dynptr helpers and kfuncs read and
 * write as a local one; any failure leaves a null dynptr: -EINVAL for
 * flags, -E2BIG past DYNPTR_MAX_SIZE, -EINVAL when no record could be
 * reserved (the ring full, the record too large, or as
 * bpf_ringbuf_reserve, the run already holding all it can).
 */
static uint64_t hr_ringbuf_reserve_dynptr_fn(uint64_t r1, uint64_t r2,
					     uint64_t r3, uint64_t r4,
					     uint64_t r5, struct hr_run *run)
{
	struct hr_map *map = hr_run_ringbuf(run, r1);
	struct hr_dynptr *d;
	uint8_t *rec;
	int err = 0;

	if (!map)
		return 0;
	d = hr_dynptr_mem(run, r4);
	if (!d)
		return 0;
	if (r3)
		err = -EINVAL;
	else if ((uint32_t)r2 > HR_DYNPTR_MAX_SIZE)
		err = -E2BIG;
	else if (!(rec = hr_ringbuf_hold(run, map, (uint32_t)r2)))
		err = -EINVAL;
	if (err) {
		hr_dynptr_set_null(d);
		return hr_err(err);
	}
	d->data = (uintptr_t)rec;
	d->size = (uint32_t)r2 | (uint32_t)HR_DYNPTR_TYPE_RINGBUF
					 << HR_DYNPTR_TYPE_SHIFT;
	d->offset = 0;
	return 0;
}

/* Submit or discard the record a ring buffer dynptr names, which then
 * becomes null; a null one is let be. The flags only choose wakeups. */
static uint64_t hr_ringbuf_finish_dynptr(uint64_t ptr, struct hr_run *run,
					 bool discard)
{
	struct hr_dynptr *d = hr_dynptr_get(run, ptr, true);

	if (!d || !d->data)
		return 0;
	/* The verifier takes no other type here. */
	if (hr_dynptr_type(d) != HR_DYNPTR_TYPE_RINGBUF) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, ptr);
		return 0;
	}
	hr_ringbuf_finish(d->data, run, discard);
	hr_dynptr_set_null(d);
	return 0;
}

static uint64_t hr_ringbuf_submit_dynptr_fn(uint64_t r1, uint64_t r2,
					    uint64_t r3, uint64_t r4,
					    uint64_t r5, struct hr_run *run)
{
	return hr_ringbuf_finish_dynptr(r1, run, false);
}

static uint64_t hr_ringbuf_discard_dynptr_fn(uint64_t r1, uint64_t r2,
					     uint64_t r3, uint64_t r4,
					     uint64_t r5, struct hr_run *run)
{
	return hr_ringbuf_finish_dynptr(r1, run, true);
}

static uint64_t hr_ringbuf_query_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				    uint64_t r4, uint64_t r5,
				    struct hr_run *run)
{
	struct hr_map *map = hr_run_ringbuf(run, r1);

	return map ? hr_ringbuf_query(map, r2) : 0;
}

/* Clocks. */

static uint64_t hr_clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t hr_ktime_get_boot_ns_fn(uint64_t r1, uint64_t r2, uint64_t r3,
					uint64_t r4, uint64_t r5,
					struct hr_run *run)
{
	return hr_clock_ns(CLOCK_BOOTTIME);
}

/* bpf_ktime_get_tai_ns: ktime_get_tai_fast_ns, the TAI clock. */
static uint64_t hr_ktime_get_tai_ns_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				       uint64_t r4, uint64_t r5,
				       struct hr_run *run)
{
	return hr_clock_ns(CLOCK_TAI);
}

static uint64_t hr_ktime_get_coarse_ns_fn(uint64_t r1, uint64_t r2, uint64_t r3,
					  uint64_t r4, uint64_t r5,
					  struct hr_run *run)
{
	return hr_clock_ns(CLOCK_MONOTONIC_COARSE);
}

/* jiffies_64: HZ ticks since boot (without the kernel's INITIAL_JIFFIES
 * offset, which only the kernel's own uptime accounting removes). */
static uint64_t hr_jiffies64_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return hr_jiffies64();
}

/* Workers are not bound to NUMA nodes: every one is on node 0. */
static uint64_t hr_get_numa_node_id_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				       uint64_t r4, uint64_t r5,
				       struct hr_run *run)
{
	return 0;
}

/*
 * bpf_loop(nr_loops, callback, ctx, flags): flags first, then the cap.
 * With flags 0 the kernel's verifier inlines the loop (inline_bpf_loop()),
 * whose cap check compares all of r1 and sets r0 with a 32-bit move: a
 * program then sees (u32)-E2BIG, not -E2BIG. Programs that pass flags 0
 * get that; others the helper's own 64-bit -E2BIG.
 */
static uint64_t hr_loop_fn(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
			   uint64_t r5, struct hr_run *run)
{
	uint32_t nr_loops = (uint32_t)r1, i;
	uint64_t args[5] = { 0, r3, 0, 0, 0 };

	if (r4)
		return hr_err(-EINVAL);
	if (r1 > HR_BPF_MAX_LOOPS)
		return (uint32_t)-E2BIG;
	if (!run->callback || r2 >= run->vm->cnt) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, r2);
		return 0;
	}
	for (i = 0; i < nr_loops; i++) {
		uint64_t ret;

		args[0] = i;
		if (!hr_run_charge_callback(run, (uint32_t)r2))
			return 0;
		ret = run->callback(run, (uint32_t)r2, args);
		if (run->abort)
			return 0;
		/* The verifier holds callbacks to 0 or 1. */
		if (ret)
			return i + 1;
	}
	return i;
}

/*
 * bpf_for_each_map_elem: the callback gets (map, key, value, ctx) and
 * stops the walk by returning 1. The key must be readable by the program,
 * so while the walk runs the run's region list is this helper's copy with
 * one more, read-only region: the key buffer.
 */
struct hr_each {
	struct hr_run *run;
	struct hr_map *map;
	uint32_t pc;
	uint64_t ctx;
	uint8_t *key;
	uint64_t n;
	uint64_t limit; /* max_entries: more visits means a walk in circles */
};

/* One element; true to go on. */
static bool hr_each_call(struct hr_each *e)
{
	struct hr_map *map = e->map;
	void *value = map->ops->lookup(map, e->key, e->run->cpu);
	uint64_t args[5] = { (uintptr_t)map, (uintptr_t)e->key,
			     (uintptr_t)value, e->ctx, 0 };
	uint64_t ret;

	if (!value)
		return true;
	/* A walk never sees more elements than the map holds at once,
	 * unless the callback keeps replacing them (a deleted key sends
	 * get_next_key back to the first): that walk is stopped. */
	if (e->n >= e->limit) {
		hr_run_abort(e->run, HR_ABORT_MAP_WALK, e->n);
		return false;
	}
	e->n++;
	if (!hr_run_charge_callback(e->run, e->pc))
		return false;
	ret = e->run->callback(e->run, e->pc, args);
	return !e->run->abort && !ret;
}

static void hr_each_walk(struct hr_each *e)
{
	struct hr_map *map = e->map;
	uint32_t i, ks = map->attr.key_size;
	uint8_t *next;

	if (map->attr.type == HR_MAP_ARRAY ||
	    map->attr.type == HR_MAP_PERCPU_ARRAY) {
		for (i = 0; i < map->attr.max_entries; i++) {
			memcpy(e->key, &i, sizeof(i));
			if (!hr_each_call(e))
				return;
		}
		return;
	}
	next = malloc(ks);
	if (!next)
		return;
	if (map->ops->get_next_key(map, NULL, next) == 0) {
		do {
			memcpy(e->key, next, ks);
			if (!hr_each_call(e))
				break;
		} while (map->ops->get_next_key(map, e->key, next) == 0);
	}
	free(next);
}

static bool hr_each_supported(const struct hr_map *map)
{
	switch (map->attr.type) {
	case HR_MAP_ARRAY:
	case HR_MAP_PERCPU_ARRAY:
	case HR_MAP_HASH:
	case HR_MAP_PERCPU_HASH:
	case HR_MAP_LRU_HASH:
	case HR_MAP_LRU_PERCPU_HASH:
		return true;
	default:
		return false;
	}
}

static uint64_t hr_for_each_map_elem_fn(uint64_t r1, uint64_t r2, uint64_t r3,
					uint64_t r4, uint64_t r5,
					struct hr_run *run)
{
	struct hr_map *map = hr_run_map(run, r1);
	struct hr_run_regions save;
	struct hr_region *key_region;
	struct hr_each e = {
		.run = run, .map = map, .pc = (uint32_t)r2, .ctx = r3
	};

	if (!map)
		return 0;
	e.limit = map->attr.max_entries;
	if (r4)
		return hr_err(-EINVAL);
	if (!hr_each_supported(map))
		return hr_err(-ENOTSUP);
	if (!run->callback || r2 >= run->vm->cnt) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, r2);
		return 0;
	}
	e.key = calloc(1, HR_ROUND8(map->attr.key_size));
	key_region = e.key ? hr_run_regions_push(run, 1, &save) : NULL;
	if (!key_region) {
		free(e.key);
		return hr_err(-ENOMEM);
	}
	*key_region = (struct hr_region){
		.start = (uintptr_t)e.key,
		.end = (uintptr_t)e.key + map->attr.key_size,
		.flags = HR_REGION_READ,
	};
	hr_each_walk(&e);
	hr_run_regions_pop(run, &save);
	free(e.key);
	return e.n;
}

/*
 * bpf_spin_lock / bpf_spin_unlock on a struct bpf_spin_lock (4 bytes) in
 * a map value the program may write. The verifier lets a program hold one
 * lock at a time and makes it release it before it exits; here the run
 * knows which lock it holds: a second lock aborts (a lock taken twice
 * would spin for ever), unlocking another lock aborts, and the lock is
 * released however the run ends (hr_run_release_locks). Another run's
 * lock is waited for, but not for ever: its holder's budget bounds how
 * long it may keep it, and a word the program wrote by hand is not a
 * holder.
 */
static uint64_t hr_spin_lock_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	uint32_t *lock = hr_run_mem(run, r1, sizeof(*lock), true);

	if (!lock)
		return 0;
	if (r1 & 3) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, r1);
		return 0;
	}
	if (run->lock) {
		hr_run_abort(run, HR_ABORT_LOCK_RECURSION, r1);
		return 0;
	}
	if (!hr_spin_wait(lock, HR_SPIN_LOCK_TIMEOUT_NS)) {
		hr_run_abort(run, HR_ABORT_LOCK_CONTENDED, r1);
		return 0;
	}
	run->lock = lock;
	return 0;
}

static uint64_t hr_spin_unlock_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				  uint64_t r4, uint64_t r5, struct hr_run *run)
{
	uint32_t *lock = hr_run_mem(run, r1, sizeof(*lock), true);

	if (!lock)
		return 0;
	if ((r1 & 3) || run->lock != lock || run->in_rb_less) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, r1);
		return 0;
	}
	/* Before another run may change the list the lock guards. */
	hr_obj_unlocked(run);
	run->lock = NULL;
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
	return 0;
}

/*
 * bpf_xdp_check_mtu(ctx, ifindex, mtu_len, len_diff, flags). The device
 * is the receiving one (ifindex 0 or its own index); without one (a test
 * run) an Ethernet device of MTU 1500. *mtu_len is written on every path,
 * 0 on the error ones, as the kernel does.
 */
static uint64_t hr_xdp_check_mtu_fn(uint64_t r1, uint64_t r2, uint64_t r3,
				    uint64_t r4, uint64_t r5,
				    struct hr_run *run)
{
	struct hr_xdp_ctx *c = run->priv;
	struct hr_xdp_buff *xdp = c ? c->xdp : NULL;
	struct hr_dev *dev = NULL;
	uint32_t *mtu_len = hr_run_mem(run, r3, sizeof(*mtu_len), true);
	int64_t xdp_len;
	uint32_t mtu = 0, ifindex = (uint32_t)r2;
	int ret = HR_MTU_CHK_RET_SUCCESS;

	if (!mtu_len || !xdp)
		return 0;
	if (r5) {
		ret = -EINVAL;
		goto out;
	}
	if (xdp->rxq)
		dev = xdp->rxq->dev;
	if (ifindex && (!dev || dev->ifindex != ifindex)) {
		ret = -ENODEV;
		goto out;
	}
	mtu = dev ? dev->mtu : 1500;
	xdp_len = (uint8_t *)xdp->data_end - (uint8_t *)xdp->data;
	if (*mtu_len)
		xdp_len = (int64_t)*mtu_len + HR_ETH_HLEN;
	xdp_len += (int32_t)r4;
	if (xdp_len > (int64_t)mtu + HR_ETH_HLEN)
		ret = HR_MTU_CHK_RET_FRAG_NEEDED;
out:
	*mtu_len = mtu;
	return hr_err(ret);
}

#define HR_HELPER(var, num, kname, func) \
	const struct hr_helper var = {   \
		.id = num,               \
		.name = kname,           \
		.fn = func,              \
	}

HR_HELPER(hr_helper_map_push_elem, 87, "bpf_map_push_elem",
	  hr_map_push_elem_fn);
HR_HELPER(hr_helper_map_pop_elem, 88, "bpf_map_pop_elem", hr_map_pop_elem_fn);
HR_HELPER(hr_helper_map_peek_elem, 89, "bpf_map_peek_elem",
	  hr_map_peek_elem_fn);
HR_HELPER(hr_helper_tail_call, 12, "bpf_tail_call", hr_tail_call_fn);
HR_HELPER(hr_helper_ringbuf_output, 130, "bpf_ringbuf_output",
	  hr_ringbuf_output_fn);
HR_HELPER(hr_helper_ringbuf_reserve, 131, "bpf_ringbuf_reserve",
	  hr_ringbuf_reserve_fn);
HR_HELPER(hr_helper_ringbuf_submit, 132, "bpf_ringbuf_submit",
	  hr_ringbuf_submit_fn);
HR_HELPER(hr_helper_ringbuf_discard, 133, "bpf_ringbuf_discard",
	  hr_ringbuf_discard_fn);
HR_HELPER(hr_helper_ringbuf_query, 134, "bpf_ringbuf_query",
	  hr_ringbuf_query_fn);
HR_HELPER(hr_helper_ringbuf_reserve_dynptr, 198, "bpf_ringbuf_reserve_dynptr",
	  hr_ringbuf_reserve_dynptr_fn);
HR_HELPER(hr_helper_ringbuf_submit_dynptr, 199, "bpf_ringbuf_submit_dynptr",
	  hr_ringbuf_submit_dynptr_fn);
HR_HELPER(hr_helper_ringbuf_discard_dynptr, 200, "bpf_ringbuf_discard_dynptr",
	  hr_ringbuf_discard_dynptr_fn);
HR_HELPER(hr_helper_ktime_get_boot_ns, 125, "bpf_ktime_get_boot_ns",
	  hr_ktime_get_boot_ns_fn);
HR_HELPER(hr_helper_ktime_get_tai_ns, 208, "bpf_ktime_get_tai_ns",
	  hr_ktime_get_tai_ns_fn);
HR_HELPER(hr_helper_ktime_get_coarse_ns, 160, "bpf_ktime_get_coarse_ns",
	  hr_ktime_get_coarse_ns_fn);
HR_HELPER(hr_helper_jiffies64, 118, "bpf_jiffies64", hr_jiffies64_fn);
HR_HELPER(hr_helper_get_numa_node_id, 42, "bpf_get_numa_node_id",
	  hr_get_numa_node_id_fn);
HR_HELPER(hr_helper_loop, 181, "bpf_loop", hr_loop_fn);
HR_HELPER(hr_helper_for_each_map_elem, 164, "bpf_for_each_map_elem",
	  hr_for_each_map_elem_fn);
HR_HELPER(hr_helper_spin_lock, 93, "bpf_spin_lock", hr_spin_lock_fn);
HR_HELPER(hr_helper_spin_unlock, 94, "bpf_spin_unlock", hr_spin_unlock_fn);
HR_HELPER(hr_helper_xdp_check_mtu, 163, "bpf_check_mtu", hr_xdp_check_mtu_fn);
