/* R0 unset and a section open at the return: check_resource_leak runs
 * before check_return_code, so the open section is what the kernel names. */
#include "v.h"

SEC("xdp") NAKED int bad_section_r0_exit(void)
{
	asm volatile("call %[off];"
		     "exit;" ::[off] "i"(bpf_preempt_disable)
		     : "memory");
}

/* In C: its calls give the object the externs' BTF the naked one needs. */
SEC("xdp") int ok_section_r0_exit(struct xdp_md *ctx)
{
	bpf_preempt_disable();
	bpf_preempt_enable();
	return XDP_PASS;
}
