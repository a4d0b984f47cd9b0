/* A call to a helper number the kernel does not have. */
#include "v.h"

SEC("xdp") NAKED int bad_helper_unknown(void)
{
	asm volatile("call 9999;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_helper_unknown(void)
{
	asm volatile("call %[f];"
		     "r0 = 2;"
		     "exit;" ::[f] "i"(BPF_FUNC_get_smp_processor_id)
		     : "memory");
}
