// SPDX-License-Identifier: MIT
/*
 * headroom demo: the built-in XDP program (progs/demo/xdp_demo.bpf.c, built next
 * to the binary) over built-in packets, printing each verdict, the packet
 * it leaves and the metadata it wrote in front of it.
 */
#include <libgen.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "cli/cli.h"

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

#ifndef HR_DATADIR
#define HR_DATADIR "/usr/local/share/headroom"
#endif

static bool has_demo(const char *dir)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/xdp_demo.o", dir);

	return n > 0 && (size_t)n < sizeof(path) && access(path, R_OK) == 0;
}

/*
 * Where the demo's BPF objects are: $HEADROOM_DATADIR/progs when set;
 * else beside the binary, as built (bin/../progs) or as installed
 * (bin/../share/headroom/progs); else the data directory of the prefix it
 * was built for, so that a copied binary still finds an installed tree.
 */
static int demo_progs_dir(char *buf, size_t sz)
{
	const char *env = getenv("HEADROOM_DATADIR");
	char exe[PATH_MAX], *bin;
	ssize_t n;

	if (env && *env) {
		snprintf(buf, sz, "%s/progs", env);
		return has_demo(buf) ? 0 : -1;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		bin = dirname(exe);
		snprintf(buf, sz, "%s/../progs", bin);
		if (has_demo(buf))
			return 0;
		snprintf(buf, sz, "%s/../share/headroom/progs", bin);
		if (has_demo(buf))
			return 0;
	}
	snprintf(buf, sz, "%s/progs", HR_DATADIR);
	return has_demo(buf) ? 0 : -1;
}

/* The same directory for the other commands' built-in programs. */
int hr_cli_progs_dir(char *buf, size_t sz)
{
	return demo_progs_dir(buf, sz);
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

static const char demo_usage[] =
	"usage: headroom demo [--seconds S] [--pps N] [--packets-only]\n"
	"\n"
	"Runs headroom's main job on its built-in default: a generator with\n"
	"NIC-like RX hints feeding an XDP program that copies the hints into\n"
	"metadata and spreads packets over two workers through a cpumap, where\n"
	"skbs are built and a tc program reads the metadata and sets the mark;\n"
	"live statistics every half second, then an account of every packet.\n"
	"Then the built-in XDP program progs/xdp_demo (16 bytes of metadata,\n"
	"MAC swap, XDP_TX for IPv4 UDP) over built-in packets, printing each\n"
	"verdict, packet and metadata.\n"
	"\n"
	"  --seconds S     how long the generator runs (default 2)\n"
	"  --pps N         generator rate, packets a second (default 1000000)\n"
	"  --packets-only  only the per-packet part\n";

static int demo_packets(const char *dir)
{
	struct hr_object *obj = NULL;
	struct hr_prog *prog;
	char path[PATH_MAX + 32];
	unsigned int i;

	snprintf(path, sizeof(path), "%s/xdp_demo.o", dir);
	prog = hr_cli_open_prog(path, NULL, &obj);
	if (!prog)
		return HR_EXIT_LOAD;
	printf("\nheadroom demo: %s (section %s, %u instructions) on %zu "
	       "packets\n\n",
	       hr_prog_name(prog), hr_prog_section(prog),
	       hr_prog_insn_count(prog), sizeof(packets) / sizeof(packets[0]));
	for (i = 0; i < sizeof(packets) / sizeof(packets[0]); i++)
		run_demo_packet(prog, i);
	hr_object_close(obj);
	return HR_EXIT_OK;
}

int hr_cmd_demo(int argc, char **argv)
{
	double seconds = 2;
	uint64_t pps = 1000000;
	bool packets_only = false;
	char dir[PATH_MAX], *end;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(demo_usage, stdout);
			return HR_EXIT_OK;
		} else if (!strcmp(argv[i], "--packets-only")) {
			packets_only = true;
		} else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
			seconds = strtod(argv[++i], &end);
			if (*end || seconds <= 0 || seconds > 3600)
				goto usage;
		} else if (!strcmp(argv[i], "--pps") && i + 1 < argc) {
			pps = strtoull(argv[++i], &end, 0);
			if (*end || !pps)
				goto usage;
		} else {
			goto usage;
		}
	}
	if (demo_progs_dir(dir, sizeof(dir))) {
		fprintf(stderr,
			"headroom demo: no xdp_demo.o in %s (set "
			"HEADROOM_DATADIR to the directory holding progs/)\n",
			dir);
		return HR_EXIT_LOAD;
	}
	if (!packets_only && hr_demo_pipeline(dir, seconds, pps))
		return HR_EXIT_LOAD;
	return demo_packets(dir);
usage:
	fputs(demo_usage, stderr);
	return HR_EXIT_USAGE;
}
