/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the libFuzzer harnesses: an input as a file that
 * readers which take a path can open.
 */
#ifndef HR_FUZZ_FILE_H
#define HR_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Writes @len bytes of @data to an anonymous memory file and puts its
 * /proc/self/fd path in @path (@pathsz bytes). Returns the descriptor,
 * which the caller closes, or -1.
 */
int fuzz_memfile(const uint8_t *data, size_t len, char *path, size_t pathsz);

/* A NUL-terminated copy of @data (malloc()ed), or NULL. */
char *fuzz_strdup(const uint8_t *data, size_t len);

#endif /* HR_FUZZ_FILE_H */
