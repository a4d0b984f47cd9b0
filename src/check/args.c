// SPDX-License-Identifier: MIT
/*
 * headroom check: helper arguments as the kernel's check_func_arg() and
 * check_mem_size_reg() check them against a helper's bpf_func_proto
 * (protos.c), and the references a helper acquires.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "check/walk.h"

/* --- helpers --------------------------------------------------------- */

const char *ck_helper_name(int id)
{
	const char *n = hr_helper_name(id);

	return n ? n : "unknown";
}

/* A helper's memory argument [r, r + size): ARG_PTR_TO_MEM and the map
 * key / value arguments. */
int ck_mem_arg(struct walk *w, struct state *s, uint32_t pc, int regno,
	       int64_t size, bool write)
{
	struct reg *r = &s->r[regno];
	struct reg dummy;
	int64_t a;

	switch (r->t) {
	case R_NONE:
		return ck_fault(w, s, pc, "R%d !read_ok", regno);
	case R_STACK:
		a = r->off;
		if (a < -MAX_STACK || a + size > 0 || size <= 0)
			return ck_fault(
				w, s, pc,
				"invalid %s stack R%d off=%lld size=%lld",
				write ? "write to" : "read from", regno,
				(long long)a, (long long)size);
		for (int64_t o = a & ~7; o < a + size; o += 8)
			if (ck_slot_at(s, r, (int)o)->r.t == R_DYNPTR) {
				ck_set_unknown(
					w, pc,
					"a helper's memory argument over "
					"a dynptr");
				return -1;
			}
		ck_stack_used(w, s, r, a);
		/* A helper's write makes its bytes STACK_MISC, and a spilled
		 * number's whole slot (check_stack_range_initialized). */
		for (int64_t o = a & ~7; write && o < a + size; o += 8) {
			struct slot *sl = ck_slot_at(s, r, (int)o);
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
		return ck_check_rbuf(w, s, pc, regno, r, 0, (int)size);
	case R_PKT:
	case R_META:
	case R_VAL:
		if (size <= 0 || size > (1 << 29))
			break;
		return ck_mem_access(w, s, pc, regno, 0, 1, write, NULL, &dummy) ?:
			       (r->t == R_VAL ?
					ck_check_val(w, s, pc, regno, r, 0,
						     (int)size, write) :
					ck_check_pkt(w, s, pc, regno, r, 0,
						     (int)size));
	case R_SCALAR:
	case R_CTX:
	case R_PKT_END:
	case R_MAP_PTR:
	case R_VAL_OR_NULL:
		if (r->t == R_VAL_OR_NULL && r->maybe_nonnull)
			break;
		return ck_fault(
			w, s, pc,
			"R%d type=%s expected=fp, pkt, pkt_meta, map_key, "
			"map_value, mem, ringbuf_mem, buf, trusted_ptr_",
			regno, ck_reg_str(r));
	default:
		break;
	}
	ck_set_unknown(w, pc,
		       "a helper's memory argument this check does not "
		       "follow");
	return -1;
}

bool ck_map_of_maps(const struct hr_map *m)
{
	return m->attr.type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
	       m->attr.type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

/* A map of the object that stands for map-in-map @outer's inner map
 * template (the kernel types a lookup's result by inner_map_meta): one
 * the same in every parameter, or NULL. */
const struct hr_map *ck_inner_stand_in(const struct walk *w,
				       const struct hr_map *outer)
{
	const struct hr_object *obj = w->prog->obj;
	unsigned int i;

	for (i = 0; obj && i < obj->nmaps; i++)
		if (hr_map_inner_same(outer, obj->maps[i]))
			return obj->maps[i];
	return NULL;
}

int ck_arg_map(struct walk *w, struct state *s, uint32_t pc, int id)
{
	struct reg *r = &s->r[1];

	if (r->t == R_NONE)
		return ck_fault(w, s, pc, "R1 !read_ok");
	if (r->t != R_MAP_PTR) {
		if (r->t == R_SCALAR || r->t == R_CTX || r->t == R_PKT ||
		    r->t == R_STACK || r->t == R_MAP_PTR_OR_NULL)
			return ck_fault(w, s, pc, "R1 type=%s expected=map_ptr",
					ck_reg_str(r));
		ck_set_unknown(w, pc, "map argument not followed");
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
	return ck_fault(w, s, pc,
			"R%d invalid zero-sized read: u64=[%llu,%llu]", regno,
			(unsigned long long)r->lo, (unsigned long long)r->hi);
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
		ck_set_unknown(w, pc,
			       "a size argument this check does not "
			       "bound exactly");
		return 1;
	}
	if (late)
		ck_fault(w, s, pc,
			 "R%d unbounded memory access, use 'var &= const' or "
			 "'if (var < const)'",
			 regno);
	else
		ck_fault(w, s, pc,
			 "R%d min value is negative, either use unsigned or "
			 "'var &= const'",
			 regno);
	return 1;
}

int64_t ck_size_arg(struct walk *w, struct state *s, uint32_t pc, int regno)
{
	struct reg *r = &s->r[regno];

	if (r->t == R_NONE) {
		ck_fault(w, s, pc, "R%d !read_ok", regno);
		return -1;
	}
	if (r->t != R_SCALAR || !r->exact) {
		ck_set_unknown(w, pc,
			       "a size argument this check does not "
			       "bound exactly");
		return -1;
	}
	if (size_bounds(w, s, pc, regno, false) || zero_size(w, s, pc, regno) ||
	    size_bounds(w, s, pc, regno, true))
		return -1;
	return (int64_t)r->hi;
}

bool ck_is_hint_kfunc(hr_helper_fn fn)
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
int ck_section_kfunc(struct walk *w, struct state *s, uint32_t pc,
		     const struct hr_kfunc *k)
{
	int i;

	if (k == &hr_kfunc_rcu_read_lock) {
		if (s->rcu)
			return ck_fault(w, s, pc,
					"nested rcu read lock (kernel function "
					"%s)",
					k->name);
		s->rcu = true;
	} else if (k == &hr_kfunc_rcu_read_unlock) {
		if (!s->rcu)
			return ck_fault(w, s, pc,
					"unmatched rcu read unlock (kernel "
					"function %s)",
					k->name);
		s->rcu = false;
	} else if (k == &hr_kfunc_preempt_disable) {
		s->preempt++;
	} else if (k == &hr_kfunc_preempt_enable) {
		if (!s->preempt)
			return ck_fault(
				w, s, pc,
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
bool ck_license_gpl(struct walk *w)
{
	if (w->gpl < 0)
		w->gpl = hr_check_license_gpl(
				 w->prog->obj ? w->prog->obj->path : NULL) == 1;
	return w->gpl == 1;
}

/* An ARG_PTR_TO_CTX argument: the context itself, unmoved. */
int ck_proto_ctx(struct walk *w, struct state *s, uint32_t pc, int regno)
{
	const struct reg *r = &s->r[regno];

	if (r->t == R_CTX && !r->off)
		return 0;
	if (r->t == R_CTX && r->off > 0)
		return ck_fault(w, s, pc,
				"dereference of modified ctx ptr R%d off=%d "
				"disallowed",
				regno, r->off);
	if (r->t == R_SCALAR)
		return ck_fault(w, s, pc, "R%d type=scalar expected=ctx",
				regno);
	/* check_reg_type, with reg_type_str's names for the pointer types
	 * this model knows exactly (a packet pointer meets the packet
	 * access rule first, which depends on the helper). */
	if (r->t == R_MAP_PTR || r->t == R_STACK || r->t == R_PKT_END)
		return ck_fault(w, s, pc, "R%d type=%s expected=ctx", regno,
				r->t == R_MAP_PTR ? "map_ptr" :
				r->t == R_STACK	  ? "fp" :
						    "pkt_end");
	ck_set_unknown(w, pc, "a context argument this check does not follow");
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
		return ck_check_pkt(w, s, pc, regno, r, 0, 0);
	if (r->t == R_STACK && r->off >= -MAX_STACK && r->off < 0) {
		ck_stack_used(w, s, r, r->off);
		return 0;
	}
	ck_set_unknown(w, pc, "a zero-sized buffer");
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
		ck_set_unknown(w, pc,
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
			ck_set_unknown(w, pc, "a NULL buffer with a size");
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
		ck_set_unknown(w, pc, "a helper writing into a read-only map");
		return -1;
	}
	return ck_mem_arg(w, s, pc, regno - 1, (int64_t)r->hi,
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
int ck_snprintf_fmt(struct walk *w, struct state *s, uint32_t pc)
{
	const struct reg *len = &s->r[5];

	if (!is_const(len) || len->lo % 8) {
		ck_set_unknown(w, pc, "bpf_snprintf's data size");
		return -1;
	}
	if (!hr_check_bprintf_fmt_ok(const_str(&s->r[3]),
				     (uint32_t)(len->lo / 8)))
		return ck_fault(w, s, pc, "Invalid format string");
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
		return ck_fault(w, s, pc, "R%d !read_ok", regno);
	switch (kind) {
	case HR_ARG_ANY:
		/* Pointers may leak into helpers: the kernel's root. */
		return 0;
	case HR_ARG_CTX:
		return ck_proto_ctx(w, s, pc, regno);
	case HR_ARG_MEM_RO:
	case HR_ARG_MEM_RO_NULL:
	case HR_ARG_MEM_W:
	case HR_ARG_MEM_W_NULL:
		/* Checked with its size, the argument after it. */
		if (r->t == R_SCALAR && !is_null_arg(r, kind) && !r->exact) {
			ck_set_unknown(w, pc, "a buffer argument maybe NULL");
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
			return ck_fault(w, s, pc,
					"R%d type=scalar expected=map_ptr",
					regno);
		break;
	case HR_ARG_MAP_VALUE:
	case HR_ARG_MAP_VALUE_W:
		if (!*map)
			break;
		return ck_mem_arg(w, s, pc, regno, (*map)->attr.value_size,
				  kind == HR_ARG_MAP_VALUE_W);
	case HR_ARG_FIXED_W:
		/* MEM_ALIGNED: check_ptr_alignment, strict on the stack. */
		if (r->t == R_STACK && r->off % p->arg_size[regno - 1])
			return ck_fault(
				w, s, pc,
				"misaligned stack access off 0+%d+0 size "
				"%d",
				r->off, p->arg_size[regno - 1]);
		if (r->t != R_STACK)
			break;
		return ck_mem_arg(w, s, pc, regno, p->arg_size[regno - 1],
				  true);
	case HR_ARG_FIXED_RO:
		if (is_null_arg(r, HR_ARG_MEM_RO_NULL))
			break;
		return ck_mem_arg(w, s, pc, regno, p->arg_size[regno - 1],
				  false);
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
	ck_set_unknown(w, pc, "argument R%d of %s this check does not follow",
		       regno, ck_helper_name(p->id));
	return -1;
}

/* A helper of the table: its arguments in order, then the map's type and
 * the license, then what it returns. */
int ck_proto_call(struct walk *w, struct state *s, uint32_t pc,
		  const struct hr_proto *p, struct reg *r0)
{
	const struct hr_map *map = NULL;
	int regno;

	for (regno = 1; regno <= 5 && p->arg[regno - 1]; regno++)
		if (proto_arg(w, s, pc, p, regno, &map))
			return -1;
	if (p->map_types && (!map || map->attr.type >= 64 ||
			     !(p->map_types & (1ull << map->attr.type)))) {
		ck_set_unknown(w, pc, "%s on this map type",
			       ck_helper_name(p->id));
		return -1;
	}
	if (p->gpl_only && !ck_license_gpl(w)) {
		ck_set_unknown(w, pc, "%s: a GPL-only helper, and the license",
			       ck_helper_name(p->id));
		return -1;
	}
	*r0 = p->ret == HR_RET_VOID ? (struct reg){ .t = R_NONE } :
				      scalar(0, UINT64_MAX, true);
	return 0;
}

/* Reference @id no longer held. */
void ck_drop_ref(struct state *s, uint32_t id)
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
void ck_release_ref(struct state *s, uint32_t id)
{
	unsigned int it = 0;
	struct reg *r;

	ck_drop_ref(s, id);
	while ((r = each_reg(s, &it)))
		if (is_ptr(r) && r->id == id)
			*r = scalar(0, UINT64_MAX, true);
}

/* A new reference for R0 at @pc: check_helper_call numbers the maybe-NULL
 * pointer first, then acquire_reference() the reference it holds, which
 * both then carry. 0, or -1 when this model holds too many. */
int ck_acquire_ref(struct walk *w, struct state *s, uint32_t pc, struct reg *r0)
{
	if (s->nrefs == MAX_REFS) {
		ck_set_unknown(w, pc, "too many references");
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
int ck_ringbuf_reserve(struct walk *w, struct state *s, uint32_t pc,
		       struct reg *r0)
{
	const struct reg *m = &s->r[1], *n = &s->r[2];
	int i;

	for (i = 1; i <= 3; i++)
		if (s->r[i].t == R_NONE)
			return ck_fault(w, s, pc, "R%d !read_ok", i);
	/* check_func_arg takes any map in R1 and wants R2's value
	 * known; a range the kernel knows as exactly is not one. */
	if (m->t == R_MAP_PTR && n->t == R_SCALAR && n->exact && n->lo != n->hi)
		return ck_fault(w, s, pc, "R2 is not a known constant'");
	if (m->t != R_MAP_PTR || m->map->attr.type != BPF_MAP_TYPE_RINGBUF ||
	    !is_const(n) || n->lo > (1u << 29)) {
		ck_set_unknown(w, pc, "bpf_ringbuf_reserve arguments");
		return -1;
	}
	*r0 = (struct reg){ .t = R_RBUF_OR_NULL,
			    .exact = true,
			    .vsize = (uint32_t)n->lo };
	return ck_acquire_ref(w, s, pc, r0);
}

/* bpf_ringbuf_submit/_discard(record, flags): the record itself, at its
 * start (OBJ_RELEASE), released with every copy of it. */
int ck_ringbuf_release(struct walk *w, struct state *s, uint32_t pc)
{
	const struct reg *r = &s->r[1];
	int k;

	if (r->t == R_NONE)
		return ck_fault(w, s, pc, "R1 !read_ok");
	if (s->r[2].t == R_NONE)
		return ck_fault(w, s, pc, "R2 !read_ok");
	if (r->t == R_RBUF_OR_NULL || r->t == R_SCALAR)
		return ck_fault(w, s, pc, "R1 type=%s expected=ringbuf_mem",
				ck_reg_str(r));
	/* check_func_arg_reg_off: a released pointer's fixed offset is
	 * looked at first, its variable part after. */
	if (r->t == R_RBUF && r->off)
		return ck_fault(
			w, s, pc,
			"R1 must have zero offset when passed to release "
			"func or trusted arg to kfunc");
	if (r->t != R_RBUF || r->lo || r->hi) {
		ck_set_unknown(w, pc, "a ring buffer record argument");
		return -1;
	}
	for (k = 0; k < s->nrefs && s->refs[k] != r->id; k++)
		;
	if (k == s->nrefs) {
		ck_set_unknown(w, pc, "a record whose reference is not held");
		return -1;
	}
	ck_release_ref(s, r->id);
	return 0;
}
