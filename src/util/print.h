/* SPDX-License-Identifier: MIT */
/* Inside the library: messages through the user's print function. */
#ifndef HR_UTIL_PRINT_H
#define HR_UTIL_PRINT_H

#include "headroom/print.h"

void hr_pr(enum hr_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define hr_pr_warn(fmt, ...) hr_pr(HR_WARN, "headroom: " fmt, ##__VA_ARGS__)
#define hr_pr_info(fmt, ...) hr_pr(HR_INFO, "headroom: " fmt, ##__VA_ARGS__)
#define hr_pr_debug(fmt, ...) hr_pr(HR_DEBUG, "headroom: " fmt, ##__VA_ARGS__)

#endif /* HR_UTIL_PRINT_H */
