// SPDX-License-Identifier: MIT
/*
 * bpf_strtol (#105) and bpf_strtoul (#106) of kernel/bpf/helpers.c, with
 * __bpf_strtoull and __bpf_strtoll under them and lib/kstrtox.c's
 * _parse_integer_fixup_radix and _parse_integer_limit: leading white
 * space (the kernel's Latin-1 isspace) and one '-' skipped, at most 63
 * of the bytes after them parsed as if NUL-ended there, base 0, 8, 10 or
 * 16 from the flags with 0 taking the "0x" / "0" prefix, -ERANGE on
 * overflow, -EINVAL for no digits. The answer is the number of bytes
 * consumed; *res is cleared first and set only on success.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "helpers/helpers.h"
#include "helpers/kctype.h"

/* include/uapi/linux/bpf.h: the flags are the base, nothing else. */
#define BPF_STRTOX_BASE_MASK 0x1fu
/* __bpf_strtoull's copy: 64 bytes with the NUL it adds. */
#define STRTOX_COPY 64

struct strtox {
	uint64_t val;
	bool negative;
};

/* _parse_integer_fixup_radix: the base a 0 stands for, and the "0x" a
 * base of 16 skips. */
static const char *fixup_radix(const char *s, unsigned int *base)
{
	if (*base == 0) {
		if (s[0] != '0')
			*base = 10;
		else if ((s[1] | 0x20) == 'x' && hr_kisxdigit(s[2]))
			*base = 16;
		else
			*base = 8;
	}
	if (*base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	return s;
}

/* The digit @c is in bases up to 16, or 16 for none. */
static unsigned int digit(unsigned char c)
{
	unsigned int lc = c | 0x20;

	if (c >= '0' && c <= '9')
		return c - '0';
	if (lc >= 'a' && lc <= 'f')
		return lc - 'a' + 10;
	return 16;
}

/* _parse_integer: the digits at @s in @base, how many in *@n; false on
 * overflow (the digits are still all consumed, as the kernel counts
 * them before it looks at the flag). */
static bool parse_digits(const char *s, unsigned int base, uint64_t *val,
			 unsigned int *n)
{
	bool ok = true;
	unsigned int d;
	uint64_t v = 0;

	for (*n = 0; (d = digit((unsigned char)s[*n])) < base; (*n)++) {
		if (v > (UINT64_MAX - d) / base)
			ok = false;
		v = v * base + d;
	}
	*val = v;
	return ok;
}

/* __bpf_strtoull: bytes consumed, or -errno. */
static int strtoull_buf(const char *buf, uint64_t len, uint64_t flags,
			struct strtox *out)
{
	unsigned int base = flags & BPF_STRTOX_BASE_MASK, n;
	char str[STRTOX_COPY];
	uint64_t i = 0, rest;
	const char *s;

	if (!len || (base != 0 && base != 8 && base != 10 && base != 16) ||
	    (flags & ~(uint64_t)BPF_STRTOX_BASE_MASK))
		return -EINVAL;
	while (i < len && hr_kisspace((unsigned char)buf[i]))
		i++;
	out->negative = i < len && buf[i] == '-';
	i += out->negative;
	if (i == len)
		return -EINVAL;
	rest = len - i < sizeof(str) - 1 ? len - i : sizeof(str) - 1;
	memcpy(str, buf + i, rest);
	/* NUL-padded past it: fixup_radix may look two bytes ahead. */
	memset(str + rest, 0, sizeof(str) - rest);
	s = fixup_radix(str, &base);
	if (!parse_digits(s, base, &out->val, &n))
		return -ERANGE;
	if (!n)
		return -EINVAL;
	return (int)(i + (uint64_t)(s + n - str));
}

/* The buffer and the 8-byte aligned result the verifier would have
 * proven; NULL after an abort. */
static int64_t *strtox_args(struct hr_run *run, uint64_t buf, uint64_t len,
			    uint64_t res, const char **b)
{
	if (res & 7) {
		hr_run_abort(run, HR_ABORT_HELPER_ARG, res);
		return NULL;
	}
	*b = hr_run_mem(run, buf, len, false);
	if (!*b)
		return NULL;
	return hr_run_mem(run, res, sizeof(int64_t), true);
}

/* bpf_strtol (@is_signed) and bpf_strtoul. */
static uint64_t strtox_fn(uint64_t buf, uint64_t len, uint64_t flags,
			  uint64_t res, struct hr_run *run, bool is_signed)
{
	const char *b;
	int64_t *out = strtox_args(run, buf, len, res, &b);
	struct strtox v;
	int ret;

	if (!out)
		return 0;
	*out = 0;
	ret = strtoull_buf(b, len, flags, &v);
	if (ret < 0)
		return (uint64_t)(int64_t)ret;
	if (!is_signed && v.negative)
		return (uint64_t)(int64_t)-EINVAL;
	/* __bpf_strtoll: the magnitude must fit the sign it has. */
	if (is_signed &&
	    (v.negative ? v.val > (uint64_t)INT64_MAX + 1 : v.val > INT64_MAX))
		return (uint64_t)(int64_t)-ERANGE;
	*out = (int64_t)(v.negative ? 0 - v.val : v.val);
	return (uint64_t)ret;
}

static uint64_t strtol_fn(uint64_t buf, uint64_t len, uint64_t flags,
			  uint64_t res, uint64_t r5, struct hr_run *run)
{
	return strtox_fn(buf, len, flags, res, run, true);
}

static uint64_t strtoul_fn(uint64_t buf, uint64_t len, uint64_t flags,
			   uint64_t res, uint64_t r5, struct hr_run *run)
{
	return strtox_fn(buf, len, flags, res, run, false);
}

const struct hr_helper hr_helper_strtol = {
	.id = 105, /* BPF_FUNC_strtol */
	.name = "bpf_strtol",
	.fn = strtol_fn,
};

const struct hr_helper hr_helper_strtoul = {
	.id = 106, /* BPF_FUNC_strtoul */
	.name = "bpf_strtoul",
	.fn = strtoul_fn,
};
