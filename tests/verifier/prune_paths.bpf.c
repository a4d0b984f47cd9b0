/* 48 branches in a row, 2^48 paths: the kernel prunes the states that
 * meet again, and so must a prediction to finish; the bad twin then reads
 * one byte past the 34 it proved. */
#include "v.h"

/* One branch: count packet byte @i when it is 7. */
#define STEP(i)                      \
	"r2 = *(u8 *)(r6 + " #i ");" \
	"if r2 != 7 goto +1;"        \
	"r8 += 1;"
#define STEP6(a, b, c, d, e, f) STEP(a) STEP(b) STEP(c) STEP(d) STEP(e) STEP(f)
/* clang-format off: one group of six a line (it does not settle). */
#define STEPS                         \
	STEP6(0, 1, 2, 3, 4, 5)       \
	STEP6(6, 7, 8, 9, 10, 11)     \
	STEP6(12, 13, 14, 15, 16, 17) \
	STEP6(18, 19, 20, 21, 22, 23) \
	STEP6(24, 25, 26, 27, 28, 29) \
	STEP6(30, 31, 32, 33, 0, 1)   \
	STEP6(2, 3, 4, 5, 6, 7)       \
	STEP6(8, 9, 10, 11, 12, 13)
/* clang-format on */
#define HEAD                     \
	"r6 = *(u32 *)(r1 + 0);" \
	"r7 = *(u32 *)(r1 + 4);" \
	"r2 = r6;"               \
	"r2 += 34;"              \
	"r0 = 2;"                \
	"if r2 > r7 goto 1f;"    \
	"r8 = 0;"

SEC("xdp") NAKED int bad_prune_paths(void)
{
	asm volatile(HEAD STEPS "r0 = *(u8 *)(r6 + 34);"
				"r0 += r8;"
				"r0 &= 3;"
				"1: exit;" ::
					: "memory");
}

SEC("xdp") NAKED int ok_prune_paths(void)
{
	asm volatile(HEAD STEPS "r0 = *(u8 *)(r6 + 33);"
				"r0 += r8;"
				"r0 &= 3;"
				"1: exit;" ::
					: "memory");
}
