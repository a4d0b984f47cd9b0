// SPDX-License-Identifier: MIT
/*
 * The libwiretap capture files of src/dev/pcapng.c: pcapng written with
 * timestamps and comments and read back as written; a
 * ".pcap" name gives classic pcap (no options) that libpcap reads; the
 * reader names a non-Ethernet link type; a missing file is an error.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "dev/pcapng.h"

#define NPKTS 5

struct readback {
	unsigned int n;
	uint64_t ts[NPKTS];
	uint32_t len[NPKTS];
	uint8_t first[NPKTS];
	unsigned int ncomments[NPKTS];
	char comment[NPKTS][2][64];
	bool ethernet, raw_ip;
	char linktype[32];
};

static int collect(void *arg, const struct hr_pcapng_pkt *p)
{
	struct readback *rb = arg;
	unsigned int i = rb->n, c;

	if (i >= NPKTS)
		return -E2BIG;
	rb->ts[i] = p->ts_ns;
	rb->len[i] = p->caplen;
	rb->first[i] = p->caplen ? p->data[0] : 0;
	rb->ncomments[i] = p->ncomments;
	for (c = 0; c < p->ncomments && c < 2; c++)
		snprintf(rb->comment[i][c], sizeof(rb->comment[i][c]), "%s",
			 hr_pcapng_comment(p, c));
	rb->ethernet = p->ethernet;
	rb->raw_ip = p->raw_ip;
	snprintf(rb->linktype, sizeof(rb->linktype), "%s", p->linktype);
	rb->n++;
	return 0;
}

static int stop_at_two(void *arg, const struct hr_pcapng_pkt *p)
{
	return p->index == 1 ? 42 : 0;
}

static void test_pcapng_roundtrip(const char *path)
{
	struct hr_pcapng_writer *w = NULL;
	struct readback rb = { 0 };
	uint8_t pkt[64];
	char c0[64], c1[64];
	unsigned int i;

	CHECK_EQ(hr_pcapng_open(path, HR_PCAPNG_AUTO, &w), 0);
	if (!w)
		return;
	CHECK(hr_pcapng_is_ng(w), "a .pcapng name gives pcapng");
	for (i = 0; i < NPKTS; i++) {
		const char *comments[2] = { c0, c1 };
		struct hr_pcapng_rec r = {
			.data = pkt,
			.caplen = 60 + i,
			.ts_ns = 1700000000123456789ull + i * 1001,
			.comments = comments,
			.ncomments = i % 3,
		};

		memset(pkt, (int)(0xa0 + i), sizeof(pkt));
		snprintf(c0, sizeof(c0), "packet %u first", i);
		snprintf(c1, sizeof(c1), "hr-hints: {\"hash\":%u}", i);
		CHECK_EQ(hr_pcapng_write(w, &r), 0);
	}
	CHECK_EQ(hr_pcapng_count(w), NPKTS);
	CHECK_EQ(hr_pcapng_close(w), 0);

	CHECK_EQ(hr_pcapng_each(path, collect, &rb), 0);
	CHECK_EQ(rb.n, NPKTS);
	CHECK(rb.ethernet, "linktype %s", rb.linktype);
	for (i = 0; i < rb.n; i++) {
		char want[64];

		CHECK(rb.ts[i] == 1700000000123456789ull + i * 1001,
		      "packet %u ts %llu", i, (unsigned long long)rb.ts[i]);
		CHECK_EQ(rb.len[i], 60 + i);
		CHECK_EQ(rb.first[i], 0xa0 + i);
		CHECK_EQ(rb.ncomments[i], i % 3);
		if (rb.ncomments[i] >= 1) {
			snprintf(want, sizeof(want), "packet %u first", i);
			CHECK(!strcmp(rb.comment[i][0], want), "'%s'",
			      rb.comment[i][0]);
		}
		if (rb.ncomments[i] >= 2) {
			snprintf(want, sizeof(want), "hr-hints: {\"hash\":%u}",
				 i);
			CHECK(!strcmp(rb.comment[i][1], want), "'%s'",
			      rb.comment[i][1]);
		}
	}
	/* The callback's non-zero answer stops the walk and is returned. */
	CHECK_EQ(hr_pcapng_each(path, stop_at_two, NULL), 42);
}

/* A .pcap name: classic pcap, which libpcap itself reads. */
static void test_classic(const char *path)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct hr_pcapng_writer *w = NULL;
	struct readback rb = { 0 };
	struct pcap_pkthdr *h;
	const u_char *data;
	uint8_t pkt[60] = { 0x11 };
	const char *c = "dropped in classic pcap";
	struct hr_pcapng_rec r = { .data = pkt,
				   .caplen = sizeof(pkt),
				   .ts_ns = 5000000007ull,
				   .comments = &c,
				   .ncomments = 1 };
	pcap_t *p;

	CHECK_EQ(hr_pcapng_open(path, HR_PCAPNG_AUTO, &w), 0);
	if (!w)
		return;
	CHECK(!hr_pcapng_is_ng(w), ".pcap is classic");
	CHECK_EQ(hr_pcapng_write(&*w, &r), 0);
	CHECK_EQ(hr_pcapng_close(w), 0);
	p = pcap_open_offline_with_tstamp_precision(
		path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	CHECK(p != NULL, "%s", errbuf);
	if (p) {
		CHECK_EQ(pcap_datalink(p), DLT_EN10MB);
		CHECK_EQ(pcap_next_ex(p, &h, &data), 1);
		CHECK_EQ(h->caplen, sizeof(pkt));
		CHECK_EQ(h->ts.tv_sec, 5);
		CHECK_EQ(h->ts.tv_usec, 7);
		pcap_close(p);
	}
	CHECK_EQ(hr_pcapng_each(path, collect, &rb), 0);
	CHECK_EQ(rb.n, 1);
	CHECK_EQ(rb.ncomments[0], 0);
	CHECK_EQ(rb.ts[0], 5000000007ull);
}

/* A raw-IP capture (linktype 101) made with libpcap: named, not Ethernet. */
static void test_raw_ip(const char *path)
{
	struct readback rb = { 0 };
	uint8_t ip[20] = { 0x45, 0, 0, 20, 0, 0, 0, 0, 64, 17 };
	struct pcap_pkthdr h = { .caplen = sizeof(ip), .len = sizeof(ip) };
	pcap_dumper_t *d;
	pcap_t *p = pcap_open_dead(DLT_RAW, 65535);

	d = pcap_dump_open(p, path);
	CHECK(d != NULL, "%s", pcap_geterr(p));
	if (!d) {
		pcap_close(p);
		return;
	}
	pcap_dump((u_char *)d, &h, ip);
	pcap_dump_close(d);
	pcap_close(p);
	CHECK_EQ(hr_pcapng_each(path, collect, &rb), 0);
	CHECK_EQ(rb.n, 1);
	CHECK(!rb.ethernet, "raw IP read as Ethernet");
	CHECK(rb.raw_ip, "linktype %s", rb.linktype);
	CHECK(!strcmp(rb.linktype, "rawip"), "linktype '%s'", rb.linktype);
}

static void test_errors(const char *dir)
{
	struct hr_pcapng_writer *w = NULL;
	char path[512];
	FILE *f;

	CHECK_EQ(hr_pcapng_each("/nonexistent/hr-hints.pcapng", collect, NULL),
		 -ENOENT);
	snprintf(path, sizeof(path), "%s/garbage.pcapng", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("this is not a capture file at all\n", f);
		fclose(f);
	}
	CHECK(hr_pcapng_each(path, collect, NULL) < 0, "garbage accepted");
	CHECK(hr_pcapng_open("/nonexistent/dir/out.pcapng", HR_PCAPNG_AUTO,
			     &w) < 0,
	      "opened a file in a missing directory");
	unlink(path);
}

int main(void)
{
	char dir[] = "/tmp/hr-hints-pcapng-XXXXXX", path[512];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/a.pcapng", dir);
	test_pcapng_roundtrip(path);
	unlink(path);
	snprintf(path, sizeof(path), "%s/b.pcap", dir);
	test_classic(path);
	unlink(path);
	snprintf(path, sizeof(path), "%s/raw.pcap", dir);
	test_raw_ip(path);
	unlink(path);
	test_errors(dir);
	rmdir(dir);
	return t_done();
}
