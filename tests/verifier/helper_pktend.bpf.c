/* data_end handed to a helper as its buffer: the end pointer is no
 * memory. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} pe SEC(".maps");

SEC("xdp") NAKED int bad_helper_pktend(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 4);"
		     "r1 = %[m] ll;"
		     "call %[f];"
		     "r0 = 2;"
		     "exit;"
		     :
		     : [m] "i"(&pe), [f] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}

SEC("xdp") NAKED int ok_helper_pktend(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r3 = *(u32 *)(r1 + 4);"
		     "r4 = r2;"
		     "r4 += 4;"
		     "if r4 > r3 goto 1f;"
		     "r1 = %[m] ll;"
		     "call %[f];"
		     "1: r0 = 2;"
		     "exit;"
		     :
		     : [m] "i"(&pe), [f] "i"(BPF_FUNC_map_lookup_elem)
		     : "memory");
}
