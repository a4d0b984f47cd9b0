// SPDX-License-Identifier: MIT
/*
 * bpf_snprintf (progs/helpers/xdp_snprintf.bpf.c): integers of each
 * length and base with flags and widths, strings (one no byte of which
 * can be read), %pks, IPv4 and IPv6 addresses, characters and %%, no
 * arguments and the most (12), each cut to output sizes from none to
 * more than the text, compared with the kernel's BPF_PROG_TEST_RUN under
 * both engines: the return (the whole text's length with its NUL) and
 * the bytes written. The formats the kernel refuses are refused by its
 * verifier at load, so those are checked on headroom alone, with a bits
 * iterator and a ring buffer dynptr forged on the stack, which must end
 * the run (progs/helpers/bits_ring_snprintf_forged.bpf.c).
 */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "headroom/object.h"
#include "headroom/test_run.h"
#include "oracle.h"
#include "vm/vm.h" /* enum hr_abort */

struct snp_rec {
	uint32_t which, size;
	uint64_t args[12];
	char s1[16], s2[16];
	uint8_t ip[16];
	int64_t ret;
	char out[128];
};

static uint8_t pkt[512];

static void want_text(uint32_t which, const uint64_t *a, char *w, size_t n);

static void one(struct oracle *o, bool kernel, uint32_t which, uint32_t size)
{
	static const uint8_t ip[16] = { 10, 0, 1, 2, 0x20, 0x01, 0x0d, 0xb8,
					0,  0, 0, 0, 0,	   0,	 0xab, 0xcd };
	struct oracle_case c = { .obj = "xdp_snprintf.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct snp_rec in = { .which = which, .size = size }, out;
	struct oracle_result r;
	char label[64], want[256];
	int64_t want_ret;
	size_t wl, shown;
	int i;

	for (i = 0; i < 12; i++)
		in.args[i] = (uint64_t)-3 * (uint64_t)(i + 1) * 0x10001ull;
	in.args[2] = which == 3 ? 0 : in.args[2];
	if (which == 5)
		memcpy(in.args, (uint64_t[]){ 'o', 'k', '!', 0x141 }, 32);
	strcpy(in.s1, "first");
	strcpy(in.s2, "second one");
	memcpy(in.ip, ip, sizeof(ip));
	want_text(which, in.args, want, sizeof(want));
	wl = strlen(want);
	want_ret = (int64_t)wl + 1;
	/* Addresses and %pks past the end of the output are not counted
	 * (bstr_printf); these formats have nothing after them. */
	if (which == 4 && size <= 8)
		want_ret = size ? 12 : 4;
	if (which == 6 && !size)
		want_ret = 2;
	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	snprintf(label, sizeof(label), "snprintf format %u size %u", which,
		 size);
	CHECK(oracle_run_headroom(o, &c, &r) == 0 && r.retval == XDP_PASS,
	      "%s: run (retval %u)", label, r.retval);
	memcpy(&out, r.out + 14, sizeof(out));
	shown = size ? (wl < size - 1 ? wl : size - 1) : 0;
	CHECK(out.ret == want_ret && !memcmp(out.out, want, shown) &&
		      (!size || !out.out[shown]),
	      "%s: %lld \"%.*s\", want %zu \"%s\"", label, (long long)out.ret,
	      (int)sizeof(out.out), out.out, (size_t)want_ret, want);
	if (kernel)
		CHECK(oracle_check(o, &c, label) == 1, "%s differs", label);
}

/* The text of format @which as the kernel prints it, from the same
 * arguments one() gives (the host's printf agrees for these). */
static void want_text(uint32_t which, const uint64_t *a, char *w, size_t n)
{
	switch (which) {
	case 0:
		snprintf(w, n, "%d %u %x %X %i", (int)a[0], (unsigned)a[1],
			 (unsigned)a[2], (unsigned)a[3], (int)a[4]);
		break;
	case 1:
		snprintf(w, n, "%lld %llu %llx %lld %llu %lld", (long long)a[0],
			 (unsigned long long)a[1], (unsigned long long)a[2],
			 (long long)a[3], (unsigned long long)a[4],
			 (long long)a[5]);
		break;
	case 2:
		snprintf(w, n, "[%5d|%-5d|%05u|%+d|% d|%08llx]", (int)a[0],
			 (int)a[1], (unsigned)a[2], (int)a[3], (int)a[4],
			 (unsigned long long)a[5]);
		break;
	case 3:
		snprintf(w, n, "<first> and <second one|      >");
		break;
	case 4:
		snprintf(w, n,
			 "10.0.1.2 010.000.001.002 0a00:0102:2001:0db8:"
			 "0000:0000:0000:abcd "
			 "0a00010220010db8000000000000abcd");
		break;
	case 5:
		snprintf(w, n, "ok! 100%% A");
		break;
	case 6:
		snprintf(w, n, "first!");
		break;
	case 7:
		snprintf(w, n, "no arguments at all");
		break;
	default:
		snprintf(w, n, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%llx",
			 (int)a[0], (int)a[1], (int)a[2], (int)a[3], (int)a[4],
			 (int)a[5], (int)a[6], (int)a[7], (int)a[8], (int)a[9],
			 (int)a[10], (unsigned long long)a[11]);
	}
}

static void cases(struct oracle *o, bool kernel)
{
	static const uint32_t sizes[] = { 0, 1, 7, 128 };
	uint32_t which;
	size_t s;

	for (which = 0; which <= 8; which++)
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			one(o, kernel, which, sizes[s]);
}

/* bits_ring_snprintf_forged.o's cases under both engines: bad formats
 * give -EINVAL (XDP_PASS), forged iterators and dynptrs end the run. */
static void forged(void)
{
	static const int want[] = {
		HR_ABORT_NONE,	     HR_ABORT_NONE,	  HR_ABORT_NONE,
		HR_ABORT_NONE,	     HR_ABORT_HELPER_ARG, HR_ABORT_HELPER_ARG,
		HR_ABORT_HELPER_ARG, HR_ABORT_HELPER_ARG,
	};
	HR_OPTS(hr_object_open_opts, oo);
	struct hr_object *obj = NULL;
	struct hr_prog *p;
	char path[512];
	uint32_t ret;
	uint8_t sel;
	int eng, abort;

	t_prog_path("bits_ring_snprintf_forged.o", path, sizeof(path));
	CHECK_EQ(hr_object_open(path, &oo, &obj), 0);
	p = obj ? hr_object_find_prog(obj, "brs_forged") : NULL;
	CHECK(p != NULL, "brs_forged");
	for (eng = HR_ENGINE_INTERP; p && eng <= HR_ENGINE_JIT; eng++) {
		for (sel = 0; sel < sizeof(want) / sizeof(want[0]); sel++) {
			ret = 0;
			abort = t_run_selector(p, sel, eng, &ret);
			CHECK(abort == want[sel] && (abort || ret == XDP_PASS),
			      "forged case %u engine %d: abort %d ret %u", sel,
			      eng, abort, ret);
		}
	}
	hr_object_close(obj);
}

int main(void)
{
	forged();
	return oracle_main_engines(cases);
}
