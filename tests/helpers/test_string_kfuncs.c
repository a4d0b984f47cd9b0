// SPDX-License-Identifier: MIT
/*
 * The string kfuncs (bpf_strcmp ... bpf_strnstr) and bpf_strtol /
 * bpf_strtoul (progs/helpers/str_kfuncs.bpf.c), one call a run, in XDP
 * and tc programs under both engines: each answer against the one the
 * 6.18 kernel gives (written here, and checked by running the same case
 * through the live kernel's BPF_PROG_TEST_RUN, which must agree to the
 * byte). Empty and equal strings, bytes >= 0x80 (unsigned: the kernel builds with
 * -funsigned-char), Latin-1
 * case folding, found first, last or nowhere, the NUL searched for,
 * counts short of, at and past the string, strings past XATTR_SIZE_MAX
 * (-E2BIG), NULL and small numbers (-ERANGE), an unmapped kernel address
 * (-EFAULT). Strings that run off the end of their memory are headroom's
 * alone: the kernel reads on into whatever follows (kfuncs_string.c).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "headroom/test_run.h"
#include "oracle.h"
#include "../../progs/include/hr_str_case.h"

#define XATTR_SIZE_MAX 65536
#define SENTINEL 0x1122334455667788ll
#define OFF1 HR_STR_AREA_OFF
#define OFF2 512

/* A pointer argument: its kind, and the bytes of a packet or stack
 * string (.len of them, the NUL included unless .at_end). */
struct sarg {
	uint32_t kind;
	uint64_t p;
	const char *bytes;
	size_t len;
	bool at_end; /* the last bytes of the packet: no NUL after */
};

#define S(str)                                  \
	{                                       \
		HR_STR_PKT, 0, str, sizeof(str) \
	}
#define STK(str)                                  \
	{                                         \
		HR_STR_STACK, 0, str, sizeof(str) \
	}
#define END(str)                                          \
	{                                                 \
		HR_STR_PKT, 0, str, sizeof(str) - 1, true \
	}
#define RAW(v)                            \
	{                                 \
		HR_STR_RAW, (uint64_t)(v) \
	}
#define LA(off)                  \
	{                        \
		HR_STR_LONG, off \
	}
#define LB(off)                    \
	{                          \
		HR_STR_LONG_B, off \
	}
#define RO(off)                \
	{                      \
		HR_STR_RO, off \
	}
#define NUL RAW(0)

struct scase {
	int op;
	struct sarg a, b;
	int32_t c;
	uint64_t n;
	int64_t want;
	int64_t want_res; /* strto*: *res after the call */
	/* The kernel would read past the memory the string is in. */
	bool hr_only;
};

static const char *const op_names[] = {
	[HR_STR_STRCMP] = "strcmp",   [HR_STR_STRCASECMP] = "strcasecmp",
	[HR_STR_STRCHR] = "strchr",   [HR_STR_STRCHRNUL] = "strchrnul",
	[HR_STR_STRNCHR] = "strnchr", [HR_STR_STRRCHR] = "strrchr",
	[HR_STR_STRLEN] = "strlen",   [HR_STR_STRNLEN] = "strnlen",
	[HR_STR_STRSPN] = "strspn",   [HR_STR_STRCSPN] = "strcspn",
	[HR_STR_STRSTR] = "strstr",   [HR_STR_STRNSTR] = "strnstr",
	[HR_STR_STRTOL] = "strtol",   [HR_STR_STRTOUL] = "strtoul",
};

static const struct scase cases[] = {
	/* bpf_strcmp: -1, 0, 1 over signed chars. */
	{ HR_STR_STRCMP, S(""), S(""), .want = 0 },
	{ HR_STR_STRCMP, S("abc"), S("abc"), .want = 0 },
	{ HR_STR_STRCMP, S("abc"), S("abd"), .want = -1 },
	{ HR_STR_STRCMP, S("abd"), S("abc"), .want = 1 },
	{ HR_STR_STRCMP, S("ab"), S("abc"), .want = -1 },
	{ HR_STR_STRCMP, S("abc"), S("ab"), .want = 1 },
	{ HR_STR_STRCMP, S("\x80"), S("a"), .want = 1 },
	{ HR_STR_STRCMP, S("a"), S("\xff"), .want = -1 },
	{ HR_STR_STRCMP, S("\xe9"), S("\xc9"), .want = 1 },
	{ HR_STR_STRCMP, S("Abc"), S("abc"), .want = -1 },
	{ HR_STR_STRCMP, STK("hello"), S("hello"), .want = 0 },
	{ HR_STR_STRCMP, RO(0), S("Ro"), .want = 1 },
	{ HR_STR_STRCMP, LA(0), LA(0), .want = -E2BIG },
	{ HR_STR_STRCMP, LA(0), LB(0), .want = -1 },
	{ HR_STR_STRCMP, LA(4), LA(4), .want = 0 },
	{ HR_STR_STRCMP, NUL, S("a"), .want = -ERANGE },
	{ HR_STR_STRCMP, S("a"), NUL, .want = -ERANGE },
	{ HR_STR_STRCMP, RAW(1), RAW(-1), .want = -ERANGE },
	{ HR_STR_STRCMP, S("a"), RAW(-1), .want = -EFAULT },
	{ HR_STR_STRCMP, END("abc"), S("abc"), .want = -EFAULT,
	  .hr_only = true },
	{ HR_STR_STRCMP, END("abc"), S("abd"), .want = -1 },
	/* bpf_strcasecmp: the kernel's tolower over its Latin-1 table. */
	{ HR_STR_STRCASECMP, S("abc"), S("ABC"), .want = 0 },
	{ HR_STR_STRCASECMP, S("ABC"), S("abd"), .want = -1 },
	{ HR_STR_STRCASECMP, S("Zz"), S("zZ"), .want = 0 },
	{ HR_STR_STRCASECMP, S("["), S("{"), .want = -1 },
	{ HR_STR_STRCASECMP, S("@"), S("`"), .want = -1 },
	{ HR_STR_STRCASECMP, S("\xc0\xd6\xd8\xde"), S("\xe0\xf6\xf8\xfe"),
	  .want = 0 },
	{ HR_STR_STRCASECMP, S("\xd7"), S("\xf7"), .want = -1 },
	{ HR_STR_STRCASECMP, S("\xdf"), S("\xff"), .want = -1 },
	{ HR_STR_STRCASECMP, S("a"), S("\xc0"), .want = -1 },
	{ HR_STR_STRCASECMP, S("\xc9T\xc9"), S("\xe9t\xe9!"), .want = -1 },
	{ HR_STR_STRCASECMP, S(""), S(""), .want = 0 },
	{ HR_STR_STRCASECMP, LA(0), LA(0), .want = -E2BIG },
	{ HR_STR_STRCASECMP, RAW(4095), S(""), .want = -ERANGE },
	/* bpf_strchr: c is a char; the NUL may be searched for. */
	{ HR_STR_STRCHR, S("hello"), .c = 'l', .want = 2 },
	{ HR_STR_STRCHR, S("hello"), .c = 'h', .want = 0 },
	{ HR_STR_STRCHR, S("hello"), .c = 'o', .want = 4 },
	{ HR_STR_STRCHR, S("hello"), .c = 'z', .want = -ENOENT },
	{ HR_STR_STRCHR, S("hello"), .c = 0, .want = 5 },
	{ HR_STR_STRCHR, S(""), .c = 'a', .want = -ENOENT },
	{ HR_STR_STRCHR, S(""), .c = 0, .want = 0 },
	{ HR_STR_STRCHR,
	  S("a\xe9"
	    "b"),
	  .c = 0xe9, .want = 1 },
	{ HR_STR_STRCHR,
	  S("a\xe9"
	    "b"),
	  .c = -23, .want = 1 },
	{ HR_STR_STRCHR,
	  S("a\xe9"
	    "b"),
	  .c = 0x1e9, .want = 1 },
	{ HR_STR_STRCHR, STK("stack"), .c = 'k', .want = 4 },
	{ HR_STR_STRCHR, RO(0), .c = 'x', .want = 4 },
	{ HR_STR_STRCHR, RO(0), .c = 'q', .want = -EFAULT, .hr_only = true },
	{ HR_STR_STRCHR, LB(0), .c = 'b', .want = 65535 },
	{ HR_STR_STRCHR, LB(0), .c = 'c', .want = -E2BIG },
	{ HR_STR_STRCHR, NUL, .c = 'a', .want = -ERANGE },
	{ HR_STR_STRCHR, END("abc"), .c = 'c', .want = 2 },
	{ HR_STR_STRCHR, END("abc"), .c = 'z', .want = -EFAULT,
	  .hr_only = true },
	/* bpf_strchrnul: the NUL's index when c is not there. */
	{ HR_STR_STRCHRNUL, S("hello"), .c = 'l', .want = 2 },
	{ HR_STR_STRCHRNUL, S("hello"), .c = 'z', .want = 5 },
	{ HR_STR_STRCHRNUL, S("hello"), .c = 0, .want = 5 },
	{ HR_STR_STRCHRNUL, S(""), .c = 'a', .want = 0 },
	{ HR_STR_STRCHRNUL, S("\xff"), .c = 0xff, .want = 0 },
	{ HR_STR_STRCHRNUL, LA(0), .c = 'b', .want = -E2BIG },
	{ HR_STR_STRCHRNUL, LB(0), .c = 'b', .want = 65535 },
	{ HR_STR_STRCHRNUL, LA(4), .c = 'b', .want = 65535 },
	{ HR_STR_STRCHRNUL, RAW(1), .c = 'a', .want = -ERANGE },
	{ HR_STR_STRCHRNUL, RAW(-1), .c = 'a', .want = -EFAULT },
	/* bpf_strnchr: at most count bytes. */
	{ HR_STR_STRNCHR, S("hello"), .n = 5, .c = 'o', .want = 4 },
	{ HR_STR_STRNCHR, S("hello"), .n = 4, .c = 'o', .want = -ENOENT },
	{ HR_STR_STRNCHR, S("hello"), .n = 0, .c = 'h', .want = -ENOENT },
	{ HR_STR_STRNCHR, S("hello"), .n = 1, .c = 'h', .want = 0 },
	{ HR_STR_STRNCHR, S("hello"), .n = 100, .c = 'z', .want = -ENOENT },
	{ HR_STR_STRNCHR, S("hello"), .n = 100, .c = 0, .want = 5 },
	{ HR_STR_STRNCHR, S("hello"), .n = 5, .c = 0, .want = -ENOENT },
	{ HR_STR_STRNCHR, S("hello"), .n = 6, .c = 0, .want = 5 },
	{ HR_STR_STRNCHR, LB(0), .n = 65535, .c = 'b', .want = -ENOENT },
	{ HR_STR_STRNCHR, LB(0), .n = 65536, .c = 'b', .want = 65535 },
	{ HR_STR_STRNCHR, LA(0), .n = 65535, .c = 'b', .want = -ENOENT },
	{ HR_STR_STRNCHR, LA(0), .n = 65536, .c = 'b', .want = -E2BIG },
	{ HR_STR_STRNCHR, LA(0), .n = 1ull << 40, .c = 'b', .want = -E2BIG },
	{ HR_STR_STRNCHR, END("abc"), .n = 3, .c = 'z', .want = -ENOENT },
	{ HR_STR_STRNCHR, END("abc"), .n = 4, .c = 'z', .want = -EFAULT,
	  .hr_only = true },
	{ HR_STR_STRNCHR, NUL, .n = 0, .c = 'a', .want = -ERANGE },
	/* bpf_strrchr: c is an int, compared with the promoted char. */
	{ HR_STR_STRRCHR, S("hello"), .c = 'l', .want = 3 },
	{ HR_STR_STRRCHR, S("hello"), .c = 'h', .want = 0 },
	{ HR_STR_STRRCHR, S("hello"), .c = 'o', .want = 4 },
	{ HR_STR_STRRCHR, S("hello"), .c = 'z', .want = -ENOENT },
	{ HR_STR_STRRCHR, S("hello"), .c = 0, .want = 5 },
	{ HR_STR_STRRCHR, S(""), .c = 'a', .want = -ENOENT },
	{ HR_STR_STRRCHR,
	  S("a\xe9"
	    "b\xe9"),
	  .c = 0xe9, .want = 3 },
	{ HR_STR_STRRCHR,
	  S("a\xe9"
	    "b\xe9"),
	  .c = -23, .want = -ENOENT },
	{ HR_STR_STRRCHR,
	  S("a\xe9"
	    "b\xe9"),
	  .c = 0x1e9, .want = -ENOENT },
	{ HR_STR_STRRCHR, LA(0), .c = 'a', .want = -E2BIG },
	{ HR_STR_STRRCHR, LA(4), .c = 'a', .want = 65534 },
	{ HR_STR_STRRCHR, NUL, .c = 'a', .want = -ERANGE },
	{ HR_STR_STRRCHR, END("abc"), .c = 'a', .want = -EFAULT,
	  .hr_only = true },
	/* bpf_strlen, bpf_strnlen. */
	{ HR_STR_STRLEN, S(""), .want = 0 },
	{ HR_STR_STRLEN, S("hello"), .want = 5 },
	{ HR_STR_STRLEN, S("\x80\xff"), .want = 2 },
	{ HR_STR_STRLEN, STK("stack str"), .want = 9 },
	{ HR_STR_STRLEN, LA(0), .want = -E2BIG },
	{ HR_STR_STRLEN, LA(3), .want = -E2BIG },
	{ HR_STR_STRLEN, LA(4), .want = 65535 },
	{ HR_STR_STRLEN, LB(1), .want = -E2BIG },
	{ HR_STR_STRLEN, NUL, .want = -ERANGE },
	{ HR_STR_STRLEN, RAW(4095), .want = -ERANGE },
	{ HR_STR_STRLEN, RAW(1ull << 50), .want = -ERANGE },
	{ HR_STR_STRLEN, RAW(0xffffffffff600010ull), .want = -ERANGE },
	{ HR_STR_STRLEN, RAW(-1), .want = -EFAULT },
	{ HR_STR_STRLEN, RAW(0xffff900000000000ull), .want = -EFAULT },
	{ HR_STR_STRLEN, RO(0), .want = -EFAULT, .hr_only = true },
	{ HR_STR_STRLEN, END("abc"), .want = -EFAULT, .hr_only = true },
	{ HR_STR_STRNLEN, S("hello"), .n = 3, .want = 3 },
	{ HR_STR_STRNLEN, S("hello"), .n = 5, .want = 5 },
	{ HR_STR_STRNLEN, S("hello"), .n = 10, .want = 5 },
	{ HR_STR_STRNLEN, S("hello"), .n = 0, .want = 0 },
	{ HR_STR_STRNLEN, S(""), .n = 5, .want = 0 },
	{ HR_STR_STRNLEN, LA(0), .n = 65535, .want = 65535 },
	{ HR_STR_STRNLEN, LA(0), .n = 65536, .want = -E2BIG },
	{ HR_STR_STRNLEN, LA(4), .n = 65536, .want = 65535 },
	{ HR_STR_STRNLEN, LA(0), .n = 1ull << 63, .want = -E2BIG },
	{ HR_STR_STRNLEN, NUL, .n = 0, .want = -ERANGE },
	{ HR_STR_STRNLEN, END("abc"), .n = 3, .want = 3 },
	{ HR_STR_STRNLEN, END("abc"), .n = 4, .want = -EFAULT,
	  .hr_only = true },
	{ HR_STR_STRNLEN, RO(0), .n = 16, .want = 16 },
	/* bpf_strspn, bpf_strcspn. */
	{ HR_STR_STRSPN, S("aabbc"), S("ab"), .want = 4 },
	{ HR_STR_STRSPN, S("abc"), S(""), .want = 0 },
	{ HR_STR_STRSPN, S(""), S("abc"), .want = 0 },
	{ HR_STR_STRSPN, S("abc"), S("cba"), .want = 3 },
	{ HR_STR_STRSPN, S("xyz"), S("abc"), .want = 0 },
	{ HR_STR_STRSPN,
	  S("\xe9\xe9"
	    "a"),
	  S("\xe9"), .want = 2 },
	{ HR_STR_STRSPN, LA(0), S("a"), .want = -E2BIG },
	{ HR_STR_STRSPN, LA(4), S("a"), .want = 65535 },
	{ HR_STR_STRSPN, S("b"), LA(0), .want = -E2BIG },
	{ HR_STR_STRSPN, S("aab"), LA(0), .want = -E2BIG },
	{ HR_STR_STRSPN, S("a"), LA(0), .want = 1 },
	{ HR_STR_STRSPN, S("abc"), NUL, .want = -ERANGE },
	{ HR_STR_STRSPN, NUL, S("a"), .want = -ERANGE },
	{ HR_STR_STRSPN, END("abc"), S("x"), .want = 0 },
	{ HR_STR_STRSPN, END("aaa"), S("a"), .want = -EFAULT, .hr_only = true },
	{ HR_STR_STRSPN, S("ab"), END("ba"), .want = 2 },
	{ HR_STR_STRSPN, S("ab"), END("a"), .want = -EFAULT, .hr_only = true },
	{ HR_STR_STRCSPN, S("hello"), S("l"), .want = 2 },
	{ HR_STR_STRCSPN, S("hello"), S("xyz"), .want = 5 },
	{ HR_STR_STRCSPN, S("hello"), S(""), .want = 5 },
	{ HR_STR_STRCSPN, S(""), S("a"), .want = 0 },
	{ HR_STR_STRCSPN, S("hello"), S("h"), .want = 0 },
	{ HR_STR_STRCSPN, S("hello"), S("o"), .want = 4 },
	{ HR_STR_STRCSPN, S("a\xe9"), S("\xe9"), .want = 1 },
	{ HR_STR_STRCSPN, LA(0), S("b"), .want = -E2BIG },
	{ HR_STR_STRCSPN, S("b"), LA(0), .want = -E2BIG },
	{ HR_STR_STRCSPN, S("a"), LA(0), .want = 0 },
	{ HR_STR_STRCSPN, LB(0), S("b"), .want = 65535 },
	{ HR_STR_STRCSPN, RAW(2), S("b"), .want = -ERANGE },
	{ HR_STR_STRCSPN, S("b"), END("x"), .want = -EFAULT, .hr_only = true },
	/* bpf_strstr, bpf_strnstr. */
	{ HR_STR_STRSTR, S("hello"), S("ll"), .want = 2 },
	{ HR_STR_STRSTR, S("hello"), S("he"), .want = 0 },
	{ HR_STR_STRSTR, S("hello"), S("lo"), .want = 3 },
	{ HR_STR_STRSTR, S("hello"), S(""), .want = 0 },
	{ HR_STR_STRSTR, S(""), S(""), .want = 0 },
	{ HR_STR_STRSTR, S(""), S("a"), .want = -ENOENT },
	{ HR_STR_STRSTR, S("hello"), S("hello!"), .want = -ENOENT },
	{ HR_STR_STRSTR, S("hello"), S("xyz"), .want = -ENOENT },
	{ HR_STR_STRSTR, S("aab"), S("ab"), .want = 1 },
	{ HR_STR_STRSTR, S("\xe9t\xe9"), S("\xe9"), .want = 0 },
	{ HR_STR_STRSTR, S("t\xc9"), S("t\xe9"), .want = -ENOENT },
	{ HR_STR_STRSTR, LB(0), S("b"), .want = 65535 },
	{ HR_STR_STRSTR, LB(0), S("bc"), .want = -ENOENT },
	{ HR_STR_STRSTR, LA(0), S("b"), .want = -E2BIG },
	{ HR_STR_STRSTR, LA(4), S("b"), .want = -ENOENT },
	{ HR_STR_STRSTR, S("a"), LA(0), .want = -ENOENT },
	{ HR_STR_STRSTR, NUL, S("a"), .want = -ERANGE },
	{ HR_STR_STRSTR, S("a"), RAW(-1), .want = -EFAULT },
	{ HR_STR_STRNSTR, S("openat"), S("open"), .n = 4, .want = 0 },
	{ HR_STR_STRNSTR, S("openat"), S("open"), .n = 3, .want = -ENOENT },
	{ HR_STR_STRNSTR, S("openat"), S("open"), .n = 5, .want = 0 },
	{ HR_STR_STRNSTR, S("openat"), S("open"), .n = 0, .want = -ENOENT },
	{ HR_STR_STRNSTR, S("hello"), S(""), .n = 0, .want = 0 },
	{ HR_STR_STRNSTR, S("hello"), S("lo"), .n = 5, .want = 3 },
	{ HR_STR_STRNSTR, S("hello"), S("lo"), .n = 4, .want = -ENOENT },
	{ HR_STR_STRNSTR, S("hello"), S("ll"), .n = 4, .want = 2 },
	{ HR_STR_STRNSTR, S("hello"), S("hello"), .n = 100, .want = 0 },
	{ HR_STR_STRNSTR, S("hello"), S("hellox"), .n = 100, .want = -ENOENT },
	{ HR_STR_STRNSTR, END("abcdef"), S("cd"), .n = 4, .want = 2 },
	{ HR_STR_STRNSTR, END("abc"), S("x"), .n = 3, .want = -ENOENT },
	{ HR_STR_STRNSTR, END("abc"), S("x"), .n = 4, .want = -EFAULT,
	  .hr_only = true },
	{ HR_STR_STRNSTR, S("abc"), END("bc"), .n = 9, .want = -EFAULT,
	  .hr_only = true },
	{ HR_STR_STRNSTR, LB(0), S("b"), .n = 65535, .want = -ENOENT },
	{ HR_STR_STRNSTR, LB(0), S("b"), .n = 65536, .want = 65535 },
	{ HR_STR_STRNSTR, LA(0), S("b"), .n = 1ull << 40, .want = -E2BIG },
	{ HR_STR_STRNSTR, S("b"), NUL, .n = 1, .want = -ERANGE },
};

/* bpf_strtol and bpf_strtoul: the buffer, its length and the flags. */
struct tcase {
	int op;
	const char *buf;
	uint32_t len;
	uint32_t flags;
	int64_t want;
	int64_t want_res;
};

#define TL HR_STR_STRTOL
#define TU HR_STR_STRTOUL

static const struct tcase tox[] = {
	{ TL, "123", 3, 0, 3, 123 },
	{ TL, "  -42", 5, 10, 5, -42 },
	{ TL, "0x1f", 4, 0, 4, 31 },
	{ TL, "0X1F", 4, 16, 4, 31 },
	{ TL, "1f", 2, 16, 2, 31 },
	{ TL, "0x", 2, 0, 1, 0 },
	{ TL, "0x", 2, 16, -EINVAL, 0 },
	{ TL, "0xg", 3, 0, 1, 0 },
	{ TL, "017", 3, 0, 3, 15 },
	{ TL, "019", 3, 0, 2, 1 },
	{ TL, "017", 3, 10, 3, 17 },
	{ TL, "017", 3, 8, 3, 15 },
	{ TL, "abc", 3, 16, 3, 0xabc },
	{ TL, "abc", 3, 10, -EINVAL, 0 },
	{ TL, "", 1, 0, -EINVAL, 0 },
	{ TL, "   ", 3, 0, -EINVAL, 0 },
	{ TL,
	  "\xa0"
	  "5",
	  2, 0, 2, 5 },
	{ TL, "\t\n\v\f\r 7", 7, 0, 7, 7 },
	{ TL, "+5", 2, 0, -EINVAL, 0 },
	{ TL, "-", 1, 0, -EINVAL, 0 },
	{ TL, "--5", 3, 0, -EINVAL, 0 },
	{ TL, "- 5", 3, 0, -EINVAL, 0 },
	{ TL, "9223372036854775807", 19, 0, 19, INT64_MAX },
	{ TL, "9223372036854775808", 19, 0, -ERANGE, 0 },
	{ TL, "-9223372036854775808", 20, 0, 20, INT64_MIN },
	{ TL, "-9223372036854775809", 20, 0, -ERANGE, 0 },
	{ TL, "18446744073709551615", 20, 0, -ERANGE, 0 },
	{ TL, "ffffffffffffffff", 16, 16, -ERANGE, 0 },
	{ TL, "12abc", 5, 10, 2, 12 },
	{ TL, "123", 2, 10, 2, 12 },
	{ TL,
	  "1\0"
	  "1",
	  3, 0, 1, 1 },
	{ TL,
	  "\xff"
	  "5",
	  2, 0, -EINVAL, 0 },
	{ TL, "5", 1, 2, -EINVAL, 0 },
	{ TL, "5", 1, 0x20, -EINVAL, 0 },
	{ TL, "5", 1, 0x2a, -EINVAL, 0 },
	{ TU, "18446744073709551615", 20, 0, 20, -1 },
	{ TU, "18446744073709551616", 20, 0, -ERANGE, 0 },
	{ TU, "9223372036854775808", 19, 0, 19, INT64_MIN },
	{ TU, "ffffffffffffffff", 16, 16, 16, -1 },
	{ TU, "10000000000000000", 17, 16, -ERANGE, 0 },
	{ TU, "-1", 2, 0, -EINVAL, 0 },
	{ TU, "-0", 2, 0, -EINVAL, 0 },
	{ TU, "0777", 4, 0, 4, 511 },
	{ TU, " 0x10", 5, 0, 5, 16 },
	{ TU, "z", 1, 0, -EINVAL, 0 },
};

static struct oracle *orc;
static bool kernel;
static uint8_t pkt[HR_STR_PKT_SIZE];
static unsigned int runs;

/* Puts @a's bytes in the packet; its hr_str_case kind and p. */
static void place(const struct sarg *a, uint32_t off, __u32 *kind, __u64 *p)
{
	*kind = a->kind;
	*p = a->p;
	if (!a->bytes)
		return;
	if (a->at_end)
		off = HR_STR_PKT_SIZE - (uint32_t)a->len;
	memcpy(pkt + off, a->bytes, a->len);
	*p = off;
}

static void describe(const struct sarg *a, char *out, size_t sz)
{
	static const char *const kinds[] = { "pkt",    "raw",	"long_a",
					     "long_b", "stack", "ro" };
	size_t i, n = 0;

	if (!a->bytes) {
		snprintf(out, sz, "%s+%#llx", kinds[a->kind],
			 (unsigned long long)a->p);
		return;
	}
	n += snprintf(out, sz, "%s%s\"", kinds[a->kind],
		      a->at_end ? "(end)" : "");
	for (i = 0; i < a->len && a->bytes[i] && n + 5 < sz; i++)
		n += snprintf(out + n, sz - n,
			      (uint8_t)a->bytes[i] >= 0x80 ? "\\x%02x" : "%c",
			      (uint8_t)a->bytes[i]);
	snprintf(out + n, sz - n, "\"");
}

/* One packet run in headroom (XDP, or tc with @skb), checked against
 * @want and @want_res, then through the kernel unless @hr_only. */
static void run(const char *label, bool hr_only, int64_t want, int64_t want_res,
		const struct __sk_buff *skb)
{
	struct oracle_case c = { .obj = "str_kfuncs.o",
				 .prog = skb ? "tc_str" : "xdp_str",
				 .data = pkt,
				 .size = sizeof(pkt),
				 .skb = skb };
	static struct oracle_result r;
	struct hr_str_case out;
	uint32_t pass = skb ? 0 /* TC_ACT_OK */ : XDP_PASS;

	runs++;
	CHECK(oracle_run_headroom(orc, &c, &r) == 0 && r.retval == pass,
	      "%s: run (retval %u)", label, r.retval);
	memcpy(&out, r.out + HR_STR_CASE_OFF, sizeof(out));
	CHECK(out.ret == want && out.res == want_res,
	      "%s: %lld (*res %lld), want %lld (*res %lld)", label,
	      (long long)out.ret, (long long)out.res, (long long)want,
	      (long long)want_res);
	if (kernel && !hr_only)
		CHECK(oracle_check(orc, &c, label) == 1, "%s differs", label);
}

static void one(const struct scase *s, const struct __sk_buff *skb)
{
	struct hr_str_case k = { .magic = HR_STR_MAGIC,
				 .op = s->op,
				 .c = s->c,
				 .n = s->n,
				 .res = SENTINEL };
	char a[96], b[96], label[256];

	memset(pkt, 0, sizeof(pkt));
	place(&s->a, OFF1, &k.k1, &k.p1);
	place(&s->b, OFF2, &k.k2, &k.p2);
	memcpy(pkt + HR_STR_CASE_OFF, &k, sizeof(k));
	describe(&s->a, a, sizeof(a));
	describe(&s->b, b, sizeof(b));
	snprintf(label, sizeof(label), "%s %s(%s, %s, c %d, n %llu)",
		 skb ? "tc" : "xdp", op_names[s->op], a, b, s->c,
		 (unsigned long long)s->n);
	run(label, s->hr_only, s->want, SENTINEL, skb);
}

static void one_tox(const struct tcase *t, const struct __sk_buff *skb)
{
	struct hr_str_case k = { .magic = HR_STR_MAGIC,
				 .op = t->op,
				 .c = (int32_t)t->flags,
				 .n = t->len,
				 .p1 = OFF1,
				 .res = SENTINEL };
	char label[160];

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + OFF1, t->buf, t->len);
	memcpy(pkt + HR_STR_CASE_OFF, &k, sizeof(k));
	snprintf(label, sizeof(label), "%s %s(\"%.*s\", %u, %#x)",
		 skb ? "tc" : "xdp", op_names[t->op], (int)t->len, t->buf,
		 t->len, t->flags);
	run(label, false, t->want, t->want_res, skb);
}

/* bpf_strtol past its 63-byte copy: whitespace skipped first, then at
 * most 63 digits parsed. */
static void tox_long(const struct __sk_buff *skb)
{
	static char buf[HR_STR_TOX_BUF + 1];
	struct tcase t = { TL, buf, HR_STR_TOX_BUF, 0 };

	memset(buf, ' ', 100);
	memcpy(buf + 100, "42", 2);
	memset(buf + 102, 'x', HR_STR_TOX_BUF - 102);
	t.want = 102;
	t.want_res = 42;
	one_tox(&t, skb);
	memset(buf, '0', HR_STR_TOX_BUF);
	buf[70] = '1';
	t.want = 63;
	t.want_res = 0;
	one_tox(&t, skb);
	memset(buf, ' ', HR_STR_TOX_BUF);
	memcpy(buf + 60, "-0x7fffffffffffffff", 19);
	t.want = 79;
	t.want_res = -INT64_MAX;
	one_tox(&t, skb);
}

/* Every case, XDP then tc, with the engine @o has set. */
static void all(struct oracle *o, bool have_kernel)
{
	struct __sk_buff skb;
	size_t i, t;

	orc = o;
	kernel = have_kernel;
	memset(&skb, 0, sizeof(skb));
	for (t = 0; t < 2; t++) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			one(&cases[i], t ? &skb : NULL);
		for (i = 0; i < sizeof(tox) / sizeof(tox[0]); i++)
			one_tox(&tox[i], t ? &skb : NULL);
		tox_long(t ? &skb : NULL);
	}
}

int main(void)
{
	int ret = oracle_main_engines(all);

	printf("%u runs\n", runs);
	return ret;
}
