// SPDX-License-Identifier: MIT
/*
 * headroom bench: its options, named as xdp-bench's where xdp-bench has
 * the same thing (--cpu, --remote-action, --load-egress, --interval),
 * every number range-checked in 64 bits before it is narrowed.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench.h"
#include "cli/cli.h"

static const char *const mode_names[] = {
	[BM_DROP] = "drop",
	[BM_PASS] = "pass",
	[BM_TX] = "tx",
	[BM_REDIRECT] = "redirect",
	[BM_REDIRECT_CPU] = "redirect-cpu",
	[BM_REDIRECT_MAP] = "redirect-map",
	[BM_RXHASH] = "rxhash",
	[BM_META] = "meta",
};

static const char usage[] =
	"usage: headroom bench MODE [options]\n"
	"\n"
	"Packets a second through one of the datapath's pipelines, in the\n"
	"layout of xdp-bench: a line every --interval, a summary at the end\n"
	"(after --duration, or at SIGINT/SIGTERM), with the account of\n"
	"every packet.\n"
	"\n"
	"modes:\n"
	"  drop          XDP_DROP every packet\n"
	"  pass          XDP_PASS: skbs built and delivered to a sink\n"
	"  tx            XDP_TX back out of the input device (MACs swapped)\n"
	"  redirect      bpf_redirect into veth0, whose peer veth1 drops\n"
	"  redirect-cpu  through a cpumap to the --cpu workers, where the\n"
	"                cpumap program drops or passes to tc\n"
	"  redirect-map  through a devmap entry to veth0 (with --load-egress\n"
	"                or --egress-prog, an egress program on the entry)\n"
	"  rxhash        the RX hash and its type read by the kfunc, packets\n"
	"                a second per L3/L4 hash type\n"
	"  meta          the hint kfuncs into 16 bytes of metadata, XDP_PASS,\n"
	"                tc ingress reads the metadata into the mark\n"
	"\n"
	"options:\n"
	"  --prog OBJ[:PROG]      the XDP program instead of the built-in one\n"
	"                         (its first CPUMAP / DEVMAP gets the entries)\n"
	"  --pcap FILE            packets from a pcap/pcapng file instead of\n"
	"                         the generator; --loops N replays it N times\n"
	"  --flows N              generator flows (1 .. 65536; default 1)\n"
	"  --size N               packet size, 60 .. 3520 (default 60, or\n"
	"                         what the headers take when more)\n"
	"  --proto udp|tcp|icmp   generator L4 protocol (default udp); --ipv6\n"
	"  --rate PPS             generator rate (default: as fast as it can)\n"
	"  --count N              stop the generator after N packets\n"
	"  --duration S           seconds to run (default: until SIGINT)\n"
	"  --interval S           seconds between lines (default 1)\n"
	"  --engine interp|jit|jit-checked   default jit\n"
	"  --workers N            worker threads, 1 .. 16 (drop, pass, tx,\n"
	"                         rxhash and meta spread the generator's RSS\n"
	"                         queues over them)\n"
	"  --cpu N[,N...]         redirect-cpu: the cpumap's target workers\n"
	"                         (repeatable; default 1, or 0 with 1 worker)\n"
	"  --steer round-robin|hash   redirect-cpu: how to pick the target\n"
	"  --remote-action drop|pass  redirect-cpu: the cpumap program's verdict\n"
	"  --rps N[,N...]         pass, meta: one RX queue on worker 0, whose\n"
	"                         skbs RPS steers by hash to these workers'\n"
	"                         backlogs (tc and the stack run there)\n"
	"  --load-egress          redirect-map: the built-in egress program\n"
	"  --egress-prog OBJ[:PROG]   redirect-map: this egress program\n"
	"  --touch                drop, pass: read the packet; tx, redirect:\n"
	"                         swap MACs (the default for tx)\n"
	"  --notouch              rxhash: never read the packet\n"
	"  --stats, -s            also the datapath's xdp_redirect_cpu layout\n"
	"  --json                 one JSON object a line (json-c)\n"
	"  --trace N              follow the first N packets through every\n"
	"                         stage, as headroom run --trace does\n"
	"  --trace-filter F       which packets: dev=NAME,queue=N,skip=N,every=N\n"
	"  --help                 this text\n";

const char *bench_mode_name(enum bench_mode m)
{
	return mode_names[m];
}

static int bad(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "headroom bench: %s '%s': %s\n", opt, val, why);
	return HR_EXIT_USAGE;
}

/* A whole number in [min, max], parsed in 64 bits. */
static int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
		     uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-' || *s == '+')
		return bad(opt, s, "not a whole number");
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end)
		return bad(opt, s, "not a whole number");
	if (errno == ERANGE || v < min || v > max) {
		char why[96];

		snprintf(why, sizeof(why), "out of range %llu .. %llu",
			 (unsigned long long)min, (unsigned long long)max);
		return bad(opt, s, why);
	}
	*out = v;
	return 0;
}

static int parse_secs(const char *opt, const char *s, double min, double max,
		      double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno == ERANGE || !isfinite(v))
		return bad(opt, s, "not a number of seconds");
	if (v < min || v > max) {
		char why[96];

		snprintf(why, sizeof(why), "out of range %g .. %g", min, max);
		return bad(opt, s, why);
	}
	*out = v;
	return 0;
}

/* A list N[,N...] of workers for option @opt, added to @cpus[*@n]. */
static int parse_cpus(const char *opt, const char *s, int *cpus,
		      unsigned int *n)
{
	char *copy = strdup(s), *tok, *save = NULL;
	uint64_t v;
	int ret = 0;

	if (!copy)
		return HR_EXIT_USAGE;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == BENCH_MAX_CPUS) {
			ret = bad(opt, s, "more than 16 CPUs");
			break;
		}
		ret = parse_u64(opt, tok, 0, BENCH_MAX_CPUS - 1, &v);
		if (!ret)
			cpus[(*n)++] = (int)v;
	}
	free(copy);
	return ret;
}

static int parse_mode(const char *s, enum bench_mode *m)
{
	unsigned int i;

	for (i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++)
		if (!strcmp(s, mode_names[i])) {
			*m = (enum bench_mode)i;
			return 0;
		}
	return bad("MODE", s,
		   "not one of drop, pass, tx, redirect, redirect-cpu, "
		   "redirect-map, rxhash, meta");
}

enum {
	OPT_PROG = 256,
	OPT_PCAP,
	OPT_LOOPS,
	OPT_FLOWS,
	OPT_SIZE,
	OPT_PROTO,
	OPT_IPV6,
	OPT_RATE,
	OPT_COUNT,
	OPT_DURATION,
	OPT_INTERVAL,
	OPT_ENGINE,
	OPT_WORKERS,
	OPT_CPU,
	OPT_STEER,
	OPT_REMOTE,
	OPT_RPS,
	OPT_LOAD_EGRESS,
	OPT_EGRESS,
	OPT_TOUCH,
	OPT_NOTOUCH,
	OPT_JSON,
	OPT_TRACE,
	OPT_TRACE_FILTER,
	OPT_HELP,
};

static const struct option longopts[] = {
	{ "prog", required_argument, NULL, OPT_PROG },
	{ "pcap", required_argument, NULL, OPT_PCAP },
	{ "loops", required_argument, NULL, OPT_LOOPS },
	{ "flows", required_argument, NULL, OPT_FLOWS },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "proto", required_argument, NULL, OPT_PROTO },
	{ "ipv6", no_argument, NULL, OPT_IPV6 },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "workers", required_argument, NULL, OPT_WORKERS },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "steer", required_argument, NULL, OPT_STEER },
	{ "remote-action", required_argument, NULL, OPT_REMOTE },
	{ "rps", required_argument, NULL, OPT_RPS },
	{ "load-egress", no_argument, NULL, OPT_LOAD_EGRESS },
	{ "egress-prog", required_argument, NULL, OPT_EGRESS },
	{ "touch", no_argument, NULL, OPT_TOUCH },
	{ "notouch", no_argument, NULL, OPT_NOTOUCH },
	{ "stats", no_argument, NULL, 's' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "trace-filter", required_argument, NULL, OPT_TRACE_FILTER },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* One option @c with @arg into @o; 0 or an exit code. */
static int one_opt(int c, const char *arg, struct bench_opts *o)
{
	uint64_t v = 0;
	int ret = 0;

	switch (c) {
	case OPT_PROG:
		o->prog = arg;
		break;
	case OPT_PCAP:
		o->pcap = arg;
		break;
	case OPT_LOOPS:
		ret = parse_u64("--loops", arg, 1, UINT32_MAX, &v);
		o->loops = (uint32_t)v;
		break;
	case OPT_FLOWS:
		ret = parse_u64("--flows", arg, 1, 65536, &v);
		o->flows = (uint32_t)v;
		break;
	case OPT_SIZE:
		ret = parse_u64("--size", arg, HR_GEN_PKT_MIN, HR_GEN_PKT_MAX,
				&v);
		o->size = (uint32_t)v;
		break;
	case OPT_PROTO:
		if (!strcmp(arg, "udp"))
			o->proto = IPPROTO_UDP;
		else if (!strcmp(arg, "tcp"))
			o->proto = IPPROTO_TCP;
		else if (!strcmp(arg, "icmp"))
			o->proto = IPPROTO_ICMP;
		else
			ret = bad("--proto", arg, "not udp, tcp or icmp");
		break;
	case OPT_IPV6:
		o->ipv6 = true;
		break;
	case OPT_RATE:
		ret = parse_u64("--rate", arg, 1, 1000000000000ull, &o->rate);
		break;
	case OPT_COUNT:
		ret = parse_u64("--count", arg, 1, UINT64_MAX / 2, &o->count);
		break;
	case OPT_DURATION:
		ret = parse_secs("--duration", arg, 0.001, 31536000,
				 &o->duration);
		break;
	case OPT_INTERVAL:
		ret = parse_secs("--interval", arg, 0.01, 3600, &o->interval);
		break;
	case OPT_ENGINE:
		if (hr_cli_engine(arg, &o->engine))
			ret = bad("--engine", arg,
				  "not interp, jit or jit-checked");
		break;
	case OPT_WORKERS:
		ret = parse_u64("--workers", arg, 1, BENCH_MAX_CPUS, &v);
		o->workers = (unsigned int)v;
		break;
	case OPT_CPU:
		ret = parse_cpus("--cpu", arg, o->cpus, &o->ncpus);
		break;
	case OPT_RPS:
		ret = parse_cpus("--rps", arg, o->rps, &o->nrps);
		break;
	case OPT_STEER:
		if (!strcmp(arg, "hash"))
			o->by_hash = true;
		else if (strcmp(arg, "round-robin"))
			ret = bad("--steer", arg, "not round-robin or hash");
		break;
	case OPT_REMOTE:
		if (!strcmp(arg, "pass"))
			o->remote_pass = true;
		else if (strcmp(arg, "drop"))
			ret = bad("--remote-action", arg, "not drop or pass");
		break;
	case OPT_LOAD_EGRESS:
		o->load_egress = true;
		break;
	case OPT_EGRESS:
		o->egress = arg;
		break;
	case OPT_TOUCH:
		o->touch = true;
		break;
	case OPT_NOTOUCH:
		o->notouch = true;
		break;
	case 's':
		o->stats = true;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_TRACE:
		ret = parse_u64("--trace", arg, 1, 1u << 20, &v);
		o->trace = v;
		break;
	case OPT_TRACE_FILTER:
		o->trace_filter = arg;
		break;
	default:
		ret = HR_EXIT_USAGE;
	}
	return ret;
}

/* The largest of @n workers. */
static unsigned int max_of(const int *cpus, unsigned int n)
{
	unsigned int i, max = 0;

	for (i = 0; i < n; i++)
		if ((unsigned int)cpus[i] > max)
			max = (unsigned int)cpus[i];
	return max;
}

/* --workers (default: 2, or what the largest target needs) against the
 * largest of the targets @cpus of option @opt. */
static int check_targets(struct bench_opts *o, const char *opt, const int *cpus,
			 unsigned int n)
{
	unsigned int max_cpu = max_of(cpus, n);
	char v[16];

	if (!o->workers)
		o->workers = max_cpu + 1 > 2 ? max_cpu + 1 : 2;
	if (max_cpu < o->workers)
		return 0;
	snprintf(v, sizeof(v), "%u", max_cpu);
	return bad(opt, v, "no such worker (see --workers)");
}

/* What the options say together. */
static int check_opts(struct bench_opts *o)
{
	int ret;

	if (o->ncpus && o->mode != BM_REDIRECT_CPU)
		return bad("--cpu", "", "only for redirect-cpu");
	if ((o->load_egress || o->egress) && o->mode != BM_REDIRECT_MAP)
		return bad(o->egress ? "--egress-prog" : "--load-egress",
			   o->egress ? o->egress : "", "only for redirect-map");
	if (o->notouch && o->mode != BM_RXHASH)
		return bad("--notouch", "", "only for rxhash");
	if (o->loops && !o->pcap)
		return bad("--loops", "", "only with --pcap");
	if (o->nrps && o->mode != BM_PASS && o->mode != BM_META)
		return bad("--rps", "", "only for pass and meta");
	if (o->mode == BM_REDIRECT_CPU) {
		if (!o->ncpus)
			o->cpus[o->ncpus++] = o->workers == 1 ? 0 : 1;
		ret = check_targets(o, "--cpu", o->cpus, o->ncpus);
		if (ret)
			return ret;
	}
	if (o->nrps) {
		ret = check_targets(o, "--rps", o->rps, o->nrps);
		if (ret)
			return ret;
	}
	if (o->mode == BM_REDIRECT || o->mode == BM_REDIRECT_MAP) {
		if (!o->workers)
			o->workers = 2;
	}
	if (!o->workers)
		o->workers = 1;
	if (o->mode == BM_TX)
		o->touch = true;
	return 0;
}

int bench_parse_args(int argc, char **argv, struct bench_opts *o)
{
	int c, ret;

	memset(o, 0, sizeof(*o));
	o->interval = 1;
	o->flows = 1;
	o->proto = IPPROTO_UDP;
	o->engine = HR_ENGINE_JIT;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s", longopts, NULL)) != -1) {
		if (c == OPT_HELP) {
			fputs(usage, stdout);
			return -1;
		}
		if (c == '?')
			return bad("option", argv[optind - 1], "unknown");
		if (c == ':')
			return bad("option", argv[optind - 1], "needs a value");
		ret = one_opt(c, optarg, o);
		if (ret)
			return ret;
	}
	if (optind >= argc) {
		fputs(usage, stderr);
		return HR_EXIT_USAGE;
	}
	if (optind + 1 < argc)
		return bad("argument", argv[optind + 1], "one MODE only");
	ret = parse_mode(argv[optind], &o->mode);
	return ret ? ret : check_opts(o);
}
