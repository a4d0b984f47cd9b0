// SPDX-License-Identifier: MIT
/*
 * bench/datapath: packets a second through three headroom pipelines, each
 * beside the kernel doing the same job on this machine in the same run:
 *
 *   drop     generator -> XDP_DROP
 *            kernel: BPF_PROG_TEST_RUN live frames on lo, XDP_DROP
 *   veth-tx  generator -> bpf_redirect -> veth A -> B: XDP_TX -> A: DROP
 *            kernel: live frames on veth A (XDP_TX, sent to B) in a netns,
 *            B XDP_TX back to A, A XDP_DROP (counted)
 *   cpumap   generator -> bpf_redirect_map(cpumap, 1) -> worker/CPU 1
 *            builds skbs -> stack
 *            kernel: live frames on lo redirecting into a cpumap entry on
 *            CPU 1 (enqueue rate; the kthread's rate is not visible here)
 *
 * usage: bench/datapath [--count N] [--engine interp|jit] [--json]
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>
#include <net/if.h>

#include <headroom/headroom.h>
#include <headroom/datapath.h>
#include <headroom/devices.h>

#include "../tests/lib/harness.h"

struct result {
	const char *name;
	double hr_mpps;
	double k_mpps;
	uint64_t hr_done; /* packets that completed the pipeline */
	const char *note;
};

static enum hr_engine engine = HR_ENGINE_DEFAULT;
static uint64_t count = 2000000;

/* 64-byte IPv4 UDP frame. */
static const uint8_t pkt[64] = {
	0x02, 0, 0,   0,  0, 2, 0x02, 0,    0,	0,  0, 1,  0x08, 0x00,
	0x45, 0, 0,   50, 0, 0, 0x40, 0,    64, 17, 0, 0,  198,	 18,
	0,    1, 198, 18, 1, 1, 0x04, 0xd2, 0,	9,  0, 30,
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct hr_object *open_obj(const char *name)
{
	char path[4096], err[512] = "";
	struct hr_object *obj;
	HR_OPTS(hr_object_open_opts, o, .errbuf = err, .errbuf_sz = sizeof(err),
		.ncpus = 2);

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	if (hr_object_open(path, &o, &obj)) {
		fprintf(stderr, "bench: %s\n", err);
		exit(1);
	}
	return obj;
}

static void set_u32(struct hr_object *obj, const char *map, uint32_t key,
		    uint32_t val)
{
	if (hr_map_update_elem(hr_object_find_map(obj, map), &key, &val, 0)) {
		fprintf(stderr, "bench: cannot set %s[%u]\n", map, key);
		exit(1);
	}
}

static struct hr_datapath *new_dp(unsigned int nworkers)
{
	struct hr_datapath *dp;
	HR_OPTS(hr_datapath_opts, o, .nworkers = nworkers, .engine = engine);

	if (hr_dp_create(&o, &dp)) {
		fprintf(stderr, "bench: cannot create the datapath\n");
		exit(1);
	}
	return dp;
}

static struct hr_dev *new_gen(struct hr_datapath *dp)
{
	struct hr_dev *gen;
	HR_OPTS(hr_gen_opts, o, .count = count, .pkt_size = 60, .flows = 64,
		.src_port_min = 1000, .src_port_max = 1063);

	if (hr_dev_gen_create(dp, "gen0", &o, &gen)) {
		fprintf(stderr, "bench: cannot create the generator\n");
		exit(1);
	}
	return gen;
}

static struct hr_dev_counters counters(struct hr_dev *dev)
{
	struct hr_dev_counters c;

	memset(&c, 0, sizeof(c));
	c.sz = sizeof(c);
	hr_dev_get_counters(dev, &c);
	return c;
}

/* Runs until the generator is done and all queues are empty. */
static double run_timed(struct hr_datapath *dp, bool threads)
{
	double t0;

	if (threads && hr_dp_start(dp)) {
		fprintf(stderr, "bench: cannot start workers\n");
		exit(1);
	}
	t0 = now_s();
	if (hr_dp_run_until_idle(dp, 120000))
		fprintf(stderr, "bench: pipeline did not drain in 120 s\n");
	return now_s() - t0;
}

static void hr_drop(struct result *r)
{
	struct hr_datapath *dp = new_dp(1);
	struct hr_object *v = open_obj("dev_verdict.o");
	struct hr_dev *gen = new_gen(dp);
	double t;

	set_u32(v, "cfg", 0, 1 /* XDP_DROP */);
	hr_dev_attach_xdp(gen, hr_object_find_prog(v, NULL));
	hr_dp_assign_queue(dp, gen, 0, 0);
	hr_dev_open(gen);
	t = run_timed(dp, false);
	r->hr_done = counters(gen).xdp_drop;
	r->hr_mpps = (double)r->hr_done / t / 1e6;
	hr_dp_destroy(dp);
	hr_object_close(v);
}

static void hr_veth_tx(struct result *r)
{
	struct hr_datapath *dp = new_dp(2);
	struct hr_object *redir = open_obj("dev_redirect.o");
	struct hr_object *va = open_obj("dev_verdict.o");
	struct hr_object *vb = open_obj("dev_verdict.o");
	struct hr_dev *gen = new_gen(dp), *a, *b;
	HR_OPTS(hr_veth_opts, vo, .mtu = 1500);
	double t;

	if (hr_dev_veth_create_pair(dp, "veth0", "veth1", &vo, &a, &b)) {
		fprintf(stderr, "bench: cannot create the veth pair\n");
		exit(1);
	}
	set_u32(redir, "cfg", 0, hr_dev_ifindex(a));
	set_u32(va, "cfg", 0, 1 /* XDP_DROP */);
	set_u32(vb, "cfg", 0, 3 /* XDP_TX */);
	hr_dev_attach_xdp(gen, hr_object_find_prog(redir, NULL));
	hr_dev_attach_xdp(a, hr_object_find_prog(va, NULL));
	hr_dev_attach_xdp(b, hr_object_find_prog(vb, NULL));
	hr_dp_assign_queue(dp, gen, 0, 0);
	hr_dp_assign_queue(dp, a, 0, 0);
	hr_dp_assign_queue(dp, b, 0, 1);
	hr_dev_open(gen);
	hr_dev_open(a);
	hr_dev_open(b);
	t = run_timed(dp, true);
	hr_dp_stop(dp);
	r->hr_done = counters(b).xdp_tx;
	r->hr_mpps = (double)r->hr_done / t / 1e6;
	hr_dp_destroy(dp);
	hr_object_close(redir);
	hr_object_close(va);
	hr_object_close(vb);
}

static void hr_cpumap(struct result *r)
{
	struct hr_datapath *dp = new_dp(2);
	struct hr_object *cm = open_obj("bench_cpumap.o");
	struct hr_dev *gen = new_gen(dp), *sink;
	double t;

	if (hr_dev_sink_create(dp, "sink0", NULL, &sink)) {
		fprintf(stderr, "bench: cannot create the sink\n");
		exit(1);
	}
	set_u32(cm, "cpu_map", 1, 2048);
	hr_dev_attach_xdp(gen, hr_object_find_prog(cm, NULL));
	hr_dev_set_stack(gen, sink);
	hr_dp_assign_queue(dp, gen, 0, 0);
	hr_dev_open(gen);
	hr_dev_open(sink);
	t = run_timed(dp, true);
	hr_dp_stop(dp);
	r->hr_done = counters(gen).delivered;
	r->hr_mpps = (double)r->hr_done / t / 1e6;
	hr_dp_destroy(dp);
	hr_object_close(cm);
}

/* The kernel side: live-frames test runs of @prog_fd on @ifindex. */
static double k_live(int prog_fd, int ifindex)
{
	struct xdp_md ctx = { .data_end = sizeof(pkt),
			      .ingress_ifindex = (uint32_t)ifindex };
	double t0, t;
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx), .repeat = (uint32_t)count,
		    .batch_size = 64, .flags = BPF_F_TEST_XDP_LIVE_FRAMES);

	t0 = now_s();
	if (bpf_prog_test_run_opts(prog_fd, &o)) {
		fprintf(stderr, "bench: kernel live test run: %s\n",
			strerror(errno));
		return 0;
	}
	t = now_s() - t0;
	return (double)count / t / 1e6;
}

static struct bpf_object *k_open(const char *name)
{
	char path[4096];
	struct bpf_object *obj;

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	obj = bpf_object__open_file(path, NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "bench: kernel cannot load %s\n", name);
		return NULL;
	}
	return obj;
}

static int k_prog(struct bpf_object *obj)
{
	return bpf_program__fd(bpf_object__next_program(obj, NULL));
}

static void k_set(struct bpf_object *obj, const char *map, uint32_t key,
		  uint32_t val)
{
	bpf_map_update_elem(bpf_object__find_map_fd_by_name(obj, map), &key,
			    &val, 0);
}

static void k_drop(struct result *r)
{
	struct bpf_object *v = k_open("dev_verdict.o");

	if (!v)
		return;
	k_set(v, "cfg", 0, 1);
	r->k_mpps = k_live(k_prog(v), 1);
	bpf_object__close(v);
}

static void k_cpumap(struct result *r)
{
	struct bpf_object *cm = k_open("bench_cpumap.o");

	if (!cm)
		return;
	k_set(cm, "cpu_map", 1, 2048);
	r->k_mpps = k_live(k_prog(cm), 1);
	bpf_object__close(cm);
}

/* In a child, inside a netns with a veth pair: the kernel's veth XDP_TX
 * pipeline; writes the completed rate to @fd. */
static void k_veth_child(const char *ns, int fd)
{
	struct bpf_object *inj, *va, *vb;
	char path[256];
	int nsfd, ia, ib, key = 0, ncpu;
	double t0, t, mpps = 0;
	uint64_t done = 0, vals[256];

	snprintf(path, sizeof(path), "/var/run/netns/%s", ns);
	nsfd = open(path, O_RDONLY);
	if (nsfd < 0 || setns(nsfd, CLONE_NEWNET))
		goto out;
	ia = (int)if_nametoindex("hrbA");
	ib = (int)if_nametoindex("hrbB");
	inj = k_open("dev_verdict.o");
	va = k_open("bench_count.o");
	vb = k_open("dev_verdict.o");
	if (!ia || !ib || !inj || !va || !vb)
		goto out;
	k_set(inj, "cfg", 0, 3);
	k_set(va, "cfg", 0, 1);
	k_set(vb, "cfg", 0, 3);
	if (bpf_xdp_attach(ia, k_prog(va), XDP_FLAGS_DRV_MODE, NULL) ||
	    bpf_xdp_attach(ib, k_prog(vb), XDP_FLAGS_DRV_MODE, NULL))
		goto out;
	t0 = now_s();
	k_live(k_prog(inj), ia);
	usleep(200000); /* let the NAPIs drain */
	t = now_s() - t0 - 0.2;
	ncpu = libbpf_num_possible_cpus();
	if (ncpu > 0 && ncpu <= 256 &&
	    !bpf_map_lookup_elem(bpf_object__find_map_fd_by_name(va, "cnt"),
				 &key, vals))
		for (int i = 0; i < ncpu; i++)
			done += vals[i];
	mpps = (double)done / t / 1e6;
out:
	if (write(fd, &mpps, sizeof(mpps)) != sizeof(mpps))
		_exit(1);
	_exit(0);
}

static int sh(const char *cmd)
{
	return system(cmd);
}

static void k_veth_tx(struct result *r)
{
	char ns[64], cmd[512];
	int p[2], st;
	pid_t pid;

	snprintf(ns, sizeof(ns), "hrbench-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd),
		 "ip netns add %s && ip -n %s link add hrbA type veth peer "
		 "name hrbB && ip -n %s link set hrbA up && ip -n %s link set "
		 "hrbB up",
		 ns, ns, ns, ns);
	if (sh(cmd) || pipe(p)) {
		r->note = "could not create the netns and veth pair";
		goto out;
	}
	pid = fork();
	if (pid == 0)
		k_veth_child(ns, p[1]);
	if (pid > 0) {
		if (read(p[0], &r->k_mpps, sizeof(r->k_mpps)) !=
		    sizeof(r->k_mpps))
			r->k_mpps = 0;
		waitpid(pid, &st, 0);
	}
	close(p[0]);
	close(p[1]);
out:
	snprintf(cmd, sizeof(cmd), "ip netns del %s 2>/dev/null", ns);
	sh(cmd);
}

static void print(const struct result *r, int n, bool json)
{
	int i;

	if (json) {
		for (i = 0; i < n; i++)
			printf("{\"pipeline\":\"%s\",\"headroom_mpps\":%.3f,"
			       "\"kernel_mpps\":%.3f,\"headroom_packets\":%llu"
			       "}\n",
			       r[i].name, r[i].hr_mpps, r[i].k_mpps,
			       (unsigned long long)r[i].hr_done);
		return;
	}
	printf("%-10s %14s %12s %8s %12s\n", "pipeline", "headroom Mpps",
	       "kernel Mpps", "ratio", "packets");
	for (i = 0; i < n; i++)
		printf("%-10s %14.3f %12.3f %8.2f %12llu%s%s\n", r[i].name,
		       r[i].hr_mpps, r[i].k_mpps,
		       r[i].k_mpps ? r[i].hr_mpps / r[i].k_mpps : 0.0,
		       (unsigned long long)r[i].hr_done, r[i].note ? "  " : "",
		       r[i].note ? r[i].note : "");
}

int main(int argc, char **argv)
{
	struct result r[3] = { { .name = "drop" },
			       { .name = "veth-tx" },
			       { .name = "cpumap" } };
	bool json = false, kernel;
	char why[256];
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
			count = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--engine") && i + 1 < argc) {
			i++;
			engine = !strcmp(argv[i], "interp") ? HR_ENGINE_INTERP :
							      HR_ENGINE_JIT;
		} else {
			fprintf(stderr,
				"usage: %s [--count N] [--engine "
				"interp|jit] [--json]\n",
				argv[0]);
			return 2;
		}
	}
	kernel = t_have_kernel(why, sizeof(why));
	libbpf_set_print(NULL);
	hr_drop(&r[0]);
	hr_veth_tx(&r[1]);
	hr_cpumap(&r[2]);
	if (kernel) {
		k_drop(&r[0]);
		k_veth_tx(&r[1]);
		k_cpumap(&r[2]);
		r[2].note = "(kernel: enqueue rate)";
	} else if (!json) {
		printf("kernel figures skipped: %s\n", why);
	}
	if (!json)
		printf("%llu packets of 60 bytes each pipeline, engine %s\n",
		       (unsigned long long)count,
		       engine == HR_ENGINE_INTERP ? "interp" : "jit");
	print(r, 3, json);
	return 0;
}
