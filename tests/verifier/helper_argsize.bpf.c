/* bpf_xdp_load_bytes told to write more than the stack buffer holds. */
#include "v.h"

SEC("xdp") NAKED int bad_helper_argsize(void)
{
	asm volatile("r2 = 0;"
		     "r3 = r10;"
		     "r3 += -16;"
		     "r4 = 32;"
		     "call %[f];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [f] "i"(BPF_FUNC_xdp_load_bytes)
		     : "memory");
}

SEC("xdp") NAKED int ok_helper_argsize(void)
{
	asm volatile("r2 = 0;"
		     "r3 = r10;"
		     "r3 += -16;"
		     "r4 = 16;"
		     "call %[f];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [f] "i"(BPF_FUNC_xdp_load_bytes)
		     : "memory");
}
