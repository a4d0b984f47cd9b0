// SPDX-License-Identifier: MIT
/* The public view of a loaded object: its programs, maps and regions. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <headroom/object.h>

#include "loader/conventions.h"
#include "progs/prog.h"
#include "maps/map.h"
#include "maps/map_registry.h"
#include "maps/map_timer.h"

void hr_object_close(struct hr_object *obj)
{
	unsigned int i;

	if (!obj)
		return;
	/* Timers whose callbacks are this object's programs stop before
	 * the programs go (a pinned map may outlive them). */
	for (i = 0; i < obj->nmaps; i++)
		hr_map_timers_forget_object(obj->maps[i], obj);
	for (i = 0; i < obj->nprogs; i++)
		hr_prog_free(obj->progs[i]);
	for (i = 0; i < obj->nmaps; i++)
		if (!hr_pin_release(obj->maps[i])) {
			/* Map-in-map initial values registered handles. */
			hr_map_unregister(obj->maps[i]);
			hr_map_free(obj->maps[i]);
		}
	free(obj->progs);
	free(obj->maps);
	free(obj->regions);
	free(obj->local_types);
	free(obj->path);
	free(obj);
}

unsigned int hr_object_prog_count(const struct hr_object *obj)
{
	return obj ? obj->nprogs : 0;
}

struct hr_prog *hr_object_prog(const struct hr_object *obj, unsigned int i)
{
	return obj && i < obj->nprogs ? obj->progs[i] : NULL;
}

struct hr_prog *hr_object_find_prog(const struct hr_object *obj,
				    const char *sel)
{
	unsigned int i;

	if (!obj || !obj->nprogs)
		return NULL;
	if (!sel)
		return obj->progs[0];
	/* Function names are unique in an object; sections need not be. */
	for (i = 0; i < obj->nprogs; i++)
		if (strcmp(obj->progs[i]->name, sel) == 0)
			return obj->progs[i];
	for (i = 0; i < obj->nprogs; i++)
		if (strcmp(obj->progs[i]->sec, sel) == 0)
			return obj->progs[i];
	return NULL;
}

unsigned int hr_object_map_count(const struct hr_object *obj)
{
	return obj ? obj->nmaps : 0;
}

struct hr_map *hr_object_map(const struct hr_object *obj, unsigned int i)
{
	return obj && i < obj->nmaps ? obj->maps[i] : NULL;
}

/*
 * Global data maps carry libbpf's kernel-visible names ("loader_m.data");
 * as libbpf's real_name, their section name (".data") finds them too.
 */
static bool internal_name_matches(const char *map_name, const char *sec)
{
	size_t mlen = strlen(map_name), slen = strlen(sec);

	if (sec[0] != '.' || slen > mlen)
		return false;
	if (strcmp(map_name + mlen - slen, sec) != 0)
		return false;
	/* The prefix before the section name holds no dot of its own. */
	return memchr(map_name, '.', mlen - slen) == NULL;
}

struct hr_map *hr_object_find_map(const struct hr_object *obj, const char *name)
{
	unsigned int i;

	if (!obj || !name)
		return NULL;
	for (i = 0; i < obj->nmaps; i++)
		if (strcmp(obj->maps[i]->name, name) == 0)
			return obj->maps[i];
	for (i = 0; i < obj->nmaps; i++)
		if (internal_name_matches(obj->maps[i]->name, name))
			return obj->maps[i];
	return NULL;
}

const char *hr_prog_name(const struct hr_prog *prog)
{
	return prog ? prog->name : NULL;
}

const char *hr_prog_section(const struct hr_prog *prog)
{
	return prog ? prog->sec : NULL;
}

const char *hr_prog_type_name(const struct hr_prog *prog)
{
	if (!prog || !prog->type)
		return NULL;
	if (prog->type == &hr_prog_type_xdp) {
		if (prog->expected_attach == HR_ATTACH_XDP_DEVMAP)
			return "xdp/devmap";
		if (prog->expected_attach == HR_ATTACH_XDP_CPUMAP)
			return "xdp/cpumap";
	}
	return prog->type->name;
}

unsigned int hr_prog_insn_count(const struct hr_prog *prog)
{
	return prog ? prog->cnt : 0;
}

const char *hr_prog_action_name(const struct hr_prog *prog, uint64_t ret)
{
	if (!prog || !prog->type || !prog->type->action_name)
		return NULL;
	return prog->type->action_name(ret);
}

/* Appends @map's regions to @obj, growing the array until they fit. */
static int add_map_regions(struct hr_object *obj, struct hr_map *map,
			   unsigned int *cap)
{
	struct hr_region *grown;
	unsigned int n, i, room;

	for (;;) {
		room = *cap - obj->nregions;
		n = room ? map->ops->regions(map, obj->regions + obj->nregions,
					     room) :
			   0;
		/* A full buffer may mean the map had more to give. */
		if (n < room)
			break;
		grown = realloc(obj->regions,
				(*cap ? *cap * 2 : 16) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		obj->regions = grown;
		*cap = *cap ? *cap * 2 : 16;
	}
	for (i = 0; i < n; i++) {
		struct hr_region *r = &obj->regions[obj->nregions + i];

		if (hr_map_prog_rdonly(map))
			r->flags &= ~HR_REGION_WRITE;
		r->map = map;
	}
	obj->nregions += n;
	return 0;
}

int hr_object_build_regions(struct hr_object *obj)
{
	unsigned int cap = 0, i;
	int ret;

	free(obj->regions);
	obj->regions = NULL;
	obj->nregions = 0;
	for (i = 0; i < obj->nmaps; i++) {
		struct hr_map *map = obj->maps[i];

		if (!map->ops || !map->ops->regions)
			continue;
		ret = add_map_regions(obj, map, &cap);
		if (ret)
			return ret;
	}
	return 0;
}
