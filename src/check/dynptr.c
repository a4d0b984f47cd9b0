// SPDX-License-Identifier: MIT
/*
 * headroom check: dynptr arguments, the dynptr kfuncs and helpers and their
 * slices, as process_dynptr_func() and check_kfunc_args() follow them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "check/walk.h"

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
		return ck_slot_at(s, r, r->off);
	ck_set_unknown(w, pc, "a dynptr argument this check does not follow");
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
		return ck_fault(w, s, pc,
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
		if (ck_dyn_overwrite(w, s, pc, &sl[i]))
			return -1;
	}
	ck_stack_used(w, s, &s->r[regno], s->r[regno].off);
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
			return ck_fault(w, s, pc, "R%d !read_ok", i);
		ck_set_unknown(w, pc, "a kfunc argument not initialized");
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
			ck_set_unknown(w, pc, "a kfunc's scalar argument R%d",
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
		ck_set_unknown(w, pc, "a slice size this check does not bound");
		return -1;
	}
	if (!(is_const(buf) && !buf->lo)) {
		/* Out of the stack, the kernel's last line would be its
		 * "memory, len pair" one: not worded here. */
		if (buf->t != R_STACK || buf->off < -MAX_STACK ||
		    (int64_t)buf->off + (int64_t)n->hi > 0) {
			ck_set_unknown(w, pc,
				       "a slice buffer this check does "
				       "not follow");
			return -1;
		}
		if (ck_mem_arg(w, s, pc, 3, (int64_t)n->hi, true))
			return -1;
	}
	if (n->lo != n->hi)
		return ck_fault(w, s, pc, "R4 must be a known constant");
	*r0 = slice_reg(w, d, (uint32_t)n->lo, d->r.dyn_type);
	r0->rdonly = !rdwr;
	return 0;
}

/* The dynptr kfuncs XDP and tc programs may ck_call (offer_kfuncs.c); 1
 * when @k is none of them. */
int ck_dyn_kfunc(struct walk *w, struct state *s, uint32_t pc,
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
			ck_set_unknown(w, pc, "%s arguments", k->name);
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
		if (ck_skb_dyn(d->r.dyn_type))
			ck_clear_pkt(s);
		else if (copy && src->r.dyn_type == HR_DYNPTR_TYPE_SKB_META)
			ck_forget_pkt(s);
	} else if (k == &hr_kfunc_dynptr_clone) {
		/* The clone has its parent's type (check_kfunc_args). */
		if (args_set(w, s, pc, 1, 2, false) ||
		    dyn_arg_init(w, s, pc, 1, 0, &d))
			return -1;
		if (d->r.dyn_type == HR_DYNPTR_TYPE_RINGBUF) {
			ck_set_unknown(w, pc,
				       "a clone of a ring buffer dynptr");
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
		ck_set_unknown(w, pc,
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
		ck_set_unknown(w, pc, "a zero-sized buffer");
		return -1;
	}
	if (r->t != R_STACK && r->t != R_VAL && r->t != R_MEM &&
	    r->t != R_RBUF) {
		ck_set_unknown(w, pc,
			       "a dynptr helper's buffer this check does "
			       "not follow");
		return -1;
	}
	if (write && r->t == R_VAL && r->rdonly) {
		ck_set_unknown(w, pc, "a helper writing into a read-only map");
		return -1;
	}
	if (!s->r[sregno].exact)
		s->soft = true;
	err = ck_mem_arg(w, s, pc, regno, size, write);
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
		ck_set_unknown(w, pc,
			       "a spilled register released as a dynptr");
		return -1;
	}
	if (sl[0].r.t != R_DYNPTR ||
	    ck_dyn_first(&sl[0])->r.dyn_type != HR_DYNPTR_TYPE_RINGBUF)
		return ck_fault(w, s, pc, "arg 1 is an unacquired reference");
	if (dyn_arg_init(w, s, pc, 1, 0, &d))
		return -1;
	ref = d->r.dyn_id;
	id = d->r.id;
	for (k = 0; k < s->nrefs && s->refs[k] != ref; k++)
		;
	if (k == s->nrefs) {
		ck_set_unknown(w, pc, "a dynptr whose reference is not held");
		return -1;
	}
	ck_drop_ref(s, ref);
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
int ck_dyn_helper(struct walk *w, struct state *s, uint32_t pc, int id,
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
			return ck_fault(w, s, pc,
					"Unsupported reg type %s for "
					"bpf_dynptr_from_mem data",
					ck_reg_str(&s->r[1]));
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
		if (ck_skb_dyn(d->r.dyn_type))
			ck_clear_pkt(s);
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
			ck_set_unknown(w, pc,
				       "bpf_ringbuf_reserve_dynptr "
				       "arguments");
			return -1;
		}
		if (args_set(w, s, pc, 2, 4, true))
			return -1;
		if (s->nrefs == MAX_REFS) {
			ck_set_unknown(w, pc, "too many references");
			return -1;
		}
		if (dyn_make(w, s, pc, 4, HR_DYNPTR_TYPE_RINGBUF))
			return -1;
		d = ck_slot_at(s, &s->r[4], s->r[4].off);
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
			ck_set_unknown(w, pc,
				       "a size argument this check does "
				       "not bound exactly");
			return -1;
		}
		if (len->lo != len->hi)
			return ck_fault(w, s, pc,
					"R3 is not a known constant'");
		*r0 = slice_reg(w, d, (uint32_t)len->lo, 0);
		return 0;
	}
	}
	ck_set_unknown(w, pc, "helper %s#%d is not modelled here",
		       ck_helper_name(id), id);
	return -1;
}

/* bpf_spin_lock/_unlock's argument as process_spin_lock takes it: a map
 * value at a constant offset that is its bpf_spin_lock. 0 when it is,
 * -1 (unknown) when this model cannot place it. */
int ck_lock_arg(struct walk *w, struct state *s, uint32_t pc)
{
	const struct reg *r = &s->r[1];
	const struct hr_map_fields *f;

	if (r->t == R_NONE)
		return ck_fault(w, s, pc, "R1 !read_ok");
	if (r->t != R_VAL || !r->exact || r->lo || r->hi || !r->map) {
		ck_set_unknown(w, pc, "a bpf_spin_lock argument");
		return -1;
	}
	f = ck_map_fields(w, r->map);
	if (f->unsure || f->lock_off < 0 || f->lock_off != r->off) {
		ck_set_unknown(w, pc, "a bpf_spin_lock argument");
		return -1;
	}
	return 0;
}
