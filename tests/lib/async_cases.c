// SPDX-License-Identifier: MIT
/* The shared cases of the bpf_timer and bpf_wq tests (async_cases.h). */
#include "async_cases.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "harness.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "headroom/test_run.h"
#include "kernel_side.h"
#include "oracle.h"
#include "vm/vm.h"

void t_async_run(struct oracle *o, bool kernel, const char *obj,
		 const char *prog, const char *label, const void *rec,
		 size_t size, void *out_hr, void *out_k)
{
	static uint8_t pkt[14 + T_ASYNC_REC_MAX];
	static struct oracle_result hr, kr;
	struct oracle_case c = {
		.obj = obj, .prog = prog, .data = pkt, .size = 14 + size
	};

	if (size > T_ASYNC_REC_MAX)
		size = T_ASYNC_REC_MAX;
	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, rec, size);
	if (out_hr) {
		CHECK(oracle_run_headroom(o, &c, &hr) == 0 && hr.err == 0 &&
			      hr.retval == XDP_PASS,
		      "%s: headroom run (err %d retval %u)", label, hr.err,
		      hr.retval);
		memcpy(out_hr, hr.out + 14, size);
	}
	if (!kernel)
		return;
	CHECK(oracle_run_kernel(o, &c, &kr) == 0 && kr.err == 0 &&
		      kr.retval == XDP_PASS,
	      "%s: kernel run (err %d retval %u)", label, kr.err, kr.retval);
	memcpy(out_k, kr.out + 14, size);
}

/* Whether the kernel's returns @k alone hold -ENOMEM. */
static bool kernel_enomem(const int64_t *k, const int64_t *h, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (k[i] == -ENOMEM && h[i] != -ENOMEM)
			return true;
	return false;
}

void t_async_case(struct oracle *o, bool kernel, const char *obj,
		  const char *prog, const char *label, const void *rec,
		  size_t size, size_t r_off, const char *alloc, void *out_hr)
{
	static uint8_t out_k[T_ASYNC_REC_MAX] __attribute__((aligned(8)));
	const int64_t *h = (const int64_t *)((const uint8_t *)out_hr + r_off);
	const int64_t *k = (const int64_t *)(out_k + r_off);
	unsigned int n = (unsigned int)((size - r_off) / sizeof(int64_t));

	t_async_run(o, kernel, obj, prog, label, rec, size, out_hr, out_k);
	if (!kernel)
		return;
	for (int tries = 0; kernel_enomem(k, h, n) && tries < 40; tries++) {
		/* The kernel's allocation (GFP_ATOMIC, memcg-charged, or
		 * kmalloc_nolock) failed, seen while other tests or
		 * sanitizer builds filled memory; nothing was made, so the
		 * case runs again there, for up to 2 s. */
		printf("note: %s: the kernel's %s was -ENOMEM; trying again\n",
		       label, alloc);
		usleep(50000);
		t_async_run(o, true, obj, prog, label, rec, size, NULL, out_k);
	}
	for (unsigned int i = 0; i < n; i++)
		CHECK(k[i] == h[i], "%s: r[%u]: kernel %lld, headroom %lld",
		      label, i, (long long)k[i], (long long)h[i]);
}

/* counts[@id] alone, on one side. */
static uint64_t read_count(struct oracle *o, bool kernel, const char *obj,
			   uint32_t id)
{
	uint64_t n = 0;

	if (kernel) {
		struct bpf_object *k = oracle_kernel_object(o, obj);
		int c = k ? bpf_object__find_map_fd_by_name(k, "counts") : -1;

		if (c >= 0)
			bpf_map_lookup_elem(c, &id, &n);
	} else {
		struct hr_object *h = oracle_headroom_object(o, obj);
		struct hr_map *c = h ? hr_object_find_map(h, "counts") : NULL;

		if (c)
			hr_map_lookup_elem(c, &id, &n);
	}
	return n;
}

bool t_async_read(struct oracle *o, bool kernel, const char *obj,
		  const char *map, uint32_t key, uint32_t id, uint64_t *count,
		  void *v, size_t vsize)
{
	*count = read_count(o, kernel, obj, id);
	memset(v, 0, vsize);
	if (kernel) {
		struct bpf_object *k = oracle_kernel_object(o, obj);
		int m = k ? bpf_object__find_map_fd_by_name(k, map) : -1;

		return m >= 0 && bpf_map_lookup_elem(m, &key, v) == 0;
	} else {
		struct hr_object *h = oracle_headroom_object(o, obj);
		struct hr_map *m = h ? hr_object_find_map(h, map) : NULL;

		return m && hr_map_lookup_elem(m, &key, v) == 0;
	}
}

void t_async_expect(struct oracle *o, bool kernel, const char *obj,
		    const char *label, const char *map, const char *field,
		    uint32_t key, uint32_t id, uint64_t count, bool present,
		    int64_t cb_ret)
{
	struct t_async_val vh, vk;
	uint64_t ch, ck;
	bool ph =
		t_async_read(o, false, obj, map, key, id, &ch, &vh, sizeof(vh));

	CHECK(ch == count, "%s: headroom ran %llu, want %llu", label,
	      (unsigned long long)ch, (unsigned long long)count);
	CHECK(ph == present, "%s: headroom element present %d", label, ph);
	if (present && count) {
		CHECK(vh.ran == count && vh.cb_key == key * count,
		      "%s: headroom value ran %llu key %u", label,
		      (unsigned long long)vh.ran, vh.cb_key);
		CHECK(vh.cb_ret == cb_ret, "%s: headroom cb_ret %lld", label,
		      (long long)vh.cb_ret);
	}
	if (present)
		CHECK(vh.field[0] == 0 && vh.field[1] == 0,
		      "%s: user space reads the %s as 0", label, field);
	if (!kernel)
		return;
	CHECK(t_async_read(o, true, obj, map, key, id, &ck, &vk, sizeof(vk)) ==
		      ph,
	      "%s: element presence differs", label);
	CHECK(ck == ch, "%s: ran: kernel %llu, headroom %llu", label,
	      (unsigned long long)ck, (unsigned long long)ch);
	if (ph)
		CHECK(!memcmp(&vk, &vh, sizeof(vk)),
		      "%s: values differ: kernel ran %llu key %u cb_ret %lld",
		      label, (unsigned long long)vk.ran, vk.cb_key,
		      (long long)vk.cb_ret);
}

void t_async_wait(struct oracle *o, bool kernel, const char *obj, uint32_t id,
		  uint64_t want)
{
	for (int i = 0; i < 200; i++) {
		if (read_count(o, false, obj, id) >= want &&
		    (!kernel || read_count(o, true, obj, id) >= want))
			return;
		usleep(10000);
	}
}

void t_async_refused(const char *obj_name, const char *ctx_prog,
		     const char *field, bool kernel)
{
	HR_OPTS(hr_object_open_opts, oo);
	uint8_t pkt[64] = { 0 };
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	char path[512], err[512] = "", want[96];
	int eng;

	t_prog_path(obj_name, path, sizeof(path));
	oo.only_prog = ctx_prog;
	CHECK_EQ(hr_object_open(path, &oo, &obj), 0);
	p = obj ? hr_object_find_prog(obj, ctx_prog) : NULL;
	for (eng = HR_ENGINE_INTERP; p && eng <= HR_ENGINE_JIT_CHECKED; eng++) {
		HR_OPTS(hr_test_run_opts, ro, .data_in = pkt,
			.data_size_in = sizeof(pkt), .engine = eng);

		CHECK_EQ(hr_prog_test_run(p, &ro), 0);
		CHECK(ro.abort == HR_ABORT_HELPER_ARG,
		      "%s: a callback needing a context stops set_callback "
		      "(%s)",
		      field, hr_abort_str(ro.abort));
	}
	usleep(20000);
	hr_object_close(obj);
	obj = NULL;

	oo.only_prog = NULL;
	oo.errbuf = err;
	oo.errbuf_sz = sizeof(err);
	snprintf(want, sizeof(want),
		 "map 'pc_arr' has to have BTF in order to use %s", field);
	CHECK(hr_object_open(path, &oo, &obj) < 0 && strstr(err, want),
	      "per-CPU array %s refused: %s", field, err);
	hr_object_close(obj);
	if (kernel) {
		struct bpf_object *k;
		char left[64];
		int kerr = 0;

		k = t_kload(obj_name, left, sizeof(left), &kerr);
		CHECK(k == NULL, "the kernel refuses %s", obj_name);
		bpf_object__close(k);
	}
}
