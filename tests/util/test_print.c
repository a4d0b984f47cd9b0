// SPDX-License-Identifier: MIT
/*
 * The library's messages (include/headroom/print.h): dropped by default,
 * handed to the user's function once one is set, with the level and the
 * text, and dropped again after hr_set_print(NULL).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "headroom/print.h"
#include "core/pool.h"

static char seen[512];
static int seen_level = -1;
static unsigned int calls;

static int capture(enum hr_print_level level, const char *fmt, va_list args)
{
	calls++;
	seen_level = level;
	return vsnprintf(seen, sizeof(seen), fmt, args);
}

/* A bad put is a warning the library gives without being asked. */
static void bad_put(struct hr_pool *pool)
{
	static char not_a_frame[64];

	hr_pool_put(pool, not_a_frame);
}

int main(void)
{
	struct hr_pool *pool;
	hr_print_fn_t old;

	CHECK(hr_pool_create(64, &pool) == 0, "pool");
	bad_put(pool);
	CHECK(calls == 0, "nothing printed before a function is set");

	old = hr_set_print(capture);
	CHECK(old == NULL, "no function by default");
	bad_put(pool);
	CHECK(calls == 1, "one message, got %u", calls);
	CHECK(seen_level == HR_WARN, "a warning");
	CHECK(strstr(seen, "headroom: pool: bad put") != NULL, "text: %s",
	      seen);

	CHECK(hr_set_print(NULL) == capture, "old function returned");
	bad_put(pool);
	CHECK(calls == 1, "dropped again after hr_set_print(NULL)");
	CHECK(hr_pool_bad_puts(pool) == 3, "every bad put still counted");
	hr_pool_destroy(pool);
	return t_done();
}
