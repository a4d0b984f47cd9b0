// SPDX-License-Identifier: MIT
/*
 * libbpf's loader conventions: map sizes set before load
 * (bpf_map__set_max_entries), maps pinned by name shared between objects
 * (LIBBPF_PIN_BY_NAME, here a process-wide store in place of bpffs), and
 * global variables set before load, as a generated skeleton sets its
 * `const volatile` configuration in .rodata.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include <headroom/object.h>

#include "loader/conventions.h"
#include "loader/loader.h"
#include "maps/map.h"

/* "NAME=REST": true when @arg's name is @name; *rest after the '='. */
static bool arg_is(const char *arg, const char *name, const char **rest)
{
	const char *eq = strchr(arg, '=');

	if (!eq || (size_t)(eq - arg) != strlen(name) ||
	    strncmp(arg, name, (size_t)(eq - arg)))
		return false;
	*rest = eq + 1;
	return true;
}

static int parse_u32(const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || end == s || *end || x > UINT32_MAX || s[0] == '-')
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

int hr_ld_map_size(struct hr_loader *ld, const char *name, uint32_t *size)
{
	const char *rest;
	size_t i;

	for (i = 0; i < ld->nmap_sizes; i++) {
		if (!arg_is(ld->map_sizes[i], name, &rest))
			continue;
		if (parse_u32(rest, size) || !*size)
			return hr_ld_error(ld, -EINVAL,
					   "map '%s': bad size '%s' (want a "
					   "positive number)",
					   name, rest);
	}
	return 0;
}

/* Whether the object defines a map @name (before the maps exist). */
static bool has_map_sym(const struct hr_loader *ld, const char *name)
{
	size_t i;

	for (i = 0; i < ld->nsyms; i++) {
		const struct hr_ld_sym *s = &ld->syms[i];
		enum hr_ld_kind k;

		if (s->shndx == 0 || s->shndx >= ld->nsecs)
			continue;
		k = ld->secs[s->shndx].kind;
		if ((k == HR_SEC_MAPS || k == HR_SEC_LEGACY_MAPS) &&
		    !strcmp(s->name, name))
			return true;
	}
	return false;
}

int hr_ld_check_map_sizes(struct hr_loader *ld)
{
	const char *eq;
	size_t i;

	for (i = 0; i < ld->nmap_sizes; i++) {
		const char *a = ld->map_sizes[i];
		char name[64];

		eq = strchr(a, '=');
		if (!eq || eq == a || (size_t)(eq - a) >= sizeof(name))
			return hr_ld_error(ld, -EINVAL,
					   "map size '%s': want NAME=N", a);
		snprintf(name, sizeof(name), "%.*s", (int)(eq - a), a);
		if (!has_map_sym(ld, name))
			return hr_ld_error(ld, -ENOENT,
					   "map size '%s': no map '%s'", a,
					   name);
	}
	return 0;
}

/* ---- global variables ---- */

struct gvar {
	const struct hr_ld_sec *sec;
	uint32_t off, size;
	const char *type_name;
};

static void sym_off(const struct hr_loader *ld, uint32_t sec, const char *name,
		    uint32_t *off)
{
	size_t i;

	for (i = 0; i < ld->nsyms; i++)
		if (ld->syms[i].shndx == sec &&
		    !strcmp(ld->syms[i].name, name)) {
			*off = (uint32_t)ld->syms[i].value;
			return;
		}
}

/* Variable @name in a global data section's DATASEC, or -ENOENT. */
static int find_gvar(const struct hr_loader *ld, const char *name,
		     struct gvar *g)
{
	const struct btf_var_secinfo *vsi;
	const struct btf_type *ds, *v;
	size_t i;
	int id, k;

	if (!ld->btf)
		return -ENOENT;
	for (i = 1; i < ld->nsecs; i++) {
		const struct hr_ld_sec *s = &ld->secs[i];

		if (s->kind != HR_SEC_DATA && s->kind != HR_SEC_RODATA &&
		    s->kind != HR_SEC_BSS)
			continue;
		id = btf__find_by_name_kind(ld->btf, s->name, BTF_KIND_DATASEC);
		if (id < 0)
			continue;
		ds = btf__type_by_id(ld->btf, id);
		vsi = btf_var_secinfos(ds);
		for (k = 0; k < btf_vlen(ds); k++, vsi++) {
			v = btf__type_by_id(ld->btf, vsi->type);
			if (!v || !btf_is_var(v) ||
			    strcmp(btf__name_by_offset(ld->btf, v->name_off),
				   name))
				continue;
			g->sec = s;
			g->off = vsi->offset;
			g->size = vsi->size;
			/* clang leaves DATASEC offsets to the loader, as
			 * libbpf fixes them up: the symbol knows. */
			sym_off(ld, (uint32_t)i, name, &g->off);
			return 0;
		}
	}
	return -ENOENT;
}

/* Decimal (signed or not) or 0x hex, within @size bytes. */
static int parse_value(const char *s, uint32_t size, uint64_t *v)
{
	char *end;

	errno = 0;
	if (s[0] == '-') {
		long long x = strtoll(s, &end, 0);

		if (errno || end == s || *end)
			return -EINVAL;
		if (size < 8 && (x < -(1LL << (size * 8 - 1))))
			return -ERANGE;
		*v = (uint64_t)x;
		return 0;
	}
	*v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return -EINVAL;
	if (size < 8 && *v >> (size * 8))
		return -ERANGE;
	return 0;
}

static int set_global(struct hr_loader *ld, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct gvar g = { 0 };
	char name[128];
	uint64_t v;
	int ret;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(name))
		return hr_ld_error(ld, -EINVAL, "global '%s': want NAME=VALUE",
				   arg);
	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
	if (find_gvar(ld, name, &g))
		return hr_ld_error(ld, -ENOENT,
				   "global '%s': no variable '%s' in .rodata, "
				   ".data or .bss",
				   arg, name);
	if (g.size != 1 && g.size != 2 && g.size != 4 && g.size != 8)
		return hr_ld_error(ld, -EINVAL,
				   "global '%s': '%s' is %u bytes, not an "
				   "integer",
				   arg, name, g.size);
	ret = parse_value(eq + 1, g.size, &v);
	if (ret)
		return hr_ld_error(ld, ret,
				   "global '%s': '%s' is not a value for "
				   "%u-byte '%s'",
				   arg, eq + 1, g.size, name);
	if (!g.sec->value || (uint64_t)g.off + g.size > g.sec->size)
		return hr_ld_error(ld, -EINVAL,
				   "global '%s': outside section '%s'", arg,
				   g.sec->name);
	/* Little-endian host: the low bytes of @v are the value. */
	memcpy(g.sec->value + g.off, &v, g.size);
	return 0;
}

int hr_ld_set_globals(struct hr_loader *ld)
{
	size_t i;
	int ret;

	for (i = 0; i < ld->nglobals; i++) {
		ret = set_global(ld, ld->globals[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* libbpf's bpf_object__create_maps freezes each .rodata map once its
 * initial values (and a skeleton's) are in: from then on, only reads. */
void hr_ld_freeze_rodata(struct hr_loader *ld)
{
	size_t i;

	for (i = 1; i < ld->nsecs; i++)
		if (ld->secs[i].kind == HR_SEC_RODATA && ld->secs[i].map)
			ld->secs[i].map->frozen = true;
}

/* ---- the pinned map store ---- */

struct pin {
	char *path;
	struct hr_map *map;
	unsigned int users; /* open objects using it */
	struct pin *next;
};

static pthread_mutex_t pin_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pin *pins;

static struct pin *pin_find(const char *path)
{
	struct pin *p;

	for (p = pins; p; p = p->next)
		if (!strcmp(p->path, path))
			return p;
	return NULL;
}

static bool attr_matches(const struct hr_map_attr *a,
			 const struct hr_map_attr *b)
{
	return a->type == b->type && a->key_size == b->key_size &&
	       a->value_size == b->value_size &&
	       a->max_entries == b->max_entries && a->map_flags == b->map_flags;
}

static int pin_mismatch(struct hr_loader *ld, const char *path,
			const struct hr_map_attr *want,
			const struct hr_map_attr *have)
{
	return hr_ld_error(ld, -EINVAL,
			   "map '%s': pinned map '%s' parameters mismatch: "
			   "type %u key %u value %u max_entries %u flags 0x%x, "
			   "object wants type %u key %u value %u "
			   "max_entries %u flags 0x%x",
			   want->name, path, have->type, have->key_size,
			   have->value_size, have->max_entries, have->map_flags,
			   want->type, want->key_size, want->value_size,
			   want->max_entries, want->map_flags);
}

int hr_ld_pin_path(const struct hr_loader *ld, const char *name, char *buf,
		   size_t sz)
{
	const char *dir = ld->pin_dir ? ld->pin_dir : HR_PIN_DIR_DEFAULT;
	int n = snprintf(buf, sz, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= sz ? -ENAMETOOLONG : 0;
}

int hr_ld_pin_get(struct hr_loader *ld, const struct hr_map_attr *attr,
		  int (*create)(const struct hr_map_attr *, struct hr_map **),
		  struct hr_map **out)
{
	char path[PATH_MAX];
	struct pin *p;
	int ret;

	if (hr_ld_pin_path(ld, attr->name, path, sizeof(path)))
		return hr_ld_error(ld, -ENAMETOOLONG,
				   "map '%s': pin path too long", attr->name);
	pthread_mutex_lock(&pin_lock);
	p = pin_find(path);
	if (p) {
		ret = attr_matches(attr, &p->map->attr) ?
			      0 :
			      pin_mismatch(ld, path, attr, &p->map->attr);
		goto out;
	}
	p = calloc(1, sizeof(*p));
	if (!p || !(p->path = strdup(path))) {
		free(p);
		ret = -ENOMEM;
		p = NULL;
		goto out;
	}
	ret = create(attr, &p->map);
	if (ret) {
		free(p->path);
		free(p);
		p = NULL;
		goto out;
	}
	p->next = pins;
	pins = p;
out:
	if (!ret) {
		p->users++;
		*out = p->map;
	}
	pthread_mutex_unlock(&pin_lock);
	return ret;
}

bool hr_pin_release(struct hr_map *map)
{
	struct pin *p;
	bool found = false;

	pthread_mutex_lock(&pin_lock);
	for (p = pins; p; p = p->next) {
		if (p->map != map)
			continue;
		/* Like a bpffs pin, the map outlives its last user. */
		if (p->users)
			p->users--;
		found = true;
		break;
	}
	pthread_mutex_unlock(&pin_lock);
	return found;
}

const char *hr_pin_path_of(const struct hr_map *map)
{
	const char *path = NULL;
	struct pin *p;

	pthread_mutex_lock(&pin_lock);
	for (p = pins; p; p = p->next)
		if (p->map == map)
			path = p->path;
	pthread_mutex_unlock(&pin_lock);
	return path;
}

void hr_pin_store_clear(void)
{
	struct pin *p, *next, **pp = &pins;

	pthread_mutex_lock(&pin_lock);
	for (p = pins; p; p = next) {
		next = p->next;
		if (p->users) {
			pp = &p->next;
			continue;
		}
		*pp = next;
		hr_map_free(p->map);
		free(p->path);
		free(p);
	}
	pthread_mutex_unlock(&pin_lock);
}
