/* SPDX-License-Identifier: MIT */
/* Option structs carry their own size, as libbpf's *_opts do. */
#ifndef HEADROOM_OPTS_H
#define HEADROOM_OPTS_H

#include <stddef.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Declares and zero-initialises @NAME of struct @TYPE with .sz set. */
#define HR_OPTS(TYPE, NAME, ...)                                               \
	struct TYPE NAME = ({                                                  \
		struct TYPE __o;                                               \
		memset(&__o, 0, sizeof(__o));                                  \
		__o = (struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ }; \
		__o;                                                           \
	})

/* True when @opts (of size opts->sz) reaches @FIELD. */
#define HR_OPTS_HAS(opts, FIELD)                                    \
	((opts) && (opts)->sz >= offsetof(typeof(*(opts)), FIELD) + \
					 sizeof((opts)->FIELD))

/* @FIELD of @opts, or @DEF when the caller's struct is too old to have it. */
#define HR_OPTS_GET(opts, FIELD, DEF) \
	(HR_OPTS_HAS(opts, FIELD) ? (opts)->FIELD : (DEF))

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_OPTS_H */
