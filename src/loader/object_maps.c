// SPDX-License-Identifier: MIT
/*
 * The maps of an object: legacy definitions in "maps", BTF-defined maps
 * in ".maps", and one single-entry array per global data section, named
 * and flagged as libbpf names and flags them.
 */
#include <errno.h>
#include <ctype.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "loader/conventions.h"
#include "loader/loader.h"
#include "maps/map.h"
#include "maps/map_registry.h"
#include "progs/prog_registry.h"

#define OBJ_NAME_LEN 16 /* BPF_OBJ_NAME_LEN */

struct hr_map *hr_ld_map_at(const struct hr_loader *ld, uint32_t sec,
			    uint64_t off)
{
	size_t i;

	for (i = 0; i < ld->nlocs; i++)
		if (ld->locs[i].sec == sec && ld->locs[i].off == off)
			return ld->locs[i].map;
	return NULL;
}

static int create_error(struct hr_loader *ld, const char *name,
			const struct hr_map_attr *attr, int err)
{
	const char *tname = hr_map_type_name(attr->type);

	if (err == -ENOMEM)
		return hr_ld_error(ld, err, "map '%s': out of memory", name);
	if (!hr_map_ops_for(attr->type) || err == -EOPNOTSUPP) {
		if (tname)
			return hr_ld_error(
				ld, -EOPNOTSUPP,
				"map '%s': map type %s not supported", name,
				tname);
		return hr_ld_error(ld, -EOPNOTSUPP,
				   "map '%s': unknown map type %u", name,
				   attr->type);
	}
	return hr_ld_error(ld, err,
			   "map '%s': invalid %s (key %u, value %u, "
			   "max_entries %u, flags 0x%x): %s",
			   name, tname ? tname : "map", attr->key_size,
			   attr->value_size, attr->max_entries, attr->map_flags,
			   strerror(-err));
}

/* libbpf's adjust_ringbuf_sz: a ring buffer's size rounded up to a
 * power-of-2 number of pages, as the kernel wants it (a size that is one
 * already, and one no such number reaches, stay). */
static uint32_t ringbuf_size(uint32_t sz)
{
	const uint64_t page = 4096;
	uint64_t s;

	if (sz % page == 0 && !((sz / page) & (sz / page - 1)))
		return sz;
	for (s = page; s <= UINT32_MAX; s <<= 1)
		if (s > sz)
			return (uint32_t)s;
	return sz;
}

/* A declared map's size: the caller's override, else what libbpf fills
 * in for 0 (a CPU count for CPUMAP and PERF_EVENT_ARRAY); a ring buffer's
 * rounded up as libbpf rounds it. */
static int size_map(struct hr_loader *ld, struct hr_map_attr *attr)
{
	int ret = hr_ld_map_size(ld, attr->name, &attr->max_entries);

	if (!ret && attr->max_entries &&
	    (attr->type == HR_MAP_RINGBUF || attr->type == HR_MAP_USER_RINGBUF))
		attr->max_entries = ringbuf_size(attr->max_entries);
	if (ret || attr->max_entries)
		return ret;
	if (attr->type == HR_MAP_CPUMAP ||
	    attr->type == HR_MAP_PERF_EVENT_ARRAY) {
		attr->max_entries = ld->ncpus;
		return 0;
	}
	return hr_ld_error(ld, -EINVAL,
			   "map '%s': max_entries is 0 (size it at load: "
			   "--map-size %s=N)",
			   attr->name, attr->name);
}

/* Creates a map (or takes the pinned one), adds it to the object and
 * remembers where it is defined. */
static int add_map(struct hr_loader *ld, struct hr_map_attr *attr, uint32_t sec,
		   uint64_t off, bool pinned, struct hr_map **out)
{
	struct hr_object *obj = ld->obj;
	struct hr_ld_maploc *locs;
	struct hr_map **maps;
	struct hr_map *map;
	int ret;

	attr->ncpus = ld->ncpus;
	maps = realloc(obj->maps, (obj->nmaps + 1) * sizeof(*maps));
	if (!maps)
		return hr_ld_error(ld, -ENOMEM, "out of memory");
	obj->maps = maps;
	locs = realloc(ld->locs, (ld->nlocs + 1) * sizeof(*locs));
	if (!locs)
		return hr_ld_error(ld, -ENOMEM, "out of memory");
	ld->locs = locs;
	if (pinned) {
		ret = hr_ld_pin_get(ld, attr, hr_map_create, &map);
		if (ret == -EINVAL && ld->err && ld->err[0])
			return ret; /* the mismatch message */
	} else {
		ret = hr_map_create(attr, &map);
	}
	if (ret)
		return create_error(ld, attr->name, attr, ret);
	snprintf(map->name, sizeof(map->name), "%s", attr->name);
	hr_ld_map_timer(ld, map);
	hr_ld_map_lists(ld, map);
	map->index = (int)obj->nmaps;
	obj->maps[obj->nmaps++] = map;
	ld->locs[ld->nlocs++] =
		(struct hr_ld_maploc){ .sec = sec, .off = off, .map = map };
	if (out)
		*out = map;
	return 0;
}

/* ---- legacy "maps" section ---- */

/*
 * struct bpf_map_def is 20 bytes (28 with inner_map_idx and numa_node in
 * some trees); iproute2's struct bpf_elf_map is 36 bytes. All start with
 * type, key size, value size, max entries and flags.
 */
#define LEGACY_DEF_MIN 20
#define ELF_MAP_SIZE 36

static int legacy_map(struct hr_loader *ld, uint32_t sec,
		      const struct hr_ld_sym *sym, uint64_t def_sz)
{
	const struct hr_ld_sec *s = &ld->secs[sec];
	struct hr_map_attr attr = { .name = sym->name };
	uint32_t f[9] = { 0 };
	int ret;

	if (def_sz < LEGACY_DEF_MIN || def_sz > s->size ||
	    sym->value > s->size - def_sz)
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': bad legacy definition "
				   "(%llu bytes at offset %llu)",
				   sym->name, (unsigned long long)def_sz,
				   (unsigned long long)sym->value);
	memcpy(f, s->data + sym->value,
	       def_sz < sizeof(f) ? def_sz : sizeof(f));
	attr.type = f[0];
	attr.key_size = f[1];
	attr.value_size = f[2];
	attr.max_entries = f[3];
	attr.map_flags = f[4];
	/* bpf_elf_map: id, pinning, inner_id, inner_idx; map-in-map only. */
	if (def_sz == ELF_MAP_SIZE && (f[7] || f[8]))
		return hr_ld_error(ld, -EOPNOTSUPP,
				   "map '%s': iproute2 map-in-map (inner_id, "
				   "inner_idx) not supported",
				   sym->name);
	ret = size_map(ld, &attr);
	if (ret)
		return ret;
	/* iproute2 pins PIN_GLOBAL_NS maps by name (tc/globals/NAME). */
	return add_map(ld, &attr, sec, sym->value,
		       def_sz == ELF_MAP_SIZE && f[6] == HR_ELF_PIN_GLOBAL_NS,
		       NULL);
}

static bool is_map_sym(const struct hr_ld_sym *s, uint32_t sec)
{
	return s->shndx == sec && s->type != STT_SECTION &&
	       s->type != STT_FILE && s->name[0];
}

static int legacy_maps(struct hr_loader *ld, uint32_t sec)
{
	size_t i, n = 0;
	uint64_t def_sz;
	int ret;

	for (i = 0; i < ld->nsyms; i++)
		if (is_map_sym(&ld->syms[i], sec))
			n++;
	if (!n)
		return 0;
	for (i = 0; i < ld->nsyms; i++) {
		const struct hr_ld_sym *s = &ld->syms[i];

		if (!is_map_sym(s, sec))
			continue;
		/* Without a symbol size, the definitions share the section. */
		def_sz = s->size ? s->size : ld->secs[sec].size / n;
		ret = legacy_map(ld, sec, s, def_sz);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- BTF-defined maps in ".maps" ---- */

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

/* __uint(name, N) is encoded as `int (*name)[N]`. */
static int field_uint(struct hr_loader *ld, const char *map, const char *f,
		      uint32_t type_id, uint32_t *val)
{
	const struct btf_type *t = skip_mods(ld->btf, type_id, NULL);
	const struct btf_type *arr;

	if (!t || !btf_is_ptr(t))
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': field '%s' is not a pointer "
				   "to an array",
				   map, f);
	arr = skip_mods(ld->btf, t->type, NULL);
	if (!arr || !btf_is_array(arr))
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': field '%s' is not a pointer "
				   "to an array",
				   map, f);
	*val = btf_array(arr)->nelems;
	return 0;
}

/* __type(name, T) is encoded as `T *name`: the size of T. */
static int field_type_size(struct hr_loader *ld, const char *map, const char *f,
			   uint32_t type_id, uint32_t *size)
{
	const struct btf_type *t = skip_mods(ld->btf, type_id, NULL);
	long long sz;

	if (!t || !btf_is_ptr(t))
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': field '%s' is not a pointer", map,
				   f);
	sz = btf__resolve_size(ld->btf, t->type);
	if (sz < 0 || sz > UINT32_MAX)
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': cannot size the '%s' type", map,
				   f);
	*size = (uint32_t)sz;
	return 0;
}

/* A size given both ways (key and key_size) must agree, as libbpf says. */
static int set_size(struct hr_loader *ld, const char *map, const char *f,
		    uint32_t *cur, uint32_t val)
{
	if (*cur && *cur != val)
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': conflicting %s sizes %u and %u",
				   map, f, *cur, val);
	*cur = val;
	return 0;
}

/* What a BTF map definition says beyond the creation attributes. */
struct btf_def {
	struct hr_map_attr attr;
	uint32_t pinning;
	/* __array(values, struct inner): the inner definition's type and
	 * the byte offset of the values array in the outer definition. */
	uint32_t inner_type;
	uint32_t values_off;
	bool has_values;
};

static int btf_def_parse(struct hr_loader *ld, const char *map,
			 const struct btf_type *def, struct btf_def *d);

/* __array(values, T): `T *values[N]`, the inner map's definition. */
static int values_field(struct hr_loader *ld, const char *map,
			const struct btf_member *m, const struct btf_type *def,
			int idx, struct btf_def *d)
{
	const struct btf_type *arr = skip_mods(ld->btf, m->type, NULL);
	const struct btf_type *ptr;

	if (!arr || !btf_is_array(arr))
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': 'values' is not an array", map);
	ptr = skip_mods(ld->btf, btf_array(arr)->type, NULL);
	if (!ptr || !btf_is_ptr(ptr))
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': 'values' is not an array of "
				   "pointers",
				   map);
	skip_mods(ld->btf, ptr->type, &d->inner_type);
	d->values_off = btf_member_bit_offset(def, idx) / 8;
	d->has_values = true;
	return 0;
}

static int btf_map_field(struct hr_loader *ld, const char *map,
			 const struct btf_type *def, int idx, struct btf_def *d)
{
	const struct btf_member *m = btf_members(def) + idx;
	const char *f = btf__name_by_offset(ld->btf, m->name_off);
	struct hr_map_attr *attr = &d->attr;
	uint32_t v = 0;
	int ret;

	if (!f)
		f = "";
	if (strcmp(f, "key") == 0 || strcmp(f, "value") == 0) {
		ret = field_type_size(ld, map, f, m->type, &v);
		if (ret)
			return ret;
		return set_size(
			ld, map, f,
			f[0] == 'k' ? &attr->key_size : &attr->value_size, v);
	}
	if (strcmp(f, "values") == 0)
		return values_field(ld, map, m, def, idx, d);
	ret = field_uint(ld, map, f, m->type, &v);
	if (ret)
		return ret;
	if (strcmp(f, "type") == 0)
		attr->type = v;
	else if (strcmp(f, "max_entries") == 0)
		attr->max_entries = v;
	else if (strcmp(f, "map_flags") == 0)
		attr->map_flags = v;
	else if (strcmp(f, "key_size") == 0)
		return set_size(ld, map, "key", &attr->key_size, v);
	else if (strcmp(f, "value_size") == 0)
		return set_size(ld, map, "value", &attr->value_size, v);
	else if (strcmp(f, "pinning") == 0)
		d->pinning = v;
	else if (strcmp(f, "numa_node") && strcmp(f, "map_extra"))
		return hr_ld_error(ld, -EOPNOTSUPP,
				   "map '%s': unknown field '%s'", map, f);
	/* numa_node and map_extra mean nothing here. */
	return 0;
}

static int btf_def_parse(struct hr_loader *ld, const char *map,
			 const struct btf_type *def, struct btf_def *d)
{
	int i, ret;

	memset(d, 0, sizeof(*d));
	d->attr.name = map;
	for (i = 0; i < btf_vlen(def); i++) {
		ret = btf_map_field(ld, map, def, i, d);
		if (ret)
			return ret;
	}
	if (d->pinning > HR_PIN_BY_NAME)
		return hr_ld_error(ld, -EINVAL, "map '%s': unknown pinning %u",
				   map, d->pinning);
	return 0;
}

/* The template of a map-in-map's inner maps, from its definition. */
static int inner_template(struct hr_loader *ld, const char *map,
			  const struct btf_def *d, struct hr_map **out)
{
	const struct btf_type *def = btf__type_by_id(ld->btf, d->inner_type);
	char name[80];
	struct btf_def in;
	int ret;

	if (!hr_map_ops_for(d->attr.type))
		return hr_ld_error(ld, -EOPNOTSUPP,
				   "map '%s': map type %s not supported", map,
				   hr_map_type_name(d->attr.type) ?: "?");
	if (!def || !btf_is_struct(def))
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': inner map definition is not a "
				   "struct",
				   map);
	snprintf(name, sizeof(name), "%s.inner", map);
	ret = btf_def_parse(ld, name, def, &in);
	if (ret)
		return ret;
	in.attr.ncpus = ld->ncpus;
	ret = hr_map_create(&in.attr, out);
	return ret ? create_error(ld, name, &in.attr, ret) : 0;
}

/* A program array's values are programs: `int (*values[])(void *)`,
 * whose target libbpf wants a function prototype. */
static int prog_values(struct hr_loader *ld, const char *map,
		       const struct btf_def *d)
{
	const struct btf_type *t = btf__type_by_id(ld->btf, d->inner_type);

	if (!t || !btf_is_func_proto(t))
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': prog-array value def is not a "
				   "function prototype",
				   map);
	return 0;
}

/* The offset of map @name in section @sec, from its symbol. */
static int map_sym_off(const struct hr_loader *ld, uint32_t sec,
		       const char *name, uint64_t *off)
{
	size_t i;

	for (i = 0; i < ld->nsyms; i++) {
		const struct hr_ld_sym *s = &ld->syms[i];

		if (s->shndx == sec && strcmp(s->name, name) == 0) {
			*off = s->value;
			return 0;
		}
	}
	return -ENOENT;
}

/* Initial values wait until every map of .maps exists. */
static int add_values(struct hr_loader *ld, uint32_t sec, uint64_t off,
		      struct hr_map *map)
{
	struct hr_ld_values *p;

	p = realloc(ld->values, (ld->nvalues + 1) * sizeof(*p));
	if (!p)
		return hr_ld_error(ld, -ENOMEM, "out of memory");
	ld->values = p;
	ld->values[ld->nvalues++] = (struct hr_ld_values){ sec, off, map };
	return 0;
}

/* The program a relocation of a program array's values names: a program
 * (not a subprogram) starting at the symbol, as libbpf insists. */
static struct hr_prog *values_prog(const struct hr_loader *ld,
				   const struct hr_ld_rel *rel)
{
	const struct hr_ld_sym *sym;
	unsigned int i;

	if (rel->sym >= ld->nsyms)
		return NULL;
	sym = &ld->syms[rel->sym];
	if (sym->type != STT_FUNC || sym->shndx >= ld->nsecs)
		return NULL;
	for (i = 0; i < ld->obj->nprogs; i++) {
		struct hr_prog *p = ld->obj->progs[i];

		if (!strcmp(p->name, sym->name) &&
		    !strcmp(p->sec, ld->secs[sym->shndx].name))
			return p;
	}
	return NULL;
}

/* Whether @rel names a function of a section headroom skips. */
static bool skipped_sym(const struct hr_loader *ld, const struct hr_ld_rel *rel)
{
	uint32_t sec = rel->sym < ld->nsyms ? ld->syms[rel->sym].shndx : 0;

	return sec && sec < ld->nsecs && ld->secs[sec].kind == HR_SEC_SKIPPED;
}

/* The handle slot @i of @v's map takes: the map or the program its
 * relocation @rel names, or -EINVAL. */
static int values_fd(struct hr_loader *ld, const struct hr_ld_values *v,
		     const struct hr_ld_rel *rel, uint32_t i)
{
	struct hr_map *in;
	struct hr_prog *p;

	if (v->map->attr.type == HR_MAP_PROG_ARRAY) {
		p = values_prog(ld, rel);
		/* A program left out (only_prog), refused (inspect) or of a
		 * type headroom does not run leaves its slot empty. */
		if (!p && (ld->only_prog || ld->insp || skipped_sym(ld, rel)))
			return -ENOENT;
		if (!p)
			return hr_ld_error(ld, -EINVAL,
					   "map '%s': values[%u] is not an "
					   "entry-point program",
					   v->map->name, i);
		return hr_prog_fd(p);
	}
	in = rel->sym < ld->nsyms ?
		     hr_ld_map_at(ld, v->sec, ld->syms[rel->sym].value) :
		     NULL;
	if (!in)
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': values[%u] is not a map",
				   v->map->name, i);
	return hr_map_fd(in);
}

/* Each relocation in a values array stores the map or program it
 * names. */
static int fill_values(struct hr_loader *ld, const struct hr_ld_values *v)
{
	const struct hr_ld_sec *s = &ld->secs[v->sec];
	uint32_t slots = v->map->attr.max_entries, i;
	uint32_t t = v->map->attr.type;
	size_t r;
	int fd, ret;

	/* As libbpf: only outer maps and program arrays take initial
	 * values, each a 4-byte key and a 4-byte fd. */
	if (t != HR_MAP_ARRAY_OF_MAPS && t != HR_MAP_HASH_OF_MAPS &&
	    t != HR_MAP_PROG_ARRAY)
		return hr_ld_error(
			ld, -EINVAL,
			"map '%s': initial 'values' need a map-in-map "
			"or prog-array, not type %u",
			v->map->name, t);
	if (v->map->attr.value_size != 4)
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': initial 'values' need 4-byte "
				   "values (value %u)",
				   v->map->name, v->map->attr.value_size);
	for (r = 0; r < s->nrels; r++) {
		const struct hr_ld_rel *rel = &s->rels[r];

		if (rel->off < v->off ||
		    rel->off >= v->off + (uint64_t)slots * 8)
			continue;
		/* libbpf asks a hash of maps for 4-byte keys only when a
		 * slot is filled: Katran's declares 'values' with a struct
		 * key and fills none. */
		if (v->map->attr.key_size != 4)
			return hr_ld_error(ld, -EINVAL,
					   "map '%s': initial 'values' need "
					   "4-byte keys (key %u)",
					   v->map->name, v->map->attr.key_size);
		i = (uint32_t)((rel->off - v->off) / 8);
		fd = values_fd(ld, v, rel, i);
		if (fd == -ENOENT)
			continue;
		if (fd == -EINVAL)
			return fd;
		ret = fd < 0 ?
			      fd :
			      v->map->ops->update_user(v->map, &i, &fd, HR_ANY);
		if (ret)
			return hr_ld_error(ld, ret,
					   "map '%s': cannot store '%s' in "
					   "values[%u]: %s",
					   v->map->name,
					   ld->syms[rel->sym].name, i,
					   strerror(-ret));
	}
	return 0;
}

static int btf_map(struct hr_loader *ld, uint32_t sec,
		   const struct btf_var_secinfo *vsi)
{
	const struct btf_type *var = btf__type_by_id(ld->btf, vsi->type);
	struct hr_map *inner = NULL, *map;
	const struct btf_type *def;
	uint64_t off = vsi->offset;
	struct btf_def d;
	const char *name;
	int ret;

	if (!var || !btf_is_var(var))
		return hr_ld_error(ld, -EINVAL,
				   "section '.maps': entry %u is not a "
				   "variable",
				   vsi->type);
	name = btf__name_by_offset(ld->btf, var->name_off);
	def = skip_mods(ld->btf, var->type, NULL);
	if (!name || !def || !btf_is_struct(def))
		return hr_ld_error(ld, -EINVAL,
				   "map '%s': definition is not a struct",
				   name ? name : "?");
	ret = btf_def_parse(ld, name, def, &d);
	if (!ret)
		ret = size_map(ld, &d.attr);
	if (!ret && d.has_values) {
		/* Values are map or program handles (libbpf sets the size
		 * so). */
		if (!d.attr.value_size)
			d.attr.value_size = 4;
		if (d.attr.type == HR_MAP_PROG_ARRAY)
			ret = prog_values(ld, name, &d);
		else
			ret = inner_template(ld, name, &d, &inner);
		d.attr.inner_map = inner;
	}
	if (ret)
		return ret;
	/* clang may leave DATASEC offsets to the loader: trust the symbol. */
	map_sym_off(ld, sec, name, &off);
	if (off > ld->secs[sec].size || vsi->size > ld->secs[sec].size - off ||
	    (d.has_values && d.values_off > vsi->size))
		ret = hr_ld_error(ld, -EINVAL,
				  "section '.maps': map '%s' at offset %llu "
				  "size %u outside the section (%zu bytes)",
				  name, (unsigned long long)off, vsi->size,
				  ld->secs[sec].size);
	if (ret) {
		hr_map_free(inner);
		return ret;
	}
	ret = add_map(ld, &d.attr, sec, off, d.pinning == HR_PIN_BY_NAME, &map);
	/* The outer map keeps a copy of the template's parameters. */
	hr_map_free(inner);
	if (!ret && d.has_values)
		ret = add_values(ld, sec, off + d.values_off, map);
	return ret;
}

static int btf_maps(struct hr_loader *ld, uint32_t sec)
{
	const struct btf_var_secinfo *vsi;
	const struct btf_type *ds;
	int id, i, ret;

	if (!ld->btf)
		return hr_ld_error(ld, -EINVAL,
				   "section '.maps' needs BTF (compile with "
				   "-g)");
	id = btf__find_by_name_kind(ld->btf, ".maps", BTF_KIND_DATASEC);
	if (id < 0)
		return hr_ld_error(ld, -EINVAL,
				   "section '.maps' has no BTF DATASEC");
	ds = btf__type_by_id(ld->btf, id);
	vsi = btf_var_secinfos(ds);
	for (i = 0; i < btf_vlen(ds); i++, vsi++) {
		ret = btf_map(ld, sec, vsi);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- global data ---- */

/*
 * libbpf's internal_map_name(): up to 8 bytes of the object name and the
 * section name in 15 bytes, the section alone when it has a second dot
 * (".rodata.str1.1"); characters the kernel refuses become '_'.
 */
static void data_map_name(const struct hr_loader *ld, const char *sec,
			  char *out)
{
	size_t sfx = strlen(sec), pfx;
	char *p;

	if (sfx < 7)
		sfx = 7;
	if (sfx > OBJ_NAME_LEN - 1)
		sfx = OBJ_NAME_LEN - 1;
	pfx = strlen(ld->objname);
	if (strchr(sec + 1, '.'))
		pfx = 0;
	else if (pfx > OBJ_NAME_LEN - 1 - sfx)
		pfx = OBJ_NAME_LEN - 1 - sfx;
	snprintf(out, OBJ_NAME_LEN, "%.*s%.*s", (int)pfx, ld->objname, (int)sfx,
		 sec);
	for (p = out; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
			*p = '_';
}

/* libbpf makes a data map mmap()able when a variable in it is global. */
static bool data_mmapable(const struct hr_loader *ld, const char *sec)
{
	const struct btf_var_secinfo *vsi;
	const struct btf_type *ds, *v;
	int id, i;

	if (!ld->btf)
		return false;
	id = btf__find_by_name_kind(ld->btf, sec, BTF_KIND_DATASEC);
	if (id < 0)
		return false;
	ds = btf__type_by_id(ld->btf, id);
	vsi = btf_var_secinfos(ds);
	for (i = 0; i < btf_vlen(ds); i++, vsi++) {
		v = btf__type_by_id(ld->btf, vsi->type);
		if (v && btf_is_var(v) && btf_var(v)->linkage != BTF_VAR_STATIC)
			return true;
	}
	return false;
}

static int data_map(struct hr_loader *ld, uint32_t sec)
{
	struct hr_ld_sec *s = &ld->secs[sec];
	char name[OBJ_NAME_LEN];
	struct hr_map_attr attr = {
		.type = HR_MAP_ARRAY,
		.key_size = 4,
		.value_size = (uint32_t)s->size,
		.max_entries = 1,
		.name = name,
	};
	uint32_t zero = 0;
	int ret;

	if (s->size > UINT32_MAX)
		return hr_ld_error(ld, -E2BIG, "section '%s' too large",
				   s->name);
	data_map_name(ld, s->name, name);
	if (s->kind == HR_SEC_RODATA)
		attr.map_flags |= HR_F_RDONLY_PROG;
	if (data_mmapable(ld, s->name))
		attr.map_flags |= HR_F_MMAPABLE;
	ret = add_map(ld, &attr, sec, 0, false, &s->map);
	if (ret)
		return ret;
	s->map->rdonly_prog = s->kind == HR_SEC_RODATA;
	s->value = s->map->ops->lookup(s->map, &zero, 0);
	if (!s->value)
		return hr_ld_error(ld, -EINVAL, "map '%s': no value for key 0",
				   name);
	/* Array values start zeroed, which is all .bss needs. */
	if (s->data)
		memcpy(s->value, s->data, s->size);
	return 0;
}

int hr_ld_create_maps(struct hr_loader *ld)
{
	uint32_t i;
	int ret = 0;

	for (i = 1; i < ld->nsecs && !ret; i++)
		if (ld->secs[i].kind == HR_SEC_LEGACY_MAPS)
			ret = legacy_maps(ld, i);
	for (i = 1; i < ld->nsecs && !ret; i++)
		if (ld->secs[i].kind == HR_SEC_MAPS)
			ret = btf_maps(ld, i);
	/* A program array's wait for the programs (hr_ld_fill_prog_arrays). */
	for (i = 0; i < ld->nvalues && !ret; i++)
		if (ld->values[i].map->attr.type != HR_MAP_PROG_ARRAY)
			ret = fill_values(ld, &ld->values[i]);
	for (i = 1; i < ld->nsecs && !ret; i++) {
		enum hr_ld_kind k = ld->secs[i].kind;

		if (k == HR_SEC_DATA || k == HR_SEC_RODATA || k == HR_SEC_BSS)
			ret = data_map(ld, i);
	}
	return ret;
}

int hr_ld_fill_prog_arrays(struct hr_loader *ld)
{
	uint32_t i;
	int ret = 0;

	for (i = 0; i < ld->nvalues && !ret; i++)
		if (ld->values[i].map->attr.type == HR_MAP_PROG_ARRAY)
			ret = fill_values(ld, &ld->values[i]);
	return ret;
}
