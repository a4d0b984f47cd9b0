/* A ring buffer record written before its NULL test. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

SEC("tc") NAKED int bad_rb_null(void)
{
	asm volatile("r1 = %[rb] ll;"
		     "r2 = 8;"
		     "r3 = 0;"
		     "call %[reserve];"
		     "r1 = 1;"
		     "*(u64 *)(r0 + 0) = r1;"
		     "r1 = r0;"
		     "r2 = 0;"
		     "call %[submit];"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [rb] "i"(&rb), [reserve] "i"(BPF_FUNC_ringbuf_reserve),
		       [submit] "i"(BPF_FUNC_ringbuf_submit)
		     : "memory");
}

SEC("tc") NAKED int ok_rb_null(void)
{
	asm volatile("r1 = %[rb] ll;"
		     "r2 = 8;"
		     "r3 = 0;"
		     "call %[reserve];"
		     "if r0 == 0 goto 1f;"
		     "r1 = 1;"
		     "*(u64 *)(r0 + 0) = r1;"
		     "r1 = r0;"
		     "r2 = 0;"
		     "call %[submit];"
		     "1: r0 = 0;"
		     "exit;"
		     :
		     : [rb] "i"(&rb), [reserve] "i"(BPF_FUNC_ringbuf_reserve),
		       [submit] "i"(BPF_FUNC_ringbuf_submit)
		     : "memory");
}
