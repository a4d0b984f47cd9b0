/* SPDX-License-Identifier: MIT */
/*
 * headroom check's walk, shared by the files of src/check/ that predict the
 * verifier's verdict (predict.c and the files it names): the register,
 * stack and path state the walk keeps as the kernel's bpf_verifier_state
 * does, and the functions each part gives the others. Internal to check.
 */
#ifndef HR_CHECK_WALK_H
#define HR_CHECK_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check/check.h"
#include "check/fields.h"
#include "check/global_func.h"
#include "check/protos.h"
#include "helpers/dynptr.h"
#include "helpers/helpers.h"
#include "helpers/offer.h"
#include "loader/core_relo.h"
#include "maps/fd_array.h"
#include "maps/map.h"
#include "maps/map_impl.h"
#include "progs/prog.h"
#include "vm/isa.h"

#define MAX_STACK 512
#define MAX_PKT_OFF 0xffff
#define INSN_LIMIT 1000000u
#define WORK_CAP 8000000u /* steps over all paths before giving up */
#define MAX_PENDING 4096
#define MAX_REFS 4
#define FUNC_MAX_ID 212 /* __BPF_FUNC_MAX_ID of 6.18 */
#define LOOP_RING 8
#define SEEN_BUCKETS 4096
#define SEEN_MAX 16384
/* Past this much work a pruned walk no longer claims the kernel stays
 * within its instruction budget (its pruning differs from this one). */
#define PRUNED_WORK_MAX (INSN_LIMIT / 4)
/* Call frames: the main function and seven nested calls, the kernel's
 * MAX_CALL_FRAMES. */
#define MAX_FRAMES 8
/* struct walk's func_cb */
#define FUNC_CB 1
#define FUNC_ASYNC 2

enum rtype {
	R_NONE, /* not initialized */
	R_SCALAR,
	R_CTX,
	R_PKT,
	R_PKT_END,
	R_META,
	R_STACK,
	R_MAP_PTR,
	R_VAL,
	R_VAL_OR_NULL,
	R_SOCK,
	R_SOCK_OR_NULL,
	R_RBUF, /* a ring buffer record (bpf_ringbuf_reserve) */
	R_RBUF_OR_NULL,
	R_OTHER, /* a pointer or value this model does not follow */
	R_FUNC, /* a callback's address (ld_imm64 BPF_PSEUDO_FUNC) */
	/* An xskmap lookup (PTR_TO_XDP_SOCK_OR_NULL): its socket's fields
	 * are not followed, so the not-NULL branch holds R_OTHER; testing
	 * and dropping it is what AF_XDP programs do. */
	R_XSK_OR_NULL,
	/* A stack slot of a dynptr (process_dynptr_func's STACK_DYNPTR): in
	 * a slot's r only, off 0 the first slot, 8 the second. */
	R_DYNPTR,
	R_MEM, /* PTR_TO_MEM: a dynptr slice of vsize bytes */
	R_MEM_OR_NULL,
	/* __sk_buff's sk (PTR_TO_SOCK_COMMON_OR_NULL), and past its NULL
	 * test (PTR_TO_SOCK_COMMON). */
	R_SOCKC_OR_NULL,
	R_SOCKC,
	/* A map-in-map lookup: the inner map (its template) or NULL. */
	R_MAP_PTR_OR_NULL,
};

/* The type a NULL test leaves on the not-NULL branch; R_NONE: not a
 * maybe-NULL type. */
static inline uint8_t nonnull_type(uint8_t t)
{
	switch (t) {
	case R_VAL_OR_NULL:
		return R_VAL;
	case R_SOCK_OR_NULL:
		return R_SOCK;
	case R_RBUF_OR_NULL:
		return R_RBUF;
	case R_MEM_OR_NULL:
		return R_MEM;
	case R_XSK_OR_NULL:
		return R_OTHER;
	case R_SOCKC_OR_NULL:
		return R_SOCKC;
	case R_MAP_PTR_OR_NULL:
		return R_MAP_PTR;
	}
	return R_NONE;
}

struct reg {
	uint8_t t;
	/* Scalars: the kernel knows no more than [lo, hi]; pointers: their
	 * variable part is known as exactly. */
	bool exact;
	/* Array lookups with a constant key the kernel may prove non-NULL. */
	bool maybe_nonnull;
	/* Scalars: the range is the kernel's, but its bit-level knowledge
	 * (tnum) may decide branches this range does not. */
	bool lossy;
	int32_t off; /* pointers: the constant offset */
	int32_t range; /* pkt / meta: bytes proven from the pointer's base */
	uint32_t id; /* pkt: variable part; null-tests; scalar copies; refs */
	uint64_t lo, hi; /* scalars; pointers' variable part */
	const struct hr_map *map;
	uint32_t vsize;
	bool rdonly;
	uint8_t frameno; /* stack pointers: whose frame's stack */
	/* Dynptr slots: the dynptr's id is id, its type dyn_type; slices
	 * (R_MEM): the dynptr they came from (the kernel's dynptr_id) and
	 * its type when the slice is of a packet (DYN_SKB ...), else 0. */
	uint8_t dyn_type;
	uint32_t dyn_id;
	/* Scalars: the kernel's signed bounds are exactly [smin, smax],
	 * which straddle 0 (its unsigned ones are then [0, U64_MAX]); set
	 * by the sign extension idiom only (sign_extended). */
	bool sgn;
	int64_t smin, smax;
	/* Scalars: the kernel's smin is S64_MIN (it knows no lower signed
	 * bound); set by a left shift (see alu). */
	bool smin_unb;
};

struct slot {
	bool spill; /* an 8-byte register spill */
	/* Bytes (bit i: byte i of the slot) a helper wrote, which the
	 * kernel marks STACK_MISC: a read of them alone is a number it
	 * knows nothing of, exactly [0, the size's max]. */
	uint8_t misc;
	struct reg r;
};

/* The bits of slot @o's bytes that [a, a + size) covers. */
static inline uint8_t slot_bytes(int64_t o, int64_t a, int64_t size)
{
	uint8_t m = 0;
	int64_t i;

	for (i = 0; i < 8; i++)
		if (o + i >= a && o + i < a + size)
			m |= (uint8_t)(1u << i);
	return m;
}

/* A caller's frame while its callee runs: its registers as the call left
 * them (R0-R5 not initialized), its stack, where to return. */
struct frame {
	struct reg r[HR_NREGS];
	struct slot s[MAX_STACK / 8];
	uint32_t callsite;
	uint16_t func; /* index in prog->funcs */
	/* This frame is a callback's: the helper calling it, and the
	 * references held when it was entered. */
	int16_t cb;
	int16_t cb_refs;
	bool soft; /* the caller's state's, at the call */
};

struct state {
	struct reg r[HR_NREGS];
	struct slot s[MAX_STACK / 8];
	uint32_t refs[MAX_REFS], ref_insn[MAX_REFS];
	int nrefs;
	/* The kernel's active_rcu_lock (6.18: a flag, RCU sections do not
	 * nest) and active_preempt_locks (a depth: they do). */
	bool rcu;
	uint32_t preempt;
	/* A bpf_spin_lock held (the kernel's active_locks: one at most for
	 * these programs): the map value's id and map it is in. */
	bool locked;
	uint32_t lock_id;
	const struct hr_map *lock_map;
	uint32_t pc;
	uint32_t depth; /* instructions on this path */
	/* The line info record the kernel's log shows last on this path
	 * (index + 1, 0: none yet): pushed with the state, as the log is
	 * cut back to where a branch was pushed when the verifier pops it. */
	uint32_t log_line;
	bool soft;
	/* The last loop heads this path reached, with its state's hash
	 * there: the same state again means a loop that cannot end. */
	uint32_t lh_pc[LOOP_RING];
	uint64_t lh_hash[LOOP_RING];
	unsigned int nlh;
	/* The current frame is r and s above; its callers wait in fr[0 ..
	 * curframe - 1]. Last, so that a state of the main function may be
	 * kept without them (struct seen). */
	uint16_t func; /* the current frame's function */
	int16_t cb, cb_refs; /* as struct frame's, for the current frame */
	bool cb_return; /* back at a callback's helper call from its exit */
	uint8_t curframe;
	struct frame fr[MAX_FRAMES - 1];
};

/* Bytes of @s that matter: its caller frames in use, no more. */
static inline size_t state_size(const struct state *s)
{
	return offsetof(struct state, fr) + s->curframe * sizeof(struct frame);
}

static inline struct reg *frame_regs(struct state *s, unsigned int k)
{
	return k == s->curframe ? s->r : s->fr[k].r;
}

static inline struct slot *frame_slots(struct state *s, unsigned int k)
{
	return k == s->curframe ? s->s : s->fr[k].s;
}

/* Every register and spilled register of every frame, one a ck_call (*it
 * from 0), as the kernel's bpf_for_each_reg_in_vstate; NULL at the end. */
static inline struct reg *each_reg(struct state *s, unsigned int *it)
{
	const unsigned int per = HR_NREGS + MAX_STACK / 8;

	while (*it < per * (s->curframe + 1u)) {
		unsigned int k = *it / per, i = *it % per;
		struct slot *sl;

		(*it)++;
		if (i < HR_NREGS)
			return &frame_regs(s, k)[i];
		sl = &frame_slots(s, k)[i - HR_NREGS];
		if (sl->spill)
			return &sl->r;
	}
	return NULL;
}

/* A state met at a prune point, kept to prune the same one met again. */
struct seen {
	struct seen *next;
	uint64_t hash;
	struct state st;
};

/* A global function: its signature, read from BTF once a walk (every
 * call of it needs it), and whether it was walked on its own yet. */
struct global_sig {
	bool read;
	bool walked;
	int nargs; /* or -errno: not followed */
	enum hr_global_arg args[HR_GLOBAL_MAX_ARGS];
};

struct walk {
	const struct hr_prog *prog;
	const struct hr_insn *in;
	uint32_t cnt;
	bool xdp, tc, dev_bound;
	/* The context's pointer fields: data, data_end, data_meta and
	 * __sk_buff's sk (-1: none). */
	int off_data, off_end, off_meta, off_sk;
	struct state *pend;
	unsigned int npend;
	uint64_t work;
	uint32_t next_id;
	/* The instruction walked last: where the kernel's log stops when
	 * its instruction count runs out before the next one. */
	uint32_t last_pc;
	/* Loop detection: the states on the current path at back-edge
	 * targets, as (pc, hash). */
	struct hr_check_result *res;
	/* Per instruction: arrivals over a back edge on exact paths. */
	uint32_t *visits;
	/* Per map of the object (by index): its value's special fields,
	 * read from BTF when first needed. */
	struct hr_map_fields *fields;
	bool *fields_read;
	/* Pruning: the states met at each prune point (jump targets and
	 * the instructions after calls), chained by hash bucket. */
	bool *prune_pt;
	struct seen **seen;
	unsigned int nseen;
	bool pruned;
	int gpl; /* the license is GPL compatible: -1 not read yet */
	bool rejected, unknown;
	/* The rejection was met after a path left unknown, one the kernel
	 * walks first and may refuse with another error. */
	bool after_unknown;
	char unknown_why[160];
	uint32_t unknown_pc;
	/* Per function of prog->funcs: the deepest stack byte used (the
	 * kernel's subprog stack_depth), and whether a path called it. */
	uint32_t *func_depth;
	bool *func_called;
	/* Per function: FUNC_CB when a path handed it to a helper as a
	 * callback (the kernel's subprog is_cb), FUNC_ASYNC when as a
	 * timer's (is_async_cb). */
	uint8_t *func_cb;
	struct global_sig *globals; /* per function of prog->funcs */
	/* Per instruction: the line info record covering it (index + 1,
	 * 0: none), and the record the log printed last over all paths
	 * (the kernel's env->prev_linfo: not cut back by a pop, so a line
	 * met again on another path is not printed again). NULL: no lines
	 * given, the instruction's own line is reported. */
	uint32_t *line_at;
	const uint32_t *line_insn; /* each record's first instruction */
	uint32_t prev_line;
};

static inline struct reg scalar(uint64_t lo, uint64_t hi, bool exact)
{
	return (struct reg){ .t = R_SCALAR, .exact = exact, .lo = lo, .hi = hi };
}

static inline struct reg konst(uint64_t v)
{
	return scalar(v, v, true);
}

static inline bool is_const(const struct reg *r)
{
	return r->t == R_SCALAR && r->lo == r->hi && r->exact;
}

static inline bool is_ptr(const struct reg *r)
{
	return r->t != R_NONE && r->t != R_SCALAR;
}

static inline uint64_t size_max(int size)
{
	return size >= 8 ? UINT64_MAX : (1ull << (size * 8)) - 1;
}

/* alu.c */
int ck_alu(struct walk *w, struct state *s, uint32_t pc,
	   const struct hr_insn *in);
bool ck_sign_extended(const struct reg *d, int sh);
/* args.c */
int ck_acquire_ref(struct walk *w, struct state *s, uint32_t pc,
		   struct reg *r0);
int ck_arg_map(struct walk *w, struct state *s, uint32_t pc, int id);
void ck_drop_ref(struct state *s, uint32_t id);
const char *ck_helper_name(int id);
const struct hr_map *ck_inner_stand_in(const struct walk *w,
				       const struct hr_map *outer);
bool ck_is_hint_kfunc(hr_helper_fn fn);
bool ck_license_gpl(struct walk *w);
bool ck_map_of_maps(const struct hr_map *m);
int ck_mem_arg(struct walk *w, struct state *s, uint32_t pc, int regno,
	       int64_t size, bool write);
int ck_proto_call(struct walk *w, struct state *s, uint32_t pc,
		  const struct hr_proto *p, struct reg *r0);
int ck_proto_ctx(struct walk *w, struct state *s, uint32_t pc, int regno);
void ck_release_ref(struct state *s, uint32_t id);
int ck_ringbuf_release(struct walk *w, struct state *s, uint32_t pc);
int ck_ringbuf_reserve(struct walk *w, struct state *s, uint32_t pc,
		       struct reg *r0);
int ck_section_kfunc(struct walk *w, struct state *s, uint32_t pc,
		     const struct hr_kfunc *k);
int64_t ck_size_arg(struct walk *w, struct state *s, uint32_t pc, int regno);
int ck_snprintf_fmt(struct walk *w, struct state *s, uint32_t pc);
/* branch.c */
int ck_cond(struct walk *w, struct state *s, struct state *jump, uint32_t pc,
	    const struct hr_insn *in);
void ck_good_pkt(struct state *s, const struct reg *p, bool open);
void ck_narrow(struct reg *a, int op, uint64_t k, bool taken);
/* calls.c */
int ck_call(struct walk *w, struct state *s, uint32_t pc,
	    const struct hr_insn *in);
int ck_held_at(struct walk *w, struct state *s, uint32_t pc, const char *what);
/* dynptr.c */
int ck_dyn_helper(struct walk *w, struct state *s, uint32_t pc, int id,
		  struct reg *r0);
int ck_dyn_kfunc(struct walk *w, struct state *s, uint32_t pc,
		 const struct hr_kfunc *k, struct reg *r0);
int ck_lock_arg(struct walk *w, struct state *s, uint32_t pc);
/* mem.c */
bool ck_changes_pkt(int id);
int ck_check_pkt(struct walk *w, struct state *s, uint32_t pc, int regno,
		 const struct reg *b, int off, int size);
int ck_check_rbuf(struct walk *w, struct state *s, uint32_t pc, int regno,
		  const struct reg *b, int off, int size);
int ck_check_val(struct walk *w, struct state *s, uint32_t pc, int regno,
		 const struct reg *b, int off, int size, bool write);
void ck_clear_pkt(struct state *s);
struct slot *ck_dyn_first(struct slot *sl);
int ck_dyn_overwrite(struct walk *w, struct state *s, uint32_t pc,
		     struct slot *sl);
void ck_forget_pkt(struct state *s);
bool ck_id_shared(struct state *s, int self, uint32_t id);
const struct hr_map_fields *ck_map_fields(struct walk *w,
					  const struct hr_map *m);
int ck_mem_access(struct walk *w, struct state *s, uint32_t pc, int regno,
		  int off, int size, bool write, const struct reg *val,
		  struct reg *out);
const char *ck_reg_str(const struct reg *r);
bool ck_skb_dyn(uint8_t type);
struct slot *ck_slot_at(struct state *s, const struct reg *fp, int off);
bool ck_stack_dynptr_at(struct state *s, const struct reg *fp, int off);
void ck_stack_used(struct walk *w, const struct state *s, const struct reg *fp,
		   int64_t a);
/* predict.c */
void ck_check_cfg(struct walk *w, struct state *s);
/* A fault at @pc: a rejection on a path the kernel knows as well, else
 * "cannot tell" (ck_set_unknown); -1, so callers end the path. */
int ck_fault(struct walk *w, const struct state *s, uint32_t pc,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void ck_log_line(struct walk *w, struct state *s, uint32_t pc);
int ck_push(struct walk *w, const struct state *s);
void ck_set_unknown(struct walk *w, uint32_t pc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ck_walk_globals(struct walk *w, struct state *s);
int ck_walk_path(struct walk *w, struct state *s);
/* prune.c */
void ck_free_seen(struct walk *w);
int ck_loop_head(struct walk *w, struct state *s, uint32_t from);
void ck_mark_prune_points(struct walk *w);
int ck_prune(struct walk *w, const struct state *s);
/* subprog.c */
int ck_callback_call(struct walk *w, struct state *s, uint32_t pc, int id);
void ck_check_stack_sum(struct walk *w);
int ck_enter_func(struct walk *w, struct state *s, uint32_t pc,
		  const struct hr_insn *in);
int ck_func_addr(struct walk *w, struct state *s, uint32_t pc,
		 const struct hr_insn *in);
int ck_global_args(struct walk *w, uint32_t f, const enum hr_global_arg **a);
bool ck_is_global(const struct walk *w, int f);
int ck_leave_func(struct walk *w, struct state *s, uint32_t pc);
void ck_throw_in_callback_refused(struct walk *w);
int ck_timer_call(struct walk *w, struct state *s, uint32_t pc, int id);

#endif /* HR_CHECK_WALK_H */
