/* SPDX-License-Identifier: MIT */
/*
 * The special fields of a map's value as the kernel finds them in its BTF
 * (btf_parse_fields, kernel/bpf/btf.c): where a struct bpf_spin_lock
 * sits, and whether any other field the verifier guards (timers, kptrs,
 * graph roots and nodes, ...) or a lock it would find nested is there.
 */
#ifndef HR_CHECK_FIELDS_H
#define HR_CHECK_FIELDS_H

#include <stdbool.h>

struct hr_map_fields {
	int lock_off; /* the value's top-level bpf_spin_lock; -1: none */
	/* Fields this model does not place (anything but that one lock, or
	 * a BTF it could not read): accesses to the value and lock calls
	 * on it are "cannot tell". */
	bool unsure;
};

/* Fills @f for map @map_name of the object at @path. */
void hr_check_map_fields(const char *path, const char *map_name,
			 struct hr_map_fields *f);

#endif /* HR_CHECK_FIELDS_H */
