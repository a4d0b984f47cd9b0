/* An ARG_PTR_TO_CTX given another pointer: the stack, data_end. */
#include "v.h"

SEC("xdp") NAKED int bad_helper_ctxtype(void)
{
	asm volatile("r1 = r10;"
		     "r1 += -8;"
		     "r2 = 0;"
		     "call %[f];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [f] "i"(BPF_FUNC_xdp_adjust_head)
		     : "memory");
}

SEC("xdp") NAKED int ok_helper_ctxtype(void)
{
	asm volatile("r6 = r10;"
		     "r6 += -8;"
		     "r2 = 0;"
		     "call %[f];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [f] "i"(BPF_FUNC_xdp_adjust_head)
		     : "memory");
}

SEC("xdp") NAKED int bad_helper_ctxtype_end(void)
{
	asm volatile("r1 = *(u32 *)(r1 + 4);"
		     "r2 = 0;"
		     "call %[f];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [f] "i"(BPF_FUNC_xdp_adjust_tail)
		     : "memory");
}

SEC("xdp") NAKED int ok_helper_ctxtype_end(void)
{
	asm volatile("r6 = *(u32 *)(r1 + 4);"
		     "r2 = 0;"
		     "call %[f];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [f] "i"(BPF_FUNC_xdp_adjust_tail)
		     : "memory");
}
