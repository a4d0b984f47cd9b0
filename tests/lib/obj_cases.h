/* SPDX-License-Identifier: MIT */
/*
 * What test_obj and test_percpu_obj both check: a map value of a kptr
 * field and a tag (struct { u64 tag; T __kptr *p; }) compared between
 * the kernel and headroom or overwritten or deleted on both sides from
 * user space,
 * and the programs headroom's loader refuses to allocate an object for,
 * each with its message.
 */
#ifndef HR_TESTS_OBJ_CASES_H
#define HR_TESTS_OBJ_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct oracle;

/* Element @key of map @map of @obj overwritten from user space on both
 * sides (which frees the object its kptr owns) when @set, else compared:
 * the tags equal, the kptr read as 0 (check_and_init_map_value). */
void t_kptr_elem(struct oracle *o, bool kernel, const char *obj,
		 const char *map, uint32_t key, bool set);

/* Element @key of hash map @map of @obj deleted from user space on both
 * sides (which frees the object its kptr owns), the answers compared
 * (-ENOENT when there is none). */
void t_kptr_delete(struct oracle *o, bool kernel, const char *obj,
		   const char *map, uint32_t key);

/* Each program cases[i][0] of @obj (under the test programs' directory)
 * refused at load, its message holding cases[i][1]. */
void t_refused_loads(const char *obj, const char *const (*cases)[2], size_t n);

#endif /* HR_TESTS_OBJ_CASES_H */
