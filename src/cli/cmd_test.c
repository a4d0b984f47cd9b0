// SPDX-License-Identifier: MIT
/*
 * headroom test: one program over packets, one run per packet, as
 * BPF_PROG_TEST_RUN would run it; prints each verdict, output packet and
 * metadata.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "cli/cli.h"
#include "headroom/perf.h"
#include "cli/pcap_io.h"

static const char test_usage[] =
	"usage: headroom test PROG.o[:SECTION|FUNC] (--pcap FILE | --hex HEX "
	"[--hex HEX ...])\n"
	"                     [--meta HEX] [--repeat N] [--json] [--out FILE.pcap]\n"
	"                     [--engine interp|jit|jit-checked] [--type xdp|tc]\n"
	"                     [--map NAME=KEY:VALUE ...] [--dump-maps]\n"
	"                     [--btf FILE] [--map-size NAME=N ...]\n"
	"                     [--pin-dir DIR] [--set NAME=VALUE ...]\n"
	"                     [--events] [--fib-dev SPEC ...] [--route SPEC ...]\n"
	"                     [--neigh SPEC ...]\n"
	"\n"
	"Runs the program once per packet (N times on the same buffer with\n"
	"--repeat, as BPF_PROG_TEST_RUN) and prints the index, the verdict, the\n"
	"return value, the output packet and the metadata, and the abort reason\n"
	"if the run was stopped.\n"
	"\n"
	"  --pcap FILE     packets from a pcap or pcapng file\n"
	"  --hex HEX       one packet as hex bytes (repeatable)\n"
	"  --meta HEX      metadata placed in front of each packet (XDP only;\n"
	"                  like ctx_in.data of BPF_PROG_TEST_RUN)\n"
	"  --repeat N      runs per packet on the same buffer (default 1)\n"
	"  --json          one JSON object a line: index, action, retval, data,\n"
	"                  meta, error\n"
	"  --out FILE      write every packet not dropped, aborted or shot\n"
	"                  (data..data_end) to a pcap file\n"
	"  --engine E      interp, jit or jit-checked (the JIT with every\n"
	"                  access its proofs elide checked; a failed one is\n"
	"                  a bug report) (default: the best available)\n"
	"  --type T        force the program type: xdp or tc\n"
	"  --map NAME=KEY:VALUE  set a map entry (hex) before the first run\n"
	"                  (repeatable; a per-CPU map takes one value for all\n"
	"                  workers, or every worker's value)\n"
	"  --dump-maps     after the runs, print every map of the object as\n"
	"                  JSON\n"
	"  --btf FILE      target BTF for CO-RE relocations (a BTF or ELF file,\n"
	"                  or 'builtin' for headroom's own; default: the\n"
	"                  running kernel's /sys/kernel/btf/vmlinux)\n"
	"  --map-size NAME=N  max_entries of map NAME (for maps declared\n"
	"                  with 0; repeatable)\n"
	"  --pin-dir DIR   where maps pinned by name live (default\n"
	"                  /sys/fs/bpf); objects of one process given the\n"
	"                  same DIR share them\n"
	"  --set NAME=VALUE  initial value of a global variable (a const\n"
	"                  volatile in .rodata, say), decimal or 0x hex\n"
	"                  (repeatable)\n"
	"  --events        print every bpf_perf_event_output sample (of each\n"
	"                  PERF_EVENT_ARRAY map) as hex as it is sent, so\n"
	"                  before its packet's line: 'event MAP cpu N (SIZE):\n"
	"                  HEX', or with --json\n"
	"                  {\"event\":MAP,\"cpu\":N,\"data\":HEX}\n"
	"  --fib-dev SPEC  a device bpf_fib_lookup knows: 'IFINDEX [mtu N]\n"
	"                  [mac MAC] [addr IP] [forwarding]' (repeatable)\n"
	"  --route SPEC    a route: '[blackhole|unreachable|prohibit|local]\n"
	"                  PREFIX/LEN [via GW] [dev IFINDEX] [metric N]\n"
	"                  [mtu N] [src IP]' (mtu: a locked route MTU)\n"
	"  --neigh SPEC    a neighbour: 'IP lladdr MAC dev IFINDEX'\n"
	"\n"
	"exit codes: 0 every packet ran (whatever the verdicts), 1 load error,\n"
	"            2 bad arguments or unreadable input, 3 a packet could not\n"
	"            be run (too short or too long for a test run)\n";

struct test_cfg {
	const char *spec;
	const char *pcap;
	const char *out;
	char **hex;
	int nhex;
	char **maps;
	int nmaps;
	bool dump_maps;
	bool events;
	struct hr_cli_load load;
	uint8_t *meta;
	size_t meta_len;
	uint32_t repeat;
	bool json;
	enum hr_engine engine;
};

struct test_state {
	struct test_cfg *cfg;
	struct hr_prog *prog;
	bool xdp;
	struct hr_pcap_out *dump;
	unsigned int index;
	unsigned int failed;
};

static void print_result(struct test_state *st, const char *action,
			 uint32_t retval, const uint8_t *meta, size_t meta_len,
			 const uint8_t *data, size_t data_len,
			 const char *error)
{
	if (st->cfg->json) {
		printf("{\"index\":%u,\"action\":", st->index);
		if (action)
			printf("\"%s\"", action);
		else
			printf("null");
		printf(",\"retval\":%u,\"data\":\"", retval);
		hr_hex_print(stdout, data, data_len);
		printf("\",\"meta\":\"");
		hr_hex_print(stdout, meta, meta_len);
		printf("\",\"error\":");
		if (error)
			printf("\"%s\"",
			       error); /* our messages need no escaping */
		else
			printf("null");
		printf("}\n");
		return;
	}
	printf("packet %u: %s retval %u", st->index,
	       action ? action : "(no action)", retval);
	if (error)
		printf(" error: %s", error);
	printf("\n  data (%zu): ", data_len);
	hr_hex_print(stdout, data, data_len);
	printf("\n  meta (%zu): ", meta_len);
	hr_hex_print(stdout, meta, meta_len);
	printf("\n");
}

static bool delivered(const struct test_state *st, uint32_t retval)
{
	if (st->xdp)
		return retval != XDP_ABORTED && retval != XDP_DROP;
	return (int32_t)retval != 2; /* TC_ACT_SHOT */
}

static void dump_packet(struct test_state *st, const uint8_t *data, size_t len)
{
	if (st->dump)
		hr_pcap_out_write(st->dump, data, len);
}

/* Runs one packet; false when it could not be run at all. */
static bool run_packet(struct test_state *st, const uint8_t *pkt, size_t len)
{
	struct test_cfg *cfg = st->cfg;
	size_t in_len = cfg->meta_len + len;
	/* Room for the packet grown by a tail adjustment into its last
	 * fragment, or into the frame's tailroom. */
	size_t out_cap = in_len + 2 * 4096;
	uint8_t *in = malloc(in_len ? in_len : 1), *out = malloc(out_cap);
	uint32_t data_len;
	struct xdp_md md_in, md_out;
	char error[160];
	const char *action;
	bool ok = true;
	int ret;
	HR_OPTS(hr_test_run_opts, o, .repeat = cfg->repeat,
		.engine = cfg->engine);

	if (!in || !out) {
		fprintf(stderr, "headroom: out of memory\n");
		exit(HR_EXIT_RUN);
	}
	if (cfg->meta_len)
		memcpy(in, cfg->meta, cfg->meta_len);
	memcpy(in + cfg->meta_len, pkt, len);
	o.data_in = in;
	o.data_size_in = (uint32_t)in_len;
	o.data_out = out;
	o.data_size_out = (uint32_t)out_cap;
	if (st->xdp) {
		memset(&md_in, 0, sizeof(md_in));
		memset(&md_out, 0, sizeof(md_out));
		md_in.data = (uint32_t)cfg->meta_len;
		md_in.data_end = (uint32_t)in_len;
		o.ctx_in = &md_in;
		o.ctx_size_in = sizeof(md_in);
		o.ctx_out = &md_out;
		o.ctx_size_out = sizeof(md_out);
	}
	ret = hr_prog_test_run(st->prog, &o);
	if (ret) {
		snprintf(error, sizeof(error), "test run failed: %s",
			 strerror(-ret));
		print_result(st, NULL, 0, NULL, 0, pkt, 0, error);
		st->failed++;
		ok = false;
		goto out;
	}
	action = hr_prog_action_name(st->prog, o.retval);
	/* data_size_out counts the fragments too; ctx_out.data_end is the
	 * end of the linear part only. */
	data_len = o.data_size_out > md_out.data ?
			   o.data_size_out - md_out.data :
			   0;
	if (o.abort)
		snprintf(error, sizeof(error), "aborted at insn %u: %s",
			 o.abort_pc, hr_abort_str(o.abort));
	if (st->xdp)
		print_result(st, action, o.retval, out, md_out.data,
			     out + md_out.data, data_len,
			     o.abort ? error : NULL);
	else
		print_result(st, action, o.retval, NULL, 0, out,
			     o.data_size_out, o.abort ? error : NULL);
	if (delivered(st, o.retval))
		dump_packet(st, st->xdp ? out + md_out.data : out,
			    st->xdp ? data_len : o.data_size_out);
out:
	st->index++;
	free(in);
	free(out);
	return ok;
}

static int run_hex(struct test_state *st)
{
	int i;

	for (i = 0; i < st->cfg->nhex; i++) {
		uint8_t *pkt;
		size_t len;

		if (hr_hex_parse(st->cfg->hex[i], &pkt, &len)) {
			fprintf(stderr,
				"headroom: --hex #%d: not hex bytes: '%s'\n",
				i + 1, st->cfg->hex[i]);
			return HR_EXIT_USAGE;
		}
		run_packet(st, pkt, len);
		free(pkt);
	}
	return HR_EXIT_OK;
}

static void pcap_packet(void *arg, const uint8_t *pkt, size_t caplen,
			size_t len)
{
	struct test_state *st = arg;

	if (caplen < len)
		fprintf(stderr,
			"headroom: %s: packet %u captured %zu of %zu bytes; "
			"running the captured part\n",
			st->cfg->pcap, st->index, caplen, len);
	run_packet(st, pkt, caplen);
}

static int run_pcap(struct test_state *st)
{
	/* A damaged file still has its earlier packets run and printed. */
	return hr_pcap_each(st->cfg->pcap, pcap_packet, st) ? HR_EXIT_USAGE :
							      HR_EXIT_OK;
}

static int parse_args(int argc, char **argv, struct test_cfg *cfg)
{
	static const struct option longopts[] = {
		{ "pcap", required_argument, NULL, 'p' },
		{ "hex", required_argument, NULL, 'x' },
		{ "meta", required_argument, NULL, 'm' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "out", required_argument, NULL, 'o' },
		{ "engine", required_argument, NULL, 'e' },
		{ "map", required_argument, NULL, 'M' },
		{ "route", required_argument, NULL, 'R' },
		{ "neigh", required_argument, NULL, 'N' },
		{ "fib-dev", required_argument, NULL, 'F' },
		{ "dump-maps", no_argument, NULL, 'D' },
		HR_CLI_LOAD_LONGOPTS,
		{ "events", no_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c, ret;

	cfg->hex = calloc((size_t)argc, sizeof(*cfg->hex));
	cfg->maps = calloc((size_t)argc, sizeof(*cfg->maps));
	if (!cfg->hex || !cfg->maps || hr_cli_load_init(&cfg->load, argc))
		return -ENOMEM;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			cfg->pcap = optarg;
			break;
		case 'x':
			cfg->hex[cfg->nhex++] = optarg;
			break;
		case 'm':
			free(cfg->meta);
			if (hr_hex_parse(optarg, &cfg->meta, &cfg->meta_len)) {
				fprintf(stderr,
					"headroom: --meta: not hex bytes\n");
				return -EINVAL;
			}
			break;
		case 'r':
			errno = 0;
			cfg->repeat = (uint32_t)strtoul(optarg, &end, 0);
			if (errno || *end || !cfg->repeat) {
				fprintf(stderr, "headroom: --repeat: want a "
						"positive number\n");
				return -EINVAL;
			}
			break;
		case 'j':
			cfg->json = true;
			break;
		case 'o':
			cfg->out = optarg;
			break;
		case 'e':
			if (hr_cli_engine(optarg, &cfg->engine)) {
				fprintf(stderr, "headroom: --engine: want "
						"interp, jit or jit-checked\n");
				return -EINVAL;
			}
			break;
		case 'M':
			cfg->maps[cfg->nmaps++] = optarg;
			break;
		case 'D':
			cfg->dump_maps = true;
			break;
		case 'R':
		case 'N':
		case 'F':
			if (hr_cli_fib_arg(c, optarg))
				return -EINVAL;
			break;
		case 'E':
			cfg->events = true;
			break;
		case 'h':
			fputs(test_usage, stdout);
			exit(HR_EXIT_OK);
		default:
			ret = hr_cli_load_opt(&cfg->load, c, optarg);
			if (ret > 0)
				break;
			if (!ret)
				fputs(test_usage, stderr);
			return -EINVAL;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "headroom test: want exactly one PROG.o "
				"(see 'headroom test --help')\n");
		return -EINVAL;
	}
	cfg->spec = argv[optind];
	if (!cfg->pcap == !cfg->nhex) {
		fprintf(stderr, "headroom test: give --pcap FILE or --hex HEX "
				"(not both)\n");
		return -EINVAL;
	}
	return 0;
}

/* A --events sample, printed as it arrives (during the run, so before
 * the packet's own line). */
struct event_watch {
	const struct test_cfg *cfg;
	const char *name;
};

static void print_event(void *ctx, unsigned int cpu, const void *data,
			uint32_t size)
{
	const struct event_watch *w = ctx;

	if (w->cfg->json) {
		printf("{\"event\":\"%s\",\"cpu\":%u,\"data\":\"", w->name,
		       cpu);
		hr_hex_print(stdout, data, size);
		printf("\"}\n");
		return;
	}
	printf("event %s cpu %u (%u): ", w->name, cpu, size);
	hr_hex_print(stdout, data, size);
	printf("\n");
}

static void watch_events(const struct test_cfg *cfg, struct hr_object *obj)
{
	static struct event_watch watches[64];
	unsigned int i, n = 0;

	for (i = 0; i < hr_object_map_count(obj) && n < 64; i++) {
		struct hr_map *map = hr_object_map(obj, i);

		watches[n].cfg = cfg;
		watches[n].name = hr_map_name(map);
		if (!hr_perf_set_reader(map, print_event, &watches[n]))
			n++;
	}
}

static int open_out(struct test_state *st)
{
	if (!st->cfg->out)
		return 0;
	st->dump = hr_pcap_out_open(st->cfg->out);
	return st->dump ? 0 : -EIO;
}

static struct hr_prog *open_prog(const struct test_cfg *cfg,
				 struct hr_object **obj)
{
	HR_OPTS(hr_object_open_opts, opts);

	hr_cli_load_apply(&cfg->load, &opts);
	return hr_cli_open_prog_opts(cfg->spec, &opts, obj);
}

int hr_cmd_test(int argc, char **argv)
{
	struct test_cfg cfg = { .repeat = 1, .engine = HR_ENGINE_DEFAULT };
	struct test_state st = { .cfg = &cfg };
	struct hr_object *obj = NULL;
	int rc;

	if (parse_args(argc, argv, &cfg)) {
		rc = HR_EXIT_USAGE;
		goto out;
	}
	st.prog = open_prog(&cfg, &obj);
	if (!st.prog) {
		rc = HR_EXIT_LOAD;
		goto out;
	}
	st.xdp = !strncmp(hr_prog_type_name(st.prog), "xdp", 3);
	if (!st.xdp && cfg.meta_len) {
		fprintf(stderr,
			"headroom test: --meta is for XDP programs; "
			"'%s' is a tc program\n",
			hr_prog_name(st.prog));
		rc = HR_EXIT_USAGE;
		goto out;
	}
	if (cfg.events)
		watch_events(&cfg, obj);
	if (hr_cli_map_preload(obj, cfg.maps, cfg.nmaps) || open_out(&st)) {
		rc = HR_EXIT_USAGE;
		goto out;
	}
	rc = cfg.pcap ? run_pcap(&st) : run_hex(&st);
	if (cfg.dump_maps && rc == HR_EXIT_OK)
		hr_cli_map_dump(stdout, obj);
	if (rc == HR_EXIT_OK && st.failed)
		rc = HR_EXIT_RUN;
out:
	hr_pcap_out_close(st.dump);
	hr_object_close(obj);
	free(cfg.hex);
	free(cfg.maps);
	hr_cli_load_free(&cfg.load);
	free(cfg.meta);
	return rc;
}
