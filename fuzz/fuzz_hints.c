// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the RX hints reader (src/dev/hints_file.c): the
 * input is a JSON-lines hints file, loaded for a packet count taken from
 * its first byte (so indices past the end are met), and each line parsed
 * on its own as the reader does.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev/hints_file.h"
#include "lib/fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct hr_hint *hints = NULL, h;
	size_t npkts = len ? data[0] : 0;
	char path[64], *text, *line, *next;
	char why[256];
	bool has_index;
	uint8_t have;
	uint64_t index;
	int fd;

	fd = fuzz_memfile(data, len, path, sizeof(path));
	if (fd >= 0) {
		if (hr_hints_load(path, npkts, &hints) == 0 && npkts && !hints)
			abort();
		free(hints);
		close(fd);
	}
	text = fuzz_strdup(data, len);
	if (!text)
		return 0;
	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		hr_hints_parse(line, &h, &has_index, &index, why, sizeof(why));
		hr_hints_profile(line, &have, why, sizeof(why));
	}
	free(text);
	return 0;
}
