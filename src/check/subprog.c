// SPDX-License-Identifier: MIT
/*
 * headroom check: bpf-to-bpf calls, global functions, callbacks (bpf_loop,
 * map walks, timers) and the stack limits across frames, as the kernel's
 * check_func_call(), prepare_func_exit() and check_max_stack_depth()
 * follow them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "check/walk.h"

/* --- bpf-to-bpf calls ---------------------------------------------------- */

/* The function of prog->funcs starting at @pc, or -1. */
static int func_at(const struct walk *w, int64_t pc)
{
	uint32_t i;

	for (i = 0; w->prog->funcs && i < w->prog->nfuncs; i++)
		if (w->prog->funcs[i].start == pc)
			return (int)i;
	return -1;
}

/* Global linkage as the kernel sees it: from func_info, which it has
 * only where it took the object's BTF (else every function is static). */
bool ck_is_global(const struct walk *w, int f)
{
	return w->prog->func_info && w->prog->funcs[f].global;
}

/* Global function @f's argument kinds into *@a: their count, or -errno. */
int ck_global_args(struct walk *w, uint32_t f, const enum hr_global_arg **a)
{
	struct global_sig *g = &w->globals[f];

	if (!g->read) {
		g->read = true;
		g->nargs = hr_check_global_args(
			w->prog->obj ? w->prog->obj->path : NULL,
			w->prog->funcs[f].name, w->xdp, g->args);
	}
	*a = g->args;
	return g->nargs;
}

/*
 * A call of a global function (__check_func_call): the kernel checks the
 * arguments against its BTF signature, does not walk into it here (it
 * is walked on its own once the main function is done: walk_globals),
 * and gives the caller an unknown number in R0.
 */
static int call_global(struct walk *w, struct state *s, uint32_t pc, int f)
{
	const enum hr_global_arg *a;
	int n, i;

	if (s->locked || s->rcu || s->preempt) {
		ck_set_unknown(w, pc, "a global function called in a section");
		return -1;
	}
	n = ck_global_args(w, (uint32_t)f, &a);
	for (i = 0; i < n; i++) {
		const struct reg *r = &s->r[i + 1];

		if (a[i] == HR_GARG_SCALAR && r->t == R_SCALAR)
			continue;
		if (a[i] == HR_GARG_CTX && r->t == R_CTX && !r->off)
			continue;
		/* btf_check_func_arg_match's first words; "Caller passes
		 * invalid args into func#N" follows them. */
		if (a[i] == HR_GARG_SCALAR)
			return ck_fault(w, s, pc, "R%d is not a scalar", i + 1);
		break;
	}
	if (n < 0 || i < n) {
		ck_set_unknown(w, pc,
			       "a global function's arguments this check does "
			       "not follow");
		return -1;
	}
	for (i = 1; i <= 5; i++)
		s->r[i] = (struct reg){ .t = R_NONE };
	s->r[0] = scalar(0, UINT64_MAX, true);
	w->func_called[f] = true;
	s->pc = pc + 1;
	return 0;
}

/* setup_func_entry's limit on frames; a function already on the stack
 * (recursion, which check_cfg refuses in its own words) is not followed.
 * -1 when the path ends. */
static int frame_entry_refused(struct walk *w, struct state *s, uint32_t pc,
			       int f)
{
	unsigned int k;

	for (k = 0; k < s->curframe; k++)
		if (s->fr[k].func == f)
			break;
	if (k < s->curframe || s->func == f) {
		ck_set_unknown(w, pc, "a recursive call");
		return -1;
	}
	if (s->curframe + 1 >= MAX_FRAMES)
		return ck_fault(w, s, pc,
				"the call stack of %d frames is too deep",
				s->curframe + 2);
	return 0;
}

/* @from's current frame, calling at @pc, saved as @to's caller frame. */
static struct frame *save_frame(struct state *to, const struct state *from,
				uint32_t pc)
{
	struct frame *fr = &to->fr[from->curframe];

	memcpy(fr->r, from->r, sizeof(fr->r));
	memcpy(fr->s, from->s, sizeof(fr->s));
	fr->callsite = pc;
	fr->func = from->func;
	fr->cb = from->cb;
	fr->cb_refs = from->cb_refs;
	fr->soft = from->soft;
	return fr;
}

/*
 * A call of a static subprogram, as __check_func_call sets it up: the
 * callee gets R1-R5, a stack of its own (R10), nothing else; the
 * caller's R0-R5 are not initialized when it returns. A global function
 * the kernel verifies on its own, from its BTF signature: not followed.
 */
int ck_enter_func(struct walk *w, struct state *s, uint32_t pc,
		  const struct hr_insn *in)
{
	int64_t target = (int64_t)pc + 1 + in->imm;
	int f = func_at(w, target);
	struct frame *fr;
	int i;

	if (f < 0) {
		ck_set_unknown(w, pc, "a call this check cannot place");
		return -1;
	}
	if (ck_is_global(w, f))
		return call_global(w, s, pc, f);
	if (s->locked) {
		ck_set_unknown(w, pc, "a call while a bpf_spin_lock is held");
		return -1;
	}
	if (frame_entry_refused(w, s, pc, f))
		return -1;
	fr = save_frame(s, s, pc);
	s->cb = 0;
	for (i = 0; i <= 5; i++)
		fr->r[i] = (struct reg){ .t = R_NONE };
	s->r[0] = (struct reg){ .t = R_NONE };
	for (i = 6; i <= 9; i++)
		s->r[i] = (struct reg){ .t = R_NONE };
	memset(s->s, 0, sizeof(s->s));
	s->curframe++;
	s->r[10] = (struct reg){ .t = R_STACK,
				 .exact = true,
				 .frameno = s->curframe };
	s->func = (uint16_t)f;
	w->func_called[f] = true;
	s->pc = (uint32_t)target;
	return 0;
}

/* A callback's exit: R0 a number in [0, 1] (callback_ret_range), and
 * nothing held that it did not hold when called. */
/* prepare_func_exit's refusal of a callback's return value outside its
 * range ([0, 1] for bpf_loop and bpf_for_each_map_elem, [0, 0] for a
 * timer), worded by verbose_invalid_scalar from the signed bounds: known
 * here when the kernel's unsigned range is this one and non-negative
 * (bounds sync makes the signed ones the same). 1 when refused. */
static int callback_ret_refused(struct walk *w, struct state *s, uint32_t pc)
{
	const struct reg *r0 = &s->r[0];
	uint64_t max = s->cb == BPF_FUNC_timer_set_callback ? 0 : 1;
	char smax[32] = "";

	if (s->cb != BPF_FUNC_loop && s->cb != BPF_FUNC_for_each_map_elem &&
	    s->cb != BPF_FUNC_timer_set_callback)
		return 0;
	if (r0->t != R_SCALAR || !r0->exact || r0->hi <= max ||
	    r0->hi > INT64_MAX)
		return 0;
	if (r0->hi < INT64_MAX)
		snprintf(smax, sizeof(smax), " smax=%llu",
			 (unsigned long long)r0->hi);
	ck_fault(w, s, pc,
		 "At callback return the register R0 has smin=%llu%s should "
		 "have been in [0, %llu]",
		 (unsigned long long)r0->lo, smax, (unsigned long long)max);
	return 1;
}

static int callback_exit_ok(struct walk *w, struct state *s, uint32_t pc)
{
	const struct reg *r0 = &s->r[0];

	if (is_ptr(r0))
		return ck_fault(w, s, pc, "R0 not a scalar value");
	if (callback_ret_refused(w, s, pc))
		return -1;
	/* An async callback's range is [0, 0]. */
	if (r0->t != R_SCALAR || r0->hi > 1 ||
	    (s->cb == BPF_FUNC_timer_set_callback && r0->hi)) {
		ck_set_unknown(w, pc, "a callback's return value");
		return -1;
	}
	if (s->nrefs != s->cb_refs || s->locked) {
		ck_set_unknown(w, pc, "a callback returning with %s held",
			       s->locked ? "a lock" : "a reference");
		return -1;
	}
	return 0;
}

/*
 * BPF_EXIT of a subprogram (prepare_func_exit): references, locks and
 * sections carry over to the caller (check_resource_leak looks only at
 * the main function's exit); a pointer to a stack is refused as R0. A
 * plain call returns R0 to the caller, which resumes after its call; a
 * callback goes back to the helper's call, which schedules it again
 * (the kernel's way to walk "called any number of times").
 */
int ck_leave_func(struct walk *w, struct state *s, uint32_t pc)
{
	struct reg r0 = s->r[0];
	const struct frame *fr = &s->fr[s->curframe - 1];
	bool cb = s->cb;

	/* Any stack's, the caller's own too (the kernel is conservative). */
	if (r0.t == R_STACK)
		return ck_fault(w, s, pc,
				"cannot return stack pointer to the caller");
	if (cb && callback_exit_ok(w, s, pc))
		return -1;
	/* A timer's callback is its own walk (push_async_cb): it ends
	 * here, and the caller went on past bpf_timer_set_callback. */
	if (s->cb == BPF_FUNC_timer_set_callback)
		return -1;
	memcpy(s->r, fr->r, sizeof(s->r));
	memcpy(s->s, fr->s, sizeof(s->s));
	s->func = fr->func;
	s->cb = fr->cb;
	s->cb_refs = fr->cb_refs;
	s->curframe--;
	if (cb) {
		/* Met there again, it must be a state met before: the
		 * kernel's convergence (states_equal, precision) is not
		 * modelled, so a new one is "cannot tell" (walk_path).
		 * The callback's own branches are gone with its frame: no
		 * value of theirs reaches the caller but through its stack,
		 * which is compared. */
		s->soft = fr->soft;
		s->cb_return = true;
		s->pc = fr->callsite;
		return 0;
	}
	s->r[0] = r0;
	s->pc = fr->callsite + 1;
	return 0;
}

/* bpf_loop and bpf_for_each_map_elem's arguments, checked in order as
 * check_func_arg does; 0 when the callback can be followed. */
static int callback_args(struct walk *w, struct state *s, uint32_t pc, int id)
{
	const struct reg *r = s->r;
	int i;

	for (i = 1; i <= 4; i++)
		if (r[i].t == R_NONE)
			return ck_fault(w, s, pc, "R%d !read_ok", i);
	if (id == BPF_FUNC_for_each_map_elem) {
		uint32_t t = r[1].t == R_MAP_PTR ? r[1].map->attr.type : 0;

		if (t != BPF_MAP_TYPE_ARRAY && t != BPF_MAP_TYPE_PERCPU_ARRAY &&
		    t != BPF_MAP_TYPE_HASH && t != BPF_MAP_TYPE_PERCPU_HASH &&
		    t != BPF_MAP_TYPE_LRU_HASH &&
		    t != BPF_MAP_TYPE_LRU_PERCPU_HASH)
			goto unknown;
	}
	if (r[2].t != R_FUNC || r[2].off ||
	    !(r[3].t == R_STACK || (is_const(&r[3]) && !r[3].lo)))
		goto unknown;
	return 0;
unknown:
	ck_set_unknown(w, pc, "%s arguments", ck_helper_name(id));
	return -1;
}

/*
 * bpf_loop (set_loop_callback_state: R1 the index, R2 the context) and
 * bpf_for_each_map_elem (set_map_elem_callback_state: R1 the map, R2 the
 * key, R3 the value, R4 the context): the callback's walk waits as a
 * branch (push_callback_call), the caller goes on past the call.
 */
/* A callback's first state, one frame above @s's (whose frame it saves):
 * nothing in its registers and stack yet. NULL, unknown, when out of
 * memory. */
static struct state *callback_state(struct walk *w, struct state *s,
				    uint32_t pc)
{
	struct state *cb = malloc(sizeof(*cb));
	int i;

	if (!cb) {
		ck_set_unknown(w, pc, "out of memory");
		return NULL;
	}
	memcpy(cb, s, state_size(s));
	save_frame(cb, s, pc);
	for (i = 0; i < HR_NREGS; i++)
		cb->r[i] = (struct reg){ .t = R_NONE };
	memset(cb->s, 0, sizeof(cb->s));
	cb->curframe++;
	cb->r[10] = (struct reg){ .t = R_STACK,
				  .exact = true,
				  .frameno = cb->curframe };
	return cb;
}

/* A map value of @m, at offset 0. */
static struct reg value_reg(const struct hr_map *m)
{
	return (struct reg){
		.t = R_VAL,
		.exact = true,
		.map = m,
		.vsize = m->attr.value_size,
		.rdonly = hr_map_prog_rdonly(m),
	};
}

/* @cb, the callback @id hands function @f, waits as a branch. */
static int callback_push(struct walk *w, struct state *cb, int f, int id)
{
	int ret;

	cb->func = (uint16_t)f;
	cb->cb = (int16_t)id;
	cb->pc = w->prog->funcs[f].start;
	w->func_called[f] = true;
	w->func_cb[f] |= FUNC_CB;
	if (id == BPF_FUNC_timer_set_callback)
		w->func_cb[f] |= FUNC_ASYNC;
	ret = ck_push(w, cb);
	free(cb);
	return ret;
}

int ck_callback_call(struct walk *w, struct state *s, uint32_t pc, int id)
{
	int f;
	struct state *cb;

	if (callback_args(w, s, pc, id))
		return -1;
	f = (int)s->r[2].lo;
	if (frame_entry_refused(w, s, pc, f))
		return -1;
	cb = callback_state(w, s, pc);
	if (!cb)
		return -1;
	if (id == BPF_FUNC_loop) {
		cb->r[1] = scalar(0, UINT64_MAX, false);
		cb->r[2] = s->r[3];
	} else {
		cb->r[1] = s->r[1];
		cb->r[2] = (struct reg){ .t = R_OTHER };
		cb->r[3] = value_reg(s->r[1].map);
		cb->r[4] = s->r[3];
	}
	cb->cb_refs = (int16_t)s->nrefs;
	return callback_push(w, cb, f, id);
}

/* A timer's callback walked as a branch one frame above the caller's,
 * which it cannot reach (its arguments are the map, key and value). */
static int timer_callback(struct walk *w, struct state *s, uint32_t pc)
{
	const struct hr_map *m = s->r[1].map;
	int f = (int)s->r[2].lo;
	struct state *cb;

	if (frame_entry_refused(w, s, pc, f))
		return -1;
	cb = callback_state(w, s, pc);
	if (!cb)
		return -1;
	cb->r[1] = (struct reg){ .t = R_MAP_PTR, .exact = true, .map = m };
	/* PTR_TO_MAP_KEY: key_size bytes to read, of no map's value. */
	cb->r[2] = (struct reg){ .t = R_VAL,
				 .exact = true,
				 .vsize = m->attr.key_size,
				 .rdonly = true };
	cb->r[3] = value_reg(m);
	cb->cb_refs = 0;
	cb->nrefs = 0;
	return callback_push(w, cb, f, BPF_FUNC_timer_set_callback);
}

/*
 * The timer helpers (process_timer_func, check_map_field_pointer): R1 a
 * map value at a constant offset that is its bpf_timer; bpf_timer_init's
 * map that value's map; bpf_timer_set_callback's a static function,
 * walked as the kernel walks an async callback (set_timer_callback_state:
 * R1 the map, R2 the key, R3 the value; R0 0 at its exit) from the main
 * function's frame. The kernel's messages for the rest are not modelled:
 * "cannot tell".
 */
int ck_timer_call(struct walk *w, struct state *s, uint32_t pc, int id)
{
	const struct reg *r = s->r;
	const struct hr_map_fields *f;
	int nargs = id == BPF_FUNC_timer_cancel	      ? 1 :
		    id == BPF_FUNC_timer_set_callback ? 2 :
							3;
	const char *name;
	int64_t off;
	int i;

	if (!ck_license_gpl(w)) {
		ck_set_unknown(w, pc, "%s: a GPL-only helper, and the license",
			       ck_helper_name(id));
		return -1;
	}
	/* R1, then the others in order, as check_func_arg takes them. */
	if (r[1].t == R_NONE)
		return ck_fault(w, s, pc, "R1 !read_ok");
	if (r[1].t != R_VAL || !r[1].map || !r[1].exact || r[1].lo != r[1].hi)
		goto unknown;
	f = ck_map_fields(w, r[1].map);
	if (f->unsure)
		goto unknown;
	name = r[1].map->name; /* the kernel keeps BPF_OBJ_NAME_LEN - 1 */
	if (!f->has_btf)
		return ck_fault(w, s, pc,
				"map '%.15s' has to have BTF in order to use "
				"bpf_timer",
				name);
	if (f->timer_off < 0)
		return ck_fault(w, s, pc, "map '%.15s' has no valid bpf_timer",
				name);
	off = r[1].off + (int64_t)r[1].lo;
	if (off != f->timer_off)
		return ck_fault(w, s, pc,
				"off %lld doesn't point to 'struct bpf_timer' "
				"that is at %d",
				(long long)off, f->timer_off);
	for (i = 2; i <= nargs; i++) {
		if (r[i].t == R_NONE)
			return ck_fault(w, s, pc, "R%d !read_ok", i);
		if (i == 2 && id == BPF_FUNC_timer_init) {
			if (r[2].t != R_MAP_PTR || !r[2].map)
				goto unknown;
			if (r[2].map != r[1].map)
				return ck_fault(
					w, s, pc,
					"timer pointer in R1 map_uid=0 "
					"doesn't match map pointer in R2 "
					"map_uid=0");
		}
	}
	if (id != BPF_FUNC_timer_set_callback)
		return 0;
	if (r[2].t != R_FUNC || r[2].off || s->curframe || s->cb)
		goto unknown;
	return timer_callback(w, s, pc);
unknown:
	ck_set_unknown(w, pc, "%s arguments", ck_helper_name(id));
	return -1;
}

/* ld_imm64 of a callback's address (check_ld_imm): the kernel needs the
 * object's func_info for it, and a static function. */
int ck_func_addr(struct walk *w, struct state *s, uint32_t pc,
		 const struct hr_insn *in)
{
	int f = func_at(w, (int64_t)pc + 1 + in->imm);

	if (!w->prog->func_info)
		return ck_fault(w, s, pc, "missing btf func_info");
	if (f < 0 || !w->func_called) {
		ck_set_unknown(w, pc, "a callback this check cannot place");
		return -1;
	}
	if (w->prog->funcs[f].global)
		return ck_fault(w, s, pc, "callback function not static");
	s->r[in->dst] = (struct reg){
		.t = R_FUNC, .exact = true, .lo = (uint64_t)f, .hi = (uint64_t)f
	};
	return 0;
}

/* The stack a frame of function @f takes in check_max_stack_depth's sum,
 * rounded as the JIT rounds it (@jit: to 16 bytes) or as the interpreter
 * does (to 32, at least 1). */
static uint32_t frame_stack(const struct walk *w, uint32_t f, bool jit)
{
	uint32_t d = w->func_depth[f];

	if (jit)
		return (d + 15u) & ~15u;
	return ((d ? d : 1) + 31u) & ~31u;
}

/* Where check_max_stack_depth stopped: its words, and the call that
 * entered the frame it stopped in. */
struct chain_stop {
	char msg[128];
	uint32_t call;
};

/* check_max_stack_depth_subprog's walk from function @f, entered as frame
 * @frame with @dj / @di bytes of the callers' frames (JIT / interpreter
 * rounding): down every static call in instruction order, stopping at the
 * first chain past 512 bytes or past MAX_CALL_FRAMES. 1 when both
 * roundings stop at the same point with the same words (*stop filled),
 * -1 when this cannot tell (callbacks, global functions, tail calls, the
 * roundings disagreeing), 0 when the chains fit. */
static int stack_chain(const struct walk *w, uint32_t f, int frame, uint32_t dj,
		       uint32_t di, struct chain_stop *stop)
{
	const struct hr_prog_func *fn = &w->prog->funcs[f];
	uint32_t pc;
	int g, r;

	dj += frame_stack(w, f, true);
	di += frame_stack(w, f, false);
	if (dj > MAX_STACK || di > MAX_STACK) {
		if (dj != di)
			return -1;
		snprintf(stop->msg, sizeof(stop->msg),
			 "combined stack size of %d calls is %u. Too large",
			 frame + 1, dj);
		return 1;
	}
	for (pc = fn->start; pc < fn->start + fn->cnt; pc++) {
		const struct hr_insn *in = &w->in[pc];

		if (in->code == (HR_LD | HR_IMM | HR_DW) &&
		    in->src == HR_PSEUDO_FUNC)
			return -1;
		if (in->code != (HR_JMP | HR_CALL))
			continue;
		if (in->src != HR_CALL_LOCAL) {
			if (!in->src && in->imm == BPF_FUNC_tail_call)
				return -1;
			continue;
		}
		g = func_at(w, (int64_t)pc + 1 + in->imm);
		if (g < 0 || ck_is_global(w, g))
			return -1;
		stop->call = pc;
		if (frame + 1 >= MAX_FRAMES) {
			snprintf(stop->msg, sizeof(stop->msg),
				 "the call stack of %d frames is too deep !",
				 frame + 1);
			return 1;
		}
		r = stack_chain(w, (uint32_t)g, frame + 1, dj, di, stop);
		if (r)
			return r;
	}
	return 0;
}

/* A refusal of check_max_stack_depth's, after do_check: the log shows
 * no source line for it (the instruction is the call, or the throw, that
 * @stop names). */
static void refuse_after_walk(struct walk *w, const struct chain_stop *stop)
{
	w->rejected = true;
	w->res->verdict = HR_CHECK_REJECT;
	snprintf(w->res->reason, sizeof(w->res->reason), "%s", stop->msg);
	w->res->insn = (int)stop->call;
	w->res->log_line_set = w->line_at != NULL;
	w->res->line_insn = -1;
}

/* The kernel's refusal of the call chains' stacks, after a walk that met
 * no rejection. true when predicted. */
static bool stack_chain_refused(struct walk *w)
{
	struct chain_stop stop = { .call = 0 };

	if (!w->prog->funcs || !w->prog->nfuncs ||
	    stack_chain(w, 0, 0, 0, 0, &stop) != 1)
		return false;
	refuse_after_walk(w, &stop);
	return true;
}

/* Bounds check_max_stack_depth_subprog's walk down the calls. */
#define THROW_WALK_MAX 100000u

static bool calls_kfunc(const struct hr_prog *prog, const struct hr_kfunc *k)
{
	uint32_t i;

	for (i = 0; prog->kfuncs && i < prog->cnt; i++)
		if (prog->kfuncs[i] == k)
			return true;
	return false;
}

/*
 * check_max_stack_depth_subprog's test of bpf_throw calls, in the order
 * it meets them: down every call and every callback's address (an async
 * callback's only when called), in instruction order; a throw with a
 * callback on the chain of functions that reached it (@chain[0 ..
 * @frame]) is refused. 1 when refused (@stop filled), 0 when not, -1
 * when this cannot tell.
 */
static int throw_chain(const struct walk *w, uint32_t *chain, int frame,
		       struct chain_stop *stop, uint32_t *steps)
{
	const struct hr_prog_func *fn = &w->prog->funcs[chain[frame]];
	uint32_t pc;
	int g, k, r;

	for (pc = fn->start; pc < fn->start + fn->cnt && pc < w->cnt; pc++) {
		const struct hr_insn *in = &w->in[pc];
		bool addr = in->code == (HR_LD | HR_IMM | HR_DW) &&
			    in->src == HR_PSEUDO_FUNC;

		if (++*steps > THROW_WALK_MAX)
			return -1;
		if (in->code == (HR_JMP | HR_CALL) &&
		    in->src == HR_CALL_KFUNC && w->prog->kfuncs &&
		    w->prog->kfuncs[pc] == &hr_kfunc_throw) {
			for (k = 0; k <= frame; k++)
				if (w->func_cb[chain[k]] & FUNC_CB)
					break;
			if (k > frame)
				continue;
			snprintf(stop->msg, sizeof(stop->msg),
				 "bpf_throw kfunc (insn %u) cannot be called "
				 "from callback subprog %u",
				 pc, chain[frame]);
			stop->call = pc;
			return 1;
		}
		if (!addr && (in->code != (HR_JMP | HR_CALL) ||
			      in->src != HR_CALL_LOCAL))
			continue;
		g = func_at(w, (int64_t)pc + 1 + in->imm);
		if (g < 0 || frame + 1 >= MAX_FRAMES)
			return -1;
		if (addr && (w->func_cb[g] & FUNC_ASYNC))
			continue;
		chain[frame + 1] = (uint32_t)g;
		r = throw_chain(w, chain, frame + 1, stop, steps);
		if (r)
			return r;
	}
	return 0;
}

/* The kernel's refusal of bpf_throw in a callback, after a walk that met
 * no rejection: from each async callback, last first, then from the main
 * function, as check_max_stack_depth goes. An error with no instruction. */
void ck_throw_in_callback_refused(struct walk *w)
{
	struct chain_stop stop = { .call = 0 };
	uint32_t chain[MAX_FRAMES], steps = 0;
	uint32_t i;
	int r = 0;

	if (!w->func_cb || !calls_kfunc(w->prog, &hr_kfunc_throw))
		return;
	for (i = w->prog->nfuncs; i-- > 0 && !r;) {
		if (i && !(w->func_cb[i] & FUNC_ASYNC))
			continue;
		chain[0] = i;
		r = throw_chain(w, chain, 0, &stop, &steps);
	}
	if (r < 0) {
		ck_set_unknown(w, w->last_pc,
			       "bpf_throw reached from a callback");
		return;
	}
	if (r)
		refuse_after_walk(w, &stop);
}

/* check_max_stack_depth's sum, bounded from above by every function's
 * deepest use (rounded to 32 bytes, the interpreter's granule; the JIT's
 * 16 is finer): past 512 bytes the kernel may refuse the program. */
void ck_check_stack_sum(struct walk *w)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; w->func_depth && i < w->prog->nfuncs; i++)
		if (!i || w->func_called[i])
			sum += ((w->func_depth[i] ? w->func_depth[i] : 1) +
				31u) &
			       ~31u;
	if (sum <= MAX_STACK)
		return;
	if (!stack_chain_refused(w))
		ck_set_unknown(w, w->last_pc,
			       "the calls' stacks together may exceed %d "
			       "bytes",
			       MAX_STACK);
}
