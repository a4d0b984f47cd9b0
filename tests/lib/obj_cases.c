// SPDX-License-Identifier: MIT
/* The checks test_obj and test_percpu_obj share (obj_cases.h). */
#include <errno.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "harness.h"
#include "headroom/headroom.h"
#include "obj_cases.h"
#include "oracle.h"

struct kval {
	uint64_t tag;
	uint64_t p;
};

void t_kptr_elem(struct oracle *o, bool kernel, const char *obj,
		 const char *map, uint32_t key, bool set)
{
	struct hr_object *ho = oracle_headroom_object(o, obj);
	struct hr_map *hm = ho ? hr_object_find_map(ho, map) : NULL;
	struct bpf_object *ko = kernel ? oracle_kernel_object(o, obj) : NULL;
	struct bpf_map *km = ko ? bpf_object__find_map_by_name(ko, map) : NULL;
	struct kval hv = { .tag = 7, .p = 0x1234 }, kv = hv;

	CHECK(hm && (!kernel || km), "%s map on both sides", map);
	if (!hm || (kernel && !km))
		return;
	if (set) {
		CHECK_EQ(hr_map_update_elem(hm, &key, &hv, 0), 0);
		if (km)
			CHECK_EQ(bpf_map__update_elem(km, &key, sizeof(key),
						      &kv, sizeof(kv), 0),
				 0);
		return;
	}
	CHECK_EQ(hr_map_lookup_elem(hm, &key, &hv), 0);
	/* check_and_init_map_value: user space reads a kptr as 0. */
	CHECK(hv.p == 0, "headroom %s[%u].p reads %llx", map, key,
	      (unsigned long long)hv.p);
	if (km) {
		CHECK_EQ(bpf_map__lookup_elem(km, &key, sizeof(key), &kv,
					      sizeof(kv), 0),
			 0);
		CHECK(kv.tag == hv.tag && kv.p == hv.p,
		      "%s[%u]: kernel %llx %llx, headroom %llx %llx", map, key,
		      (unsigned long long)kv.tag, (unsigned long long)kv.p,
		      (unsigned long long)hv.tag, (unsigned long long)hv.p);
	}
}

void t_kptr_delete(struct oracle *o, bool kernel, const char *obj,
		   const char *map, uint32_t key)
{
	struct hr_object *ho = oracle_headroom_object(o, obj);
	struct hr_map *hm = ho ? hr_object_find_map(ho, map) : NULL;
	struct bpf_object *ko = kernel ? oracle_kernel_object(o, obj) : NULL;
	struct bpf_map *km = ko ? bpf_object__find_map_by_name(ko, map) : NULL;
	int hr, k;

	CHECK(hm && (!kernel || km), "%s map on both sides", map);
	if (!hm)
		return;
	hr = hr_map_delete_elem(hm, &key);
	if (km) {
		k = bpf_map__delete_elem(km, &key, sizeof(key), 0);
		CHECK(hr == (k ? -errno : 0), "%s delete: %d, kernel %d", map,
		      hr, k ? -errno : 0);
	}
}

void t_refused_loads(const char *obj, const char *const (*cases)[2], size_t n)
{
	char path[512], err[512];
	size_t i;

	t_prog_path(obj, path, sizeof(path));
	for (i = 0; i < n; i++) {
		HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
			.errbuf_sz = sizeof(err), .only_prog = cases[i][0]);
		struct hr_object *ho = NULL;
		int ret;

		err[0] = '\0';
		ret = hr_object_open(path, &oo, &ho);
		CHECK(ret < 0 && strstr(err, cases[i][1]), "%s: %d '%s'",
		      cases[i][0], ret, err);
		hr_object_close(ho);
	}
}
