// SPDX-License-Identifier: MIT
/* Helper lookup, and the helpers every program type may call. */
#include <string.h>

#include "helpers.h"

const struct hr_helper *const hr_base_helpers[] = {
	&hr_helper_map_lookup_elem,
	&hr_helper_map_update_elem,
	&hr_helper_map_delete_elem,
	&hr_helper_map_lookup_percpu_elem,
	&hr_helper_ktime_get_ns,
	&hr_helper_trace_printk,
	&hr_helper_get_prandom_u32,
	&hr_helper_get_smp_processor_id,
	NULL,
};

const struct hr_helper *hr_helper_find(const struct hr_helper *const *list,
				       int id)
{
	for (; *list; list++)
		if ((*list)->id == id)
			return *list;
	return NULL;
}

const struct hr_kfunc *hr_kfunc_find(const struct hr_kfunc *const *list,
				     const char *name)
{
	for (; *list; list++)
		if (strcmp((*list)->name, name) == 0)
			return *list;
	return NULL;
}
