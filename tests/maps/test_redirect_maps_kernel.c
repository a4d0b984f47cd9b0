// SPDX-License-Identifier: MIT
/*
 * The live kernel as oracle for DEVMAP, DEVMAP_HASH, CPUMAP and XSKMAP:
 * creation, update, lookup, delete and get_next_key error codes through
 * the bpf syscall and through headroom's user API must agree. Devices:
 * the kernel's lo (ifindex 1) stands for a headroom sink; an ifindex that
 * exists on neither side stands for a missing device. CPU keys: headroom
 * without a datapath takes the host's CPUs, as the kernel does.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "harness.h"
#include "redirect_maps_util.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/xsk.h"

#ifndef AF_XDP
#define AF_XDP 44
#endif

struct pair {
	int fd;
	struct hr_map *hm;
	uint32_t vs;
};

static uint32_t hr_dev_idx; /* headroom's stand-in for lo */
static int k_xsk_fd = -1, h_xsk_fd = -1;

static int kerr(int r)
{
	return r < 0 ? -errno : r;
}

static bool pair_open(struct pair *p, uint32_t type, uint32_t ks, uint32_t vs,
		      uint32_t n, uint32_t flags, int line)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
	int kr, hr;

	memset(p, 0, sizeof(*p));
	p->fd = bpf_map_create(type, NULL, ks, vs, n, &opts);
	kr = p->fd < 0 ? -errno : 0;
	p->hm = rm_map(type, ks, vs, n, flags, &hr);
	CHECK(kr == hr,
	      "line %d: create type %u ks %u vs %u n %u flags %#x: "
	      "kernel %d headroom %d",
	      line, type, ks, vs, n, flags, kr, hr);
	if (kr || hr) {
		if (p->fd >= 0)
			close(p->fd);
		hr_map_free(p->hm);
		return false;
	}
	p->vs = vs;
	return true;
}

static void pair_close(struct pair *p)
{
	close(p->fd);
	hr_map_free(p->hm);
}

/* Values name devices and sockets: translate for each side. */
enum vkind { V_RAW, V_DEV, V_XSK };

static void side_value(const uint32_t *in, uint32_t *out, enum vkind kind,
		       bool kernel)
{
	out[0] = in[0];
	out[1] = in[1];
	if (kind == V_DEV && in[0] == 1)
		out[0] = kernel ? 1 : hr_dev_idx;
	else if (kind == V_DEV && in[0] == 9999)
		out[0] = kernel ? 9999 : 250;
	else if (kind == V_XSK && in[0] == 1)
		out[0] = (uint32_t)(kernel ? k_xsk_fd : h_xsk_fd);
}

static void op_update(struct pair *p, uint32_t key, uint32_t v0, uint32_t v1,
		      uint64_t flags, enum vkind kind, int line)
{
	uint32_t in[2] = { v0, v1 }, kv[2], hv[2];
	int kr, hr;

	side_value(in, kv, kind, true);
	side_value(in, hv, kind, false);
	kr = kerr(bpf_map_update_elem(p->fd, &key, kv, flags));
	hr = hr_map_update_elem(p->hm, &key, hv, flags);
	CHECK(kr == hr,
	      "line %d: update key %u val %u/%u flags %llu: kernel "
	      "%d headroom %d",
	      line, key, v0, v1, (unsigned long long)flags, kr, hr);
}

static void op_lookup(struct pair *p, uint32_t key, int line)
{
	uint32_t kv[2] = { 0 }, hv[2] = { 0 };
	int kr, hr;

	kr = kerr(bpf_map_lookup_elem(p->fd, &key, kv));
	hr = hr_map_lookup_elem(p->hm, &key, hv);
	CHECK(kr == hr, "line %d: lookup key %u: kernel %d headroom %d", line,
	      key, kr, hr);
	if (kr || hr)
		return;
	/* qsize, or an ifindex mapped back; program ids both 0 here. */
	if (hv[0] == hr_dev_idx && kv[0] == 1)
		hv[0] = 1;
	CHECK(kv[0] == hv[0], "line %d: value %u vs %u", line, kv[0], hv[0]);
	if (p->vs == 8)
		CHECK(kv[1] == hv[1], "line %d: prog id %u vs %u", line, kv[1],
		      hv[1]);
}

static void op_delete(struct pair *p, uint32_t key, int line)
{
	int kr = kerr(bpf_map_delete_elem(p->fd, &key));
	int hr = hr_map_delete_elem(p->hm, &key);

	CHECK(kr == hr, "line %d: delete key %u: kernel %d headroom %d", line,
	      key, kr, hr);
}

static void op_next(struct pair *p, const uint32_t *key, int line)
{
	uint32_t kn = 0xdead, hn = 0xbeef;
	int kr = kerr(bpf_map_get_next_key(p->fd, key, &kn));
	int hr = hr_map_get_next_key(p->hm, key, &hn);

	CHECK(kr == hr, "line %d: next of %d: kernel %d headroom %d", line,
	      key ? (int)*key : -1, kr, hr);
	if (!kr && !hr)
		CHECK(kn == hn, "line %d: next %u vs %u", line, kn, hn);
}

/* A whole walk: same keys in the same order. */
static void op_walk(struct pair *p, int line)
{
	uint32_t k = 0, n, i;
	const uint32_t *cur = NULL;

	for (i = 0; i < 64; i++) {
		op_next(p, cur, line);
		if (bpf_map_get_next_key(p->fd, cur, &n))
			break;
		k = n;
		cur = &k;
	}
}

#define UPD(p, k, a, b, f, kind) op_update(p, k, a, b, f, kind, __LINE__)
#define LKP(p, k) op_lookup(p, k, __LINE__)
#define DEL(p, k) op_delete(p, k, __LINE__)
#define WALK(p) op_walk(p, __LINE__)
#define OPEN(p, t, ks, vs, n, f) pair_open(p, t, ks, vs, n, f, __LINE__)

static void test_devmap(uint32_t type)
{
	static const uint32_t bad_vs[] = { 0, 2, 6, 12 };
	struct pair p;
	unsigned int i;

	for (i = 0; i < 4; i++)
		OPEN(&p, type, 4, bad_vs[i], 4, 0);
	OPEN(&p, type, 8, 4, 4, 0);
	OPEN(&p, type, 4, 4, 0, 0);
	OPEN(&p, type, 4, 4, 4, HR_F_NO_PREALLOC);
	OPEN(&p, type, 4, 4, 4, HR_F_RDONLY_PROG);
	OPEN(&p, type, 4, 4, 4, HR_F_WRONLY_PROG);
	OPEN(&p, type, 4, 4, 4, HR_F_ZERO_SEED);
	if (OPEN(&p, type, 4, 4, 4, HR_F_RDONLY | HR_F_NUMA_NODE))
		pair_close(&p);
	if (!OPEN(&p, type, 4, 8, 4, 0))
		return;
	WALK(&p);
	UPD(&p, 0, 1, 0, 3, V_DEV);
	UPD(&p, 0, 1, 0, 0, V_DEV);
	UPD(&p, 0, 1, 0, HR_NOEXIST, V_DEV);
	UPD(&p, 0, 1, 0, HR_EXIST, V_DEV);
	UPD(&p, 1, 9999, 0, 0, V_DEV);
	UPD(&p, 2, 0, 0, 0, V_DEV);
	UPD(&p, 2, 0, 77, 0, V_DEV);
	UPD(&p, 3, 1, 0, 0, V_DEV);
	UPD(&p, 4, 1, 0, 0, V_DEV);
	UPD(&p, 100, 1, 0, 0, V_DEV);
	UPD(&p, 0, 1, 0, HR_EXIST, V_DEV);
	for (i = 0; i < 5; i++)
		LKP(&p, i);
	LKP(&p, 100);
	WALK(&p);
	{
		uint32_t k = 2;

		op_next(&p, &k, __LINE__);
		k = 3;
		op_next(&p, &k, __LINE__);
		k = 100;
		op_next(&p, &k, __LINE__);
	}
	DEL(&p, 0);
	DEL(&p, 0);
	DEL(&p, 3);
	DEL(&p, 4);
	DEL(&p, 100);
	LKP(&p, 0);
	WALK(&p);
	pair_close(&p);
}

static void test_devmap_value4(uint32_t type)
{
	struct pair p;

	if (!OPEN(&p, type, 4, 4, 2, 0))
		return;
	UPD(&p, 0, 1, 0, 0, V_DEV);
	UPD(&p, 1, 1, 0, 0, V_DEV);
	UPD(&p, 2, 1, 0, 0, V_DEV);
	UPD(&p, 0, 9999, 0, 0, V_DEV);
	LKP(&p, 0);
	LKP(&p, 1);
	LKP(&p, 2);
	WALK(&p);
	pair_close(&p);
}

static void test_cpumap(void)
{
	struct pair p;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	OPEN(&p, HR_MAP_CPUMAP, 4, 12, 4, 0);
	OPEN(&p, HR_MAP_CPUMAP, 4, 0, 4, 0);
	OPEN(&p, HR_MAP_CPUMAP, 8, 4, 4, 0);
	OPEN(&p, HR_MAP_CPUMAP, 4, 4, 0, 0);
	OPEN(&p, HR_MAP_CPUMAP, 4, 4, 4, HR_F_RDONLY);
	OPEN(&p, HR_MAP_CPUMAP, 4, 4, 4, HR_F_NO_PREALLOC);
	if (OPEN(&p, HR_MAP_CPUMAP, 4, 4, 256, 0))
		pair_close(&p);
	OPEN(&p, HR_MAP_CPUMAP, 4, 4, 257, 0);
	OPEN(&p, HR_MAP_CPUMAP, 4, 4, 100000, 0);
	if (!OPEN(&p, HR_MAP_CPUMAP, 4, 8, 8, HR_F_NUMA_NODE))
		return;
	WALK(&p);
	UPD(&p, 0, 64, 0, 3, V_RAW);
	UPD(&p, 0, 64, 0, HR_NOEXIST, V_RAW);
	UPD(&p, 8, 64, 0, 0, V_RAW);
	UPD(&p, 0, 16385, 0, 0, V_RAW);
	UPD(&p, 0, 16384, 0, 0, V_RAW);
	UPD(&p, 1, 1, 0, HR_EXIST, V_RAW);
	UPD(&p, (uint32_t)ncpu, 64, 0, 0, V_RAW);
	UPD(&p, 7, 64, 0, 0, V_RAW);
	UPD(&p, 7, 16385, 0, 0, V_RAW); /* qsize checked before the CPU */
	UPD(&p, 1, 64, 999, 0, V_RAW); /* a bad program fd: -ENOMEM */
	LKP(&p, 0);
	LKP(&p, 1);
	LKP(&p, 2);
	LKP(&p, 8);
	UPD(&p, 0, 0, 0, 0, V_RAW); /* qsize 0 deletes */
	LKP(&p, 0);
	DEL(&p, 1);
	DEL(&p, 1);
	DEL(&p, 7);
	DEL(&p, 8);
	LKP(&p, 1);
	WALK(&p);
	pair_close(&p);
}

static void test_xskmap(void)
{
	struct pair p;

	OPEN(&p, HR_MAP_XSKMAP, 4, 8, 4, 0);
	OPEN(&p, HR_MAP_XSKMAP, 4, 4, 0, 0);
	OPEN(&p, HR_MAP_XSKMAP, 8, 4, 4, 0);
	OPEN(&p, HR_MAP_XSKMAP, 4, 4, 4, HR_F_RDONLY_PROG);
	OPEN(&p, HR_MAP_XSKMAP, 4, 4, 4, HR_F_NO_PREALLOC);
	if (!OPEN(&p, HR_MAP_XSKMAP, 4, 4, 4, HR_F_NUMA_NODE))
		return;
	WALK(&p);
	UPD(&p, 0, 1, 0, 3, V_XSK);
	UPD(&p, 4, 1, 0, 0, V_XSK);
	UPD(&p, 0, 900, 0, 0, V_XSK); /* not an open descriptor */
	UPD(&p, 0, 1, 0, HR_EXIST, V_XSK);
	UPD(&p, 0, 1, 0, HR_NOEXIST, V_XSK);
	UPD(&p, 0, 1, 0, HR_NOEXIST, V_XSK);
	UPD(&p, 1, 1, 0, 0, V_XSK);
	LKP(&p, 0);
	LKP(&p, 3);
	DEL(&p, 0);
	DEL(&p, 0);
	DEL(&p, 4);
	WALK(&p);
	pair_close(&p);
}

int main(void)
{
	HR_OPTS(hr_datapath_opts, o, .nworkers = 1);
	HR_OPTS(hr_xsk_opts, xo, .ifindex = 1);
	struct hr_datapath *dp = NULL;
	struct hr_xsk *xs = NULL;
	struct hr_dev *lo = NULL;
	char why[256];

	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	CHECK(rm_linked(), "redirect map ops linked");
	k_xsk_fd = socket(AF_XDP, SOCK_RAW, 0);
	CHECK(k_xsk_fd >= 0, "AF_XDP socket: %s", strerror(errno));
	CHECK_EQ(hr_xsk_create(&xo, &xs), 0);
	h_xsk_fd = hr_xsk_fd(xs);
	/* CPU-keyed checks first: no datapath, the host's CPUs. */
	test_cpumap();
	test_xskmap();
	CHECK_EQ(hr_dp_create(&o, &dp), 0);
	CHECK_EQ(hr_dev_sink_create(dp, "lo", NULL, &lo), 0);
	hr_dev_idx = lo ? hr_dev_ifindex(lo) : 0;
	test_devmap(HR_MAP_DEVMAP);
	test_devmap(HR_MAP_DEVMAP_HASH);
	test_devmap_value4(HR_MAP_DEVMAP);
	test_devmap_value4(HR_MAP_DEVMAP_HASH);
	hr_dp_destroy(dp);
	hr_xsk_destroy(xs);
	if (k_xsk_fd >= 0)
		close(k_xsk_fd);
	return t_done();
}
