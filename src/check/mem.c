// SPDX-License-Identifier: MIT
/*
 * headroom check: the context, registers, stack slots, dynptr slots and
 * every memory access as the kernel's check_mem_access() takes them
 * (check_ctx_access, check_packet_access, check_map_access,
 * check_stack_read/write of kernel/bpf/verifier.c, 6.18), with the log
 * lines they print.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "check/walk.h"

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

/* The kernel's reg_type_str of @r: a read-only slice's "rdonly_" prefix
 * (MEM_RDONLY) on top of its base name. */
const char *ck_reg_str(const struct reg *r)
{
	if (r->t == R_MEM && r->rdonly)
		return "rdonly_mem";
	if (r->t == R_MEM_OR_NULL && r->rdonly)
		return "rdonly_mem_or_null";
	return rtype_name[r->t];
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
 * and tail moves the switch in ck_call() follows. */
bool ck_changes_pkt(int id)
{
	const struct hr_proto *p = hr_proto_find(id);

	if (p)
		return p->changes_pkt;
	return id == BPF_FUNC_xdp_adjust_head ||
	       id == BPF_FUNC_xdp_adjust_meta || id == BPF_FUNC_xdp_adjust_tail;
}

/* --- register and stack helpers ------------------------------------ */

struct slot *ck_slot_at(struct state *s, const struct reg *fp, int off)
{
	return &frame_slots(s, fp->frameno)[(MAX_STACK + off) / 8];
}

/* Whether dynptr type @type is an skb's, its data or its metadata: a
 * write through one may move the packet (changes_data). */
bool ck_skb_dyn(uint8_t type)
{
	return type == HR_DYNPTR_TYPE_SKB || type == HR_DYNPTR_TYPE_SKB_META;
}

/* Whether @r is a kfunc slice of a packet's dynptr, its metadata's too
 * (reg_is_dynptr_slice_pkt: 6.18 forgets an skb_meta slice after
 * bpf_skb_pull_data). */
static bool pkt_slice(const struct reg *r)
{
	return (r->t == R_MEM || r->t == R_MEM_OR_NULL) &&
	       (ck_skb_dyn(r->dyn_type) || r->dyn_type == HR_DYNPTR_TYPE_XDP);
}

/* Every packet pointer and packet slice (registers and spills)
 * forgotten, as clear_all_pkt_pointers does: root's become unknown
 * numbers (mark_reg_invalid). */
void ck_clear_pkt(struct state *s)
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
void ck_forget_pkt(struct state *s)
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
struct slot *ck_dyn_first(struct slot *sl)
{
	return sl->r.off ? sl - 1 : sl;
}

/* Whether the 8-byte slot holding @fp + @off is a dynptr's, for a
 * constant, in-bounds offset. */
bool ck_stack_dynptr_at(struct state *s, const struct reg *fp, int off)
{
	int a = fp->off + off;

	return a >= -MAX_STACK && a < 0 &&
	       ck_slot_at(s, fp, a & ~7)->r.t == R_DYNPTR;
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
	struct slot *first = ck_dyn_first(sl);
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
bool ck_id_shared(struct state *s, int self, uint32_t id)
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
int ck_dyn_overwrite(struct walk *w, struct state *s, uint32_t pc,
		     struct slot *sl)
{
	if (ck_dyn_first(sl)->r.dyn_type == HR_DYNPTR_TYPE_RINGBUF)
		return ck_fault(w, s, pc, "cannot overwrite referenced dynptr");
	dyn_destroy(s, sl);
	return 0;
}

/* --- memory accesses ----------------------------------------------- */

/* The kernel's update_stack_depth: the deepest byte each function used,
 * for check_max_stack_depth's sum over a call chain. */
void ck_stack_used(struct walk *w, const struct state *s, const struct reg *fp,
		   int64_t a)
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
		return ck_fault(w, s, pc,
				"misaligned stack access off 0+%d+%d size %d",
				b->off, off, size);
	if (a < -MAX_STACK || a + size > 0)
		return ck_fault(w, s, pc, "invalid %s stack R%d off=%d size=%d",
				write ? "write to" : "read from", regno, a,
				size);
	ck_stack_used(w, s, b, a);
	return 0;
}

/* A packet or metadata access through @b: check_packet_access. */
int ck_check_pkt(struct walk *w, struct state *s, uint32_t pc, int regno,
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
		ck_set_unknown(w, pc,
			       "packet access at a variable offset this "
			       "check does not bound exactly");
		return -1;
	}
	if (b->id && b->hi > INT64_MAX)
		return ck_fault(
			w, s, pc,
			"R%d min value is negative, either use unsigned "
			"index or do a if (index >=0) check.",
			regno);
	if (a < 0 || a + size > b->range)
		return ck_fault(w, s, pc,
				"invalid access to packet, off=%d size=%d, "
				"R%d(id=%u,off=%d,r=%d)",
				a, size, regno, b->id, a, b->range);
	return 0;
}

/* The special fields of @m's value, read once a walk. */
const struct hr_map_fields *ck_map_fields(struct walk *w,
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
	const struct hr_map_fields *f = ck_map_fields(w, m);

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
	const struct hr_map_fields *f = ck_map_fields(w, m);
	bool timer = overlaps16(f->timer_off, lo, hi),
	     wq = overlaps16(f->wq_off, lo, hi);

	if (f->unsure || timer == wq ||
	    (f->lock_off >= 0 && lo < f->lock_off + 4 && hi > f->lock_off))
		return NULL;
	return timer ? "bpf_timer" : "bpf_wq";
}

int ck_check_val(struct walk *w, struct state *s, uint32_t pc, int regno,
		 const struct reg *b, int off, int size, bool write)
{
	int64_t a = (int64_t)b->off + off;
	const char *field;

	if (!b->exact) {
		ck_set_unknown(w, pc,
			       "map value access at an offset this check "
			       "does not bound exactly");
		return -1;
	}
	if (write && b->rdonly)
		return ck_fault(
			w, s, pc,
			"write into map forbidden, value_size=%u off=%lld "
			"size=%d",
			b->vsize, (long long)a, size);
	if (b->lo > INT64_MAX)
		return ck_fault(
			w, s, pc,
			"R%d min value is negative, either use unsigned "
			"index or do a if (index >=0) check.",
			regno);
	if (a + (int64_t)b->lo < 0 ||
	    a + (int64_t)b->lo + size > (int64_t)b->vsize)
		return ck_fault(w, s, pc,
				"invalid access to map value, value_size=%u "
				"off=%lld size=%d",
				b->vsize, (long long)(a + (int64_t)b->lo),
				size);
	if (b->hi > (uint64_t)1 << 29)
		return ck_fault(
			w, s, pc,
			"R%d unbounded memory access, make sure to bounds "
			"check any such access",
			regno);
	if (a + (int64_t)b->hi + size > (int64_t)b->vsize)
		return ck_fault(w, s, pc,
				"invalid access to map value, value_size=%u "
				"off=%lld size=%d",
				b->vsize, (long long)(a + (int64_t)b->hi),
				size);
	field = b->map ? async_touched(w, b->map, a + (int64_t)b->lo,
				       a + (int64_t)b->hi + size) :
			 NULL;
	if (field)
		return ck_fault(w, s, pc,
				"%s cannot be accessed directly by load/store",
				field);
	if (b->map && touches_field(w, b->map, a + (int64_t)b->lo,
				    a + (int64_t)b->hi + size)) {
		ck_set_unknown(w, pc,
			       "a map value access near a special field "
			       "(bpf_spin_lock, timer, wq, kptr ...)");
		return -1;
	}
	return 0;
}

/* A ring buffer record's bytes: check_mem_region_access against the
 * size reserved. Records moved by a variable amount are not followed. */
int ck_check_rbuf(struct walk *w, struct state *s, uint32_t pc, int regno,
		  const struct reg *b, int off, int size)
{
	int64_t a = (int64_t)b->off + off;

	if (!b->exact || b->lo || b->hi) {
		ck_set_unknown(w, pc,
			       "ring buffer record access at a variable "
			       "offset");
		return -1;
	}
	if (a < 0 || a + size > (int64_t)b->vsize)
		return ck_fault(
			w, s, pc,
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
	ck_set_unknown(w, pc, "a socket's field access");
	return -1;
}

/* A load or store of @size at @b + @off; for a load, *out gets the value
 * read. @val: the register stored, or NULL for an immediate. */
int ck_mem_access(struct walk *w, struct state *s, uint32_t pc, int regno,
		  int off, int size, bool write, const struct reg *val,
		  struct reg *out)
{
	struct reg *b = &s->r[regno];
	int err;

	*out = scalar(0, size_max(size), true);
	switch (b->t) {
	case R_NONE:
		return ck_fault(w, s, pc, "R%d !read_ok", regno);
	case R_CTX:
		if (b->off)
			return ck_fault(w, s, pc,
					"dereference of modified ctx ptr R%d "
					"off=%d disallowed",
					regno, b->off);
		if (!ctx_ok(w, off, size, write))
			return ck_fault(
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
		err = ck_check_pkt(w, s, pc, regno, b, off, size);
		if (err)
			return err;
		if (write && b->t == R_PKT && !w->xdp && !w->tc) {
			ck_set_unknown(w, pc, "packet write");
			return -1;
		}
		return 0;
	case R_STACK: {
		struct slot *sl;
		int a = b->off + off;

		err = check_stack(w, s, pc, regno, b, off, size, write);
		if (err)
			return err;
		sl = ck_slot_at(s, b, a & ~7);
		if (write && val && val->t == R_STACK &&
		    b->frameno < s->curframe) {
			ck_set_unknown(w, pc,
				       "a stack pointer spilled into a "
				       "caller's frame");
			return -1;
		}
		if (write && sl->r.t == R_DYNPTR &&
		    ck_dyn_overwrite(w, s, pc, sl))
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
			return ck_fault(
				w, s, pc,
				"invalid read from stack off %d+0 size %d", a,
				size);
		/* check_stack_read_fixed_off: a spilled pointer is read
		 * back whole or not at all. */
		if (sl->spill && sl->r.t != R_SCALAR && sl->r.t != R_OTHER)
			return ck_fault(w, s, pc,
					"invalid size of register fill");
		if (sl->spill && sl->r.t != R_SCALAR) {
			ck_set_unknown(w, pc, "part of a spilled pointer read");
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
		err = ck_check_val(w, s, pc, regno, b, off, size, write);
		if (err)
			return err;
		/* Frozen maps read as constants to the kernel. */
		if (b->rdonly)
			out->exact = false;
		return 0;
	case R_RBUF:
		return ck_check_rbuf(w, s, pc, regno, b, off, size);
	case R_SOCK:
	case R_SOCKC:
		return sock_read(w, pc, b, off, size, write);
	case R_MEM:
		/* check_mem_access's PTR_TO_MEM: a read-only slice refuses
		 * stores before its bounds are looked at. */
		if (write && b->rdonly)
			return ck_fault(w, s, pc, "R%d cannot write into %s",
					regno, ck_reg_str(b));
		return ck_check_rbuf(w, s, pc, regno, b, off, size);
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
			ck_set_unknown(w, pc,
				       "array lookup used without a NULL "
				       "test (the kernel may prove its key "
				       "constant)");
			return -1;
		}
		return ck_fault(w, s, pc, "R%d invalid mem access '%s'", regno,
				ck_reg_str(b));
	default:
		ck_set_unknown(w, pc, "access through a %s pointer",
			       b->t == R_MAP_PTR ? "map" : "socket or other");
		return -1;
	}
}
