/* SPDX-License-Identifier: MIT */
/*
 * Where the library's messages go. The library never writes to a stream
 * by itself: every warning (a program left out, a damaged capture, a bad
 * frame put back) goes to the function set here, as libbpf_set_print()
 * does for libbpf. By default there is none and messages are dropped; the
 * headroom command sets one that writes to stderr.
 */
#ifndef HEADROOM_PRINT_H
#define HEADROOM_PRINT_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

enum hr_print_level {
	HR_WARN,
	HR_INFO,
	HR_DEBUG,
};

typedef int (*hr_print_fn_t)(enum hr_print_level level, const char *fmt,
			     va_list args);

/* Sets the message function (NULL: drop messages); returns the old one. */
hr_print_fn_t hr_set_print(hr_print_fn_t fn);

/* A message function that writes HR_WARN and HR_INFO to stderr. */
int hr_print_stderr(enum hr_print_level level, const char *fmt, va_list args);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_PRINT_H */
