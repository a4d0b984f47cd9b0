// SPDX-License-Identifier: MIT
/*
 * The library's one way to say something (include/headroom/print.h), after
 * libbpf's libbpf_print(): messages go to the user's function or nowhere.
 */
#include <stdio.h>

#include "headroom/print.h"
#include "util/print.h"

static hr_print_fn_t hr_print_fn;

hr_print_fn_t hr_set_print(hr_print_fn_t fn)
{
	return __atomic_exchange_n(&hr_print_fn, fn, __ATOMIC_ACQ_REL);
}

int hr_print_stderr(enum hr_print_level level, const char *fmt, va_list args)
{
	if (level == HR_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, args);
}

void hr_pr(enum hr_print_level level, const char *fmt, ...)
{
	hr_print_fn_t fn = __atomic_load_n(&hr_print_fn, __ATOMIC_ACQUIRE);
	va_list args;

	if (!fn)
		return;
	va_start(args, fmt);
	fn(level, fmt, args);
	va_end(args);
}
