// SPDX-License-Identifier: MIT
/*
 * CO-RE relocation: a record names a local BTF type, an access string
 * and what to compute (an offset, a size, an existence ...). The local
 * spec is the record walked through the local BTF; every target type with
 * the same kind and essential name (the name without its ___flavor) is a
 * candidate, and the spec is matched against it field by field by name.
 * All matching candidates must agree; none matching means a zero for the
 * existence kinds and a poisoned instruction for the others, as libbpf
 * does (tools/lib/bpf/relo_core.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "loader/core_relo.h"
#include "vm/isa.h"

#define SPEC_MAX 64
#define COMPAT_DEPTH 32

struct acc {
	uint32_t type_id; /* struct/union (named) or array element type */
	uint32_t idx;
	const char *name; /* NULL for an array index */
};

struct spec {
	const struct btf *btf;
	uint32_t root_id;
	uint32_t kind;
	struct acc acc[SPEC_MAX];
	int len;
	int raw[SPEC_MAX];
	int raw_len;
	uint32_t bit_off;
};

static const char *const kind_names[HR_CORE__MAX] = {
	[HR_CORE_FIELD_BYTE_OFFSET] = "byte_off",
	[HR_CORE_FIELD_BYTE_SIZE] = "byte_sz",
	[HR_CORE_FIELD_EXISTS] = "field_exists",
	[HR_CORE_FIELD_SIGNED] = "signed",
	[HR_CORE_FIELD_LSHIFT_U64] = "lshift_u64",
	[HR_CORE_FIELD_RSHIFT_U64] = "rshift_u64",
	[HR_CORE_TYPE_ID_LOCAL] = "local_type_id",
	[HR_CORE_TYPE_ID_TARGET] = "target_type_id",
	[HR_CORE_TYPE_EXISTS] = "type_exists",
	[HR_CORE_TYPE_SIZE] = "type_size",
	[HR_CORE_ENUMVAL_EXISTS] = "enumval_exists",
	[HR_CORE_ENUMVAL_VALUE] = "enumval_value",
	[HR_CORE_TYPE_MATCHES] = "type_matches",
};

const char *hr_core_kind_str(uint32_t kind)
{
	return kind < HR_CORE__MAX ? kind_names[kind] : "unknown";
}

static bool is_field_kind(uint32_t k)
{
	return k <= HR_CORE_FIELD_RSHIFT_U64;
}

static bool is_type_kind(uint32_t k)
{
	return k == HR_CORE_TYPE_ID_LOCAL || k == HR_CORE_TYPE_ID_TARGET ||
	       k == HR_CORE_TYPE_EXISTS || k == HR_CORE_TYPE_SIZE ||
	       k == HR_CORE_TYPE_MATCHES;
}

static bool is_enum_kind(uint32_t k)
{
	return k == HR_CORE_ENUMVAL_EXISTS || k == HR_CORE_ENUMVAL_VALUE;
}

static const struct btf_type *skip(const struct btf *btf, uint32_t id,
				   uint32_t *res)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (res)
		*res = id;
	return t;
}

static const char *name_of(const struct btf *btf, uint32_t off)
{
	const char *s = btf__name_by_offset(btf, off);

	return s ? s : "";
}

/* Length of @name without a "___flavor" suffix (the last one). */
static size_t essential_len(const char *name)
{
	size_t n = strlen(name), i;

	for (i = n; i-- > 0;) {
		if (i + 5 > n)
			continue;
		if (name[i] != '_' && name[i + 1] == '_' &&
		    name[i + 2] == '_' && name[i + 3] == '_' &&
		    name[i + 4] != '_')
			return i + 1;
	}
	return n;
}

static bool names_match(const char *a, const char *b)
{
	size_t la = essential_len(a), lb = essential_len(b);

	return la == lb && strncmp(a, b, la) == 0;
}

static bool is_any_enum(const struct btf_type *t)
{
	return btf_is_enum(t) || btf_is_enum64(t);
}

/* ---- parsing the local spec ---- */

static int parse_raw(const char *s, struct spec *sp)
{
	char *end;
	long v;

	sp->raw_len = 0;
	while (*s) {
		if (sp->raw_len == SPEC_MAX)
			return -E2BIG;
		v = strtol(s, &end, 10);
		if (end == s || v < 0 || v > INT32_MAX || (*end && *end != ':'))
			return -EINVAL;
		sp->raw[sp->raw_len++] = (int)v;
		s = *end ? end + 1 : end;
	}
	return sp->raw_len ? 0 : -EINVAL;
}

static bool is_flex(const struct btf *btf, const struct acc *prev,
		    const struct btf_array *a)
{
	const struct btf_type *t;

	if (!prev->name || a->nelems)
		return false;
	t = btf__type_by_id(btf, prev->type_id);
	return t && prev->idx == (uint32_t)btf_vlen(t) - 1;
}

static int push_acc(struct spec *sp, uint32_t id, uint32_t idx,
		    const char *name)
{
	if (sp->len == SPEC_MAX)
		return -E2BIG;
	sp->acc[sp->len++] = (struct acc){ id, idx, name };
	return 0;
}

static int parse_enum_spec(struct spec *sp, uint32_t type_id)
{
	const struct btf_type *t = skip(sp->btf, type_id, &type_id);
	uint32_t idx = (uint32_t)sp->raw[0];
	uint32_t name_off;

	if (!t || !is_any_enum(t) || sp->raw_len != 1 ||
	    idx >= (uint32_t)btf_vlen(t))
		return -EINVAL;
	name_off = btf_is_enum(t) ? btf_enum(t)[idx].name_off :
				    btf_enum64(t)[idx].name_off;
	return push_acc(sp, type_id, idx, name_of(sp->btf, name_off));
}

/*
 * Adds @idx elements of @sz bytes to the bit offset @bit_off; true when
 * the offset would not fit in 32 bits (an access string's index times a type
 * size from the object's BTF may be anything).
 */
static bool add_bits(uint32_t *bit_off, uint64_t idx, long long sz)
{
	uint64_t bits;

	if (idx && (uint64_t)sz > UINT32_MAX / 8 / idx)
		return true;
	bits = idx * (uint64_t)sz * 8 + *bit_off;
	if (bits > UINT32_MAX)
		return true;
	*bit_off = (uint32_t)bits;
	return false;
}

/* One step of a field access below the root: a member or an index. */
static int parse_step(struct spec *sp, uint32_t *id, int raw)
{
	const struct btf_type *t = skip(sp->btf, *id, id);
	long long sz;

	if (!t)
		return -EINVAL;
	if (btf_is_composite(t)) {
		const struct btf_member *m = btf_members(t) + raw;
		uint32_t sid = *id;
		const char *name;

		if (raw >= btf_vlen(t))
			return -EINVAL;
		if ((uint64_t)sp->bit_off + btf_member_bit_offset(t, raw) >
		    UINT32_MAX)
			return -EINVAL;
		sp->bit_off += btf_member_bit_offset(t, raw);
		name = name_of(sp->btf, m->name_off);
		*id = m->type;
		/* Anonymous members are walked but not matched by name. */
		return name[0] ? push_acc(sp, sid, (uint32_t)raw, name) : 0;
	}
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);

		if (!skip(sp->btf, a->type, id))
			return -EINVAL;
		if (!is_flex(sp->btf, &sp->acc[sp->len - 1], a) &&
		    (uint32_t)raw >= a->nelems)
			return -EINVAL;
		sz = btf__resolve_size(sp->btf, *id);
		if (sz < 0 || add_bits(&sp->bit_off, (uint64_t)raw, sz))
			return -EINVAL;
		return push_acc(sp, *id, (uint32_t)raw, NULL);
	}
	return -EINVAL;
}

static int parse_field_spec(struct spec *sp, uint32_t id)
{
	long long sz;
	int i, ret;

	if (!skip(sp->btf, id, &id))
		return -EINVAL;
	sz = btf__resolve_size(sp->btf, id);
	sp->bit_off = 0;
	if (sz < 0 || add_bits(&sp->bit_off, (uint64_t)sp->raw[0], sz))
		return -EINVAL;
	ret = push_acc(sp, id, (uint32_t)sp->raw[0], NULL);
	for (i = 1; !ret && i < sp->raw_len; i++)
		ret = parse_step(sp, &id, sp->raw[i]);
	return ret;
}

static int parse_spec(const struct btf *btf, const struct hr_core_rec *rec,
		      struct spec *sp)
{
	int ret;

	memset(sp, 0, sizeof(*sp));
	sp->btf = btf;
	sp->root_id = rec->type_id;
	sp->kind = rec->kind;
	if (!btf__type_by_id(btf, rec->type_id) || rec->kind >= HR_CORE__MAX)
		return -EINVAL;
	ret = parse_raw(rec->access, sp);
	if (ret)
		return ret;
	if (is_type_kind(rec->kind))
		return sp->raw_len == 1 && sp->raw[0] == 0 ? 0 : -EINVAL;
	if (is_enum_kind(rec->kind))
		return parse_enum_spec(sp, rec->type_id);
	return parse_field_spec(sp, rec->type_id);
}

/* ---- compatibility ---- */

static int fields_compat(const struct btf *lb, uint32_t lid,
			 const struct btf *tb, uint32_t tid, int depth)
{
	const struct btf_type *lt, *tt;

	if (depth > COMPAT_DEPTH)
		return -ELOOP;
	lt = skip(lb, lid, &lid);
	tt = skip(tb, tid, &tid);
	if (!lt || !tt)
		return -EINVAL;
	if (btf_is_composite(lt) && btf_is_composite(tt))
		return 1;
	if (btf_kind(lt) != btf_kind(tt))
		return is_any_enum(lt) && is_any_enum(tt);
	switch (btf_kind(lt)) {
	case BTF_KIND_PTR:
	case BTF_KIND_FLOAT:
		return 1;
	case BTF_KIND_FWD:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return names_match(name_of(lb, lt->name_off),
				   name_of(tb, tt->name_off));
	case BTF_KIND_INT:
		/* Old bitfield-in-int encodings are refused. */
		return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
	case BTF_KIND_ARRAY:
		return fields_compat(lb, btf_array(lt)->type, tb,
				     btf_array(tt)->type, depth + 1);
	default:
		return 0;
	}
}

static int types_compat(const struct btf *lb, uint32_t lid,
			const struct btf *tb, uint32_t tid, int depth)
{
	const struct btf_type *lt, *tt;
	int i, ret;

	if (depth > COMPAT_DEPTH)
		return -ELOOP;
	lt = skip(lb, lid, NULL);
	tt = skip(tb, tid, NULL);
	if (!lt || !tt)
		return -EINVAL;
	if (btf_kind(lt) != btf_kind(tt))
		return is_any_enum(lt) && is_any_enum(tt);
	switch (btf_kind(lt)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
	case BTF_KIND_FLOAT:
		return 1;
	case BTF_KIND_INT:
		return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
	case BTF_KIND_PTR:
		return types_compat(lb, lt->type, tb, tt->type, depth + 1);
	case BTF_KIND_ARRAY:
		return types_compat(lb, btf_array(lt)->type, tb,
				    btf_array(tt)->type, depth + 1);
	case BTF_KIND_FUNC_PROTO:
		if (btf_vlen(lt) != btf_vlen(tt))
			return 0;
		for (i = 0; i < btf_vlen(lt); i++) {
			ret = types_compat(lb, btf_params(lt)[i].type, tb,
					   btf_params(tt)[i].type, depth + 1);
			if (ret <= 0)
				return ret;
		}
		return types_compat(lb, lt->type, tb, tt->type, depth + 1);
	default:
		return 0;
	}
}

static int types_match(const struct btf *lb, uint32_t lid, const struct btf *tb,
		       uint32_t tid, bool behind_ptr, int depth);

/* Every local member exists in the target by name, of a matching type. */
static int members_match(const struct btf *lb, const struct btf_type *lt,
			 const struct btf *tb, const struct btf_type *tt,
			 int depth)
{
	const struct btf_member *lm = btf_members(lt), *tm;
	int i, j, ret;

	if (btf_vlen(lt) > btf_vlen(tt))
		return 0;
	for (i = 0; i < btf_vlen(lt); i++, lm++) {
		const char *ln = name_of(lb, lm->name_off);

		tm = btf_members(tt);
		for (j = 0; j < btf_vlen(tt); j++, tm++)
			if (!strcmp(ln, name_of(tb, tm->name_off)))
				break;
		if (j == btf_vlen(tt))
			return 0;
		ret = types_match(lb, lm->type, tb, tm->type, false, depth + 1);
		if (ret <= 0)
			return ret;
	}
	return 1;
}

static int enums_match(const struct btf *lb, const struct btf_type *lt,
		       const struct btf *tb, const struct btf_type *tt)
{
	int i, j;

	if (lt->size != tt->size)
		return 0;
	for (i = 0; i < btf_vlen(lt); i++) {
		uint32_t lo = btf_is_enum(lt) ? btf_enum(lt)[i].name_off :
						btf_enum64(lt)[i].name_off;

		for (j = 0; j < btf_vlen(tt); j++) {
			uint32_t to = btf_is_enum(tt) ?
					      btf_enum(tt)[j].name_off :
					      btf_enum64(tt)[j].name_off;

			if (names_match(name_of(lb, lo), name_of(tb, to)))
				break;
		}
		if (j == btf_vlen(tt))
			return 0;
	}
	return 1;
}

/* TYPE_MATCHES: stricter than compatibility (libbpf's types_match). */
static int types_match(const struct btf *lb, uint32_t lid, const struct btf *tb,
		       uint32_t tid, bool behind_ptr, int depth)
{
	const struct btf_type *lt, *tt;
	const char *ln, *tn;
	int i, ret;

	if (depth > COMPAT_DEPTH)
		return -ELOOP;
	lt = skip(lb, lid, NULL);
	tt = skip(tb, tid, NULL);
	if (!lt || !tt)
		return -EINVAL;
	ln = name_of(lb, lt->name_off);
	tn = name_of(tb, tt->name_off);
	if ((ln[0] || tn[0]) && !names_match(ln, tn))
		return 0;
	if (btf_kind(lt) != btf_kind(tt)) {
		if (is_any_enum(lt) && is_any_enum(tt))
			return enums_match(lb, lt, tb, tt);
		/* A declaration matches its definition by name. */
		return btf_is_fwd(lt) || btf_is_fwd(tt) ?
			       ln[0] && names_match(ln, tn) :
			       0;
	}
	switch (btf_kind(lt)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return behind_ptr ? 1 : members_match(lb, lt, tb, tt, depth);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return enums_match(lb, lt, tb, tt);
	case BTF_KIND_FWD:
		return btf_kflag(lt) == btf_kflag(tt);
	case BTF_KIND_INT:
		return lt->size == tt->size &&
		       (btf_int_encoding(lt) & BTF_INT_SIGNED) ==
			       (btf_int_encoding(tt) & BTF_INT_SIGNED);
	case BTF_KIND_FLOAT:
		return lt->size == tt->size;
	case BTF_KIND_PTR:
		return types_match(lb, lt->type, tb, tt->type, true, depth + 1);
	case BTF_KIND_ARRAY:
		if (btf_array(lt)->nelems != btf_array(tt)->nelems)
			return 0;
		return types_match(lb, btf_array(lt)->type, tb,
				   btf_array(tt)->type, behind_ptr, depth + 1);
	case BTF_KIND_FUNC_PROTO:
		if (btf_vlen(lt) != btf_vlen(tt))
			return 0;
		for (i = 0; i < btf_vlen(lt); i++) {
			ret = types_match(lb, btf_params(lt)[i].type, tb,
					  btf_params(tt)[i].type, behind_ptr,
					  depth + 1);
			if (ret <= 0)
				return ret;
		}
		return types_match(lb, lt->type, tb, tt->type, behind_ptr,
				   depth + 1);
	default:
		return 0;
	}
}

/* ---- matching a candidate ---- */

/* Finds local member @la in target composite @tid, through anonymous
 * members; appends its accessor and returns 1, 0 when absent. */
static int match_member(const struct spec *ls, const struct acc *la,
			struct spec *ts, uint32_t tid, uint32_t *next,
			int depth)
{
	const struct btf_type *lt = btf__type_by_id(ls->btf, la->type_id);
	const struct btf_member *lm = btf_members(lt) + la->idx, *tm;
	const struct btf_type *tt = skip(ts->btf, tid, &tid);
	int i, ret;

	if (depth > COMPAT_DEPTH)
		return -ELOOP;
	if (!tt || !btf_is_composite(tt))
		return 0;
	tm = btf_members(tt);
	for (i = 0; i < btf_vlen(tt); i++, tm++) {
		uint32_t bit = btf_member_bit_offset(tt, i);
		const char *tn = name_of(ts->btf, tm->name_off);

		if (ts->raw_len == SPEC_MAX)
			return -E2BIG;
		ts->bit_off += bit;
		ts->raw[ts->raw_len++] = i;
		if (!tn[0]) {
			ret = match_member(ls, la, ts, tm->type, next,
					   depth + 1);
			if (ret)
				return ret;
		} else if (!strcmp(la->name, tn)) {
			ret = fields_compat(ls->btf, lm->type, ts->btf,
					    tm->type, 0);
			if (ret <= 0)
				return ret;
			ret = push_acc(ts, tid, (uint32_t)i, tn);
			if (ret)
				return ret;
			*next = tm->type;
			return 1;
		}
		ts->bit_off -= bit;
		ts->raw_len--;
	}
	return 0;
}

static int match_index(const struct spec *ls, int i, struct spec *ts,
		       uint32_t *tid)
{
	const struct acc *la = &ls->acc[i];
	long long sz;

	if (i > 0) {
		const struct btf_type *tt = skip(ts->btf, *tid, tid);
		const struct btf_array *a;

		if (!tt || !btf_is_array(tt))
			return 0;
		a = btf_array(tt);
		if (!is_flex(ts->btf, &ts->acc[ts->len - 1], a) &&
		    la->idx >= a->nelems)
			return 0;
		if (!skip(ts->btf, a->type, tid))
			return -EINVAL;
	}
	if (ts->raw_len == SPEC_MAX)
		return -E2BIG;
	ts->raw[ts->raw_len++] = (int)la->idx;
	sz = btf__resolve_size(ts->btf, *tid);
	if (sz < 0)
		return (int)sz;
	ts->bit_off += (uint32_t)(la->idx * sz * 8);
	return push_acc(ts, *tid, la->idx, NULL) ?: 1;
}

static int match_enum(const struct spec *ls, struct spec *ts, uint32_t tid)
{
	const struct btf_type *tt = skip(ts->btf, tid, &tid);
	int i;

	if (!tt || !is_any_enum(tt))
		return 0;
	for (i = 0; i < btf_vlen(tt); i++) {
		uint32_t off = btf_is_enum(tt) ? btf_enum(tt)[i].name_off :
						 btf_enum64(tt)[i].name_off;
		const char *n = name_of(ts->btf, off);

		if (names_match(ls->acc[0].name, n)) {
			ts->raw[ts->raw_len++] = i;
			return push_acc(ts, tid, (uint32_t)i, n) ?: 1;
		}
	}
	return 0;
}

/* 1 when the local spec @ls holds for target type @tid (filling @ts),
 * 0 when it does not, -errno on malformed BTF. */
static int spec_match(const struct spec *ls, const struct btf *tb, uint32_t tid,
		      struct spec *ts)
{
	int i, ret;

	memset(ts, 0, sizeof(*ts));
	ts->btf = tb;
	ts->root_id = tid;
	ts->kind = ls->kind;
	if (is_type_kind(ls->kind)) {
		if (ls->kind == HR_CORE_TYPE_MATCHES)
			return types_match(ls->btf, ls->root_id, tb, tid, false,
					   0);
		return types_compat(ls->btf, ls->root_id, tb, tid, 0);
	}
	if (is_enum_kind(ls->kind))
		return match_enum(ls, ts, tid);
	for (i = 0; i < ls->len; i++) {
		if (ls->acc[i].name)
			ret = match_member(ls, &ls->acc[i], ts, tid, &tid, 0);
		else
			ret = match_index(ls, i, ts, &tid);
		if (ret <= 0)
			return ret;
	}
	return 1;
}

/* ---- computing values ---- */

struct calc {
	uint64_t val;
	uint32_t sz; /* field size, for load/store size adjustment */
	uint32_t type_id; /* field type, same */
	bool validate;
	bool poison;
};

static int calc_array_field(const struct spec *sp, const struct acc *a,
			    struct calc *c)
{
	long long sz = btf__resolve_size(sp->btf, a->type_id);

	if (sz < 0)
		return -EINVAL;
	if (sp->kind == HR_CORE_FIELD_BYTE_OFFSET) {
		c->val = sp->bit_off / 8;
		c->sz = (uint32_t)sz;
		c->type_id = a->type_id;
	} else if (sp->kind == HR_CORE_FIELD_BYTE_SIZE) {
		c->val = (uint64_t)sz;
	} else {
		return -EINVAL; /* signedness, shifts: not of an element */
	}
	c->validate = true;
	return 0;
}

static int calc_field(uint32_t kind, const struct spec *sp, struct calc *c)
{
	uint32_t byte_off, byte_sz, bit_off, bit_sz, fid;
	const struct btf_type *t, *mt;
	const struct acc *a;
	long long sz;

	memset(c, 0, sizeof(*c));
	if (kind == HR_CORE_FIELD_EXISTS) {
		c->val = sp != NULL;
		c->validate = true;
		return 0;
	}
	if (!sp) {
		c->poison = true;
		return 0;
	}
	a = &sp->acc[sp->len - 1];
	if (!a->name)
		return calc_array_field(sp, a, c);
	t = btf__type_by_id(sp->btf, a->type_id);
	mt = skip(sp->btf, btf_members(t)[a->idx].type, &fid);
	if (!mt)
		return -EINVAL;
	bit_off = sp->bit_off;
	bit_sz = btf_member_bitfield_size(t, a->idx);
	if (bit_sz) {
		/* The smallest aligned load that holds the whole bitfield. */
		byte_sz = mt->size;
		if (!byte_sz || byte_sz > 8)
			return -EINVAL;
		byte_off = bit_off / 8 / byte_sz * byte_sz;
		while (bit_off + bit_sz - byte_off * 8 > byte_sz * 8) {
			if (byte_sz >= 8)
				return -E2BIG;
			byte_sz *= 2;
			byte_off = bit_off / 8 / byte_sz * byte_sz;
		}
	} else {
		sz = btf__resolve_size(sp->btf, fid);
		if (sz < 0)
			return -EINVAL;
		byte_sz = (uint32_t)sz;
		byte_off = bit_off / 8;
		bit_sz = byte_sz * 8;
	}
	/* Bitfield offsets and sizes may differ from clang's choice. */
	c->validate = !btf_member_bitfield_size(t, a->idx);
	switch (kind) {
	case HR_CORE_FIELD_BYTE_OFFSET:
		c->val = byte_off;
		if (c->validate) {
			c->sz = byte_sz;
			c->type_id = fid;
		}
		break;
	case HR_CORE_FIELD_BYTE_SIZE:
		c->val = byte_sz;
		break;
	case HR_CORE_FIELD_SIGNED:
		c->val = (is_any_enum(mt) && btf_kflag(mt)) ||
			 (btf_is_int(mt) &&
			  (btf_int_encoding(mt) & BTF_INT_SIGNED));
		c->validate = true;
		break;
	case HR_CORE_FIELD_LSHIFT_U64:
		c->val = 64 - (bit_off + bit_sz - byte_off * 8);
		break;
	case HR_CORE_FIELD_RSHIFT_U64:
		c->val = 64 - bit_sz;
		c->validate = true;
		break;
	default:
		return -EOPNOTSUPP;
	}
	return 0;
}

static int calc_type(uint32_t kind, const struct spec *sp, struct calc *c)
{
	long long sz;

	memset(c, 0, sizeof(*c));
	c->validate = true;
	if (!sp)
		return 0; /* a missing type reads as zero, for every kind */
	switch (kind) {
	case HR_CORE_TYPE_ID_TARGET:
		c->val = sp->root_id;
		c->validate = false; /* ids change when objects are linked */
		break;
	case HR_CORE_TYPE_EXISTS:
	case HR_CORE_TYPE_MATCHES:
		c->val = 1;
		break;
	case HR_CORE_TYPE_SIZE:
		sz = btf__resolve_size(sp->btf, sp->root_id);
		if (sz < 0)
			return -EINVAL;
		c->val = (uint64_t)sz;
		break;
	default:
		return -EOPNOTSUPP;
	}
	return 0;
}

static int calc_enum(uint32_t kind, const struct spec *sp, struct calc *c)
{
	const struct btf_type *t;

	memset(c, 0, sizeof(*c));
	c->validate = true;
	if (kind == HR_CORE_ENUMVAL_EXISTS) {
		c->val = sp != NULL;
		return 0;
	}
	if (!sp) {
		c->poison = true;
		return 0;
	}
	t = btf__type_by_id(sp->btf, sp->acc[0].type_id);
	if (btf_is_enum(t))
		c->val = (uint64_t)(int64_t)btf_enum(t)[sp->acc[0].idx].val;
	else
		c->val = btf_enum64_value(btf_enum64(t) + sp->acc[0].idx);
	if (btf_is_enum(t) && !btf_kflag(t))
		c->val = (uint32_t)c->val;
	return 0;
}

static int calc(uint32_t kind, const struct spec *sp, struct calc *c)
{
	if (is_field_kind(kind))
		return calc_field(kind, sp, c);
	if (is_type_kind(kind))
		return calc_type(kind, sp, c);
	return calc_enum(kind, sp, c);
}

/* Loads and stores may change size only for pointers and unsigned ints. */
static bool memsz_ok(const struct btf *lb, uint32_t lid, const struct btf *tb,
		     uint32_t tid)
{
	const struct btf_type *lt = btf__type_by_id(lb, lid);
	const struct btf_type *tt = btf__type_by_id(tb, tid);

	if (!lt || !tt)
		return false;
	if (btf_is_ptr(lt) && btf_is_ptr(tt))
		return true;
	return btf_is_int(lt) && btf_is_int(tt) &&
	       !(btf_int_encoding(lt) & BTF_INT_SIGNED) &&
	       !(btf_int_encoding(tt) & BTF_INT_SIGNED);
}

/* The word libbpf prints for a BTF kind in a relocation's text. */
static const char *kind_word(const struct btf_type *t)
{
	static const char *const words[] = {
		[BTF_KIND_UNKN] = "void",
		[BTF_KIND_INT] = "int",
		[BTF_KIND_PTR] = "ptr",
		[BTF_KIND_ARRAY] = "array",
		[BTF_KIND_STRUCT] = "struct",
		[BTF_KIND_UNION] = "union",
		[BTF_KIND_ENUM] = "enum",
		[BTF_KIND_FWD] = "fwd",
		[BTF_KIND_TYPEDEF] = "typedef",
		[BTF_KIND_VOLATILE] = "volatile",
		[BTF_KIND_CONST] = "const",
		[BTF_KIND_RESTRICT] = "restrict",
		[BTF_KIND_FUNC] = "func",
		[BTF_KIND_FUNC_PROTO] = "func_proto",
		[BTF_KIND_VAR] = "var",
		[BTF_KIND_DATASEC] = "datasec",
		[BTF_KIND_FLOAT] = "float",
		[BTF_KIND_DECL_TAG] = "decl_tag",
		[BTF_KIND_TYPE_TAG] = "type_tag",
		[BTF_KIND_ENUM64] = "enum64",
	};
	uint32_t k = t ? btf_kind(t) : 0;

	return k < sizeof(words) / sizeof(words[0]) && words[k] ? words[k] :
								  "unknown";
}

/* An enumerator's value as libbpf prints it (a 32-bit one sign-extended). */
static uint64_t enum_value(const struct btf_type *t, uint32_t idx)
{
	if (btf_is_enum(t))
		return (uint64_t)(int64_t)btf_enum(t)[idx].val;
	return btf_enum64_value(btf_enum64(t) + idx);
}

/*
 * The local spec in the words libbpf's logs use for it (its
 * bpf_core_format_spec), so that what headroom says of a relocation is
 * what the kernel's log says through libbpf: "<byte_off> [8] struct
 * hdr.b (0:1 @ offset 4)", "<enumval_value> [5] enum e::V = 2",
 * "<type_exists> [9] struct foo".
 */
static void describe(const struct spec *sp, const struct hr_core_rec *rec,
		     char *buf, size_t sz)
{
	const struct btf_type *t = btf__type_by_id(sp->btf, sp->root_id);
	const char *name = t ? name_of(sp->btf, t->name_off) : "";
	size_t n;
	int i;

	n = (size_t)snprintf(buf, sz, "<%s> [%u] %s %s",
			     hr_core_kind_str(rec->kind), sp->root_id,
			     kind_word(t), name[0] ? name : "<anon>");
	if (n >= sz || is_type_kind(rec->kind))
		return;
	if (is_enum_kind(rec->kind)) {
		uint32_t id;
		const struct btf_type *e = skip(sp->btf, sp->root_id, &id);

		if (sp->len > 0 && e && is_any_enum(e) &&
		    sp->acc[0].idx < btf_vlen(e))
			snprintf(buf + n, sz - n, "::%s = %llu",
				 sp->acc[0].name ? sp->acc[0].name : "",
				 (unsigned long long)enum_value(
					 e, sp->acc[0].idx));
		return;
	}
	for (i = 0; n < sz && i < sp->len; i++) {
		const struct acc *a = &sp->acc[i];

		if (a->name)
			n += (size_t)snprintf(buf + n, sz - n, ".%s", a->name);
		else if (i > 0 || a->idx)
			n += (size_t)snprintf(buf + n, sz - n, "[%u]", a->idx);
	}
	for (i = 0; n < sz && i < sp->raw_len; i++)
		n += (size_t)snprintf(buf + n, sz - n, "%s%d", i ? ":" : " (",
				      sp->raw[i]);
	if (n >= sz)
		return;
	if (sp->bit_off % 8)
		snprintf(buf + n, sz - n, " @ offset %u.%u)", sp->bit_off / 8,
			 sp->bit_off % 8);
	else
		snprintf(buf + n, sz - n, " @ offset %u)", sp->bit_off / 8);
}

static void set_res(struct hr_core_res *res, uint32_t kind,
		    const struct calc *lc, const struct calc *tc, bool memsz)
{
	res->kind = kind;
	res->orig = lc->val;
	res->val = tc->val;
	res->validate = lc->validate;
	res->poison = tc->poison;
	res->orig_sz = lc->sz;
	res->new_sz = tc->sz;
	res->fail_memsz = lc->sz != tc->sz && !memsz;
}

/* The local type's candidates in @tb: same kind, same essential name. */
static bool is_cand(const struct btf *lb, const struct btf_type *lt,
		    const struct btf *tb, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(tb, id);

	if (!t || btf_kind(t) != btf_kind(lt))
		return false;
	return names_match(name_of(lb, lt->name_off), name_of(tb, t->name_off));
}

struct resolve {
	const struct btf *lb, *tb;
	const struct hr_core_rec *rec;
	struct spec local, cand, targ;
	struct calc lc, tc;
	int matches;
};

static int try_cand(struct resolve *r, uint32_t id, char *why, size_t whysz)
{
	struct calc c;
	int ret;

	ret = spec_match(&r->local, r->tb, id, &r->cand);
	if (ret <= 0)
		return ret;
	ret = calc(r->rec->kind, &r->cand, &c);
	if (ret) {
		snprintf(why, whysz, "cannot compute target value (%d)", ret);
		return ret;
	}
	if (r->matches && (c.val != r->tc.val || c.poison != r->tc.poison)) {
		snprintf(why, whysz,
			 "ambiguous: candidates [%u] and [%u] give %llu and "
			 "%llu",
			 r->targ.root_id, id, (unsigned long long)r->tc.val,
			 (unsigned long long)c.val);
		return -EINVAL;
	}
	if (!r->matches++) {
		r->tc = c;
		r->targ = r->cand;
	}
	return 0;
}

int hr_core_resolve(const struct btf *local, const struct btf *targ,
		    const struct hr_core_rec *rec, struct hr_core_res *res,
		    char *why, size_t whysz)
{
	struct resolve *r = calloc(1, sizeof(*r));
	const struct btf_type *lt;
	uint32_t id, n;
	int ret;

	if (!r) {
		snprintf(why, whysz, "out of memory");
		return -ENOMEM;
	}
	r->lb = local;
	r->tb = targ;
	r->rec = rec;
	res->insn = rec->insn;
	res->kind = rec->kind;
	ret = parse_spec(local, rec, &r->local);
	if (ret) {
		snprintf(why, whysz, "bad CO-RE access string '%s' (kind %u)",
			 rec->access, rec->kind);
		goto out;
	}
	describe(&r->local, rec, res->desc, sizeof(res->desc));
	/*
	 * The local id needs no candidate and no local value: it is the
	 * record's own type id, not validated against the instruction since
	 * linking objects renumbers the BTF the immediate was compiled for
	 * (libbpf's bpf_core_calc_relo_insn does the same).
	 */
	if (rec->kind == HR_CORE_TYPE_ID_LOCAL) {
		r->lc.val = r->tc.val = rec->type_id;
		r->lc.validate = false;
		set_res(res, rec->kind, &r->lc, &r->tc, true);
		goto out;
	}
	ret = calc(rec->kind, &r->local, &r->lc);
	if (ret) {
		snprintf(why, whysz, "CO-RE relocation %s cannot be computed",
			 res->desc);
		goto out;
	}
	lt = btf__type_by_id(local, rec->type_id);
	if (!name_of(local, lt->name_off)[0]) {
		snprintf(why, whysz,
			 "CO-RE relocation %s: anonymous types "
			 "have no candidates",
			 res->desc);
		ret = -EOPNOTSUPP;
		goto out;
	}
	n = btf__type_cnt(targ);
	for (id = 1; id < n && !ret; id++)
		if (is_cand(local, lt, targ, id))
			ret = try_cand(r, id, why, whysz);
	if (ret < 0)
		goto out;
	ret = 0;
	if (!r->matches)
		ret = calc(rec->kind, NULL, &r->tc);
	if (ret) {
		snprintf(why, whysz, "CO-RE relocation %s failed", res->desc);
		goto out;
	}
	set_res(res, rec->kind, &r->lc, &r->tc,
		!r->matches || r->lc.sz == r->tc.sz ||
			memsz_ok(local, r->lc.type_id, targ, r->tc.type_id));
out:
	free(r);
	return ret;
}

/* ---- patching ---- */

static int size_code(uint32_t bytes)
{
	switch (bytes) {
	case 1:
		return HR_B;
	case 2:
		return HR_H;
	case 4:
		return HR_W;
	case 8:
		return HR_DW;
	default:
		return -1;
	}
}

static int patch_mem(struct hr_insn *insn, const struct hr_core_res *res,
		     char *why, size_t whysz)
{
	int code;

	if (res->validate && (uint64_t)(int64_t)insn->off != res->orig) {
		snprintf(why, whysz, "unexpected offset %d (want %llu)",
			 insn->off, (unsigned long long)res->orig);
		return -EINVAL;
	}
	if (res->val > INT16_MAX) {
		snprintf(why, whysz, "offset %llu too large",
			 (unsigned long long)res->val);
		return -ERANGE;
	}
	if (res->fail_memsz)
		return 1; /* a field read at the wrong size: poison */
	insn->off = (int16_t)res->val;
	if (res->new_sz == res->orig_sz)
		return 0;
	if ((uint32_t)hr_size_bytes(insn->code) != res->orig_sz ||
	    (code = size_code(res->new_sz)) < 0) {
		snprintf(why, whysz, "cannot resize a %u-byte access to %u",
			 (uint32_t)hr_size_bytes(insn->code), res->new_sz);
		return -EINVAL;
	}
	insn->code =
		(uint8_t)(HR_MODE(insn->code) | code | HR_CLASS(insn->code));
	return 0;
}

static int patch_lddw(struct hr_insn *insn, uint32_t room,
		      const struct hr_core_res *res, char *why, size_t whysz)
{
	uint64_t imm;

	if (room < 2 || insn[0].src || insn[0].off || insn[1].code ||
	    insn[1].dst || insn[1].src || insn[1].off) {
		snprintf(why, whysz, "ld_imm64 of an unexpected form");
		return -EINVAL;
	}
	imm = (uint32_t)insn[0].imm | ((uint64_t)(uint32_t)insn[1].imm << 32);
	if (res->validate && imm != res->orig) {
		snprintf(why, whysz, "unexpected value %llu (want %llu)",
			 (unsigned long long)imm,
			 (unsigned long long)res->orig);
		return -EINVAL;
	}
	insn[0].imm = (int32_t)(uint32_t)res->val;
	insn[1].imm = (int32_t)(uint32_t)(res->val >> 32);
	return 0;
}

int hr_core_patch(struct hr_insn *insn, uint32_t room,
		  const struct hr_core_res *res, char *why, size_t whysz)
{
	if (res->poison)
		return 1;
	switch (HR_CLASS(insn->code)) {
	case HR_ALU:
	case HR_ALU64:
		if (HR_SRC(insn->code) != HR_K) {
			snprintf(why, whysz, "ALU with a register operand");
			return -EINVAL;
		}
		if (res->validate &&
		    (uint64_t)(uint32_t)insn->imm != (uint32_t)res->orig) {
			snprintf(why, whysz, "unexpected imm %d (want %llu)",
				 insn->imm, (unsigned long long)res->orig);
			return -EINVAL;
		}
		insn->imm = (int32_t)(uint32_t)res->val;
		return 0;
	case HR_LDX:
	case HR_ST:
	case HR_STX:
		return patch_mem(insn, res, why, whysz);
	default:
		if (hr_insn_is_lddw(insn))
			return patch_lddw(insn, room, res, why, whysz);
		snprintf(why, whysz, "instruction 0x%02x cannot be relocated",
			 insn->code);
		return -EINVAL;
	}
}

/* ---- poisoned instructions ---- */

#define POISON_MAX 4096

static pthread_mutex_t poison_lock = PTHREAD_MUTEX_INITIALIZER;
static char *poison_descs[POISON_MAX];
static atomic_bool poison_told[POISON_MAX];
static uint32_t poison_cnt = 1; /* id 0: unknown */

int32_t hr_core_poison_id(const struct hr_core_res *res)
{
	int32_t id = 0;

	pthread_mutex_lock(&poison_lock);
	if (poison_cnt < POISON_MAX) {
		poison_descs[poison_cnt] = strdup(res->desc);
		if (poison_descs[poison_cnt])
			id = (int32_t)poison_cnt++;
	}
	pthread_mutex_unlock(&poison_lock);
	return id;
}

const char *hr_core_poison_desc(uint64_t id)
{
	const char *d = NULL;

	pthread_mutex_lock(&poison_lock);
	if (id && id < poison_cnt)
		d = poison_descs[id];
	pthread_mutex_unlock(&poison_lock);
	return d ? d : "unknown relocation";
}

uint64_t hr_core_poison_fn(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
			   uint64_t r5, struct hr_run *run)
{
	uint64_t id = 0;

	(void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
	if (run->vm && run->vm->insns && run->pc < run->vm->cnt)
		id = (uint32_t)run->vm->insns[run->pc].imm;
	if (id < POISON_MAX && !atomic_exchange(&poison_told[id], true))
		fprintf(stderr,
			"headroom: insn %u: reached unresolved CO-RE "
			"relocation %s\n",
			run->pc, hr_core_poison_desc(id));
	hr_run_abort(run, HR_ABORT_CORE_POISON, id);
	return 0;
}

/* ---- target BTF ---- */

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

struct targ_cache {
	char *path;
	struct btf *btf;
	struct targ_cache *next;
};

static pthread_mutex_t targ_lock = PTHREAD_MUTEX_INITIALIZER;
static struct targ_cache *targ_list;

static struct btf *targ_open(const char *path, char *why, size_t whysz)
{
	struct btf *btf;

	if (!strcmp(path, "builtin") && access(path, F_OK)) {
		btf = hr_uapi_btf_new();
		if (!btf)
			snprintf(why, whysz, "cannot build headroom's BTF");
		return btf;
	}
	btf = btf__parse(path, NULL);
	if (!btf)
		snprintf(why, whysz, "cannot read target BTF '%s': %s", path,
			 strerror(errno ? errno : EINVAL));
	return btf;
}

const struct btf *hr_core_target_btf(const char *path, char *why, size_t whysz)
{
	struct targ_cache *c;
	struct btf *btf = NULL;

	if (!path)
		path = access(VMLINUX_BTF, R_OK) ? "builtin" : VMLINUX_BTF;
	pthread_mutex_lock(&targ_lock);
	for (c = targ_list; c; c = c->next)
		if (!strcmp(c->path, path))
			break;
	if (c) {
		btf = c->btf;
		goto out;
	}
	btf = targ_open(path, why, whysz);
	c = btf ? calloc(1, sizeof(*c)) : NULL;
	if (c && (c->path = strdup(path))) {
		c->btf = btf;
		c->next = targ_list;
		targ_list = c;
	} else if (btf) {
		free(c);
		btf__free(btf);
		btf = NULL;
		snprintf(why, whysz, "out of memory");
	}
out:
	pthread_mutex_unlock(&targ_lock);
	return btf;
}
