// SPDX-License-Identifier: MIT
/*
 * The pcap device: packets from a pcap written here with libpcap, hints
 * from a JSON-lines file applied by packet index (missing fields give
 * -ENODATA, read by progs/dev/dev_hints.bpf.c through the kfuncs), malformed
 * hints an error naming the line, a truncated file still giving the
 * packets before the damage, oversized packets dropped and counted, and
 * transmitted frames written to the output pcap. No <linux/bpf.h> here:
 * it clashes with libpcap's headers.
 */
#include <errno.h>
#include <fcntl.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "headroom/print.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "core/pool.h"
#include "core/skb.h"
#include "dev/dev.h"
#include "dev/hints_file.h"

#define NPKT 6
#define XDP_TX_VERDICT 3

struct dev_hints_meta {
	int32_t ret_ts, ret_hash, ret_vlan;
	uint32_t hash, rss_type;
	uint16_t vlan_proto, vlan_tci;
	uint64_t ts;
};

static const uint32_t sizes[NPKT] = { 60, 128, 4000, 1514, 3520, 61 };

static struct {
	uint32_t len;
	uint8_t first;
	struct dev_hints_meta m;
} got[16];
static unsigned int ngot;
static struct hr_dev capdev;
static char dir[] = "/tmp/hr-test-pcap-XXXXXX";

static void cap_deliver(struct hr_dev *dev, struct hr_worker *w,
			struct hr_skb *skb)
{
	if (ngot < 16) {
		got[ngot].len = skb->len;
		got[ngot].first = skb->data[14];
		if (skb->meta_len == sizeof(got[ngot].m))
			memcpy(&got[ngot].m, skb->data - skb->meta_len,
			       sizeof(got[ngot].m));
	}
	ngot++;
	hr_skb_free(skb);
}

static void fill(uint8_t *b, uint32_t len, unsigned int i)
{
	uint32_t k;

	for (k = 0; k < len; k++)
		b[k] = (uint8_t)(k * 7 + i);
	b[12] = 0x08;
	b[13] = 0x00;
	b[14] = (uint8_t)(0xa0 + i); /* identifies packet i */
}

static void write_pcap(const char *path)
{
	static uint8_t buf[4096];
	pcap_t *p = pcap_open_dead(DLT_EN10MB, 65535);
	pcap_dumper_t *d = pcap_dump_open(p, path);
	struct pcap_pkthdr h = { 0 };
	unsigned int i;

	CHECK(d != NULL, "dump open");
	for (i = 0; i < NPKT; i++) {
		fill(buf, sizes[i], i);
		h.caplen = h.len = sizes[i];
		h.ts.tv_sec = 1000 + i;
		pcap_dump((u_char *)d, &h, buf);
	}
	pcap_dump_close(d);
	pcap_close(p);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

static struct hr_object *open_obj(const char *name)
{
	char path[512], err[256];
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err));
	struct hr_object *o = NULL;

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	if (hr_object_open(path, &oo, &o))
		CHECK(0, "open %s: %s", path, err);
	return o;
}

/* Runs @dev with @prog (to the capture stack) until idle. */
static void run_dev(struct hr_datapath *dp, struct hr_dev *dev,
		    struct hr_prog *prog, struct hr_dev_counters *c)
{
	ngot = 0;
	hr_dev_attach_xdp(dev, prog);
	hr_dev_set_stack(dev, &capdev);
	CHECK_EQ(hr_dp_assign_queue(dp, dev, 0, 0), 0);
	CHECK_EQ(hr_dev_open(dev), 0);
	CHECK_EQ(hr_dp_run_until_idle(dp, 10000), 0);
	c->sz = sizeof(*c);
	CHECK_EQ(hr_dev_get_counters(dev, c), 0);
	CHECK_EQ(hr_pool_outstanding(dev->pool), 0);
}

static void test_hints(struct hr_object *hints_obj)
{
	char pcap[256], hints[256];
	HR_OPTS(hr_pcap_opts, o, .path = pcap, .hints_path = hints);
	HR_OPTS(hr_dev_counters, c);
	struct hr_datapath *dp;
	struct hr_dev *dev = NULL;

	snprintf(pcap, sizeof(pcap), "%s/in.pcap", dir);
	snprintf(hints, sizeof(hints), "%s/hints.jsonl", dir);
	write_pcap(pcap);
	/* 0: everything; 1: hash only; 2: oversized; 3: nothing;
	 * 4: VLAN without proto; 5: timestamp and a 802.1ad tag. */
	write_file(hints,
		   "{\"index\":0,\"hash\":305419896,\"rss_type\":41,"
		   "\"timestamp\":1700000000123456789,\"vlan_proto\":33024,"
		   "\"vlan_tci\":40961}\n"
		   "\n"
		   "  { \"index\" : 1 , \"hash\" : 7 }\n"
		   "{\"index\":2,\"hash\":9}\n"
		   "{\"index\":4,\"vlan_tci\":5}\n"
		   "{\"index\":5,\"timestamp\":42,\"vlan_proto\":34984,"
		   "\"vlan_tci\":6}\n"
		   "{\"index\":99,\"hash\":1}\n");
	CHECK_EQ(hr_dp_create(NULL, &dp), 0);
	CHECK_EQ(hr_dev_pcap_create(dp, "pcap0", &o, &dev), 0);
	if (!dev)
		goto out;
	CHECK_EQ(hr_dev_pcap_packets(dev), NPKT - 1);
	CHECK_EQ(hr_dev_pcap_oversized(dev), 1);
	CHECK_EQ(hr_dev_pcap_read_error(dev), 0);
	run_dev(dp, dev, hr_object_find_prog(hints_obj, "dev_hints"), &c);
	CHECK_EQ(c.rx_packets, NPKT - 1);
	CHECK_EQ(c.xdp_pass, NPKT - 1);
	CHECK_EQ(c.delivered, NPKT - 1);
	CHECK_EQ(ngot, NPKT - 1);
	/* In file order, the oversized one left out. */
	CHECK_EQ(got[0].len, 60);
	CHECK_EQ(got[0].first, 0xa0);
	CHECK_EQ(got[1].len, 128);
	CHECK_EQ(got[2].len, 1514);
	CHECK_EQ(got[2].first, 0xa3);
	CHECK_EQ(got[3].len, 3520);
	CHECK_EQ(got[4].len, 61);

	CHECK_EQ(got[0].m.ret_hash, 0);
	CHECK_EQ(got[0].m.hash, 305419896);
	CHECK_EQ(got[0].m.rss_type, 41);
	CHECK_EQ(got[0].m.ret_ts, 0);
	CHECK_EQ(got[0].m.ts, 1700000000123456789ull);
	CHECK_EQ(got[0].m.ret_vlan, 0);
	CHECK_EQ(got[0].m.vlan_proto, 0x0081); /* htons(0x8100) */
	CHECK_EQ(got[0].m.vlan_tci, 40961);

	CHECK_EQ(got[1].m.ret_hash, 0);
	CHECK_EQ(got[1].m.hash, 7);
	CHECK_EQ(got[1].m.rss_type, 0);
	CHECK_EQ(got[1].m.ret_ts, -ENODATA);
	CHECK_EQ(got[1].m.ret_vlan, -ENODATA);

	CHECK_EQ(got[2].m.ret_hash, -ENODATA);
	CHECK_EQ(got[2].m.ret_ts, -ENODATA);
	CHECK_EQ(got[2].m.ret_vlan, -ENODATA);

	CHECK_EQ(got[3].m.ret_hash, -ENODATA);
	CHECK_EQ(got[3].m.ret_vlan, 0);
	CHECK_EQ(got[3].m.vlan_proto, 0x0081);
	CHECK_EQ(got[3].m.vlan_tci, 5);

	CHECK_EQ(got[4].m.ret_ts, 0);
	CHECK_EQ(got[4].m.ts, 42);
	CHECK_EQ(got[4].m.vlan_proto, 0xa888); /* htons(0x88a8) */
	CHECK_EQ(got[4].m.ret_hash, -ENODATA);
out:
	hr_dp_destroy(dp);
}

/* Runs @fn with stderr going to a file; returns what was printed. */
static char *capture_stderr(int (*fn)(void *), void *arg, int *ret)
{
	static char text[4096];
	char path[256];
	int fd, saved;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/stderr", dir);
	fflush(stderr);
	saved = dup(2);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	*ret = fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = read(fd, text, sizeof(text) - 1);
	text[n > 0 ? n : 0] = 0;
	close(fd);
	return text;
}

struct create_args {
	struct hr_datapath *dp;
	const struct hr_pcap_opts *o;
	struct hr_dev *dev;
};

static int do_create(void *arg)
{
	struct create_args *a = arg;

	return hr_dev_pcap_create(a->dp, "pcapx", a->o, &a->dev);
}

static void test_bad_hints(void)
{
	char pcap[256], hints[256], where[300];
	HR_OPTS(hr_pcap_opts, o, .path = pcap, .hints_path = hints);
	static const char *const bad[] = {
		"{\"index\":1,\"hash\":-1}",
		"{\"index\":1,\"rss_type\":3}",
		"{\"index\":1,\"hash\":1",
		"[1]",
		"{\"index\":1,\"hash\":\"1\"}",
		"{\"index\":1} x",
		"{\"index\":1,\"vlan_tci\":65536}",
		"{\"index\":1,\"hash\":4294967296}",
		"{\"index\":1,\"hash\":1,\"rss_type\":\"L4_IPV4_TPC\"}",
		"{\"index\":1,\"hash\":1.5}",
		"{\"index\":-2}",
	};
	struct create_args a = { .o = &o };
	struct hr_hint h;
	bool has_index;
	uint64_t idx;
	unsigned int i;
	char *text, why[256];
	int ret;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(hr_hints_parse(bad[i], &h, &has_index, &idx, why,
				     sizeof(why)) == -EINVAL,
		      "%s", bad[i]);
	CHECK(hr_hints_parse("{\"hsh\":1}", &h, &has_index, &idx, why,
			     sizeof(why)) == -EINVAL &&
		      strstr(why, "\"hsh\""),
	      "the key named: %s", why);
	CHECK_EQ(hr_hints_parse("{}", &h, &has_index, &idx, why, sizeof(why)),
		 0);
	CHECK(!has_index, "no index");
	CHECK_EQ(hr_hints_parse("{\"index\":3}", &h, &has_index, &idx, why,
				sizeof(why)),
		 0);
	CHECK(has_index, "index");
	CHECK_EQ(idx, 3);
	CHECK_EQ(h.have, 0);
	CHECK_EQ(hr_hints_parse("{\"hash\":7,\"rss_type\":"
				"\"XDP_RSS_TYPE_L4_IPV4_TCP\",\"vlan_tci\":5,"
				"\"vlan_proto\":\"0x88a8\"}",
				&h, &has_index, &idx, why, sizeof(why)),
		 0);
	CHECK_EQ(h.have, HR_HINT_HASH | HR_HINT_VLAN);
	CHECK_EQ(h.rss_type, 0x19);
	CHECK_EQ(h.vlan_proto, 0x88a8);

	snprintf(pcap, sizeof(pcap), "%s/in.pcap", dir);
	snprintf(hints, sizeof(hints), "%s/bad.jsonl", dir);
	write_file(hints, "{\"index\":0,\"hash\":1}\n"
			  "\n"
			  "{\"index\":1,\"hash\":0x10}\n");
	CHECK_EQ(hr_dp_create(NULL, &a.dp), 0);
	text = capture_stderr(do_create, &a, &ret);
	CHECK_EQ(ret, -EINVAL);
	snprintf(where, sizeof(where), "%s:3:", hints);
	CHECK(strstr(text, where) != NULL, "stderr names the line: %s", text);
	o.hints_path = "/nonexistent/hints.jsonl";
	CHECK_EQ(hr_dev_pcap_create(a.dp, "pcapy", &o, &a.dev), -ENOENT);
	o.hints_path = NULL;
	o.path = "/nonexistent.pcap";
	CHECK_EQ(hr_dev_pcap_create(a.dp, "pcapz", &o, &a.dev), -ENOENT);
	hr_dp_destroy(a.dp);
}

/* A file cut inside its last packet: the others still come through. */
static void test_truncated(struct hr_object *hints_obj)
{
	char pcap[256];
	HR_OPTS(hr_pcap_opts, o, .path = pcap);
	HR_OPTS(hr_dev_counters, c);
	struct create_args a = { .o = &o };
	struct hr_datapath *dp;
	long size;
	FILE *f;
	char *text;
	int ret;

	snprintf(pcap, sizeof(pcap), "%s/cut.pcap", dir);
	write_pcap(pcap);
	f = fopen(pcap, "r+");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	/* The last packet is 61 bytes after a 16-byte record header. */
	CHECK_EQ(truncate(pcap, size - 30), 0);
	CHECK_EQ(hr_dp_create(NULL, &dp), 0);
	a.dp = dp;
	text = capture_stderr(do_create, &a, &ret);
	CHECK_EQ(ret, 0);
	CHECK(strstr(text, pcap) != NULL, "names the file: %s", text);
	CHECK(strstr(text, "4000") || strstr(text, "longer"),
	      "notes the oversized packet: %s", text);
	if (!a.dev)
		goto out;
	CHECK_EQ(hr_dev_pcap_read_error(a.dev), -EIO);
	CHECK_EQ(hr_dev_pcap_packets(a.dev), NPKT - 2);
	run_dev(dp, a.dev, hr_object_find_prog(hints_obj, "dev_hints"), &c);
	CHECK_EQ(c.rx_packets, NPKT - 2);
	CHECK_EQ(c.delivered, NPKT - 2);
	CHECK_EQ(ngot, NPKT - 2);
out:
	hr_dp_destroy(dp);
}

/* XDP_TX out of the pcap device lands in the output file; loops replay. */
static void test_output(void)
{
	char pcap[256], out[256], err[PCAP_ERRBUF_SIZE];
	HR_OPTS(hr_pcap_opts, o, .path = pcap, .out_path = out, .loops = 3);
	HR_OPTS(hr_dev_counters, c);
	struct hr_object *vo = open_obj("dev_verdict.o");
	struct pcap_pkthdr *h;
	const u_char *data;
	struct hr_datapath *dp;
	struct hr_dev *dev = NULL;
	uint32_t key = 0, v = XDP_TX_VERDICT;
	unsigned int n = 0;
	uint8_t want[4096];
	pcap_t *p;

	snprintf(pcap, sizeof(pcap), "%s/in.pcap", dir);
	snprintf(out, sizeof(out), "%s/out.pcap", dir);
	write_pcap(pcap);
	if (!vo)
		return;
	CHECK_EQ(hr_map_update_elem(hr_object_find_map(vo, "cfg"), &key, &v, 0),
		 0);
	CHECK_EQ(hr_dp_create(NULL, &dp), 0);
	CHECK_EQ(hr_dev_pcap_create(dp, "pcap0", &o, &dev), 0);
	if (!dev)
		goto out;
	run_dev(dp, dev, hr_object_find_prog(vo, NULL), &c);
	CHECK_EQ(c.rx_packets, 3 * (NPKT - 1));
	CHECK_EQ(c.xdp_tx, 3 * (NPKT - 1));
	CHECK_EQ(c.tx_packets, 3 * (NPKT - 1));
	hr_dp_destroy(dp);
	dp = NULL;
	p = pcap_open_offline(out, err);
	CHECK(p != NULL, "%s", err);
	while (p && pcap_next_ex(p, &h, &data) == 1) {
		unsigned int i = n % (NPKT - 1);

		i = i >= 2 ? i + 1 : i; /* the oversized one was dropped */
		fill(want, sizes[i], i);
		CHECK_EQ(h->len, sizes[i]);
		CHECK(!memcmp(data, want, sizes[i]), "packet %u bytes", n);
		n++;
	}
	if (p)
		pcap_close(p);
	CHECK_EQ(n, 3 * (NPKT - 1));
out:
	hr_dp_destroy(dp);
	hr_object_close(vo);
}

static void cleanup(void)
{
	static const char *const names[] = { "in.pcap",	  "cut.pcap",
					     "out.pcap",  "hints.jsonl",
					     "bad.jsonl", "stderr" };
	char path[300];
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	struct hr_object *hints_obj;

	/* The warnings below are read from stderr, where the command has them. */
	hr_set_print(hr_print_stderr);
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return t_done();
	}
	capdev.deliver = cap_deliver;
	hints_obj = open_obj("dev_hints.o");
	if (!hints_obj)
		return t_done();
	test_hints(hints_obj);
	test_bad_hints();
	test_truncated(hints_obj);
	test_output();
	hr_object_close(hints_obj);
	cleanup();
	return t_done();
}
