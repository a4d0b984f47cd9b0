/* A packet offset from a 64-bit map value bounded by a 32-bit compare:
 * the upper half stays unknown. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} offs SEC(".maps");

SEC("xdp") NAKED int bad_pkt_jmp32(void)
{
	asm volatile("r6 = r1;"
		     "r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[m] ll;"
		     "call %[f];"
		     "if r0 == 0 goto 1f;"
		     "r1 = *(u64 *)(r0 + 0);"
		     "if w1 > 32 goto 1f;"
		     "r2 = *(u32 *)(r6 + 0);"
		     "r3 = *(u32 *)(r6 + 4);"
		     "r2 += r1;"
		     "r4 = r2;"
		     "r4 += 1;"
		     "if r4 > r3 goto 1f;"
		     "r0 = *(u8 *)(r2 + 0);"
		     "1: r0 = 2;"
		     "exit;"
		     :
		     : [m] "i"(&offs), [f] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}

SEC("xdp") NAKED int ok_pkt_jmp32(void)
{
	asm volatile("r6 = r1;"
		     "r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[m] ll;"
		     "call %[f];"
		     "if r0 == 0 goto 1f;"
		     "r1 = *(u64 *)(r0 + 0);"
		     "if r1 > 32 goto 1f;"
		     "r2 = *(u32 *)(r6 + 0);"
		     "r3 = *(u32 *)(r6 + 4);"
		     "r2 += r1;"
		     "r4 = r2;"
		     "r4 += 1;"
		     "if r4 > r3 goto 1f;"
		     "r0 = *(u8 *)(r2 + 0);"
		     "1: r0 = 2;"
		     "exit;"
		     :
		     : [m] "i"(&offs), [f] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}
