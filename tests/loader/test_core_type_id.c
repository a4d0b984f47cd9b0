// SPDX-License-Identifier: MIT
/*
 * bpf_core_type_id_local() / bpf_core_type_id_kernel() (CO-RE kinds
 * TYPE_ID_LOCAL and TYPE_ID_TARGET, libbpf's relo_core.c): the ids
 * core_type_id.bpf.c writes into its packet are checked against the
 * object's own BTF and the target's, looked up by name, for the running
 * kernel's BTF and for headroom's built-in one; then the same object and
 * packet run through libbpf's load and the kernel's BPF_PROG_TEST_RUN,
 * which must give the same bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <headroom/headroom.h>
#include <linux/bpf.h>

#include "harness.h"
#include "oracle.h"
#include "loader/core_relo.h"

#define N_IDS 10

static char err[512];
static uint8_t pkt[64];

static int run_ids(const char *btf, uint32_t ids[N_IDS])
{
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .btf_path = btf);
	struct hr_test_run_opts o = { .sz = sizeof(o) };
	struct hr_object *obj = NULL;
	uint8_t out[sizeof(pkt)];
	char path[512];
	int ret;

	snprintf(path, sizeof(path), "%s/core_type_id.o", t_progs_dir());
	ret = hr_object_open(path, &oo, &obj);
	if (ret) {
		fprintf(stderr, "open: %s\n", err);
		return ret;
	}
	o.data_in = pkt;
	o.data_size_in = sizeof(pkt);
	o.data_out = out;
	o.data_size_out = sizeof(out);
	ret = hr_prog_test_run(hr_object_find_prog(obj, NULL), &o);
	if (!ret && o.retval != XDP_TX)
		ret = -EPROTO;
	memcpy(ids, out, N_IDS * 4);
	hr_object_close(obj);
	return ret;
}

/* The id of @name of @kind in @btf, 0 when it has none. */
static uint32_t id_of(const struct btf *btf, const char *name, int kind)
{
	int id = btf__find_by_name_kind(btf, name, kind);

	return id > 0 ? (uint32_t)id : 0;
}

static void check_ids(const char *target, const char *label)
{
	char path[512];
	struct btf *local, *targ;
	uint32_t ids[N_IDS];
	int ret;

	ret = run_ids(target, ids);
	CHECK(ret == 0, "%s: run %d", label, ret);
	if (ret)
		return;
	snprintf(path, sizeof(path), "%s/core_type_id.o", t_progs_dir());
	local = btf__parse(path, NULL);
	targ = strcmp(target, "builtin") ? btf__parse(target, NULL) :
					   hr_uapi_btf_new();
	CHECK(local && targ, "%s: BTF", label);
	if (!local || !targ)
		goto out;
	CHECK_EQ(ids[0], id_of(local, "meta_rx___hr", BTF_KIND_STRUCT));
	CHECK_EQ(ids[1], id_of(local, "meta_rx_t", BTF_KIND_TYPEDEF));
	CHECK_EQ(ids[2], id_of(local, "meta_any", BTF_KIND_UNION));
	CHECK_EQ(ids[3], id_of(local, "unsigned int", BTF_KIND_INT));
	CHECK(ids[0] && ids[1] && ids[2] && ids[3], "%s: a local id is 0",
	      label);
	/* iphdr___hr's candidate is the target's struct iphdr. */
	CHECK_EQ(ids[4], id_of(targ, "iphdr", BTF_KIND_STRUCT));
	CHECK(ids[4] != 0, "%s: iphdr not found", label);
	/* struct ethhdr is only declared in the program: a FWD matches no
	 * struct, so its target id is 0, as is a type the target lacks. */
	CHECK_EQ(ids[5], id_of(targ, "ethhdr", BTF_KIND_FWD));
	CHECK_EQ(ids[6], 0);
	CHECK_EQ(ids[7], id_of(targ, "xdp_md", BTF_KIND_STRUCT));
	CHECK_EQ(ids[8], id_of(targ, "unsigned int", BTF_KIND_INT));
	CHECK_EQ(ids[9], id_of(local, "iphdr___hr", BTF_KIND_STRUCT));
out:
	btf__free(local);
	btf__free(targ);
}

static void test_kernel(void)
{
	struct oracle_case c = { .obj = "core_type_id.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct oracle *o;
	char why[128];

	if (!t_have_kernel(why, sizeof(why))) {
		t_skip(why);
		return;
	}
	CHECK(oracle_new(&o) == 0, "oracle");
	CHECK(oracle_check(o, &c, "core_type_id") == 1, "kernel differs");
	oracle_summary(o);
	oracle_free(o);
}

int main(void)
{
	if (!access("/sys/kernel/btf/vmlinux", R_OK))
		check_ids("/sys/kernel/btf/vmlinux", "vmlinux");
	check_ids("builtin", "builtin");
	test_kernel();
	return t_done();
}
