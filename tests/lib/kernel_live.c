// SPDX-License-Identifier: MIT
/* The kernel as the benchmarks' other side: see kernel_live.h. */
#include "kernel_live.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "harness.h"

#ifndef BPF_F_XDP_DEV_BOUND_ONLY
#define BPF_F_XDP_DEV_BOUND_ONLY (1U << 6) /* uapi linux/bpf.h, 6.3 */
#endif

const uint8_t t_live_frame[64] = {
	0x02, 0, 0,   0,  0, 2, 0x02, 0,    0,	0,  0, 1,  0x08, 0x00,
	0x45, 0, 0,   50, 0, 0, 0x40, 0,    64, 17, 0, 0,  198,	 18,
	0,    1, 198, 18, 1, 1, 0x04, 0xd2, 0,	9,  0, 30,
};

double t_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The offset of .rodata variable @var, or -ENOENT. */
static long rodata_offset(struct bpf_object *obj, const char *var)
{
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *sec;
	int id, i;

	id = btf ? btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC) :
		   -ENOENT;
	if (id < 0)
		return -ENOENT;
	sec = btf__type_by_id(btf, (uint32_t)id);
	vs = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, vs++) {
		const struct btf_type *v = btf__type_by_id(btf, vs->type);

		if (!strcmp(btf__name_by_offset(btf, v->name_off), var))
			return vs->size == 4 ? (long)vs->offset : -EINVAL;
	}
	return -ENOENT;
}

/* "NAME=VALUE" into the .rodata image libbpf copies at load. */
static int rodata_set(struct bpf_object *obj, const char *set)
{
	const char *eq = strchr(set, '=');
	struct bpf_map *map;
	char var[64], *end;
	unsigned long long v;
	size_t sz;
	long off;
	char *data;

	if (!eq || eq == set || (size_t)(eq - set) >= sizeof(var))
		return -EINVAL;
	memcpy(var, set, (size_t)(eq - set));
	var[eq - set] = '\0';
	errno = 0;
	v = strtoull(eq + 1, &end, 0);
	if (errno || *end || end == eq + 1 || v > UINT32_MAX)
		return -ERANGE;
	off = rodata_offset(obj, var);
	if (off < 0)
		return (int)off;
	bpf_object__for_each_map(map, obj)
	{
		if (strstr(bpf_map__name(map), ".rodata"))
			break;
	}
	data = map ? (char *)bpf_map__initial_value(map, &sz) : NULL;
	if (!data || (size_t)off + 4 > sz)
		return -EINVAL;
	memcpy(data + off, &(uint32_t){ (uint32_t)v }, 4);
	return 0;
}

struct bpf_object *t_kopen_set(const char *name, const char *const *sets,
			       unsigned int nsets, int bound_ifindex)
{
	struct bpf_program *prog;
	struct bpf_object *obj;
	char path[512];
	unsigned int i;
	int err;

	t_prog_path(name, path, sizeof(path));
	obj = bpf_object__open_file(path, NULL);
	if (!obj || libbpf_get_error(obj)) {
		fprintf(stderr, "kernel: cannot open %s\n", path);
		return NULL;
	}
	for (i = 0; i < nsets; i++) {
		err = rodata_set(obj, sets[i]);
		if (err) {
			fprintf(stderr, "kernel: %s: cannot set %s: %s\n", path,
				sets[i], strerror(-err));
			goto fail;
		}
	}
	if (bound_ifindex)
		bpf_object__for_each_program(prog, obj)
		{
			bpf_program__set_ifindex(prog, (__u32)bound_ifindex);
			bpf_program__set_flags(prog, BPF_F_XDP_DEV_BOUND_ONLY);
		}
	if (!bpf_object__load(obj))
		return obj;
	fprintf(stderr, "kernel: cannot load %s\n", path);
fail:
	bpf_object__close(obj);
	return NULL;
}

int t_kprog_fd(struct bpf_object *o, const char *name)
{
	struct bpf_program *p =
		name ? bpf_object__find_program_by_name(o, name) :
		       bpf_object__next_program(o, NULL);

	return p ? bpf_program__fd(p) : -1;
}

double t_klive(int prog_fd, int ifindex, const void *pkt, uint32_t len,
	       uint64_t repeat)
{
	struct xdp_md ctx = { .data_end = len,
			      .ingress_ifindex = (uint32_t)ifindex };
	double t0;
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = len,
		    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx),
		    .batch_size = 64, .flags = BPF_F_TEST_XDP_LIVE_FRAMES);

	/* The attribute's repeat is 32 bits: no silent wrap. */
	if (repeat > UINT32_MAX) {
		fprintf(stderr, "kernel: live frames: %llu > 2^32 - 1\n",
			(unsigned long long)repeat);
		return 0;
	}
	o.repeat = (uint32_t)repeat;
	t0 = t_now_s();
	if (bpf_prog_test_run_opts(prog_fd, &o)) {
		int err = errno;

		fprintf(stderr, "kernel: live-frames test run: %s\n",
			strerror(err));
		/* Callers tell a refusal (EPERM) from other failures. */
		errno = err;
		return 0;
	}
	return t_now_s() - t0;
}

uint64_t t_kpercpu_read(struct bpf_object *o, const char *map, uint32_t key,
			int cpu, uint64_t *at)
{
	uint64_t vals[256], s = 0;
	int ncpu = libbpf_num_possible_cpus(), i;

	if (at)
		*at = 0;
	if (ncpu <= 0 || ncpu > 256 ||
	    bpf_map_lookup_elem(bpf_object__find_map_fd_by_name(o, map), &key,
				vals))
		return 0;
	for (i = 0; i < ncpu; i++)
		s += vals[i];
	if (at && cpu >= 0 && cpu < ncpu)
		*at = vals[cpu];
	return s;
}

uint64_t t_kpercpu_sum(struct bpf_object *o, const char *map, uint32_t key)
{
	return t_kpercpu_read(o, map, key, -1, NULL);
}
