// SPDX-License-Identifier: MIT
/*
 * bpf_user_ringbuf_drain (progs/helpers/xdp_user_ringbuf.bpf.c, an XDP
 * and a tc program) under each engine (interpreter, JIT, checked JIT),
 * each case run once in
 * headroom with samples given through headroom/user_ringbuf.h and once
 * through the kernel's BPF_PROG_TEST_RUN with the same samples given
 * through libbpf's user_ring_buffer: the drain's return and the number of
 * callbacks, equal on both sides and to what kernel/bpf/ringbuf.c says,
 * and what the callback stored of each sample in the `seen` array (its
 * dynptr's size and read-only bit, the bytes bpf_dynptr_read and
 * bpf_dynptr_data gave, the answer of a bpf_dynptr_write into it, of a
 * drain of the same ring from inside it), compared byte for byte.
 * Cases, for each program: an empty ring (0); samples of 5, 0 and 40 bytes; the callback
 * returning 1 after k samples (k, the rest left for the next drain); a
 * discarded sample skipped; samples of 1000 bytes until one crosses the
 * ring's end; a reserved one not yet submitted stopping the
 * drain until it is; flags other than BPF_RB_NO_WAKEUP and
 * BPF_RB_FORCE_WAKEUP (-EINVAL); a nested drain (-EBUSY); a header
 * longer than what was produced (-EINVAL) until mended; the cap of
 * then from XDP: BPF_MAX_USER_RINGBUF_SAMPLES with a discarded sample
 * counted towards it; a sample larger than a dynptr (-E2BIG,
 * xdp_user_ringbuf_big.o). Then, in headroom alone, callbacks the
 * verifier refuses (user_ringbuf_forged.o) end the run and leave the ring
 * drainable; a producer blocked in hr_user_ringbuf_reserve_blocking is
 * woken by a drain, but not by one with BPF_RB_NO_WAKEUP. And the loader sizes ring buffers as libbpf does (a
 * power-of-2 number of pages, rounded up).
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "headroom/headroom.h"
#include "oracle.h"
#include "maps/map.h"
#include "maps/ringbuf.h" /* its waiters */
#include "vm/vm.h" /* enum hr_abort */

ORACLE_LINK_HEADROOM;

#define OBJ "xdp_user_ringbuf.o"
#define OBJ_BIG "xdp_user_ringbuf_big.o"
#define MAX_SAMPLES (128 * 1024)

struct seen {
	uint32_t size, rdonly;
	int64_t read_ret, data_ok, write_ret, nest_ret;
	uint8_t bytes[32];
	uint64_t first8;
	uint8_t tail[8];
	int64_t tail_ret;
};

struct ur_case {
	uint32_t big, stop_after;
	uint64_t flags;
	uint32_t write, nest;
	int64_t ret, calls;
};

/* One ring's producers on both sides (kernel: NULL without a kernel). */
struct ring {
	struct hr_user_ringbuf *h;
	struct user_ring_buffer *k;
};

struct env {
	struct oracle *o;
	bool kernel;
	const char *obj;
	const char *engine;
	bool tc; /* the tc program, else the XDP one */
	struct ring urb, big;
};

static bool ring_open(struct env *e, const char *name, struct ring *r)
{
	struct hr_object *ho = oracle_headroom_object(e->o, e->obj);
	struct hr_map *hm = ho ? hr_object_find_map(ho, name) : NULL;

	memset(r, 0, sizeof(*r));
	CHECK(hm && hr_user_ringbuf_new(hm, NULL, &r->h) == 0,
	      "%s: headroom's producer for %s", e->obj, name);
	if (e->kernel) {
		struct bpf_object *ko = oracle_kernel_object(e->o, e->obj);
		int fd = ko ? bpf_object__find_map_fd_by_name(ko, name) : -1;

		r->k = fd >= 0 ? user_ring_buffer__new(fd, NULL) : NULL;
		CHECK(r->k != NULL, "%s: libbpf's producer for %s", e->obj,
		      name);
	}
	return r->h && (!e->kernel || r->k);
}

static void ring_close(struct ring *r)
{
	hr_user_ringbuf_free(r->h);
	if (r->k)
		user_ring_buffer__free(r->k);
}

enum how { SUBMIT, DISCARD, HOLD };

/* A sample of @len bytes (i + len * 7 each) on both sides, submitted,
 * discarded or left reserved; its two pointers in @held for HOLD. */
static void put(struct env *e, struct ring *r, uint32_t len, enum how how,
		void *held[2])
{
	void *hs = NULL, *ks = NULL;
	uint32_t i;

	/* Counted only when they fail: the cap case puts 131073. */
	if (hr_user_ringbuf_reserve(r->h, len, &hs))
		CHECK(false, "headroom reserve %u", len);
	if (e->kernel && !(ks = user_ring_buffer__reserve(r->k, len)))
		CHECK(false, "kernel reserve %u: %s", len, strerror(errno));
	for (i = 0; i < len; i++) {
		if (hs)
			((uint8_t *)hs)[i] = (uint8_t)(i + len * 7);
		if (ks)
			((uint8_t *)ks)[i] = (uint8_t)(i + len * 7);
	}
	if (how == HOLD) {
		held[0] = hs;
		held[1] = ks;
		return;
	}
	if (hs)
		(how == DISCARD ? hr_user_ringbuf_discard :
				  hr_user_ringbuf_submit)(r->h, hs);
	if (ks)
		(how == DISCARD ? user_ring_buffer__discard :
				  user_ring_buffer__submit)(r->k, ks);
}

static void submit_held(struct env *e, struct ring *r, void *held[2])
{
	if (held[0])
		hr_user_ringbuf_submit(r->h, held[0]);
	if (held[1])
		user_ring_buffer__submit(r->k, held[1]);
}

/* The header of a sample as user space may write it (both sides). */
static void set_hdr(void *held[2], uint32_t len)
{
	for (int i = 0; i < 2; i++)
		if (held[i])
			memcpy((uint8_t *)held[i] - HR_RINGBUF_HDR_SZ, &len,
			       sizeof(len));
}

/* `seen` zeroed on both sides. */
static void seen_clear(struct env *e)
{
	struct hr_object *ho = oracle_headroom_object(e->o, e->obj);
	struct hr_map *hm = ho ? hr_object_find_map(ho, "seen") : NULL;
	struct bpf_object *ko = e->kernel ? oracle_kernel_object(e->o, e->obj) :
					    NULL;
	int fd = ko ? bpf_object__find_map_fd_by_name(ko, "seen") : -1;
	struct seen z = { 0 };

	for (uint32_t i = 0; i < 16; i++) {
		CHECK(hm && hr_map_update_elem(hm, &i, &z, 0) == 0,
		      "clear seen");
		if (e->kernel)
			CHECK(fd >= 0 &&
				      bpf_map_update_elem(fd, &i, &z, 0) == 0,
			      "clear the kernel's seen");
	}
}

/* seen[i] of headroom in @h, compared with the kernel's. */
static void seen_read(struct env *e, const char *label, uint32_t i,
		      struct seen *h)
{
	struct hr_object *ho = oracle_headroom_object(e->o, e->obj);
	struct hr_map *hm = ho ? hr_object_find_map(ho, "seen") : NULL;
	struct seen k;

	memset(h, 0, sizeof(*h));
	CHECK(hm && hr_map_lookup_elem(hm, &i, h) == 0, "read seen");
	if (!e->kernel)
		return;
	bpf_map_lookup_elem(bpf_object__find_map_fd_by_name(
				    oracle_kernel_object(e->o, e->obj), "seen"),
			    &i, &k);
	CHECK(!memcmp(&k, h, sizeof(k)),
	      "%s: seen[%u] differs: kernel size %u rdonly %u read %lld "
	      "data %lld write %lld nest %lld first8 %llx, headroom size %u "
	      "rdonly %u read %lld data %lld write %lld nest %lld first8 %llx",
	      label, i, k.size, k.rdonly, (long long)k.read_ret,
	      (long long)k.data_ok, (long long)k.write_ret,
	      (long long)k.nest_ret, (unsigned long long)k.first8, h->size,
	      h->rdonly, (long long)h->read_ret, (long long)h->data_ok,
	      (long long)h->write_ret, (long long)h->nest_ret,
	      (unsigned long long)h->first8);
}

/* One drain on both sides; headroom's answers, checked against the
 * kernel's and against @want_ret and @want_calls. */
static struct ur_case drain(struct env *e, const char *what, struct ur_case in,
			    int64_t want_ret, int64_t want_calls)
{
	static uint8_t pkt[14 + sizeof(struct ur_case)];
	struct oracle_case c = { .obj = e->obj,
				 .prog = e->tc ? "tc_user_ringbuf" :
						 "xdp_user_ringbuf",
				 .data = pkt,
				 .size = sizeof(pkt) };
	static struct oracle_result hr, kr;
	uint32_t pass = e->tc ? 0 : XDP_PASS; /* TC_ACT_OK */
	struct __sk_buff skb;
	struct ur_case h, k;
	char label[128];

	memset(&skb, 0, sizeof(skb));
	if (e->tc)
		c.skb = &skb;
	snprintf(label, sizeof(label), "%s %s: %s", e->engine,
		 e->tc ? "tc" : "xdp", what);
	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	memset(&h, 0, sizeof(h));
	CHECK(oracle_run_headroom(e->o, &c, &hr) == 0 && hr.err == 0 &&
		      hr.retval == pass,
	      "%s: headroom run (err %d retval %u)", label, hr.err, hr.retval);
	memcpy(&h, hr.out + 14, sizeof(h));
	CHECK(h.ret == want_ret && h.calls == want_calls,
	      "%s: headroom ret %lld calls %lld, want %lld and %lld", label,
	      (long long)h.ret, (long long)h.calls, (long long)want_ret,
	      (long long)want_calls);
	if (!e->kernel)
		return h;
	CHECK(oracle_run_kernel(e->o, &c, &kr) == 0 && kr.err == 0 &&
		      kr.retval == pass,
	      "%s: kernel run (err %d retval %u)", label, kr.err, kr.retval);
	memcpy(&k, kr.out + 14, sizeof(k));
	CHECK(k.ret == h.ret && k.calls == h.calls,
	      "%s: kernel ret %lld calls %lld, headroom %lld and %lld", label,
	      (long long)k.ret, (long long)k.calls, (long long)h.ret,
	      (long long)h.calls);
	return h;
}

static void cases_small(struct env *e)
{
	struct ur_case in = { 0 };
	static const uint32_t sizes[3] = { 5, 0, 40 };
	void *held[2] = { NULL, NULL };
	struct seen s;
	uint32_t i;

	seen_clear(e);
	drain(e, "empty ring", in, 0, 0);

	for (i = 0; i < 3; i++)
		put(e, &e->urb, sizes[i], SUBMIT, NULL);
	drain(e, "three samples", in, 3, 3);
	for (i = 0; i < 3; i++) {
		seen_read(e, "three samples", i, &s);
		CHECK(s.size == sizes[i] && !s.rdonly && s.read_ret == 0 &&
			      s.data_ok == (sizes[i] >= 8),
		      "sample %u: size %u rdonly %u read %lld data %lld", i,
		      s.size, s.rdonly, (long long)s.read_ret,
		      (long long)s.data_ok);
		CHECK(sizes[i] == 0 || s.bytes[0] == (uint8_t)(sizes[i] * 7),
		      "sample %u's first byte %u", i, s.bytes[0]);
	}
	drain(e, "drained", in, 0, 0);

	/* The callback returns 1 after two: the rest for the next. */
	seen_clear(e);
	for (i = 0; i < 5; i++)
		put(e, &e->urb, 8 + i, SUBMIT, NULL);
	in.stop_after = 2;
	drain(e, "stop after 2", in, 2, 2);
	in.stop_after = 0;
	drain(e, "the other 3", in, 3, 3);
	seen_read(e, "the other 3", 0, &s);
	CHECK(s.size == 10, "the third sample next (size %u)", s.size);

	/* A discarded sample is skipped, and not counted. */
	put(e, &e->urb, 16, SUBMIT, NULL);
	put(e, &e->urb, 24, DISCARD, NULL);
	put(e, &e->urb, 32, SUBMIT, NULL);
	drain(e, "discarded skipped", in, 2, 2);

	/* A reserved sample stops the drain until it is submitted. */
	put(e, &e->urb, 12, HOLD, held);
	put(e, &e->urb, 4, SUBMIT, NULL);
	drain(e, "reserved first", in, 0, 0);
	submit_held(e, &e->urb, held);
	drain(e, "then submitted", in, 2, 2);

	/* Flags: only the two wakeup bits. */
	put(e, &e->urb, 4, SUBMIT, NULL);
	in.flags = 4;
	drain(e, "flags 4", in, -EINVAL, 0);
	in.flags = 1ull << 32;
	drain(e, "flags 1 << 32", in, -EINVAL, 0);
	in.flags = BPF_RB_NO_WAKEUP | BPF_RB_FORCE_WAKEUP;
	drain(e, "both wakeup flags", in, 1, 1);
	in.flags = BPF_RB_FORCE_WAKEUP;
	drain(e, "force wakeup, empty", in, 0, 0);
	in.flags = BPF_RB_NO_WAKEUP;

	/* Writing into the sample, and draining it again from inside. */
	seen_clear(e);
	put(e, &e->urb, 16, SUBMIT, NULL);
	in.write = in.nest = 1;
	drain(e, "write and nest", in, 1, 1);
	seen_read(e, "write and nest", 0, &s);
	CHECK(s.nest_ret == -EBUSY, "nested drain %lld", (long long)s.nest_ret);
	/* bpf_dynptr_init(..., 0, size): the sample is writable. */
	CHECK(s.write_ret == 0, "write into the sample %lld",
	      (long long)s.write_ret);
	in.write = in.nest = 0;

	/* Samples of 1000 bytes until one has crossed the ring's end: its
	 * bytes still in order on both sides (the ring is mapped twice). */
	seen_clear(e);
	for (i = 0; i < 5; i++) {
		put(e, &e->urb, 1000, SUBMIT, NULL);
		drain(e, "1000 bytes", in, 1, 1);
		seen_read(e, "1000 bytes", 0, &s);
		CHECK(s.tail_ret == 0 && s.tail[7] == (uint8_t)(999 + 7000) &&
			      s.bytes[31] == (uint8_t)(31 + 7000),
		      "sample %u of 1000 bytes: tail %lld, last byte %u", i,
		      (long long)s.tail_ret, s.tail[7]);
	}
	/* A header longer than what was produced, then mended. */
	put(e, &e->urb, 8, HOLD, held);
	set_hdr(held, 64 | HR_RINGBUF_BUSY_BIT);
	submit_held(e, &e->urb, held);
	drain(e, "header past the producer", in, -EINVAL, 0);
	set_hdr(held, 8);
	drain(e, "header mended", in, 1, 1);
	drain(e, "empty again", in, 0, 0);
}

/* BPF_MAX_USER_RINGBUF_SAMPLES a drain, a discarded one among them. */
static void cases_cap(struct env *e)
{
	struct ur_case in = { .big = 1 };
	uint32_t i;

	put(e, &e->big, 0, DISCARD, NULL);
	for (i = 0; i < MAX_SAMPLES; i++)
		put(e, &e->big, 0, SUBMIT, NULL);
	drain(e, "the cap", in, MAX_SAMPLES - 1, MAX_SAMPLES - 1);
	drain(e, "past the cap", in, 1, 1);
	drain(e, "past the cap, empty", in, 0, 0);
}

/* A sample larger than DYNPTR_MAX_SIZE in a 32 MiB ring. */
static void cases_e2big(struct env *e)
{
	struct ur_case in = { .big = 1 };

	put(e, &e->big, 1u << 24, SUBMIT, NULL);
	drain(e, "a sample past a dynptr", in, -E2BIG, 0);
	drain(e, "still there", in, -E2BIG, 0);
}

struct waiter {
	struct hr_user_ringbuf *rb;
	int timeout, err;
	double ms;
};

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *wait_room(void *arg)
{
	struct waiter *w = arg;
	double t0 = now_ms();
	void *s;

	w->err = hr_user_ringbuf_reserve_blocking(w->rb, 56, w->timeout, &s);
	w->ms = now_ms() - t0;
	if (!w->err)
		hr_user_ringbuf_discard(w->rb, s);
	return NULL;
}

/*
 * headroom alone: a producer blocked on a full ring is woken by the
 * program's drain (flags 0), and not by one with BPF_RB_NO_WAKEUP, after
 * which it finds the room only when its timeout is up.
 */
static void wakeups(struct env *e)
{
	static const uint64_t flags[2] = { 0, BPF_RB_NO_WAKEUP };
	static uint8_t pkt[14 + sizeof(struct ur_case)];
	struct oracle_case c = { .obj = e->obj,
				 .prog = "xdp_user_ringbuf",
				 .data = pkt,
				 .size = sizeof(pkt) };
	static struct oracle_result hr;
	struct ur_case in = { .stop_after = 1 };
	struct hr_object *ho = oracle_headroom_object(e->o, e->obj);
	struct hr_map *m = ho ? hr_object_find_map(ho, "urb") : NULL;
	struct hr_ringbuf *rb = m ? m->priv : NULL;
	struct waiter w = { .rb = e->urb.h };
	pthread_t t;
	void *s;

	CHECK(rb != NULL, "urb's ring");
	if (!rb)
		return;

	for (int i = 0; i < 2; i++) {
		while (!hr_user_ringbuf_reserve(e->urb.h, 56, &s))
			hr_user_ringbuf_submit(e->urb.h, s);
		w.timeout = i ? 300 : 3000;
		pthread_create(&t, NULL, wait_room, &w);
		/* Until it waits (at most 5 s): no drain before. */
		for (int ms = 0;
		     ms < 5000 &&
		     !__atomic_load_n(&rb->waiters, __ATOMIC_SEQ_CST);
		     ms++)
			usleep(1000);
		in.flags = flags[i];
		memset(pkt, 0, sizeof(pkt));
		memcpy(pkt + 14, &in, sizeof(in));
		CHECK(oracle_run_headroom(e->o, &c, &hr) == 0 && hr.err == 0,
		      "%s: the drain that makes room", e->engine);
		pthread_join(t, NULL);
		CHECK(w.err == 0 && (i ? w.ms >= 280 : w.ms < 2500),
		      "%s: flags %llu: the producer got room after %.0f ms "
		      "(%d)",
		      e->engine, (unsigned long long)flags[i], w.ms, w.err);
		/* Empty again, for what follows. */
		in = (struct ur_case){ 0 };
		memcpy(pkt + 14, &in, sizeof(in));
		CHECK(oracle_run_headroom(e->o, &c, &hr) == 0, "emptied");
		in.stop_after = 1;
	}
}

/* Ring sizes as libbpf rounds them (adjust_ringbuf_sz), on both sides. */
static void sizes(struct env *e)
{
	static const struct {
		const char *map;
		uint32_t size;
	} want[] = { { "urb", 4096 }, { "urb_odd", 8192 }, { "rb_odd", 4096 } };
	struct hr_object *ho = oracle_headroom_object(e->o, e->obj);
	struct bpf_object *ko = e->kernel ? oracle_kernel_object(e->o, e->obj) :
					    NULL;
	struct hr_map *hm;
	struct bpf_map *km;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		hm = ho ? hr_object_find_map(ho, want[i].map) : NULL;
		CHECK(hm && hr_map_max_entries(hm) == want[i].size,
		      "%s: headroom's size %u, want %u", want[i].map,
		      hm ? hr_map_max_entries(hm) : 0, want[i].size);
		if (!e->kernel)
			continue;
		km = ko ? bpf_object__find_map_by_name(ko, want[i].map) : NULL;
		CHECK(km && bpf_map__max_entries(km) == want[i].size,
		      "%s: the kernel's size %u, want %u", want[i].map,
		      km ? bpf_map__max_entries(km) : 0, want[i].size);
	}
}

static void one_engine(int engine, const char *name, bool kernel,
		       unsigned int *compared)
{
	struct env e = { .kernel = kernel, .engine = name };
	unsigned int before = t_passed, alone;
	int ret = oracle_new(&e.o);

	CHECK(ret == 0, "oracle_new");
	if (ret)
		return;
	oracle_set_engine(e.o, engine);
	e.obj = OBJ;
	if (ring_open(&e, "urb", &e.urb) && ring_open(&e, "urb_big", &e.big)) {
		sizes(&e);
		cases_small(&e);
		e.tc = true;
		cases_small(&e);
		e.tc = false;
		alone = t_passed;
		wakeups(&e);
		before += t_passed - alone; /* headroom's alone */
		cases_cap(&e);
	}
	ring_close(&e.urb);
	ring_close(&e.big);
	e.obj = OBJ_BIG;
	if (ring_open(&e, "urb_big", &e.big))
		cases_e2big(&e);
	ring_close(&e.big);
	oracle_free(e.o);
	*compared += t_passed - before;
}

/*
 * headroom alone (the kernel refuses user_ringbuf_forged.o): a callback
 * that loads past its sample, stores into its const dynptr, submits it,
 * or keeps the sample's address to load from after the drain ends the
 * run there; the sample it had is consumed, and the next drain takes the
 * rest (the ring is not left busy, nothing of it left reachable).
 */
static void forged(void)
{
	static const int want[5] = { HR_ABORT_NONE, HR_ABORT_OOB_LOAD,
				     HR_ABORT_RDONLY, HR_ABORT_HELPER_ARG,
				     HR_ABORT_OOB_LOAD };
	HR_OPTS(hr_object_open_opts, oo);
	struct hr_user_ringbuf *rb = NULL;
	struct hr_object *obj = NULL;
	struct hr_prog *p = NULL;
	uint32_t retval;
	char path[512];
	void *s;
	int eng, sel, ab;

	t_prog_path("user_ringbuf_forged.o", path, sizeof(path));
	CHECK_EQ(hr_object_open(path, &oo, &obj), 0);
	if (obj) {
		p = hr_object_find_prog(obj, "user_ringbuf_forged");
		hr_user_ringbuf_new(hr_object_find_map(obj, "urb"), NULL, &rb);
	}
	CHECK(p && rb, "user_ringbuf_forged and its ring");
	for (eng = HR_ENGINE_INTERP; p && rb && eng <= HR_ENGINE_JIT_CHECKED;
	     eng++) {
		for (sel = 1; sel <= 4; sel++) {
			for (int i = 0; i < 2; i++)
				if (!hr_user_ringbuf_reserve(rb, 8, &s))
					hr_user_ringbuf_submit(rb, s);
			ab = t_run_selector(p, (uint8_t)sel, eng, NULL);
			CHECK(ab == want[sel], "engine %d selector %d: %s", eng,
			      sel, hr_abort_str(ab));
			ab = t_run_selector(p, 0, eng, &retval);
			CHECK(ab == HR_ABORT_NONE &&
				      retval == (sel == 4 ? 0 : 1),
			      "engine %d after selector %d: %s, %u drained",
			      eng, sel, hr_abort_str(ab), retval);
		}
	}
	hr_user_ringbuf_free(rb);
	hr_object_close(obj);
}

int main(void)
{
	static const struct {
		int engine;
		const char *name;
	} engines[] = { { HR_ENGINE_INTERP, "interp" },
			{ HR_ENGINE_JIT, "jit" },
			{ HR_ENGINE_JIT_CHECKED, "jit-checked" } };
	unsigned int compared = 0;
	char why[200];
	bool kernel = t_have_kernel(why, sizeof(why));

	forged();
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		one_engine(engines[i].engine, engines[i].name, kernel,
			   &compared);
	printf("%s: %u checks passed\n",
	       kernel ? "headroom and the kernel" : "headroom alone", compared);
	if (!kernel) {
		t_done();
		return t_skip(why);
	}
	return t_done();
}
