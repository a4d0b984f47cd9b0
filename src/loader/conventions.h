/* SPDX-License-Identifier: MIT */
/* The process-wide store of maps pinned by name (conventions.c). */
#ifndef HR_LOADER_LD_CONV_H
#define HR_LOADER_LD_CONV_H

#include <stdbool.h>
#include <stddef.h>

struct hr_loader;
struct hr_map;
struct hr_map_attr;

#define HR_PIN_DIR_DEFAULT "/sys/fs/bpf" /* libbpf's default pin root */

/* libbpf's "pinning" values: BTF maps' LIBBPF_PIN_BY_NAME, and
 * iproute2's bpf_elf_map PIN_GLOBAL_NS (tc/globals/NAME). */
#define HR_PIN_BY_NAME 1
#define HR_ELF_PIN_GLOBAL_NS 2

/* "pin_dir/NAME" into @buf; 0 or -ENAMETOOLONG. */
int hr_ld_pin_path(const struct hr_loader *ld, const char *name, char *buf,
		   size_t sz);

/*
 * The map pinned as @attr->name under the loader's pin dir: the one
 * already there when its parameters match @attr (else a load error, as
 * libbpf's "map parameter mismatch"), or a new one made with @create and
 * pinned. 0 or -errno.
 */
int hr_ld_pin_get(struct hr_loader *ld, const struct hr_map_attr *attr,
		  int (*create)(const struct hr_map_attr *, struct hr_map **),
		  struct hr_map **out);

/* An object stops using @map: true when @map is pinned (its owner is the
 * store, not the object), false for an ordinary map. */
bool hr_pin_release(struct hr_map *map);

/* The pin path of @map, or NULL when it is not pinned. */
const char *hr_pin_path_of(const struct hr_map *map);

/* Frees every pinned map no open object uses (bpffs's unlink). */
void hr_pin_store_clear(void);

#endif /* HR_LOADER_LD_CONV_H */
