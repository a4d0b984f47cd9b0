// SPDX-License-Identifier: MIT
/*
 * bpf_perf_event_output with a PERF_EVENT_ARRAY (progs/helpers/xdp_perf.bpf.c)
 * from XDP and tc: the helper's result for each flag case, and the samples
 * themselves, in headroom (hr_perf_set_reader) and in the kernel (a libbpf
 * perf_buffer on the same program, test-run on CPU 0). Then
 * `headroom test --events` prints them.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "headroom/headroom.h"
#include "headroom/perf.h"

#define MAX_SAMPLES 8

struct samples {
	unsigned int n;
	uint32_t size[MAX_SAMPLES];
	uint8_t data[MAX_SAMPLES][256];
};

static void hr_sample(void *ctx, unsigned int cpu, const void *data,
		      uint32_t size)
{
	struct samples *s = ctx;

	if (s->n < MAX_SAMPLES) {
		s->size[s->n] = size;
		memcpy(s->data[s->n], data, size < 256 ? size : 256);
		s->n++;
	}
}

static void k_sample(void *ctx, int cpu, void *data, __u32 size)
{
	hr_sample(ctx, (unsigned int)cpu, data, size);
}

struct result {
	int err;
	uint32_t retval;
	uint8_t out[256];
	struct samples s;
};

static uint8_t pkt[100];

static void make_pkt(uint8_t mode)
{
	unsigned int i;

	for (i = 0; i < sizeof(pkt); i++)
		pkt[i] = (uint8_t)(i * 3);
	pkt[0] = mode;
}

static int run_headroom(struct hr_object *obj, const char *prog,
			struct result *r)
{
	struct hr_test_run_opts o = { .sz = sizeof(o) };

	memset(r, 0, sizeof(*r));
	hr_perf_set_reader(hr_object_find_map(obj, "events"), hr_sample, &r->s);
	o.data_in = pkt;
	o.data_size_in = sizeof(pkt);
	o.data_out = r->out;
	o.data_size_out = sizeof(r->out);
	r->err = hr_prog_test_run(hr_object_find_prog(obj, prog), &o);
	r->retval = o.retval;
	return 0;
}

static int run_kernel(struct bpf_object *obj, struct perf_buffer *pb,
		      const char *prog, struct result *r)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, prog);
	LIBBPF_OPTS(bpf_test_run_opts, o);

	memset(r, 0, sizeof(*r));
	o.data_in = pkt;
	o.data_size_in = sizeof(pkt);
	o.data_out = r->out;
	o.data_size_out = sizeof(r->out);
	r->err = bpf_prog_test_run_opts(bpf_program__fd(p), &o) ? -errno : 0;
	r->retval = o.retval;
	perf_buffer__poll(pb, 50);
	return 0;
}

static struct samples *kernel_samples;

static void k_sample_cb(void *ctx, int cpu, void *data, __u32 size)
{
	k_sample(kernel_samples, cpu, data, size);
}

/* Expected helper result for each mode on CPU 0 (pkt of 100 bytes). */
static const int expect[] = { 0, -ENOENT, -EINVAL, -EFAULT, 0, -EOPNOTSUPP, 0 };

static void test_modes(struct hr_object *hobj, struct bpf_object *kobj,
		       struct perf_buffer *pb, struct samples *ks)
{
	static const char *const progs[] = { "xdp_perf", "tc_perf" };
	struct result h, k;
	unsigned int p, mode, i;
	int32_t ret;

	for (p = 0; p < 2; p++)
		for (mode = 0; mode < 7; mode++) {
			make_pkt((uint8_t)mode);
			run_headroom(hobj, progs[p], &h);
			CHECK_EQ(h.err, 0);
			if (p == 0)
				memcpy(&ret, h.out, 4);
			else
				ret = (int32_t)h.retval;
			CHECK(ret == expect[mode], "%s mode %u: %d", progs[p],
			      mode, ret);
			if (!ret) {
				CHECK_EQ(h.s.n, 1);
				CHECK_EQ(h.s.size[0], 12 + (mode == 0 ? 32 :
							    mode == 6 ? 100 :
									0));
				CHECK(!memcmp(h.s.data[0] + 12, pkt,
					      h.s.size[0] - 12),
				      "packet bytes");
			} else {
				CHECK_EQ(h.s.n, 0);
			}
			if (!kobj)
				continue;
			memset(ks, 0, sizeof(*ks));
			kernel_samples = &k.s;
			run_kernel(kobj, pb, progs[p], &k);
			if (p == 0)
				memcpy(&ret, k.out, 4);
			else
				ret = (int32_t)k.retval;
			CHECK(ret == expect[mode], "kernel %s mode %u: %d",
			      progs[p], mode, ret);
			CHECK_EQ(k.s.n, h.s.n);
			for (i = 0; i < k.s.n && i < h.s.n; i++) {
				/* The kernel pads the raw sample to 8 bytes;
				 * the count differs (one counter each). */
				CHECK_EQ((k.s.size[i] + 4) & ~7u,
					 ((h.s.size[i] + 4 + 7) & ~7u));
				CHECK(!memcmp(k.s.data[i], h.s.data[i], 8) &&
					      !memcmp(k.s.data[i] + 12,
						      h.s.data[i] + 12,
						      h.s.size[i] - 12),
				      "%s mode %u sample differs", progs[p],
				      mode);
			}
		}
}

/* Without a reader no slot is open: -ENOENT. */
static void test_no_reader(struct hr_object *hobj)
{
	struct hr_map *map = hr_object_find_map(hobj, "events");
	struct hr_test_run_opts o = { .sz = sizeof(o) };
	uint8_t out[256];
	uint32_t key = 0, val = 7;

	hr_perf_set_reader(map, NULL, NULL);
	make_pkt(0);
	o.data_in = pkt;
	o.data_size_in = sizeof(pkt);
	o.data_out = out;
	o.data_size_out = sizeof(out);
	CHECK_EQ(hr_prog_test_run(hr_object_find_prog(hobj, "tc_perf"), &o), 0);
	CHECK_EQ((int32_t)o.retval, -ENOENT);
	/* A slot user space filled without a reader: the sample is lost. */
	CHECK_EQ(hr_map_update_elem(map, &key, &val, 0), 0);
	o.data_size_out = sizeof(out);
	CHECK_EQ(hr_prog_test_run(hr_object_find_prog(hobj, "tc_perf"), &o), 0);
	CHECK_EQ((int32_t)o.retval, -ENOSPC);
	CHECK(hr_perf_lost(map) >= 1, "lost counted");
	CHECK_EQ(hr_perf_set_reader(hr_object_find_map(hobj, "count"), NULL,
				    NULL),
		 -EINVAL);
}

static void test_cli(void)
{
	char cmd[1024], line[512];
	const char *build = getenv("BUILD");
	FILE *f;
	bool seen = false;
	int rc;

	snprintf(cmd, sizeof(cmd),
		 "%s/bin/headroom test %s/xdp_perf.o:xdp_perf --events "
		 "--hex 00112233445566778899aabbccddeeff00112233445566778899"
		 "aabbccddeeff0011 2>&1",
		 build ? build : "build", t_progs_dir());
	f = popen(cmd, "r");
	CHECK(f != NULL, "popen");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "event events cpu 0 (44): efbeedfe22", 35))
			seen = true;
	rc = pclose(f);
	CHECK_EQ(rc, 0);
	CHECK(seen, "headroom test --events prints the sample");
}

int main(void)
{
	struct hr_object_open_opts opts = { .sz = sizeof(opts) };
	struct bpf_object *kobj = NULL;
	struct perf_buffer *pb = NULL;
	struct hr_object *hobj;
	static struct samples ks;
	char path[512], why[256];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	/* Two workers: slots 0 and 1 open, as two CPUs in the kernel. */
	opts.ncpus = 2;
	snprintf(path, sizeof(path), "%s/xdp_perf.o", t_progs_dir());
	CHECK_EQ(hr_object_open(path, &opts, &hobj), 0);
	if (!hobj)
		return t_done();
	if (t_have_kernel(why, sizeof(why))) {
		kobj = bpf_object__open_file(path, NULL);
		if (kobj && !bpf_object__load(kobj))
			pb = perf_buffer__new(
				bpf_map__fd(bpf_object__find_map_by_name(
					kobj, "events")),
				8, k_sample_cb, NULL, NULL, NULL);
		CHECK(pb != NULL, "kernel perf buffer");
		if (!pb) {
			bpf_object__close(kobj);
			kobj = NULL;
		}
	} else {
		fprintf(stderr, "no kernel oracle (%s): headroom only\n", why);
	}
	test_modes(hobj, kobj, pb, &ks);
	test_no_reader(hobj);
	test_cli();
	perf_buffer__free(pb);
	bpf_object__close(kobj);
	hr_object_close(hobj);
	return t_done();
}
