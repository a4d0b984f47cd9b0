/* SPDX-License-Identifier: MIT */
/*
 * One call of a string kfunc (bpf_strcmp ... bpf_strnstr) or of
 * bpf_strtol / bpf_strtoul, as progs/helpers/str_kfuncs.bpf.c reads it
 * from the packet and tests/helpers/test_string_kfuncs.c writes it: the
 * function, its arguments, and the answer written back in place.
 */
#ifndef HR_STR_CASE_H
#define HR_STR_CASE_H

#include <linux/types.h>

enum hr_str_op {
	HR_STR_STRCMP = 1,
	HR_STR_STRCASECMP,
	HR_STR_STRCHR,
	HR_STR_STRCHRNUL,
	HR_STR_STRNCHR,
	HR_STR_STRRCHR,
	HR_STR_STRLEN,
	HR_STR_STRNLEN,
	HR_STR_STRSPN,
	HR_STR_STRCSPN,
	HR_STR_STRSTR,
	HR_STR_STRNSTR,
	HR_STR_STRTOL,
	HR_STR_STRTOUL,
};

/* What a pointer argument is. */
enum hr_str_kind {
	HR_STR_PKT, /* the packet at .p (an offset) */
	HR_STR_RAW, /* .p itself: NULL, a small scalar, a kernel address */
	HR_STR_LONG, /* long_a + .p: 65539 'a's, then a NUL */
	HR_STR_LONG_B, /* long_b + .p: 'a' to 65534, 'b', 'c' to 65538, NUL */
	HR_STR_STACK, /* a copy of the 32 packet bytes at .p on the stack */
	HR_STR_RO, /* ro_str + .p: .rodata, 16 bytes and no NUL of its own */
};

/* Size of the globals behind HR_STR_LONG and HR_STR_LONG_B. */
#define HR_STR_LONG_SIZE (65536 + 4)
#define HR_STR_RO_SIZE 16

/* At HR_STR_CASE_OFF in the packet; the strings follow from
 * HR_STR_AREA_OFF. */
struct hr_str_case {
	__u32 magic; /* HR_STR_MAGIC; other packets pass untouched */
	__u32 op; /* enum hr_str_op */
	__u32 k1, k2; /* enum hr_str_kind of the pointers */
	__s32 c; /* the character (int for strrchr); flags for strto* */
	__u32 pad;
	__u64 n; /* count, len, or strto*'s buf_len (1..128) */
	__u64 p1, p2;
	__s64 ret; /* out: the return value, sign-extended */
	__s64 res; /* in/out: strto*'s *res (a sentinel comes in) */
};

#define HR_STR_MAGIC 0x21525453u /* "STR!" */
#define HR_STR_CASE_OFF 16
#define HR_STR_AREA_OFF 128
#define HR_STR_PKT_SIZE 1024
/* strto*'s buffer: the packet's bytes at .p1, copied to the stack. */
#define HR_STR_TOX_BUF 128

#endif /* HR_STR_CASE_H */
