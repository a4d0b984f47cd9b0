// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the pcap/pcapng reader (src/dev/pcap_file.c):
 * the input is a capture file, read whole as the pcap device reads it
 * (hr_pcap_read_all), with a packet length limit taken from its size so
 * that both the kept and the skipped paths run. Every kept packet is then
 * read end to end, so a wrong offset or length is an ASan report.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "dev/pcap_file.h"
#include "lib/fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const uint32_t limits[] = { 60, 1514, 9000, 65535 };
	struct hr_pcap_pkts pkts = { 0 };
	volatile uint8_t sum = 0;
	char path[64];
	size_t i, j;
	int fd;

	fd = fuzz_memfile(data, len, path, sizeof(path));
	if (fd < 0)
		return 0;
	if (hr_pcap_read_all(path, limits[len % 4], &pkts) == 0 || pkts.n) {
		if (pkts.n > pkts.nfile)
			abort();
		for (i = 0; i < pkts.n; i++) {
			if (pkts.len[i] > limits[len % 4])
				abort();
			for (j = 0; j < pkts.len[i]; j++)
				sum ^= pkts.data[pkts.off[i] + j];
		}
	}
	hr_pcap_pkts_free(&pkts);
	close(fd);
	return 0;
}
