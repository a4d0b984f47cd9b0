/* SPDX-License-Identifier: MIT */
/*
 * Allocated objects (bpf_obj_new) and the __kptr fields of map values
 * that own them: kernel/bpf/helpers.c's bpf_kptr_xchg and
 * bpf_obj_free_fields / bpf_map_free_record of kernel/bpf/syscall.c.
 */
#ifndef HR_MAPS_MAP_KPTR_H
#define HR_MAPS_MAP_KPTR_H

#include <stdbool.h>
#include <stdint.h>

struct hr_map;

/* A zeroed object of @size bytes with one reference (NULL when out of
 * memory), of a type with a struct bpf_refcount when @refcounted; the
 * release of a reference, which frees it with its last
 * (__bpf_obj_drop_impl); one more reference to a refcounted object
 * (bpf_refcount_acquire's refcount_inc_not_zero), false for another. */
void *hr_obj_alloc(uint32_t size, bool refcounted);
void hr_obj_free(void *obj);
bool hr_obj_acquire(void *obj);

/*
 * bpf_kptr_xchg on the kptr field @slot of a value of @map: the object
 * (with its size in *@old_size) the field owned is returned, and @obj
 * (of @size bytes, or NULL) is owned by the field instead, its address
 * written there. What the field owns is kept apart from its bytes, which
 * a program may overwrite: only an object put there is ever given back
 * or freed.
 */
void *hr_map_kptr_xchg(struct hr_map *map, void *slot, void *obj, uint32_t size,
		       uint32_t *old_size);

/* bpf_obj_free_fields for the kptrs of @value of @map: the objects its
 * fields own are freed and the fields zeroed. */
void hr_map_kptr_free_value(struct hr_map *map, void *value);
/* Every object a kptr field of @map owns is freed, as the map goes. */
void hr_map_kptrs_free(struct hr_map *map);

#endif /* HR_MAPS_MAP_KPTR_H */
