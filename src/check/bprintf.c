// SPDX-License-Identifier: MIT
/*
 * The format string test the verifier makes of bpf_snprintf's constant
 * format (check_bpf_snprintf_call -> bpf_bprintf_prepare, without the
 * arguments, kernel/bpf/helpers.c of 6.18): ASCII printable or space
 * only, at most @num_args conversions, each of the forms the kernel
 * formats itself: "%%", then after optional "0+- " flags and a width,
 * %p with nothing after it or %pK %px %ps %pS %pB %pks %pus %pi4 %pI4
 * %pi6 %pI6, %s and %pks/%pus followed by the end, a space or a
 * punctuation mark, %c, and %[l[l]]{d,i,u,x,X}.
 */
#include <ctype.h>

#include "check/check.h"

static bool end_of_word(char c)
{
	return !c || isspace((unsigned char)c) || ispunct((unsigned char)c);
}

/* The conversion at @fmt[*i] (after its '%'), *i left on its last char. */
static bool conversion_ok(const char *fmt, size_t *i)
{
	size_t j = *i;

	while (fmt[j] == '0' || fmt[j] == '+' || fmt[j] == '-' || fmt[j] == ' ')
		j++;
	if (fmt[j] >= '1' && fmt[j] <= '9')
		while (fmt[j] >= '0' && fmt[j] <= '9')
			j++;
	*i = j;
	if (fmt[j] == 'p') {
		char c = fmt[j + 1];

		if (end_of_word(c))
			return true;
		if ((c == 'k' || c == 'u') && fmt[j + 2] == 's') {
			*i = j + 2;
			return end_of_word(fmt[j + 3]);
		}
		*i = j + 1;
		if (c == 'K' || c == 'x' || c == 's' || c == 'S' || c == 'B')
			return true;
		*i = j + 2;
		return (c == 'i' || c == 'I') &&
		       (fmt[j + 2] == '4' || fmt[j + 2] == '6');
	}
	if (fmt[j] == 's')
		return end_of_word(fmt[j + 1]);
	if (fmt[j] == 'c')
		return true;
	if (fmt[j] == 'l')
		j++;
	if (fmt[j] == 'l')
		j++;
	*i = j;
	return fmt[j] == 'i' || fmt[j] == 'd' || fmt[j] == 'u' ||
	       fmt[j] == 'x' || fmt[j] == 'X';
}

bool hr_check_bprintf_fmt_ok(const char *fmt, uint32_t num_args)
{
	uint32_t nspec = 0;
	size_t i;

	for (i = 0; fmt[i]; i++) {
		unsigned char c = (unsigned char)fmt[i];

		if (!isascii(c) || (!isprint(c) && !isspace(c)))
			return false;
		if (c != '%')
			continue;
		if (fmt[i + 1] == '%') {
			i++;
			continue;
		}
		if (nspec >= num_args)
			return false;
		i++;
		if (!conversion_ok(fmt, &i))
			return false;
		nspec++;
	}
	return true;
}
