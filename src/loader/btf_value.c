// SPDX-License-Identifier: MIT
/*
 * Typed values from BTF, as text through libbpf's btf_dump__dump_type_data
 * and as json-c objects laid out as bpftool's btf_dumper.c lays out
 * `bpftool map dump -j`. Map key/value type ids follow libbpf's
 * parse_btf_map_def() (".maps"), its legacy "____btf_map_NAME" structs and
 * its global data maps (value type: the section's DATASEC).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <json-c/json.h>

#include "loader/btf_value.h"

int hr_btf_value_open(const char *path, struct btf **btf)
{
	struct btf *b = btf__parse_elf(path, NULL);

	if (!b) {
		*btf = NULL;
		return errno ? -errno : -ENOENT;
	}
	*btf = b;
	return 0;
}

int hr_btf_value_find_type(const struct btf *btf, const char *spec)
{
	static const struct {
		const char *prefix;
		int kind;
	} tagged[] = {
		{ "struct ", BTF_KIND_STRUCT },
		{ "union ", BTF_KIND_UNION },
		{ "enum ", BTF_KIND_ENUM },
	};
	static const int bare[] = { BTF_KIND_TYPEDEF, BTF_KIND_INT,
				    BTF_KIND_STRUCT,  BTF_KIND_UNION,
				    BTF_KIND_ENUM,    BTF_KIND_ENUM64,
				    BTF_KIND_FLOAT };
	size_t i;
	int id;

	while (isspace((unsigned char)*spec))
		spec++;
	for (i = 0; i < sizeof(tagged) / sizeof(tagged[0]); i++) {
		size_t n = strlen(tagged[i].prefix);

		if (strncmp(spec, tagged[i].prefix, n))
			continue;
		spec += n;
		while (isspace((unsigned char)*spec))
			spec++;
		if (!*spec)
			return -EINVAL;
		id = btf__find_by_name_kind(btf, spec, tagged[i].kind);
		/* "enum NAME" may be a 64-bit enum. */
		if (id < 0 && tagged[i].kind == BTF_KIND_ENUM)
			id = btf__find_by_name_kind(btf, spec, BTF_KIND_ENUM64);
		return id < 0 ? -ENOENT : id;
	}
	if (!*spec)
		return -EINVAL;
	for (i = 0; i < sizeof(bare) / sizeof(bare[0]); i++) {
		id = btf__find_by_name_kind(btf, spec, bare[i]);
		if (id > 0)
			return id;
	}
	return -ENOENT;
}

long long hr_btf_value_size(const struct btf *btf, uint32_t id)
{
	return btf__resolve_size(btf, id);
}

static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id,
					uint32_t *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (res_id)
		*res_id = id;
	return t;
}

/* The "key" and "value" members of struct @def: pointers to the types
 * (".maps") or the types themselves (legacy ____btf_map_NAME). */
static void member_types(const struct btf *btf, const struct btf_type *def,
			 bool pointers, uint32_t *key_id, uint32_t *value_id)
{
	const struct btf_member *m = btf_members(def);
	int i;

	for (i = 0; i < btf_vlen(def); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		uint32_t id = m->type;
		uint32_t *dst;

		if (!name)
			continue;
		if (!strcmp(name, "key"))
			dst = key_id;
		else if (!strcmp(name, "value"))
			dst = value_id;
		else
			continue;
		if (pointers) {
			const struct btf_type *p = skip_mods(btf, id, NULL);

			if (!p || !btf_is_ptr(p))
				continue;
			id = p->type;
		}
		*dst = id;
	}
}

static int btf_defined_map(const struct btf *btf, const char *name,
			   uint32_t *key_id, uint32_t *value_id)
{
	const struct btf_var_secinfo *vsi;
	const struct btf_type *ds;
	int id, i;

	id = btf__find_by_name_kind(btf, ".maps", BTF_KIND_DATASEC);
	if (id < 0)
		return -ENOENT;
	ds = btf__type_by_id(btf, id);
	vsi = btf_var_secinfos(ds);
	for (i = 0; i < btf_vlen(ds); i++, vsi++) {
		const struct btf_type *var = btf__type_by_id(btf, vsi->type);
		const struct btf_type *def;
		const char *vname;

		if (!var || !btf_is_var(var))
			continue;
		vname = btf__name_by_offset(btf, var->name_off);
		if (!vname || strcmp(vname, name))
			continue;
		def = skip_mods(btf, var->type, NULL);
		if (def && btf_is_struct(def))
			member_types(btf, def, true, key_id, value_id);
		return 0;
	}
	return -ENOENT;
}

/*
 * A global data map's name is libbpf's internal_map_name(): a prefix of
 * the object name, then the section name, both cut to fit 15 bytes; the
 * section alone when it has a second dot.
 */
static bool data_map_matches(const char *map, const char *sec)
{
	const char *dot = strchr(map, '.');
	size_t n;

	if (!strcmp(map, sec))
		return true;
	if (!dot)
		return false;
	n = strlen(dot);
	if (!strcmp(dot, sec))
		return true;
	/* Cut short: the name fills the kernel's 15 bytes. */
	return strlen(map) == 15 && !strncmp(dot, sec, n);
}

static int data_map(const struct btf *btf, const char *name, uint32_t *value_id)
{
	uint32_t id, n = btf__type_cnt(btf);

	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *sec;

		if (!btf_is_datasec(t))
			continue;
		sec = btf__name_by_offset(btf, t->name_off);
		if (sec && *sec == '.' && strcmp(sec, ".maps") &&
		    data_map_matches(name, sec)) {
			*value_id = id;
			return 0;
		}
	}
	return -ENOENT;
}

int hr_btf_value_map_types(const struct btf *btf, const char *map_name,
			   uint32_t *key_id, uint32_t *value_id)
{
	char legacy[128];
	int id;

	*key_id = *value_id = 0;
	if (!btf_defined_map(btf, map_name, key_id, value_id))
		return 0;
	snprintf(legacy, sizeof(legacy), "____btf_map_%s", map_name);
	id = btf__find_by_name_kind(btf, legacy, BTF_KIND_STRUCT);
	if (id > 0) {
		member_types(btf, btf__type_by_id(btf, id), false, key_id,
			     value_id);
		return 0;
	}
	return data_map(btf, map_name, value_id);
}

/* ---- text, through libbpf ---- */

static void text_printf(void *ctx, const char *fmt, va_list args)
{
	vfprintf(ctx, fmt, args);
}

int hr_btf_value_text(const struct btf *btf, uint32_t id, const void *data,
		      size_t size, unsigned int flags, char **text)
{
	LIBBPF_OPTS(btf_dump_type_data_opts, o,
		    .compact = !(flags & HR_BTF_TEXT_MULTILINE),
		    .emit_zeroes = !(flags & HR_BTF_TEXT_SKIP_ZEROES));
	struct btf_dump *d;
	size_t len = 0;
	FILE *f;
	int ret;

	*text = NULL;
	f = open_memstream(text, &len);
	if (!f)
		return -ENOMEM;
	d = btf_dump__new(btf, text_printf, f, NULL);
	if (!d) {
		ret = -errno;
		fclose(f);
		free(*text);
		*text = NULL;
		return ret ? ret : -ENOMEM;
	}
	ret = btf_dump__dump_type_data(d, id, data, size, &o);
	btf_dump__free(d);
	if (fclose(f) && ret >= 0)
		ret = -ENOMEM;
	if (ret < 0) {
		free(*text);
		*text = NULL;
		return ret;
	}
	return 0;
}

/* ---- JSON, in bpftool's layout ---- */

struct jdump {
	const struct btf *btf;
	const uint8_t *data;
	size_t size;
};

static int jtype(const struct jdump *d, uint32_t id, size_t off,
		 unsigned int bit_off, struct json_object **out);

static bool fits(const struct jdump *d, size_t off, size_t n)
{
	return off <= d->size && n <= d->size - off;
}

/* Bits [@bit_off, @bit_off + @nbits) of the little-endian bytes at @off. */
static int bits_json(const struct jdump *d, size_t off, unsigned int bit_off,
		     unsigned int nbits, struct json_object **out)
{
	unsigned __int128 v = 0;
	unsigned int nbytes, i;
	char buf[40];
	uint64_t hi, lo;

	off += bit_off / 8;
	bit_off %= 8;
	nbytes = (bit_off + nbits + 7) / 8;
	if (nbits > 128 || nbytes > 16 || !fits(d, off, nbytes))
		return -E2BIG;
	for (i = 0; i < nbytes; i++)
		v |= (unsigned __int128)d->data[off + i] << (8 * i);
	v >>= bit_off;
	if (nbits < 128)
		v &= ((unsigned __int128)1 << nbits) - 1;
	hi = (uint64_t)(v >> 64);
	lo = (uint64_t)v;
	/* bpftool prints these as strings: JSON numbers lose past 2^53. */
	if (hi)
		snprintf(buf, sizeof(buf), "0x%llx%016llx",
			 (unsigned long long)hi, (unsigned long long)lo);
	else
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)lo);
	*out = json_object_new_string(buf);
	return *out ? 0 : -ENOMEM;
}

static uint64_t load_uint(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	memcpy(&v, p, n); /* little-endian host, as the BPF target here */
	return v;
}

static int64_t load_sint(const uint8_t *p, unsigned int n)
{
	uint64_t v = load_uint(p, n);
	unsigned int shift = 64 - 8 * n;

	return n == 8 ? (int64_t)v : (int64_t)(v << shift) >> shift;
}

static int char_json(uint8_t c, struct json_object **out)
{
	char buf[3];
	size_t n = 1;

	if (c < 0x80) {
		buf[0] = (char)c;
	} else {
		/* bpftool writes "\u00XX": the same character in UTF-8. */
		buf[0] = (char)(0xc0 | (c >> 6));
		buf[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	}
	*out = json_object_new_string_len(buf, (int)n);
	return *out ? 0 : -ENOMEM;
}

static int int_json(const struct jdump *d, const struct btf_type *t, size_t off,
		    unsigned int bit_off, struct json_object **out)
{
	uint32_t info = *(const uint32_t *)(t + 1);
	unsigned int nbits = BTF_INT_BITS(info), enc = BTF_INT_ENCODING(info);
	unsigned int nbytes = nbits / 8;

	bit_off += BTF_INT_OFFSET(info);
	if (bit_off || nbits % 8 || nbits == 128 ||
	    (nbytes != 1 && nbytes != 2 && nbytes != 4 && nbytes != 8))
		return bits_json(d, off, bit_off, nbits, out);
	if (!fits(d, off, nbytes))
		return -E2BIG;
	if (enc & BTF_INT_BOOL)
		*out = json_object_new_boolean(d->data[off] != 0);
	else if ((enc & BTF_INT_CHAR) && nbytes == 1)
		return char_json(d->data[off], out);
	else if (enc & BTF_INT_SIGNED)
		*out = json_object_new_int64(load_sint(d->data + off, nbytes));
	else
		*out = json_object_new_uint64(load_uint(d->data + off, nbytes));
	return *out ? 0 : -ENOMEM;
}

static int enum_json(const struct jdump *d, const struct btf_type *t,
		     size_t off, struct json_object **out)
{
	unsigned int i, n = btf_vlen(t), sz = t->size;
	bool is64 = btf_is_enum64(t);
	int64_t sv;
	uint64_t v;

	if ((sz != 1 && sz != 2 && sz != 4 && sz != 8) || !fits(d, off, sz))
		return -E2BIG;
	v = load_uint(d->data + off, sz);
	sv = load_sint(d->data + off, sz);
	for (i = 0; i < n; i++) {
		uint64_t ev;
		uint32_t name_off;

		if (is64) {
			ev = btf_enum64_value(btf_enum64(t) + i);
			name_off = btf_enum64(t)[i].name_off;
		} else {
			ev = (uint64_t)(int64_t)btf_enum(t)[i].val;
			name_off = btf_enum(t)[i].name_off;
		}
		/* Compared at the enum's width: a 4-byte 0xffffffff is
		 * the entry -1 and the entry 0xffffffff alike. */
		if (sz < 8)
			ev &= (1ull << (8 * sz)) - 1;
		if (ev == v) {
			*out = json_object_new_string(
				btf__name_by_offset(d->btf, name_off));
			return *out ? 0 : -ENOMEM;
		}
	}
	if (is64 && !btf_kflag(t))
		*out = json_object_new_uint64(v);
	else
		*out = json_object_new_int64(sv);
	return *out ? 0 : -ENOMEM;
}

/* bpftool's is_str_array(): char elements (not through a typedef), a NUL
 * inside the array and only printable bytes before it. */
static bool str_array(const struct jdump *d, const struct btf_array *arr,
		      size_t off)
{
	const struct btf_type *e = btf__type_by_id(d->btf, arr->type);
	const char *name;
	uint32_t i;

	while (e && btf_is_mod(e))
		e = btf__type_by_id(d->btf, e->type);
	if (!arr->nelems || !e || !btf_is_int(e) || e->size != 1)
		return false;
	name = btf__name_by_offset(d->btf, e->name_off);
	if (!(btf_int_encoding(e) & BTF_INT_CHAR) &&
	    (!name || strcmp(name, "char")))
		return false;
	if (!fits(d, off, arr->nelems))
		return false;
	for (i = 0; i < arr->nelems; i++) {
		uint8_t c = d->data[off + i];

		if (!c)
			return true;
		if (c <= 0x1f || c >= 0x7f)
			return false;
	}
	return false;
}

static int array_json(const struct jdump *d, const struct btf_type *t,
		      size_t off, struct json_object **out)
{
	const struct btf_array *arr = btf_array(t);
	struct json_object *a, *e;
	long long esz;
	uint32_t i;
	int ret;

	if (str_array(d, arr, off)) {
		*out = json_object_new_string((const char *)d->data + off);
		return *out ? 0 : -ENOMEM;
	}
	esz = btf__resolve_size(d->btf, arr->type);
	if (esz < 0)
		return (int)esz;
	if (!fits(d, off, (size_t)esz * arr->nelems))
		return -E2BIG;
	a = json_object_new_array_ext((int)arr->nelems);
	if (!a)
		return -ENOMEM;
	for (i = 0; i < arr->nelems; i++) {
		ret = jtype(d, arr->type, off + (size_t)esz * i, 0, &e);
		if (!ret && json_object_array_add(a, e)) {
			json_object_put(e);
			ret = -ENOMEM;
		}
		if (ret) {
			json_object_put(a);
			return ret;
		}
	}
	*out = a;
	return 0;
}

static int add_field(struct json_object *o, const char *name,
		     struct json_object *v)
{
	if (json_object_object_add(o, name, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

/* Members of struct/union @t at @off into @o. An anonymous struct or
 * union member's fields go into @o itself: bpftool would write them all
 * under the key "", which a JSON object cannot hold twice. */
static int members_json(const struct jdump *d, const struct btf_type *t,
			size_t off, struct json_object *o)
{
	const struct btf_member *m = btf_members(t);
	int i, ret = 0;

	for (i = 0; i < btf_vlen(t) && !ret; i++, m++) {
		const char *name = btf__name_by_offset(d->btf, m->name_off);
		uint32_t boff = btf_member_bit_offset(t, i);
		uint32_t bsz = btf_member_bitfield_size(t, i);
		const struct btf_type *mt = skip_mods(d->btf, m->type, NULL);
		struct json_object *v;

		if ((!name || !*name) && mt &&
		    (btf_is_struct(mt) || btf_is_union(mt))) {
			ret = members_json(d, mt, off + boff / 8, o);
			continue;
		}
		if (bsz)
			ret = bits_json(d, off, boff, bsz, &v);
		else
			ret = jtype(d, m->type, off + boff / 8, boff % 8, &v);
		if (!ret)
			ret = add_field(o, name ? name : "", v);
	}
	return ret;
}

static int struct_json(const struct jdump *d, const struct btf_type *t,
		       size_t off, struct json_object **out)
{
	struct json_object *o = json_object_new_object();
	int ret;

	if (!o)
		return -ENOMEM;
	if (!fits(d, off, t->size)) {
		json_object_put(o);
		return -E2BIG;
	}
	ret = members_json(d, t, off, o);
	if (ret) {
		json_object_put(o);
		return ret;
	}
	*out = o;
	return 0;
}

static int var_json(const struct jdump *d, const struct btf_type *t, size_t off,
		    struct json_object **out)
{
	struct json_object *o = json_object_new_object(), *v;
	int ret;

	if (!o)
		return -ENOMEM;
	ret = jtype(d, t->type, off, 0, &v);
	if (!ret)
		ret = add_field(
			o, btf__name_by_offset(d->btf, t->name_off) ?: "", v);
	if (ret) {
		json_object_put(o);
		return ret;
	}
	*out = o;
	return 0;
}

static int datasec_json(const struct jdump *d, const struct btf_type *t,
			size_t off, struct json_object **out)
{
	const struct btf_var_secinfo *vsi = btf_var_secinfos(t);
	struct json_object *o = json_object_new_object(), *a, *v;
	int i, ret = 0;

	a = json_object_new_array();
	if (!o || !a) {
		json_object_put(o);
		json_object_put(a);
		return -ENOMEM;
	}
	for (i = 0; i < btf_vlen(t) && !ret; i++, vsi++) {
		ret = jtype(d, vsi->type, off + vsi->offset, 0, &v);
		if (!ret && json_object_array_add(a, v)) {
			json_object_put(v);
			ret = -ENOMEM;
		}
	}
	if (!ret)
		ret = add_field(
			o, btf__name_by_offset(d->btf, t->name_off) ?: "", a);
	else
		json_object_put(a);
	if (ret) {
		json_object_put(o);
		return ret;
	}
	*out = o;
	return 0;
}

static int jtype(const struct jdump *d, uint32_t id, size_t off,
		 unsigned int bit_off, struct json_object **out)
{
	const struct btf_type *t = skip_mods(d->btf, id, NULL);
	double dv;

	*out = NULL;
	if (!t)
		return -EINVAL;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		return int_json(d, t, off, bit_off, out);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return struct_json(d, t, off, out);
	case BTF_KIND_ARRAY:
		return array_json(d, t, off, out);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return enum_json(d, t, off, out);
	case BTF_KIND_PTR:
		if (!fits(d, off, 8))
			return -E2BIG;
		*out = json_object_new_uint64(load_uint(d->data + off, 8));
		return *out ? 0 : -ENOMEM;
	case BTF_KIND_FLOAT:
		/* bpftool has no floats; a number is what JSON has. */
		if (!fits(d, off, t->size) || (t->size != 4 && t->size != 8))
			return -E2BIG;
		if (t->size == 4) {
			float f;

			memcpy(&f, d->data + off, 4);
			dv = f;
		} else {
			memcpy(&dv, d->data + off, 8);
		}
		*out = json_object_new_double(dv);
		return *out ? 0 : -ENOMEM;
	case BTF_KIND_VAR:
		return var_json(d, t, off, out);
	case BTF_KIND_DATASEC:
		return datasec_json(d, t, off, out);
	default:
		return -EINVAL;
	}
}

int hr_btf_value_json(const struct btf *btf, uint32_t id, const void *data,
		      size_t size, struct json_object **out)
{
	struct jdump d = { .btf = btf, .data = data, .size = size };
	const struct btf_type *t = btf__type_by_id(btf, id);
	long long need;

	*out = NULL;
	if (!t)
		return -EINVAL;
	/* A DATASEC's size is the section's; resolve_size refuses it. */
	need = btf_is_datasec(t) ? (long long)t->size :
				   btf__resolve_size(btf, id);
	if (need < 0)
		return -EINVAL;
	if ((unsigned long long)need > size)
		return -E2BIG;
	return jtype(&d, id, 0, 0, out);
}

struct json_object *hr_btf_value_hex_json(const void *data, size_t size)
{
	struct json_object *a = json_object_new_array_ext((int)size);
	const uint8_t *p = data;
	size_t i;

	if (!a)
		return NULL;
	for (i = 0; i < size; i++) {
		char hex[8];
		struct json_object *s;

		snprintf(hex, sizeof(hex), "0x%02x", p[i]);
		s = json_object_new_string(hex);
		if (!s || json_object_array_add(a, s)) {
			json_object_put(s);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}
