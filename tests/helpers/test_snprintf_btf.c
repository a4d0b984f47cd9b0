// SPDX-License-Identifier: MIT
/*
 * bpf_snprintf_btf (progs/helpers/xdp_snprintf_btf.bpf.c): struct ethhdr,
 * iphdr (an anonymous union of structs), tcphdr (bitfields), in6_addr (a
 * union of arrays), xdp_md, list_head (pointers), enum xdp_action, int,
 * __u64 (a typedef), an ethhdr read in place in the packet,
 * bpf_fib_lookup and bpf_tunnel_key (unions of arrays and ints), each over
 * three byte patterns (all zero, sparse, dense), with every combination
 * of the four BTF_F_* flags, cut to 1, 40 and 1024 bytes; then bad
 * flags, a short btf_ptr, type ids 0, past the last, above INT_MAX, a
 * function's, a section's and a typedef's, and a pointer below 64 KiB.
 * Each is compared with the kernel's BPF_PROG_TEST_RUN under the
 * interpreter, the JIT and the checked JIT: the return and every byte
 * of the output. A pointer the kernel hashes (no BTF_F_PTR_RAW, not
 * NULL) is compared by the return alone (the hash is random per boot);
 * a few texts are also checked as written here, so that headroom is
 * held to them without a kernel. On headroom alone: an object outside
 * the program's memory (a user address, a task_struct bigger than the
 * stack) ends the run.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "harness.h"
#include "kernel_side.h"
#include "headroom/headroom.h"
#include "oracle.h"

ORACLE_LINK_HEADROOM;

#define OUT 1024
#define OPT_SHORT_PTR 1
#define OPT_TYPE_ID 2
#define NWHICH 12
#define F_PTR_RAW 4

struct sbtf_rec {
	uint32_t which, size;
	uint64_t flags;
	uint32_t type_id, opts;
	uint64_t bad_ptr;
	uint8_t obj[64];
	int64_t ret;
	char out[OUT];
};

static uint8_t pkt[14 + sizeof(struct sbtf_rec)];
static bool kernel_ok; /* the host's kernel runs the program */
static unsigned int ret_only; /* cases compared by their return alone */

static void fill(struct sbtf_rec *in, uint32_t which, int pattern)
{
	int i;

	for (i = 0; i < 64; i++)
		in->obj[i] = pattern == 2 ? (uint8_t)(i * 7 + 0x41) : 0;
	if (pattern == 1) {
		in->obj[1] = 'x';
		in->obj[13] = 0x86;
		in->obj[20] = 0x40;
		in->obj[40] = 1;
		if (which == 5) { /* NULL and an error pointer: raw */
			memset(in->obj, 0, 8);
			memset(in->obj + 8, 0xff, 8);
			in->obj[8] = 0xea;
		}
		if (which == 6)
			in->obj[0] = 2; /* XDP_PASS */
	}
	memset(pkt, 0, 14);
	pkt[0] = 2, pkt[5] = 2, pkt[6] = 2, pkt[11] = 1, pkt[12] = 8;
}

/* Runs @in on headroom (and the kernel when there is one to compare
 * with): the headroom record back in @out, or false if the run failed. */
static bool run(struct oracle *o, bool kernel, struct sbtf_rec *in,
		struct sbtf_rec *res, const char *label, bool by_ret)
{
	struct oracle_case c = { .obj = "xdp_snprintf_btf.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct oracle_result r, k;
	struct sbtf_rec kr;

	memcpy(pkt + 14, in, sizeof(*in));
	if (oracle_run_headroom(o, &c, &r) || r.retval != XDP_PASS) {
		CHECK(false, "%s: run (retval %u, err %d)", label, r.retval,
		      r.err);
		return false;
	}
	memcpy(res, r.out + 14, sizeof(*res));
	if (!kernel || !kernel_ok)
		return true;
	if (!by_ret) {
		CHECK(oracle_check(o, &c, label) == 1, "%s differs", label);
		return true;
	}
	ret_only++;
	CHECK(oracle_run_kernel(o, &c, &k) == 0 && k.retval == XDP_PASS,
	      "%s: kernel run", label);
	memcpy(&kr, k.out + 14, sizeof(kr));
	CHECK(kr.ret == res->ret &&
		      strnlen(kr.out, OUT) == strnlen(res->out, OUT),
	      "%s: kernel %lld \"%s\", headroom %lld \"%s\"", label,
	      (long long)kr.ret, kr.out, (long long)res->ret, res->out);
	return true;
}

/* Texts the kernel printed for the dense pattern, held without it. */
static void want_text(uint32_t which, uint64_t flags, const struct sbtf_rec *r,
		      const char *label)
{
	static const char eth[] = "(struct ethhdr){\n"
				  " .h_dest = (unsigned char[])[\n"
				  "  'A',\n  'H',\n  'O',\n  'V',\n  ']',\n"
				  "  'd',\n ],\n"
				  " .h_source = (unsigned char[])[\n"
				  "  'k',\n  'r',\n  'y',\n  128,\n  135,\n"
				  "  142,\n ],\n"
				  " .h_proto = (__be16)40085,\n}\n";
	const char *w = NULL;

	if (which == 0 && flags == 0)
		w = eth;
	if (which == 0 && flags == 15)
		w = "{['A','H','O','V',']','d',],['k','r','y',128,135,142,],"
		    "40085,}";
	if (which == 1 && flags == 15)
		w = "{0x1,0x4,72,22095,25693,29291,121,128,36487,{{2862849173,"
		    "3334453425,},{2862849173,3334453425,},},}";
	if (which == 4 && flags == 3)
		w = "{1448036417,1919640669,2391244921,2862849173,3334453425,"
		    "3806057677,}";
	if (which == 7 && flags == 0)
		w = "(int)1448036417\n";
	if (which == 6 && flags == 2)
		w = "1448036417\n";
	if (!w)
		return;
	CHECK(r->ret == (int64_t)strlen(w) && !strcmp(r->out, w),
	      "%s: %lld \"%s\", want \"%s\"", label, (long long)r->ret, r->out,
	      w);
}

static void shows(struct oracle *o, bool kernel)
{
	static const uint32_t sizes[] = { 1, 40, OUT };
	struct sbtf_rec in, res;
	char label[96];
	uint32_t which, si;
	uint64_t flags;
	int pat;

	for (which = 0; which < NWHICH; which++)
		for (pat = 0; pat < 3; pat++)
			for (flags = 0; flags < 16; flags++)
				for (si = 0; si < 3; si++) {
					memset(&in, 0, sizeof(in));
					in.which = which;
					in.flags = flags;
					in.size = sizes[si] - 1;
					fill(&in, which, pat);
					snprintf(
						label, sizeof(label),
						"type %u pattern %d flags %llu "
						"size %u",
						which, pat,
						(unsigned long long)flags,
						sizes[si]);
					if (!run(o, kernel, &in, &res, label,
						 which == 5 && pat == 2 &&
							 !(flags & F_PTR_RAW)))
						continue;
					CHECK(res.ret > 0 &&
						      strnlen(res.out, OUT) ==
							      (size_t)(res.ret < sizes[si] ?
									       res.ret :
									       sizes[si] -
										       1),
					      "%s: %lld, %zu bytes", label,
					      (long long)res.ret,
					      strnlen(res.out, OUT));
					if (pat == 2 && si == 2)
						want_text(which, flags, &res,
							  label);
				}
}

/* A vmlinux type id of @kind named @name (the host's), or 0. */
static uint32_t kid(const struct btf *v, const char *name, int kind)
{
	int id = v ? btf__find_by_name_kind(v, name, kind) : -1;

	return id > 0 ? (uint32_t)id : 0;
}

static void errors(struct oracle *o, bool kernel)
{
	struct btf *v = btf__load_vmlinux_btf();
	struct {
		const char *what;
		uint64_t flags;
		uint32_t opts, type_id;
		uint64_t ptr;
		int64_t want; /* 1: any length */
	} cases[] = {
		{ "flag 1<<4", 16, 0, 0, 0, -EINVAL },
		{ "flag 1<<40", 1ULL << 40, 0, 0, 0, -EINVAL },
		{ "btf_ptr_size 8", 0, OPT_SHORT_PTR, 0, 0, -EINVAL },
		{ "type id 0", 0, OPT_TYPE_ID, 0, 0, -EINVAL },
		{ "type id INT_MAX", 0, OPT_TYPE_ID, 0x7fffffff, 0, -ENOENT },
		{ "type id 1<<31", 0, OPT_TYPE_ID, 0x80000000u, 0, -ENOENT },
		{ "type id past the last", 0, OPT_TYPE_ID,
		  v ? btf__type_cnt(v) : 0x7ffffffe, 0, -ENOENT },
		{ "a function's id", 0, OPT_TYPE_ID,
		  kid(v, "bpf_prog_test_run_xdp", BTF_KIND_FUNC), 0, 1 },
		{ "a section's id", 0, OPT_TYPE_ID,
		  kid(v, ".data..percpu", BTF_KIND_DATASEC), 0, -EINVAL },
		{ "a typedef's id", 3, OPT_TYPE_ID,
		  kid(v, "__be16", BTF_KIND_TYPEDEF), 0, 1 },
		{ "a pointer below 64 KiB", 0, 0, 0, 0x1000, -ERANGE },
	};
	struct sbtf_rec in, res;
	char label[96];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if ((cases[i].opts & OPT_TYPE_ID) && !cases[i].type_id &&
		    strcmp(cases[i].what, "type id 0"))
			continue; /* no vmlinux BTF to find it in */
		memset(&in, 0, sizeof(in));
		fill(&in, 0, 2);
		in.which = 0;
		in.size = OUT - 1;
		in.flags = cases[i].flags;
		in.opts = cases[i].opts;
		in.type_id = cases[i].type_id;
		in.bad_ptr = cases[i].ptr;
		snprintf(label, sizeof(label), "%s", cases[i].what);
		if (!run(o, kernel, &in, &res, label, false))
			continue;
		if (cases[i].want == 1)
			CHECK(res.ret > 0 && (size_t)res.ret == strlen(res.out),
			      "%s: %lld \"%s\"", label, (long long)res.ret,
			      res.out);
		else
			CHECK(res.ret == cases[i].want && !res.out[0],
			      "%s: %lld, want %lld", label, (long long)res.ret,
			      (long long)cases[i].want);
		if (!strcmp(cases[i].what, "a function's id"))
			CHECK(!strcmp(res.out, "<unsupported kind:12>"),
			      "%s: %s", label, res.out);
	}
	btf__free(v);
}

/* headroom alone: an object the program's memory does not hold. */
static void outside(struct oracle *o)
{
	struct oracle_case c = { .obj = "xdp_snprintf_btf.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct btf *v = btf__load_vmlinux_btf();
	uint32_t task = kid(v, "task_struct", BTF_KIND_STRUCT);
	struct oracle_result r;
	struct sbtf_rec in;
	int i;

	for (i = 0; i < 2; i++) {
		if (i == 1 && !task)
			break;
		memset(&in, 0, sizeof(in));
		fill(&in, 0, 2);
		in.size = OUT - 1;
		if (i == 0) {
			in.bad_ptr = 0x7f0000000000ull;
		} else {
			in.opts = OPT_TYPE_ID;
			in.type_id = task;
		}
		memcpy(pkt + 14, &in, sizeof(in));
		CHECK(oracle_run_headroom(o, &c, &r) == 0 &&
			      r.retval == XDP_ABORTED,
		      "%s: run ends (retval %u)",
		      i ? "a task_struct on the stack" : "a user address",
		      r.retval);
	}
	btf__free(v);
}

/* Whether the host's kernel loads and runs the program (bpf_snprintf_btf
 * is in bpf_base_func_proto for a loader with CAP_BPF and CAP_PERFMON);
 * said once when it does not. */
static bool probe(struct oracle *o)
{
	struct oracle_case c = { .obj = "xdp_snprintf_btf.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct oracle_result k;
	struct sbtf_rec in;
	int err;

	memset(&in, 0, sizeof(in));
	fill(&in, 0, 2);
	memcpy(pkt + 14, &in, sizeof(in));
	err = oracle_run_kernel(o, &c, &k);
	if (!err && !k.err && k.retval == XDP_PASS)
		return true;
	printf("note: this host's kernel does not run bpf_snprintf_btf in an "
	       "XDP test run (%s, retval %u): headroom's side alone is "
	       "checked%s\n",
	       strerror(-(err ? err : k.err)), k.retval, t_host_note());
	return false;
}

/* Each engine: the texts, the errors, objects outside the program's
 * memory; the host's kernel probed before the first. */
static void each(struct oracle *o, bool kernel, size_t e)
{
	if (e == 0)
		kernel_ok = kernel && probe(o);
	shows(o, kernel);
	errors(o, kernel);
	outside(o);
	if (e == 2)
		printf("%u cases compared by their return alone (hashed "
		       "pointers)\n",
		       ret_only);
}

int main(void)
{
	return oracle_main_engines3(each);
}
