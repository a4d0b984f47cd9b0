/* A bpf_loop callback must return a number, 0 or 1. */
#include "v.h"

static __attribute__((used)) NAKED void ret_fp(void)
{
	asm volatile("r0 = r2;"
		     "exit;" ::
			     : "memory");
}

static __attribute__((used)) NAKED void ret_one(void)
{
	asm volatile("r0 = 1;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int bad_cb_ret(void)
{
	asm volatile("r1 = 4;"
		     "r2 = ret_fp ll;"
		     "r3 = r10;"
		     "r3 += -8;"
		     "r4 = 0;"
		     "*(u64 *)(r10 - 8) = r4;"
		     "call 181;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}

SEC("xdp") NAKED int ok_cb_ret(void)
{
	asm volatile("r1 = 4;"
		     "r2 = ret_one ll;"
		     "r3 = r10;"
		     "r3 += -8;"
		     "r4 = 0;"
		     "*(u64 *)(r10 - 8) = r4;"
		     "call 181;"
		     "r0 = 2;"
		     "exit;" ::
			     : "memory");
}
