// SPDX-License-Identifier: MIT
/*
 * Whole programs against the kernel: every XDP and tc program of every
 * object in a directory runs in the live kernel (BPF_PROG_TEST_RUN) and
 * in headroom over the same generated packets (whole and cut short, of
 * every protocol tests/lib/gen_packets.c builds), one after another on
 * the same maps, and each must agree on every packet. The directory is
 * $HEADROOM_CORPUS when set (scripts/corpus-build.sh builds public
 * programs into one), else this tree's own build/progs.
 *
 * Prints the agreement figure: programs that agree on every packet, out
 * of those the kernel ran. An object the kernel refuses to load is not
 * compared (counted apart); one the kernel loads and headroom refuses is
 * a difference.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "headroom/headroom.h"

#include "gen_packets.h"
#include "harness.h"
#include "oracle.h"

#define CORPUS_PACKETS 48
#define CORPUS_MAX_OBJS 4096

ORACLE_LINK_HEADROOM;

struct tally {
	unsigned int objs, kernel_refused, progs, agreed, other_types;
	unsigned int headroom_refused, host_refused, by_design;
};

static bool tc_type(enum bpf_prog_type t)
{
	return t == BPF_PROG_TYPE_SCHED_CLS || t == BPF_PROG_TYPE_SCHED_ACT;
}

static bool xdp_or_tc(const struct bpf_program *p)
{
	return bpf_program__type(p) == BPF_PROG_TYPE_XDP ||
	       tc_type(bpf_program__type(p));
}

/* One program over the packets: 1 when every packet agreed, 0 when one
 * did not, -EPERM when this host's kernel refuses the program alone
 * (tests/lib/kernel_side.h). */
static int run_prog(struct oracle *o, const char *obj, const char *prog,
		    bool tc)
{
	static uint8_t pkt[2048];
	struct __sk_buff skb;
	struct oracle_case c = { .obj = obj, .prog = prog, .data = pkt };
	struct gen_rng r;
	struct gen_info info;
	char label[8448];
	bool all = true;
	unsigned int i;
	int ret;

	gen_seed(&r, 0x5eed);
	for (i = 0; i < CORPUS_PACKETS; i++) {
		uint32_t len = gen_packet(&r, pkt, sizeof(pkt), &info);

		/* A quarter cut short, where parsers meet data_end. */
		if (i % 4 == 3)
			len = gen_cut(&r, &info);
		if (len < 14)
			len = 14;
		c.size = len;
		memset(&skb, 0, sizeof(skb));
		c.skb = tc ? &skb : NULL;
		snprintf(label, sizeof(label), "%s:%s packet %u (%s, %u bytes)",
			 obj, prog, i, info.desc, len);
		ret = oracle_check(o, &c, label);
		if (ret == ORACLE_REFUSED)
			return -EPERM;
		if (ret != 1)
			all = false;
	}
	return all;
}

static void run_obj(const char *path, struct tally *t)
{
	struct bpf_object *kobj;
	struct bpf_program *p;
	struct oracle *o;
	bool any = false;

	t->objs++;
	/* Random on purpose (tests/lib/harness.c's list); a public corpus
	 * has none of these names. */
	if (t_prog_by_design(path, T_RANDOM, NULL)) {
		t->by_design++;
		return;
	}
	kobj = bpf_object__open_file(path, NULL);
	if (!kobj) {
		fprintf(stderr, "corpus: %s: libbpf cannot open it\n", path);
		t->kernel_refused++;
		return;
	}
	bpf_object__for_each_program(p, kobj)
	{
		if (xdp_or_tc(p))
			any = true;
	}
	if (!any) {
		bpf_object__close(kobj);
		t->other_types++;
		return;
	}
	if (oracle_new(&o)) {
		bpf_object__close(kobj);
		CHECK(0, "oracle_new");
		return;
	}
	oracle_set_print_limit(o, 2);
	/* xdp-bench's per-CPU counters, sized by its loader to the CPUs. */
	oracle_size_zero_maps(o, (unsigned int)libbpf_num_possible_cpus());
	if (!oracle_kernel_object(o, path)) {
		fprintf(stderr,
			"corpus: %s: the kernel refuses it: not compared\n",
			path);
		t->kernel_refused++;
		goto out;
	}
	if (!oracle_headroom_object(o, path)) {
		if (t_prog_by_design(path, T_REFUSED, NULL)) {
			t->by_design++;
			goto out;
		}
		t->headroom_refused++;
		bpf_object__for_each_program(p, kobj)
		{
			if (!xdp_or_tc(p))
				continue;
			t->progs++;
			CHECK(0, "%s: the kernel loads it, headroom does not",
			      path);
		}
		goto out;
	}
	bpf_object__for_each_program(p, kobj)
	{
		bool tc = tc_type(bpf_program__type(p));
		int same;

		if (!xdp_or_tc(p))
			continue;
		same = run_prog(o, path, bpf_program__name(p), tc);
		if (same < 0) {
			t->host_refused++;
			continue;
		}
		t->progs++;
		t->agreed += same;
		CHECK(same, "%s:%s differs from the kernel", path,
		      bpf_program__name(p));
	}
out:
	oracle_free(o);
	bpf_object__close(kobj);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	const char *dir = getenv("HEADROOM_CORPUS");
	static char *names[CORPUS_MAX_OBJS];
	struct tally t = { 0 };
	char why[256], path[8192], abs[4096];
	unsigned int n = 0, i;
	struct dirent *e;
	DIR *d;

	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	if (!dir || !*dir)
		dir = t_progs_dir();
	if (!realpath(dir, abs)) {
		CHECK(0, "corpus directory %s: %s", dir, strerror(errno));
		return t_done();
	}
	d = opendir(abs);
	if (!d) {
		CHECK(0, "corpus directory %s: %s", abs, strerror(errno));
		return t_done();
	}
	while ((e = readdir(d)) && n < CORPUS_MAX_OBJS) {
		size_t l = strlen(e->d_name);

		if (l > 2 && !strcmp(e->d_name + l - 2, ".o"))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	CHECK(n > 0, "no objects in %s", abs);
	qsort(names, n, sizeof(names[0]), by_name);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", abs, names[i]);
		run_obj(path, &t);
		free(names[i]);
	}
	printf("corpus %s: %u objects; %u XDP and tc programs run by the "
	       "kernel, %u agree on every packet (%.1f%%); %u objects the "
	       "kernel refuses (not compared), %u headroom refuses (and %u by "
	       "design), %u with no XDP or tc program, %u programs this "
	       "host's kernel alone refuses\n",
	       abs, t.objs, t.progs, t.agreed,
	       t.progs ? 100.0 * t.agreed / t.progs : 100.0, t.kernel_refused,
	       t.headroom_refused, t.by_design, t.other_types, t.host_refused);
	return t_done();
}
