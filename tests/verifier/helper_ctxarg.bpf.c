/* A table-driven helper's ARG_PTR_TO_CTX given a moved context pointer. */
#include "v.h"

SEC("tc") NAKED int bad_helper_ctxarg(void)
{
	asm volatile("r1 += 8;"
		     "call %[f];"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [f] "i"(BPF_FUNC_get_hash_recalc)
		     : "memory");
}

SEC("tc") NAKED int ok_helper_ctxarg(void)
{
	asm volatile("r6 = r1;"
		     "r6 += 8;"
		     "call %[f];"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [f] "i"(BPF_FUNC_get_hash_recalc)
		     : "memory");
}
