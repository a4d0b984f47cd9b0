// SPDX-License-Identifier: MIT
/*
 * The vmlinux BTF a program's bpf_snprintf_btf reads (the kernel's
 * bpf_get_btf_vmlinux, kernel/bpf/verifier.c): the target BTF its CO-RE
 * relocations were resolved against (hr_object_open_opts.btf_path,
 * /sys/kernel/btf/vmlinux, or headroom's builtin BTF), so that the ids
 * bpf_core_type_id_kernel() gave name the types the helper shows. Read
 * only for an object one of whose programs calls the helper.
 */
#include "loader/core_relo.h"
#include "loader/loader.h"
#include "progs/prog.h"
#include "vm/isa.h"

#define HR_FUNC_SNPRINTF_BTF 149 /* BPF_FUNC_snprintf_btf */

void hr_ld_vmlinux_btf_use(struct hr_loader *ld, const struct hr_prog *prog)
{
	char why[256];
	uint32_t i;

	if (ld->obj->kernel_btf)
		return;
	for (i = 0; i < prog->cnt; i++) {
		const struct hr_insn *in = &prog->insns[i];

		if (in->code == (HR_JMP | HR_CALL) && in->src == 0 &&
		    in->imm == HR_FUNC_SNPRINTF_BTF)
			break;
	}
	if (i == prog->cnt)
		return;
	if (!ld->targ_btf)
		ld->targ_btf =
			hr_core_target_btf(ld->btf_path, why, sizeof(why));
	/* Without one the helper answers -EINVAL, as the kernel's does
	 * when it has no vmlinux BTF. */
	ld->obj->kernel_btf = ld->targ_btf;
}
