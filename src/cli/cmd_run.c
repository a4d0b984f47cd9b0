// SPDX-License-Identifier: MIT
/*
 * headroom run [CONFIG]: builds a topology (a YAML/JSON config, or one
 * device, one program and one sink from flags) and runs it until the
 * devices are done, --duration passes or SIGINT/SIGTERM, with live
 * statistics in the layout of the kernel's xdp_redirect_cpu sample
 * (hr_dp_print_stats), an optional per-packet trace, and a closing
 * account of every packet.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <headroom/headroom.h>
#include <headroom/datapath.h>

#include "cli/cli.h"
#include "cli/run.h"

static const char run_usage[] =
	"usage: headroom run CONFIG.yaml [options]\n"
	"       headroom run (--gen | --pcap FILE) --xdp OBJ[:PROG] [--tc OBJ[:PROG]]\n"
	"                    [--sink-pcap FILE] [options]\n"
	"\n"
	"Builds the devices, programs, maps, cpumap and devmap entries the\n"
	"config describes (see examples/*.yaml and README 'headroom run') and\n"
	"runs them until every device is done, --duration passes, or SIGINT or\n"
	"SIGTERM; then prints the account of every packet.\n"
	"\n"
	"  --duration S     stop after S seconds (default: the config's, else\n"
	"                   when the devices are done)\n"
	"  --interval S     live statistics every S seconds (default 1; 0: none)\n"
	"  --json           statistics, trace and summary as JSON lines\n"
	"  --trace N        follow the first N packets through every stage\n"
	"  --trace-filter F which packets: dev=NAME,queue=N,skip=N,every=N\n"
	"  --engine E       interp, jit or jit-checked (overrides the config)\n"
	"  --workers N      workers (overrides the config; 1..16)\n"
	"\n"
	"Without CONFIG, one device, one program, one sink:\n"
	"  --gen            a generator (with RX hints) ...\n"
	"  --flows N --size N --rate PPS --count N   ... and its options\n"
	"  --pcap FILE      or packets from a pcap/pcapng file ...\n"
	"  --hints FILE     ... with per-packet hints (JSON lines)\n"
	"  --xdp OBJ[:PROG] the XDP program on it\n"
	"  --tc OBJ[:PROG]  the tc ingress program\n"
	"  --sink-pcap FILE where the sink writes what reaches the stack\n"
	"  --set NAME=VALUE, --map-size NAME=N, --map NAME=KEY:VALUE\n"
	"                   for the XDP program's object (repeatable)\n"
	"\n"
	"exit codes: 0 ran (books balanced), 1 a program did not load,\n"
	"            2 bad arguments or config, 3 the books do not balance\n";

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

struct run_args {
	const char *config;
	double duration, interval;
	bool have_duration, have_interval, json;
	unsigned long long trace;
	const char *trace_filter;
	const char *engine;
	unsigned long long workers;
	/* flags mode */
	bool gen;
	unsigned long long flows, size, rate, count;
	const char *pcap, *hints, *xdp, *tc, *sink_pcap;
	char **sets, **sizes, **maps;
	int nsets, nsizes, nmaps;
};

static int bad(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "headroom run: %s '%s': %s\n", opt, val, why);
	return HR_EXIT_USAGE;
}

static int num(const char *opt, const char *s, unsigned long long min,
	       unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	if (*s == '-' || *s == '+')
		return bad(opt, s, "not a number");
	*out = strtoull(s, &end, 0);
	if (errno || *end || !*s)
		return bad(opt, s, errno ? "out of range" : "not a number");
	if (*out < min || *out > max) {
		fprintf(stderr,
			"headroom run: %s '%s': out of range %llu..%llu\n", opt,
			s, min, max);
		return HR_EXIT_USAGE;
	}
	return 0;
}

static int secs(const char *opt, const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	if (*end || !*s || !(*out >= 0 && *out <= 31536000))
		return bad(opt, s, "want seconds, 0..31536000");
	return 0;
}

static int parse(int argc, char **argv, struct run_args *a)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "interval", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "trace", required_argument, NULL, 'T' },
		{ "trace-filter", required_argument, NULL, 'F' },
		{ "engine", required_argument, NULL, 'e' },
		{ "workers", required_argument, NULL, 'w' },
		{ "gen", no_argument, NULL, 'g' },
		{ "flows", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 's' },
		{ "rate", required_argument, NULL, 'r' },
		{ "count", required_argument, NULL, 'c' },
		{ "pcap", required_argument, NULL, 'p' },
		{ "hints", required_argument, NULL, 'H' },
		{ "xdp", required_argument, NULL, 'x' },
		{ "tc", required_argument, NULL, 't' },
		{ "sink-pcap", required_argument, NULL, 'o' },
		{ "set", required_argument, NULL, 'V' },
		{ "map-size", required_argument, NULL, 'S' },
		{ "map", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret = 0;

	a->sets = calloc((size_t)argc, sizeof(char *));
	a->sizes = calloc((size_t)argc, sizeof(char *));
	a->maps = calloc((size_t)argc, sizeof(char *));
	if (!a->sets || !a->sizes || !a->maps)
		return HR_EXIT_USAGE;
	while (!ret &&
	       (c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			ret = secs("--duration", optarg, &a->duration);
			a->have_duration = true;
			break;
		case 'i':
			ret = secs("--interval", optarg, &a->interval);
			a->have_interval = true;
			break;
		case 'j':
			a->json = true;
			break;
		case 'T':
			ret = num("--trace", optarg, 1, 1u << 20, &a->trace);
			break;
		case 'F':
			a->trace_filter = optarg;
			break;
		case 'e':
			a->engine = optarg;
			break;
		case 'w':
			ret = num("--workers", optarg, 1, 16, &a->workers);
			break;
		case 'g':
			a->gen = true;
			break;
		case 'f':
			ret = num("--flows", optarg, 1, 1u << 24, &a->flows);
			break;
		case 's':
			ret = num("--size", optarg, 60, 3520, &a->size);
			break;
		case 'r':
			ret = num("--rate", optarg, 0, 1000000000, &a->rate);
			break;
		case 'c':
			ret = num("--count", optarg, 0, UINT64_MAX, &a->count);
			break;
		case 'p':
			a->pcap = optarg;
			break;
		case 'H':
			a->hints = optarg;
			break;
		case 'x':
			a->xdp = optarg;
			break;
		case 't':
			a->tc = optarg;
			break;
		case 'o':
			a->sink_pcap = optarg;
			break;
		case 'V':
			a->sets[a->nsets++] = optarg;
			break;
		case 'S':
			a->sizes[a->nsizes++] = optarg;
			break;
		case 'M':
			a->maps[a->nmaps++] = optarg;
			break;
		case 'h':
			fputs(run_usage, stdout);
			exit(HR_EXIT_OK);
		default:
			return HR_EXIT_USAGE; /* getopt said which */
		}
	}
	if (ret)
		return ret;
	if (optind < argc)
		a->config = argv[optind++];
	if (optind < argc)
		return bad("argument", argv[optind], "one CONFIG at most");
	if (a->config && (a->gen || a->pcap || a->xdp || a->tc))
		return bad(
			"CONFIG", a->config,
			"give a config or --gen/--pcap/--xdp/--tc, not both");
	if (!a->config && a->gen == !!a->pcap)
		return bad("arguments", argc > 1 ? argv[1] : "(none)",
			   "want CONFIG, or one of --gen and --pcap FILE");
	if (a->hints && !a->pcap)
		return bad("--hints", a->hints, "only with --pcap");
	return 0;
}

static char *dup_or_die(const char *s)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		abort();
	return d;
}

/* The flags' topology: src (gen0 or pcap0) -> programs -> sink0. */
static int from_flags(const struct run_args *a, struct hr_config *cfg)
{
	struct hr_cfg_dev *src = &cfg->devs[0], *sink = &cfg->devs[1];
	struct hr_cfg_prog *p;
	int i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->file = "headroom run";
	cfg->interval = 1;
	cfg->ndevs = 2;
	src->name = dup_or_die(a->gen ? "gen0" : "pcap0");
	src->kind = a->gen ? HR_CFG_GEN : HR_CFG_PCAP;
	src->flows = (uint32_t)a->flows;
	src->size = (uint32_t)a->size;
	src->rate = a->rate;
	src->count = a->count;
	src->path = dup_or_die(a->pcap);
	src->hints = dup_or_die(a->hints);
	src->stack = dup_or_die("sink0");
	sink->name = dup_or_die("sink0");
	sink->kind = HR_CFG_SINK;
	sink->out = dup_or_die(a->sink_pcap);
	if (a->xdp) {
		p = &cfg->progs[cfg->nprogs++];
		p->name = dup_or_die("xdp");
		p->spec = dup_or_die(a->xdp);
		for (i = 0; i < a->nsets && i < HR_CFG_MAX; i++)
			p->sets[p->nsets++] = dup_or_die(a->sets[i]);
		for (i = 0; i < a->nsizes && i < HR_CFG_MAX; i++)
			p->sizes[p->nsizes++] = dup_or_die(a->sizes[i]);
		if (a->nmaps) {
			p->nmaps = 1;
			for (i = 0; i < a->nmaps && i < HR_CFG_MAX; i++)
				p->maps[0].entries[p->maps[0].n++] =
					dup_or_die(a->maps[i]);
			p->maps[0].map = dup_or_die("--map");
		}
		src->xdp = dup_or_die("xdp");
	}
	if (a->tc) {
		p = &cfg->progs[cfg->nprogs++];
		p->name = dup_or_die("tc");
		p->spec = dup_or_die(a->tc);
		src->tc = dup_or_die("tc");
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void stats(struct run_topo *t, bool json, double dt)
{
	/* One report at a time against trace lines of the workers. */
	flockfile(stdout);
	hr_dp_print_stats(t->dp, stdout, json, dt);
	if (!json)
		fputc('\n', stdout);
	funlockfile(stdout);
	fflush(stdout);
}

/* Runs until done, the duration or a signal; the seconds it ran. */
static double run_loop(struct run_topo *t, double duration, double interval,
		       bool json)
{
	double start = now_s(), last = start, t1;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (interval > 0)
		hr_dp_print_stats(t->dp, stdout, json, 0) /* baseline */,
			fflush(stdout);
	for (;;) {
		/* 100 ms at a time: waits for the devices to be done and
		 * notices signals and the clock in between. */
		int idle = hr_dp_run_until_idle(t->dp, 100) == 0;

		t1 = now_s();
		if (interval > 0 && t1 - last >= interval) {
			stats(t, json, t1 - last);
			last = t1;
		}
		if (stop_signal || (duration > 0 && t1 - start >= duration))
			break;
		if (idle && duration <= 0)
			break;
		if (idle) {
			struct timespec ts = { 0, 20000000L };

			nanosleep(&ts, NULL);
		}
	}
	hr_dp_stop(t->dp);
	/* What the workers left queued (cpumap rings) is drained. */
	hr_dp_run_until_idle(t->dp, 2000);
	if (interval > 0 && now_s() - last > 0.05)
		stats(t, json, now_s() - last);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return now_s() - start;
}

int hr_cmd_run(int argc, char **argv)
{
	struct run_args a = { .interval = 1 };
	struct hr_config cfg;
	struct run_topo t;
	double ran;
	int ret;

	memset(&t, 0, sizeof(t));
	memset(&cfg, 0, sizeof(cfg));
	ret = parse(argc, argv, &a);
	if (ret)
		goto out_args;
	if (a.config)
		ret = hr_config_load(a.config, &cfg) ? HR_EXIT_USAGE : 0;
	else
		ret = from_flags(&a, &cfg);
	if (ret)
		goto out_args;
	if (a.engine && hr_cli_engine(a.engine, &cfg.engine)) {
		ret = bad("--engine", a.engine,
			  "want interp, jit or jit-checked");
		goto out;
	}
	if (a.workers)
		cfg.workers = (unsigned int)a.workers;
	if (a.have_duration)
		cfg.duration = a.duration;
	if (a.have_interval)
		cfg.interval = a.interval;
	t.cfg = &cfg;
	ret = run_build(&t);
	if (ret)
		goto out;
	if (a.trace) {
		struct run_trace_opts to = { .json = a.json,
					     .filter = a.trace_filter };

		ret = run_trace_start(&t, a.trace, &to);
		if (ret)
			goto out;
	}
	ret = hr_dp_start(t.dp);
	if (ret) {
		fprintf(stderr, "headroom run: cannot start the workers: %s\n",
			strerror(-ret));
		ret = HR_EXIT_USAGE;
		goto out;
	}
	ran = run_loop(&t, cfg.duration, cfg.interval, a.json);
	run_trace_stop();
	ret = run_summary(&t, stdout, a.json, ran) ? HR_EXIT_OK : HR_EXIT_RUN;
out:
	run_trace_stop();
	run_teardown(&t);
	hr_config_free(&cfg);
out_args:
	free(a.sets);
	free(a.sizes);
	free(a.maps);
	return ret;
}
