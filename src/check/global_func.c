// SPDX-License-Identifier: MIT
/*
 * A global function's arguments from BTF, as btf_prepare_func_args
 * (kernel/bpf/btf.c) classifies them: integers and enums are scalars, a
 * pointer to the program type's context struct (struct xdp_md, struct
 * __sk_buff) is the context; every other kind (sized memory, which the
 * kernel passes as PTR_TO_MEM or NULL, tagged arguments) is left to
 * "cannot tell".
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "check/global_func.h"

static enum hr_global_arg arg_kind(const struct btf *btf, unsigned int id,
				   bool xdp)
{
	const struct btf_type *t;
	const char *name;
	int r = btf__resolve_type(btf, id);

	t = r > 0 ? btf__type_by_id(btf, (unsigned int)r) : NULL;
	if (!t)
		return HR_GARG_OTHER;
	if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t))
		return HR_GARG_SCALAR;
	if (!btf_is_ptr(t))
		return HR_GARG_OTHER;
	r = btf__resolve_type(btf, t->type);
	t = r > 0 ? btf__type_by_id(btf, (unsigned int)r) : NULL;
	if (!t || !btf_is_struct(t))
		return HR_GARG_OTHER;
	name = btf__name_by_offset(btf, t->name_off);
	if (name && !strcmp(name, xdp ? "xdp_md" : "__sk_buff"))
		return HR_GARG_CTX;
	return HR_GARG_OTHER;
}

int hr_check_global_args(const char *path, const char *func, bool xdp,
			 enum hr_global_arg args[HR_GLOBAL_MAX_ARGS])
{
	const struct btf_type *fn, *proto;
	const struct btf_param *p;
	struct btf *btf;
	int id, n, i;

	if (!path || !func)
		return -EINVAL;
	btf = btf__parse_elf(path, NULL);
	if (!btf)
		return -ENOENT;
	id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
	fn = id > 0 ? btf__type_by_id(btf, (unsigned int)id) : NULL;
	proto = fn ? btf__type_by_id(btf, fn->type) : NULL;
	if (!proto || !btf_is_func_proto(proto) ||
	    btf_vlen(proto) > HR_GLOBAL_MAX_ARGS) {
		btf__free(btf);
		return -ENOENT;
	}
	n = btf_vlen(proto);
	p = btf_params(proto);
	for (i = 0; i < n; i++)
		args[i] = arg_kind(btf, p[i].type, xdp);
	btf__free(btf);
	return n;
}
