// SPDX-License-Identifier: MIT
/*
 * bench/engines: nanoseconds a run of three XDP programs under headroom's
 * interpreter and JIT (hr_prog_test_run in repeat mode), the same logic as
 * plain C called through a function pointer (the floor), the kernel
 * (BPF_PROG_TEST_RUN repeat mode on the same object, needs root) and,
 * when librte_bpf is installed, DPDK's rte_bpf interpreter and JIT
 * (loaded at run time with dlopen, so the build does not depend on it).
 *
 *   (a) XDP_DROP   (b) parse Eth/IPv4/UDP, DROP port 9 else PASS
 *   (c) read the three RX hints, write 16 bytes of metadata, PASS (on a
 *       device with hints in the standard layout, struct hr_rx_hints:
 *       headroom's engines and the floor only; the kernel cannot test-run
 *       a device-bound program, rte_bpf has no kfuncs)
 *   (c') (c) without the hints: the same program with each kfunc call
 *       replaced by a compiler barrier on its out variables (so the same
 *       stack variables, bpf_xdp_adjust_meta and 16-byte write), run as
 *       (c) is (data_meta reset each run): "(a) plus the metadata write",
 *       so that (c) - (c') is the hints' cost; issue 5's bar is <= 1 ns
 *   (d) swap MACs and XDP_TX
 *   (e) (b) plus a count per IPv4 source in a hash map (rte_bpf: no maps)
 *
 * Each figure is the median of RUNS measurements of REPEAT runs, with the
 * minimum and maximum. Usage: engines [--json] [--repeat N] [--runs N]
 */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include <headroom/object.h>
#include <headroom/test_run.h>

#include "progs/ctx.h"
#include "vm/engine.h"
#include "vm/isa.h"
#include "vm/jit.h"
#include "progs/prog.h"
#include "bench.h"

#define MAX_RUNS 31

/*
 * hr_*_call: the engine called in a loop on a prepared run, as DPDK's
 * rte_bpf_exec and the C floor are; hr_*_test_run and kernel: the
 * BPF_PROG_TEST_RUN repeat loop (per-run context set-up included).
 */
enum col {
	C_FLOOR,
	C_INTERP_CALL,
	C_JIT_CALL,
	C_DPDK_INTERP,
	C_DPDK_JIT,
	C_INTERP,
	C_JIT,
	C_KERNEL,
	C__MAX
};

static const char *const col_names[C__MAX] = {
	"C floor",  "hr interp call",	  "hr JIT call",     "DPDK interp",
	"DPDK JIT", "hr interp test_run", "hr JIT test_run", "kernel test_run",
};
static const char *const col_keys[C__MAX] = {
	"c_floor",  "hr_interp_call",	  "hr_jit_call",     "dpdk_interp",
	"dpdk_jit", "hr_interp_test_run", "hr_jit_test_run", "kernel_test_run",
};

struct stat {
	bool ok;
	double med, min, max;
	uint32_t ret;
};

/* What engine_loop runs a program on: a buff on the bench device. */
struct loop_env {
	struct hr_xdp_ctx c;
	struct hr_xdp_buff xdp;
	struct hr_rxq_info rxq;
};

struct bench {
	const char *key;
	const char *title;
	const char *obj;
	uint32_t expect;
	uint32_t (*floor)(void *ctx);
	int dpdk; /* index of its rte_bpf version, -1: none */
	bool hints; /* runs on a device with RX hints */
	bool no_kernel; /* the kernel cannot test-run it */
	/* Each call-loop run starts without metadata (data_meta reset),
	 * as a fresh buff has it. */
	bool reset_meta;
	/* headroom's JIT, prepared by engine_loop and kept for run_dpdk,
	 * which times it interleaved with rte_bpf's JIT. */
	hr_jit_fn jfn;
	struct hr_run *jrun;
	struct loop_env *jenv;
	uint8_t *jpage;
	/* The interpreter's, kept the same way for rte_bpf's interpreter. */
	struct hr_run *irun;
	struct loop_env *ienv;
	uint8_t *ipage;
	struct hr_object *iobj;
	struct hr_object *jobj;
	struct stat s[C__MAX];
	char note[C__MAX][96];
};

static unsigned int repeat = 1000000, runs = 7;
static uint8_t packet[64];

/* The floor: the programs' logic in C, on a struct xdp_md-like context
 * that holds real pointers. */
struct floor_ctx {
	uint8_t *data, *data_end;
	struct hr_xdp_buff *xdp; /* (c): the device's hints */
};

/* The bench device's hints: its RX descriptor in the standard layout,
 * read by the kfuncs through hr_xdp_std_meta_ops or run->rx_hints. */
static const struct hr_rx_hints bench_desc = {
	.timestamp = 1700000000123456789ull,
	.hash = 0x9e3779b9,
	.hash_type = 0x19,
	.vlan_proto = 0x0081,
	.vlan_tci = 42,
	.present = HR_RX_HINTS_ALL,
	.supported = HR_RX_HINTS_ALL,
};

__attribute__((noinline)) static uint32_t floor_drop(void *c)
{
	return XDP_DROP;
}

__attribute__((noinline)) static uint32_t floor_parse(void *c)
{
	struct floor_ctx *x = c;
	uint8_t *p = x->data, *end = x->data_end, *udp;
	unsigned int ihl;

	if (p + 14 > end || p[12] != 0x08 || p[13] != 0x00)
		return XDP_PASS;
	if (p + 34 > end)
		return XDP_PASS;
	ihl = p[14] & 15;
	if (ihl < 5 || p[23] != 17)
		return XDP_PASS;
	udp = p + 14 + ihl * 4;
	if (udp + 8 > end)
		return XDP_PASS;
	return udp[2] == 0 && udp[3] == 9 ? XDP_DROP : XDP_PASS;
}

/* (c) in C: the kfuncs' answers read from the descriptor, as the JIT
 * reads them, and the 16 bytes written in front of the packet. */
__attribute__((noinline)) static uint32_t floor_hints(void *c)
{
	struct floor_ctx *x = c;
	const struct hr_rx_hints *d = x->xdp->hints;
	uint32_t m[4] = { 0 }, h = 0, t = 0;
	uint64_t ts = 0;
	uint16_t p = 0, tci = 0;

	if (!hr_rx_hint_get(d, HR_RX_HINT_HASH)) {
		h = d->hash;
		t = d->hash_type;
	}
	if (!hr_rx_hint_get(d, HR_RX_HINT_TIMESTAMP))
		ts = d->timestamp;
	if (!hr_rx_hint_get(d, HR_RX_HINT_VLAN)) {
		p = d->vlan_proto;
		tci = d->vlan_tci;
	}
	m[0] = h;
	m[1] = t;
	m[2] = (uint32_t)ts;
	m[3] = tci | (uint32_t)p << 16;
	memcpy(x->data - 16, m, 16);
	return XDP_PASS;
}

/* (c') in C: the same 16-byte write, without reading the hints. */
__attribute__((noinline)) static uint32_t floor_meta(void *c)
{
	struct floor_ctx *x = c;
	static const uint32_t m[4] = { 0x9e3779b9, 0x19, 0x3d85cd15,
				       42 | 0x0081u << 16 };

	memcpy(x->data - 16, m, 16);
	return XDP_PASS;
}

/* (e)'s map in C: open addressing on the source address. */
static struct {
	uint32_t key;
	uint64_t cnt;
} floor_map[1024];

__attribute__((noinline)) static uint32_t floor_count(void *c)
{
	struct floor_ctx *x = c;
	uint8_t *p = x->data, *end = x->data_end;
	uint32_t src, i;

	if (p + 14 > end || p[12] != 0x08 || p[13] != 0x00)
		return XDP_PASS;
	if (p + 34 > end || (p[14] & 15) < 5)
		return XDP_PASS;
	memcpy(&src, p + 26, 4);
	for (i = src * 2654435761u % 1024;; i = (i + 1) % 1024) {
		if (floor_map[i].cnt && floor_map[i].key != src)
			continue;
		floor_map[i].key = src;
		floor_map[i].cnt++;
		break;
	}
	return floor_parse(c);
}

__attribute__((noinline)) static uint32_t floor_swap(void *c)
{
	struct floor_ctx *x = c;
	uint8_t tmp[6];

	if (x->data + 14 > x->data_end)
		return XDP_DROP;
	memcpy(tmp, x->data, 6);
	memcpy(x->data, x->data + 6, 6);
	memcpy(x->data + 6, tmp, 6);
	return XDP_TX;
}

static struct bench benches[] = {
	{ "drop", "(a) XDP_DROP", "bench_drop.o", XDP_DROP, floor_drop, 0 },
	{ "parse", "(b) parse, DROP udp/9", "bench_parse.o", XDP_DROP,
	  floor_parse, 1 },
	{ "hints", "(c) 3 hints, 16B meta", "bench_hints.o", XDP_PASS,
	  floor_hints, -1, true, true, true },
	{ "meta", "(c') (c) minus hints", "bench_meta.o", XDP_PASS, floor_meta,
	  -1, false, false, true },
	{ "swap", "(d) swap MACs, XDP_TX", "bench_swap.o", XDP_TX, floor_swap,
	  2 },
	{ "count", "(e) (b) + hash count", "bench_srccount.o", XDP_DROP,
	  floor_count, -1 },
};
#define NBENCH (sizeof(benches) / sizeof(benches[0]))

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void summarize(struct stat *s, double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), dbl_cmp);
	s->ok = true;
	s->min = v[0];
	s->max = v[n - 1];
	s->med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void build_packet(void)
{
	static const uint8_t hdr[] = {
		/* Ethernet */
		0x02,
		0,
		0,
		0,
		0,
		0x02,
		0x02,
		0,
		0,
		0,
		0,
		0x01,
		0x08,
		0x00,
		/* IPv4: 50 bytes, UDP, 10.0.0.1 -> 10.0.0.2 */
		0x45,
		0,
		0,
		50,
		0,
		0,
		0x40,
		0,
		64,
		17,
		0,
		0,
		10,
		0,
		0,
		1,
		10,
		0,
		0,
		2,
		/* UDP 1234 -> 9, 30 bytes */
		0x04,
		0xd2,
		0x00,
		0x09,
		0,
		30,
		0,
		0,
	};

	memset(packet, 0xab, sizeof(packet));
	memcpy(packet, hdr, sizeof(hdr));
}

static const char *progs_dir(void)
{
	static char dir[4096];
	const char *b = getenv("BUILD");

	snprintf(dir, sizeof(dir), "%s/progs", b && *b ? b : "build");
	return dir;
}

/*
 * Run r of every figure is timed with the stack moved by its own part of
 * a page. Where the stack falls modulo the page moves the interpreters'
 * figures by up to half (stack stores and the loads of packet, slots and
 * context that alias them in the low 12 address bits), and the kernel
 * places a process' stack at random within its page: with one placement
 * a process, a figure was a draw. The median over placements spread
 * across the page is the same from one process to the next.
 */
static size_t stack_shift(unsigned int r)
{
	return 16 + ((size_t)r * 4096 / runs & ~(size_t)15);
}

#define AT_SHIFT(r, stmt)                                      \
	do {                                                   \
		char pad_[stack_shift(r)];                     \
                                                               \
		__asm__ volatile("" : : "r"(pad_) : "memory"); \
		stmt;                                          \
	} while (0)

/* @repeat calls of the C floor; ns a call. */
__attribute__((noinline, aligned(64))) static double
time_floor(uint32_t (*volatile fn)(void *), struct floor_ctx *c, uint32_t *ret)
{
	uint32_t r0 = 0;
	unsigned int i;
	double t0;

	t0 = now_ns();
	for (i = 0; i < repeat; i++)
		r0 = fn(c);
	*ret = r0;
	return (now_ns() - t0) / repeat;
}

static void run_floor(struct bench *b)
{
	uint32_t (*volatile fn)(void *) = b->floor;
	struct floor_ctx c;
	uint8_t pkt[sizeof(packet)];
	double v[MAX_RUNS];
	uint32_t ret = 0;
	unsigned int r;

	static uint8_t frame[sizeof(packet) + 256];
	struct hr_rxq_info rxq = { .meta_supported = true,
				   .meta_ops = &hr_xdp_std_meta_ops };
	struct hr_xdp_buff xdp = { .rxq = &rxq, .hints = &bench_desc };

	(void)pkt;
	memcpy(frame + 256, packet, sizeof(packet));
	c.data = frame + 256;
	c.data_end = frame + 256 + sizeof(packet);
	c.xdp = &xdp;
	for (r = 0; r < runs; r++)
		AT_SHIFT(r, v[r] = time_floor(fn, &c, &ret));
	summarize(&b->s[C_FLOOR], v, runs);
	b->s[C_FLOOR].ret = ret;
}

/*
 * The timing loops are functions of their own, 64-byte aligned, so that
 * their code lies the same way in every build (the figures move with the
 * loops' alignment otherwise).
 *
 * @repeat runs of the program on a prepared run; ns a run. With
 * reset_meta each packet arrives without metadata: data_meta back at
 * data, as a fresh buff has it (three stores a run, in every column).
 */
__attribute__((noinline, aligned(64))) static double
time_loop(const struct bench *b, hr_jit_fn jfn, enum hr_engine eng,
	  struct hr_run *run, struct loop_env *env, uint64_t *ret)
{
	hr_jit_fn volatile fn = jfn;
	struct hr_xdp_ctx *c = &env->c;
	uint64_t r0 = 0;
	unsigned int i;
	double t0;

	t0 = now_ns();
	if (b->reset_meta) {
		for (i = 0; i < repeat; i++) {
			env->xdp.data_meta = env->xdp.data;
			c->md.data_meta = c->md.data;
			run->pkt_lo = (uintptr_t)env->xdp.data;
			r0 = fn ? fn((uintptr_t)&c->md, 0, run) :
				  hr_engine_run(eng, run, (uintptr_t)&c->md);
		}
	} else if (fn) {
		for (i = 0; i < repeat; i++)
			r0 = fn((uintptr_t)&c->md, 0, run);
	} else {
		for (i = 0; i < repeat; i++)
			r0 = hr_engine_run(eng, run, (uintptr_t)&c->md);
	}
	*ret = r0;
	return (now_ns() - t0) / repeat;
}

/*
 * What engine_loop maps for one program: the packet's frame, the buff
 * and context, the run, each at the start of its own pages, so that every
 * row (and every invocation) has the same layout modulo the page (the
 * figures move by nanoseconds with how these alias otherwise).
 */
#define LOOP_ENV_OFF 4096
#define LOOP_RUN_OFF 8192
#define LOOP_MEM \
	(LOOP_RUN_OFF + ((sizeof(struct hr_run) + 4095) & ~(size_t)4095))

/*
 * The engine alone: one prepared run (context, packet window, the bench
 * device's hints) and the program called @repeat times, as rte_bpf_exec
 * is. The packet sits below 4 GiB, where struct xdp_md's 32-bit data
 * fields are real addresses.
 */
static void engine_loop(struct bench *b, struct hr_prog *prog, enum col col,
			enum hr_engine eng)
{
	struct loop_env *env;
	struct hr_run *run;
	hr_jit_fn fn;
	double v[MAX_RUNS];
	unsigned int r;
	uint64_t ret = 0;
	uint8_t *page;

	page = mmap(NULL, LOOP_MEM, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (page == MAP_FAILED) {
		snprintf(b->note[col], sizeof(b->note[col]), "no memory");
		return;
	}
	env = (struct loop_env *)(page + LOOP_ENV_OFF);
	run = (struct hr_run *)(page + LOOP_RUN_OFF);
	memcpy(page + 256, packet, sizeof(packet));
	env->rxq.meta_supported = true;
	env->rxq.meta_ops = &hr_xdp_std_meta_ops;
	env->xdp.data_hard_start = page;
	env->xdp.data = page + 256;
	env->xdp.data_meta = page + 256;
	env->xdp.data_end = page + 256 + sizeof(packet);
	env->xdp.frame_sz = 4096;
	env->xdp.rxq = &env->rxq;
	env->xdp.hints = &bench_desc;
	env->c.xdp = &env->xdp;
	hr_prog_run_init(prog, run, &env->c.md);
	run->priv = &env->c;
	hr_xdp_ctx_sync(&env->c, run);
	hr_xdp_ctx_hints(&env->c, run);
	/* The JIT as the datapath calls it, and as rte_bpf's JIT is: one
	 * indirect call to the compiled code. */
	fn = eng == HR_ENGINE_JIT ? hr_jit_entry(&prog->vm) : NULL;
	for (r = 0; r < runs; r++) {
		AT_SHIFT(r, v[r] = time_loop(b, fn, eng, run, env, &ret));
		if (run->abort) {
			snprintf(b->note[col], sizeof(b->note[col]), "abort %s",
				 hr_abort_str(run->abort));
			goto out;
		}
	}
	summarize(&b->s[col], v, runs);
	b->s[col].ret = (uint32_t)ret;
	if (fn && (b->dpdk >= 0 || b->reset_meta)) {
		/* Kept for the interleaved comparisons: with rte_bpf's JIT
		 * (run_dpdk), (c) with (c') (run_pair). */
		b->jfn = fn;
		b->jrun = run;
		b->jenv = env;
		b->jpage = page;
		return;
	}
	if (eng == HR_ENGINE_INTERP && b->dpdk >= 0 && !b->reset_meta) {
		b->irun = run;
		b->ienv = env;
		b->ipage = page;
		return;
	}
out:
	munmap(page, LOOP_MEM);
}

static void run_headroom(struct bench *b, enum col col, enum hr_engine eng)
{
	struct hr_object_open_opts oo = { .sz = sizeof(oo) };
	struct hr_object *obj;
	struct hr_prog *prog;
	char path[4200], err[256] = "";
	uint8_t out[sizeof(packet) + 256];
	double v[MAX_RUNS], t0;
	unsigned int r;
	int ret;

	oo.errbuf = err;
	oo.errbuf_sz = sizeof(err);
	snprintf(path, sizeof(path), "%s/%s", progs_dir(), b->obj);
	ret = hr_object_open(path, &oo, &obj);
	if (ret) {
		snprintf(b->note[col], sizeof(b->note[col]), "open: %s", err);
		return;
	}
	prog = hr_object_find_prog(obj, NULL);
	if (b->reset_meta && prog) {
		snprintf(b->note[col], sizeof(b->note[col]), "%s",
			 b->hints ? "not run: a test run has no device with "
				    "hints" :
				    "not run: repeats reuse one buff, whose "
				    "data_meta moves on (the kernel's too)");
		engine_loop(b, prog, col == C_JIT ? C_JIT_CALL : C_INTERP_CALL,
			    eng);
		prog = NULL;
	}
	for (r = 0; r < runs && prog; r++) {
		struct hr_test_run_opts o = {
			.sz = sizeof(o),
			.data_in = packet,
			.data_size_in = sizeof(packet),
			.data_out = out,
			.data_size_out = sizeof(out),
			.repeat = repeat,
			.engine = eng,
		};

		AT_SHIFT(r, t0 = now_ns(); ret = hr_prog_test_run(prog, &o);
			 v[r] = (now_ns() - t0) / repeat);
		if (ret || o.abort) {
			snprintf(b->note[col], sizeof(b->note[col]),
				 "test run: %d, abort %s", ret,
				 hr_abort_str(o.abort));
			hr_object_close(obj);
			return;
		}
		b->s[col].ret = o.retval;
	}
	if (prog) {
		summarize(&b->s[col], v, runs);
		engine_loop(b, prog, col == C_JIT ? C_JIT_CALL : C_INTERP_CALL,
			    eng);
	}
	if (b->jfn && !b->jobj)
		b->jobj = obj; /* its code is in use until run_dpdk */
	else if (b->irun && !b->iobj)
		b->iobj = obj; /* the same for the interpreter's run */
	else
		hr_object_close(obj);
}

static void run_kernel_prog(struct bench *b);

static void run_kernel(struct bench *b)
{
	if (b->no_kernel) {
		snprintf(b->note[C_KERNEL], sizeof(b->note[0]),
			 "device-bound (hint kfuncs): the kernel cannot "
			 "test-run it");
		return;
	}
	if (b->reset_meta) {
		snprintf(b->note[C_KERNEL], sizeof(b->note[0]),
			 "not run: repeats reuse one buff, whose data_meta "
			 "moves on");
		return;
	}
	run_kernel_prog(b);
}

static void run_kernel_prog(struct bench *b)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	char path[4200];
	uint8_t out[sizeof(packet) + 256];
	double v[MAX_RUNS], t0;
	unsigned int r;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", progs_dir(), b->obj);
	obj = bpf_object__open_file(path, NULL);
	if (!obj || libbpf_get_error(obj)) {
		snprintf(b->note[C_KERNEL], sizeof(b->note[0]), "open failed");
		return;
	}
	ret = bpf_object__load(obj);
	if (ret) {
		snprintf(b->note[C_KERNEL], sizeof(b->note[0]),
			 "load: %s (root?)", strerror(-ret));
		bpf_object__close(obj);
		return;
	}
	prog = bpf_object__next_program(obj, NULL);
	fd = bpf_program__fd(prog);
	for (r = 0; r < runs; r++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = packet,
			    .data_size_in = sizeof(packet), .data_out = out,
			    .data_size_out = sizeof(out), .repeat = repeat);

		t0 = now_ns();
		ret = bpf_prog_test_run_opts(fd, &o);
		v[r] = (now_ns() - t0) / repeat;
		if (ret) {
			snprintf(b->note[C_KERNEL], sizeof(b->note[0]),
				 "test run: %s", strerror(errno));
			bpf_object__close(obj);
			return;
		}
		b->s[C_KERNEL].ret = o.retval;
	}
	summarize(&b->s[C_KERNEL], v, runs);
	bpf_object__close(obj);
}

/*
 * DPDK's rte_bpf, through dlopen: the few declarations it needs, from
 * rte_bpf.h (DPDK 22.11). rte_bpf runs the program with r1 = the packet.
 */
struct dpdk_prm {
	const struct hr_insn *ins;
	uint32_t nb_ins;
	const void *xsym;
	uint32_t nb_xsym;
	struct {
		int type; /* enum rte_bpf_arg_type */
		size_t size;
		size_t buf_size;
	} prog_arg;
};

struct dpdk_jit {
	uint64_t (*func)(void *);
	size_t sz;
};

struct dpdk_api {
	void *(*load)(const struct dpdk_prm *prm);
	void (*destroy)(void *bpf);
	uint64_t (*exec)(const void *bpf, void *ctx);
	int (*get_jit)(const void *bpf, struct dpdk_jit *jit);
};

static bool dpdk_open(struct dpdk_api *api, char *why, size_t whysz)
{
	static const char *const names[] = { "librte_bpf.so",
					     "librte_bpf.so.23",
					     "librte_bpf.so.24" };
	void *h = NULL;
	unsigned int i;

	for (i = 0; i < 3 && !h; i++)
		h = dlopen(names[i], RTLD_NOW);
	if (!h) {
		snprintf(why, whysz, "librte_bpf not installed");
		return false;
	}
	api->load =
		(void *(*)(const struct dpdk_prm *))dlsym(h, "rte_bpf_load");
	api->destroy = (void (*)(void *))dlsym(h, "rte_bpf_destroy");
	api->exec = (uint64_t(*)(const void *, void *))dlsym(h, "rte_bpf_exec");
	api->get_jit = (int (*)(const void *,
				struct dpdk_jit *))dlsym(h, "rte_bpf_get_jit");
	if (!api->load || !api->exec || !api->get_jit || !api->destroy) {
		snprintf(why, whysz, "librte_bpf lacks its API");
		return false;
	}
	return true;
}

/* The three programs written for rte_bpf: r1 is the packet (64 bytes,
 * so no bounds to check: rte_bpf has no data_end). */
static const struct hr_insn dpdk_drop[] = {
	{ .code = HR_ALU64 | HR_MOV | HR_K, .dst = 0, .imm = XDP_DROP },
	{ .code = HR_JMP | HR_EXIT },
};
static const struct hr_insn dpdk_parse[] = {
	{ .code = HR_ALU64 | HR_MOV | HR_K, .dst = 0, .imm = XDP_PASS },
	{ .code = HR_LDX | HR_MEM | HR_H, .dst = 2, .src = 1, .off = 12 },
	{ .code = HR_JMP | HR_JNE | HR_K, .dst = 2, .off = 9, .imm = 0x0008 },
	{ .code = HR_LDX | HR_MEM | HR_B, .dst = 2, .src = 1, .off = 23 },
	{ .code = HR_JMP | HR_JNE | HR_K, .dst = 2, .off = 7, .imm = 17 },
	{ .code = HR_LDX | HR_MEM | HR_B, .dst = 3, .src = 1, .off = 14 },
	{ .code = HR_ALU64 | HR_AND | HR_K, .dst = 3, .imm = 15 },
	{ .code = HR_JMP | HR_JLT | HR_K, .dst = 3, .off = 4, .imm = 5 },
	{ .code = HR_ALU64 | HR_LSH | HR_K, .dst = 3, .imm = 2 },
	{ .code = HR_ALU64 | HR_ADD | HR_X, .dst = 1, .src = 3 },
	{ .code = HR_LDX | HR_MEM | HR_H, .dst = 2, .src = 1, .off = 16 },
	{ .code = HR_JMP | HR_JNE | HR_K, .dst = 2, .off = 1, .imm = 0x0900 },
	{ .code = HR_ALU64 | HR_MOV | HR_K, .dst = 0, .imm = XDP_DROP },
	{ .code = HR_JMP | HR_EXIT },
};
static const struct hr_insn dpdk_swap[] = {
	{ .code = HR_LDX | HR_MEM | HR_W, .dst = 2, .src = 1, .off = 0 },
	{ .code = HR_LDX | HR_MEM | HR_H, .dst = 3, .src = 1, .off = 4 },
	{ .code = HR_LDX | HR_MEM | HR_W, .dst = 4, .src = 1, .off = 6 },
	{ .code = HR_LDX | HR_MEM | HR_H, .dst = 5, .src = 1, .off = 10 },
	{ .code = HR_STX | HR_MEM | HR_W, .dst = 1, .src = 4, .off = 0 },
	{ .code = HR_STX | HR_MEM | HR_H, .dst = 1, .src = 5, .off = 4 },
	{ .code = HR_STX | HR_MEM | HR_W, .dst = 1, .src = 2, .off = 6 },
	{ .code = HR_STX | HR_MEM | HR_H, .dst = 1, .src = 3, .off = 10 },
	{ .code = HR_ALU64 | HR_MOV | HR_K, .dst = 0, .imm = XDP_TX },
	{ .code = HR_JMP | HR_EXIT },
};

/* @repeat runs of rte_bpf's interpreter on @pkt; ns a run. */
__attribute__((noinline, aligned(64))) static double
time_dpdk_interp(uint64_t (*exec)(const void *, void *), void *bpf,
		 uint8_t *pkt, uint64_t *ret)
{
	uint64_t r0 = 0;
	unsigned int i;
	double t0;

	t0 = now_ns();
	for (i = 0; i < repeat; i++)
		r0 = exec(bpf, pkt);
	*ret = r0;
	return (now_ns() - t0) / repeat;
}

/* @repeat runs of rte_bpf's JIT code on @pkt; ns a run. */
__attribute__((noinline, aligned(64))) static double
time_dpdk(uint64_t (*jfn)(void *), uint8_t *pkt, uint64_t *ret)
{
	uint64_t (*volatile fn)(void *) = jfn;
	uint64_t r0 = 0;
	unsigned int i;
	double t0;

	t0 = now_ns();
	for (i = 0; i < repeat; i++)
		r0 = fn(pkt);
	*ret = r0;
	return (now_ns() - t0) / repeat;
}

static void run_dpdk(struct bench *b, unsigned int idx)
{
	static const struct {
		const struct hr_insn *ins;
		uint32_t n;
	} progs[] = {
		{ dpdk_drop, sizeof(dpdk_drop) / sizeof(dpdk_drop[0]) },
		{ dpdk_parse, sizeof(dpdk_parse) / sizeof(dpdk_parse[0]) },
		{ dpdk_swap, sizeof(dpdk_swap) / sizeof(dpdk_swap[0]) },
	};
	struct dpdk_prm prm = { 0 };
	/* rte_bpf's verifier wants the parse's widest reach (IHL 15) in
	 * bounds: 128 bytes. */
	uint8_t pkt[128] = { 0 };
	struct dpdk_api api;
	struct dpdk_jit jit = { 0 };
	double v[MAX_RUNS];
	uint64_t (*volatile fn)(void *);
	hr_jit_fn volatile hfn;
	double w[MAX_RUNS];
	unsigned int k;
	uint64_t ret = 0, hret = 0;
	unsigned int r;
	void *bpf;

	if (idx > 2) {
		snprintf(b->note[C_DPDK_JIT], sizeof(b->note[0]),
			 "rte_bpf has no maps, kfuncs or XDP helpers");
		strcpy(b->note[C_DPDK_INTERP], b->note[C_DPDK_JIT]);
		return;
	}
	prm.ins = progs[idx].ins;
	prm.nb_ins = progs[idx].n;
	if (!dpdk_open(&api, b->note[C_DPDK_JIT], sizeof(b->note[0]))) {
		strcpy(b->note[C_DPDK_INTERP], b->note[C_DPDK_JIT]);
		return;
	}
	prm.prog_arg.type = 0x10; /* RTE_BPF_ARG_PTR */
	prm.prog_arg.size = sizeof(pkt);
	bpf = api.load(&prm);
	if (!bpf) {
		snprintf(b->note[C_DPDK_JIT], sizeof(b->note[0]),
			 "rte_bpf_load failed");
		return;
	}
	memcpy(pkt, packet, sizeof(packet));
	/* headroom's interpreter in the same time window, run for run, which
	 * of the two goes first alternating (as for the JITs below). */
	for (r = 0; r < runs; r++) {
		for (k = 0; k < 2; k++) {
			if ((k ^ r) & 1) {
				if (b->irun)
					AT_SHIFT(r, w[r] = time_loop(
							    b, NULL,
							    HR_ENGINE_INTERP,
							    b->irun, b->ienv,
							    &hret));
				continue;
			}
			AT_SHIFT(r, v[r] = time_dpdk_interp(api.exec, bpf, pkt,
							    &ret));
		}
	}
	summarize(&b->s[C_DPDK_INTERP], v, runs);
	b->s[C_DPDK_INTERP].ret = (uint32_t)ret;
	if (b->irun && !b->irun->abort) {
		summarize(&b->s[C_INTERP_CALL], w, runs);
		b->s[C_INTERP_CALL].ret = (uint32_t)hret;
	}
	if (api.get_jit(bpf, &jit) || !jit.func) {
		snprintf(b->note[C_DPDK_JIT], sizeof(b->note[0]), "no JIT");
		api.destroy(bpf);
		return;
	}
	fn = jit.func;
	hfn = b->jfn;
	/* headroom's JIT in the same time window, run for run, which of
	 * the two goes first alternating. */
	for (r = 0; r < runs; r++) {
		for (k = 0; k < 2; k++) {
			if ((k ^ r) & 1) {
				if (hfn)
					AT_SHIFT(r,
						 w[r] = time_loop(
							 b, hfn, HR_ENGINE_JIT,
							 b->jrun, b->jenv,
							 &hret));
				continue;
			}
			AT_SHIFT(r, v[r] = time_dpdk(fn, pkt, &ret));
		}
	}
	summarize(&b->s[C_DPDK_JIT], v, runs);
	b->s[C_DPDK_JIT].ret = (uint32_t)ret;
	if (hfn) {
		summarize(&b->s[C_JIT_CALL], w, runs);
		b->s[C_JIT_CALL].ret = (uint32_t)hret;
	}
	api.destroy(bpf);
}

static struct bench *find_bench(const char *key)
{
	unsigned int i;

	for (i = 0; i < NBENCH; i++)
		if (!strcmp(benches[i].key, key))
			return &benches[i];
	return NULL;
}

/*
 * (c) and (c') under the JIT, run for run in the same time window, which
 * of the two goes first alternating, so that their difference is not the
 * machine's drift between rows: both rows' hr JIT call figures are these.
 */
static void run_pair(void)
{
	struct bench *b[2] = { find_bench("hints"), find_bench("meta") };
	double v[2][MAX_RUNS];
	uint64_t ret[2] = { 0, 0 };
	unsigned int r, k, x;

	if (!b[0] || !b[1] || !b[0]->jfn || !b[1]->jfn)
		return;
	for (r = 0; r < runs; r++) {
		for (k = 0; k < 2; k++) {
			x = k ^ (r & 1);
			AT_SHIFT(r, v[x][r] = time_loop(
					    b[x], b[x]->jfn, HR_ENGINE_JIT,
					    b[x]->jrun, b[x]->jenv, &ret[x]));
			if (b[x]->jrun->abort)
				return;
		}
	}
	for (k = 0; k < 2; k++) {
		summarize(&b[k]->s[C_JIT_CALL], v[k], runs);
		b[k]->s[C_JIT_CALL].ret = (uint32_t)ret[k];
	}
}

/* (c) - (c') in column @c, or NAN when either is missing. */
static double minus_meta(enum col c)
{
	const struct bench *h = find_bench("hints"), *m = find_bench("meta");

	if (!h || !m || !h->s[c].ok || !m->s[c].ok)
		return NAN;
	return h->s[c].med - m->s[c].med;
}

#define HINTS_BAR_NS 1.0

static void print_table(void)
{
	unsigned int i, c;

	printf("ns a run: median [min..max] of %u runs x %u repeats\n", runs,
	       repeat);
	printf("%-22s", "program");
	for (c = 0; c < C__MAX; c++)
		printf(" %19s", col_names[c]);
	printf(" %10s %10s %10s %10s\n", "JIT/DPDK", "int/DPDK", "JIT/floor",
	       "tr/kernel");
	for (i = 0; i < NBENCH; i++) {
		struct bench *b = &benches[i];
		char cell[64];

		printf("%-22s", b->title);
		for (c = 0; c < C__MAX; c++) {
			const struct stat *s = &b->s[c];

			if (s->ok)
				snprintf(cell, sizeof(cell),
					 "%.2f [%.2f..%.2f]", s->med, s->min,
					 s->max);
			else
				snprintf(cell, sizeof(cell), "-");
			printf(" %19s", cell);
		}
#define RATIO(x, y) (b->s[x].ok && b->s[y].ok ? b->s[x].med / b->s[y].med : 0.0)
		printf(" %10.2f %10.2f %10.2f %10.2f\n",
		       RATIO(C_JIT_CALL, C_DPDK_JIT),
		       RATIO(C_INTERP_CALL, C_DPDK_INTERP),
		       RATIO(C_JIT_CALL, C_FLOOR), RATIO(C_JIT, C_KERNEL));
		for (c = 0; c < C__MAX; c++) {
			if (b->note[c][0])
				printf("    %s: %s\n", col_names[c],
				       b->note[c]);
			else if (b->s[c].ok && b->s[c].ret != b->expect)
				printf("    %s: returned %u, expected %u\n",
				       col_names[c], b->s[c].ret, b->expect);
		}
	}
	printf("hr JIT call: the compiled code called through one pointer "
	       "(hr_jit_entry), as DPDK's JIT is, timed run for run with it "
	       "where rte_bpf runs the program; hr interp call likewise with "
	       "DPDK's interpreter.\n");
	printf("(c) - (c'): the hints' cost (the three kfuncs and the out "
	       "variables the program keeps on its stack): hr JIT call %.2f "
	       "ns (timed run for run), hr interp call %.2f ns, C floor %.2f "
	       "ns.\n    issue 5's bar: (c) within %.0f ns of (a) plus the "
	       "metadata write, i.e. hr JIT call (c) - (c') <= %.0f ns: %s\n",
	       minus_meta(C_JIT_CALL), minus_meta(C_INTERP_CALL),
	       minus_meta(C_FLOOR), HINTS_BAR_NS, HINTS_BAR_NS,
	       isnan(minus_meta(C_JIT_CALL))	      ? "not measured" :
	       minus_meta(C_JIT_CALL) <= HINTS_BAR_NS ? "met" :
							"not met");
}

static void print_json(void)
{
	unsigned int i, c;

	printf("{\"repeat\": %u, \"runs\": %u, \"programs\": [", repeat, runs);
	for (i = 0; i < NBENCH; i++) {
		struct bench *b = &benches[i];
		bool first = true;

		printf("%s\n  {\"name\": \"%s\", \"ns\": {", i ? "," : "",
		       b->key);
		for (c = 0; c < C__MAX; c++) {
			const struct stat *s = &b->s[c];

			if (!s->ok)
				continue;
			printf("%s\"%s\": {\"median\": %.3f, \"min\": %.3f, "
			       "\"max\": %.3f, \"ret\": %u}",
			       first ? "" : ", ", col_keys[c], s->med, s->min,
			       s->max, s->ret);
			first = false;
		}
		printf("}, \"jit_call_over_dpdk_jit\": %.3f, "
		       "\"interp_call_over_dpdk_interp\": %.3f, "
		       "\"jit_call_over_floor\": %.3f, "
		       "\"jit_test_run_over_kernel\": %.3f",
		       RATIO(C_JIT_CALL, C_DPDK_JIT),
		       RATIO(C_INTERP_CALL, C_DPDK_INTERP),
		       RATIO(C_JIT_CALL, C_FLOOR), RATIO(C_JIT, C_KERNEL));
		if (!strcmp(b->key, "hints")) {
			/* (c) - (c'), and the bar for the JIT's figure. */
			first = true;
			printf(", \"minus_meta_ns\": {");
			for (c = 0; c < C__MAX; c++) {
				if (isnan(minus_meta((enum col)c)))
					continue;
				printf("%s\"%s\": %.3f", first ? "" : ", ",
				       col_keys[c], minus_meta((enum col)c));
				first = false;
			}
			printf("}, \"minus_meta_bar_ns\": %.1f", HINTS_BAR_NS);
		}
		printf("}");
	}
	printf("\n]}\n");
}

int main(int argc, char **argv)
{
	bool json = false;
	unsigned int i;
	int a;
	bench_begin();

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--json")) {
			json = true;
		} else if (!strcmp(argv[a], "--repeat") && a + 1 < argc) {
			repeat = (unsigned int)strtoul(argv[++a], NULL, 0);
		} else if (!strcmp(argv[a], "--runs") && a + 1 < argc) {
			runs = (unsigned int)strtoul(argv[++a], NULL, 0);
		} else {
			fprintf(stderr,
				"usage: %s [--json] [--repeat N] [--runs N]\n",
				argv[0]);
			return 2;
		}
	}
	if (runs < 1 || runs > MAX_RUNS || repeat < 1) {
		fprintf(stderr, "runs must be 1..%d, repeat at least 1\n",
			MAX_RUNS);
		return 2;
	}
	libbpf_set_print(NULL);
	build_packet();
	for (i = 0; i < NBENCH; i++) {
		run_floor(&benches[i]);
		run_headroom(&benches[i], C_INTERP, HR_ENGINE_INTERP);
		run_headroom(&benches[i], C_JIT, HR_ENGINE_JIT);
		run_kernel(&benches[i]);
		run_dpdk(&benches[i], benches[i].dpdk < 0 ?
					      99 :
					      (unsigned int)benches[i].dpdk);
	}
	run_pair();
	if (json)
		print_json();
	else
		print_table();
	for (i = 0; i < NBENCH; i++) {
		struct bench *b = &benches[i];

		if (b->jpage)
			munmap(b->jpage, LOOP_MEM);
		if (b->jobj)
			hr_object_close(b->jobj);
		if (b->ipage)
			munmap(b->ipage, LOOP_MEM);
		if (b->iobj)
			hr_object_close(b->iobj);
	}
	return 0;
}
