// SPDX-License-Identifier: MIT
/*
 * Typed data as text, as the kernel's btf_type_show prints it
 * (kernel/bpf/btf.c, Linux 6.18: btf_show_name, btf_show_type_value,
 * the per-kind show operations and btf_type_snprintf_show's sink), for
 * bpf_snprintf_btf. The same state is kept and changed at the same
 * points, so the kernel's quirks come out alike: a zero byte ends a
 * char array, array elements of a struct show their members without
 * names, an array of pointers or of arrays repeats its first element,
 * a member typed const/volatile names no type, and without BTF_F_ZERO
 * an aggregate is walked once silently (depth_check) to learn whether
 * anything in it is non-zero.
 *
 * Where headroom cannot agree: a pointer without BTF_F_PTR_RAW is
 * printed as its value where the kernel prints a hash of it (32 bits,
 * random per boot, zero-padded to the same 16 digits: the length and
 * so the return agree; NULL and error pointers the kernel prints as
 * they are); and the kernel copies the object through a 32-byte window
 * with copy_from_kernel_nofault, reading kernel memory past an object
 * the program's memory does not hold, where headroom ends the run.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "helpers/btf_show.h"
#include "helpers/kctype.h"
#include "vm/vm.h"

#define SHOW_MAX_ITER 10 /* BTF_SHOW_MAX_ITER */
#define SHOW_OBJ_SAFE_SIZE 32 /* BTF_SHOW_OBJ_SAFE_SIZE */
#define SHOW_OBJ_BASE_TYPE_SIZE 16 /* BTF_SHOW_OBJ_BASE_TYPE_SIZE */
#define SHOW_NAME_SIZE 80 /* BTF_SHOW_NAME_SIZE */
#define MAX_RESOLVE_DEPTH 32
#define INT_CHAR (1 << 1) /* BTF_INT_CHAR */
/* Below this the kernel's copy_from_kernel_nofault refuses an address as
 * a user one (-ERANGE), and no program memory of headroom's lies there
 * (mmap_min_addr). */
#define LOW_ADDR 0x10000

struct show {
	uint64_t flags;
	const struct btf *btf;
	struct hr_run *run;
	/* btf_show_snprintf */
	char *target;
	int len_left;
	int len;
	struct {
		uint8_t depth;
		uint8_t depth_to_show;
		uint8_t depth_check;
		uint8_t array_member : 1, array_terminated : 1;
		uint16_t array_encoding;
		uint32_t type_id;
		int status;
		const struct btf_type *type;
		const struct btf_member *member;
		char name[SHOW_NAME_SIZE];
	} state;
	struct {
		uint32_t size;
		uintptr_t head;
		uintptr_t data; /* the start of the 32-byte window */
	} obj;
};

typedef void (*show_fn)(struct show *s, const struct btf_type *t,
			uint32_t type_id, uintptr_t data, uint8_t bits_offset);

static void type_show(struct show *s, const struct btf_type *t,
		      uint32_t type_id, uintptr_t data, uint8_t bits_offset);

static const struct btf_type *by_id(const struct show *s, uint32_t id)
{
	return btf__type_by_id(s->btf, id);
}

static const char *name_of(const struct show *s, uint32_t off)
{
	return btf__name_by_offset(s->btf, off);
}

static bool is_modifier(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return true;
	default:
		return false;
	}
}

/* btf_type_skip_qualifiers: past const, volatile, restrict, type tags. */
static const struct btf_type *skip_qualifiers(const struct show *s, uint32_t id)
{
	const struct btf_type *t = by_id(s, id);

	while (t && is_modifier(t) && btf_kind(t) != BTF_KIND_TYPEDEF)
		t = by_id(s, t->type);
	return t;
}

/* btf_type_id_resolve of a modifier or a var (the kernel's resolved_ids
 * of vmlinux): the first type past every modifier. */
static const struct btf_type *id_resolve(const struct show *s, uint32_t *id)
{
	const struct btf_type *t = by_id(s, *id);

	if (t && btf_kind(t) == BTF_KIND_VAR) {
		*id = t->type;
		t = by_id(s, *id);
	}
	while (t && is_modifier(t)) {
		*id = t->type;
		t = by_id(s, *id);
	}
	return t;
}

/* btf_resolve_size: 0 and the size, or -EINVAL for a type without one. */
static int resolve_size(const struct show *s, const struct btf_type *t,
			uint32_t *size)
{
	uint32_t nelems = 1, sz, i;

	for (i = 0; i < MAX_RESOLVE_DEPTH && t; i++) {
		switch (btf_kind(t)) {
		case BTF_KIND_INT:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_FLOAT:
		case BTF_KIND_ENUM64:
			sz = t->size;
			goto resolved;
		case BTF_KIND_PTR:
			sz = sizeof(void *);
			goto resolved;
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			t = by_id(s, t->type);
			break;
		case BTF_KIND_ARRAY:
			if (nelems &&
			    btf_array(t)->nelems > UINT32_MAX / nelems)
				return -EINVAL;
			nelems *= btf_array(t)->nelems;
			t = by_id(s, btf_array(t)->type);
			break;
		default:
			return -EINVAL;
		}
	}
	return -EINVAL;
resolved:
	if (nelems && sz > UINT32_MAX / nelems)
		return -EINVAL;
	*size = nelems * sz;
	return 0;
}

/* btf_snprintf_show, behind btf_show: nothing while depth_check is set. */
__attribute__((format(printf, 2, 3))) static void out(struct show *s,
						      const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->state.depth_check)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->target, (size_t)s->len_left, fmt, ap);
	va_end(ap);
	if (n < 0) {
		s->len_left = 0;
		s->len = n;
	} else if (n >= s->len_left) {
		s->len_left = 0;
		s->len += n;
	} else {
		s->len_left -= n;
		s->len += n;
		s->target += n;
	}
}

static const char *indent(const struct show *s)
{
	static const char spaces[] = "                                ";
	size_t d = s->state.depth < sizeof(spaces) - 1 ? s->state.depth :
							 sizeof(spaces) - 1;

	return s->flags & HR_BTF_F_COMPACT ? "" :
					     spaces + sizeof(spaces) - 1 - d;
}

static const char *newline(const struct show *s)
{
	return s->flags & HR_BTF_F_COMPACT ? "" : "\n";
}

static const char *delim(const struct show *s)
{
	if (!s->state.depth)
		return "";
	if ((s->flags & HR_BTF_F_COMPACT) && s->state.type &&
	    btf_kind(s->state.type) == BTF_KIND_UNION)
		return "|";
	return ",";
}

/* btf_show_name: "[.member = ](type name)" into state.name. */
static const char *show_name(struct show *s)
{
	static const char arrays[] = "[][][][][][][][][][]";
	static const char ptrs[] = "**********";
	const char *array_suffix = arrays + sizeof(arrays) - 1;
	const char *ptr_suffix = ptrs + sizeof(ptrs) - 1;
	const char *name = NULL, *prefix = "", *parens = "", *member = NULL;
	const struct btf_member *m = s->state.member;
	bool show_member = false, is_typedef = false, is_array = false,
	     is_ptr = false;
	uint32_t id = s->state.type_id;
	const struct btf_type *t;
	int i;

	s->state.name[0] = '\0';
	if (s->state.array_member)
		return "";
	if (m) {
		member = name_of(s, m->name_off);
		show_member = member && *member;
		id = m->type;
	}
	t = by_id(s, id);
	if (!t)
		return "";
	for (i = 0; i < SHOW_MAX_ITER; i++) {
		switch (btf_kind(t)) {
		case BTF_KIND_TYPEDEF:
			if (!name)
				name = name_of(s, t->name_off);
			is_typedef = true;
			id = t->type;
			break;
		case BTF_KIND_ARRAY:
			is_array = true;
			parens = "[";
			if (array_suffix > arrays)
				array_suffix -= 2;
			id = btf_array(t)->type;
			break;
		case BTF_KIND_PTR:
			is_ptr = true;
			if (ptr_suffix > ptrs)
				ptr_suffix -= 1;
			id = t->type;
			break;
		default:
			id = 0;
			break;
		}
		if (!id)
			break;
		t = skip_qualifiers(s, id);
		if (!t)
			return "";
	}
	if (i == SHOW_MAX_ITER)
		return "";
	if (!name)
		name = name_of(s, t->name_off);
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		prefix = btf_kind(t) == BTF_KIND_STRUCT ? "struct" : "union";
		if (!is_array)
			parens = "{";
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		prefix = "enum";
		break;
	default:
		break;
	}
	if (is_ptr)
		parens = "";
	if (is_typedef)
		prefix = "";
	if (!name)
		name = "";
	if (s->flags & HR_BTF_F_NONAME)
		snprintf(s->state.name, sizeof(s->state.name), "%s", parens);
	else
		snprintf(s->state.name, sizeof(s->state.name),
			 "%s%s%s(%s%s%s%s%s%s)%s", show_member ? "." : "",
			 show_member ? member : "", show_member ? " = " : "",
			 prefix, *prefix && *name ? " " : "", name,
			 *ptr_suffix ? " " : "", ptr_suffix, array_suffix,
			 parens);
	return s->state.name;
}

/* btf_show_type_value(s): @val already formatted; @nonzero as the
 * kernel's "(value) != 0" (always true for btf_show_type_values). */
static void show_value(struct show *s, bool nonzero, const char *val)
{
	if (nonzero || (s->flags & HR_BTF_F_ZERO) || !s->state.depth) {
		/* Each argument in the kernel's order: show_name sets
		 * state.name. */
		const char *in = indent(s), *nm = show_name(s);

		out(s, "%s%s%s%s%s", in, nm, val, delim(s), newline(s));
		if (s->state.depth > s->state.depth_to_show)
			s->state.depth_to_show = s->state.depth;
	}
}

__attribute__((format(printf, 3, 4))) static void
show_valuef(struct show *s, bool nonzero, const char *fmt, ...)
{
	char val[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	show_value(s, nonzero, val);
}

/*
 * btf_show_obj_safe: where the data of @t at @data may be read, or 0.
 * At the top the whole object is checked against the program's memory
 * (the kernel copies it in windows of 32 bytes as it goes); below, the
 * window is only followed, for the status each new copy resets.
 */
static uintptr_t obj_safe(struct show *s, const struct btf_type *t,
			  uintptr_t data)
{
	uint32_t size, want;
	int err = resolve_size(s, t, &size);

	if (err) {
		s->state.status = err;
		return 0;
	}
	if (!s->state.depth) {
		s->obj.size = size;
		s->obj.head = data;
		if (data < LOW_ADDR) {
			s->state.status = -ERANGE;
			return 0;
		}
		if (size && !hr_run_mem(s->run, data, size, false)) {
			s->state.status = -EFAULT;
			return 0;
		}
	} else {
		want = size < SHOW_OBJ_BASE_TYPE_SIZE ? size :
							SHOW_OBJ_BASE_TYPE_SIZE;
		if (data >= s->obj.data &&
		    data + want < s->obj.data + SHOW_OBJ_SAFE_SIZE)
			return data;
	}
	s->state.status = 0; /* copy_from_kernel_nofault's answer */
	s->obj.data = data;
	return data;
}

static uintptr_t start_type(struct show *s, const struct btf_type *t,
			    uint32_t type_id, uintptr_t data)
{
	s->state.type = t;
	s->state.type_id = type_id;
	s->state.name[0] = '\0';
	return obj_safe(s, t, data);
}

static void end_type(struct show *s)
{
	s->state.type = NULL;
	s->state.type_id = 0;
	s->state.name[0] = '\0';
}

static uintptr_t start_aggr_type(struct show *s, const struct btf_type *t,
				 uint32_t type_id, uintptr_t data)
{
	uintptr_t safe = start_type(s, t, type_id, data);
	const char *in, *nm;

	if (!safe)
		return 0;
	in = indent(s);
	nm = show_name(s);
	out(s, "%s%s%s", in, nm, newline(s));
	s->state.depth++;
	return safe;
}

static void end_aggr_type(struct show *s, const char *suffix)
{
	s->state.depth--;
	out(s, "%s%s%s%s", indent(s), suffix, delim(s), newline(s));
	end_type(s);
}

static uint64_t load(uintptr_t p, size_t n)
{
	uint64_t v = 0;

	memcpy(&v, (const void *)p, n);
	return v;
}

/* x86-64's shifts, which take the count modulo 64: the kernel's
 * btf_int128_shift shifts by 64 for some widths. */
static uint64_t shl(uint64_t v, unsigned int n)
{
	return v << (n & 63);
}

static uint64_t shr(uint64_t v, unsigned int n)
{
	return v >> (n & 63);
}

/* btf_int128_print, of num[0] low and num[1] high. */
static void int128_print(struct show *s, const uint64_t num[2])
{
	if (!num[1])
		show_valuef(s, num[0] != 0, "0x%llx",
			    (unsigned long long)num[0]);
	else
		show_valuef(s, true, "0x%llx%016llx",
			    (unsigned long long)num[1],
			    (unsigned long long)num[0]);
}

/* btf_bitfield_show: @nr_bits from bit @bits_offset of @data. */
static void bitfield_show(struct show *s, uintptr_t data, uint8_t bits_offset,
			  uint8_t nr_bits)
{
	uint8_t nr_copy_bits = (uint8_t)(nr_bits + bits_offset);
	uint8_t nr_copy_bytes = (uint8_t)((nr_copy_bits + 7) / 8);
	uint16_t left = (uint16_t)(128 - nr_copy_bits);
	uint16_t right = (uint16_t)(128 - nr_bits);
	uint64_t num[2] = { 0, 0 }, lo, hi;

	memcpy(num, (const void *)data, nr_copy_bytes);
	lo = num[0];
	hi = num[1];
	if (left >= 64) {
		hi = shl(lo, left - 64);
		lo = 0;
	} else {
		hi = shl(hi, left) | shr(lo, 64 - left);
		lo = shl(lo, left);
	}
	if (right >= 64) {
		lo = shr(hi, right - 64);
		hi = 0;
	} else {
		lo = shr(lo, right) | shl(hi, 64 - right);
		hi = shr(hi, right);
	}
	num[0] = lo;
	num[1] = hi;
	int128_print(s, num);
}

/* btf_int_bits_show */
static void int_bits_show(struct show *s, const struct btf_type *t,
			  uintptr_t data, uint8_t bits_offset)
{
	uint32_t int_data = *(const uint32_t *)(t + 1);
	uint8_t total = (uint8_t)(bits_offset + BTF_INT_OFFSET(int_data));

	bitfield_show(s, data + total / 8, total % 8,
		      (uint8_t)BTF_INT_BITS(int_data));
}

static void int_show(struct show *s, const struct btf_type *t, uint32_t type_id,
		     uintptr_t data, uint8_t bits_offset)
{
	uint32_t int_data = *(const uint32_t *)(t + 1);
	bool sign = BTF_INT_ENCODING(int_data) & BTF_INT_SIGNED;
	uint8_t nr_bits = (uint8_t)BTF_INT_BITS(int_data);
	uint64_t num[2];
	uintptr_t safe = start_type(s, t, type_id, data);
	uint64_t v;
	char c;

	if (!safe)
		return;
	if (bits_offset || BTF_INT_OFFSET(int_data) || nr_bits % 8) {
		int_bits_show(s, t, safe, bits_offset);
		goto end;
	}
	switch (BTF_INT_BITS(int_data)) {
	case 128:
		memcpy(num, (const void *)safe, sizeof(num));
		int128_print(s, num);
		break;
	case 64:
		v = load(safe, 8);
		if (sign)
			show_valuef(s, v, "%lld", (long long)v);
		else
			show_valuef(s, v, "%llu", (unsigned long long)v);
		break;
	case 32:
		v = load(safe, 4);
		if (sign)
			show_valuef(s, v, "%d", (int32_t)v);
		else
			show_valuef(s, v, "%u", (uint32_t)v);
		break;
	case 16:
		v = load(safe, 2);
		if (sign)
			show_valuef(s, v, "%d", (int16_t)v);
		else
			show_valuef(s, v, "%u", (uint16_t)v);
		break;
	case 8:
		c = (char)load(safe, 1);
		if (s->state.array_encoding == INT_CHAR) {
			if (s->state.array_terminated)
				break;
			if (!c) {
				s->state.array_terminated = 1;
				break;
			}
			if (hr_kisprint((unsigned char)c)) {
				show_valuef(s, true, "'%c'", c);
				break;
			}
		}
		if (sign)
			show_valuef(s, c, "%d", (int8_t)c);
		else
			show_valuef(s, c, "%u", (uint8_t)c);
		break;
	default:
		int_bits_show(s, t, safe, bits_offset);
		break;
	}
end:
	end_type(s);
}

/* btf_modifier_show: the type past every modifier, shown by the
 * modifier's own id (vmlinux BTF has no resolved_ids: the kernel takes
 * btf_type_skip_modifiers, which leaves the id), so a typedef names it. */
static void modifier_show(struct show *s, const struct btf_type *t,
			  uint32_t type_id, uintptr_t data, uint8_t bits_offset)
{
	while (t && is_modifier(t))
		t = by_id(s, t->type);
	if (t)
		type_show(s, t, type_id, data, bits_offset);
}

/* btf_var_show: the variable's type, by that type's id. */
static void var_show(struct show *s, const struct btf_type *t, uint32_t type_id,
		     uintptr_t data, uint8_t bits_offset)
{
	t = id_resolve(s, &type_id);
	if (t)
		type_show(s, t, type_id, data, bits_offset);
}

static void ptr_show(struct show *s, const struct btf_type *t, uint32_t type_id,
		     uintptr_t data, uint8_t bits_offset)
{
	uintptr_t safe = start_type(s, t, type_id, data);
	uint64_t v;

	if (!safe)
		return;
	/* "0x%px", and "0x%p" hashed (see above): 16 digits either way. */
	v = load(safe, 8);
	show_valuef(s, v, "0x%016llx", (unsigned long long)v);
	end_type(s);
}

static void array_body(struct show *s, const struct btf_type *t,
		       uint32_t type_id, uintptr_t data, uint8_t bits_offset)
{
	const struct btf_array *a = btf_array(t);
	uint32_t elem_id = a->type, elem_size = 0, i;
	const struct btf_type *elem;
	uint16_t encoding = 0;

	/* btf_type_skip_modifiers */
	elem = by_id(s, elem_id);
	while (elem && is_modifier(elem))
		elem = by_id(s, elem->type);
	if (elem && (btf_is_int(elem) || btf_is_composite(elem) ||
		     btf_is_any_enum(elem) || btf_is_datasec(elem) ||
		     btf_is_float(elem)))
		elem_size = elem->size;
	if (elem && btf_is_int(elem)) {
		encoding = BTF_INT_ENCODING(*(const uint32_t *)(elem + 1));
		if (elem_size == 1)
			encoding = INT_CHAR;
	}
	s->state.array_encoding = encoding;
	s->state.array_terminated = 0;
	if (!start_aggr_type(s, t, type_id, data))
		return;
	if (elem) {
		for (i = 0; i < a->nelems; i++) {
			s->state.array_member = 1;
			s->state.member = NULL;
			type_show(s, elem, elem_id, data, bits_offset);
			data += elem_size;
			s->state.array_member = 0;
			s->state.member = NULL;
			if (s->state.array_terminated)
				break;
		}
	}
	s->state.array_encoding = 0;
	s->state.array_terminated = 0;
	end_aggr_type(s, "]");
}

static void struct_body(struct show *s, const struct btf_type *t,
			uint32_t type_id, uintptr_t data, uint8_t bits_offset)
{
	const struct btf_member *m = btf_members(t);
	uint32_t i, off, bits;
	uintptr_t safe;

	if (!start_aggr_type(s, t, type_id, data))
		return;
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const struct btf_type *mt = by_id(s, m->type);

		s->state.member = m;
		off = btf_member_bit_offset(t, i);
		bits = btf_member_bitfield_size(t, i);
		if (bits) {
			safe = start_type(s, mt, m->type, data + off / 8);
			if (safe)
				bitfield_show(s, safe, off % 8, (uint8_t)bits);
			end_type(s);
		} else if (mt) {
			type_show(s, mt, m->type, data + off / 8, off % 8);
		}
		s->state.member = NULL;
	}
	end_aggr_type(s, "}");
}

/* btf_struct_show and btf_array_show: below the top and without
 * BTF_F_ZERO, a silent pass first learns whether anything shows. */
static void aggr_show(struct show *s, const struct btf_type *t,
		      uint32_t type_id, uintptr_t data, uint8_t bits_offset,
		      show_fn body)
{
	const struct btf_member *m = s->state.member;

	if (s->state.depth > 0 && !(s->flags & HR_BTF_F_ZERO)) {
		if (!s->state.depth_check) {
			s->state.depth_check = (uint8_t)(s->state.depth + 1);
			s->state.depth_to_show = 0;
		}
		body(s, t, type_id, data, bits_offset);
		s->state.member = m;
		if (s->state.depth_check != s->state.depth + 1)
			return;
		s->state.depth_check = 0;
		if (s->state.depth_to_show <= s->state.depth)
			return;
	}
	body(s, t, type_id, data, bits_offset);
}

static void enum_show(struct show *s, const struct btf_type *t,
		      uint32_t type_id, uintptr_t data, uint8_t bits_offset)
{
	const struct btf_enum *e = btf_enum(t);
	uintptr_t safe = start_type(s, t, type_id, data);
	uint32_t i, n;
	int32_t v;

	if (!safe)
		return;
	/* The kernel reads an int whatever the enum's size: bytes past
	 * the object are its copy's, headroom's are 0. */
	n = (uint32_t)(s->obj.head + s->obj.size - safe);
	v = (int32_t)load(safe, n < 4 ? n : 4);
	for (i = 0; i < btf_vlen(t); i++) {
		if (v != e[i].val)
			continue;
		show_valuef(s, true, "%s", name_of(s, e[i].name_off));
		end_type(s);
		return;
	}
	if (btf_kflag(t))
		show_valuef(s, v, "%d", v);
	else
		show_valuef(s, v, "%u", (uint32_t)v);
	end_type(s);
}

static void enum64_show(struct show *s, const struct btf_type *t,
			uint32_t type_id, uintptr_t data, uint8_t bits_offset)
{
	const struct btf_enum64 *e = btf_enum64(t);
	uintptr_t safe = start_type(s, t, type_id, data);
	uint32_t i;
	uint64_t v;

	if (!safe)
		return;
	v = load(safe, 8);
	for (i = 0; i < btf_vlen(t); i++) {
		if (v != btf_enum64_value(&e[i]))
			continue;
		show_valuef(s, true, "%s", name_of(s, e[i].name_off));
		end_type(s);
		return;
	}
	if (btf_kflag(t))
		show_valuef(s, v, "%lld", (long long)v);
	else
		show_valuef(s, v, "%llu", (unsigned long long)v);
	end_type(s);
}

/* btf_datasec_show: its start fails (a section has no size the kernel
 * resolves), so nothing but the status. */
static void datasec_show(struct show *s, const struct btf_type *t,
			 uint32_t type_id, uintptr_t data, uint8_t bits_offset)
{
	const struct btf_var_secinfo *v = btf_var_secinfos(t);
	uint32_t i;

	if (!start_type(s, t, type_id, data))
		return;
	show_valuef(s, true, "section (\"%s\") = {", name_of(s, t->name_off));
	for (i = 0; i < btf_vlen(t); i++, v++) {
		const struct btf_type *var = by_id(s, v->type);

		if (i)
			out(s, ",");
		if (var)
			type_show(s, var, v->type, data + v->offset,
				  bits_offset);
	}
	end_type(s);
}

/* The kind's show operation (kind_ops[]->show); btf_df_show for the
 * kinds without one. */
static void type_show(struct show *s, const struct btf_type *t,
		      uint32_t type_id, uintptr_t data, uint8_t bits_offset)
{
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		int_show(s, t, type_id, data, bits_offset);
		break;
	case BTF_KIND_PTR:
		ptr_show(s, t, type_id, data, bits_offset);
		break;
	case BTF_KIND_ARRAY:
		aggr_show(s, t, type_id, data, bits_offset, array_body);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		aggr_show(s, t, type_id, data, bits_offset, struct_body);
		break;
	case BTF_KIND_ENUM:
		enum_show(s, t, type_id, data, bits_offset);
		break;
	case BTF_KIND_ENUM64:
		enum64_show(s, t, type_id, data, bits_offset);
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		modifier_show(s, t, type_id, data, bits_offset);
		break;
	case BTF_KIND_VAR:
		var_show(s, t, type_id, data, bits_offset);
		break;
	case BTF_KIND_DATASEC:
		datasec_show(s, t, type_id, data, bits_offset);
		break;
	default:
		out(s, "<unsupported kind:%u>", btf_kind(t));
		break;
	}
}

int hr_btf_snprintf_show(const struct btf *btf, uint32_t type_id, uint64_t obj,
			 char *buf, int len, uint64_t flags, struct hr_run *run)
{
	struct show s = {
		.flags = flags,
		.btf = btf,
		.run = run,
		.target = buf,
		.len_left = len,
	};
	const struct btf_type *t = btf__type_by_id(btf, type_id);

	if (!t)
		return -ENOENT;
	type_show(&s, t, type_id, (uintptr_t)obj, 0);
	if (s.state.status)
		return s.state.status;
	return s.len;
}
