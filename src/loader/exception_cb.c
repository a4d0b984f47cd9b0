// SPDX-License-Identifier: MIT
/*
 * Custom BPF exception callbacks: the "exception_callback:NAME" decl tag
 * (__exception_cb in the selftests' bpf_experimental.h) on a program's
 * function, which the verifier (check_btf_func / find_exception_cb)
 * makes the handler of every bpf_throw of that program. headroom runs
 * bpf_throw with the default callback only (helpers/kfuncs_throw.c),
 * whose cookie is the return value; a program naming its own callback
 * would return something else, so it is refused at load with its name.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "loader/loader.h"
#include "progs/prog.h"

#define EXCEPTION_TAG "exception_callback:"

int hr_ld_check_exception_cb(struct hr_loader *ld, const struct hr_prog *prog)
{
	uint32_t i, n;

	if (!ld->btf)
		return 0;
	n = btf__type_cnt(ld->btf);
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(ld->btf, i);
		const struct btf_type *f;
		const char *tag;

		if (!btf_is_decl_tag(t) || btf_decl_tag(t)->component_idx != -1)
			continue;
		tag = btf__name_by_offset(ld->btf, t->name_off);
		if (!tag || strncmp(tag, EXCEPTION_TAG, strlen(EXCEPTION_TAG)))
			continue;
		f = btf__type_by_id(ld->btf, t->type);
		if (!f || !btf_is_func(f) ||
		    strcmp(btf__name_by_offset(ld->btf, f->name_off),
			   prog->name))
			continue;
		return hr_ld_error(ld, -EOPNOTSUPP,
				   "program '%s': exception callback '%s' "
				   "(the exception_callback tag): not "
				   "implemented yet; bpf_throw with the "
				   "default callback is",
				   prog->name, tag + strlen(EXCEPTION_TAG));
	}
	return 0;
}
