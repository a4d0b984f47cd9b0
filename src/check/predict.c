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
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

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

static const char *const rtype_name[] = {
	"?",
	"scalar",
	"ctx",
	"pkt",
	"pkt_end",
	"pkt_meta",
	"fp",
	"map_ptr",
	"map_value",
	"map_value_or_null",
	"sock",
	"sock_or_null",
	"ringbuf_mem",
	"ringbuf_mem_or_null",
	"?",
	"func",
	"xdp_sock_or_null",
	"dynptr",
	"mem",
	"mem_or_null",
	"sock_common_or_null",
	"sock_common",
	"map_ptr_or_null",
};

/* The type a NULL test leaves on the not-NULL branch; R_NONE: not a
 * maybe-NULL type. */
static uint8_t nonnull_type(uint8_t t)
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

/* The kernel's reg_type_str of @r: a read-only slice's "rdonly_" prefix
 * (MEM_RDONLY) on top of its base name. */
static const char *reg_str(const struct reg *r)
{
	if (r->t == R_MEM && r->rdonly)
		return "rdonly_mem";
	if (r->t == R_MEM_OR_NULL && r->rdonly)
		return "rdonly_mem_or_null";
	return rtype_name[r->t];
}

struct slot {
	bool spill; /* an 8-byte register spill */
	/* Bytes (bit i: byte i of the slot) a helper wrote, which the
	 * kernel marks STACK_MISC: a read of them alone is a number it
	 * knows nothing of, exactly [0, the size's max]. */
	uint8_t misc;
	struct reg r;
};

/* The bits of slot @o's bytes that [a, a + size) covers. */
static uint8_t slot_bytes(int64_t o, int64_t a, int64_t size)
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
static size_t state_size(const struct state *s)
{
	return offsetof(struct state, fr) + s->curframe * sizeof(struct frame);
}

static struct reg *frame_regs(struct state *s, unsigned int k)
{
	return k == s->curframe ? s->r : s->fr[k].r;
}

static struct slot *frame_slots(struct state *s, unsigned int k)
{
	return k == s->curframe ? s->s : s->fr[k].s;
}

/* Every register and spilled register of every frame, one a call (*it
 * from 0), as the kernel's bpf_for_each_reg_in_vstate; NULL at the end. */
static struct reg *each_reg(struct state *s, unsigned int *it)
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

static void set_unknown(struct walk *w, uint32_t pc, const char *fmt, ...)
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
static int fault(struct walk *w, const struct state *s, uint32_t pc,
		 const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->soft) {
		set_unknown(w, pc,
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

static struct reg scalar(uint64_t lo, uint64_t hi, bool exact)
{
	return (struct reg){ .t = R_SCALAR, .exact = exact, .lo = lo, .hi = hi };
}

static struct reg konst(uint64_t v)
{
	return scalar(v, v, true);
}

static bool is_const(const struct reg *r)
{
	return r->t == R_SCALAR && r->lo == r->hi && r->exact;
}

static bool is_ptr(const struct reg *r)
{
	return r->t != R_NONE && r->t != R_SCALAR;
}

static uint64_t size_max(int size)
{
	return size >= 8 ? UINT64_MAX : (1ull << (size * 8)) - 1;
}

/* --- the program type's context ----------------------------------- */

static bool ctx_ok(const struct walk *w, int off, int size, bool write)
{
	const struct hr_prog_type *t = w->prog->type;

	return t && t->ctx_access && t->ctx_access(w->prog, off, size, write);
}

/* Whether the kernel refuses helper @id to XDP (@xdp) or tc programs:
 * not in its offer to that type (helpers/offer.h, probed from 6.18). */
bool hr_check_helper_wrong_type(bool xdp, int id)
{
	const struct hr_offer *o = hr_offer_helper(id);

	return !o || !(o->types & (xdp ? HR_OFFER_XDP : HR_OFFER_TC));
}

/* bpf_helper_changes_pkt_data: the table's rows, and the XDP head, meta
 * and tail moves the switch in call() follows. */
static bool changes_pkt(int id)
{
	const struct hr_proto *p = hr_proto_find(id);

	if (p)
		return p->changes_pkt;
	return id == BPF_FUNC_xdp_adjust_head ||
	       id == BPF_FUNC_xdp_adjust_meta || id == BPF_FUNC_xdp_adjust_tail;
}

/* --- register and stack helpers ------------------------------------ */

static struct slot *slot_at(struct state *s, const struct reg *fp, int off)
{
	return &frame_slots(s, fp->frameno)[(MAX_STACK + off) / 8];
}

/* Whether dynptr type @type is an skb's, its data or its metadata: a
 * write through one may move the packet (changes_data). */
static bool skb_dyn(uint8_t type)
{
	return type == HR_DYNPTR_TYPE_SKB || type == HR_DYNPTR_TYPE_SKB_META;
}

/* Whether @r is a kfunc slice of a packet's dynptr, its metadata's too
 * (reg_is_dynptr_slice_pkt: 6.18 forgets an skb_meta slice after
 * bpf_skb_pull_data). */
static bool pkt_slice(const struct reg *r)
{
	return (r->t == R_MEM || r->t == R_MEM_OR_NULL) &&
	       (skb_dyn(r->dyn_type) || r->dyn_type == HR_DYNPTR_TYPE_XDP);
}

/* Every packet pointer and packet slice (registers and spills)
 * forgotten, as clear_all_pkt_pointers does: root's become unknown
 * numbers (mark_reg_invalid). */
static void clear_pkt(struct state *s)
{
	unsigned int it = 0;
	struct reg *r;

	while ((r = each_reg(s, &it)))
		if (r->t == R_PKT || r->t == R_PKT_END || r->t == R_META ||
		    pkt_slice(r))
			*r = scalar(0, UINT64_MAX, true);
}

/* Packet pointers and slices after a call that may or may not change the
 * packet's data to the kernel: no longer followed (R_OTHER). */
static void forget_pkt(struct state *s)
{
	unsigned int it = 0;
	struct reg *r;

	while ((r = each_reg(s, &it)))
		if (r->t == R_PKT || r->t == R_PKT_END || r->t == R_META ||
		    pkt_slice(r))
			*r = (struct reg){ .t = R_OTHER };
}

/* --- dynptrs on the stack ------------------------------------------ */

/*
 * A dynptr's two slots hold R_DYNPTR with its id; a ring buffer one
 * (bpf_ringbuf_reserve_dynptr) also the reference it holds, in dyn_id
 * (the kernel's ref_obj_id on both slots).
 */

/* The first slot of the dynptr @sl is part of (R_DYNPTR slots only). */
static struct slot *dyn_first(struct slot *sl)
{
	return sl->r.off ? sl - 1 : sl;
}

/* Whether the 8-byte slot holding @fp + @off is a dynptr's, for a
 * constant, in-bounds offset. */
static bool stack_dynptr_at(struct state *s, const struct reg *fp, int off)
{
	int a = fp->off + off;

	return a >= -MAX_STACK && a < 0 &&
	       slot_at(s, fp, a & ~7)->r.t == R_DYNPTR;
}

/* A stack write touching dynptr slot @sl, as destroy_if_dynptr_stack_slot
 * takes it: both of its slots no longer a dynptr, and its slices of type
 * exactly PTR_TO_MEM(_OR_NULL) invalid (an unknown number to root). Those
 * are bpf_dynptr_data's: the kfunc slices carry a dynptr type flag (and
 * bpf_dynptr_slice's MEM_RDONLY), which that test does not match, so they
 * stay valid (6.18 accepts a packet slice used after its dynptr was made
 * again). Referenced (ring buffer) dynptrs are never made by this model,
 * so they are not met here. */
static void dyn_destroy(struct state *s, struct slot *sl)
{
	struct slot *first = dyn_first(sl);
	uint32_t id = first->r.id;
	unsigned int it = 0;
	struct reg *r;

	first[0] = (struct slot){ .r = scalar(0, UINT64_MAX, false) };
	first[1] = (struct slot){ .r = scalar(0, UINT64_MAX, false) };
	while ((r = each_reg(s, &it)))
		if ((r->t == R_MEM || r->t == R_MEM_OR_NULL) &&
		    r->dyn_id == id && !r->dyn_type && !r->rdonly)
			*r = scalar(0, UINT64_MAX, true);
}

/* Whether another register or spill holds scalar copy @id. */
static bool id_shared(struct state *s, int self, uint32_t id)
{
	unsigned int it = 0;
	struct reg *r;

	if (!id)
		return false;
	while ((r = each_reg(s, &it)))
		if (r != &s->r[self] && r->t == R_SCALAR && r->id == id)
			return true;
	return false;
}

/* A store into dynptr slot @sl: refused for a referenced (ring buffer)
 * dynptr, else the dynptr destroyed. 0, or -1 when the path ends. */
static int dyn_overwrite(struct walk *w, struct state *s, uint32_t pc,
			 struct slot *sl)
{
	if (dyn_first(sl)->r.dyn_type == HR_DYNPTR_TYPE_RINGBUF)
		return fault(w, s, pc, "cannot overwrite referenced dynptr");
	dyn_destroy(s, sl);
	return 0;
}

/* --- memory accesses ----------------------------------------------- */

/* The kernel's update_stack_depth: the deepest byte each function used,
 * for check_max_stack_depth's sum over a call chain. */
static void stack_used(struct walk *w, const struct state *s,
		       const struct reg *fp, int64_t a)
{
	unsigned int f = fp->frameno == s->curframe ? s->func :
						      s->fr[fp->frameno].func;

	if (w->func_depth && a < 0 && (uint64_t)-a > w->func_depth[f])
		w->func_depth[f] = (uint32_t)-a;
}

static int check_stack(struct walk *w, struct state *s, uint32_t pc, int regno,
		       const struct reg *b, int off, int size, bool write)
{
	int a = b->off + off;

	if (a % size)
		return fault(w, s, pc,
			     "misaligned stack access off 0+%d+%d size %d",
			     b->off, off, size);
	if (a < -MAX_STACK || a + size > 0)
		return fault(w, s, pc, "invalid %s stack R%d off=%d size=%d",
			     write ? "write to" : "read from", regno, a, size);
	stack_used(w, s, b, a);
	return 0;
}

/* A packet or metadata access through @b: check_packet_access. */
static int check_pkt(struct walk *w, struct state *s, uint32_t pc, int regno,
		     const struct reg *b, int off, int size)
{
	int a = b->off + off;

	/*
	 * A variable part known only as a range the kernel may know more
	 * tightly: an access within the range proven for this pointer's id
	 * the kernel allows too (its umax is no larger, so it proved the
	 * same range: good_pkt); a refusal would rest on bounds and ids
	 * this model may not share with the kernel.
	 */
	if (b->id && !b->exact) {
		if (b->hi <= MAX_PKT_OFF && a >= 0 && a + size <= b->range)
			return 0;
		set_unknown(w, pc,
			    "packet access at a variable offset this "
			    "check does not bound exactly");
		return -1;
	}
	if (b->id && b->hi > INT64_MAX)
		return fault(w, s, pc,
			     "R%d min value is negative, either use unsigned "
			     "index or do a if (index >=0) check.",
			     regno);
	if (a < 0 || a + size > b->range)
		return fault(w, s, pc,
			     "invalid access to packet, off=%d size=%d, "
			     "R%d(id=%u,off=%d,r=%d)",
			     a, size, regno, b->id, a, b->range);
	return 0;
}

/* The special fields of @m's value, read once a walk. */
static const struct hr_map_fields *map_fields(struct walk *w,
					      const struct hr_map *m)
{
	static const struct hr_map_fields unsure = { -1, true };
	const struct hr_object *obj = w->prog->obj;
	int i = m->index;

	if (!obj || !w->fields || i < 0 || (unsigned int)i >= obj->nmaps ||
	    obj->maps[i] != m)
		return &unsure;
	if (!w->fields_read[i]) {
		hr_check_map_fields(obj->path, m->name, &w->fields[i]);
		w->fields_read[i] = true;
	}
	return &w->fields[i];
}

/* Whether bytes [lo, hi) of a value of @m overlap the 16 bytes at @off
 * (a bpf_timer or a bpf_wq; -1: none). */
static bool overlaps16(int off, int64_t lo, int64_t hi)
{
	return off >= 0 && lo < off + 16 && hi > off;
}

/* Whether bytes [lo, hi) of a value of @m may touch a field the kernel
 * forbids to loads and stores (check_map_access: "cannot be accessed
 * directly"), or one this model does not place. */
static bool touches_field(struct walk *w, const struct hr_map *m, int64_t lo,
			  int64_t hi)
{
	const struct hr_map_fields *f = map_fields(w, m);

	if (f->unsure || overlaps16(f->timer_off, lo, hi) ||
	    overlaps16(f->wq_off, lo, hi))
		return true;
	return f->lock_off >= 0 && lo < f->lock_off + 4 && hi > f->lock_off;
}

/* The name of the bpf_timer or bpf_wq bytes [lo, hi) of a value of @m
 * touch when they touch no other field (check_map_access then says so
 * for it); NULL otherwise. */
static const char *async_touched(struct walk *w, const struct hr_map *m,
				 int64_t lo, int64_t hi)
{
	const struct hr_map_fields *f = map_fields(w, m);
	bool timer = overlaps16(f->timer_off, lo, hi),
	     wq = overlaps16(f->wq_off, lo, hi);

	if (f->unsure || timer == wq ||
	    (f->lock_off >= 0 && lo < f->lock_off + 4 && hi > f->lock_off))
		return NULL;
	return timer ? "bpf_timer" : "bpf_wq";
}

static int check_val(struct walk *w, struct state *s, uint32_t pc, int regno,
		     const struct reg *b, int off, int size, bool write)
{
	int64_t a = (int64_t)b->off + off;
	const char *field;

	if (!b->exact) {
		set_unknown(w, pc,
			    "map value access at an offset this check "
			    "does not bound exactly");
		return -1;
	}
	if (write && b->rdonly)
		return fault(w, s, pc,
			     "write into map forbidden, value_size=%u off=%lld "
			     "size=%d",
			     b->vsize, (long long)a, size);
	if (b->lo > INT64_MAX)
		return fault(w, s, pc,
			     "R%d min value is negative, either use unsigned "
			     "index or do a if (index >=0) check.",
			     regno);
	if (a + (int64_t)b->lo < 0 ||
	    a + (int64_t)b->lo + size > (int64_t)b->vsize)
		return fault(w, s, pc,
			     "invalid access to map value, value_size=%u "
			     "off=%lld size=%d",
			     b->vsize, (long long)(a + (int64_t)b->lo), size);
	if (b->hi > (uint64_t)1 << 29)
		return fault(w, s, pc,
			     "R%d unbounded memory access, make sure to bounds "
			     "check any such access",
			     regno);
	if (a + (int64_t)b->hi + size > (int64_t)b->vsize)
		return fault(w, s, pc,
			     "invalid access to map value, value_size=%u "
			     "off=%lld size=%d",
			     b->vsize, (long long)(a + (int64_t)b->hi), size);
	field = b->map ? async_touched(w, b->map, a + (int64_t)b->lo,
				       a + (int64_t)b->hi + size) :
			 NULL;
	if (field)
		return fault(w, s, pc,
			     "%s cannot be accessed directly by load/store",
			     field);
	if (b->map && touches_field(w, b->map, a + (int64_t)b->lo,
				    a + (int64_t)b->hi + size)) {
		set_unknown(w, pc,
			    "a map value access near a special field "
			    "(bpf_spin_lock, timer, wq, kptr ...)");
		return -1;
	}
	return 0;
}

/* A ring buffer record's bytes: check_mem_region_access against the
 * size reserved. Records moved by a variable amount are not followed. */
static int check_rbuf(struct walk *w, struct state *s, uint32_t pc, int regno,
		      const struct reg *b, int off, int size)
{
	int64_t a = (int64_t)b->off + off;

	if (!b->exact || b->lo || b->hi) {
		set_unknown(w, pc,
			    "ring buffer record access at a variable "
			    "offset");
		return -1;
	}
	if (a < 0 || a + size > (int64_t)b->vsize)
		return fault(w, s, pc,
			     "invalid access to memory, mem_size=%u off=%lld "
			     "size=%d",
			     b->vsize, (long long)a, size);
	return 0;
}

/* A socket's field read through @b + @off (check_sock_access): only the
 * plain 4-byte loads struct bpf_sock's checks take whatever the field
 * (bpf_sock_is_valid_access), but type, protocol, mark and priority that
 * a socket common lacks (bpf_sock_common_is_valid_access); the rest, and
 * any store, cannot tell. The value read is any 32-bit number. */
static int sock_read(struct walk *w, uint32_t pc, const struct reg *b, int off,
		     int size, bool write)
{
	int a = b->off + off;

	if (!write && size == 4 && !b->lo && !b->hi && a >= 0 && a < 80 &&
	    !(a & 3) && (b->t == R_SOCK || a < 8 || a >= 24))
		return 0;
	set_unknown(w, pc, "a socket's field access");
	return -1;
}

/* A load or store of @size at @b + @off; for a load, *out gets the value
 * read. @val: the register stored, or NULL for an immediate. */
static int mem_access(struct walk *w, struct state *s, uint32_t pc, int regno,
		      int off, int size, bool write, const struct reg *val,
		      struct reg *out)
{
	struct reg *b = &s->r[regno];
	int err;

	*out = scalar(0, size_max(size), true);
	switch (b->t) {
	case R_NONE:
		return fault(w, s, pc, "R%d !read_ok", regno);
	case R_CTX:
		if (b->off)
			return fault(w, s, pc,
				     "dereference of modified ctx ptr R%d "
				     "off=%d disallowed",
				     regno, b->off);
		if (!ctx_ok(w, off, size, write))
			return fault(
				w, s, pc,
				"invalid bpf_context access off=%d size=%d",
				off, size);
		if (write)
			return 0;
		if (off == w->off_data)
			*out = (struct reg){ .t = R_PKT, .exact = true };
		else if (off == w->off_end)
			*out = (struct reg){ .t = R_PKT_END, .exact = true };
		else if (off == w->off_meta)
			*out = (struct reg){ .t = R_META, .exact = true };
		else if (off == w->off_sk)
			*out = (struct reg){ .t = R_SOCKC_OR_NULL,
					     .id = ++w->next_id };
		return 0;
	case R_PKT:
	case R_META:
		err = check_pkt(w, s, pc, regno, b, off, size);
		if (err)
			return err;
		if (write && b->t == R_PKT && !w->xdp && !w->tc) {
			set_unknown(w, pc, "packet write");
			return -1;
		}
		return 0;
	case R_STACK: {
		struct slot *sl;
		int a = b->off + off;

		err = check_stack(w, s, pc, regno, b, off, size, write);
		if (err)
			return err;
		sl = slot_at(s, b, a & ~7);
		if (write && val && val->t == R_STACK &&
		    b->frameno < s->curframe) {
			set_unknown(w, pc,
				    "a stack pointer spilled into a "
				    "caller's frame");
			return -1;
		}
		if (write && sl->r.t == R_DYNPTR && dyn_overwrite(w, s, pc, sl))
			return -1;
		if (write) {
			sl->misc &= (uint8_t)~slot_bytes(a & ~7, a, size);
			if (size == 8 && val) {
				sl->spill = true;
				sl->r = *val;
			} else {
				sl->spill = false;
				if (size == 8 ||
				    (sl->r.t != R_SCALAR && sl->r.t != R_NONE))
					sl->r = scalar(0, UINT64_MAX, false);
				else
					sl->r = scalar(0, UINT64_MAX, false);
			}
			return 0;
		}
		if (sl->spill && size == 8) {
			*out = sl->r;
			return 0;
		}
		/* check_stack_read_fixed_off: STACK_DYNPTR bytes are
		 * neither data nor a spill; the first one refuses. */
		if (sl->r.t == R_DYNPTR)
			return fault(w, s, pc,
				     "invalid read from stack off %d+0 size %d",
				     a, size);
		/* check_stack_read_fixed_off: a spilled pointer is read
		 * back whole or not at all. */
		if (sl->spill && sl->r.t != R_SCALAR && sl->r.t != R_OTHER)
			return fault(w, s, pc, "invalid size of register fill");
		if (sl->spill && sl->r.t != R_SCALAR) {
			set_unknown(w, pc, "part of a spilled pointer read");
			return -1;
		}
		/* Root reads uninitialized stack (allow_uninit_stack); what
		 * the kernel knows of narrow spills this model does not. */
		*out = scalar(0, size_max(size),
			      !sl->spill &&
				      (sl->misc &
				       slot_bytes(a & ~7, a, size)) ==
					      slot_bytes(a & ~7, a, size));
		return 0;
	}
	case R_VAL:
		err = check_val(w, s, pc, regno, b, off, size, write);
		if (err)
			return err;
		/* Frozen maps read as constants to the kernel. */
		if (b->rdonly)
			out->exact = false;
		return 0;
	case R_RBUF:
		return check_rbuf(w, s, pc, regno, b, off, size);
	case R_SOCK:
	case R_SOCKC:
		return sock_read(w, pc, b, off, size, write);
	case R_MEM:
		/* check_mem_access's PTR_TO_MEM: a read-only slice refuses
		 * stores before its bounds are looked at. */
		if (write && b->rdonly)
			return fault(w, s, pc, "R%d cannot write into %s",
				     regno, reg_str(b));
		return check_rbuf(w, s, pc, regno, b, off, size);
	case R_SCALAR:
	case R_PKT_END:
	case R_VAL_OR_NULL:
	case R_SOCK_OR_NULL:
	case R_RBUF_OR_NULL:
	case R_MEM_OR_NULL:
	case R_XSK_OR_NULL:
	case R_SOCKC_OR_NULL:
	case R_MAP_PTR_OR_NULL:
		if (b->t == R_VAL_OR_NULL && b->maybe_nonnull) {
			set_unknown(w, pc,
				    "array lookup used without a NULL "
				    "test (the kernel may prove its key "
				    "constant)");
			return -1;
		}
		return fault(w, s, pc, "R%d invalid mem access '%s'", regno,
			     reg_str(b));
	default:
		set_unknown(w, pc, "access through a %s pointer",
			    b->t == R_MAP_PTR ? "map" : "socket or other");
		return -1;
	}
}

/* --- ALU ------------------------------------------------------------ */

/* The kernel's names of ALU operations (bpf_alu_string), by op >> 4. */
static const char *const alu_op_str[16] = {
	"+=",  "-=", "*=", "/=", "|=",	 "&=",	   "<<=", ">>=",
	"neg", "%=", "^=", "=",	 "s>>=", "endian", "?",	  "?",
};

/* Whether @p's type forbids all arithmetic (adjust_ptr_min_max_vals);
 * a map pointer takes the addition of a known 0 only. */
static bool ptr_no_math(const struct reg *p)
{
	return p->t == R_PKT_END || p->t == R_SOCK || p->t == R_SOCKC ||
	       p->t == R_MAP_PTR;
}

/* The pointer ALU operations adjust_reg_min_max_vals and
 * adjust_ptr_min_max_vals refuse, in their order: two pointers (but
 * their difference), 32-bit, a maybe-NULL or untouchable pointer, then
 * any operation but add and subtract. Pointers this model does not type
 * leave it "cannot tell". A number minus a pointer is refused too. 1 when
 * refused (the path ends). */
static int ptr_alu_refused(struct walk *w, struct state *s, uint32_t pc,
			   const struct hr_insn *in, const struct reg *src,
			   bool is64)
{
	const struct reg *d = &s->r[in->dst];
	const struct reg *p = is_ptr(d) ? d : src;
	int op = HR_OP(in->code);
	const char *os = alu_op_str[(op >> 4) & 15];

	if (p->t == R_OTHER || (is_ptr(d) && is_ptr(src) &&
				(d->t == R_OTHER || src->t == R_OTHER)))
		return 0;
	if (is_ptr(d) && is_ptr(src))
		fault(w, s, pc, "R%d pointer %s pointer prohibited", in->dst,
		      os);
	else if (!is64 && op == HR_SUB)
		return 0; /* a privileged 32-bit subtract: a number */
	else if (!is64)
		fault(w, s, pc, "R%d 32-bit pointer arithmetic prohibited",
		      in->dst);
	else if (nonnull_type(p->t) || ptr_no_math(p))
		return 0; /* the caller words these */
	else if (op == HR_SUB && !is_ptr(d))
		fault(w, s, pc, "R%d tried to subtract pointer from scalar",
		      in->dst);
	else if (op == HR_AND || op == HR_OR || op == HR_XOR)
		fault(w, s, pc, "R%d bitwise operator %s on pointer prohibited",
		      in->dst, os);
	else if (op != HR_ADD && op != HR_SUB)
		fault(w, s, pc,
		      "R%d pointer arithmetic with %s operator prohibited",
		      in->dst, os);
	else
		return 0;
	return 1;
}

/* check_alu_op's refusals of an immediate operand, after it has read the
 * destination: a division or modulo by 0, a shift by more than the width.
 * 1 when refused. */
static int alu_imm_refused(struct walk *w, struct state *s, uint32_t pc,
			   const struct hr_insn *in)
{
	int op = HR_OP(in->code);
	int width = HR_CLASS(in->code) == HR_ALU64 ? 64 : 32;
	bool div0 = (op == HR_DIV || op == HR_MOD) && !in->imm;
	bool shift = (op == HR_LSH || op == HR_RSH || op == HR_ARSH) &&
		     (in->imm < 0 || in->imm >= width);

	if (HR_SRC(in->code) != HR_K || (!div0 && !shift))
		return 0;
	if (s->r[in->dst].t == R_NONE)
		fault(w, s, pc, "R%d !read_ok", in->dst);
	else if (div0)
		fault(w, s, pc, "div by zero");
	else
		fault(w, s, pc, "invalid shift %d", in->imm);
	return 1;
}

/* A 64-bit add or subtract of @n to map pointer @p: the kernel lets
 * through only the addition of a number it knows is 0 (@p unchanged). */
static int map_ptr_add(struct walk *w, struct state *s, uint32_t pc,
		       const struct hr_insn *in, const struct reg *p,
		       const struct reg *n)
{
	bool add = HR_OP(in->code) == HR_ADD;

	if (add && is_const(n) && n->lo == 0) {
		s->r[in->dst] = *p;
		return 0;
	}
	/* An inexact number that may be 0: the kernel may know it is. */
	if (add && n->lo == 0 && !n->exact) {
		set_unknown(w, pc, "arithmetic on a map pointer");
		return -1;
	}
	return fault(w, s, pc, "R%d pointer arithmetic on %s prohibited",
		     in->dst, reg_str(p));
}

/* Whether @d is the first half of the sign extension idiom "r <<= k;
 * r s>>= k" (k = @sh) over a number the kernel knows as any k-bit-short
 * value: [0, 2^(64-k) - 1] shifted up, its tnum those top bits unknown
 * (the left shift's case in alu marks such a range lossy). */
static bool sign_extended(const struct reg *d, int sh)
{
	return sh > 0 && sh < 64 && d->t == R_SCALAR && d->exact && d->lossy &&
	       !d->lo && d->hi == (UINT64_MAX >> sh) << sh;
}

/* The idiom's result as scalar_min_max_arsh leaves it: the signed range
 * of a (64 - @sh)-bit number, e.g. [-128, 127] for a byte, and any
 * unsigned one (its tnum knows no bit). */
static struct reg sign_extension(int sh)
{
	struct reg r = scalar(0, UINT64_MAX, true);

	r.sgn = true;
	r.smin = -(int64_t)(1ull << (63 - sh));
	r.smax = (int64_t)((1ull << (63 - sh)) - 1);
	return r;
}

static int alu(struct walk *w, struct state *s, uint32_t pc,
	       const struct hr_insn *in)
{
	bool is64 = HR_CLASS(in->code) == HR_ALU64;
	int op = HR_OP(in->code);
	struct reg *d = &s->r[in->dst];
	struct reg src;

	if (alu_imm_refused(w, s, pc, in))
		return -1;
	if (in->dst == 10)
		return fault(w, s, pc, "frame pointer is read only");
	if (HR_SRC(in->code) == HR_X && op != HR_END && op != HR_NEG) {
		if (s->r[in->src].t == R_NONE)
			return fault(w, s, pc, "R%d !read_ok", in->src);
		src = s->r[in->src];
	} else {
		src = konst(is64 ? (uint64_t)(int64_t)in->imm :
				   (uint64_t)(uint32_t)in->imm);
	}
	if (op == HR_MOV) {
		if (in->off) { /* movsx */
			*d = scalar(0, UINT64_MAX, false);
			return 0;
		}
		if (!is64 && src.t == R_SCALAR && src.hi > UINT32_MAX)
			src = scalar(0, UINT32_MAX, false);
		else if (!is64 && is_ptr(&src))
			src = scalar(0, UINT32_MAX, false);
		if (src.t == R_SCALAR && HR_SRC(in->code) == HR_X && !src.id) {
			src.id = ++w->next_id;
			s->r[in->src].id = src.id;
		}
		*d = src;
		return 0;
	}
	if (d->t == R_NONE)
		return fault(w, s, pc, "R%d !read_ok", in->dst);
	/* Pointer arithmetic. */
	if (d->t == R_FUNC || src.t == R_FUNC) {
		set_unknown(w, pc, "arithmetic on a callback's address");
		return -1;
	}
	if (is_ptr(d) || is_ptr(&src)) {
		struct reg p, n;

		/* Two pointers the kernel types too: their difference is a
		 * number it knows nothing of (mark_reg_unknown). */
		if (op == HR_SUB && is_ptr(d) && is_ptr(&src)) {
			*d = scalar(0, UINT64_MAX,
				    d->t != R_OTHER && src.t != R_OTHER);
			return 0;
		}
		if (op != HR_NEG && op != HR_END &&
		    ptr_alu_refused(w, s, pc, in, &src, is64))
			return -1;
		if (!is64 || (op != HR_ADD && op != HR_SUB) ||
		    (op == HR_SUB && is_ptr(&src))) {
			*d = (struct reg){ .t = R_OTHER };
			return 0;
		}
		p = is_ptr(d) ? *d : src;
		n = is_ptr(d) ? src : *d;
		if (p.t == R_MAP_PTR)
			return map_ptr_add(w, s, pc, in, &p, &n);
		/* check_reg_sane_offset on the number, before any bound
		 * of the pointer's own. */
		if (n.smin_unb &&
		    (p.t == R_VAL || p.t == R_PKT || p.t == R_META))
			return fault(w, s, pc,
				     "math between %s pointer and register "
				     "with unbounded min value is not allowed",
				     reg_str(&p));
		if (nonnull_type(p.t) || ptr_no_math(&p)) {
			if (p.t == R_VAL_OR_NULL && p.maybe_nonnull) {
				set_unknown(w, pc,
					    "arithmetic on an array "
					    "lookup before its NULL "
					    "test");
				return -1;
			}
			return fault(
				w, s, pc,
				"R%d pointer arithmetic on %s prohibited%s",
				in->dst, reg_str(&p),
				nonnull_type(p.t) ? ", null-check it first" :
						    "");
		}
		if (is_const(&n)) {
			int64_t k = op == HR_SUB ? -(int64_t)n.lo :
						   (int64_t)n.lo;

			if (k > (1 << 29) || k < -(1 << 29)) {
				*d = (struct reg){ .t = R_OTHER };
				return 0;
			}
			p.off += (int32_t)k;
			*d = p;
			return 0;
		}
		if (op == HR_SUB || p.t == R_CTX || p.t == R_STACK ||
		    p.t == R_MAP_PTR || p.t == R_OTHER) {
			*d = (struct reg){ .t = R_OTHER };
			return 0;
		}
		if ((p.t == R_PKT || p.t == R_META) && n.sgn && op == HR_ADD &&
		    p.exact && !p.id && !p.lo && !p.hi) {
			/* check_reg_sane_offset looks at the number's smin;
			 * the pointer then takes its bounds: unsigned any,
			 * signed below 0 (check_packet_access refuses). */
			if (n.smin <= -(1 << 29))
				return fault(w, s, pc,
					     "value %lld makes %s pointer be "
					     "out of bounds",
					     (long long)n.smin, reg_str(&p));
			p.hi = UINT64_MAX;
			p.id = ++w->next_id;
			p.range = 0;
			*d = p;
			return 0;
		}
		if (p.t == R_PKT || p.t == R_META) {
			if (n.exact && n.lo > INT64_MAX / 2 &&
			    n.hi > INT64_MAX) {
				return fault(w, s, pc,
					     "math between pkt pointer and "
					     "register with unbounded min "
					     "value is not allowed");
			}
			if (!n.exact || n.hi > INT64_MAX) {
				p.exact = false;
			}
			p.lo += n.lo;
			p.hi = p.hi + n.hi < p.hi ? UINT64_MAX : p.hi + n.hi;
			p.exact = p.exact && n.exact;
			p.id = ++w->next_id;
			p.range = 0;
			*d = p;
			return 0;
		}
		/* Map values: the offset's range joins the variable part;
		 * a negative signed bound the kernel keeps is not followed
		 * (check_mem_region_access words it). */
		p.lo += n.lo;
		p.hi = p.hi + n.hi < p.hi ? UINT64_MAX : p.hi + n.hi;
		p.exact = p.exact && n.exact && !n.sgn;
		*d = p;
		return 0;
	}
	/* Scalars. */
	{
		struct reg r = *d;
		bool ex = d->exact && src.exact;
		bool lossy = d->lossy || src.lossy;

		if ((op == HR_ADD || op == HR_SUB) && is_const(&src) &&
		    (is64 ? (int64_t)src.lo < 0 : (int32_t)src.lo < 0)) {
			uint64_t k = is64 ? -src.lo :
					    (uint32_t) - (uint32_t)src.lo;

			op = op == HR_ADD ? HR_SUB : HR_ADD;
			src = konst(k);
		}
		uint64_t lo = r.lo, hi = r.hi;
		int sh = (int)(src.lo & (is64 ? 63 : 31));

		switch (op) {
		case HR_ADD:
			if (hi + src.hi < hi || lo + src.lo < lo) {
				lo = 0;
				hi = UINT64_MAX;
				ex = false;
			} else {
				lo += src.lo;
				hi += src.hi;
			}
			if (id_shared(s, in->dst, d->id) && lo != hi)
				ex = false;
			break;
		case HR_SUB:
			if (lo >= src.hi) {
				lo -= src.hi;
				hi -= src.lo;
			} else {
				lo = 0;
				hi = UINT64_MAX;
				ex = false;
			}
			if (id_shared(s, in->dst, d->id) && lo != hi)
				ex = false;
			break;
		case HR_AND:
			if (is_const(&src) && (src.lo & (src.lo + 1)) == 0) {
				hi = hi < src.lo ? hi : src.lo;
				lo = (lo == r.hi) ? (lo & src.lo) : 0;
				if (r.lo == r.hi)
					hi = lo;
			} else {
				lo = 0;
				hi = hi < src.hi ? hi : src.hi;
				ex = false;
			}
			break;
		case HR_RSH:
			if (!is_const(&src)) {
				lo = 0;
				ex = false;
				break;
			}
			lo >>= sh;
			hi >>= sh;
			break;
		case HR_ARSH:
			if (is64 && is_const(&src) && sign_extended(d, sh)) {
				*d = sign_extension(sh);
				return 0;
			}
			lo = 0;
			hi = UINT64_MAX;
			ex = false;
			break;
		case HR_LSH:
			/* A number the kernel knows nothing of: its tnum
			 * learns the low bits are zero, and bounds sync
			 * takes them off the top of the range. */
			if (is64 && is_const(&src) && sh && ex && !lossy &&
			    !lo && hi == UINT64_MAX) {
				/* __scalar64_min_max_lsh keeps a signed
				 * bound only for a shift by 32 of a number
				 * whose low half it knows non-negative; a
				 * sign-extended one is not. */
				bool unb = sh != 32 || d->sgn;

				*d = scalar(0, UINT64_MAX << sh, true);
				d->lossy = true;
				d->smin_unb = unb;
				return 0;
			}
			if (!is_const(&src) || (sh && hi >> (64 - sh))) {
				lo = 0;
				hi = UINT64_MAX;
				ex = false;
				break;
			}
			lo <<= sh;
			hi <<= sh;
			/* The kernel's tnum knows the low bits are zero. */
			if (lo != hi)
				lossy = true;
			break;
		default:
			if (op == HR_MUL && r.lo == r.hi && is_const(&src) &&
			    (!r.lo || (r.lo * src.lo) / r.lo == src.lo)) {
				lo = hi = r.lo * src.lo;
				break;
			}
			lo = 0;
			hi = UINT64_MAX;
			ex = false;
			break;
		}
		if (!is64) {
			if (hi > UINT32_MAX) {
				lo = 0;
				hi = UINT32_MAX;
				ex = false;
			}
		}
		/* Bit operations on a number whose tnum knows more than its
		 * range (known zero low bits) may leave the kernel a range
		 * tighter than this one. */
		if (lossy && op != HR_ADD && op != HR_SUB && op != HR_LSH &&
		    op != HR_RSH)
			ex = false;
		*d = scalar(lo, hi, ex);
		d->lossy = lossy && ex;
		return 0;
	}
}

/* --- conditional jumps --------------------------------------------- */

/* Whether cmp holds for values a, b (unsigned ops only). */
static int ucmp(int op, uint64_t alo, uint64_t ahi, uint64_t blo, uint64_t bhi)
{
	/* 1: always, 0: never, -1: either. */
	switch (op) {
	case HR_JEQ:
		if (alo == ahi && blo == bhi)
			return alo == blo;
		return ahi < blo || bhi < alo ? 0 : -1;
	case HR_JNE: {
		int r = ucmp(HR_JEQ, alo, ahi, blo, bhi);

		return r < 0 ? -1 : !r;
	}
	case HR_JGT:
		return alo > bhi ? 1 : ahi <= blo ? 0 : -1;
	case HR_JGE:
		return alo >= bhi ? 1 : ahi < blo ? 0 : -1;
	case HR_JLT:
		return ahi < blo ? 1 : alo >= bhi ? 0 : -1;
	case HR_JLE:
		return ahi <= blo ? 1 : alo > bhi ? 0 : -1;
	}
	return -1;
}

/* Narrows a (vs constant k) for the branch where "a op k" is @taken. */
static void narrow(struct reg *a, int op, uint64_t k, bool taken)
{
	if (!taken) {
		switch (op) {
		case HR_JEQ:
			op = HR_JNE;
			break;
		case HR_JNE:
			op = HR_JEQ;
			break;
		case HR_JGT:
			op = HR_JLE;
			break;
		case HR_JGE:
			op = HR_JLT;
			break;
		case HR_JLT:
			op = HR_JGE;
			break;
		case HR_JLE:
			op = HR_JGT;
			break;
		}
	}
	switch (op) {
	case HR_JEQ:
		a->lo = a->hi = k;
		break;
	case HR_JNE:
		if (a->lo == k && a->lo < a->hi)
			a->lo++;
		else if (a->hi == k && a->lo < a->hi)
			a->hi--;
		break;
	case HR_JGT:
		if (a->lo <= k)
			a->lo = k + 1;
		break;
	case HR_JGE:
		if (a->lo < k)
			a->lo = k;
		break;
	case HR_JLT:
		if (a->hi >= k)
			a->hi = k - 1;
		break;
	case HR_JLE:
		if (a->hi > k)
			a->hi = k;
		break;
	}
}

/* Narrows every copy of scalar @id as @r was narrowed. */
static void sync_copies(struct state *s, const struct reg *r)
{
	unsigned int it = 0;
	struct reg *c;

	if (!r->id)
		return;
	while ((c = each_reg(s, &it)))
		if (c->t == R_SCALAR && c->id == r->id) {
			c->lo = r->lo;
			c->hi = r->hi;
			c->sgn = r->sgn;
			c->smin = r->smin;
			c->smax = r->smax;
		}
}

/* A packet pointer's range after a comparison found it past data_end
 * (the kernel's mark_pkt_end): at it (>=) or beyond it (>). */
enum { AT_PKT_END = -1, BEYOND_PKT_END = -2 };

/* The proven range after "pkt op end" (or "meta op data"):
 * find_good_pkt_pointers on every pointer with @p's id. A strict
 * comparison (@open) proves one byte less than the pointer's offset. */
static void good_pkt(struct state *s, const struct reg *p, bool open)
{
	unsigned int it = 0;
	struct reg *c;
	int range;

	/* find_good_pkt_pointers: no range where the variable part and
	 * the offset together may pass MAX_PACKET_OFF. */
	if (p->off < 0 || (p->off == 0 && open) || p->hi > MAX_PKT_OFF ||
	    p->hi + (uint64_t)p->off > MAX_PKT_OFF)
		return;
	range = p->off - (open ? 1 : 0);
	/* Which way the kernel rounds the strict case is not pinned down
	 * here: faults that rest on it are only "cannot tell". */
	if (open)
		s->soft = true;
	while ((c = each_reg(s, &it)))
		if (c->t == p->t && c->id == p->id && c->range < range)
			c->range = range;
}

/* A comparison of a packet pointer with its end; 0 when handled (the
 * branches' states filled, or *known the one way the kernel walks), 1
 * when it is no such comparison. As the kernel's try_match_pkt_pointers,
 * the branch where the pointer is past the end marks that register (not
 * its copies) at or beyond it; only such a mark decides a later
 * comparison (is_pkt_ptr_branch_taken), never a proven range. */
static int pkt_cmp(struct state *fall, struct state *jump, int op, int dreg,
		   int sreg, int *known)
{
	struct reg *d = &fall->r[dreg], *sr = &fall->r[sreg];
	bool end_right, with_end;
	struct reg p;
	int preg;

	*known = -1;
	if (d->t == R_PKT && sr->t == R_PKT_END)
		end_right = true;
	else if (d->t == R_PKT_END && sr->t == R_PKT)
		end_right = false;
	else if (d->t == R_META && sr->t == R_PKT && !sr->id && !sr->off)
		end_right = true;
	else if (d->t == R_PKT && !d->id && !d->off && sr->t == R_META)
		end_right = false;
	else
		return 1;
	p = end_right ? *d : *sr;
	preg = end_right ? dreg : sreg;
	with_end = p.t == R_PKT && (end_right ? sr : d)->t == R_PKT_END;
	/* Normalize to "p OP end". */
	if (!end_right) {
		switch (op) {
		case HR_JGT:
			op = HR_JLT;
			break;
		case HR_JLT:
			op = HR_JGT;
			break;
		case HR_JGE:
			op = HR_JLE;
			break;
		case HR_JLE:
			op = HR_JGE;
			break;
		}
	}
	if (with_end && p.range < 0) {
		/* is_pkt_ptr_branch_taken: a pointer known past (or at)
		 * the end decides the branch, and only that way is walked. */
		if ((op == HR_JGT || op == HR_JLE) && p.range == BEYOND_PKT_END)
			*known = op == HR_JGT;
		else if (op == HR_JGT || op == HR_JLE)
			*known = -1;
		else if (op == HR_JGE || op == HR_JLT)
			*known = op == HR_JGE;
		if (*known >= 0)
			return 0;
	}
	switch (op) {
	case HR_JGT: /* p > end: fall-through p <= end */
		good_pkt(fall, &p, false);
		if (with_end) /* mark_pkt_end on the other branch */
			jump->r[preg].range = BEYOND_PKT_END;
		break;
	case HR_JLE: /* p <= end: taken */
		good_pkt(jump, &p, false);
		if (with_end)
			fall->r[preg].range = BEYOND_PKT_END;
		break;
	case HR_JGE: /* p >= end: fall-through p < end */
		good_pkt(fall, &p, true);
		if (with_end)
			jump->r[preg].range = AT_PKT_END;
		break;
	case HR_JLT: /* p < end: taken */
		good_pkt(jump, &p, true);
		if (with_end)
			fall->r[preg].range = AT_PKT_END;
		break;
	default:
		/* == or != of packet pointers: nothing proven. */
		break;
	}
	return 0;
}

/* --- helpers --------------------------------------------------------- */

static const char *helper_name(int id)
{
	const char *n = hr_helper_name(id);

	return n ? n : "unknown";
}

/* A helper's memory argument [r, r + size): ARG_PTR_TO_MEM and the map
 * key / value arguments. */
static int mem_arg(struct walk *w, struct state *s, uint32_t pc, int regno,
		   int64_t size, bool write)
{
	struct reg *r = &s->r[regno];
	struct reg dummy;
	int64_t a;

	switch (r->t) {
	case R_NONE:
		return fault(w, s, pc, "R%d !read_ok", regno);
	case R_STACK:
		a = r->off;
		if (a < -MAX_STACK || a + size > 0 || size <= 0)
			return fault(w, s, pc,
				     "invalid %s stack R%d off=%lld size=%lld",
				     write ? "write to" : "read from", regno,
				     (long long)a, (long long)size);
		for (int64_t o = a & ~7; o < a + size; o += 8)
			if (slot_at(s, r, (int)o)->r.t == R_DYNPTR) {
				set_unknown(w, pc,
					    "a helper's memory argument over "
					    "a dynptr");
				return -1;
			}
		stack_used(w, s, r, a);
		/* A helper's write makes its bytes STACK_MISC, and a spilled
		 * number's whole slot (check_stack_range_initialized). */
		for (int64_t o = a & ~7; write && o < a + size; o += 8) {
			struct slot *sl = slot_at(s, r, (int)o);
			uint8_t m = sl->spill ? 0xff : sl->misc;

			*sl = (struct slot){ .misc = m | slot_bytes(o, a, size),
					     .r = scalar(0, UINT64_MAX,
							 false) };
		}
		return 0;
	case R_RBUF:
	case R_MEM:
		if (size <= 0 || size > (1 << 29) || (write && r->rdonly))
			break;
		return check_rbuf(w, s, pc, regno, r, 0, (int)size);
	case R_PKT:
	case R_META:
	case R_VAL:
		if (size <= 0 || size > (1 << 29))
			break;
		return mem_access(w, s, pc, regno, 0, 1, write, NULL, &dummy) ?:
			       (r->t == R_VAL ? check_val(w, s, pc, regno, r, 0,
							  (int)size, write) :
						check_pkt(w, s, pc, regno, r, 0,
							  (int)size));
	case R_SCALAR:
	case R_CTX:
	case R_PKT_END:
	case R_MAP_PTR:
	case R_VAL_OR_NULL:
		if (r->t == R_VAL_OR_NULL && r->maybe_nonnull)
			break;
		return fault(w, s, pc,
			     "R%d type=%s expected=fp, pkt, pkt_meta, map_key, "
			     "map_value, mem, ringbuf_mem, buf, trusted_ptr_",
			     regno, reg_str(r));
	default:
		break;
	}
	set_unknown(w, pc,
		    "a helper's memory argument this check does not "
		    "follow");
	return -1;
}

static bool map_of_maps(const struct hr_map *m)
{
	return m->attr.type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
	       m->attr.type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

/* A map of the object that stands for map-in-map @outer's inner map
 * template (the kernel types a lookup's result by inner_map_meta): one
 * the same in every parameter, or NULL. */
static const struct hr_map *inner_stand_in(const struct walk *w,
					   const struct hr_map *outer)
{
	const struct hr_object *obj = w->prog->obj;
	unsigned int i;

	for (i = 0; obj && i < obj->nmaps; i++)
		if (hr_map_inner_same(outer, obj->maps[i]))
			return obj->maps[i];
	return NULL;
}

static int arg_map(struct walk *w, struct state *s, uint32_t pc, int id)
{
	struct reg *r = &s->r[1];

	if (r->t == R_NONE)
		return fault(w, s, pc, "R1 !read_ok");
	if (r->t != R_MAP_PTR) {
		if (r->t == R_SCALAR || r->t == R_CTX || r->t == R_PKT ||
		    r->t == R_STACK || r->t == R_MAP_PTR_OR_NULL)
			return fault(w, s, pc, "R1 type=%s expected=map_ptr",
				     reg_str(r));
		set_unknown(w, pc, "map argument not followed");
		return -1;
	}
	return 0;
}

/* check_mem_size_reg's refusal of an ARG_CONST_SIZE that may be 0, for an
 * exact size argument @regno; 0 when it may not. */
static int zero_size(struct walk *w, struct state *s, uint32_t pc, int regno)
{
	const struct reg *r = &s->r[regno];

	if (r->lo)
		return 0;
	return fault(w, s, pc, "R%d invalid zero-sized read: u64=[%llu,%llu]",
		     regno, (unsigned long long)r->lo,
		     (unsigned long long)r->hi);
}

/* The size argument @regno (ARG_CONST_SIZE): its largest value, or -1. */
/* Whether the kernel takes @m as the memory of a size argument before it
 * looks at the size (check_func_arg checks the pointer's type first). */
static bool size_mem_typed(const struct reg *m)
{
	return m->t == R_STACK || m->t == R_PKT || m->t == R_META ||
	       m->t == R_VAL;
}

/* check_mem_size_reg's refusals of the exact size argument @regno but a
 * zero size, in its order: a size the kernel knows may be negative (its
 * unsigned range passes 2^63, so after bounds sync its smin is below 0)
 * first, a size reaching BPF_MAX_VAR_SIZ (512 MiB) after the zero test.
 * @late picks which. Only for a buffer the kernel has already taken; 1
 * when refused or left unknown. */
static int size_bounds(struct walk *w, struct state *s, uint32_t pc, int regno,
		       bool late)
{
	const struct reg *r = &s->r[regno];
	bool over = late ? r->hi >= (1u << 29) : r->hi > INT64_MAX;

	if (!over)
		return 0;
	if (!size_mem_typed(&s->r[regno - 1])) {
		set_unknown(w, pc,
			    "a size argument this check does not "
			    "bound exactly");
		return 1;
	}
	if (late)
		fault(w, s, pc,
		      "R%d unbounded memory access, use 'var &= const' or "
		      "'if (var < const)'",
		      regno);
	else
		fault(w, s, pc,
		      "R%d min value is negative, either use unsigned or "
		      "'var &= const'",
		      regno);
	return 1;
}

static int64_t size_arg(struct walk *w, struct state *s, uint32_t pc, int regno)
{
	struct reg *r = &s->r[regno];

	if (r->t == R_NONE) {
		fault(w, s, pc, "R%d !read_ok", regno);
		return -1;
	}
	if (r->t != R_SCALAR || !r->exact) {
		set_unknown(w, pc,
			    "a size argument this check does not "
			    "bound exactly");
		return -1;
	}
	if (size_bounds(w, s, pc, regno, false) || zero_size(w, s, pc, regno) ||
	    size_bounds(w, s, pc, regno, true))
		return -1;
	return (int64_t)r->hi;
}

static bool is_hint_kfunc(hr_helper_fn fn)
{
	return fn && (fn == hr_kfunc_xdp_metadata_rx_hash.fn ||
		      fn == hr_kfunc_xdp_metadata_rx_timestamp.fn ||
		      fn == hr_kfunc_xdp_metadata_rx_vlan_tag.fn);
}

/* bpf_rcu_read_lock/_unlock and bpf_preempt_disable/_enable, as
 * check_kfunc_call tracks them: an RCU section may not open inside
 * another, preemption sections nest, and an unlock or enable with none
 * open is refused at the call. They take no argument and return void, so
 * R0 is left uninitialized with R1-R5. 1 when @k is none of them. */
static int section_kfunc(struct walk *w, struct state *s, uint32_t pc,
			 const struct hr_kfunc *k)
{
	int i;

	if (k == &hr_kfunc_rcu_read_lock) {
		if (s->rcu)
			return fault(w, s, pc,
				     "nested rcu read lock (kernel function "
				     "%s)",
				     k->name);
		s->rcu = true;
	} else if (k == &hr_kfunc_rcu_read_unlock) {
		if (!s->rcu)
			return fault(w, s, pc,
				     "unmatched rcu read unlock (kernel "
				     "function %s)",
				     k->name);
		s->rcu = false;
	} else if (k == &hr_kfunc_preempt_disable) {
		s->preempt++;
	} else if (k == &hr_kfunc_preempt_enable) {
		if (!s->preempt)
			return fault(w, s, pc,
				     "unmatched attempt to enable preemption "
				     "(kernel function %s)",
				     k->name);
		s->preempt--;
	} else {
		return 1;
	}
	for (i = 0; i <= 5; i++)
		s->r[i] = (struct reg){ .t = R_NONE };
	return 0;
}

/* Whether the object's license is GPL compatible to the kernel, read once
 * a walk; false when it cannot be read. */
static bool license_gpl(struct walk *w)
{
	if (w->gpl < 0)
		w->gpl = hr_check_license_gpl(
				 w->prog->obj ? w->prog->obj->path : NULL) == 1;
	return w->gpl == 1;
}

/* An ARG_PTR_TO_CTX argument: the context itself, unmoved. */
static int proto_ctx(struct walk *w, struct state *s, uint32_t pc, int regno)
{
	const struct reg *r = &s->r[regno];

	if (r->t == R_CTX && !r->off)
		return 0;
	if (r->t == R_CTX && r->off > 0)
		return fault(w, s, pc,
			     "dereference of modified ctx ptr R%d off=%d "
			     "disallowed",
			     regno, r->off);
	if (r->t == R_SCALAR)
		return fault(w, s, pc, "R%d type=scalar expected=ctx", regno);
	/* check_reg_type, with reg_type_str's names for the pointer types
	 * this model knows exactly (a packet pointer meets the packet
	 * access rule first, which depends on the helper). */
	if (r->t == R_MAP_PTR || r->t == R_STACK || r->t == R_PKT_END)
		return fault(w, s, pc, "R%d type=%s expected=ctx", regno,
			     r->t == R_MAP_PTR ? "map_ptr" :
			     r->t == R_STACK   ? "fp" :
						 "pkt_end");
	set_unknown(w, pc, "a context argument this check does not follow");
	return -1;
}

/* A memory argument that may be NULL, passed a known 0. */
static bool is_null_arg(const struct reg *r, int kind)
{
	return (kind == HR_ARG_MEM_RO_NULL || kind == HR_ARG_MEM_W_NULL) &&
	       is_const(r) && !r->lo;
}

/*
 * A buffer @regno of 0 bytes (ARG_CONST_SIZE_OR_ZERO passed 0): the kernel
 * still checks where it points, as an access of no bytes that may end at
 * the memory's end (__check_mem_access): a packet pointer within its
 * proven range; a stack pointer inside the 512 bytes, which a privileged
 * loader may leave unwritten (check_stack_access_within_bounds).
 */
static int zero_size_mem(struct walk *w, struct state *s, uint32_t pc,
			 int regno)
{
	struct reg *r = &s->r[regno];

	if (r->t == R_PKT || r->t == R_META)
		return check_pkt(w, s, pc, regno, r, 0, 0);
	if (r->t == R_STACK && r->off >= -MAX_STACK && r->off < 0) {
		stack_used(w, s, r, r->off);
		return 0;
	}
	set_unknown(w, pc, "a zero-sized buffer");
	return -1;
}

/* An ARG_CONST_SIZE(_OR_ZERO) argument @regno and the memory argument
 * before it, checked as check_mem_size_reg does: the memory is checked
 * for the size's largest value. Sizes the kernel may see otherwise than
 * this model (unbounded, negative, possibly zero) are "cannot tell". */
static int proto_size(struct walk *w, struct state *s, uint32_t pc,
		      const struct hr_proto *p, int regno)
{
	const struct reg *r = &s->r[regno];
	int mkind = p->arg[regno - 2];

	if (r->t != R_SCALAR || !r->exact) {
		set_unknown(w, pc,
			    "a size argument this check does not bound "
			    "exactly");
		return -1;
	}
	if (size_bounds(w, s, pc, regno, false) ||
	    (p->arg[regno - 1] == HR_ARG_SIZE && zero_size(w, s, pc, regno)) ||
	    size_bounds(w, s, pc, regno, true))
		return -1;
	if (is_null_arg(&s->r[regno - 1], mkind)) {
		if (r->hi) {
			set_unknown(w, pc, "a NULL buffer with a size");
			return -1;
		}
		return 0;
	}
	if (!r->hi)
		return zero_size_mem(w, s, pc, regno - 1);
	/* Whether the kernel counts a written buffer as a write depends on
	 * the proto's MEM_WRITE flag; into a read-only map, cannot tell. */
	if ((mkind == HR_ARG_MEM_W || mkind == HR_ARG_MEM_W_NULL) &&
	    s->r[regno - 1].t == R_VAL && s->r[regno - 1].rdonly) {
		set_unknown(w, pc, "a helper writing into a read-only map");
		return -1;
	}
	return mem_arg(w, s, pc, regno - 1, (int64_t)r->hi,
		       mkind == HR_ARG_MEM_W || mkind == HR_ARG_MEM_W_NULL);
}

/* An ARG_PTR_TO_CONST_STR the kernel takes (check_reg_const_str): a
 * constant place in a read-only, frozen map (libbpf freezes .rodata) with
 * a NUL before the value's end, read from the contents it will load. */
static bool const_str_ok(const struct reg *r)
{
	const struct hr_map *m = r->map;
	struct hr_region rg[2];
	unsigned int nr;

	if (r->t != R_VAL || !r->exact || r->lo || r->hi || !m || !r->rdonly ||
	    !strstr(m->name, ".rodata") || r->off < 0 ||
	    (uint32_t)r->off >= r->vsize || !m->ops || !m->ops->regions ||
	    m->attr.type != BPF_MAP_TYPE_ARRAY || m->attr.max_entries != 1)
		return false;
	nr = m->ops->regions((struct hr_map *)m, rg, 2);
	if (nr < 1 || rg[0].end - rg[0].start < r->vsize)
		return false;
	return memchr((const void *)(rg[0].start + (uint32_t)r->off), 0,
		      r->vsize - (uint32_t)r->off) != NULL;
}

/* The constant string @r points to (const_str_ok has passed). */
static const char *const_str(const struct reg *r)
{
	struct hr_region rg[2];

	r->map->ops->regions((struct hr_map *)r->map, rg, 2);
	return (const char *)(rg[0].start + (uint32_t)r->off);
}

/* check_bpf_snprintf_call: the data a whole number of u64 arguments (the
 * kernel refuses other sizes without a word), the format one
 * bpf_bprintf_prepare takes for that many. */
static int snprintf_fmt(struct walk *w, struct state *s, uint32_t pc)
{
	const struct reg *len = &s->r[5];

	if (!is_const(len) || len->lo % 8) {
		set_unknown(w, pc, "bpf_snprintf's data size");
		return -1;
	}
	if (!hr_check_bprintf_fmt_ok(const_str(&s->r[3]),
				     (uint32_t)(len->lo / 8)))
		return fault(w, s, pc, "Invalid format string");
	return 0;
}

/* One argument of a helper of the table, as check_func_arg takes it;
 * *map gets an ARG_CONST_MAP_PTR's map. */
static int proto_arg(struct walk *w, struct state *s, uint32_t pc,
		     const struct hr_proto *p, int regno,
		     const struct hr_map **map)
{
	int kind = p->arg[regno - 1];
	struct reg *r = &s->r[regno];

	if (r->t == R_NONE)
		return fault(w, s, pc, "R%d !read_ok", regno);
	switch (kind) {
	case HR_ARG_ANY:
		/* Pointers may leak into helpers: the kernel's root. */
		return 0;
	case HR_ARG_CTX:
		return proto_ctx(w, s, pc, regno);
	case HR_ARG_MEM_RO:
	case HR_ARG_MEM_RO_NULL:
	case HR_ARG_MEM_W:
	case HR_ARG_MEM_W_NULL:
		/* Checked with its size, the argument after it. */
		if (r->t == R_SCALAR && !is_null_arg(r, kind) && !r->exact) {
			set_unknown(w, pc, "a buffer argument maybe NULL");
			return -1;
		}
		return 0;
	case HR_ARG_SIZE:
	case HR_ARG_SIZE0:
		return proto_size(w, s, pc, p, regno);
	case HR_ARG_MAP:
		if (r->t == R_MAP_PTR) {
			*map = r->map;
			return 0;
		}
		if (r->t == R_SCALAR)
			return fault(w, s, pc,
				     "R%d type=scalar expected=map_ptr", regno);
		break;
	case HR_ARG_MAP_VALUE:
	case HR_ARG_MAP_VALUE_W:
		if (!*map)
			break;
		return mem_arg(w, s, pc, regno, (*map)->attr.value_size,
			       kind == HR_ARG_MAP_VALUE_W);
	case HR_ARG_FIXED_W:
		/* MEM_ALIGNED: check_ptr_alignment, strict on the stack. */
		if (r->t == R_STACK && r->off % p->arg_size[regno - 1])
			return fault(w, s, pc,
				     "misaligned stack access off 0+%d+0 size "
				     "%d",
				     r->off, p->arg_size[regno - 1]);
		if (r->t != R_STACK)
			break;
		return mem_arg(w, s, pc, regno, p->arg_size[regno - 1], true);
	case HR_ARG_FIXED_RO:
		if (is_null_arg(r, HR_ARG_MEM_RO_NULL))
			break;
		return mem_arg(w, s, pc, regno, p->arg_size[regno - 1], false);
	case HR_ARG_SOCK_COMMON_NULL:
		if (is_const(r) && !r->lo)
			return 0;
		/* fall through */
	case HR_ARG_SOCK_COMMON:
		if (r->t == R_SOCK)
			return 0;
		break;
	case HR_ARG_CONST_STR:
		if (const_str_ok(r))
			return 0;
		break;
	}
	set_unknown(w, pc, "argument R%d of %s this check does not follow",
		    regno, helper_name(p->id));
	return -1;
}

/* A helper of the table: its arguments in order, then the map's type and
 * the license, then what it returns. */
static int proto_call(struct walk *w, struct state *s, uint32_t pc,
		      const struct hr_proto *p, struct reg *r0)
{
	const struct hr_map *map = NULL;
	int regno;

	for (regno = 1; regno <= 5 && p->arg[regno - 1]; regno++)
		if (proto_arg(w, s, pc, p, regno, &map))
			return -1;
	if (p->map_types && (!map || map->attr.type >= 64 ||
			     !(p->map_types & (1ull << map->attr.type)))) {
		set_unknown(w, pc, "%s on this map type", helper_name(p->id));
		return -1;
	}
	if (p->gpl_only && !license_gpl(w)) {
		set_unknown(w, pc, "%s: a GPL-only helper, and the license",
			    helper_name(p->id));
		return -1;
	}
	*r0 = p->ret == HR_RET_VOID ? (struct reg){ .t = R_NONE } :
				      scalar(0, UINT64_MAX, true);
	return 0;
}

/* Reference @id no longer held. */
static void drop_ref(struct state *s, uint32_t id)
{
	int k;

	/* The rest keep their order (release_reference_state moves them
	 * down): a leak names the oldest reference still held. */
	for (k = 0; k < s->nrefs; k++)
		if (s->refs[k] == id) {
			s->nrefs--;
			memmove(&s->refs[k], &s->refs[k + 1],
				(s->nrefs - k) * sizeof(s->refs[0]));
			memmove(&s->ref_insn[k], &s->ref_insn[k + 1],
				(s->nrefs - k) * sizeof(s->ref_insn[0]));
			break;
		}
}

/* Every register and spill holding reference @id, as release_reference
 * leaves them: unknown numbers (mark_reg_invalid, to a privileged
 * loader), and the reference gone. */
static void release_ref(struct state *s, uint32_t id)
{
	unsigned int it = 0;
	struct reg *r;

	drop_ref(s, id);
	while ((r = each_reg(s, &it)))
		if (is_ptr(r) && r->id == id)
			*r = scalar(0, UINT64_MAX, true);
}

/* A new reference for R0 at @pc: check_helper_call numbers the maybe-NULL
 * pointer first, then acquire_reference() the reference it holds, which
 * both then carry. 0, or -1 when this model holds too many. */
static int acquire_ref(struct walk *w, struct state *s, uint32_t pc,
		       struct reg *r0)
{
	if (s->nrefs == MAX_REFS) {
		set_unknown(w, pc, "too many references");
		return -1;
	}
	++w->next_id;
	r0->id = ++w->next_id;
	s->refs[s->nrefs] = r0->id;
	s->ref_insn[s->nrefs++] = pc;
	return 0;
}

/* bpf_ringbuf_reserve(map, size, flags): a ring buffer map, a size the
 * verifier knows as a constant (ARG_CONST_ALLOC_SIZE_OR_ZERO), and R0 a
 * maybe-NULL record of that size holding a reference. */
static int ringbuf_reserve(struct walk *w, struct state *s, uint32_t pc,
			   struct reg *r0)
{
	const struct reg *m = &s->r[1], *n = &s->r[2];
	int i;

	for (i = 1; i <= 3; i++)
		if (s->r[i].t == R_NONE)
			return fault(w, s, pc, "R%d !read_ok", i);
	/* check_func_arg takes any map in R1 and wants R2's value
	 * known; a range the kernel knows as exactly is not one. */
	if (m->t == R_MAP_PTR && n->t == R_SCALAR && n->exact && n->lo != n->hi)
		return fault(w, s, pc, "R2 is not a known constant'");
	if (m->t != R_MAP_PTR || m->map->attr.type != BPF_MAP_TYPE_RINGBUF ||
	    !is_const(n) || n->lo > (1u << 29)) {
		set_unknown(w, pc, "bpf_ringbuf_reserve arguments");
		return -1;
	}
	*r0 = (struct reg){ .t = R_RBUF_OR_NULL,
			    .exact = true,
			    .vsize = (uint32_t)n->lo };
	return acquire_ref(w, s, pc, r0);
}

/* bpf_ringbuf_submit/_discard(record, flags): the record itself, at its
 * start (OBJ_RELEASE), released with every copy of it. */
static int ringbuf_release(struct walk *w, struct state *s, uint32_t pc)
{
	const struct reg *r = &s->r[1];
	int k;

	if (r->t == R_NONE)
		return fault(w, s, pc, "R1 !read_ok");
	if (s->r[2].t == R_NONE)
		return fault(w, s, pc, "R2 !read_ok");
	if (r->t == R_RBUF_OR_NULL || r->t == R_SCALAR)
		return fault(w, s, pc, "R1 type=%s expected=ringbuf_mem",
			     reg_str(r));
	/* check_func_arg_reg_off: a released pointer's fixed offset is
	 * looked at first, its variable part after. */
	if (r->t == R_RBUF && r->off)
		return fault(w, s, pc,
			     "R1 must have zero offset when passed to release "
			     "func or trusted arg to kfunc");
	if (r->t != R_RBUF || r->lo || r->hi) {
		set_unknown(w, pc, "a ring buffer record argument");
		return -1;
	}
	for (k = 0; k < s->nrefs && s->refs[k] != r->id; k++)
		;
	if (k == s->nrefs) {
		set_unknown(w, pc, "a record whose reference is not held");
		return -1;
	}
	release_ref(s, r->id);
	return 0;
}

/* --- dynptr arguments, kfuncs and helpers -------------------------- */

/*
 * Dynptrs as process_dynptr_func and check_kfunc_args take them (6.18,
 * kernel/bpf/verifier.c): 16 bytes on the stack, two slots, made by
 * bpf_dynptr_from_xdp/_skb/_skb_meta, bpf_dynptr_from_mem or
 * bpf_dynptr_clone into an uninitialized argument, and read by every
 * other dynptr function from an initialized one. Ring buffer dynptrs
 * (referenced: bpf_ringbuf_reserve_dynptr) are not made here, so calls
 * meeting one stay "cannot tell".
 */

/* The two slots dynptr argument @regno points at: a stack pointer at a
 * constant offset aligned to a slot with room for both (dynptr_get_spi
 * would print other lines). NULL (unknown) for anything else. */
static struct slot *dyn_slots(struct walk *w, struct state *s, uint32_t pc,
			      int regno)
{
	const struct reg *r = &s->r[regno];

	if (r->t == R_STACK && r->exact && !r->lo && !r->hi && !(r->off % 8) &&
	    r->off >= -MAX_STACK && r->off <= -16)
		return slot_at(s, r, r->off);
	set_unknown(w, pc, "a dynptr argument this check does not follow");
	return NULL;
}

/* An initialized dynptr argument @regno, the kernel's arg #@argno
 * (is_dynptr_reg_valid_init: a first slot, and both slots a dynptr's).
 * *first gets its first slot; 0, or -1 when the path ends. */
static int dyn_arg_init(struct walk *w, struct state *s, uint32_t pc, int regno,
			int argno, struct slot **first)
{
	struct slot *sl = dyn_slots(w, s, pc, regno);

	if (!sl)
		return -1;
	if (sl[0].r.t != R_DYNPTR || sl[0].r.off || sl[1].r.t != R_DYNPTR ||
	    sl[1].r.off != 8)
		return fault(w, s, pc,
			     "Expected an initialized dynptr as arg #%d",
			     argno);
	*first = sl;
	return 0;
}

/* An uninitialized dynptr argument @regno made a dynptr of @type: the
 * kernel writes its 16 bytes first (check_mem_access, destroying any
 * unreferenced dynptr there with its slices: is_dynptr_reg_valid_uninit
 * lets one be made again over another), then marks both slots
 * (mark_stack_slots_dynptr) with a new id. */
static int dyn_make(struct walk *w, struct state *s, uint32_t pc, int regno,
		    uint8_t type)
{
	struct slot *sl = dyn_slots(w, s, pc, regno);
	uint32_t id;
	int i;

	if (!sl)
		return -1;
	for (i = 0; i < 2; i++) {
		if (sl[i].r.t != R_DYNPTR)
			continue;
		if (dyn_overwrite(w, s, pc, &sl[i]))
			return -1;
	}
	stack_used(w, s, &s->r[regno], s->r[regno].off);
	id = ++w->next_id;
	for (i = 0; i < 2; i++)
		sl[i] = (struct slot){ .r = { .t = R_DYNPTR,
					      .exact = true,
					      .off = i * 8,
					      .id = id,
					      .dyn_type = type } };
	return 0;
}

/* Arguments R@from..R@to a call reads, not initialized: "R%d !read_ok"
 * for helpers (check_reg_arg, argument by argument, so callers check
 * them in the kernel's order); kfuncs this check leaves unknown. */
static int args_set(struct walk *w, struct state *s, uint32_t pc, int from,
		    int to, bool helper)
{
	int i;

	for (i = from; i <= to; i++) {
		if (s->r[i].t != R_NONE)
			continue;
		if (helper)
			return fault(w, s, pc, "R%d !read_ok", i);
		set_unknown(w, pc, "a kfunc argument not initialized");
		return -1;
	}
	return 0;
}

/* Scalar arguments @from..@to of a kfunc (btf_type_is_scalar): anything
 * else is left unknown. */
static int kf_scalars(struct walk *w, struct state *s, uint32_t pc, int from,
		      int to)
{
	for (; from <= to; from++)
		if (s->r[from].t != R_SCALAR) {
			set_unknown(w, pc, "a kfunc's scalar argument R%d",
				    from);
			return -1;
		}
	return 0;
}

/* A maybe-NULL slice of @size bytes of dynptr @d (its dynptr_id), with
 * the dynptr type flag @type the kernel gives it, and an id of its own
 * for the NULL test. */
static struct reg slice_reg(struct walk *w, const struct slot *d, uint32_t size,
			    uint8_t type)
{
	return (struct reg){ .t = R_MEM_OR_NULL,
			     .exact = true,
			     .id = ++w->next_id,
			     .vsize = size,
			     .dyn_id = d->r.id,
			     .dyn_type = type };
}

/* bpf_dynptr_slice/_slice_rdwr(p, offset, buffer__opt, buffer__szk): the
 * buffer (NULL, or stack memory of the size: KF_ARG_PTR_TO_MEM_SIZE), a
 * size the verifier knows as a constant (__szk), and R0 a maybe-NULL
 * PTR_TO_MEM of that size, read-only for bpf_dynptr_slice, tied to the
 * dynptr (dynptr_id) and, for a packet's, to the packet. */
static int dyn_slice(struct walk *w, struct state *s, uint32_t pc,
		     const struct slot *d, bool rdwr, struct reg *r0)
{
	const struct reg *buf = &s->r[3], *n = &s->r[4];

	if (kf_scalars(w, s, pc, 2, 2))
		return -1;
	if (n->t != R_SCALAR || !n->exact || n->hi >= (1u << 29) || !n->hi) {
		set_unknown(w, pc, "a slice size this check does not bound");
		return -1;
	}
	if (!(is_const(buf) && !buf->lo)) {
		/* Out of the stack, the kernel's last line would be its
		 * "memory, len pair" one: not worded here. */
		if (buf->t != R_STACK || buf->off < -MAX_STACK ||
		    (int64_t)buf->off + (int64_t)n->hi > 0) {
			set_unknown(w, pc,
				    "a slice buffer this check does "
				    "not follow");
			return -1;
		}
		if (mem_arg(w, s, pc, 3, (int64_t)n->hi, true))
			return -1;
	}
	if (n->lo != n->hi)
		return fault(w, s, pc, "R4 must be a known constant");
	*r0 = slice_reg(w, d, (uint32_t)n->lo, d->r.dyn_type);
	r0->rdonly = !rdwr;
	return 0;
}

/* The dynptr kfuncs XDP and tc programs may call (offer_kfuncs.c); 1
 * when @k is none of them. */
static int dyn_kfunc(struct walk *w, struct state *s, uint32_t pc,
		     const struct hr_kfunc *k, struct reg *r0)
{
	struct slot *d;
	uint8_t type;

	if (k == &hr_kfunc_dynptr_from_xdp || k == &hr_kfunc_dynptr_from_skb ||
	    k == &hr_kfunc_dynptr_from_skb_meta) {
		type = k == &hr_kfunc_dynptr_from_xdp ? HR_DYNPTR_TYPE_XDP :
		       k == &hr_kfunc_dynptr_from_skb ? HR_DYNPTR_TYPE_SKB :
							HR_DYNPTR_TYPE_SKB_META;
		if (args_set(w, s, pc, 1, 3, false))
			return -1;
		if ((type == HR_DYNPTR_TYPE_XDP ? !w->xdp : !w->tc) ||
		    s->r[1].t != R_CTX || s->r[1].off) {
			set_unknown(w, pc, "%s arguments", k->name);
			return -1;
		}
		if (kf_scalars(w, s, pc, 2, 2) || dyn_make(w, s, pc, 3, type))
			return -1;
	} else if (k == &hr_kfunc_dynptr_slice ||
		   k == &hr_kfunc_dynptr_slice_rdwr) {
		if (args_set(w, s, pc, 1, 4, false) ||
		    dyn_arg_init(w, s, pc, 1, 0, &d) ||
		    dyn_slice(w, s, pc, d, k == &hr_kfunc_dynptr_slice_rdwr,
			      r0))
			return -1;
		return 0;
	} else if (k == &hr_kfunc_dynptr_size ||
		   k == &hr_kfunc_dynptr_is_null ||
		   k == &hr_kfunc_dynptr_is_rdonly) {
		if (args_set(w, s, pc, 1, 1, false) ||
		    dyn_arg_init(w, s, pc, 1, 0, &d))
			return -1;
	} else if (k == &hr_kfunc_dynptr_adjust) {
		if (args_set(w, s, pc, 1, 3, false) ||
		    dyn_arg_init(w, s, pc, 1, 0, &d) ||
		    kf_scalars(w, s, pc, 2, 3))
			return -1;
	} else if (k == &hr_kfunc_dynptr_copy || k == &hr_kfunc_dynptr_memset) {
		/* copy(dst, dst_off, src, src_off, size), memset(p, off,
		 * size, val). A write into an skb's dynptr changes the
		 * packet here too (the live 6.18 forgets packet pointers
		 * and slices after one, not after a copy out of an skb);
		 * out of skb metadata into another, not settled: those are
		 * no longer followed. */
		bool copy = k == &hr_kfunc_dynptr_copy;
		struct slot *src;

		if (args_set(w, s, pc, 1, copy ? 5 : 4, false) ||
		    dyn_arg_init(w, s, pc, 1, 0, &d) ||
		    kf_scalars(w, s, pc, 2, 2) ||
		    (copy && dyn_arg_init(w, s, pc, 3, 2, &src)) ||
		    kf_scalars(w, s, pc, copy ? 4 : 3, copy ? 5 : 4))
			return -1;
		if (skb_dyn(d->r.dyn_type))
			clear_pkt(s);
		else if (copy && src->r.dyn_type == HR_DYNPTR_TYPE_SKB_META)
			forget_pkt(s);
	} else if (k == &hr_kfunc_dynptr_clone) {
		/* The clone has its parent's type (check_kfunc_args). */
		if (args_set(w, s, pc, 1, 2, false) ||
		    dyn_arg_init(w, s, pc, 1, 0, &d))
			return -1;
		if (d->r.dyn_type == HR_DYNPTR_TYPE_RINGBUF) {
			set_unknown(w, pc, "a clone of a ring buffer dynptr");
			return -1;
		}
		if (dyn_make(w, s, pc, 2, d->r.dyn_type))
			return -1;
	} else {
		return 1;
	}
	*r0 = scalar(0, UINT64_MAX, true);
	return 0;
}

/* A size argument ARG_CONST_SIZE_OR_ZERO of a dynptr helper: its largest
 * value, or -1 (the path ends). A range the kernel may know more tightly
 * (not exact) still bounds its own from above. */
static int64_t dyn_size0(struct walk *w, struct state *s, uint32_t pc,
			 int regno)
{
	const struct reg *r = &s->r[regno];

	if (r->t != R_SCALAR || r->hi >= (1u << 29)) {
		set_unknown(w, pc,
			    "a size argument this check does not bound "
			    "exactly");
		return -1;
	}
	return (int64_t)r->hi;
}

/* A memory argument @regno of @size bytes of a dynptr helper (none of
 * these takes NULL; a size that may be only 0 is not followed), @size the size argument @sregno's largest
 * value. When the kernel may know that size more tightly, a refusal for
 * this one is only "cannot tell". */
static int dyn_mem(struct walk *w, struct state *s, uint32_t pc, int regno,
		   int sregno, int64_t size, bool write)
{
	const struct reg *r = &s->r[regno];
	bool soft = s->soft;
	int err;

	if (!size) {
		set_unknown(w, pc, "a zero-sized buffer");
		return -1;
	}
	if (r->t != R_STACK && r->t != R_VAL && r->t != R_MEM &&
	    r->t != R_RBUF) {
		set_unknown(w, pc,
			    "a dynptr helper's buffer this check does "
			    "not follow");
		return -1;
	}
	if (write && r->t == R_VAL && r->rdonly) {
		set_unknown(w, pc, "a helper writing into a read-only map");
		return -1;
	}
	if (!s->r[sregno].exact)
		s->soft = true;
	err = mem_arg(w, s, pc, regno, size, write);
	s->soft = soft;
	return err;
}

/* bpf_ringbuf_submit_dynptr/_discard_dynptr's dynptr (OBJ_RELEASE): one
 * holding a reference ("arg 1 is an unacquired reference": check_func_arg
 * looks at the slot's ref_obj_id first), then an initialized ring buffer
 * dynptr; released as unmark_stack_slots_dynptr and release_reference
 * do: its slots no longer a dynptr, bpf_dynptr_data's slices of it
 * (which carry the reference) unknown numbers. Kfunc slices of it carry
 * none; whether they stay valid is not modelled (R_OTHER). */
static int dyn_release(struct walk *w, struct state *s, uint32_t pc)
{
	struct slot *sl = dyn_slots(w, s, pc, 1), *d;
	unsigned int it = 0;
	uint32_t ref, id;
	struct reg *r;
	int k;

	if (!sl)
		return -1;
	if (sl[0].spill) {
		set_unknown(w, pc, "a spilled register released as a dynptr");
		return -1;
	}
	if (sl[0].r.t != R_DYNPTR ||
	    dyn_first(&sl[0])->r.dyn_type != HR_DYNPTR_TYPE_RINGBUF)
		return fault(w, s, pc, "arg 1 is an unacquired reference");
	if (dyn_arg_init(w, s, pc, 1, 0, &d))
		return -1;
	ref = d->r.dyn_id;
	id = d->r.id;
	for (k = 0; k < s->nrefs && s->refs[k] != ref; k++)
		;
	if (k == s->nrefs) {
		set_unknown(w, pc, "a dynptr whose reference is not held");
		return -1;
	}
	drop_ref(s, ref);
	while ((r = each_reg(s, &it)))
		if ((r->t == R_MEM || r->t == R_MEM_OR_NULL) && r->dyn_id == id)
			*r = r->dyn_type ? (struct reg){ .t = R_OTHER } :
					   scalar(0, UINT64_MAX, true);
	d[0] = (struct slot){ .r = scalar(0, UINT64_MAX, false) };
	d[1] = (struct slot){ .r = scalar(0, UINT64_MAX, false) };
	return 0;
}

/* bpf_dynptr_from_mem, _read, _write and _data as check_func_arg takes
 * their protos (kernel/bpf/helpers.c) and check_helper_call then. */
static int dyn_helper(struct walk *w, struct state *s, uint32_t pc, int id,
		      struct reg *r0)
{
	struct slot *d;
	int64_t n;

	*r0 = scalar(0, UINT64_MAX, true);
	switch (id) {
	case BPF_FUNC_dynptr_from_mem:
		/* (data, size, flags, ptr): ARG_PTR_TO_UNINIT_MEM and its
		 * size, anything, an uninitialized local dynptr; then the
		 * data must be a map value. */
		if (args_set(w, s, pc, 1, 2, true))
			return -1;
		n = dyn_size0(w, s, pc, 2);
		if (n < 0 || dyn_mem(w, s, pc, 1, 2, n, true) ||
		    args_set(w, s, pc, 3, 4, true) ||
		    dyn_make(w, s, pc, 4, HR_DYNPTR_TYPE_LOCAL))
			return -1;
		if (s->r[1].t != R_VAL)
			return fault(w, s, pc,
				     "Unsupported reg type %s for "
				     "bpf_dynptr_from_mem data",
				     reg_str(&s->r[1]));
		return 0;
	case BPF_FUNC_dynptr_read:
		/* (dst, len, src, offset, flags) */
		if (args_set(w, s, pc, 1, 2, true))
			return -1;
		n = dyn_size0(w, s, pc, 2);
		if (n < 0 || dyn_mem(w, s, pc, 1, 2, n, true) ||
		    args_set(w, s, pc, 3, 3, true) ||
		    dyn_arg_init(w, s, pc, 3, 2, &d))
			return -1;
		return args_set(w, s, pc, 4, 5, true);
	case BPF_FUNC_dynptr_write:
		/* (dst, offset, src, len, flags); a write through an skb's
		 * dynptr (data or metadata) changes the packet's data
		 * (changes_data): packet pointers and slices are forgotten. */
		if (args_set(w, s, pc, 1, 1, true) ||
		    dyn_arg_init(w, s, pc, 1, 0, &d) ||
		    args_set(w, s, pc, 2, 4, true))
			return -1;
		n = dyn_size0(w, s, pc, 4);
		if (n < 0 || dyn_mem(w, s, pc, 3, 4, n, false) ||
		    args_set(w, s, pc, 5, 5, true))
			return -1;
		if (skb_dyn(d->r.dyn_type))
			clear_pkt(s);
		return 0;
	case BPF_FUNC_ringbuf_reserve_dynptr:
		/* (map, size, flags, ptr): a ring buffer dynptr made even
		 * when the reserve fails, holding a reference from then on
		 * (mark_stack_slots_dynptr: its id first, then the
		 * reference's). */
		if (args_set(w, s, pc, 1, 1, true))
			return -1;
		if (s->r[1].t != R_MAP_PTR ||
		    s->r[1].map->attr.type != BPF_MAP_TYPE_RINGBUF) {
			set_unknown(w, pc,
				    "bpf_ringbuf_reserve_dynptr "
				    "arguments");
			return -1;
		}
		if (args_set(w, s, pc, 2, 4, true))
			return -1;
		if (s->nrefs == MAX_REFS) {
			set_unknown(w, pc, "too many references");
			return -1;
		}
		if (dyn_make(w, s, pc, 4, HR_DYNPTR_TYPE_RINGBUF))
			return -1;
		d = slot_at(s, &s->r[4], s->r[4].off);
		d[0].r.dyn_id = d[1].r.dyn_id = ++w->next_id;
		s->refs[s->nrefs] = d[0].r.dyn_id;
		s->ref_insn[s->nrefs++] = pc;
		return 0;
	case BPF_FUNC_ringbuf_submit_dynptr:
	case BPF_FUNC_ringbuf_discard_dynptr:
		*r0 = (struct reg){ .t = R_NONE };
		return args_set(w, s, pc, 1, 1, true) ?:
			       dyn_release(w, s, pc)  ?:
			       args_set(w, s, pc, 2, 2, true);
	case BPF_FUNC_dynptr_data: {
		/* (ptr, offset, len): len ARG_CONST_ALLOC_SIZE_OR_ZERO, and
		 * R0 maybe-NULL memory of len bytes tied to the dynptr
		 * (no packet type flag: RET_PTR_TO_DYNPTR_MEM_OR_NULL). */
		const struct reg *len = &s->r[3];

		if (args_set(w, s, pc, 1, 1, true) ||
		    dyn_arg_init(w, s, pc, 1, 0, &d) ||
		    args_set(w, s, pc, 2, 3, true))
			return -1;
		if (len->t != R_SCALAR || !len->exact ||
		    len->hi >= (1u << 29)) {
			set_unknown(w, pc,
				    "a size argument this check does "
				    "not bound exactly");
			return -1;
		}
		if (len->lo != len->hi)
			return fault(w, s, pc, "R3 is not a known constant'");
		*r0 = slice_reg(w, d, (uint32_t)len->lo, 0);
		return 0;
	}
	}
	set_unknown(w, pc, "helper %s#%d is not modelled here", helper_name(id),
		    id);
	return -1;
}

/* bpf_spin_lock/_unlock's argument as process_spin_lock takes it: a map
 * value at a constant offset that is its bpf_spin_lock. 0 when it is,
 * -1 (unknown) when this model cannot place it. */
static int lock_arg(struct walk *w, struct state *s, uint32_t pc)
{
	const struct reg *r = &s->r[1];
	const struct hr_map_fields *f;

	if (r->t == R_NONE)
		return fault(w, s, pc, "R1 !read_ok");
	if (r->t != R_VAL || !r->exact || r->lo || r->hi || !r->map) {
		set_unknown(w, pc, "a bpf_spin_lock argument");
		return -1;
	}
	f = map_fields(w, r->map);
	if (f->unsure || f->lock_off < 0 || f->lock_off != r->off) {
		set_unknown(w, pc, "a bpf_spin_lock argument");
		return -1;
	}
	return 0;
}

/* bpf_spin_lock and bpf_spin_unlock: one lock taken at a time (a second
 * call is refused before, as any call while it is held), and an unlock
 * with none held refused. Both return void. */
static int spin_lock_call(struct walk *w, struct state *s, uint32_t pc,
			  bool lock)
{
	const struct reg *r = &s->r[1];

	if (lock_arg(w, s, pc))
		return -1;
	if (lock) {
		s->locked = true;
		s->lock_id = r->id;
		s->lock_map = r->map;
		return 0;
	}
	if (!s->locked)
		return fault(w, s, pc, "bpf_spin_unlock without taking a lock");
	if (s->lock_id != r->id || s->lock_map != r->map) {
		set_unknown(w, pc, "bpf_spin_unlock of another lock");
		return -1;
	}
	s->locked = false;
	return 0;
}

/* do_check refuses every call but bpf_spin_unlock while a lock is held,
 * before it looks at the call itself; kfuncs the kernel lets through
 * there (the graph API) and bpf-to-bpf calls (enter_func) are not
 * followed. */
static int call_while_locked(struct walk *w, struct state *s, uint32_t pc,
			     const struct hr_insn *in)
{
	if (!s->locked)
		return 0;
	if (in->src == 0 && in->imm == BPF_FUNC_spin_unlock)
		return 0;
	if (in->src != 0 || in->imm == BPF_FUNC_kptr_xchg) {
		set_unknown(w, pc, "a call while a bpf_spin_lock is held");
		return -1;
	}
	return fault(w, s, pc,
		     "function calls are not allowed while holding a lock");
}

static int callback_call(struct walk *w, struct state *s, uint32_t pc, int id);
static int timer_call(struct walk *w, struct state *s, uint32_t pc, int id);

/*
 * bpf_throw: with the default exception callback the path ends there, as
 * at an exit (do_check's process_bpf_exit_full with exception_exit), and
 * no return value is checked. What is held at that point is checked with
 * words this check does not model, and whether a callback throws is
 * checked after the walk (throw_in_callback_refused).
 */
static int throw_call(struct walk *w, struct state *s, uint32_t pc)
{
	if (s->r[1].t != R_SCALAR) {
		set_unknown(w, pc, "bpf_throw's cookie");
		return -1;
	}
	if (s->nrefs || s->rcu || s->preempt || s->locked) {
		set_unknown(w, pc,
			    "bpf_throw with a reference, lock or "
			    "section held");
		return -1;
	}
	return -1;
}

/* check_resource_leak(env, false, true, @what) past the spin lock, which
 * each caller meets first in words of its own: a reference held, then an
 * RCU or preemption section open; -1 when one is. */
static int held_at(struct walk *w, struct state *s, uint32_t pc,
		   const char *what)
{
	if (s->nrefs)
		return fault(w, s, pc,
			     "Unreleased reference id=%u alloc_insn=%u",
			     s->refs[0], s->ref_insn[0]);
	if (s->rcu || s->preempt)
		return fault(
			w, s, pc, "%s cannot be used inside %s-ed region", what,
			s->rcu ? "bpf_rcu_read_lock" : "bpf_preempt_disable");
	return 0;
}

/* Whether @fn is one of the loads BPF_LD_[ABS|IND] became (ld_abs.c). */
static bool is_ld_abs(const struct walk *w, hr_helper_fn fn)
{
	const hr_helper_fn *ld = w->prog->type->ld_abs;

	return fn && ld && (fn == ld[0] || fn == ld[1] || fn == ld[2]);
}

/*
 * A BPF_LD_[ABS|IND], which the loader expanded into "r2 = offset; r1 =
 * r6; call; if r0 s>= 0 goto +2; w0 = 0; exit": check_ld_abs's rules at
 * the call, where r1 is the r6 the kernel looks at (an r6 never written
 * already failed at the copy), then on past the sequence's own exit,
 * which the kernel adds only once it has verified the program.
 */
static int ld_abs_call(struct walk *w, struct state *s, uint32_t pc)
{
	const struct reg *ctx = &s->r[1];
	int i;

	/* check_resource_leak(env, false, true, "BPF_LD_[ABS|IND]"). */
	if (s->locked)
		return fault(w, s, pc,
			     "BPF_LD_[ABS|IND] cannot be used inside "
			     "bpf_spin_lock-ed region");
	if (held_at(w, s, pc, "BPF_LD_[ABS|IND]"))
		return -1;
	if (ctx->t != R_CTX)
		return fault(w, s, pc,
			     "at the time of BPF_LD_ABS|IND R6 != pointer to "
			     "skb");
	if (ctx->off)
		return fault(w, s, pc,
			     "dereference of modified ctx ptr R6 off=%d "
			     "disallowed",
			     ctx->off);
	for (i = 1; i <= 5; i++)
		s->r[i] = (struct reg){ .t = R_NONE };
	s->r[0] = scalar(0, UINT64_MAX, true);
	if (pc + 3 >= w->cnt) {
		set_unknown(w, pc, "a BPF_LD_[ABS|IND] not as expanded");
		return -1;
	}
	s->pc = pc + 3; /* the walk goes on after the sequence's exit */
	return 0;
}

/* A helper or kfunc call; 0 to go on, -1 when the path ends. */
static int call(struct walk *w, struct state *s, uint32_t pc,
		const struct hr_insn *in)
{
	struct reg r0 = scalar(0, UINT64_MAX, false);
	int id = in->imm, i;
	int64_t n;

	/* Not a call to the kernel: no kfunc's rules apply. */
	if (in->src == HR_CALL_KFUNC && w->prog->calls &&
	    is_ld_abs(w, w->prog->calls[pc]))
		return ld_abs_call(w, s, pc);
	if (call_while_locked(w, s, pc, in))
		return -1;
	if (in->src == HR_CALL_KFUNC) {
		hr_helper_fn fn = w->prog->calls ? w->prog->calls[pc] : NULL;
		const struct hr_kfunc *k =
			w->prog->kfuncs ? w->prog->kfuncs[pc] : NULL;

		/* libbpf poisons a relocation it could not resolve with a
		 * call of an unknown helper, which the verifier refuses when
		 * reached; libbpf then writes this line in its place. */
		if (fn == hr_core_poison_fn)
			return fault(w, s, pc,
				     "failed to resolve CO-RE relocation %s",
				     hr_core_poison_desc((uint32_t)in->imm));
		/* add_kfunc_call refuses every kfunc to other licenses. */
		if (!license_gpl(w)) {
			set_unknown(w, pc, "a kfunc, and the license");
			return -1;
		}
		if (k == &hr_kfunc_throw)
			return throw_call(w, s, pc);
		if (k) {
			int ret = section_kfunc(w, s, pc, k);

			if (ret <= 0)
				return ret;
			ret = dyn_kfunc(w, s, pc, k, &r0);
			if (ret < 0)
				return ret;
			if (!ret)
				goto done;
		}
		if (k == &hr_kfunc_xdp_pull_data) {
			/* (ctx, u32 len): a packet-changing kfunc
			 * (is_kfunc_pkt_changing), every packet pointer
			 * and slice invalid after it. */
			if (s->r[1].t != R_CTX || s->r[1].off ||
			    s->r[2].t != R_SCALAR) {
				set_unknown(w, pc,
					    "bpf_xdp_pull_data's arguments");
				return -1;
			}
			clear_pkt(s);
			/* An int the kernel knows nothing of, as here. */
			r0 = scalar(0, UINT64_MAX, true);
			goto done;
		}
		if (!is_hint_kfunc(fn)) {
			set_unknown(w, pc,
				    "a kfunc call this check does not "
				    "model");
			return -1;
		}
		if (!w->dev_bound) {
			/* The kernel says so before walking any path. */
			return fault(w, s, pc,
				     "metadata kfuncs require "
				     "device-bound program");
		}
		if (s->r[1].t != R_CTX || s->r[1].off) {
			set_unknown(w, pc, "hint kfunc context argument");
			return -1;
		}
		for (i = 2; i <= 3; i++) {
			if (fn == hr_kfunc_xdp_metadata_rx_timestamp.fn &&
			    i == 3)
				break;
			if (s->r[i].t != R_STACK ||
			    mem_arg(w, s, pc, i,
				    i == 2 && fn == hr_kfunc_xdp_metadata_rx_timestamp
								    .fn ?
					    8 :
					    (fn == hr_kfunc_xdp_metadata_rx_vlan_tag
								     .fn ?
						     2 :
						     4),
				    true)) {
				set_unknown(w, pc, "hint kfunc argument");
				return -1;
			}
		}
		r0 = scalar(0, UINT64_MAX, false);
		goto done;
	}
	if (id <= 0 || id >= FUNC_MAX_ID)
		return fault(w, s, pc, "invalid func unknown#%d", id);
	if ((w->xdp || w->tc) && hr_check_helper_wrong_type(w->xdp, id))
		return fault(w, s, pc,
			     "program of this type cannot use helper %s#%d",
			     helper_name(id), id);
	switch (id) {
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem: {
		const struct hr_map *m;

		if (arg_map(w, s, pc, id))
			return -1;
		m = s->r[1].map;
		/* check_map_func_compatibility: a cpumap takes only
		 * bpf_redirect_map from a program. */
		if (m->attr.type == BPF_MAP_TYPE_CPUMAP)
			return fault(w, s, pc,
				     "cannot pass map_type %u into func %s#%d",
				     m->attr.type, helper_name(id), id);
		/* A devmap's values are read-only to programs
		 * (BPF_F_RDONLY_PROG): its update is a write. */
		if ((m->attr.type == BPF_MAP_TYPE_DEVMAP ||
		     m->attr.type == BPF_MAP_TYPE_DEVMAP_HASH) &&
		    id == BPF_FUNC_map_update_elem)
			return fault(w, s, pc, "write into map forbidden");
		if (m->attr.type == BPF_MAP_TYPE_RINGBUF ||
		    m->attr.type == BPF_MAP_TYPE_PERF_EVENT_ARRAY ||
		    (map_of_maps(m) && (id != BPF_FUNC_map_lookup_elem ||
					!inner_stand_in(w, m))) ||
		    ((m->attr.type == BPF_MAP_TYPE_DEVMAP ||
		      m->attr.type == BPF_MAP_TYPE_DEVMAP_HASH) &&
		     id != BPF_FUNC_map_lookup_elem) ||
		    (m->attr.type == BPF_MAP_TYPE_XSKMAP &&
		     id != BPF_FUNC_map_lookup_elem) ||
		    m->attr.type == BPF_MAP_TYPE_QUEUE ||
		    m->attr.type == BPF_MAP_TYPE_STACK) {
			set_unknown(w, pc, "%s on this map type",
				    helper_name(id));
			return -1;
		}
		if (mem_arg(w, s, pc, 2, m->attr.key_size, false))
			return -1;
		if (id == BPF_FUNC_map_update_elem &&
		    (mem_arg(w, s, pc, 3, m->attr.value_size, false) ||
		     s->r[4].t != R_SCALAR)) {
			if (s->r[4].t == R_NONE)
				return fault(w, s, pc, "R4 !read_ok");
			if (!w->unknown && !w->rejected)
				set_unknown(w, pc, "map update flags");
			return -1;
		}
		/* check_map_func_compatibility, after the arguments: a
		 * program array is for bpf_tail_call only. */
		if (m->attr.type == BPF_MAP_TYPE_PROG_ARRAY)
			return fault(w, s, pc,
				     "cannot pass map_type %u into func %s#%d",
				     m->attr.type, helper_name(id), id);
		if (id == BPF_FUNC_map_lookup_elem) {
			bool arr = m->attr.type == BPF_MAP_TYPE_ARRAY ||
				   m->attr.type == BPF_MAP_TYPE_PERCPU_ARRAY;

			bool dev = m->attr.type == BPF_MAP_TYPE_DEVMAP ||
				   m->attr.type == BPF_MAP_TYPE_DEVMAP_HASH;

			r0 = (struct reg){ .t = R_VAL_OR_NULL,
					   .exact = true,
					   .maybe_nonnull = arr,
					   .id = ++w->next_id,
					   .map = m,
					   .vsize = m->attr.value_size,
					   .rdonly = dev ||
						     hr_map_prog_rdonly(m) };
			/* The inner map's template stands for whichever
			 * map the slot holds (inner_map_meta). */
			if (map_of_maps(m))
				r0 = (struct reg){ .t = R_MAP_PTR_OR_NULL,
						   .exact = true,
						   .id = r0.id,
						   .map = inner_stand_in(w,
									 m) };
			if (m->attr.type == BPF_MAP_TYPE_XSKMAP)
				r0 = (struct reg){ .t = R_XSK_OR_NULL,
						   .exact = true,
						   .id = r0.id };
		} else {
			r0 = scalar(0, UINT64_MAX, false);
		}
		break;
	}
	case BPF_FUNC_redirect_map: {
		uint32_t t;

		if (arg_map(w, s, pc, id))
			return -1;
		t = s->r[1].map->attr.type;
		if (t != BPF_MAP_TYPE_DEVMAP && t != BPF_MAP_TYPE_DEVMAP_HASH &&
		    t != BPF_MAP_TYPE_CPUMAP && t != BPF_MAP_TYPE_XSKMAP)
			return fault(w, s, pc,
				     "cannot pass map_type %u into func %s#%d",
				     t, helper_name(id), id);
		if (s->r[2].t != R_SCALAR || s->r[3].t != R_SCALAR) {
			set_unknown(w, pc, "redirect_map arguments");
			return -1;
		}
		break;
	}
	case BPF_FUNC_xdp_load_bytes:
	case BPF_FUNC_xdp_store_bytes:
	case BPF_FUNC_skb_load_bytes:
	case BPF_FUNC_skb_load_bytes_relative:
		/* _relative: the same, and the header to start from. */
		if (s->r[1].t != R_CTX || s->r[1].off ||
		    s->r[2].t != R_SCALAR ||
		    (id == BPF_FUNC_skb_load_bytes_relative &&
		     s->r[5].t != R_SCALAR)) {
			set_unknown(w, pc, "%s arguments", helper_name(id));
			return -1;
		}
		n = size_arg(w, s, pc, 4);
		if (n < 0 || mem_arg(w, s, pc, 3, n ? n : 1,
				     id != BPF_FUNC_xdp_store_bytes))
			return -1;
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_skb_get_tunnel_key:
	case BPF_FUNC_skb_set_tunnel_key:
	case BPF_FUNC_skb_get_tunnel_opt:
	case BPF_FUNC_skb_set_tunnel_opt:
		/* The context, memory of a constant non-zero size (the gets
		 * write it: ARG_PTR_TO_UNINIT_MEM), flags for the keys. The
		 * packet is not modelled: these protos lack pkt_access. */
		if (s->r[1].t != R_CTX || s->r[1].off ||
		    (s->r[2].t != R_STACK && s->r[2].t != R_VAL) ||
		    ((id == BPF_FUNC_skb_get_tunnel_key ||
		      id == BPF_FUNC_skb_set_tunnel_key) &&
		     s->r[4].t != R_SCALAR)) {
			set_unknown(w, pc, "%s arguments", helper_name(id));
			return -1;
		}
		n = size_arg(w, s, pc, 3);
		if (n == 0)
			set_unknown(w, pc, "%s of zero bytes", helper_name(id));
		if (n <= 0 ||
		    mem_arg(w, s, pc, 2, n,
			    id == BPF_FUNC_skb_get_tunnel_key ||
				    id == BPF_FUNC_skb_get_tunnel_opt))
			return -1;
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_csum_level:
	case BPF_FUNC_csum_update:
	case BPF_FUNC_skb_change_type:
	case BPF_FUNC_xdp_adjust_head:
	case BPF_FUNC_xdp_adjust_meta:
	case BPF_FUNC_xdp_adjust_tail:
		if (proto_ctx(w, s, pc, 1))
			return -1;
		if (s->r[2].t != R_SCALAR) {
			set_unknown(w, pc, "%s arguments", helper_name(id));
			return -1;
		}
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_ktime_get_boot_ns:
	case BPF_FUNC_ktime_get_coarse_ns:
	case BPF_FUNC_ktime_get_tai_ns:
	case BPF_FUNC_jiffies64:
	case BPF_FUNC_get_prandom_u32:
	case BPF_FUNC_get_current_pid_tgid:
	case BPF_FUNC_get_current_uid_gid:
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_get_current_comm:
		/* ARG_PTR_TO_UNINIT_MEM and its ARG_CONST_SIZE. */
		n = size_arg(w, s, pc, 2);
		if (n < 0 || mem_arg(w, s, pc, 1, n ? n : 1, true))
			return -1;
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_get_ns_current_pid_tgid:
		/* dev, ino, then ARG_PTR_TO_UNINIT_MEM and its size. */
		if (s->r[1].t != R_SCALAR || s->r[2].t != R_SCALAR) {
			set_unknown(w, pc, "%s arguments", helper_name(id));
			return -1;
		}
		n = size_arg(w, s, pc, 4);
		if (n < 0 || mem_arg(w, s, pc, 3, n ? n : 1, true))
			return -1;
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_get_smp_processor_id:
		break;
	case BPF_FUNC_tail_call:
		/* check_resource_leak once the arguments pass; when the
		 * call falls through, it returned void (R0 unset) and left
		 * packet pointers valid (6.18, confirmed on the kernel). A
		 * tail call from a subprogram has stack limits of its own
		 * (check_max_stack_depth), not followed here. */
		if (s->curframe) {
			set_unknown(w, pc, "a tail call from a subprogram");
			return -1;
		}
		if (s->r[1].t != R_CTX || s->r[1].off ||
		    s->r[2].t != R_MAP_PTR ||
		    s->r[2].map->attr.type != BPF_MAP_TYPE_PROG_ARRAY ||
		    s->r[3].t != R_SCALAR) {
			set_unknown(w, pc, "%s arguments", helper_name(id));
			return -1;
		}
		if (held_at(w, s, pc, "tail_call"))
			return -1;
		r0 = (struct reg){ .t = R_NONE };
		break;
	case BPF_FUNC_loop:
	case BPF_FUNC_for_each_map_elem:
	case BPF_FUNC_timer_init:
	case BPF_FUNC_timer_set_callback:
	case BPF_FUNC_timer_start:
	case BPF_FUNC_timer_cancel:
		if (id == BPF_FUNC_loop || id == BPF_FUNC_for_each_map_elem ?
			    callback_call(w, s, pc, id) :
			    timer_call(w, s, pc, id))
			return -1;
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_spin_lock:
	case BPF_FUNC_spin_unlock:
		if (spin_lock_call(w, s, pc, id == BPF_FUNC_spin_lock))
			return -1;
		r0 = (struct reg){ .t = R_NONE };
		break;
	case BPF_FUNC_dynptr_from_mem:
	case BPF_FUNC_dynptr_read:
	case BPF_FUNC_dynptr_write:
	case BPF_FUNC_dynptr_data:
	case BPF_FUNC_ringbuf_reserve_dynptr:
	case BPF_FUNC_ringbuf_submit_dynptr:
	case BPF_FUNC_ringbuf_discard_dynptr:
		if (dyn_helper(w, s, pc, id, &r0))
			return -1;
		break;
	case BPF_FUNC_ringbuf_reserve:
		if (ringbuf_reserve(w, s, pc, &r0))
			return -1;
		break;
	case BPF_FUNC_ringbuf_submit:
	case BPF_FUNC_ringbuf_discard:
		if (ringbuf_release(w, s, pc))
			return -1;
		r0 = (struct reg){ .t = R_NONE };
		break;
	case BPF_FUNC_redirect:
		if (s->r[1].t != R_SCALAR || s->r[2].t != R_SCALAR) {
			set_unknown(w, pc, "redirect arguments");
			return -1;
		}
		break;
	case BPF_FUNC_sk_lookup_tcp:
	case BPF_FUNC_sk_lookup_udp:
	case BPF_FUNC_skc_lookup_tcp:
		if (s->r[1].t != R_CTX || s->r[1].off ||
		    s->r[4].t != R_SCALAR || s->r[5].t != R_SCALAR) {
			set_unknown(w, pc, "socket lookup arguments");
			return -1;
		}
		n = size_arg(w, s, pc, 3);
		if (n < 0 || mem_arg(w, s, pc, 2, n ? n : 1, false))
			return -1;
		r0 = (struct reg){ .t = R_SOCK_OR_NULL, .exact = true };
		if (acquire_ref(w, s, pc, &r0))
			return -1;
		break;
	case BPF_FUNC_sk_release: {
		struct reg *r = &s->r[1];
		int k;

		if (r->t != R_SOCK) {
			if (r->t == R_SOCK_OR_NULL || r->t == R_SCALAR)
				return fault(w, s, pc,
					     "R1 type=%s expected=sock_common, "
					     "sock, tcp_sock, xdp_sock, ptr_, "
					     "trusted_ptr_",
					     reg_str(r));
			set_unknown(w, pc, "sk_release argument");
			return -1;
		}
		for (k = 0; k < s->nrefs && s->refs[k] != r->id; k++)
			;
		if (k == s->nrefs) {
			set_unknown(w, pc,
				    "sk_release of a reference not held");
			return -1;
		}
		release_ref(s, r->id);
		break;
	}
	default: {
		const struct hr_proto *p = hr_proto_find(id);

		if (!p) {
			set_unknown(w, pc, "helper %s#%d is not modelled here",
				    helper_name(id), id);
			return -1;
		}
		if (proto_call(w, s, pc, p, &r0))
			return -1;
		if (id == BPF_FUNC_snprintf && snprintf_fmt(w, s, pc))
			return -1;
		break;
	}
	}
	if (changes_pkt(id))
		clear_pkt(s);
done:
	for (i = 1; i <= 5; i++)
		s->r[i] = (struct reg){ .t = R_NONE };
	s->r[0] = r0;
	return 0;
}

/* --- the walk -------------------------------------------------------- */

static int push(struct walk *w, const struct state *s)
{
	if (w->npend == MAX_PENDING) {
		set_unknown(w, s->pc, "too many branches pending");
		return -1;
	}
	memcpy(&w->pend[w->npend++], s, state_size(s));
	return 0;
}

/* The NULL test of a lookup or socket result: "r == 0" / "r != 0". */
/* One register or spill after the NULL test of @id: 0 where it was NULL,
 * its not-NULL type where it was not. */
static void null_mark(struct reg *r, uint32_t id, bool isnull)
{
	if (!nonnull_type(r->t) || r->id != id)
		return;
	if (isnull)
		*r = konst(0);
	else if (nonnull_type(r->t) == R_OTHER)
		*r = (struct reg){ .t = R_OTHER };
	else
		r->t = nonnull_type(r->t);
}

static int null_test(struct walk *w, struct state *fall, struct state *jump,
		     const struct hr_insn *in, int op, int *known)
{
	struct reg *d = &fall->r[in->dst], *r;
	uint32_t id = d->id;
	unsigned int it;
	struct state *isnull, *notnull;

	*known = -1;
	if (!nonnull_type(d->t) || HR_SRC(in->code) != HR_K || in->imm != 0 ||
	    (op != HR_JEQ && op != HR_JNE))
		return 1;
	isnull = op == HR_JEQ ? jump : fall;
	notnull = op == HR_JEQ ? fall : jump;
	for (it = 0; (r = each_reg(isnull, &it));)
		null_mark(r, id, true);
	for (it = 0; (r = each_reg(notnull, &it));)
		null_mark(r, id, false);
	/* A NULL socket or record holds no reference. */
	drop_ref(isnull, id);
	return 0;
}

/* Whether @r is a packet, metadata or packet end pointer. */
static bool pkt_family(const struct reg *r)
{
	return r->t == R_PKT || r->t == R_META || r->t == R_PKT_END;
}

/* @r with the signed bounds [@smin, @smax] the kernel narrowed it to,
 * its unsigned ones deduced as reg_bounds_sync deduces them: the same
 * when they do not straddle 0, else any. */
static void set_srange(struct reg *r, int64_t smin, int64_t smax)
{
	uint32_t id = r->id;

	if (smin >= 0 || smax < 0) {
		*r = scalar((uint64_t)smin, (uint64_t)smax, true);
	} else {
		*r = scalar(0, UINT64_MAX, true);
		r->sgn = true;
		r->smin = smin;
		r->smax = smax;
	}
	r->id = id;
}

/* Forget the signed bounds of @r and its copies: what the kernel learns
 * from this jump is not followed. */
static void drop_srange(struct state *s, struct reg *r)
{
	unsigned int it = 0;
	struct reg *c;

	if (r->id)
		while ((c = each_reg(s, &it)))
			if (c != r && c->t == R_SCALAR && c->id == r->id)
				*c = scalar(0, UINT64_MAX, false);
	*r = scalar(0, UINT64_MAX, false);
}

/* An unsigned compare of a register with signed bounds (its unsigned
 * ones any) against constant @k: on the way it is at most a constant
 * below 2^63, the kernel's bounds sync gives [0, min(that, smax)]; the
 * other way is not followed (soft). 0 when not this case. */
static int unsigned_bound(struct state *fall, struct state *jump, int op,
			  uint64_t k, const struct hr_insn *in)
{
	bool le_jump = op == HR_JLE || op == HR_JLT;
	struct state *le = le_jump ? jump : fall, *gt = le_jump ? fall : jump;
	struct reg *r = &le->r[in->dst];
	uint64_t max;

	if (op != HR_JGT && op != HR_JGE && op != HR_JLT && op != HR_JLE)
		return 0;
	if ((op == HR_JGE || op == HR_JLT) && !k)
		return 0;
	max = op == HR_JGE || op == HR_JLT ? k - 1 : k;
	if (max > INT64_MAX || r->smax < 0)
		return 0;
	set_srange(r, 0, (int64_t)max < r->smax ? (int64_t)max : r->smax);
	sync_copies(le, r);
	drop_srange(gt, &gt->r[in->dst]);
	gt->soft = true;
	return 1;
}

/* @r in @s, and its copies, as a 32-bit compare leaves a number the
 * kernel knew nothing of: some low half, any high half, so no signed
 * lower bound (its tnum's sign bit unknown); the range kept loose. */
static void low_half_known(struct state *s, struct reg *r)
{
	unsigned int it = 0;
	uint32_t id = r->id;
	struct reg *c;

	*r = scalar(0, UINT64_MAX, false);
	r->smin_unb = true;
	r->id = id;
	if (id)
		while ((c = each_reg(s, &it)))
			if (c != r && c->t == R_SCALAR && c->id == id)
				*c = *r;
}

/* A 32-bit unsigned compare of a number the kernel knows nothing of with
 * a constant that decides neither way: the kernel walks both and bounds
 * the low half only. 1 when this case (both ways set). */
static int low_half_cond(struct state *fall, struct state *jump,
			 const struct hr_insn *in, const struct reg *src)
{
	struct reg *d = &fall->r[in->dst];
	int op = HR_OP(in->code);

	if (d->t != R_SCALAR || !d->exact || d->lossy || d->sgn || d->lo ||
	    d->hi != UINT64_MAX || !is_const(src) || !src->lo ||
	    src->lo >= UINT32_MAX ||
	    (op != HR_JGT && op != HR_JGE && op != HR_JLT && op != HR_JLE))
		return 0;
	low_half_known(fall, d);
	low_half_known(jump, &jump->r[in->dst]);
	return 1;
}

/* A 64-bit signed compare of the register in @in with its signed bounds
 * (@fall: both states on entry, @jump the target's) against a constant:
 * each way narrows them as reg_set_min_max does, and a way they rule
 * out is not taken (is_branch_taken). Anything else on such a register
 * is not followed: the path goes soft. Returns the known outcome or -1. */
static int signed_cond(struct state *fall, struct state *jump,
		       const struct hr_insn *in, const struct reg *src)
{
	struct reg *d = &fall->r[in->dst], *dj = &jump->r[in->dst];
	int op = HR_OP(in->code);
	int64_t k = (int64_t)src->lo, tmin, tmax, fmin, fmax;

	if (HR_CLASS(in->code) == HR_JMP && d->sgn && is_const(src) &&
	    unsigned_bound(fall, jump, op, src->lo, in))
		return -1;
	if (HR_CLASS(in->code) != HR_JMP || !d->sgn || !is_const(src) ||
	    (op != HR_JSGT && op != HR_JSGE && op != HR_JSLT &&
	     op != HR_JSLE) ||
	    k == INT64_MIN || k == INT64_MAX) {
		drop_srange(fall, d);
		drop_srange(jump, dj);
		if (HR_SRC(in->code) == HR_X) {
			drop_srange(fall, &fall->r[in->src]);
			drop_srange(jump, &jump->r[in->src]);
		}
		fall->soft = true;
		jump->soft = true;
		return -1;
	}
	tmin = fmin = d->smin;
	tmax = fmax = d->smax;
	if (op == HR_JSGT || op == HR_JSGE) {
		tmin = op == HR_JSGT ? k + 1 : k;
		fmax = op == HR_JSGT ? k : k - 1;
		tmin = tmin > d->smin ? tmin : d->smin;
		fmax = fmax < d->smax ? fmax : d->smax;
	} else {
		tmax = op == HR_JSLT ? k - 1 : k;
		fmin = op == HR_JSLT ? k : k + 1;
		tmax = tmax < d->smax ? tmax : d->smax;
		fmin = fmin > d->smin ? fmin : d->smin;
	}
	if (tmin > tmax)
		return 0;
	if (fmin > fmax)
		return 1;
	set_srange(d, fmin, fmax);
	sync_copies(fall, d);
	set_srange(dj, tmin, tmax);
	sync_copies(jump, dj);
	return -1;
}

/* A conditional jump: fills *jump and returns which way(s) to go: bit 0
 * fall-through, bit 1 the target. */
static int cond(struct walk *w, struct state *s, struct state *jump,
		uint32_t pc, const struct hr_insn *in)
{
	int op = HR_OP(in->code), known = -1;
	bool is32 = HR_CLASS(in->code) == HR_JMP32;
	struct reg *d = &s->r[in->dst], src;

	if (d->t == R_NONE) {
		fault(w, s, pc, "R%d !read_ok", in->dst);
		return 0;
	}
	if (HR_SRC(in->code) == HR_X) {
		if (s->r[in->src].t == R_NONE) {
			fault(w, s, pc, "R%d !read_ok", in->src);
			return 0;
		}
		src = s->r[in->src];
	} else {
		src = konst(is32 ? (uint64_t)(uint32_t)in->imm :
				   (uint64_t)(int64_t)in->imm);
	}
	memcpy(jump, s, state_size(s));
	if (!is32 && HR_SRC(in->code) == HR_X &&
	    !pkt_cmp(s, jump, op, in->dst, in->src, &known))
		goto out;
	if (!is32 && !null_test(w, s, jump, in, op, &known))
		goto out;
	if (d->t == R_SCALAR && src.t == R_SCALAR && (d->sgn || src.sgn)) {
		known = signed_cond(s, jump, in, &src);
		goto out;
	}
	if (is32 && low_half_cond(s, jump, in, &src))
		goto out;
	if (d->t == R_SCALAR && src.t == R_SCALAR) {
		bool ex = d->exact && src.exact && !d->lossy && !src.lossy;
		bool signed_op = op == HR_JSGT || op == HR_JSGE ||
				 op == HR_JSLT || op == HR_JSLE;

		if (signed_op) {
			/* Both non-negative: the same as unsigned. */
			if (d->hi <= INT64_MAX && src.hi <= INT64_MAX &&
			    (!is32 ||
			     (d->hi <= INT32_MAX && src.hi <= INT32_MAX))) {
				op = op == HR_JSGT ? HR_JGT :
				     op == HR_JSGE ? HR_JGE :
				     op == HR_JSLT ? HR_JLT :
						     HR_JLE;
				signed_op = false;
			}
		}
		if (signed_op || op == HR_JSET) {
			if (op == HR_JSET && is_const(d) && is_const(&src))
				known = (d->lo & src.lo) != 0;
			else
				ex = false;
		} else if (!is32 ||
			   (d->hi <= UINT32_MAX && src.hi <= UINT32_MAX)) {
			known = ucmp(op, d->lo, d->hi, src.lo, src.hi);
			if (known < 0 && is_const(&src)) {
				narrow(&s->r[in->dst], op, src.lo, false);
				sync_copies(s, &s->r[in->dst]);
				narrow(&jump->r[in->dst], op, src.lo, true);
				sync_copies(jump, &jump->r[in->dst]);
			} else if (known < 0 && is_const(d) &&
				   HR_SRC(in->code) == HR_X) {
				/* k op r: narrow r by the mirrored op. */
				int m = op == HR_JGT ? HR_JLT :
					op == HR_JLT ? HR_JGT :
					op == HR_JGE ? HR_JLE :
					op == HR_JLE ? HR_JGE :
						       op;

				narrow(&s->r[in->src], m, d->lo, false);
				sync_copies(s, &s->r[in->src]);
				narrow(&jump->r[in->src], m, d->lo, true);
				sync_copies(jump, &jump->r[in->src]);
			} else if (known < 0) {
				/* Two ranges: the kernel narrows both. */
				ex = false;
			}
		} else {
			ex = false;
		}
		if (!ex && known < 0) {
			s->soft = true;
			jump->soft = true;
		}
		goto out;
	}
	/* A 32-bit compare of two packet pointers: the kernel matches
	 * packet pointers on 64-bit jumps only (try_match_pkt_pointers)
	 * and decides no branch between pointers, so both are walked and
	 * nothing is learnt. */
	if (is32 && pkt_family(d) && pkt_family(&src))
		goto out;
	/* Pointer against number or pointer: null tests done above. */
	if (is_ptr(d) && src.t == R_SCALAR && is_const(&src) && !src.lo &&
	    d->t != R_OTHER && (op == HR_JEQ || op == HR_JNE) &&
	    !nonnull_type(d->t)) {
		known = op == HR_JNE;
		goto out;
	}
	s->soft = true;
	jump->soft = true;
out:
	jump->pc = (uint32_t)((int64_t)pc + 1 + in->off);
	if (known == 1)
		return 2;
	if (known == 0)
		return 1;
	return 3;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0x100000001b3ull;
}

static uint64_t reg_hash(uint64_t h, const struct reg *r)
{
	h = mix(h, r->t | (uint64_t)r->exact << 8 |
			   (uint64_t)r->maybe_nonnull << 9 |
			   (uint64_t)r->lossy << 10 |
			   (uint64_t)r->rdonly << 11);
	h = mix(h, (uint32_t)r->off | (uint64_t)(uint32_t)r->range << 32);
	h = mix(h, r->frameno | (uint64_t)r->dyn_type << 8);
	/* Scalar copy ids are fresh each time round: left out. */
	h = mix(h, r->t == R_SCALAR ? 0 : r->id);
	h = mix(h, r->lo);
	h = mix(h, r->hi);
	h = mix(h, r->sgn ? (uint64_t)r->smin ^ (uint64_t)r->smax << 1 : 0);
	h = mix(h, r->smin_unb);
	return mix(h, (uint64_t)(uintptr_t)r->map ^ r->vsize);
}

static uint64_t frame_hash(uint64_t h, const struct reg *r,
			   const struct slot *sl)
{
	int i;

	for (i = 0; i < HR_NREGS; i++)
		h = reg_hash(h, &r[i]);
	for (i = 0; i < MAX_STACK / 8; i++) {
		h = mix(h, sl[i].spill);
		h = reg_hash(h, &sl[i].r);
	}
	return h;
}

static uint64_t state_hash(const struct state *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	int i;

	h = frame_hash(h, s->r, s->s);
	for (i = 0; i < s->curframe; i++)
		h = mix(frame_hash(h, s->fr[i].r, s->fr[i].s),
			s->fr[i].callsite);
	for (i = 0; i < s->nrefs; i++)
		h = mix(h, s->refs[i]);
	/* refsafe(): states with other section depths are not equal. */
	h = mix(h, (uint64_t)s->rcu | (uint64_t)s->preempt << 32);
	h = mix(h, s->locked | (uint64_t)s->lock_id << 32);
	h = mix(h, (uint64_t)(uintptr_t)s->lock_map);
	return mix(h, (uint64_t)s->nrefs);
}

/* Arriving at loop head s->pc from the back edge at @from. */
static int loop_head(struct walk *w, struct state *s, uint32_t from)
{
	uint64_t h;
	unsigned int k;
	uint32_t body = from - s->pc + 1;

	if (s->soft)
		return 0;
	h = state_hash(s);
	for (k = 0; k < s->nlh && k < LOOP_RING; k++)
		if (s->lh_pc[k] == s->pc && s->lh_hash[k] == h)
			/* The kernel names the loop head and faults the back
			 * edge that reached it. */
			return fault(w, s, from,
				     "infinite loop detected at insn %u",
				     s->pc);
	s->lh_pc[s->nlh % LOOP_RING] = s->pc;
	s->lh_hash[s->nlh % LOOP_RING] = h;
	s->nlh++;
	/* Every time round a different exact state: none prunes another,
	 * so the kernel walks the body that often too. */
	if ((uint64_t)++w->visits[s->pc] * body > INSN_LIMIT)
		return fault(w, s, from,
			     "BPF program is too large. Processed %u insn",
			     INSN_LIMIT + 1);
	return 0;
}

/* --- pruning ----------------------------------------------------------- */

#define SEEN_BUCKETS 4096
#define SEEN_MAX 16384
/* Past this much work a pruned walk no longer claims the kernel stays
 * within its instruction budget (its pruning differs from this one). */
#define PRUNED_WORK_MAX (INSN_LIMIT / 4)

/* Ids renamed in order of first appearance, so that two states that
 * differ only in how their ids were numbered compare equal. */
struct id_map {
	uint32_t from[2 * MAX_FRAMES * (HR_NREGS + MAX_STACK / 8) +
		      2 * MAX_REFS + 2];
	unsigned int n;
};

static uint32_t canon_id(struct id_map *m, uint32_t id)
{
	unsigned int i;

	if (!id)
		return 0;
	for (i = 0; i < m->n; i++)
		if (m->from[i] == id)
			return i + 1;
	if (m->n < sizeof(m->from) / sizeof(m->from[0]))
		m->from[m->n++] = id;
	return m->n;
}

static bool reg_same(const struct reg *a, const struct reg *b,
		     struct id_map *ma, struct id_map *mb)
{
	return a->t == b->t && a->exact == b->exact &&
	       a->maybe_nonnull == b->maybe_nonnull && a->lossy == b->lossy &&
	       a->off == b->off && a->range == b->range && a->lo == b->lo &&
	       a->hi == b->hi && a->map == b->map && a->vsize == b->vsize &&
	       a->rdonly == b->rdonly && a->frameno == b->frameno &&
	       a->dyn_type == b->dyn_type && a->sgn == b->sgn &&
	       a->smin_unb == b->smin_unb &&
	       (!a->sgn || (a->smin == b->smin && a->smax == b->smax)) &&
	       canon_id(ma, a->id) == canon_id(mb, b->id) &&
	       canon_id(ma, a->dyn_id) == canon_id(mb, b->dyn_id);
}

static bool frame_same(const struct reg *ar, const struct slot *as,
		       const struct reg *br, const struct slot *bs,
		       struct id_map *ma, struct id_map *mb)
{
	int i;

	for (i = 0; i < HR_NREGS; i++)
		if (!reg_same(&ar[i], &br[i], ma, mb))
			return false;
	for (i = 0; i < MAX_STACK / 8; i++)
		if (as[i].spill != bs[i].spill || as[i].misc != bs[i].misc ||
		    !reg_same(&as[i].r, &bs[i].r, ma, mb))
			return false;
	return true;
}

/* Whether @a and @b lead to the same walk from here: every register,
 * spill, reference, section, lock and loop-head record the same, ids up
 * to renaming; only the path length may differ. */
static bool state_same(const struct state *a, const struct state *b)
{
	struct id_map ma = { .n = 0 }, mb = { .n = 0 };
	int i;

	if (a->pc != b->pc || a->soft != b->soft || a->nrefs != b->nrefs ||
	    a->rcu != b->rcu || a->preempt != b->preempt ||
	    a->locked != b->locked || a->lock_map != b->lock_map ||
	    a->nlh != b->nlh || memcmp(a->lh_pc, b->lh_pc, sizeof(a->lh_pc)) ||
	    memcmp(a->lh_hash, b->lh_hash, sizeof(a->lh_hash)) ||
	    a->curframe != b->curframe || a->func != b->func ||
	    a->cb != b->cb || a->cb_refs != b->cb_refs)
		return false;
	if (!frame_same(a->r, a->s, b->r, b->s, &ma, &mb))
		return false;
	for (i = 0; i < a->curframe; i++)
		if (a->fr[i].callsite != b->fr[i].callsite ||
		    a->fr[i].cb != b->fr[i].cb ||
		    a->fr[i].cb_refs != b->fr[i].cb_refs ||
		    a->fr[i].soft != b->fr[i].soft ||
		    !frame_same(a->fr[i].r, a->fr[i].s, b->fr[i].r, b->fr[i].s,
				&ma, &mb))
			return false;
	for (i = 0; i < a->nrefs; i++)
		if (a->ref_insn[i] != b->ref_insn[i] ||
		    canon_id(&ma, a->refs[i]) != canon_id(&mb, b->refs[i]))
			return false;
	return canon_id(&ma, a->lock_id) == canon_id(&mb, b->lock_id);
}

/* A hash of what state_same compares but the ids. */
static uint64_t prune_hash(const struct state *s)
{
	uint64_t h = mix(0x84222325cbf29ce4ull, s->pc);
	int i;

	for (i = 0; i < HR_NREGS; i++)
		h = mix(mix(mix(h, s->r[i].t | (uint64_t)s->r[i].off << 8),
			    s->r[i].lo),
			s->r[i].hi);
	for (i = 0; i < MAX_STACK / 8; i++)
		if (s->s[i].spill || s->s[i].r.t)
			h = mix(mix(mix(h, (uint64_t)i << 32 | s->s[i].r.t),
				    s->s[i].r.lo),
				s->s[i].r.hi);
	for (i = 0; i < s->curframe; i++)
		h = mix(h, s->fr[i].callsite);
	return mix(h, (uint64_t)s->nrefs | (uint64_t)s->nlh << 8 |
			      (uint64_t)s->soft << 40 |
			      (uint64_t)s->locked << 41 |
			      (uint64_t)s->curframe << 42);
}

/* 1 when an equal state was met here before (this path adds nothing),
 * else records this one and returns 0. */
static int prune(struct walk *w, const struct state *s)
{
	uint64_t h = prune_hash(s);
	struct seen **b = &w->seen[h % SEEN_BUCKETS], *e;

	for (e = *b; e; e = e->next)
		if (e->hash == h && state_same(&e->st, s)) {
			w->pruned = true;
			return 1;
		}
	if (w->nseen >= SEEN_MAX)
		return 0;
	/* Only the caller frames in use are kept (state_size). */
	e = malloc(offsetof(struct seen, st) + state_size(s));
	if (!e)
		return 0;
	e->hash = h;
	memcpy(&e->st, s, state_size(s));
	e->next = *b;
	*b = e;
	w->nseen++;
	return 0;
}

/* The prune points: jump targets and the instruction after each jump or
 * call, as the kernel marks them (mark_prune_point). */
static void mark_prune_points(struct walk *w)
{
	uint32_t pc;

	for (pc = 0; pc < w->cnt; pc++) {
		const struct hr_insn *in = &w->in[pc];
		int cls = HR_CLASS(in->code), op = HR_OP(in->code);
		int64_t t;

		if (hr_insn_is_lddw(in)) {
			pc++;
			continue;
		}
		if (cls != HR_JMP && cls != HR_JMP32)
			continue;
		if (op == HR_EXIT)
			continue;
		if (pc + 1 < w->cnt)
			w->prune_pt[pc + 1] = true;
		/* A callback's return comes back to its helper's call. */
		if (op == HR_CALL && !in->src &&
		    (in->imm == BPF_FUNC_loop ||
		     in->imm == BPF_FUNC_for_each_map_elem))
			w->prune_pt[pc] = true;
		if (op == HR_CALL)
			continue;
		t = (int64_t)pc + 1 +
		    (op == HR_JA && cls == HR_JMP32 ? in->imm : in->off);
		if (t >= 0 && t < w->cnt)
			w->prune_pt[t] = true;
	}
}

static void free_seen(struct walk *w)
{
	unsigned int i;

	for (i = 0; w->seen && i < SEEN_BUCKETS; i++)
		while (w->seen[i]) {
			struct seen *e = w->seen[i];

			w->seen[i] = e->next;
			free(e);
		}
	free(w->seen);
	free(w->prune_pt);
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
	fault(w, s, pc, "misaligned value access off 0+%d+%d size %d", b->off,
	      off, size);
	return 1;
}

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
static bool is_global(const struct walk *w, int f)
{
	return w->prog->func_info && w->prog->funcs[f].global;
}

/* Global function @f's argument kinds into *@a: their count, or -errno. */
static int global_args(struct walk *w, uint32_t f, const enum hr_global_arg **a)
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
		set_unknown(w, pc, "a global function called in a section");
		return -1;
	}
	n = global_args(w, (uint32_t)f, &a);
	for (i = 0; i < n; i++) {
		const struct reg *r = &s->r[i + 1];

		if (a[i] == HR_GARG_SCALAR && r->t == R_SCALAR)
			continue;
		if (a[i] == HR_GARG_CTX && r->t == R_CTX && !r->off)
			continue;
		/* btf_check_func_arg_match's first words; "Caller passes
		 * invalid args into func#N" follows them. */
		if (a[i] == HR_GARG_SCALAR)
			return fault(w, s, pc, "R%d is not a scalar", i + 1);
		break;
	}
	if (n < 0 || i < n) {
		set_unknown(w, pc,
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
		set_unknown(w, pc, "a recursive call");
		return -1;
	}
	if (s->curframe + 1 >= MAX_FRAMES)
		return fault(w, s, pc,
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
static int enter_func(struct walk *w, struct state *s, uint32_t pc,
		      const struct hr_insn *in)
{
	int64_t target = (int64_t)pc + 1 + in->imm;
	int f = func_at(w, target);
	struct frame *fr;
	int i;

	if (f < 0) {
		set_unknown(w, pc, "a call this check cannot place");
		return -1;
	}
	if (is_global(w, f))
		return call_global(w, s, pc, f);
	if (s->locked) {
		set_unknown(w, pc, "a call while a bpf_spin_lock is held");
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
	fault(w, s, pc,
	      "At callback return the register R0 has smin=%llu%s should "
	      "have been in [0, %llu]",
	      (unsigned long long)r0->lo, smax, (unsigned long long)max);
	return 1;
}

static int callback_exit_ok(struct walk *w, struct state *s, uint32_t pc)
{
	const struct reg *r0 = &s->r[0];

	if (is_ptr(r0))
		return fault(w, s, pc, "R0 not a scalar value");
	if (callback_ret_refused(w, s, pc))
		return -1;
	/* An async callback's range is [0, 0]. */
	if (r0->t != R_SCALAR || r0->hi > 1 ||
	    (s->cb == BPF_FUNC_timer_set_callback && r0->hi)) {
		set_unknown(w, pc, "a callback's return value");
		return -1;
	}
	if (s->nrefs != s->cb_refs || s->locked) {
		set_unknown(w, pc, "a callback returning with %s held",
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
static int leave_func(struct walk *w, struct state *s, uint32_t pc)
{
	struct reg r0 = s->r[0];
	const struct frame *fr = &s->fr[s->curframe - 1];
	bool cb = s->cb;

	/* Any stack's, the caller's own too (the kernel is conservative). */
	if (r0.t == R_STACK)
		return fault(w, s, pc,
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
			return fault(w, s, pc, "R%d !read_ok", i);
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
	set_unknown(w, pc, "%s arguments", helper_name(id));
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
		set_unknown(w, pc, "out of memory");
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
	ret = push(w, cb);
	free(cb);
	return ret;
}

static int callback_call(struct walk *w, struct state *s, uint32_t pc, int id)
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
static int timer_call(struct walk *w, struct state *s, uint32_t pc, int id)
{
	const struct reg *r = s->r;
	const struct hr_map_fields *f;
	int nargs = id == BPF_FUNC_timer_cancel	      ? 1 :
		    id == BPF_FUNC_timer_set_callback ? 2 :
							3;
	const char *name;
	int64_t off;
	int i;

	if (!license_gpl(w)) {
		set_unknown(w, pc, "%s: a GPL-only helper, and the license",
			    helper_name(id));
		return -1;
	}
	/* R1, then the others in order, as check_func_arg takes them. */
	if (r[1].t == R_NONE)
		return fault(w, s, pc, "R1 !read_ok");
	if (r[1].t != R_VAL || !r[1].map || !r[1].exact || r[1].lo != r[1].hi)
		goto unknown;
	f = map_fields(w, r[1].map);
	if (f->unsure)
		goto unknown;
	name = r[1].map->name; /* the kernel keeps BPF_OBJ_NAME_LEN - 1 */
	if (!f->has_btf)
		return fault(w, s, pc,
			     "map '%.15s' has to have BTF in order to use "
			     "bpf_timer",
			     name);
	if (f->timer_off < 0)
		return fault(w, s, pc, "map '%.15s' has no valid bpf_timer",
			     name);
	off = r[1].off + (int64_t)r[1].lo;
	if (off != f->timer_off)
		return fault(w, s, pc,
			     "off %lld doesn't point to 'struct bpf_timer' "
			     "that is at %d",
			     (long long)off, f->timer_off);
	for (i = 2; i <= nargs; i++) {
		if (r[i].t == R_NONE)
			return fault(w, s, pc, "R%d !read_ok", i);
		if (i == 2 && id == BPF_FUNC_timer_init) {
			if (r[2].t != R_MAP_PTR || !r[2].map)
				goto unknown;
			if (r[2].map != r[1].map)
				return fault(w, s, pc,
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
	set_unknown(w, pc, "%s arguments", helper_name(id));
	return -1;
}

/* ld_imm64 of a callback's address (check_ld_imm): the kernel needs the
 * object's func_info for it, and a static function. */
static int func_addr(struct walk *w, struct state *s, uint32_t pc,
		     const struct hr_insn *in)
{
	int f = func_at(w, (int64_t)pc + 1 + in->imm);

	if (!w->prog->func_info)
		return fault(w, s, pc, "missing btf func_info");
	if (f < 0 || !w->func_called) {
		set_unknown(w, pc, "a callback this check cannot place");
		return -1;
	}
	if (w->prog->funcs[f].global)
		return fault(w, s, pc, "callback function not static");
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
		if (g < 0 || is_global(w, g))
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
static void throw_in_callback_refused(struct walk *w)
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
		set_unknown(w, w->last_pc, "bpf_throw reached from a callback");
		return;
	}
	if (r)
		refuse_after_walk(w, &stop);
}

/* check_max_stack_depth's sum, bounded from above by every function's
 * deepest use (rounded to 32 bytes, the interpreter's granule; the JIT's
 * 16 is finer): past 512 bytes the kernel may refuse the program. */
static void check_stack_sum(struct walk *w)
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
		set_unknown(w, w->last_pc,
			    "the calls' stacks together may exceed %d "
			    "bytes",
			    MAX_STACK);
}

/*
 * do_check prints each instruction with its source line before checking
 * it (verbose_linfo), but a line only when its record is not the one it
 * printed last; an error is then shown under the last line printed on
 * its path, which for an exit reached again is often an earlier line.
 */
static void log_line(struct walk *w, struct state *s, uint32_t pc)
{
	uint32_t k = w->line_at ? w->line_at[pc] : 0;

	if (k && k != w->prev_line) {
		w->prev_line = k;
		s->log_line = k;
	}
}

static int walk_path(struct walk *w, struct state *s)
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
			set_unknown(w, pc, "jump out of the program");
			break;
		}
		if (++w->work > WORK_CAP) {
			set_unknown(w, pc,
				    "too many paths to follow here "
				    "(the kernel's pruning is finer)");
			ret = -1;
			break;
		}
		if (w->seen && w->prune_pt[pc] && prune(w, s))
			break;
		if (s->cb_return) {
			set_unknown(w, pc,
				    "a callback that changes its caller's "
				    "state each time round");
			break;
		}
		if (++s->depth > INSN_LIMIT) {
			fault(w, s, w->last_pc,
			      "BPF program is too large. Processed "
			      "%u insn",
			      INSN_LIMIT + 1);
			break;
		}
		w->last_pc = pc;
		log_line(w, s, pc);
		in = &w->in[pc];
		cls = HR_CLASS(in->code);
		switch (cls) {
		case HR_ALU:
		case HR_ALU64:
			if (alu(w, s, pc, in))
				goto end;
			s->pc++;
			break;
		case HR_LD:
			if (!hr_insn_is_lddw(in) || pc + 1 >= w->cnt) {
				set_unknown(w, pc, "legacy packet load");
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
					fault(w, s, pc,
					      "frame pointer is read only");
					goto end;
				}
				if (in->src == HR_PSEUDO_FUNC) {
					if (func_addr(w, s, pc, in))
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
					set_unknown(w, pc,
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
					fault(w, s, pc,
					      "BPF_ATOMIC stores into R%d %s "
					      "is not allowed",
					      breg, reg_str(&s->r[breg]));
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
					    stack_dynptr_at(s, &s->r[breg],
							    in->off)) {
						set_unknown(w, pc,
							    "an atomic on a "
							    "dynptr's bytes");
						goto end;
					}
					if (mem_access(w, s, pc, breg, in->off,
						       size, true, NULL, &v))
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
				set_unknown(w, pc, "this load or store mode");
				goto end;
			}
			if (cls == HR_STX) {
				if (s->r[in->src].t == R_NONE) {
					fault(w, s, pc, "R%d !read_ok",
					      in->src);
					goto end;
				}
				val = &s->r[in->src];
			}
			if (cls == HR_LDX && in->dst == 10) {
				fault(w, s, pc, "frame pointer is read only");
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
				if (mem_access(w, s, pc, breg, in->off, size,
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
					set_unknown(w, pc, "callx");
					goto end;
				}
				if (in->src == HR_CALL_LOCAL) {
					if (enter_func(w, s, pc, in))
						goto end;
					break;
				}
				if (call(w, s, pc, in))
					goto end;
				s->pc++;
				break;
			}
			if (op == HR_EXIT && cls == HR_JMP && s->curframe) {
				if (leave_func(w, s, pc))
					goto end;
				break;
			}
			if (op == HR_EXIT && cls == HR_JMP) {
				/* check_resource_leak (a lock held,
				 * references, then open sections) before
				 * check_return_code. */
				if (s->locked) {
					fault(w, s, pc,
					      "BPF_EXIT instruction in main "
					      "prog cannot be used inside "
					      "bpf_spin_lock-ed region");
					goto end;
				}
				if (held_at(w, s, pc,
					    "BPF_EXIT instruction in main "
					    "prog"))
					goto end;
				if (s->r[0].t == R_NONE) {
					fault(w, s, pc, "R0 !read_ok");
					goto end;
				}
				/* check_return_code of a global function:
				 * "At subprogram exit the register R0 is not
				 * a scalar value (TYPE)", in the kernel's
				 * names for types this model does not keep. */
				if (s->func && is_ptr(&s->r[0])) {
					set_unknown(w, pc,
						    "a pointer returned by a "
						    "global function");
					goto end;
				}
				if (s->r[0].t != R_SCALAR && w->tc)
					set_unknown(w, pc,
						    "a pointer "
						    "returned");
				goto end;
			}
			if (op == HR_JA) {
				int64_t d = cls == HR_JMP32 ? in->imm : in->off;

				s->pc = (uint32_t)((int64_t)pc + 1 + d);
				if (s->pc <= pc && loop_head(w, s, pc))
					goto end;
			} else {
				jump = malloc(sizeof(*jump));
				if (!jump) {
					ret = -ENOMEM;
					goto end;
				}
				ways = cond(w, s, jump, pc, in);
				if (!ways) {
					free(jump);
					goto end;
				}
				if (ways == 3) {
					/* The target waits, as the kernel's
					 * push_stack; a back edge's is a loop
					 * head then. */
					if (jump->pc <= pc &&
					    loop_head(w, jump, pc)) {
						free(jump);
						goto end;
					}
					s->pc = pc + 1;
					if (push(w, jump)) {
						free(jump);
						goto end;
					}
				} else if (ways == 2) {
					memcpy(s, jump, state_size(jump));
					if (s->pc <= pc &&
					    loop_head(w, s, pc)) {
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
			set_unknown(w, pc, "instruction class %d", cls);
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
static void check_cfg(struct walk *w, struct state *s)
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
			fault(w, s, pc, "unreachable insn %u", pc);
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
		if (walk_path(w, s))
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

	n = global_args(w, f, &a);
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
		set_unknown(w, w->prog->funcs[f].start,
			    "a global function's arguments this check does "
			    "not follow");
		return -1;
	}
	s->r[10] = (struct reg){ .t = R_STACK, .exact = true };
	s->func = (uint16_t)f;
	s->pc = w->prog->funcs[f].start;
	return push(w, s);
}

/*
 * do_check_subprogs: once the main function is walked, each global
 * function a walk called, in the order of the program, each on its own;
 * those they call in turn until no new one is left. Only after a main
 * walk with no "cannot tell", whose outcome the kernel's order keeps.
 */
static void walk_globals(struct walk *w, struct state *s)
{
	bool again = true;
	uint32_t i;

	while (again && !w->rejected && !w->unknown) {
		again = false;
		for (i = 1; i < w->prog->nfuncs; i++) {
			if (w->rejected || w->unknown)
				return;
			if (!is_global(w, (int)i) || !w->func_called[i] ||
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
		    is_hint_kfunc(prog->calls[i]))
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
		free_seen(&w);
		w.seen = NULL;
		w.prune_pt = NULL;
	} else {
		mark_prune_points(&w);
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
		free_seen(&w);
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
	    license_gpl(&w)) {
		for (uint32_t i = 0; i < prog->cnt; i++)
			if (prog->insns[i].src == HR_CALL_KFUNC &&
			    prog->insns[i].code == (HR_JMP | HR_CALL) &&
			    is_hint_kfunc(prog->calls[i])) {
				fault(&w, s, i,
				      "metadata kfuncs require "
				      "device-bound program");
				break;
			}
	}
	if (!w.rejected)
		check_cfg(&w, s);
	memcpy(&w.pend[w.npend++], s, state_size(s));
	if (!walk_all(&w, s))
		walk_globals(&w, s);
	if (!w.rejected && !w.unknown)
		check_stack_sum(&w);
	if (!w.rejected && !w.unknown)
		throw_in_callback_refused(&w);
	if (!w.rejected && !w.unknown && w.pruned && w.work > PRUNED_WORK_MAX)
		set_unknown(&w, w.last_pc,
			    "a walk this long may exceed the kernel's "
			    "instruction budget (its pruning differs)");
	free_seen(&w);
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
