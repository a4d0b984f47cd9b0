// SPDX-License-Identifier: MIT
/*
 * The read-only string kfuncs of kernel/bpf/helpers.c as Linux 6.18 has
 * them: bpf_strcmp, bpf_strcasecmp (__bpf_strcasecmp), bpf_strchr,
 * bpf_strnchr, bpf_strchrnul, bpf_strrchr, bpf_strlen, bpf_strnlen,
 * bpf_strspn, bpf_strcspn, bpf_strstr and bpf_strnstr (__bpf_strnstr).
 * They return indexes, not pointers, and errors: -ENOENT for "not found",
 * -E2BIG once XATTR_SIZE_MAX bytes were read without an answer, -ERANGE
 * for a pointer copy_from_kernel_nofault_allowed refuses, -EFAULT where a
 * read faults. The kernel builds with -funsigned-char, so bytes compare
 * unsigned; bpf_strrchr's int c is compared with a byte so promoted.
 *
 * The verifier checks none of these arguments (__ign), so any number may
 * come as a pointer. Here every byte is read through the run's memory
 * check as the kernel reads it (__get_kernel_nofault, one at a time, in
 * the kernel's order): a byte the program may not read ends the scan
 * with -EFAULT and is never read. A pointer in none of the program's
 * memory that no kernel address can be either (below 4096, in the
 * non-canonical hole of 4-level paging, the vsyscall page) gives -ERANGE
 * as the kernel does.
 *
 * Where headroom cannot agree: the kernel reads on past the end of a map
 * value, the packet or the stack into whatever kernel memory follows,
 * and answers from it; headroom stops at the end with -EFAULT. Any other
 * number below the kernel's TASK_SIZE_MAX is -ERANGE there but -EFAULT
 * here, since headroom's own memory lies in that range. A pointer to the
 * context reads the kernel's struct xdp_buff or sk_buff there, and
 * headroom's context (as its field rules allow) here. 5-level paging
 * moves the kernel's bounds; these are 4-level's.
 */
#include <errno.h>
#include <stdint.h>

#include "helpers/helpers.h"
#include "helpers/kctype.h"
#include "vm/mem.h"

/* include/uapi/linux/limits.h: the longest a string may be. */
#define XATTR_SIZE_MAX 65536

/* x86-64 with 4-level paging: the lowest kernel address, the start of
 * the non-canonical hole, and the vsyscall page. */
#define KERNEL_LO 0xffff800000000000ull
#define HOLE_LO (1ull << 47)
#define VSYSCALL_PAGE 0xffffffffff600000ull

/* The byte at @addr, as __get_kernel_nofault gives it; false for one the
 * program may not read, where the kernel's read would fault. */
static bool get_char(const struct hr_run *run, uint64_t addr, unsigned char *c)
{
	if (!run->vm ||
	    hr_mem_check(run, (uintptr_t)addr, 1, false) != HR_ABORT_NONE)
		return false;
	*c = *(const unsigned char *)(uintptr_t)addr;
	return true;
}

bool hr_nofault_allowed(const struct hr_run *run, uint64_t addr)
{
	unsigned char c;

	if (get_char(run, addr, &c))
		return true;
	if (addr < 4096 || (addr >= HOLE_LO && addr < KERNEL_LO))
		return false;
	return (addr & ~0xfffull) != VSYSCALL_PAGE;
}

static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

static unsigned char fold(unsigned char c, bool ignore_case)
{
	return ignore_case ? hr_ktolower(c) : c;
}

/* __bpf_strcasecmp: -1, 0 or 1. */
static int str_casecmp(const struct hr_run *run, uint64_t s1, uint64_t s2,
		       bool ignore_case)
{
	unsigned char c1, c2;
	int i;

	if (!hr_nofault_allowed(run, s1) || !hr_nofault_allowed(run, s2))
		return -ERANGE;
	for (i = 0; i < XATTR_SIZE_MAX; i++) {
		if (!get_char(run, s1 + i, &c1) || !get_char(run, s2 + i, &c2))
			return -EFAULT;
		c1 = fold(c1, ignore_case);
		c2 = fold(c2, ignore_case);
		if (c1 != c2)
			return c1 < c2 ? -1 : 1;
		if (!c1)
			return 0;
	}
	return -E2BIG;
}

/* bpf_strnchr: the first @c in the first @count bytes; the NUL counts. */
static int str_nchr(const struct hr_run *run, uint64_t s, uint64_t count,
		    unsigned char c)
{
	unsigned char sc;
	int i;

	if (!hr_nofault_allowed(run, s))
		return -ERANGE;
	for (i = 0; i < XATTR_SIZE_MAX && (uint64_t)i < count; i++) {
		if (!get_char(run, s + i, &sc))
			return -EFAULT;
		if (sc == c)
			return i;
		if (!sc)
			return -ENOENT;
	}
	return i == XATTR_SIZE_MAX ? -E2BIG : -ENOENT;
}

/* bpf_strchrnul: the first @c, or the NUL's index. */
static int str_chrnul(const struct hr_run *run, uint64_t s, unsigned char c)
{
	unsigned char sc;
	int i;

	if (!hr_nofault_allowed(run, s))
		return -ERANGE;
	for (i = 0; i < XATTR_SIZE_MAX; i++) {
		if (!get_char(run, s + i, &sc))
			return -EFAULT;
		if (!sc || sc == c)
			return i;
	}
	return -E2BIG;
}

/* bpf_strrchr: the last @c; the NUL is the string's and may match. */
static int str_rchr(const struct hr_run *run, uint64_t s, int c)
{
	int i, last = -ENOENT;
	unsigned char sc;

	if (!hr_nofault_allowed(run, s))
		return -ERANGE;
	for (i = 0; i < XATTR_SIZE_MAX; i++) {
		if (!get_char(run, s + i, &sc))
			return -EFAULT;
		if (sc == c)
			last = i;
		if (!sc)
			return last;
	}
	return -E2BIG;
}

/* bpf_strnlen: at most @count, and -E2BIG once XATTR_SIZE_MAX bytes were
 * counted: bpf_strnchr of the NUL but for a @count that runs out first. */
static int str_nlen(const struct hr_run *run, uint64_t s, uint64_t count)
{
	int r = str_nchr(run, s, count, 0);

	/* -ENOENT only when @count (below XATTR_SIZE_MAX) ran out. */
	return r == -ENOENT ? (int)count : r;
}

/* Whether @c is in the string @set: 1, 0, or -EFAULT / -E2BIG when @set
 * cannot be read to its end or to @c. */
static int in_set(const struct hr_run *run, uint64_t set, unsigned char c)
{
	unsigned char sc;
	int j;

	for (j = 0; j < XATTR_SIZE_MAX; j++) {
		if (!get_char(run, set + j, &sc))
			return -EFAULT;
		if (sc == c)
			return 1;
		if (!sc)
			return 0;
	}
	return -E2BIG;
}

/* bpf_strspn (@want 1) and bpf_strcspn (@want 0): the length of the
 * prefix of @s whose bytes are (are not) in @set. A NUL in @s ends it
 * first: it is in every set. */
static int str_span(const struct hr_run *run, uint64_t s, uint64_t set,
		    int want)
{
	unsigned char cs;
	int i, in;

	if (!hr_nofault_allowed(run, s) || !hr_nofault_allowed(run, set))
		return -ERANGE;
	for (i = 0; i < XATTR_SIZE_MAX; i++) {
		if (!get_char(run, s + i, &cs))
			return -EFAULT;
		if (!cs)
			return i;
		in = in_set(run, set, cs);
		if (in < 0)
			return in;
		if (in != want)
			return i;
	}
	return -E2BIG;
}

/*
 * Whether @s2 starts at @s1, within @left bytes of it: 1, 0, or -ENOENT
 * when @s1 ends or the @left bytes do before @s2 does (no later start
 * can match then either), -EFAULT, or -E2BIG for an @s2 of
 * XATTR_SIZE_MAX bytes. @s2's byte is read before @s1's, and one more of
 * it than @left, so that an @s2 ending right there matches.
 */
static int match_at(const struct hr_run *run, uint64_t s1, uint64_t s2,
		    uint64_t left)
{
	unsigned char c1, c2;
	int j;

	for (j = 0; j < XATTR_SIZE_MAX; j++) {
		if (!get_char(run, s2 + j, &c2))
			return -EFAULT;
		if (!c2)
			return 1;
		if ((uint64_t)j == left)
			return -ENOENT;
		if (!get_char(run, s1 + j, &c1))
			return -EFAULT;
		if (!c1)
			return -ENOENT;
		if (c1 != c2)
			return 0;
	}
	return -E2BIG;
}

/* __bpf_strnstr: the first @s2 within the first @len bytes of @s1. A
 * start is only tried while it is within @len (match_at says -ENOENT
 * once one is not), so len - i never wraps. */
static int str_nstr(const struct hr_run *run, uint64_t s1, uint64_t s2,
		    uint64_t len)
{
	int i, m;

	if (!hr_nofault_allowed(run, s1) || !hr_nofault_allowed(run, s2))
		return -ERANGE;
	for (i = 0; i < XATTR_SIZE_MAX; i++) {
		m = match_at(run, s1 + i, s2, len - i);
		if (m < 0)
			return m;
		if (m)
			return i;
	}
	return -E2BIG;
}

static uint64_t kf_strcmp(uint64_t s1, uint64_t s2, uint64_t r3, uint64_t r4,
			  uint64_t r5, struct hr_run *run)
{
	return ret_int(str_casecmp(run, s1, s2, false));
}

static uint64_t kf_strcasecmp(uint64_t s1, uint64_t s2, uint64_t r3,
			      uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return ret_int(str_casecmp(run, s1, s2, true));
}

/* A char argument: the low byte of its register, as the callee reads. */
static uint64_t kf_strchr(uint64_t s, uint64_t c, uint64_t r3, uint64_t r4,
			  uint64_t r5, struct hr_run *run)
{
	return ret_int(str_nchr(run, s, XATTR_SIZE_MAX, (unsigned char)c));
}

static uint64_t kf_strnchr(uint64_t s, uint64_t count, uint64_t c, uint64_t r4,
			   uint64_t r5, struct hr_run *run)
{
	return ret_int(str_nchr(run, s, count, (unsigned char)c));
}

static uint64_t kf_strchrnul(uint64_t s, uint64_t c, uint64_t r3, uint64_t r4,
			     uint64_t r5, struct hr_run *run)
{
	return ret_int(str_chrnul(run, s, (unsigned char)c));
}

static uint64_t kf_strrchr(uint64_t s, uint64_t c, uint64_t r3, uint64_t r4,
			   uint64_t r5, struct hr_run *run)
{
	return ret_int(str_rchr(run, s, (int)(int32_t)c));
}

static uint64_t kf_strlen(uint64_t s, uint64_t r2, uint64_t r3, uint64_t r4,
			  uint64_t r5, struct hr_run *run)
{
	return ret_int(str_nlen(run, s, XATTR_SIZE_MAX));
}

static uint64_t kf_strnlen(uint64_t s, uint64_t count, uint64_t r3, uint64_t r4,
			   uint64_t r5, struct hr_run *run)
{
	return ret_int(str_nlen(run, s, count));
}

static uint64_t kf_strspn(uint64_t s, uint64_t accept, uint64_t r3, uint64_t r4,
			  uint64_t r5, struct hr_run *run)
{
	return ret_int(str_span(run, s, accept, 1));
}

static uint64_t kf_strcspn(uint64_t s, uint64_t reject, uint64_t r3,
			   uint64_t r4, uint64_t r5, struct hr_run *run)
{
	return ret_int(str_span(run, s, reject, 0));
}

static uint64_t kf_strstr(uint64_t s1, uint64_t s2, uint64_t r3, uint64_t r4,
			  uint64_t r5, struct hr_run *run)
{
	return ret_int(str_nstr(run, s1, s2, XATTR_SIZE_MAX));
}

static uint64_t kf_strnstr(uint64_t s1, uint64_t s2, uint64_t len, uint64_t r4,
			   uint64_t r5, struct hr_run *run)
{
	return ret_int(str_nstr(run, s1, s2, len));
}

HR_KFUNC(strcmp, kf_strcmp);
HR_KFUNC(strcasecmp, kf_strcasecmp);
HR_KFUNC(strchr, kf_strchr);
HR_KFUNC(strnchr, kf_strnchr);
HR_KFUNC(strchrnul, kf_strchrnul);
HR_KFUNC(strrchr, kf_strrchr);
HR_KFUNC(strlen, kf_strlen);
HR_KFUNC(strnlen, kf_strnlen);
HR_KFUNC(strspn, kf_strspn);
HR_KFUNC(strcspn, kf_strcspn);
HR_KFUNC(strstr, kf_strstr);
HR_KFUNC(strnstr, kf_strnstr);
