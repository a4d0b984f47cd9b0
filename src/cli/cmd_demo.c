// SPDX-License-Identifier: MIT
/*
 * headroom demo: the built-in XDP program (progs/xdp_demo.bpf.c, built next
 * to the binary) over built-in packets, printing each verdict, the packet
 * it leaves and the metadata it wrote in front of it.
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "cli.h"

struct demo_packet {
	const char *what;
	const char *hex;
};

/* dst mac, src mac, ethertype, then the L3 header and a little payload. */
static const struct demo_packet packets[] = {
	{ "IPv4 UDP 10.0.0.1:1234 -> 10.0.0.2:53",
	  "020000000002 020000000001 0800"
	  "4500002e 00004000 4011 0000 0a000001 0a000002"
	  "04d2 0035 001a 0000 68656164726f6f6d2064656d6f2121" },
	{ "IPv4 TCP 10.0.0.1:40000 -> 10.0.0.2:80 SYN",
	  "020000000002 020000000001 0800"
	  "45000028 00004000 4006 0000 0a000001 0a000002"
	  "9c40 0050 00000001 00000000 5002 ffff 0000 0000" },
	{ "IPv6 UDP fd00::1 -> fd00::2", "020000000002 020000000001 86dd"
					 "60000000 000c 11 40"
					 "fd000000000000000000000000000001"
					 "fd000000000000000000000000000002"
					 "1f90 1f91 000c 0000 70696e67" },
	{ "ARP who-has 10.0.0.2",
	  "ffffffffffff 020000000001 0806"
	  "0001 0800 06 04 0001 020000000001 0a000001 000000000000 0a000002" },
	{ "runt: 16 bytes", "020000000002 020000000001 0800 4500" },
};

static int demo_object_path(char *buf, size_t sz)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		return -1;
	exe[n] = '\0';
	snprintf(buf, sz, "%s/../progs/xdp_demo.o", dirname(exe));
	return 0;
}

static void print_words(const uint8_t *meta, uint32_t len)
{
	uint32_t i, w;

	printf("  meta words:");
	for (i = 0; i + 4 <= len; i += 4) {
		memcpy(&w, meta + i, 4);
		printf(" 0x%08x", w);
	}
	printf("\n");
}

static void run_demo_packet(struct hr_prog *prog, unsigned int i)
{
	uint8_t *pkt, out[4096];
	struct xdp_md md_in = { 0 }, md_out = { 0 };
	const char *action;
	size_t len;
	int ret;
	HR_OPTS(hr_test_run_opts, o, .data_out = out,
		.data_size_out = sizeof(out), .ctx_in = &md_in,
		.ctx_size_in = sizeof(md_in), .ctx_out = &md_out,
		.ctx_size_out = sizeof(md_out));

	if (hr_hex_parse(packets[i].hex, &pkt, &len))
		return;
	md_in.data_end = (uint32_t)len;
	o.data_in = pkt;
	o.data_size_in = (uint32_t)len;
	printf("packet %u: %s\n  in   (%zu): ", i, packets[i].what, len);
	hr_hex_print(stdout, pkt, len);
	printf("\n");
	ret = hr_prog_test_run(prog, &o);
	if (ret) {
		printf("  test run failed: %s\n", strerror(-ret));
		free(pkt);
		return;
	}
	action = hr_prog_action_name(prog, o.retval);
	printf("  verdict: %s (%u)%s%s\n", action ? action : "?", o.retval,
	       o.abort ? " aborted: " : "",
	       o.abort ? hr_abort_str(o.abort) : "");
	printf("  out  (%u): ", md_out.data_end - md_out.data);
	hr_hex_print(stdout, out + md_out.data, md_out.data_end - md_out.data);
	printf("\n  meta (%u): ", md_out.data);
	hr_hex_print(stdout, out, md_out.data);
	printf("\n");
	if (md_out.data)
		print_words(out, md_out.data);
	free(pkt);
}

int hr_cmd_demo(int argc, char **argv)
{
	struct hr_object *obj = NULL;
	struct hr_prog *prog;
	char path[PATH_MAX + 32];
	unsigned int i;

	if (argc > 1) {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
			printf("usage: headroom demo\n\nRuns the built-in XDP "
			       "program (writes 16 bytes of metadata, swaps "
			       "MACs,\nreturns XDP_TX for IPv4 UDP) over "
			       "built-in packets.\n");
			return HR_EXIT_OK;
		}
		fprintf(stderr, "headroom demo: takes no arguments\n");
		return HR_EXIT_USAGE;
	}
	if (demo_object_path(path, sizeof(path))) {
		fprintf(stderr, "headroom demo: cannot find own binary\n");
		return HR_EXIT_LOAD;
	}
	prog = hr_cli_open_prog(path, NULL, &obj);
	if (!prog)
		return HR_EXIT_LOAD;
	printf("headroom demo: %s (section %s, %u instructions) on %zu "
	       "packets\n\n",
	       hr_prog_name(prog), hr_prog_section(prog),
	       hr_prog_insn_count(prog), sizeof(packets) / sizeof(packets[0]));
	for (i = 0; i < sizeof(packets) / sizeof(packets[0]); i++)
		run_demo_packet(prog, i);
	hr_object_close(obj);
	return HR_EXIT_OK;
}
