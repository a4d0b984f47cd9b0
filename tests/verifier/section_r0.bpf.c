/* The section kfuncs return void: R0 set before one is clobbered. */
#include "v.h"

SEC("xdp") NAKED int bad_section_r0(void)
{
	asm volatile("call %[lock];"
		     "r0 = 2;"
		     "call %[unlock];"
		     "exit;" ::[lock] "i"(bpf_rcu_read_lock),
		     [unlock] "i"(bpf_rcu_read_unlock)
		     : "memory");
}

/* In C: its calls give the object the externs' BTF the naked one needs. */
SEC("xdp") int ok_section_r0(struct xdp_md *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return XDP_PASS;
}
