// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: instruction streams under every engine, compared.
 *
 * Input: a 4-byte header, then the packet, then 8-byte instructions.
 *   byte 0  bit 0: tc (else XDP); bit 1: a bpf_loop prologue whose
 *           callback calls down a chain of bpf-to-bpf functions and
 *           aborts at the bottom; bit 2: the program itself goes into
 *           slot 2 of its type's PROG_ARRAY (tail calls into itself)
 *   byte 1  packet length - 14 (the packet bytes follow the header)
 *   byte 2  low nibble: bpf_loop iterations; high: the iteration that
 *           aborts (none when it is past the count)
 *   byte 3  low 2 bits: call chain depth - 1 below the callback; high
 *           nibble seeds the array map's starting values
 * An lddw with src 1 or 2 names a map by its imm (array, hash, the XDP
 * PROG_ARRAY, the tc one), patched to the real map, as the loader does.
 * HR_FUZZ_SAME_TYPE_TAILS=1 gives each program its own type's PROG_ARRAY
 * only (it was used to fuzz past a cross-type tail-call bug, since fixed).
 *
 * The program is made runnable as a loaded one is (hr_prog_finalize: the
 * ISA checker, helper resolution through the program type, the context
 * rules and proofs), with the real helpers, a real ARRAY and HASH map and
 * two PROG_ARRAYs holding XDP and tc programs (and a refused attempt to
 * mix them). It then runs under the interpreter, the JIT and the checked
 * JIT on the same frame, run and maps, each from the same starting state:
 * the JITs each in a child forked just before, the interpreter after them
 * in the harness itself, so that every engine starts from the very same
 * memory at the very same addresses (a hash map's elements move when it
 * is refilled, and a program may return or store their addresses); a
 * child that dies is a crash of the harness too. r0, the abort reason, pc and address, the call depth, the packet
 * window, every frame byte and every map entry must agree, or the harness
 * aborts (a crash for libFuzzer).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "progs/ctx.h"
#include "vm/disasm.h"
#include "vm/engine.h"
#include "vm/jit.h"
#include "progs/prog.h"
#include "progs/prog_registry.h"
#include "core/pool.h"
#include "maps/map.h"
#include <headroom/map.h>
#include <headroom/test_run.h>

#define HDR 4
#define MAX_BODY 256
#define MAX_CHAIN 4
#define ARR_ENTRIES 4
#define HASH_ENTRIES 8
#define VAL_SIZE 16
#define HEADROOM 256

enum { M_ARRAY, M_HASH, M_PA_XDP, M_PA_TC, NMAPS };

static const enum hr_engine engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
					  HR_ENGINE_JIT_CHECKED };
static const char *const engine_names[] = { "interp", "jit", "jit-checked" };
#define NENGINES (sizeof(engines) / sizeof(engines[0]))

static struct hr_object obj;
static struct hr_map *maps[NMAPS];
static struct hr_run *run;
static bool same_type_tails;
static uint8_t *frame; /* below 4 GiB: the contexts' 32-bit fields */

struct snapshot {
	uint64_t r0;
	int abort;
	uint32_t abort_pc;
	uint64_t abort_addr;
	unsigned int depth;
	uint32_t data_off, data_end_off;
	uint8_t frame[HR_FRAME_SIZE];
	uint8_t array[ARR_ENTRIES][VAL_SIZE];
	uint32_t nhash;
	struct {
		uint32_t key;
		uint8_t val[VAL_SIZE];
	} hash[HASH_ENTRIES];
};

static struct hr_insn insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off,
			   int32_t imm)
{
	struct hr_insn i = {
		.code = code, .dst = dst, .src = src, .off = off, .imm = imm
	};

	return i;
}

static struct hr_insn mov_k(uint8_t dst, int32_t imm)
{
	return insn(HR_ALU64 | HR_MOV | HR_K, dst, 0, 0, imm);
}

static struct hr_insn exit_insn(void)
{
	return insn(HR_JMP | HR_EXIT, 0, 0, 0, 0);
}

/* A program of @type made runnable as the loader makes one, or NULL. */
static struct hr_prog *make_prog(const struct hr_prog_type *type,
				 const struct hr_insn *insns, uint32_t cnt)
{
	struct hr_prog *p = calloc(1, sizeof(*p));
	char err[256];

	if (!p)
		return NULL;
	p->insns = malloc(cnt * sizeof(*insns));
	p->name = strdup("fuzz");
	p->sec = strdup(type == &hr_prog_type_tc ? "tc" : "xdp");
	if (!p->insns || !p->name || !p->sec) {
		hr_prog_free(p);
		return NULL;
	}
	memcpy(p->insns, insns, cnt * sizeof(*insns));
	p->cnt = cnt;
	p->type = type;
	p->expected_attach = 0;
	p->obj = &obj;
	if (hr_prog_finalize(p, err, sizeof(err))) {
		if (getenv("FUZZ_DEBUG"))
			fprintf(stderr, "fuzz_insns: not loaded: %s\n", err);
		hr_prog_free(p);
		return NULL;
	}
	return p;
}

static void put_prog(struct hr_map *pa, uint32_t slot, struct hr_prog *p)
{
	uint32_t fd;

	if (!p)
		return;
	fd = (uint32_t)hr_prog_fd(p);
	/* The PROG_ARRAY may refuse it (another type): that is the rule
	 * under test elsewhere; here it just stays out. */
	hr_map_update_elem(pa, &slot, &fd, 0);
}

/* Tail-call targets: one writes the packet and returns, one aborts. */
static void fill_prog_arrays(void)
{
	const struct hr_insn writer[] = {
		/* r2 = data, r3 = data_end: the first byte becomes 0x5a */
		insn(HR_LDX | HR_MEM | HR_W, 2, 1, 0, 0),
		insn(HR_LDX | HR_MEM | HR_W, 3, 1, 4, 0),
		mov_k(4, 0),
		insn(HR_ALU64 | HR_MOV | HR_X, 5, 2, 0, 0),
		insn(HR_ALU64 | HR_ADD | HR_K, 5, 0, 0, 1),
		insn(HR_JMP | HR_JGT | HR_X, 5, 3, 1, 0),
		insn(HR_ST | HR_MEM | HR_B, 2, 0, 0, 0x5a),
		mov_k(0, 3),
		exit_insn(),
	};
	const struct hr_insn aborter[] = {
		mov_k(1, 0),
		insn(HR_LDX | HR_MEM | HR_B, 0, 1, 0, 0),
		exit_insn(),
	};
	const struct hr_insn tc_writer[] = {
		/* __sk_buff data and data_end are at 76 and 80 */
		insn(HR_LDX | HR_MEM | HR_W, 2, 1, 76, 0),
		insn(HR_LDX | HR_MEM | HR_W, 3, 1, 80, 0),
		insn(HR_ALU64 | HR_MOV | HR_X, 5, 2, 0, 0),
		insn(HR_ALU64 | HR_ADD | HR_K, 5, 0, 0, 1),
		insn(HR_JMP | HR_JGT | HR_X, 5, 3, 1, 0),
		insn(HR_ST | HR_MEM | HR_B, 2, 0, 0, 0xa5),
		mov_k(0, 2),
		exit_insn(),
	};
	struct hr_prog *xw = make_prog(&hr_prog_type_xdp, writer, 9);
	struct hr_prog *xa = make_prog(&hr_prog_type_xdp, aborter, 3);
	struct hr_prog *tw = make_prog(&hr_prog_type_tc, tc_writer, 8);
	struct hr_prog *ta = make_prog(&hr_prog_type_tc, aborter, 3);

	put_prog(maps[M_PA_XDP], 0, xw);
	put_prog(maps[M_PA_XDP], 1, xa);
	put_prog(maps[M_PA_XDP], 3, tw); /* refused: another type */
	put_prog(maps[M_PA_TC], 0, tw);
	put_prog(maps[M_PA_TC], 1, ta);
	put_prog(maps[M_PA_TC], 3, xw); /* refused */
}

static void setup(void)
{
	static const struct hr_map_attr attrs[NMAPS] = {
		{ .type = BPF_MAP_TYPE_ARRAY,
		  .key_size = 4,
		  .value_size = VAL_SIZE,
		  .max_entries = ARR_ENTRIES,
		  .name = "arr" },
		{ .type = BPF_MAP_TYPE_HASH,
		  .key_size = 4,
		  .value_size = VAL_SIZE,
		  .max_entries = HASH_ENTRIES,
		  .name = "hash" },
		{ .type = BPF_MAP_TYPE_PROG_ARRAY,
		  .key_size = 4,
		  .value_size = 4,
		  .max_entries = 4,
		  .name = "pa_xdp" },
		{ .type = BPF_MAP_TYPE_PROG_ARRAY,
		  .key_size = 4,
		  .value_size = 4,
		  .max_entries = 4,
		  .name = "pa_tc" },
	};
	unsigned int i;

	for (i = 0; i < NMAPS; i++) {
		struct hr_map_attr a = attrs[i];

		a.ncpus = 1;
		if (hr_map_create(&a, &maps[i])) {
			fprintf(stderr, "fuzz_insns: map %u: cannot create\n",
				i);
			abort();
		}
	}
	obj.maps = maps;
	obj.nmaps = NMAPS;
	obj.ncpus = 1;
	if (hr_object_build_regions(&obj))
		abort();
	frame = mmap(NULL, HR_FRAME_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	run = aligned_alloc(64, (sizeof(*run) + 63) & ~(size_t)63);
	if (frame == MAP_FAILED || !run)
		abort();
	fill_prog_arrays();
	same_type_tails = getenv("HR_FUZZ_SAME_TYPE_TAILS") &&
			  !strcmp(getenv("HR_FUZZ_SAME_TYPE_TAILS"), "1");
}

/* The maps' starting contents for one input, the same before each run. */
static void reset_maps(uint8_t seed)
{
	uint8_t val[VAL_SIZE];
	uint32_t k, next;

	for (k = 0; k < ARR_ENTRIES; k++) {
		memset(val, seed + k, sizeof(val));
		hr_map_update_elem(maps[M_ARRAY], &k, val, 0);
	}
	while (hr_map_get_next_key(maps[M_HASH], NULL, &next) == 0)
		if (hr_map_delete_elem(maps[M_HASH], &next))
			abort();
	for (k = 0; k < 3; k++) {
		memset(val, seed ^ k, sizeof(val));
		next = k * 7;
		hr_map_update_elem(maps[M_HASH], &next, val, 0);
	}
}

static void snap_maps(struct snapshot *s)
{
	uint32_t k, next, n = 0, i;
	const void *prev = NULL;

	for (k = 0; k < ARR_ENTRIES; k++)
		hr_map_lookup_elem(maps[M_ARRAY], &k, s->array[k]);
	memset(s->hash, 0, sizeof(s->hash));
	while (n < HASH_ENTRIES &&
	       hr_map_get_next_key(maps[M_HASH], prev, &next) == 0) {
		s->hash[n].key = next;
		hr_map_lookup_elem(maps[M_HASH], &next, s->hash[n].val);
		k = next;
		prev = &k;
		n++;
	}
	/* Sorted by key: the walk order is the table's, not the run's. */
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && s->hash[k - 1].key > s->hash[k].key; k--) {
			typeof(s->hash[0]) t = s->hash[k];

			s->hash[k] = s->hash[k - 1];
			s->hash[k - 1] = t;
		}
	s->nhash = n;
}

static void run_one(struct hr_prog *prog, bool tc, const uint8_t *pkt,
		    uint32_t len, enum hr_engine eng, struct snapshot *s)
{
	struct hr_xdp_buff xdp;
	struct hr_xdp_ctx xc;
	struct hr_tc_ctx tcc;

	memset(frame, 0, HR_FRAME_SIZE);
	memcpy(frame + HEADROOM, pkt, len);
	if (tc) {
		memset(&tcc, 0, sizeof(tcc));
		tcc.head = frame;
		tcc.data = frame + HEADROOM;
		tcc.data_end = tcc.data + len;
		tcc.frame_sz = HR_FRAME_SIZE;
		tcc.skb.ifindex = 1;
		tcc.skb.wire_len = len;
		memcpy(&tcc.skb.protocol, pkt + 12, 2);
		hr_prog_run_init(prog, run, &tcc.skb);
		run->priv = &tcc;
		hr_tc_ctx_sync(&tcc, run);
	} else {
		memset(&xdp, 0, sizeof(xdp));
		memset(&xc, 0, sizeof(xc));
		xdp.data_hard_start = frame;
		xdp.data = frame + HEADROOM;
		xdp.data_meta = xdp.data;
		xdp.data_end = (uint8_t *)xdp.data + len;
		xdp.frame_sz = HR_FRAME_SIZE;
		xc.xdp = &xdp;
		hr_prog_run_init(prog, run, &xc.md);
		run->priv = &xc;
		hr_xdp_ctx_sync(&xc, run);
	}
	/* Enough for every loop the header can ask for, small enough that a
	 * program looping on its own ends soon. */
	run->budget = 1 << 16;
	s->r0 = hr_engine_run_ctx(eng, run);
	s->abort = run->abort;
	s->abort_pc = run->abort_pc;
	s->abort_addr = run->abort_addr;
	s->depth = run->depth;
	s->data_off =
		(uint32_t)(tc ? tcc.data - frame : (uint8_t *)xdp.data - frame);
	s->data_end_off = (uint32_t)(tc ? tcc.data_end - frame :
					  (uint8_t *)xdp.data_end - frame);
	memcpy(s->frame, frame, HR_FRAME_SIZE);
	snap_maps(s);
}

/* Helpers whose answer changes between two runs of the same input. */
static bool nondeterministic(int32_t id)
{
	switch (id) {
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_get_prandom_u32:
	case BPF_FUNC_jiffies64:
	case BPF_FUNC_ktime_get_boot_ns:
	case BPF_FUNC_ktime_get_coarse_ns:
	case BPF_FUNC_ktime_get_tai_ns:
	case BPF_FUNC_timer_start: /* callbacks run on another thread */
	case BPF_FUNC_trace_printk:
	case BPF_FUNC_trace_vprintk:
	case BPF_FUNC_snprintf:
		return true;
	}
	return false;
}

/* The input's instructions, with map references patched; the prologue
 * and callback chain around them. Returns the count, 0 to skip. */
static uint32_t build(const uint8_t *hdr, const void *body, size_t nbody,
		      struct hr_insn *out)
{
	bool loop = hdr[0] & 2;
	uint32_t n = 0, i, chain = (hdr[3] & 3) + 1, cb;
	uint32_t body_start, m;

	if (loop) {
		/* r6 = ctx; bpf_loop(iters, cb, 0, 0); r1 = ctx; body */
		out[n++] = insn(HR_ALU64 | HR_MOV | HR_X, 6, 1, 0, 0);
		out[n++] = mov_k(1, hdr[2] & 15);
		out[n++] = insn(HR_LD | HR_IMM | HR_DW, 2, HR_PSEUDO_FUNC, 0,
				0); /* imm set below */
		out[n++] = insn(0, 0, 0, 0, 0);
		out[n++] = mov_k(3, 0);
		out[n++] = mov_k(4, 0);
		out[n++] = insn(HR_JMP | HR_CALL, 0, HR_CALL_HELPER, 0,
				BPF_FUNC_loop);
		out[n++] = insn(HR_ALU64 | HR_MOV | HR_X, 1, 6, 0, 0);
	}
	body_start = n;
	memcpy(out + n, body, nbody * sizeof(*out));
	n += (uint32_t)nbody;
	for (i = body_start; i < n; i++) {
		struct hr_insn *p = &out[i];

		if (p->code == (HR_JMP | HR_CALL) && p->src == HR_CALL_HELPER &&
		    nondeterministic(p->imm))
			return 0;
		if (p->code != (HR_LD | HR_IMM | HR_DW) || i + 1 >= n)
			continue;
		if (p->src == HR_PSEUDO_MAP_FD ||
		    p->src == HR_PSEUDO_MAP_VALUE) {
			p->src = HR_PSEUDO_MAP_FD;
			m = (uint32_t)p->imm % NMAPS;
			if (same_type_tails && m >= M_PA_XDP)
				m = hdr[0] & 1 ? M_PA_TC : M_PA_XDP;
			hr_insn_set_lddw(p, (uint64_t)(uintptr_t)maps[m]);
		}
		i++;
	}
	if (!loop)
		return n;
	/* cb(index, ctx): at index K call down the chain, else go on. */
	cb = n;
	out[2].imm = (int32_t)(cb - 2 - 1);
	out[n++] = insn(HR_JMP | HR_JEQ | HR_K, 1, 0, 2, hdr[2] >> 4);
	out[n++] = mov_k(0, 0);
	out[n++] = exit_insn();
	out[n++] = insn(HR_JMP | HR_CALL, 0, HR_CALL_LOCAL, 0, 2);
	out[n++] = mov_k(0, 1);
	out[n++] = exit_insn();
	/* chain functions: each calls the next; the last loads from 0 */
	for (i = 0; i < chain; i++) {
		if (i + 1 < chain) {
			out[n++] =
				insn(HR_JMP | HR_CALL, 0, HR_CALL_LOCAL, 0, 1);
			out[n++] = exit_insn();
		} else {
			out[n++] = mov_k(1, 0);
			out[n++] = insn(HR_LDX | HR_MEM | HR_B, 0, 1, 0, 0);
			out[n++] = exit_insn();
		}
	}
	return n;
}

static bool same(const struct snapshot *a, const struct snapshot *b, char *why,
		 size_t whysz)
{
	size_t i;

	if (a->abort != b->abort || a->abort_pc != b->abort_pc ||
	    a->abort_addr != b->abort_addr)
		snprintf(why, whysz,
			 "abort %d (%s) pc %u addr %#llx vs %d (%s) pc %u "
			 "addr %#llx",
			 a->abort, hr_abort_str(a->abort), a->abort_pc,
			 (unsigned long long)a->abort_addr, b->abort,
			 hr_abort_str(b->abort), b->abort_pc,
			 (unsigned long long)b->abort_addr);
	else if (a->r0 != b->r0)
		snprintf(why, whysz, "r0 %#llx vs %#llx",
			 (unsigned long long)a->r0, (unsigned long long)b->r0);
	else if (a->depth != b->depth)
		snprintf(why, whysz, "depth %u vs %u", a->depth, b->depth);
	else if (a->data_off != b->data_off ||
		 a->data_end_off != b->data_end_off)
		snprintf(why, whysz, "packet [%u, %u) vs [%u, %u)", a->data_off,
			 a->data_end_off, b->data_off, b->data_end_off);
	else if (memcmp(a->frame, b->frame, sizeof(a->frame))) {
		for (i = 0; a->frame[i] == b->frame[i]; i++)
			;
		snprintf(why, whysz, "frame byte %zu: %#x vs %#x", i,
			 a->frame[i], b->frame[i]);
	} else if (memcmp(a->array, b->array, sizeof(a->array)))
		snprintf(why, whysz, "array map contents differ");
	else if (a->nhash != b->nhash ||
		 memcmp(a->hash, b->hash, sizeof(a->hash)))
		snprintf(why, whysz,
			 "hash map contents differ (%u vs %u "
			 "entries)",
			 a->nhash, b->nhash);
	else
		return true;
	return false;
}

static void dump(const struct hr_insn *insns, uint32_t cnt)
{
	char line[160];
	uint32_t pc = 0;

	while (pc < cnt) {
		hr_disasm_insn2(&insns[pc],
				pc + 1 < cnt ? &insns[pc + 1] : NULL, line,
				sizeof(line));
		fprintf(stderr, "%4u: %s\n", pc, line);
		pc++;
	}
}

/* Every engine from one state: the JITs in forked children, then the
 * interpreter here, each child's answer in the shared @snaps. */
static void run_forked(struct hr_prog *prog, bool tc, const uint8_t *pkt,
		       uint32_t plen, uint8_t seed, struct snapshot *snaps)
{
	unsigned int e;
	int status = 0;
	pid_t pid;

	reset_maps(seed);
	for (e = 1; e < NENGINES; e++) {
		pid = fork();
		if (pid < 0)
			abort();
		if (pid == 0) {
			run_one(prog, tc, pkt, plen, engines[e], &snaps[e]);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr,
				"fuzz_insns: %s program under %s: the run "
				"died (status %#x)\n",
				tc ? "tc" : "xdp", engine_names[e], status);
			dump(prog->insns, prog->cnt);
			abort();
		}
	}
	run_one(prog, tc, pkt, plen, engines[0], &snaps[0]);
}

/* An abort reason that is itself a bug report ends the fuzzing. */
static void check_bugs(const struct hr_prog *prog, const struct snapshot *snaps)
{
	unsigned int e;

	for (e = 0; e < NENGINES; e++) {
		if (snaps[e].abort != HR_ABORT_JIT_CHECK &&
		    snaps[e].abort != HR_ABORT_INVARIANT)
			continue;
		fprintf(stderr, "fuzz_insns: %s: %s at pc %u\n",
			engine_names[e], hr_abort_str(snaps[e].abort),
			snaps[e].abort_pc);
		dump(prog->insns, prog->cnt);
		abort();
	}
}

static bool all_same(const struct snapshot *snaps, char *why, size_t whysz,
		     unsigned int *which)
{
	unsigned int e;

	for (e = 1; e < NENGINES; e++) {
		if (!same(&snaps[0], &snaps[e], why, whysz)) {
			*which = e;
			return false;
		}
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static struct snapshot *snaps;
	static struct hr_insn insns[MAX_BODY + 32];
	static bool ready;
	const struct hr_prog_type *type;
	struct hr_prog *prog;
	uint32_t plen, cnt, slot = 2;
	size_t nbody;
	unsigned int e;
	char why[256];
	bool tc;

	if (!ready) {
		setup();
		/* Shared with the children that run the JITs. */
		snaps = mmap(NULL, NENGINES * sizeof(*snaps),
			     PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			     -1, 0);
		if (snaps == MAP_FAILED)
			abort();
		ready = true;
	}
	if (len < HDR)
		return -1;
	tc = data[0] & 1;
	plen = 14 + data[1] % 128;
	if (len < HDR + plen)
		return -1;
	nbody = (len - HDR - plen) / sizeof(struct hr_insn);
	if (!nbody || nbody > MAX_BODY)
		return -1;
	cnt = build(data, data + HDR + plen, nbody, insns);
	if (!cnt)
		return -1;
	type = tc ? &hr_prog_type_tc : &hr_prog_type_xdp;
	prog = make_prog(type, insns, cnt);
	if (!prog)
		return 0;
	if (data[0] & 4)
		put_prog(maps[tc ? M_PA_TC : M_PA_XDP], slot, prog);
	/* Fast pass: every engine in this process, the maps refilled before
	 * each run. Only a difference it finds is checked again forked,
	 * where addresses cannot differ. */
	for (e = 0; e < NENGINES; e++) {
		reset_maps(data[3] >> 4);
		run_one(prog, tc, data + HDR, plen, engines[e], &snaps[e]);
	}
	if (getenv("FUZZ_DEBUG"))
		fprintf(stderr,
			"fuzz_insns: %s, %u insns: r0 %#llx abort %s "
			"at %u, depth %u\n",
			tc ? "tc" : "xdp", cnt, (unsigned long long)snaps[0].r0,
			hr_abort_str(snaps[0].abort), snaps[0].abort_pc,
			snaps[0].depth);
	check_bugs(prog, snaps);
	if (!all_same(snaps, why, sizeof(why), &e)) {
		run_forked(prog, tc, data + HDR, plen, data[3] >> 4, snaps);
		check_bugs(prog, snaps);
		if (!all_same(snaps, why, sizeof(why), &e)) {
			fprintf(stderr,
				"fuzz_insns: %s program, %s differs from "
				"interp: %s\n",
				tc ? "tc" : "xdp", engine_names[e], why);
			dump(prog->insns, prog->cnt);
			abort();
		}
	}
	if (data[0] & 4)
		hr_map_delete_elem(maps[tc ? M_PA_TC : M_PA_XDP], &slot);
	hr_prog_free(prog);
	return 0;
}
