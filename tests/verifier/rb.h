/* SPDX-License-Identifier: MIT */
/*
 * The ring buffer the asm ring buffer pairs of the labelled corpus share,
 * with the reserve of an 8-byte record into r0 and their asm operands.
 */
#ifndef HR_VERIFIER_RB_H
#define HR_VERIFIER_RB_H

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

#define RB_RESERVE8      \
	"r1 = %[rb] ll;" \
	"r2 = 8;"        \
	"r3 = 0;"        \
	"call %[reserve];"
#define RB_OPERANDS                                             \
	[rb] "i"(&rb), [reserve] "i"(BPF_FUNC_ringbuf_reserve), \
		[submit] "i"(BPF_FUNC_ringbuf_submit)

#endif
