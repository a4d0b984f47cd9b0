// SPDX-License-Identifier: MIT
/* Inputs as files and strings for the harnesses (fuzz_file.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_file.h"

int fuzz_memfile(const uint8_t *data, size_t len, char *path, size_t pathsz)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	size_t done = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (done < len) {
		n = write(fd, data + done, len - done);
		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	snprintf(path, pathsz, "/proc/self/fd/%d", fd);
	return fd;
}

char *fuzz_strdup(const uint8_t *data, size_t len)
{
	char *s = malloc(len + 1);

	if (!s)
		return NULL;
	memcpy(s, data, len);
	s[len] = '\0';
	return s;
}
