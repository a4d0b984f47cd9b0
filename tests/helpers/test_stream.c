// SPDX-License-Identifier: MIT
/*
 * bpf_stream_vprintk_impl (progs/helpers/xdp_stream.bpf.c) under both
 * engines: each answer (0, -ENOENT for stream 3, -EINVAL for a data size
 * not whole u64s and for fewer arguments than conversions, -ENOMEM for a
 * text past the kernel's 1 KiB element) against the kernel's
 * BPF_PROG_TEST_RUN, and the text the program's stdout then holds
 * (hr_prog_stream_read) against the kernel's bpf_snprintf of the same
 * format and arguments, and against the kernel's own stream read with
 * BPF_PROG_STREAM_READ_BY_FD where the kernel stores it (a kernel that
 * cannot allocate a stream element answers -ENOMEM to every write: said,
 * and that answer alone not compared). Then headroom alone: a read in
 * two parts, an unknown stream, and the capacity (-ENOSPC once 1 MiB is
 * unread).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "headroom/object.h"
#include "headroom/test_run.h"
#include "oracle.h"

#define STREAM_OUT 256
#define BPF_PROG_STREAM_READ_BY_FD 37 /* enum bpf_cmd, 6.17 */

struct stream_rec {
	uint32_t which, pad;
	uint64_t args[4];
	char s[16];
	int32_t ret[5];
	int32_t snp;
	char out[STREAM_OUT];
};

static uint8_t pkt[14 + sizeof(struct stream_rec)];

/* BPF_PROG_STREAM_READ_BY_FD (the 6.1 UAPI headers have no such
 * command): bytes read or -errno. */
static long kernel_stream_read(int prog_fd, int id, char *buf, uint32_t len)
{
	struct {
		uint64_t stream_buf;
		uint32_t stream_buf_len, stream_id, prog_fd;
	} a = { (uint64_t)(uintptr_t)buf, len, (uint32_t)id,
		(uint32_t)prog_fd };
	long n = syscall(__NR_bpf, BPF_PROG_STREAM_READ_BY_FD, &a, sizeof(a));

	return n < 0 ? -errno : n;
}

static int kernel_prog_fd(struct oracle *o)
{
	struct bpf_object *ko = oracle_kernel_object(o, "xdp_stream.o");
	struct bpf_program *p =
		ko ? bpf_object__find_program_by_name(ko, "xdp_stream") : NULL;

	return p ? bpf_program__fd(p) : -1;
}

static struct hr_prog *headroom_prog(struct oracle *o)
{
	struct hr_object *ho = oracle_headroom_object(o, "xdp_stream.o");

	return ho ? hr_object_find_prog(ho, "xdp_stream") : NULL;
}

static void one(struct oracle *o, bool kernel, uint32_t which)
{
	struct oracle_case c = { .obj = "xdp_stream.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct stream_rec in = { .which = which }, h, k;
	struct oracle_result hr, kr;
	char label[64], text[2048];
	struct hr_prog *prog;
	int n, i, fd;

	in.args[0] = (uint64_t)-42;
	in.args[1] = 7 + which;
	in.args[2] = 0xdeadbeefcafeull;
	in.args[3] = 'Z';
	strcpy(in.s, "stream");
	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	snprintf(label, sizeof(label), "stream format %u", which);
	CHECK(oracle_run_headroom(o, &c, &hr) == 0 && hr.retval == XDP_PASS,
	      "%s: run", label);
	memcpy(&h, hr.out + 14, sizeof(h));
	CHECK(h.ret[0] == 0, "%s: stdout write %d", label, h.ret[0]);
	CHECK(h.ret[1] == -ENOENT, "%s: stream 3: %d", label, h.ret[1]);
	CHECK(h.ret[2] == -EINVAL, "%s: 20 bytes: %d", label, h.ret[2]);
	CHECK(h.ret[3] == -EINVAL, "%s: 1 argument, 2 conversions: %d", label,
	      h.ret[3]);
	CHECK(h.ret[4] == -ENOMEM, "%s: 1200 bytes: %d", label, h.ret[4]);
	prog = headroom_prog(o);
	n = prog ? hr_prog_stream_read(prog, HR_STREAM_STDOUT, text,
				       sizeof(text) - 1) :
		   -1;
	CHECK(n == h.snp - 1 && !memcmp(text, h.out, (size_t)n),
	      "%s: stdout %d \"%.*s\", snprintf %d \"%s\"", label, n,
	      n > 0 ? n : 0, text, h.snp, h.out);
	CHECK(prog && hr_prog_stream_read(prog, HR_STREAM_STDERR, text,
					  sizeof(text)) == 0,
	      "%s: nothing reached stderr", label);
	if (!kernel)
		return;
	CHECK(oracle_run_kernel(o, &c, &kr) == 0 && !kr.err, "%s: kernel",
	      label);
	memcpy(&k, kr.out + 14, sizeof(k));
	for (i = 1; i < 5; i++)
		CHECK(k.ret[i] == h.ret[i],
		      "%s: answer %d: kernel %d, headroom %d", label, i,
		      k.ret[i], h.ret[i]);
	CHECK(k.snp == h.snp && !strcmp(k.out, h.out),
	      "%s: the kernel's text \"%s\", headroom's \"%s\"", label, k.out,
	      h.out);
	fd = kernel_prog_fd(o);
	if (k.ret[0] == -ENOMEM) {
		printf("note: %s: this kernel answers -ENOMEM to every stream "
		       "write (it cannot allocate a stream element here); "
		       "headroom's text compared with its bpf_snprintf\n",
		       label);
		return;
	}
	CHECK(k.ret[0] == 0, "%s: the kernel's stdout write %d", label,
	      k.ret[0]);
	n = (int)kernel_stream_read(fd, HR_STREAM_STDOUT, text,
				    sizeof(text) - 1);
	CHECK(n == h.snp - 1 && !memcmp(text, h.out, (size_t)n),
	      "%s: the kernel's stream %d \"%.*s\"", label, n, n > 0 ? n : 0,
	      text);
}

/* headroom alone: a read in parts, an unknown stream, the capacity. */
static void reads_and_capacity(struct oracle *o)
{
	struct oracle_case c = { .obj = "xdp_stream.o",
				 .data = pkt,
				 .size = sizeof(pkt) };
	struct stream_rec in = { .which = 2 }, h;
	struct oracle_result hr;
	struct hr_prog *prog;
	char a[8], b[64];
	unsigned int runs = 0;

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	CHECK(oracle_run_headroom(o, &c, &hr) == 0, "run");
	prog = headroom_prog(o);
	if (!prog)
		return;
	CHECK(hr_prog_stream_read(prog, HR_STREAM_STDOUT, a, 3) == 3 &&
		      !memcmp(a, "no ", 3),
	      "a read of 3 bytes takes the first 3");
	CHECK(hr_prog_stream_read(prog, HR_STREAM_STDOUT, b, sizeof(b)) == 10 &&
		      !memcmp(b, "arguments\n", 10),
	      "the next read takes the rest");
	CHECK(hr_prog_stream_read(prog, HR_STREAM_STDOUT, b, sizeof(b)) == 0,
	      "then nothing");
	CHECK(hr_prog_stream_read(prog, 3, b, sizeof(b)) == -ENOENT,
	      "stream 3 is -ENOENT");
	/* 13 bytes a run: the stream is full after 1 MiB / 13 runs. */
	do {
		if (oracle_run_headroom(o, &c, &hr))
			break;
		memcpy(&h, hr.out + 14, sizeof(h));
	} while (!h.ret[0] && ++runs < 100000);
	CHECK(h.ret[0] == -ENOSPC && runs == (1u << 20) / 13,
	      "full after %u runs (%d), want %u", runs, h.ret[0],
	      (1u << 20) / 13);
	while (hr_prog_stream_read(prog, HR_STREAM_STDOUT, b, sizeof(b)) > 0)
		;
}

/* headroom test shows each packet's stream text, a line per line, and
 * in --json as "stdout". */
static void cli(void)
{
	const char *b = getenv("BUILD");
	struct stream_rec in = { .which = 2 };
	char cmd[4096], hex[2 * sizeof(pkt) + 1], out[8192];
	int rc;

	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	t_hex(pkt, sizeof(pkt), hex);
	snprintf(cmd, sizeof(cmd),
		 "%s/bin/headroom test %s/xdp_stream.o "
		 "--hex %s 2>&1",
		 b && *b ? b : "build", t_progs_dir(), hex);
	rc = t_run_cmd(cmd, out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "\n  stdout: no arguments\n"),
	      "headroom test shows stdout (exit %d): %s", rc, out);
	snprintf(cmd, sizeof(cmd),
		 "%s/bin/headroom test %s/xdp_stream.o "
		 "--json --hex %s 2>&1",
		 b && *b ? b : "build", t_progs_dir(), hex);
	rc = t_run_cmd(cmd, out, sizeof(out));
	CHECK(rc == 0 && strstr(out, "\"stdout\":\"no arguments\\n\""),
	      "--json has stdout (exit %d): %s", rc, out);
}

static void each(struct oracle *o, bool kernel)
{
	uint32_t which;

	for (which = 0; which < 3; which++)
		one(o, kernel, which);
	reads_and_capacity(o);
}

int main(void)
{
	cli();
	return oracle_main_engines(each);
}
