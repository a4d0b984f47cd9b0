// SPDX-License-Identifier: MIT
/*
 * The access an aborted test run stopped, in the program's terms: which
 * region it was checked against (the packet, its metadata, the stack, the
 * context, a map value, global data) and where in it, as the kernel's
 * verifier names a bad access (check_mem_access: "invalid access to
 * packet, off=.. size=..", "invalid write to stack R10 off=.. size=..").
 * Runs on the abort path only: the engines record the instruction's kind,
 * size and address (hr_run_abort), this places the address.
 */
#include <string.h>

#include <headroom/map.h>
#include <headroom/test_run.h>

#include "progs/prog.h"
#include "progs/test_run_priv.h"
#include "vm/mem.h"

_Static_assert(HR_ACCESS_LOAD == (int)HR_MEM_OP_LOAD &&
		       HR_ACCESS_STORE == (int)HR_MEM_OP_STORE &&
		       HR_ACCESS_ATOMIC == (int)HR_MEM_OP_ATOMIC &&
		       HR_ACCESS_HELPER_READ == (int)HR_MEM_OP_HELPER_READ &&
		       HR_ACCESS_HELPER_WRITE == (int)HR_MEM_OP_HELPER_WRITE,
	       "access kinds");

/* Addresses below this are a NULL pointer plus an offset; and a region
 * further than this from the address is not "nearest" in any useful way. */
#define NEAR 4096

static const char *const kind_names[] = {
	[HR_ACCESS_NONE] = "none",
	[HR_ACCESS_LOAD] = "load",
	[HR_ACCESS_STORE] = "store",
	[HR_ACCESS_ATOMIC] = "atomic",
	[HR_ACCESS_HELPER_READ] = "helper read",
	[HR_ACCESS_HELPER_WRITE] = "helper write",
};

static const char *const region_names[] = {
	[HR_ACCESS_UNKNOWN] = "unknown",     [HR_ACCESS_NULL] = "NULL",
	[HR_ACCESS_PACKET] = "packet",	     [HR_ACCESS_META] = "metadata",
	[HR_ACCESS_STACK] = "stack",	     [HR_ACCESS_CTX] = "context",
	[HR_ACCESS_MAP_VALUE] = "map value", [HR_ACCESS_GLOBAL] = "global data",
};

const char *hr_access_kind_str(int kind)
{
	if (kind < 0 || kind >= (int)(sizeof(kind_names) / sizeof(*kind_names)))
		return "unknown";
	return kind_names[kind];
}

const char *hr_access_region_str(int region)
{
	if (region < 0 ||
	    region >= (int)(sizeof(region_names) / sizeof(*region_names)))
		return "unknown";
	return region_names[region];
}

/* The best region so far: the one whose bytes the access is closest to. */
struct near {
	uint64_t addr;
	uint32_t size;
	uint64_t dist;
	struct hr_test_access *out;
};

/* Bytes between [addr, addr + size) and [lo, hi): 0 when they overlap. */
static uint64_t distance(const struct near *n, uintptr_t lo, uintptr_t hi)
{
	if (n->addr < lo)
		return lo - n->addr;
	if (n->addr + n->size > hi)
		return n->addr + n->size - hi;
	return 0;
}

/* Offers [lo, hi) with its origin @base (offsets count from there); the
 * first of equally near regions stays, in hr_mem_check()'s order. */
static void offer(struct near *n, int region, const char *name, uintptr_t lo,
		  uintptr_t hi, uintptr_t base)
{
	uint64_t d = distance(n, lo, hi);

	if (d >= n->dist)
		return;
	n->dist = d;
	n->out->region = region;
	n->out->name = name;
	n->out->offset = (int64_t)(n->addr - base);
	n->out->lo = (int64_t)(lo - base);
	n->out->hi = (int64_t)(hi - base);
}

/* The value of map region @r nearest the access: its element's value
 * bytes (hash maps keep them inside their elements, arrays back to back). */
static void offer_region(struct near *n, const struct hr_region *r)
{
	const char *name = r->map ? hr_map_name(r->map) : NULL;
	uint64_t stride = r->stride, off = r->off, len = r->len, idx = 0;
	int kind = HR_ACCESS_MAP_VALUE;
	uintptr_t v;

	if (r->end <= r->start)
		return;
	/* Global data is an array map named after its section. */
	if (name && strchr(name, '.')) {
		kind = HR_ACCESS_GLOBAL;
		name = strchr(name, '.');
	}
	if (!stride) {
		stride = r->map ? hr_map_value_size(r->map) : 0;
		if (!stride || stride > r->end - r->start)
			stride = r->end - r->start;
		off = 0;
		len = stride;
	}
	if (n->addr > r->start)
		idx = (n->addr - r->start) / stride;
	if (idx > (r->end - r->start - 1) / stride)
		idx = (r->end - r->start - 1) / stride;
	v = r->start + idx * stride + off;
	offer(n, kind, name, v, v + len, v);
	/* An access in the bytes before this element's value (a hash
	 * element's key) may be nearer the end of the previous value. */
	if (idx)
		offer(n, kind, name, v - stride, v - stride + len, v - stride);
}

static const char *helper_at(const struct hr_run *run)
{
	const struct hr_vm_prog *vm = run->vm;
	const struct hr_insn *insn;

	if (!vm || !vm->insns || run->abort_pc >= vm->cnt)
		return NULL;
	insn = &vm->insns[run->abort_pc];
	if (insn->code != (HR_JMP | HR_CALL) || insn->src != HR_CALL_HELPER)
		return NULL;
	return hr_helper_name(insn->imm);
}

void hr_test_access_fill(const struct hr_prog *prog, const struct hr_run *run,
			 uintptr_t data, struct hr_test_run_opts *o)
{
	struct hr_test_access *a;
	uintptr_t fp, ctx = (uintptr_t)run->ctx;
	struct near n;
	unsigned int i;

	if (!HR_OPTS_HAS(o, access))
		return;
	a = &o->access;
	memset(a, 0, sizeof(*a));
	if (!run->abort || run->abort_op == HR_MEM_OP_NONE)
		return;
	a->kind = run->abort_op;
	a->size = run->abort_size;
	a->addr = run->abort_addr;
	if (run->abort_op == HR_MEM_OP_HELPER_READ ||
	    run->abort_op == HR_MEM_OP_HELPER_WRITE)
		a->helper = helper_at(run);
	if (a->addr < NEAR) {
		a->region = HR_ACCESS_NULL;
		a->offset = (int64_t)a->addr;
		return;
	}
	n = (struct near){
		.addr = a->addr,
		.size = a->size ? a->size : 1,
		.dist = NEAR,
		.out = a,
	};
	/* The stack this frame reaches: its own 512 bytes and its callers'. */
	fp = hr_stack_hi(run) - (uintptr_t)run->abort_depth * HR_STACK_SIZE;
	offer(&n, HR_ACCESS_STACK, NULL, hr_stack_lo(run, run->abort_depth),
	      hr_stack_hi(run), fp);
	if (data >= run->pkt_lo && data <= run->pkt_hi) {
		offer(&n, HR_ACCESS_PACKET, NULL, data, run->pkt_hi, data);
		if (data > run->pkt_lo)
			offer(&n, HR_ACCESS_META, NULL, run->pkt_lo, data,
			      run->pkt_lo);
	}
	if (ctx)
		offer(&n, HR_ACCESS_CTX,
		      prog->type == &hr_prog_type_xdp ? "xdp_md" : "__sk_buff",
		      ctx, ctx + run->vm->ctx_size, ctx);
	for (i = 0; i < run->nregions; i++)
		offer_region(&n, &run->regions[i]);
}
