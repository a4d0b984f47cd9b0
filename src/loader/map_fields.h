/* SPDX-License-Identifier: MIT */
/*
 * The special fields of a map's value as the kernel finds them in its BTF
 * (btf_parse_fields, kernel/bpf/btf.c): where a struct bpf_spin_lock,
 * a struct bpf_timer or a struct bpf_wq sits, and whether any other field the verifier
 * guards (kptrs, graph roots and nodes, ...) or a lock or timer it would
 * find nested is there.
 */
#ifndef HR_LOADER_MAP_FIELDS_H
#define HR_LOADER_MAP_FIELDS_H

#include <stdbool.h>
#include <stdint.h>

struct hr_map_fields {
	int lock_off; /* the value's top-level bpf_spin_lock; -1: none */
	/* Fields this model does not place (anything but that one lock and
	 * one timer and one wq, or a BTF it could not read): accesses to the value and
	 * lock calls on it are "cannot tell". */
	bool unsure;
	int timer_off; /* the value's top-level bpf_timer; -1: none */
	/* The object has BTF for the value (the kernel's map->btf). */
	bool has_btf;
	int wq_off; /* the value's top-level bpf_wq; -1: none */
	/* The value's top-level __kptr and __percpu_kptr fields to structs
	 * (which make it
	 * unsure as well: headroom check does not follow them). */
	int kptr_off[11];
	unsigned int nkptrs;
	/* Bit i: kptr_off[i] is tagged percpu_kptr. */
	unsigned int kptr_percpu;
	/* unsure for another reason than those kptrs. */
	bool unsure_but_kptrs;
};

struct btf;
struct btf_type;

/* @id with typedefs, qualifiers and type tags skipped (the kernel's
 * btf_type_skip_modifiers: a tagged pointer is still a pointer), the
 * type reached in *@id; NULL when the BTF has no such type. */
const struct btf_type *hr_btf_skip_mods(const struct btf *btf, uint32_t *id);

/* Fills @f for map @map_name of the object at @path. */
void hr_check_map_fields(const char *path, const char *map_name,
			 struct hr_map_fields *f);
/* The same from the object's BTF @btf (NULL: none). */
void hr_map_fields_btf(const struct btf *btf, const char *map_name,
		       struct hr_map_fields *f);

#endif /* HR_LOADER_MAP_FIELDS_H */
