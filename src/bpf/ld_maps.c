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

#include "loader.h"
#include "../maps/map.h"

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

/* Creates a map, adds it to the object and remembers where it is defined. */
static int add_map(struct hr_loader *ld, struct hr_map_attr *attr, uint32_t sec,
		   uint64_t off, struct hr_map **out)
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
	ret = hr_map_create(attr, &map);
	if (ret)
		return create_error(ld, attr->name, attr, ret);
	snprintf(map->name, sizeof(map->name), "%s", attr->name);
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

	if (def_sz < LEGACY_DEF_MIN || sym->value + def_sz > s->size)
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
				   "map '%s': map-in-map not supported yet",
				   sym->name);
	return add_map(ld, &attr, sec, sym->value, NULL);
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

static int btf_map_field(struct hr_loader *ld, const char *map,
			 const struct btf_member *m, struct hr_map_attr *attr)
{
	const char *f = btf__name_by_offset(ld->btf, m->name_off);
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
		return hr_ld_error(ld, -EOPNOTSUPP,
				   "map '%s': map-in-map ('values') not "
				   "supported yet",
				   map);
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
	else if (strcmp(f, "numa_node") && strcmp(f, "pinning") &&
		 strcmp(f, "map_extra"))
		return hr_ld_error(ld, -EOPNOTSUPP,
				   "map '%s': unknown field '%s'", map, f);
	/* numa_node, pinning and map_extra mean nothing here. */
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

static int btf_map(struct hr_loader *ld, uint32_t sec,
		   const struct btf_var_secinfo *vsi)
{
	const struct btf_type *var = btf__type_by_id(ld->btf, vsi->type);
	const struct btf_type *def;
	struct hr_map_attr attr = { 0 };
	const struct btf_member *m;
	uint64_t off = vsi->offset;
	const char *name;
	int i, ret;

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
	attr.name = name;
	m = btf_members(def);
	for (i = 0; i < btf_vlen(def); i++, m++) {
		ret = btf_map_field(ld, name, m, &attr);
		if (ret)
			return ret;
	}
	/* clang may leave DATASEC offsets to the loader: trust the symbol. */
	map_sym_off(ld, sec, name, &off);
	return add_map(ld, &attr, sec, off, NULL);
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
	ret = add_map(ld, &attr, sec, 0, &s->map);
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
	for (i = 1; i < ld->nsecs && !ret; i++) {
		enum hr_ld_kind k = ld->secs[i].kind;

		if (k == HR_SEC_DATA || k == HR_SEC_RODATA || k == HR_SEC_BSS)
			ret = data_map(ld, i);
	}
	return ret;
}
