// SPDX-License-Identifier: MIT
/*
 * Inputs the libFuzzer harnesses (fuzz/) found, each kept as a test of
 * the rule its fix established, so it runs under every build of
 * `make test` (and ASan/UBSan with SAN=1) without libFuzzer.
 *
 * fuzz_pcap: a capture whose kept packets are all empty left the packet
 * buffer NULL, and each packet's address data + off was arithmetic on a
 * null pointer (UBSan). Rule: every kept packet, empty or not, points
 * into an allocated buffer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev/pcap_file.h"
#include "harness.h"

/* A little-endian microsecond pcap file of @n empty Ethernet packets. */
static int write_empty_pcap(const char *path, unsigned int n)
{
	const uint32_t hdr[6] = { 0xa1b2c3d4, 2 | (4u << 16), 0, 0, 65535, 1 };
	uint32_t rec[4] = { 1700000000, 0, 0, 0 };
	FILE *f = fopen(path, "wb");
	unsigned int i;
	int ok;

	if (!f)
		return -1;
	ok = fwrite(hdr, sizeof(hdr), 1, f) == 1;
	for (i = 0; ok && i < n; i++) {
		rec[1] = i;
		ok = fwrite(rec, sizeof(rec), 1, f) == 1;
	}
	return fclose(f) == 0 && ok ? 0 : -1;
}

static void pcap_empty_packets(void)
{
	char path[] = "/tmp/hr-fuzz-regress-XXXXXX";
	struct hr_pcap_pkts pkts;
	int fd = mkstemp(path), ret;
	size_t i;

	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return;
	close(fd);
	CHECK(write_empty_pcap(path, 3) == 0, "write %s", path);
	ret = hr_pcap_read_all(path, 1514, &pkts);
	CHECK(ret == 0, "read: %d", ret);
	CHECK(pkts.n == 3 && pkts.nfile == 3, "%zu kept of %zu", pkts.n,
	      pkts.nfile);
	CHECK(pkts.data != NULL, "empty packets have no buffer");
	for (i = 0; i < pkts.n; i++)
		CHECK(pkts.len[i] == 0 && pkts.off[i] == 0,
		      "packet %zu: len %u off %zu", i, pkts.len[i],
		      pkts.off[i]);
	hr_pcap_pkts_free(&pkts);
	unlink(path);
}

int main(void)
{
	pcap_empty_packets();
	return t_done();
}
