// SPDX-License-Identifier: MIT
/*
 * The x86-64 JIT against the interpreter: the whole bpf_conformance suite
 * under both engines (same r0, abort and memory, and the suite's expected
 * result), then one targeted program for every abort reason, each giving
 * the same reason, pc and address under both, and the engine dispatch.
 */
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vm/asm.h"
#include "vm/conformance.h"
#include "vm/engine.h"
#include "vm/jit.h"
#include "vm/mem.h"
#include "progs/ctx.h"
#include "progs/prog.h"
#include "progs/prog_registry.h"
#include "maps/map.h"
#include <headroom/map.h>
#include <headroom/object.h>
#include <headroom/test_run.h>
#include <linux/bpf.h>
#include "harness.h"
#include "jit_diff.h"

#define HR_TEST_MAX_CPUS 3

#define MAX_MEM 4096

/* The suite's environment (conformance.h): helper 5 unwinds on 0. */
static uint64_t unwind_helper(uint64_t r1, uint64_t r2, uint64_t r3,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	if (r1 == 0)
		run->unwind = true;
	return r1;
}

static hr_helper_fn conf_helper(uint64_t id)
{
	return id == HR_CONFORMANCE_UNWIND ? unwind_helper : NULL;
}

struct conf_file {
	char *text; /* the -- asm section */
	size_t text_len;
	struct hr_insn raw[512];
	uint32_t nraw;
	uint8_t mem[MAX_MEM];
	size_t mem_len;
	bool has_result;
	uint64_t result;
};

static void add_text(struct conf_file *c, const char *line)
{
	size_t n = strlen(line);
	char *p = realloc(c->text, c->text_len + n + 2);

	if (!p)
		return;
	c->text = p;
	memcpy(p + c->text_len, line, n);
	c->text_len += n;
	p[c->text_len++] = '\n';
	p[c->text_len] = '\0';
}

static void add_hex(const char *p, uint8_t *buf, size_t cap, size_t *len,
		    bool raw)
{
	unsigned long long v;
	char *end;

	for (;;) {
		v = strtoull(p, &end, 16);
		if (end == p || *len + 8 > cap)
			return;
		if (raw && end - p > 4) {
			memcpy(buf + *len, &v, 8);
			*len += 8;
		} else {
			buf[(*len)++] = (uint8_t)v;
		}
		p = end;
	}
}

static int read_conf(const char *path, struct conf_file *c)
{
	char line[1024], sec[1024] = "";
	size_t rawb = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	memset(c, 0, sizeof(*c));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!strncmp(line, "--", 2)) {
			snprintf(sec, sizeof(sec), "%s", line + 3);
			continue;
		}
		if (!strcmp(sec, "asm"))
			add_text(c, line);
		else if (!strcmp(sec, "raw"))
			add_hex(line, (uint8_t *)c->raw, sizeof(c->raw), &rawb,
				true);
		else if (!strcmp(sec, "mem"))
			add_hex(line, c->mem, sizeof(c->mem), &c->mem_len,
				false);
		else if (!strcmp(sec, "result") && line[0]) {
			c->has_result = true;
			c->result = strtoull(line, NULL, 0);
		}
	}
	fclose(f);
	c->nraw = (uint32_t)(rawb / 8);
	return 0;
}

struct conf_out {
	uint64_t r0;
	int abort;
	uint32_t abort_pc;
	uint8_t mem[MAX_MEM];
	uint8_t stack[HR_MAX_CALL_FRAMES * HR_STACK_SIZE];
};

/* As hr_conformance_run(), under @engine. */
static void conf_run(struct hr_vm_prog *vm, const struct conf_file *c,
		     uint8_t *mem, struct hr_run *run, int engine,
		     struct conf_out *o)
{
	struct hr_region region = {
		.start = (uintptr_t)mem,
		.end = (uintptr_t)mem + c->mem_len,
		.flags = HR_REGION_READ | HR_REGION_WRITE,
	};

	memcpy(mem, c->mem, c->mem_len);
	hr_run_init(run, vm, NULL);
	memset(run->stack, 0x5a, sizeof(run->stack));
	if (c->mem_len) {
		run->regions = &region;
		run->nregions = 1;
	}
	o->r0 = hr_engine_run2((enum hr_engine)engine, run,
			       c->mem_len ? (uint64_t)(uintptr_t)mem : 0,
			       c->mem_len);
	o->abort = run->abort;
	o->abort_pc = run->abort_pc;
	memcpy(o->mem, mem, c->mem_len);
	memcpy(o->stack, run->stack, sizeof(run->stack));
}

/* One file: 1 when the JIT passes it as the suite says and agrees with
 * the interpreter, 0 otherwise; -1 when the program is not runnable. */
static int conf_one(const char *dir, const char *name, bool negative)
{
	static struct conf_out a, b, k;
	static uint8_t mem[MAX_MEM];
	struct hr_vm_prog vm = { 0 };
	struct hr_insn *insns = NULL;
	struct conf_file *c = malloc(sizeof(*c));
	struct hr_run *run = malloc(sizeof(*run));
	char path[8192], err[256];
	uint32_t cnt = 0, pc;
	int ret = -1;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!c || !run || read_conf(path, c))
		goto out;
	if (c->nraw) {
		insns = malloc(c->nraw * sizeof(*insns));
		if (!insns)
			goto out;
		memcpy(insns, c->raw, c->nraw * sizeof(*insns));
		cnt = c->nraw;
	} else if (!c->text ||
		   hr_asm(c->text, &insns, &cnt, err, sizeof(err))) {
		goto out;
	}
	if (hr_prog_validate(insns, cnt, NULL, NULL))
		goto out;
	vm.insns = insns;
	vm.cnt = cnt;
	vm.calls = calloc(cnt, sizeof(*vm.calls));
	if (!vm.calls)
		goto out;
	for (pc = 0; pc < cnt; pc++)
		if (insns[pc].code == (HR_JMP | HR_CALL) &&
		    insns[pc].src == HR_CALL_HELPER)
			vm.calls[pc] = conf_helper((uint32_t)insns[pc].imm);
	vm.helper_by_id = conf_helper;
	conf_run(&vm, c, mem, run, HR_ENGINE_INTERP, &a);
	conf_run(&vm, c, mem, run, HR_ENGINE_JIT, &b);
	CHECK(vm.jit != NULL, "%s: not compiled", name);
	/* The checked JIT: the same answers, and never its own abort. */
	conf_run(&vm, c, mem, run, HR_ENGINE_JIT_CHECKED, &k);
	CHECK(vm.jit_chk != NULL, "%s: no checked code", name);
	CHECK(k.r0 == b.r0 && k.abort == b.abort && k.abort_pc == b.abort_pc &&
		      !memcmp(k.mem, b.mem, c->mem_len) &&
		      !memcmp(k.stack, b.stack, sizeof(k.stack)),
	      "%s: checked JIT r0 %#llx abort %d@%u, JIT r0 %#llx abort %d@%u",
	      name, (unsigned long long)k.r0, k.abort, k.abort_pc,
	      (unsigned long long)b.r0, b.abort, b.abort_pc);
	ret = a.r0 == b.r0 && a.abort == b.abort && a.abort_pc == b.abort_pc &&
	      !memcmp(a.mem, b.mem, c->mem_len) &&
	      !memcmp(a.stack, b.stack, sizeof(a.stack));
	if (!ret)
		fprintf(stderr,
			"%s: interp r0 %#llx abort %d@%u, jit r0 %#llx "
			"abort %d@%u\n",
			name, (unsigned long long)a.r0, a.abort, a.abort_pc,
			(unsigned long long)b.r0, b.abort, b.abort_pc);
	if (ret && !negative)
		ret = !b.abort && c->has_result && b.r0 == c->result;
	if (ret && negative)
		ret = b.abort || b.r0 != c->result;
	if (!ret)
		fprintf(stderr, "%s: jit r0 %#llx, expected %#llx\n", name,
			(unsigned long long)b.r0,
			(unsigned long long)c->result);
out:
	hr_jit_free(&vm);
	free(vm.calls);
	free(insns);
	if (c)
		free(c->text);
	free(c);
	free(run);
	return ret;
}

/* Where the suite is: HEADROOM_CONFORMANCE_DIR, else the tree's copy. */
static const char *conf_root(void)
{
	static const char *const tries[] = {
		"tests/conformance",
		"../shared/conformance",
		"/work/shared/conformance",
	};
	const char *env = getenv("HEADROOM_CONFORMANCE_DIR");
	unsigned int i;

	if (env && *env)
		return env;
	for (i = 0; i < sizeof(tries) / sizeof(tries[0]); i++)
		if (access(tries[i], R_OK) == 0)
			return tries[i];
	return tries[0];
}

static void conformance(const char *sub, bool negative)
{
	char dir[4096];
	struct dirent *de;
	DIR *d;
	int ran = 0, r;

	snprintf(dir, sizeof(dir), "%s/%s", conf_root(), sub);
	d = opendir(dir);
	CHECK(d != NULL, "no conformance suite at %s", dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 6 || strcmp(de->d_name + n - 5, ".data"))
			continue;
		r = conf_one(dir, de->d_name, negative);
		if (r < 0)
			continue;
		ran++;
		CHECK(r == 1, "conformance %s/%s under the JIT", sub,
		      de->d_name);
	}
	closedir(d);
	printf("conformance %s: %d programs under both engines\n", sub, ran);
	if (!negative)
		CHECK(ran > 250, "only %d conformance programs ran", ran);
}

/* Targeted programs. */

static struct jd_env env;

static uint64_t h_sum(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
		      uint64_t r5, struct hr_run *run)
{
	return r1 + 2 * r2 + 3 * r3 + 4 * r4 + 5 * r5 + run->depth * 1000;
}

/* Checks [r1, r1 + r2) as a helper would (HR_ABORT_HELPER_ARG). */
static uint64_t h_mem(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
		      uint64_t r5, struct hr_run *run)
{
	uint8_t *p = hr_run_mem(run, r1, r2, true);

	if (!p)
		return 0;
	memset(p, 0xee, r2);
	return 1;
}

/* Moves the packet window to [lo + r1, hi - r2): the JIT must re-read. */
static uint64_t h_pkt(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
		      uint64_t r5, struct hr_run *run)
{
	run->pkt_lo = jd_addr(&env, JD_PKT_OFF) + r1;
	run->pkt_hi = jd_addr(&env, JD_PKT_OFF + JD_PKT_LEN) - r2;
	return run->pkt_lo;
}

static hr_helper_fn test_helper(uint64_t id)
{
	switch (id) {
	case 1:
		return h_sum;
	case 2:
		return h_mem;
	case 3:
		return h_pkt;
	case HR_CONFORMANCE_UNWIND:
		return unwind_helper;
	}
	return NULL;
}

/*
 * Assembles @text (with "%ctx" "%pkt" "%rw" "%ro" replaced by lddw-able
 * addresses is left to the caller), runs it under both engines and checks
 * they agree; returns the JIT's result in @out.
 */
static void both(const char *name, struct hr_insn *insns, uint32_t cnt,
		 struct jd_result *out)
{
	static struct jd_result a;
	char why[256];
	uint32_t pc;

	hr_jit_free(&env.vm);
	free(env.vm.calls);
	env.vm.insns = insns;
	env.vm.cnt = cnt;
	env.vm.calls = calloc(cnt ? cnt : 1, sizeof(*env.vm.calls));
	env.vm.helper_by_id = test_helper;
	for (pc = 0; pc < cnt; pc++)
		if (insns[pc].code == (HR_JMP | HR_CALL) &&
		    insns[pc].src == HR_CALL_HELPER)
			env.vm.calls[pc] = test_helper((uint32_t)insns[pc].imm);
	jd_run(&env, HR_ENGINE_INTERP, &a);
	jd_run(&env, HR_ENGINE_JIT_CHECKED, out);
	CHECK(env.vm.jit_chk != NULL, "%s: no checked code", name);
	CHECK(jd_same(&a, out, why, sizeof(why)), "%s: checked JIT: %s", name,
	      why);
	jd_run(&env, HR_ENGINE_JIT, out);
	CHECK(env.vm.jit != NULL, "%s: not compiled", name);
	CHECK(jd_same(&a, out, why, sizeof(why)), "%s: %s", name, why);
}

static struct hr_insn *assemble(const char *name, const char *text,
				uint32_t *cnt)
{
	struct hr_insn *insns = NULL;
	char err[256];

	if (hr_asm(text, &insns, cnt, err, sizeof(err))) {
		CHECK(0, "%s: %s", name, err);
		return NULL;
	}
	return insns;
}

/* When not negative, the number of fused runs expect() wants. */
static int want_fused = -1;

/* Runs @text; expects @reason at @pc (and r0 = @r0 when no abort). */
static void expect(const char *name, const char *text, int reason, uint32_t pc,
		   uint64_t r0)
{
	struct jd_result res;
	struct hr_insn *insns;
	uint32_t cnt;

	insns = assemble(name, text, &cnt);
	if (!insns)
		return;
	both(name, insns, cnt, &res);
	CHECK(res.abort == reason, "%s: abort %s, expected %s", name,
	      hr_abort_str(res.abort), hr_abort_str(reason));
	if (reason) {
		CHECK(res.abort_pc == pc, "%s: abort pc %u, expected %u", name,
		      res.abort_pc, pc);
		CHECK(res.r0 == env.vm.abort_ret, "%s: r0 %#llx", name,
		      (unsigned long long)res.r0);
	} else {
		CHECK(res.r0 == r0, "%s: r0 %#llx, expected %#llx", name,
		      (unsigned long long)res.r0, (unsigned long long)r0);
	}
	CHECK(want_fused < 0 || env.vm.jit_fused == (uint32_t)want_fused,
	      "%s: %u runs fused, expected %d", name, env.vm.jit_fused,
	      want_fused);
	hr_jit_free(&env.vm);
	env.vm.insns = NULL;
	free(insns);
}

/* Runs raw instructions (for programs the validator would refuse). */
static void expect_raw(const char *name, struct hr_insn *insns, uint32_t cnt,
		       int reason, uint32_t pc)
{
	struct jd_result res;

	both(name, insns, cnt, &res);
	CHECK(res.abort == reason, "%s: abort %s, expected %s", name,
	      hr_abort_str(res.abort), hr_abort_str(reason));
	CHECK(res.abort_pc == pc, "%s: abort pc %u, expected %u", name,
	      res.abort_pc, pc);
	hr_jit_free(&env.vm);
}

static char prog_buf[4096];

/* Formats a program with the arena addresses substituted. */
static const char *fmt(const char *f, ...)
	__attribute__((format(printf, 1, 2)));
static const char *fmt(const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(prog_buf, sizeof(prog_buf), f, ap);
	va_end(ap);
	return prog_buf;
}

static void test_aborts(void)
{
	unsigned long long rw = jd_addr(&env, JD_RW_OFF),
			   ro = jd_addr(&env, JD_RO_OFF),
			   pkt = jd_addr(&env, JD_PKT_OFF);

	env.r1 = jd_addr(&env, JD_CTX_OFF);
	env.r2 = pkt;
	expect("stack ok",
	       "mov %r0, 7\nstxdw [%r10-8], %r0\n"
	       "ldxdw %r0, [%r10-8]\nexit\n",
	       0, 0, 7);
	expect("oob load stack", "mov %r0, 0\nldxdw %r0, [%r10+0]\nexit\n",
	       HR_ABORT_OOB_LOAD, 1, 0);
	expect("oob load below frame",
	       "mov %r0, 0\nldxb %r0, [%r10-513]\nexit\n", HR_ABORT_OOB_LOAD, 1,
	       0);
	expect("oob store via pointer",
	       "mov %r1, %r10\nadd %r1, -600\nstw [%r1+0], 1\nexit\n",
	       HR_ABORT_OOB_STORE, 2, 0);
	expect("packet in range", "ldxw %r0, [%r2+252]\nexit\n", 0, 0,
	       0x11111111);
	expect("packet over end", "ldxw %r0, [%r2+253]\nexit\n",
	       HR_ABORT_OOB_LOAD, 0, 0);
	expect("packet before start", "ldxb %r0, [%r2-65]\nexit\n",
	       HR_ABORT_OOB_LOAD, 0, 0);
	expect("ctx read ok", "ldxw %r0, [%r1+4]\nexit\n", 0, 0, 0x11111111);
	expect("ctx bad size", "ldxb %r0, [%r1+4]\nexit\n", HR_ABORT_CTX_ACCESS,
	       0, 0);
	expect("ctx write denied", "stw [%r1+4], 1\nexit\n",
	       HR_ABORT_CTX_ACCESS, 0, 0);
	expect("ctx write ok", "stw [%r1+16], 9\nldxw %r0, [%r1+16]\nexit\n", 0,
	       0, 9);
	expect("region rw",
	       fmt("lddw %%r3, %#llx\nstdw [%%r3+120], 5\n"
		   "ldxdw %%r0, [%%r3+120]\nexit\n",
		   rw),
	       0, 0, 5);
	expect("region rw past end",
	       fmt("lddw %%r3, %#llx\nstdw [%%r3+121], 5\nexit\n", rw),
	       HR_ABORT_OOB_STORE, 2, 0);
	expect("region ro read",
	       fmt("lddw %%r3, %#llx\nldxdw %%r0, [%%r3+8]\nexit\n", ro), 0, 0,
	       0x1111111111111111ull);
	expect("region ro store",
	       fmt("mov %%r0, 0\nlddw %%r3, %#llx\nstb [%%r3+8], 1\nexit\n",
		   ro),
	       HR_ABORT_RDONLY, 3, 0);
	expect("atomic ro",
	       fmt("mov %%r0, 1\nlddw %%r3, %#llx\nlock add [%%r3+8], "
		   "%%r0\nexit\n",
		   ro),
	       HR_ABORT_RDONLY, 3, 0);
	expect("atomic misaligned",
	       "mov %r0, 1\nlock add32 [%r10-6], %r0\nexit\n",
	       HR_ABORT_OOB_STORE, 1, 0);
	expect("atomic misaligned packet",
	       "mov %r0, 1\nlock xchg [%r2+4], %r0\nexit\n", HR_ABORT_OOB_STORE,
	       1, 0);
	expect("atomic fetch",
	       "mov %r0, 3\nstdw [%r10-8], 4\n"
	       "lock fetch add [%r10-8], %r0\n"
	       "ldxdw %r1, [%r10-8]\nadd %r0, %r1\nexit\n",
	       0, 0, 11);
	expect("budget", "mov %r0, 0\nloop:\nadd %r0, 1\nja loop\n",
	       HR_ABORT_BUDGET, 2, 0);
	expect("call depth", "call local f\nexit\nf:\ncall local f\nexit\n",
	       HR_ABORT_CALL_DEPTH, 2, 0);
	expect("local call frames",
	       "mov %r6, 1\nstdw [%r10-8], 40\ncall local f\n"
	       "ldxdw %r1, [%r10-8]\nadd %r0, %r1\nadd %r0, %r6\nexit\n"
	       "f:\nmov %r6, 100\nstdw [%r10-8], 2\nmov %r1, %r10\n"
	       "ldxdw %r0, [%r1+504]\nldxdw %r2, [%r10-8]\nadd %r0, %r2\n"
	       "exit\n",
	       0, 0, 40 + 2 + 40 + 1);
	expect("callee touches caller stack via r10+off",
	       "stdw [%r10-8], 7\ncall local f\nexit\n"
	       "f:\nldxdw %r0, [%r10+504]\nexit\n",
	       0, 0, 7);
	expect("main cannot touch above stack", "ldxdw %r0, [%r10+504]\nexit\n",
	       HR_ABORT_OOB_LOAD, 0, 0);
	expect("helper",
	       "mov %r1, 1\nmov %r2, 2\nmov %r3, 3\nmov %r4, 4\n"
	       "mov %r5, 5\ncall 1\nadd %r0, %r1\nadd %r0, %r5\n"
	       "exit\n",
	       0, 0, 55 + 1 + 5);
	expect("helper arg", "mov %r1, %r10\nmov %r2, 16\ncall 2\nexit\n",
	       HR_ABORT_HELPER_ARG, 2, 0);
	expect("helper arg ok",
	       "mov %r1, %r10\nadd %r1, -16\nmov %r2, 16\ncall 2\n"
	       "ldxb %r1, [%r10-1]\nadd %r0, %r1\nexit\n",
	       0, 0, 0xef);
	expect("unknown helper", "call 77\nexit\n", HR_ABORT_UNKNOWN_CALL, 0,
	       0);
	expect("callx", "mov %r6, 1\nmov %r1, 2\nmov %r2, 0\ncall %r6\nexit\n",
	       0, 0, 2);
	expect("callx unknown", "mov %r6, 99\ncall %r6\nexit\n",
	       HR_ABORT_UNKNOWN_CALL, 1, 0);
	expect("unwind in callee",
	       "call local f\nmov %r0, 3\nexit\nf:\nmov %r1, 0\ncall 5\n"
	       "mov %r0, 4\nexit\n",
	       0, 0, 0);
	/* The helper moves the packet: the JIT must see the new bounds. */
	expect("packet moves",
	       "mov %r6, %r2\nmov %r1, 0\nmov %r2, 200\ncall 3\n"
	       "ldxb %r0, [%r6+60]\nexit\n",
	       HR_ABORT_OOB_LOAD, 4, 0);
	expect("packet moves ok",
	       "mov %r6, %r2\nmov %r1, 0\nmov %r2, 200\ncall 3\n"
	       "ldxb %r0, [%r6+55]\nexit\n",
	       0, 0, 0x11);
	expect("div/mod by zero",
	       "mov %r0, 7\nmov %r1, 0\ndiv %r0, %r1\nmov %r2, 9\n"
	       "mod %r2, %r1\nadd %r0, %r2\nmov32 %r3, -1\nsdiv32 %r3, -1\n"
	       "add %r0, %r3\nexit\n",
	       0, 0, 10);
}

static void test_unvalidated(void)
{
	struct hr_insn jump_out[] = {
		{ .code = HR_JMP | HR_JA, .off = 5 },
		{ .code = HR_JMP | HR_EXIT },
	};
	struct hr_insn fall_off[] = {
		{ .code = HR_ALU64 | HR_MOV | HR_K, .dst = 0, .imm = 1 },
	};
	struct hr_insn bad_alu[] = {
		{ .code = HR_ALU64 | HR_MOV | HR_K, .dst = 0, .imm = 1 },
		{ .code = HR_ALU64 | 0xe0 | HR_K, .dst = 0, .imm = 1 },
		{ .code = HR_JMP | HR_EXIT },
	};
	struct hr_insn bad_ld[] = {
		{ .code = HR_LD | HR_ABS | HR_W, .imm = 1 },
		{ .code = HR_JMP | HR_EXIT },
	};
	struct hr_insn lddw_end[] = {
		{ .code = HR_ALU64 | HR_MOV | HR_K, .dst = 0, .imm = 1 },
		{ .code = HR_OPC_LDDW, .dst = 0, .imm = 1 },
	};
	struct hr_insn into_lddw[] = {
		{ .code = HR_JMP | HR_JA, .off = 1 },
		{ .code = HR_OPC_LDDW, .dst = 0, .imm = 1 },
		{ .code = 0, .imm = 2 },
		{ .code = HR_JMP | HR_EXIT },
	};
	struct hr_insn back_out[] = {
		{ .code = HR_JMP | HR_JA, .off = -3 },
	};
	struct hr_insn call_out[] = {
		{ .code = HR_JMP | HR_CALL, .src = HR_CALL_LOCAL, .imm = 9 },
		{ .code = HR_JMP | HR_EXIT },
	};
	struct hr_insn call32[] = {
		{ .code = HR_JMP32 | HR_CALL, .imm = 1 },
		{ .code = HR_JMP | HR_EXIT },
	};
	struct hr_insn bad_atomic[] = {
		{ .code = HR_STX | HR_ATOMIC | HR_DW,
		  .dst = 10,
		  .off = -8,
		  .imm = 0x33 },
		{ .code = HR_JMP | HR_EXIT },
	};
	struct hr_insn fp_write[] = {
		{ .code = HR_ALU64 | HR_ADD | HR_K, .dst = 10, .imm = 8 },
		{ .code = HR_LDX | HR_MEM | HR_DW,
		  .dst = 0,
		  .src = 10,
		  .off = -8 },
		{ .code = HR_JMP | HR_EXIT },
	};

	expect_raw("jump out", jump_out, 2, HR_ABORT_JUMP, 6);
	expect_raw("fall off", fall_off, 1, HR_ABORT_JUMP, 1);
	expect_raw("bad alu op", bad_alu, 3, HR_ABORT_BAD_INSN, 1);
	expect_raw("legacy ld", bad_ld, 2, HR_ABORT_BAD_INSN, 0);
	expect_raw("lddw at end", lddw_end, 2, HR_ABORT_BAD_INSN, 1);
	expect_raw("into lddw", into_lddw, 4, HR_ABORT_BAD_INSN, 2);
	expect_raw("jump before start", back_out, 1, HR_ABORT_JUMP,
		   (uint32_t)-2);
	expect_raw("call out", call_out, 2, HR_ABORT_JUMP, 10);
	expect_raw("jmp32 call", call32, 2, HR_ABORT_UNKNOWN_CALL, 0);
	expect_raw("bad atomic op", bad_atomic, 2, HR_ABORT_BAD_INSN, 0);
	/* r10 written: nothing is elided, the load is above the stack. */
	expect_raw("r10 written", fp_write, 3, HR_ABORT_OOB_LOAD, 1);
}

/* The code is never writable and executable at once. */
static void test_wx(void)
{
	struct hr_insn prog[] = {
		{ .code = HR_ALU64 | HR_MOV | HR_K, .dst = 0, .imm = 42 },
		{ .code = HR_JMP | HR_EXIT },
	};
	struct hr_vm_prog vm = { .insns = prog, .cnt = 2 };
	struct hr_run *run = malloc(sizeof(*run));
	char line[512], want[64];
	bool found = false;
	FILE *maps;

	CHECK(hr_engine_available(HR_ENGINE_JIT), "no JIT");
	CHECK(run != NULL, "malloc");
	if (!run)
		return;
	hr_run_init(run, &vm, NULL);
	CHECK_EQ(hr_engine_run(HR_ENGINE_DEFAULT, run, 0), 42);
	/* Under HEADROOM_ENGINE=jit-checked the default is the checked JIT,
	 * with code of its own: the plain JIT's is then made here. */
	if (!vm.jit && vm.jit_chk) {
		hr_run_init(run, &vm, NULL);
		CHECK_EQ(hr_engine_run(HR_ENGINE_JIT, run, 0), 42);
	}
	CHECK(vm.jit != NULL, "the default engine is not the JIT");
	snprintf(want, sizeof(want), "%lx-", (unsigned long)vm.jit);
	maps = fopen("/proc/self/maps", "r");
	while (maps && fgets(line, sizeof(line), maps)) {
		if (strncmp(line, want, strlen(want)))
			continue;
		found = true;
		CHECK(!strncmp(line + strcspn(line, " ") + 1, "r-x", 3),
		      "JIT code mapped %.30s", line);
	}
	if (maps)
		fclose(maps);
	CHECK(found, "JIT mapping not found");
	hr_jit_free(&vm);
	CHECK(vm.jit == NULL, "not freed");
	hr_run_init(run, &vm, NULL);
	CHECK_EQ(hr_engine_run(HR_ENGINE_INTERP, run, 0), 42);
	CHECK(vm.jit == NULL, "the interpreter compiled");
	free(run);
}

/*
 * Packet accesses under a data_end guard, through struct xdp_md: the JIT
 * leaves out the check only where the guard covers the access, so one
 * byte past the guard (here also the packet's end) aborts under both.
 */
/* What xdp_env_enter() changes of the test environment, to put back. */
struct xdp_env_saved {
	struct hr_vm_prog vm;
	uint8_t init[JD_ARENA_LEN];
};

/* The XDP context rule over a 64-byte packet at @data, r1 the context,
 * so that guarded packet accesses are proven. */
static void xdp_env_enter(struct xdp_env_saved *s, uintptr_t data)
{
	s->vm = env.vm;
	memcpy(s->init, env.init, sizeof(s->init));
	env.vm.ctx_access = hr_prog_type_xdp.ctx_access;
	env.vm.ctx_size = sizeof(struct xdp_md);
	env.pkt_lo = jd_addr(&env, JD_PKT_OFF);
	env.pkt_hi = data + 64;
	jd_xdp_ctx(&env, env.init, data, data + 64);
	env.r1 = jd_addr(&env, JD_CTX_OFF);
}

static void xdp_env_leave(struct xdp_env_saved *s)
{
	s->vm.calls = env.vm.calls; /* both() reallocates it */
	s->vm.insns = NULL;
	s->vm.cnt = 0;
	env.vm = s->vm;
	env.pkt_lo = jd_addr(&env, JD_PKT_OFF);
	env.pkt_hi = jd_addr(&env, JD_PKT_OFF + JD_PKT_LEN);
	memcpy(env.init, s->init, sizeof(s->init));
}

static void test_pkt_guards(void)
{
	struct xdp_env_saved saved;
	uintptr_t data = jd_addr(&env, JD_PKT_OFF + 16);
	static const struct {
		const char *name, *text;
		int reason;
		uint32_t pc;
		uint64_t r0;
	} cases[] = {
		{ "guarded last byte",
		  "ldxw %r2, [%r1+0]\nldxw %r3, [%r1+4]\nmov %r4, %r2\n"
		  "add %r4, 64\njgt %r4, %r3, +2\nldxb %r0, [%r2+63]\nexit\n"
		  "mov %r0, 99\nexit\n",
		  0, 0, 0x11 },
		{ "one past the guard",
		  "ldxw %r2, [%r1+0]\nldxw %r3, [%r1+4]\nmov %r4, %r2\n"
		  "add %r4, 64\njgt %r4, %r3, +2\nldxb %r0, [%r2+64]\nexit\n"
		  "mov %r0, 99\nexit\n",
		  HR_ABORT_OOB_LOAD, 5, 0 },
		{ "wide load crossing the guard",
		  "ldxw %r2, [%r1+0]\nldxw %r3, [%r1+4]\nmov %r4, %r2\n"
		  "add %r4, 64\njgt %r4, %r3, +2\nldxw %r0, [%r2+61]\nexit\n"
		  "mov %r0, 99\nexit\n",
		  HR_ABORT_OOB_LOAD, 5, 0 },
		{ "store one past a jge guard",
		  "ldxw %r2, [%r1+0]\nldxw %r3, [%r1+4]\nmov %r4, %r2\n"
		  "add %r4, 63\njge %r4, %r3, +2\nstb [%r2+64], 1\nexit\n"
		  "mov %r0, 99\nexit\n",
		  HR_ABORT_OOB_STORE, 5, 0 },
		{ "end-first guard, taken side",
		  "ldxw %r2, [%r1+0]\nldxw %r3, [%r1+4]\nmov %r4, %r2\n"
		  "add %r4, 64\njge %r3, %r4, +2\nmov %r0, 99\nexit\n"
		  "ldxb %r0, [%r2+64]\nexit\n",
		  HR_ABORT_OOB_LOAD, 7, 0 },
		{ "guard through a variable offset",
		  "ldxw %r2, [%r1+0]\nldxw %r3, [%r1+4]\nldxb %r5, [%r2+0]\n"
		  "mov %r4, %r2\nadd %r4, 1\njgt %r4, %r3, +8\n"
		  "and %r5, 15\nadd %r2, %r5\nmov %r4, %r2\nadd %r4, 63\n"
		  "jgt %r4, %r3, +2\nldxb %r0, [%r2+63]\nexit\n"
		  "mov %r0, 99\nexit\n",
		  HR_ABORT_OOB_LOAD, 11, 0 },
		{ "a helper forgets the guard",
		  "ldxw %r2, [%r1+0]\nldxw %r3, [%r1+4]\nmov %r6, %r2\n"
		  "mov %r4, %r2\nadd %r4, 64\njgt %r4, %r3, +5\n"
		  "mov %r1, 1\nmov %r2, 200\ncall 3\nldxb %r0, [%r6+63]\n"
		  "exit\nmov %r0, 99\nexit\n",
		  HR_ABORT_OOB_LOAD, 9, 0 },
	};
	unsigned int i;

	xdp_env_enter(&saved, data);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect(cases[i].name, cases[i].text, cases[i].reason,
		       cases[i].pc, cases[i].r0);
	/* data_meta .. data: 16 bytes of metadata before an empty packet, so
	 * one byte past a metadata guard is outside every region. */
	env.pkt_hi = data;
	jd_xdp_ctx(&env, env.init, data, data);
	expect("metadata guarded",
	       "ldxw %r2, [%r1+8]\nldxw %r3, [%r1+0]\nmov %r4, %r2\n"
	       "add %r4, 16\njgt %r4, %r3, +2\nldxb %r0, [%r2+15]\nexit\n"
	       "mov %r0, 99\nexit\n",
	       0, 0, 0x11);
	expect("one past a metadata guard",
	       "ldxw %r2, [%r1+8]\nldxw %r3, [%r1+0]\nmov %r4, %r2\n"
	       "add %r4, 16\njgt %r4, %r3, +2\nstb [%r2+16], 1\nexit\n"
	       "mov %r0, 99\nexit\n",
	       HR_ABORT_OOB_STORE, 5, 0);
	expect("metadata guard, end-first",
	       "ldxw %r2, [%r1+8]\nldxw %r3, [%r1+0]\nmov %r4, %r2\n"
	       "add %r4, 15\njgt %r3, %r4, +2\nmov %r0, 99\nexit\n"
	       "ldxh %r0, [%r2+15]\nexit\n",
	       HR_ABORT_OOB_LOAD, 7, 0);
	env.pkt_hi = data + 64;
	jd_xdp_ctx(&env, env.init, data, data + 64);
	/* A different r1 than run->ctx: the JIT's facts do not hold, the
	 * interpreter's answer is the JIT's. */
	env.r1 = jd_addr(&env, JD_RO_OFF);
	{
		struct jd_result res;
		uint32_t cnt;
		struct hr_insn *insns =
			assemble("r1 not ctx", cases[1].text, &cnt);

		if (insns) {
			both("r1 is not the context", insns, cnt, &res);
			hr_jit_free(&env.vm);
			env.vm.insns = NULL;
			free(insns);
		}
		/* Nothing elided, but a call whose r1 the analysis takes for
		 * the context: the checked code tests that fact, so it too
		 * must enter through the r1 == run->ctx test. */
		insns = assemble("r1 not ctx at a call",
				 "mov %r2, 0\ncall 1\nmov %r0, 7\nexit\n",
				 &cnt);
		if (insns) {
			both("r1 is not the context at a call", insns, cnt,
			     &res);
			CHECK(!res.abort && res.r0 == 7,
			      "r1 is not the context at a call: abort %d r0 "
			      "%llu",
			      res.abort, (unsigned long long)res.r0);
			hr_jit_free(&env.vm);
			env.vm.insns = NULL;
			free(insns);
		}
	}
	xdp_env_leave(&saved);
}

static struct hr_prog *open_prog(const char *file, struct hr_object **obj)
{
	struct hr_object_open_opts oo = { .sz = sizeof(oo) };
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), file);
	if (hr_object_open(path, &oo, obj)) {
		CHECK(0, "open %s", path);
		return NULL;
	}
	return hr_object_find_prog(*obj, NULL);
}

/* One run of @prog on a packet whose first byte is @key, as worker @cpu. */
static uint32_t run_key_cpu(struct hr_prog *prog, unsigned int key,
			    unsigned int cpu, enum hr_engine eng)
{
	uint8_t pkt[64] = { (uint8_t)key }, out[64 + 256];
	struct hr_test_run_opts o = {
		.sz = sizeof(o),
		.data_in = pkt,
		.data_size_in = sizeof(pkt),
		.data_out = out,
		.data_size_out = sizeof(out),
		.repeat = 1,
		.engine = eng,
		.cpu = cpu,
	};

	CHECK_EQ(hr_prog_test_run(prog, &o), 0);
	CHECK_EQ(o.abort, 0);
	return o.retval;
}

/*
 * The JIT's fusions (jit_x86.c fuse()), each run where it applies and
 * where it must not: the compiled code agrees with the interpreter, and
 * the count of fused runs says which compiled fused.
 */
static void fused(const char *name, const char *text, uint64_t r0,
		  uint32_t nfused)
{
	want_fused = (int)nfused;
	expect(name, text, 0, 0, r0);
	want_fused = -1;
}

static void test_fusions(void)
{
	struct xdp_env_saved saved;
	uintptr_t data = jd_addr(&env, JD_PKT_OFF + 16);
	/* A 64-byte packet under its data_end guard, then the body. */
#define GUARD                                                  \
	"ldxw %r2, [%r1+0]\nldxw %r3, [%r1+4]\nmov %r4, %r2\n" \
	"add %r4, 64\njgt %r4, %r3, +10\n"
#define TAIL "exit\nmov %r0, 99\nexit\n"
	uint8_t *pkt;
	uint64_t u16;

	xdp_env_enter(&saved, data);
	pkt = env.init + JD_PKT_OFF + 16;
	pkt[12] = 0x08;
	pkt[13] = 0x86;
	pkt[20] = 0x3c;
	u16 = 0x8608;
	fused("u16 from two bytes",
	      GUARD "ldxb %r5, [%r2+13]\nlsh %r5, 8\nldxb %r6, [%r2+12]\n"
		    "or %r5, %r6\nmov %r0, %r5\nmov %r6, 0\nmov %r5, 0\n"
		    "mov %r4, 0\nmov %r4, 0\n" TAIL,
	      u16, 1);
	fused("u16 from two bytes, the low byte still read",
	      GUARD "ldxb %r5, [%r2+13]\nlsh %r5, 8\nldxb %r6, [%r2+12]\n"
		    "or %r5, %r6\nmov %r0, %r5\nadd %r0, %r6\nmov %r5, 0\n"
		    "mov %r4, 0\nmov %r4, 0\n" TAIL,
	      u16 + 0x08, 0);
	fused("u16 from two bytes, 32-bit shift and or",
	      GUARD "ldxb %r5, [%r2+13]\nlsh32 %r5, 8\nldxb %r6, [%r2+12]\n"
		    "or32 %r5, %r6\nmov %r0, %r5\nmov %r6, 0\nmov %r5, 0\n"
		    "mov %r4, 0\nmov %r4, 0\n" TAIL,
	      u16, 1);
	fused("constant compared, taken",
	      GUARD "ldxb %r5, [%r2+20]\nmov %r6, 0x40\njgt %r6, %r5, +2\n"
		    "mov %r0, 1\nexit\nmov %r0, 2\nmov %r4, 0\nmov %r4, 0\n"
		    "mov %r4, 0\n" TAIL,
	      2, 1);
	fused("constant compared, signed, not taken",
	      GUARD "ldxb %r5, [%r2+20]\nmov %r6, -1\njsgt %r6, %r5, +2\n"
		    "mov %r0, 1\nexit\nmov %r0, 2\nmov %r4, 0\nmov %r4, 0\n"
		    "mov %r4, 0\n" TAIL,
	      1, 1);
	fused("constant compared, the constant read after",
	      GUARD "ldxb %r5, [%r2+20]\nmov %r6, 0x40\njgt %r6, %r5, +2\n"
		    "mov %r0, 1\nexit\nmov %r0, %r6\nmov %r4, 0\n"
		    "mov %r4, 0\nmov %r4, 0\n" TAIL,
	      0x40, 0);
	fused("add folded into the load",
	      GUARD "mov %r5, %r2\nmov %r0, 0\nadd %r2, 12\n"
		    "ldxh %r2, [%r2+0]\nmov %r0, %r2\nmov %r4, 0\n"
		    "mov %r4, 0\nmov %r4, 0\nmov %r4, 0\n" TAIL,
	      u16, 1);
	fused("add kept: its register read after",
	      GUARD "mov %r5, %r2\nmov %r0, 0\nadd %r5, 12\n"
		    "ldxh %r0, [%r5+0]\nsub %r5, %r2\nadd %r0, %r5\n"
		    "mov %r4, 0\nmov %r4, 0\nmov %r4, 0\n" TAIL,
	      u16 + 12, 0);
#undef GUARD
#undef TAIL
	xdp_env_leave(&saved);
}

/* ARRAY lookups, inlined by the JIT: in range, and out of range (NULL). */
static void test_inline_array(void)
{
	struct hr_object *obj;
	struct hr_prog *prog = open_prog("bench_lookup.o", &obj);
	unsigned int key;
	uint32_t a, b, k;

	if (!prog)
		return;
	for (key = 0; key < 6; key++) {
		a = run_key_cpu(prog, key, 0, HR_ENGINE_INTERP);
		b = run_key_cpu(prog, key, 0, HR_ENGINE_JIT);
		k = run_key_cpu(prog, key, 0, HR_ENGINE_JIT_CHECKED);
		/* Each engine added one to the value: 1, 2 then 3. */
		CHECK(a == (key < 4 ? 1u : 7u) && b == (key < 4 ? 2u : 7u) &&
			      k == (key < 4 ? 3u : 7u),
		      "array key %u: interp %u, JIT %u, checked %u", key, a, b,
		      k);
	}
	CHECK(prog->vm.jit != NULL, "bench_lookup not compiled");
	CHECK(prog->vm.jit_chk != NULL, "bench_lookup: no checked code");
	hr_object_close(obj);
}

/*
 * Per-CPU lookups the JIT does without the helper (PERCPU_ARRAY inline,
 * PERCPU_HASH and LRU_PERCPU_HASH by a direct call; @fill: put keys 0..3
 * in first): each worker's own value, NULL for a key or a worker out of
 * range, and afterwards every CPU's values as both engines' increments
 * left them.
 */
static void test_percpu_lookups(const char *file, bool fill)
{
	struct hr_object_open_opts oo = { .sz = sizeof(oo), .ncpus = 3 };
	struct hr_object *obj = NULL;
	struct hr_prog *prog = NULL;
	struct hr_map *map;
	char path[4200];
	uint32_t want[4][HR_TEST_MAX_CPUS] = { { 0 } },
		 got[HR_TEST_MAX_CPUS * 2];
	unsigned int key, cpu, ncpus, c;

	/* Three workers, so that each has a block of its own. */
	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), file);
	CHECK_EQ(hr_object_open(path, &oo, &obj), 0);
	if (obj)
		prog = hr_object_find_prog(obj, NULL);
	if (!prog)
		return;
	map = hr_object_find_map(obj, "values");
	CHECK(map != NULL, "%s: no map", file);
	if (!map)
		goto out;
	ncpus = map->attr.ncpus;
	CHECK_EQ(ncpus, 3);
	if (ncpus != 3)
		goto out;
	memset(got, 0, sizeof(got));
	for (key = 0; fill && key < 4; key++)
		CHECK_EQ(hr_map_update_elem(map, &key, got, HR_NOEXIST), 0);
	for (cpu = 0; cpu <= ncpus; cpu++) {
		for (key = 0; key < 6; key++) {
			bool hit = key < 4 && cpu < ncpus;
			uint32_t a =
				run_key_cpu(prog, key, cpu, HR_ENGINE_INTERP);
			uint32_t b = run_key_cpu(prog, key, cpu, HR_ENGINE_JIT);
			uint32_t k = run_key_cpu(prog, key, cpu,
						 HR_ENGINE_JIT_CHECKED);

			CHECK(a == (hit ? want[key][cpu] + 1 : 7u) &&
				      b == (hit ? want[key][cpu] + 2 : 7u) &&
				      k == (hit ? want[key][cpu] + 3 : 7u),
			      "%s key %u cpu %u: interp %u, JIT %u, checked %u "
			      "(had %u)",
			      file, key, cpu, a, b, k,
			      hit ? want[key][cpu] : 0);
			if (hit)
				want[key][cpu] += 3;
		}
	}
	for (key = 0; key < 4; key++) {
		CHECK_EQ(hr_map_lookup_elem(map, &key, got), 0);
		/* One 8-byte slot a CPU (values rounded up to 8). */
		for (c = 0; c < ncpus; c++)
			CHECK(got[2 * c] == want[key][c],
			      "key %u cpu %u: %u, want %u", key, c, got[2 * c],
			      want[key][c]);
	}
	CHECK(prog->vm.jit != NULL, "%s not compiled", file);
out:
	hr_object_close(obj);
}

static unsigned int hint_mode;

static int t_rx_ts(const struct hr_xdp_buff *xdp, uint64_t *ts)
{
	if (hint_mode == 2)
		return -ENODATA;
	*ts = 0x1122334455667788ull;
	return 0;
}

static int t_rx_hash(const struct hr_xdp_buff *xdp, uint32_t *hash,
		     uint32_t *type)
{
	*hash = 0xdeadbeef; /* written even when it fails */
	if (hint_mode == 2)
		return -ENODATA;
	*type = 0x19;
	return 0;
}

static int t_rx_vlan(const struct hr_xdp_buff *xdp, uint16_t *proto,
		     uint16_t *tci)
{
	*proto = 0x0081;
	*tci = 0x0123;
	return hint_mode == 2 ? -ENODATA : 0;
}

/* The hint kfuncs, inlined by the JIT, against a device with hints, one
 * whose packet has none, one without the VLAN op and one without ops. */
static void test_inline_hints(void)
{
	static const struct hr_xdp_metadata_ops all = {
		.rx_timestamp = t_rx_ts,
		.rx_hash = t_rx_hash,
		.rx_vlan_tag = t_rx_vlan,
	},
						no_vlan = {
							.rx_timestamp = t_rx_ts,
							.rx_hash = t_rx_hash,
						};
	struct hr_object *obj;
	struct hr_prog *prog = open_prog("bench_hints.o", &obj);
	struct hr_run *run = aligned_alloc(64, (sizeof(*run) + 63) & ~63ul);
	uint8_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	uint8_t meta[3][16];
	uint64_t r0[3];
	static const enum hr_engine hint_engines[3] = { HR_ENGINE_INTERP,
							HR_ENGINE_JIT,
							HR_ENGINE_JIT_CHECKED };
	unsigned int mode, e;

	if (!prog || !run || page == MAP_FAILED) {
		CHECK(0, "hints setup");
		goto out;
	}
	for (mode = 0; mode < 4; mode++) {
		for (e = 0; e < 3; e++) {
			struct hr_rxq_info rxq = {
				.meta_supported = true,
				.meta_ops = mode == 3 ? NULL :
					    mode == 1 ? &no_vlan :
							&all,
			};
			struct hr_xdp_buff xdp = {
				.data_hard_start = page,
				.data = page + 256,
				.data_meta = page + 256,
				.data_end = page + 256 + 64,
				.rxq = &rxq,
				.frame_sz = 4096,
			};
			struct hr_xdp_ctx c = { .xdp = &xdp };

			hint_mode = mode;
			memset(page, 0x5a, 4096);
			hr_prog_run_init(prog, run, &c.md);
			run->priv = &c;
			hr_xdp_ctx_sync(&c, run);
			r0[e] = hr_engine_run(hint_engines[e], run,
					      (uintptr_t)&c.md);
			CHECK(run->abort == 0, "hints mode %u: abort %s", mode,
			      hr_abort_str(run->abort));
			memcpy(meta[e], page + 256 - 16, 16);
		}
		CHECK(r0[0] == r0[1] && r0[0] == r0[2] && r0[0] == XDP_PASS,
		      "hints mode %u: r0 %llu vs %llu vs %llu (checked)", mode,
		      (unsigned long long)r0[0], (unsigned long long)r0[1],
		      (unsigned long long)r0[2]);
		CHECK(!memcmp(meta[0], meta[1], 16) &&
			      !memcmp(meta[0], meta[2], 16),
		      "hints mode %u: metadata differs", mode);
	}
	CHECK(prog->vm.jit != NULL, "bench_hints not compiled");
out:
	if (page != MAP_FAILED)
		munmap(page, 4096);
	free(run);
	if (prog)
		hr_object_close(obj);
}

/*
 * Tail calls and callbacks (progs/vm/jit_tc_calls.bpf.c): each program from
 * the same maps under both engines, compared on r0, the abort (reason and
 * pc) and the .bss and vals contents after it; and compiled by the JIT.
 */
struct tc_state {
	uint32_t ret;
	int abort;
	uint32_t abort_pc;
	uint8_t bss[128];
	uint64_t vals[8];
};

static void tc_reset(struct hr_object *obj)
{
	struct hr_map *bss = hr_object_find_map(obj, ".bss");
	struct hr_map *vals = hr_object_find_map(obj, "vals");
	uint32_t k = 0;
	uint64_t v;
	void *p = bss->ops->lookup(bss, &k, 0);

	memset(p, 0, bss->attr.value_size);
	for (k = 0; k < 8; k++) {
		v = 10 * k + 3;
		CHECK_EQ(hr_map_update_elem(vals, &k, &v, HR_ANY), 0);
	}
}

static void tc_one(struct hr_object *obj, const char *name, int engine,
		   struct tc_state *st)
{
	struct hr_prog *p = hr_object_find_prog(obj, name);
	struct hr_map *bss = hr_object_find_map(obj, ".bss");
	struct hr_map *vals = hr_object_find_map(obj, "vals");
	uint8_t pkt[64] = { 0 };
	struct hr_test_run_opts o = { .sz = sizeof(o),
				      .data_in = pkt,
				      .data_size_in = sizeof(pkt),
				      .repeat = 1,
				      .engine = engine };
	uint32_t k = 0;
	size_t n;

	memset(st, 0, sizeof(*st));
	pkt[1] = 42;
	tc_reset(obj);
	CHECK_EQ(hr_prog_test_run(p, &o), 0);
	st->ret = o.retval;
	st->abort = o.abort;
	st->abort_pc = o.abort_pc;
	n = bss->attr.value_size < sizeof(st->bss) ? bss->attr.value_size :
						     sizeof(st->bss);
	memcpy(st->bss, bss->ops->lookup(bss, &k, 0), n);
	for (k = 0; k < 8; k++)
		CHECK_EQ(hr_map_lookup_elem(vals, &k, &st->vals[k]), 0);
}

/* Runs @name under both engines; returns the JIT's result in @out. */
static void tc_both(struct hr_object *obj, const char *name,
		    struct tc_state *out)
{
	struct hr_prog *p = hr_object_find_prog(obj, name);
	struct tc_state a, k;

	CHECK(p != NULL, "%s: no program", name);
	if (!p)
		return;
	tc_one(obj, name, HR_ENGINE_INTERP, &a);
	tc_one(obj, name, HR_ENGINE_JIT_CHECKED, &k);
	CHECK(a.ret == k.ret && a.abort == k.abort &&
		      a.abort_pc == k.abort_pc &&
		      !memcmp(a.bss, k.bss, sizeof(a.bss)) &&
		      !memcmp(a.vals, k.vals, sizeof(a.vals)),
	      "%s: checked JIT r0 %u abort %d at %u, interp %u %d at %u", name,
	      k.ret, k.abort, k.abort_pc, a.ret, a.abort, a.abort_pc);
	tc_one(obj, name, HR_ENGINE_JIT, out);
	CHECK(p->vm.jit != NULL, "%s: not compiled", name);
	CHECK(a.ret == out->ret, "%s: r0 %u, JIT %u", name, a.ret, out->ret);
	CHECK(a.abort == out->abort && a.abort_pc == out->abort_pc,
	      "%s: abort %d at %u, JIT %d at %u", name, a.abort, a.abort_pc,
	      out->abort, out->abort_pc);
	CHECK(!memcmp(a.bss, out->bss, sizeof(a.bss)), "%s: .bss differs",
	      name);
	CHECK(!memcmp(a.vals, out->vals, sizeof(a.vals)), "%s: vals differ",
	      name);
}

static void tc_slot(struct hr_object *obj, uint32_t k, const char *name)
{
	struct hr_map *jmp = hr_object_find_map(obj, "jmp");
	uint32_t fd;

	if (!name) {
		hr_map_delete_elem(jmp, &k);
		return;
	}
	fd = (uint32_t)hr_prog_fd(hr_object_find_prog(obj, name));
	CHECK_EQ(hr_map_update_elem(jmp, &k, &fd, HR_ANY), 0);
}

static void test_tail_callbacks(void)
{
	struct hr_object *obj;
	struct tc_state st;
	static const char *const progs[] = { "tc_entry", "tc_leaf", "tc_abort",
					     "tc_self",	 "cb_loop", "cb_each",
					     "cb_abort", "cb_tail" };
	unsigned int i;

	if (!open_prog("jit_tc_calls.o", &obj))
		return;
	/* Empty slot 0: falls through. */
	tc_both(obj, "tc_entry", &st);
	CHECK_EQ(st.ret, 1001);
	CHECK_EQ(st.abort, 0);
	/* A chain of 1. */
	tc_slot(obj, 0, "tc_leaf");
	tc_both(obj, "tc_entry", &st);
	CHECK_EQ(st.ret, 2000 + 11 + 42);
	/* The target aborts: its reason and pc. */
	tc_slot(obj, 0, "tc_abort");
	tc_both(obj, "tc_entry", &st);
	CHECK_EQ(st.abort, HR_ABORT_OOB_LOAD);
	/* 33 tail calls; the 34th falls through. */
	tc_slot(obj, 1, "tc_self");
	tc_both(obj, "tc_self", &st);
	CHECK_EQ(st.ret, 3000 + 34);
	/* 0 -> tc_self: 1 + 33 tail calls in all, the last falls through. */
	tc_slot(obj, 0, "tc_self");
	tc_both(obj, "tc_entry", &st);
	CHECK_EQ(st.ret, 3000 + 34);
	/* Registers kept across the call, read first by the target. */
	tc_slot(obj, 2, "tc_regs");
	tc_both(obj, "tc_setregs", &st);
	CHECK_EQ(st.ret, 9876542);
	tc_slot(obj, 2, NULL);
	tc_both(obj, "tc_setregs", &st);
	CHECK_EQ(st.ret, 99);
	/* Callbacks: bpf_loop stopped at i = 6 (7 calls), nested once. */
	tc_both(obj, "cb_loop", &st);
	CHECK_EQ(st.ret, 7 * 1000000 + (1 + 91 + 3000) * 10 + 7);
	/* for_each over vals: keys 0..5, 6 calls. */
	tc_both(obj, "cb_each", &st);
	CHECK_EQ(st.ret, 6 * 10000 + (3 + 13 + 23 + 33 + 43 + 53) + 15);
	tc_both(obj, "cb_abort", &st);
	CHECK_EQ(st.abort, HR_ABORT_OOB_LOAD);
	/* A callback, then a tail call into tc_leaf, then none. */
	tc_slot(obj, 0, "tc_leaf");
	tc_both(obj, "cb_tail", &st);
	CHECK_EQ(st.ret, 2000 + 4 + 10 + 42);
	tc_slot(obj, 0, NULL);
	tc_both(obj, "cb_tail", &st);
	CHECK_EQ(st.ret, 4000 + 4);
	/* Programs that may tail-call have no direct entry. */
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		struct hr_prog *p = hr_object_find_prog(obj, progs[i]);
		bool tail = i == 0 || i == 3 || i == 7;

		CHECK((hr_jit_entry(&p->vm) == NULL) == tail, "%s: entry",
		      progs[i]);
	}
	tc_slot(obj, 1, NULL);
	hr_object_close(obj);
}

/*
 * The corpus: every object in the progs directory, each program over a
 * few packets under the interpreter, the JIT and the checked JIT, each
 * engine on its own copy of the object (maps change as programs run).
 * Verdict, abort (reason and pc) and the output packet must agree; the
 * checked JIT's own abort (a wrong proof) never appears.
 */
struct corpus_out {
	int ret, abort;
	uint32_t retval, abort_pc, len;
	uint8_t data[256 + 128];
};

static void corpus_run(struct hr_prog *p, const uint8_t *pkt, uint32_t len,
		       enum hr_engine eng, struct corpus_out *out)
{
	HR_OPTS(hr_test_run_opts, o, .data_in = pkt, .data_size_in = len,
		.data_out = out->data, .data_size_out = sizeof(out->data),
		.repeat = 1, .engine = eng);

	memset(out, 0, sizeof(*out));
	out->ret = hr_prog_test_run(p, &o);
	out->retval = o.retval;
	out->abort = o.abort;
	out->abort_pc = o.abort_pc;
	out->len = o.data_size_out;
}

static void test_corpus(void)
{
	static const enum hr_engine eng[3] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
					       HR_ENGINE_JIT_CHECKED };
	static const uint8_t udp[64] = { 2, 0,	0,    0,    0,	  1, 2,	   0,
					 0, 0,	0,    2,    8,	  0, 0x45, 0,
					 0, 50, 0,    0,    0,	  0, 64,   17,
					 0, 0,	10,   0,    0,	  1, 10,   0,
					 0, 2,	0x30, 0x39, 0x00, 53 };
	static uint8_t zeros[60], tiny[14];
	const uint8_t *pkts[3] = { udp, zeros, tiny };
	const uint32_t lens[3] = { sizeof(udp), sizeof(zeros), sizeof(tiny) };
	static struct corpus_out r[3];
	DIR *d = opendir(t_progs_dir());
	struct dirent *de;
	unsigned int nprogs = 0, bad = 0, i, k, e;

	CHECK(d != NULL, "cannot open %s", t_progs_dir());
	while (d && (de = readdir(d))) {
		struct hr_object *obj[3] = { 0 };
		char path[4200];
		size_t n = strlen(de->d_name);

		if (n < 3 || strcmp(de->d_name + n - 2, ".o"))
			continue;
		/* Random on purpose: no two runs agree, whatever the
		 * engine. */
		if (t_prog_by_design(de->d_name, T_RANDOM, NULL))
			continue;
		snprintf(path, sizeof(path), "%s/%s", t_progs_dir(),
			 de->d_name);
		for (e = 0; e < 3; e++) {
			HR_OPTS(hr_object_open_opts, oo);

			if (hr_object_open(path, &oo, &obj[e]))
				obj[e] = NULL;
		}
		for (i = 0; obj[0] && obj[1] && obj[2] &&
			    i < hr_object_prog_count(obj[0]);
		     i++) {
			nprogs++;
			for (k = 0; k < 3; k++) {
				for (e = 0; e < 3; e++)
					corpus_run(hr_object_prog(obj[e], i),
						   pkts[k], lens[k], eng[e],
						   &r[e]);
				for (e = 1; e < 3; e++) {
					bool same =
						r[e].ret == r[0].ret &&
						r[e].retval == r[0].retval &&
						r[e].abort == r[0].abort &&
						r[e].abort_pc ==
							r[0].abort_pc &&
						r[e].len == r[0].len &&
						!memcmp(r[e].data, r[0].data,
							sizeof(r[0].data));

					if (!same && ++bad <= 10)
						CHECK(0,
						      "%s prog %u packet %u "
						      "engine %d: ret %d/%d "
						      "retval %u/%u abort "
						      "%s/%s pc %u/%u",
						      de->d_name, i, k, eng[e],
						      r[0].ret, r[e].ret,
						      r[0].retval, r[e].retval,
						      hr_abort_str(r[0].abort),
						      hr_abort_str(r[e].abort),
						      r[0].abort_pc,
						      r[e].abort_pc);
					CHECK(r[e].abort != HR_ABORT_JIT_CHECK,
					      "%s prog %u: a proof failed",
					      de->d_name, i);
				}
			}
		}
		for (e = 0; e < 3; e++)
			if (obj[e])
				hr_object_close(obj[e]);
	}
	if (d)
		closedir(d);
	CHECK(bad == 0, "%u corpus runs differ", bad);
	CHECK(nprogs >= 50, "only %u corpus programs", nprogs);
}

int main(void)
{
	if (jd_env_init(&env)) {
		CHECK(0, "out of memory");
		return t_done();
	}
	memset(env.init, 0x11, sizeof(env.init));
	memset(env.stack_init, 0x22, sizeof(env.stack_init));
	conformance("tests", false);
	conformance("negative", true);
	test_aborts();
	test_unvalidated();
	test_wx();
	test_pkt_guards();
	test_fusions();
	test_inline_array();
	test_percpu_lookups("jit_percpu.o", false);
	test_percpu_lookups("jit_percpu_hash.o", true);
	test_percpu_lookups("jit_lru_percpu.o", true);
	test_inline_hints();
	test_tail_callbacks();
	test_corpus();
	free(env.vm.calls);
	jd_env_free(&env);
	return t_done();
}
