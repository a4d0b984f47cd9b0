// SPDX-License-Identifier: MIT
/* headroom: run unmodified XDP and tc programs in user space. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "headroom/print.h"

#ifndef HR_VERSION
#define HR_VERSION "unknown"
#endif

static const char usage[] =
	"usage: headroom COMMAND [ARGS]\n"
	"\n"
	"Runs XDP and tc programs built with clang -target bpf in user space,\n"
	"with the kernel's packet and metadata semantics.\n"
	"\n"
	"commands:\n"
	"  test PROG.o[:SECTION|FUNC] (--pcap FILE | --hex HEX ...) [options]\n"
	"               run one program over packets, one run per packet\n"
	"  inspect PROG.o [--json]\n"
	"               list programs, maps, globals, helpers, kfuncs and CO-RE\n"
	"               relocations, and whether headroom can run each program\n"
	"  check PROG.o[:PROG] [--json] [--kernel]\n"
	"               predict the kernel verifier's verdict on each program\n"
	"               (reason, instruction, source line), without root\n"
	"  feature [--type xdp|tc] [--json | --markdown] [--kernel]\n"
	"               every helper and kfunc the kernel offers XDP and tc\n"
	"               programs: implemented, or why headroom refuses it\n"
	"  demo [--seconds S] [--pps N] [--packets-only]\n"
	"               the datapath on its built-in default (generator with\n"
	"               RX hints -> XDP -> cpumap -> tc -> sink, live\n"
	"               statistics), then the demo program over built-in\n"
	"               packets\n"
	"  bench MODE [options]\n"
	"               packets a second through a pipeline, as xdp-bench:\n"
	"               drop, pass, tx, redirect, redirect-cpu, redirect-map,\n"
	"               rxhash, meta\n"
	"  run CONFIG.yaml | run (--gen | --pcap FILE) --xdp OBJ [options]\n"
	"               build a topology (devices, XDP/tc/cpumap/devmap\n"
	"               programs, maps) and run it: live statistics, a\n"
	"               per-packet trace (--trace N), the account of every\n"
	"               packet\n"
	"  help         this text ('headroom COMMAND --help' for a command)\n"
	"  version      the version (also --version)\n"
	"\n"
	"exit codes: 0 ok, 1 load error, 2 bad arguments or input,\n"
	"            3 a packet could not be run\n";

int main(int argc, char **argv)
{
	/* The library is silent unless asked; the command shows its warnings. */
	hr_set_print(hr_print_stderr);
	if (argc < 2) {
		fputs(usage, stderr);
		return HR_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h")) {
		fputs(usage, stdout);
		return HR_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("headroom %s\n", HR_VERSION);
		return HR_EXIT_OK;
	}
	if (!strcmp(argv[1], "test"))
		return hr_cmd_test(argc - 1, argv + 1);
	if (!strcmp(argv[1], "inspect"))
		return hr_cmd_inspect(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return hr_cmd_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "feature"))
		return hr_cmd_feature(argc - 1, argv + 1);
	if (!strcmp(argv[1], "bench"))
		return hr_cmd_bench(argc - 1, argv + 1);
	if (!strcmp(argv[1], "demo"))
		return hr_cmd_demo(argc - 1, argv + 1);
	if (!strcmp(argv[1], "run"))
		return hr_cmd_run(argc - 1, argv + 1);
	fprintf(stderr,
		"headroom: unknown command '%s' (try 'headroom help')\n",
		argv[1]);
	return HR_EXIT_USAGE;
}
