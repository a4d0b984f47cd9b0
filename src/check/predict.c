// SPDX-License-Identifier: MIT
/*
 * The verifier's verdict predicted: every path of the program walked the
 * way the kernel's do_check walks it (kernel/bpf/verifier.c), fall-through
 * first and the jump's target later, with the register types it tracks
 * (scalar ranges, ctx, packet pointers with their proven range, data_end,
 * metadata, stack, map pointers and values, references), and the errors
 * it prints worded as it words them.
 *
 * Conservative by construction: a rejection is predicted only on a path
 * all of whose facts the kernel knows just as exactly (a "soft" path has
 * gone through a branch or value this model knows less about than the
 * kernel, and a fault there is only "cannot tell"); anything not modelled
 * (bpf-to-bpf calls, most kfuncs, helpers without a model here, atomics
 * on packets, signed or 32-bit range reasoning) makes the verdict unknown
 * unless a certain rejection is found elsewhere.
 *
 * Here: the walk of one path instruction by instruction, the CFG check,
 * and the entry points; each kind of instruction is followed in a file of
 * its own beside this one (src/check/README), sharing walk.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "check/walk.h"

void ck_set_unknown(struct walk *w, uint32_t pc, const char *fmt, ...)
{
	va_list ap;

	if (w->unknown)
		return;
	w->unknown = true;
	w->unknown_pc = pc;
	va_start(ap, fmt);
	vsnprintf(w->unknown_why, sizeof(w->unknown_why), fmt, ap);
	va_end(ap);
}

/* A fault on @s at @pc: a rejection on a path the kernel knows as well,
 * else "cannot tell". Returns -1 so callers end the path. */
int ck_fault(struct walk *w, const struct state *s, uint32_t pc,
	     const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->soft) {
		ck_set_unknown(w, pc,
			       "%s (on a path this check follows less "
			       "exactly than the kernel)",
			       msg);
		return -1;
	}
	if (!w->rejected) {
		w->rejected = true;
		w->after_unknown = w->unknown;
		w->res->verdict = HR_CHECK_REJECT;
		snprintf(w->res->reason, sizeof(w->res->reason), "%s", msg);
		w->res->insn = (int)pc;
		w->res->log_line_set = w->line_at != NULL;
		w->res->line_insn =
			s->log_line ? (int)w->line_insn[s->log_line - 1] : -1;
	}
	return -1;
}

/* --- the walk -------------------------------------------------------- */

int ck_push(struct walk *w, const struct state *s)
{
	if (w->npend == MAX_PENDING) {
		ck_set_unknown(w, s->pc, "too many branches pending");
		return -1;
	}
	memcpy(&w->pend[w->npend++], s, state_size(s));
	return 0;
}

/* The read-modify-write atomics check_atomic_rmw takes, on 4 or 8 bytes,
 * with their operands set; the load-acquire/store-release forms and
 * anything odd are not followed. */
static bool atomic_followed(const struct state *s, const struct hr_insn *in,
			    int size)
{
	int op = in->imm & ~BPF_FETCH;

	if (HR_CLASS(in->code) != HR_STX || (size != 4 && size != 8) ||
	    s->r[in->src].t == R_NONE)
		return false;
	if (in->imm == BPF_XCHG)
		return true;
	if (in->imm == BPF_CMPXCHG)
		return s->r[0].t != R_NONE;
	return op == BPF_ADD || op == BPF_OR || op == BPF_AND || op == BPF_XOR;
}

/* The pointers check_atomic_rmw refuses as the memory operand, whatever
 * their offset: context, packet and socket pointers. */
static bool atomic_refused(const struct reg *b)
{
	return b->t == R_CTX || b->t == R_PKT || b->t == R_META ||
	       b->t == R_SOCK || b->t == R_SOCKC;
}

/* check_atomic_rmw's accesses align strictly whatever the pointer
 * (strict_alignment_once): a map value at a constant offset that is not
 * a multiple of the size is refused (check_generic_ptr_alignment). 1 when
 * refused. */
static int atomic_misaligned(struct walk *w, struct state *s, uint32_t pc,
			     const struct reg *b, int off, int size)
{
	if (b->t != R_VAL || b->lo || b->hi || !b->exact ||
	    !((b->off + off) % size))
		return 0;
	ck_fault(w, s, pc, "misaligned value access off 0+%d+%d size %d",
		 b->off, off, size);
	return 1;
}

/*
 * do_check prints each instruction with its source line before checking
 * it (verbose_linfo), but a line only when its record is not the one it
 * printed last; an error is then shown under the last line printed on
 * its path, which for an exit reached again is often an earlier line.
 */
void ck_log_line(struct walk *w, struct state *s, uint32_t pc)
{
	uint32_t k = w->line_at ? w->line_at[pc] : 0;

	if (k && k != w->prev_line) {
		w->prev_line = k;
		s->log_line = k;
	}
}

int ck_walk_path(struct walk *w, struct state *s)
{
	int ret = 0;

	for (;;) {
		const struct hr_insn *in;
		uint32_t pc = s->pc;
		struct reg v;
		int cls;

		if (w->rejected)
			break;
		if (pc >= w->cnt) {
			ck_set_unknown(w, pc, "jump out of the program");
			break;
		}
		if (++w->work > WORK_CAP) {
			ck_set_unknown(w, pc,
				       "too many paths to follow here "
				       "(the kernel's pruning is finer)");
			ret = -1;
			break;
		}
		if (w->seen && w->prune_pt[pc] && ck_prune(w, s))
			break;
		if (s->cb_return) {
			ck_set_unknown(w, pc,
				       "a callback that changes its caller's "
				       "state each time round");
			break;
		}
		if (++s->depth > INSN_LIMIT) {
			ck_fault(w, s, w->last_pc,
				 "BPF program is too large. Processed "
				 "%u insn",
				 INSN_LIMIT + 1);
			break;
		}
		w->last_pc = pc;
		ck_log_line(w, s, pc);
		in = &w->in[pc];
		cls = HR_CLASS(in->code);
		switch (cls) {
		case HR_ALU:
		case HR_ALU64:
			if (ck_alu(w, s, pc, in))
				goto end;
			s->pc++;
			break;
		case HR_LD:
			if (!hr_insn_is_lddw(in) || pc + 1 >= w->cnt) {
				ck_set_unknown(w, pc, "legacy packet load");
				goto end;
			}
			{
				uint64_t v64 =
					(uint32_t)in->imm |
					(uint64_t)(uint32_t)w->in[pc + 1].imm
						<< 32;
				const struct hr_object *obj = w->prog->obj;
				struct reg r = konst(v64);
				unsigned int i;

				if (in->dst == 10) {
					ck_fault(w, s, pc,
						 "frame pointer is read only");
					goto end;
				}
				if (in->src == HR_PSEUDO_FUNC) {
					if (ck_func_addr(w, s, pc, in))
						goto end;
					s->pc += 2;
					break;
				}
				for (i = 0; obj && i < obj->nmaps; i++) {
					const struct hr_map *m = obj->maps[i];
					struct hr_region rg[2];
					unsigned int nr;

					if ((uint64_t)(uintptr_t)m == v64 &&
					    in->src != HR_PSEUDO_MAP_VALUE) {
						r = (struct reg){ .t = R_MAP_PTR,
								  .exact = true,
								  .map = m };
						break;
					}
					if (in->src == HR_PSEUDO_MAP_FD ||
					    !m->ops || !m->ops->regions ||
					    m->attr.type !=
						    BPF_MAP_TYPE_ARRAY ||
					    m->attr.max_entries != 1)
						continue;
					nr = m->ops->regions((struct hr_map *)m,
							     rg, 2);
					if (nr >= 1 && v64 >= rg[0].start &&
					    v64 < rg[0].end) {
						r = (struct reg){
							.t = R_VAL,
							.exact = true,
							.map = m,
							.off = (int32_t)(v64 -
									 rg[0].start),
							.vsize =
								m->attr.value_size,
							.rdonly =
								hr_map_prog_rdonly(
									m),
						};
						break;
					}
				}
				if (r.t == R_SCALAR && in->src) {
					ck_set_unknown(w, pc,
						       "ld_imm64 of a kind "
						       "this check does "
						       "not follow");
					goto end;
				}
				s->r[in->dst] = r;
			}
			s->pc += 2;
			break;
		case HR_LDX:
		case HR_ST:
		case HR_STX: {
			int size = hr_size_bytes(in->code);
			bool write = cls != HR_LDX;
			int breg = write ? in->dst : in->src;
			const struct reg *val = NULL;

			if (HR_MODE(in->code) != HR_MEM) {
				if (HR_MODE(in->code) == HR_ATOMIC &&
				    atomic_followed(s, in, size) &&
				    atomic_refused(&s->r[breg])) {
					ck_fault(
						w, s, pc,
						"BPF_ATOMIC stores into R%d %s "
						"is not allowed",
						breg, ck_reg_str(&s->r[breg]));
					goto end;
				}
				if (HR_MODE(in->code) == HR_ATOMIC &&
				    atomic_followed(s, in, size) &&
				    atomic_misaligned(w, s, pc, &s->r[breg],
						      in->off, size))
					goto end;
				if (HR_MODE(in->code) == HR_ATOMIC &&
				    atomic_followed(s, in, size) &&
				    (s->r[breg].t == R_STACK ||
				     s->r[breg].t == R_VAL)) {
					if (s->r[breg].t == R_STACK &&
					    ck_stack_dynptr_at(s, &s->r[breg],
							       in->off)) {
						ck_set_unknown(
							w, pc,
							"an atomic on a "
							"dynptr's bytes");
						goto end;
					}
					if (ck_mem_access(w, s, pc, breg,
							  in->off, size, true,
							  NULL, &v))
						goto end;
					if (in->imm & BPF_FETCH) {
						int dr =
							in->imm == BPF_CMPXCHG ?
								0 :
								in->src;
						s->r[dr] = scalar(0, UINT64_MAX,
								  false);
					}
					s->pc++;
					break;
				}
				ck_set_unknown(w, pc,
					       "this load or store mode");
				goto end;
			}
			if (cls == HR_STX) {
				if (s->r[in->src].t == R_NONE) {
					ck_fault(w, s, pc, "R%d !read_ok",
						 in->src);
					goto end;
				}
				val = &s->r[in->src];
			}
			if (cls == HR_LDX && in->dst == 10) {
				ck_fault(w, s, pc,
					 "frame pointer is read only");
				goto end;
			}
			{
				struct reg vcopy, *vp = NULL;

				if (val) {
					vcopy = *val;
					vp = &vcopy;
				} else if (cls == HR_ST && size == 8) {
					vcopy = konst(
						(uint64_t)(int64_t)in->imm);
					vp = &vcopy;
				}
				if (ck_mem_access(w, s, pc, breg, in->off, size,
						  write, vp, &v))
					goto end;
			}
			if (cls == HR_LDX)
				s->r[in->dst] = v;
			s->pc++;
			break;
		}
		case HR_JMP:
		case HR_JMP32: {
			int op = HR_OP(in->code), ways;
			struct state *jump;

			if (op == HR_CALL && cls == HR_JMP) {
				if (HR_SRC(in->code) == HR_X) {
					ck_set_unknown(w, pc, "callx");
					goto end;
				}
				if (in->src == HR_CALL_LOCAL) {
					if (ck_enter_func(w, s, pc, in))
						goto end;
					break;
				}
				if (ck_call(w, s, pc, in))
					goto end;
				s->pc++;
				break;
			}
			if (op == HR_EXIT && cls == HR_JMP && s->curframe) {
				if (ck_leave_func(w, s, pc))
					goto end;
				break;
			}
			if (op == HR_EXIT && cls == HR_JMP) {
				/* check_resource_leak (a lock held,
				 * references, then open sections) before
				 * check_return_code. */
				if (s->locked) {
					ck_fault(w, s, pc,
						 "BPF_EXIT instruction in main "
						 "prog cannot be used inside "
						 "bpf_spin_lock-ed region");
					goto end;
				}
				if (ck_held_at(w, s, pc,
					       "BPF_EXIT instruction in main "
					       "prog"))
					goto end;
				if (s->r[0].t == R_NONE) {
					ck_fault(w, s, pc, "R0 !read_ok");
					goto end;
				}
				/* check_return_code of a global function:
				 * "At subprogram exit the register R0 is not
				 * a scalar value (TYPE)", in the kernel's
				 * names for types this model does not keep. */
				if (s->func && is_ptr(&s->r[0])) {
					ck_set_unknown(
						w, pc,
						"a pointer returned by a "
						"global function");
					goto end;
				}
				if (s->r[0].t != R_SCALAR && w->tc)
					ck_set_unknown(w, pc,
						       "a pointer "
						       "returned");
				goto end;
			}
			if (op == HR_JA) {
				int64_t d = cls == HR_JMP32 ? in->imm : in->off;

				s->pc = (uint32_t)((int64_t)pc + 1 + d);
				if (s->pc <= pc && ck_loop_head(w, s, pc))
					goto end;
			} else {
				jump = malloc(sizeof(*jump));
				if (!jump) {
					ret = -ENOMEM;
					goto end;
				}
				ways = ck_cond(w, s, jump, pc, in);
				if (!ways) {
					free(jump);
					goto end;
				}
				if (ways == 3) {
					/* The target waits, as the kernel's
					 * push_stack; a back edge's is a loop
					 * head then. */
					if (jump->pc <= pc &&
					    ck_loop_head(w, jump, pc)) {
						free(jump);
						goto end;
					}
					s->pc = pc + 1;
					if (ck_push(w, jump)) {
						free(jump);
						goto end;
					}
				} else if (ways == 2) {
					memcpy(s, jump, state_size(jump));
					if (s->pc <= pc &&
					    ck_loop_head(w, s, pc)) {
						free(jump);
						goto end;
					}
				} else {
					s->pc = pc + 1;
				}
				free(jump);
			}
			break;
		}
		default:
			ck_set_unknown(w, pc, "instruction class %d", cls);
			goto end;
		}
	}
end:
	return ret;
}

/* The instructions a jump, call or fall-through can reach from @pc, for
 * check_cfg's walk: 0, 1 or 2 of them into @to. */
static int cfg_succ(const struct walk *w, uint32_t pc, int64_t to[2])
{
	const struct hr_insn *in = &w->in[pc];
	int cls = HR_CLASS(in->code), op = HR_OP(in->code), n = 0;

	if (hr_insn_is_lddw(in)) {
		to[n++] = pc + 2;
		if (in->src == HR_PSEUDO_FUNC)
			to[n++] = (int64_t)pc + 1 + in->imm;
		return n;
	}
	if (cls != HR_JMP && cls != HR_JMP32) {
		to[n++] = pc + 1;
		return n;
	}
	if (op == HR_EXIT)
		return 0;
	if (op == HR_CALL) {
		to[n++] = pc + 1;
		if (in->src == HR_CALL_LOCAL)
			to[n++] = (int64_t)pc + 1 + in->imm;
		return n;
	}
	if (op == HR_JA) {
		to[n++] =
			(int64_t)pc + 1 + (cls == HR_JMP32 ? in->imm : in->off);
		return n;
	}
	to[n++] = pc + 1;
	to[n++] = (int64_t)pc + 1 + in->off;
	return n;
}

/* check_cfg's refusal of an instruction no path reaches, before any path
 * is walked. Only the main function's own instructions are judged: the
 * subprograms this loader links after it may differ from libbpf's. */
void ck_check_cfg(struct walk *w, struct state *s)
{
	uint32_t *stack, n = 0, pc, end = w->cnt;
	uint8_t *seen;
	int64_t to[2];
	int i, k;

	for (pc = 0; pc < w->cnt; pc++) {
		k = cfg_succ(w, pc, to);
		if (hr_insn_is_lddw(&w->in[pc]) ||
		    HR_OP(w->in[pc].code) == HR_CALL)
			for (i = 1; i < k; i++)
				if (to[i] > 0 && to[i] < end)
					end = (uint32_t)to[i];
		if (hr_insn_is_lddw(&w->in[pc]))
			pc++;
	}
	seen = calloc(w->cnt, 1);
	stack = malloc(w->cnt * sizeof(*stack));
	if (!seen || !stack)
		goto out;
	seen[0] = 1;
	stack[n++] = 0;
	while (n) {
		pc = stack[--n];
		k = cfg_succ(w, pc, to);
		for (i = 0; i < k; i++) {
			if (to[i] < 0 || to[i] >= w->cnt || seen[to[i]])
				continue;
			seen[to[i]] = 1;
			stack[n++] = (uint32_t)to[i];
		}
	}
	for (pc = 0; pc < end; pc++) {
		if (!seen[pc]) {
			ck_fault(w, s, pc, "unreachable insn %u", pc);
			break;
		}
		if (hr_insn_is_lddw(&w->in[pc]))
			pc++;
	}
out:
	free(seen);
	free(stack);
}

/* Every pending path, until none is left or the program is rejected;
 * -1 when the walk had to stop. */
static int walk_all(struct walk *w, struct state *s)
{
	while (w->npend && !w->rejected) {
		--w->npend;
		memcpy(s, &w->pend[w->npend], state_size(&w->pend[w->npend]));
		if (ck_walk_path(w, s))
			return -1;
	}
	return 0;
}

/* A global function's own walk begins with its arguments as its BTF
 * signature gives them (btf_prepare_func_args); 0, or -1 when that
 * signature is not followed. */
static int global_entry(struct walk *w, struct state *s, uint32_t f)
{
	const enum hr_global_arg *a;
	int n, i;

	n = ck_global_args(w, f, &a);
	memset(s, 0, sizeof(*s));
	w->prev_line = 0; /* do_check_common starts a log line afresh */
	for (i = 0; i < n; i++) {
		if (a[i] == HR_GARG_OTHER)
			break;
		s->r[i + 1] =
			a[i] == HR_GARG_CTX ?
				(struct reg){ .t = R_CTX, .exact = true } :
				scalar(0, UINT64_MAX, true);
	}
	if (n < 0 || i < n) {
		ck_set_unknown(w, w->prog->funcs[f].start,
			       "a global function's arguments this check does "
			       "not follow");
		return -1;
	}
	s->r[10] = (struct reg){ .t = R_STACK, .exact = true };
	s->func = (uint16_t)f;
	s->pc = w->prog->funcs[f].start;
	return ck_push(w, s);
}

/*
 * do_check_subprogs: once the main function is walked, each global
 * function a walk called, in the order of the program, each on its own;
 * those they call in turn until no new one is left. Only after a main
 * walk with no "cannot tell", whose outcome the kernel's order keeps.
 */
void ck_walk_globals(struct walk *w, struct state *s)
{
	bool again = true;
	uint32_t i;

	while (again && !w->rejected && !w->unknown) {
		again = false;
		for (i = 1; i < w->prog->nfuncs; i++) {
			if (w->rejected || w->unknown)
				return;
			if (!ck_is_global(w, (int)i) || !w->func_called[i] ||
			    w->globals[i].walked)
				continue;
			w->globals[i].walked = again = true;
			if (global_entry(w, s, i) || walk_all(w, s))
				return;
		}
	}
}

bool hr_check_calls_hints(const struct hr_prog *prog)
{
	uint32_t i;

	for (i = 0; prog->calls && i < prog->cnt; i++)
		if (prog->insns[i].code == (HR_JMP | HR_CALL) &&
		    prog->insns[i].src == HR_CALL_KFUNC &&
		    ck_is_hint_kfunc(prog->calls[i]))
			return true;
	return false;
}

/* line_at[pc] for every instruction from the records' first
 * instructions (ascending, in the object's numbering); NULL without
 * records or memory. */
static uint32_t *lines_covering(const uint32_t *line_insn, size_t n,
				const struct hr_prog *prog)
{
	uint32_t *at, pc, k = 0, cnt = prog->cnt;

	if (!line_insn || !n)
		return NULL;
	at = calloc(cnt + 1, sizeof(*at));
	if (!at)
		return NULL;
	for (pc = 0; pc < cnt; pc++) {
		while (k < n && line_insn[k] <= hr_prog_orig_pc(prog, pc))
			k++;
		at[pc] = (uint32_t)k; /* index + 1 of the last record <= pc */
	}
	return at;
}

int hr_check_predict_opts(const struct hr_prog *prog, bool dev_bound,
			  struct hr_check_result *res)
{
	return hr_check_predict_lines(prog, dev_bound, NULL, 0, res);
}

int hr_check_predict_lines(const struct hr_prog *prog, bool dev_bound,
			   const uint32_t *line_insn, size_t nlines,
			   struct hr_check_result *res)
{
	struct walk w = { 0 };
	struct state *s;

	memset(res, 0, sizeof(*res));
	res->insn = -1;
	if (!prog || !prog->type)
		return -EINVAL;
	w.line_insn = line_insn;
	w.line_at = lines_covering(line_insn, nlines, prog);
	w.prog = prog;
	w.in = prog->insns;
	w.cnt = prog->cnt;
	w.res = res;
	w.dev_bound = dev_bound;
	w.gpl = -1;
	w.xdp = prog->type->kernel_type == HR_KPROG_XDP;
	w.tc = prog->type->kernel_type == HR_KPROG_SCHED_CLS;
	if (w.xdp) {
		w.off_data = 0;
		w.off_end = 4;
		w.off_meta = 8;
		w.off_sk = -1;
	} else if (w.tc) {
		w.off_data = 76;
		w.off_end = 80;
		w.off_meta = 140;
		w.off_sk = 168;
	} else {
		res->verdict = HR_CHECK_UNKNOWN;
		snprintf(res->reason, sizeof(res->reason),
			 "cannot tell; program type %s is not modelled",
			 prog->type->name);
		return 0;
	}
	w.pend = malloc(MAX_PENDING * sizeof(*w.pend));
	w.globals = calloc(prog->nfuncs + 1, sizeof(*w.globals));
	w.visits = calloc(prog->cnt + 1, sizeof(*w.visits));
	w.prune_pt = calloc(prog->cnt + 1, sizeof(*w.prune_pt));
	w.seen = calloc(SEEN_BUCKETS, sizeof(*w.seen));
	if (!w.prune_pt || !w.seen) {
		ck_free_seen(&w);
		w.seen = NULL;
		w.prune_pt = NULL;
	} else {
		ck_mark_prune_points(&w);
	}
	if (prog->funcs && prog->nfuncs) {
		w.func_depth = calloc(prog->nfuncs, sizeof(*w.func_depth));
		w.func_called = calloc(prog->nfuncs, sizeof(*w.func_called));
		w.func_cb = calloc(prog->nfuncs, sizeof(*w.func_cb));
		if (!w.func_depth || !w.func_called || !w.func_cb) {
			free(w.func_depth);
			free(w.func_called);
			free(w.func_cb);
			w.func_depth = NULL;
			w.func_called = NULL;
			w.func_cb = NULL;
		}
	}
	if (prog->obj && prog->obj->nmaps) {
		w.fields = calloc(prog->obj->nmaps, sizeof(*w.fields));
		w.fields_read =
			calloc(prog->obj->nmaps, sizeof(*w.fields_read));
	}
	s = calloc(1, sizeof(*s));
	if (!w.pend || !s || !w.visits || !w.globals ||
	    (prog->funcs && prog->nfuncs && !w.func_depth) ||
	    (prog->obj && prog->obj->nmaps && (!w.fields || !w.fields_read))) {
		ck_free_seen(&w);
		free(w.fields);
		free(w.fields_read);
		free(w.func_depth);
		free(w.func_called);
		free(w.func_cb);
		free(w.globals);
		free(w.visits);
		free(w.pend);
		free(w.line_at);
		free(s);
		return -ENOMEM;
	}
	s->r[1] = (struct reg){ .t = R_CTX, .exact = true };
	s->r[10] = (struct reg){ .t = R_STACK, .exact = true };
	/* A hint kfunc anywhere is refused before any path is walked (after
	 * the license, which the walk's first kfunc call looks at). */
	if (!dev_bound && w.xdp && hr_check_calls_hints(prog) &&
	    ck_license_gpl(&w)) {
		for (uint32_t i = 0; i < prog->cnt; i++)
			if (prog->insns[i].src == HR_CALL_KFUNC &&
			    prog->insns[i].code == (HR_JMP | HR_CALL) &&
			    ck_is_hint_kfunc(prog->calls[i])) {
				ck_fault(&w, s, i,
					 "metadata kfuncs require "
					 "device-bound program");
				break;
			}
	}
	if (!w.rejected)
		ck_check_cfg(&w, s);
	memcpy(&w.pend[w.npend++], s, state_size(s));
	if (!walk_all(&w, s))
		ck_walk_globals(&w, s);
	if (!w.rejected && !w.unknown)
		ck_check_stack_sum(&w);
	if (!w.rejected && !w.unknown)
		ck_throw_in_callback_refused(&w);
	if (!w.rejected && !w.unknown && w.pruned && w.work > PRUNED_WORK_MAX)
		ck_set_unknown(&w, w.last_pc,
			       "a walk this long may exceed the kernel's "
			       "instruction budget (its pruning differs)");
	ck_free_seen(&w);
	/* A path the kernel walks before the refused one was left unknown:
	 * the kernel may stop there, with another error line. */
	if (w.rejected && w.after_unknown) {
		w.rejected = false;
		memset(res->reason, 0, sizeof(res->reason));
	}
	if (!w.rejected && w.unknown) {
		res->verdict = HR_CHECK_UNKNOWN;
		snprintf(res->reason, sizeof(res->reason),
			 "cannot tell; the kernel may reject: %s",
			 w.unknown_why);
		res->insn = (int)w.unknown_pc;
	} else if (!w.rejected) {
		res->verdict = HR_CHECK_ACCEPT;
	}
	/* The kernel's log numbers the object's instructions, before
	 * LD_ABS/LD_IND expand. */
	if (res->insn >= 0)
		res->insn = (int)hr_prog_orig_pc(prog, (uint32_t)res->insn);
	free(w.fields);
	free(w.fields_read);
	free(w.func_depth);
	free(w.func_called);
	free(w.func_cb);
	free(w.globals);
	free(w.visits);
	free(w.pend);
	free(w.line_at);
	free(s);
	return 0;
}

int hr_check_predict(const struct hr_prog *prog, struct hr_check_result *res)
{
	return hr_check_predict_opts(prog, false, res);
}

const char *hr_check_verdict_str(enum hr_check_verdict v)
{
	switch (v) {
	case HR_CHECK_ACCEPT:
		return "accept";
	case HR_CHECK_REJECT:
		return "reject";
	default:
		return "unknown";
	}
}
