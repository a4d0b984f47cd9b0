// SPDX-License-Identifier: MIT
/*
 * long bpf_snprintf_btf(str, str_size, ptr, btf_ptr_size, flags) (#149)
 * of kernel/trace/bpf_trace.c, with bpf_btf_printf_prepare: the object
 * ptr->ptr points to, of the vmlinux BTF type ptr->type_id, as text in
 * str (btf_show.c); the text's length without its NUL, -EINVAL for a
 * flag outside BTF_F_ALL, a btf_ptr_size other than 16, a type id of 0
 * or a program with no vmlinux BTF, -ENOENT for an id past the last
 * type (or above INT_MAX). ptr->flags is not read, as the kernel's.
 * The vmlinux BTF is the one the object's CO-RE relocations used
 * (hr_object.kernel_btf), so bpf_core_type_id_kernel() ids name it.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "helpers/btf_show.h"
#include "helpers/helpers.h"

/* struct btf_ptr of include/uapi/linux/bpf.h */
struct hr_btf_ptr {
	uint64_t ptr;
	uint32_t type_id;
	uint32_t flags;
};

static uint64_t snprintf_btf(uint64_t str, uint64_t str_size, uint64_t ptr,
			     uint64_t btf_ptr_size, uint64_t flags,
			     struct hr_run *run)
{
	uint32_t size = (uint32_t)str_size, psize = (uint32_t)btf_ptr_size;
	const struct btf *btf = NULL;
	struct hr_btf_ptr p;
	const void *pp;
	char *buf;

	/* What the verifier proved: str writable, ptr readable. */
	buf = hr_run_mem(run, str, size, true);
	pp = buf ? hr_run_mem(run, ptr, psize, false) : NULL;
	if (!buf || !pp)
		return 0;
	if (flags & ~HR_BTF_F_ALL || psize != sizeof(p))
		return (uint64_t)-EINVAL;
	memcpy(&p, pp, sizeof(p));
	if (run->vm->prog && run->vm->prog->obj)
		btf = run->vm->prog->obj->kernel_btf;
	if (!btf || !p.type_id)
		return (uint64_t)-EINVAL;
	if ((int32_t)p.type_id <= 0)
		return (uint64_t)-ENOENT;
	return (uint64_t)(int64_t)hr_btf_snprintf_show(
		btf, p.type_id, p.ptr, buf, (int)size, flags, run);
}

const struct hr_helper hr_helper_snprintf_btf = {
	.id = 149, /* BPF_FUNC_snprintf_btf */
	.name = "bpf_snprintf_btf",
	.fn = snprintf_btf,
};
