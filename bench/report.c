// SPDX-License-Identifier: MIT
/*
 * bench/report: runs every benchmark under bench/ with --json and writes
 * DIR/REPORT.md (default bench/results/): the machine it ran on, one
 * table per benchmark (headroom's median [min max], the kernel's from
 * the same run, the ratio), the veth table of the veth XDP patch set
 * (DROP and TX at 1, 2 and 100 flows), the metadata cost and the cpumap
 * figures, and PNG bar charts drawn by gnuplot. Not a kernel function:
 * its tables follow the seed threads' (veth, cpumap, metadata).
 *
 * The benchmarks are the binaries beside this one ($BUILD/bench/); their
 * --json output is read with json-c, one document after another.
 *
 * usage: bench/report [--quick] [--out DIR]
 *   --quick  each benchmark once, on tiny counts (for tests)
 *   --out    the directory for REPORT.md and the charts
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>

#define MAX_ARGS 12

struct bench {
	const char *name;
	const char *full[MAX_ARGS], *quick[MAX_ARGS];
	struct json_object *docs; /* array of what it printed */
	double seconds;
};

/*
 * Full runs: medians of at least 3 runs everywhere; the whole report
 * takes about two minutes on the 2-core machine. Quick: one run each on
 * counts that take a second or two, sanitizers included.
 */
static struct bench benches[] = {
	{ "datapath",
	  { "--json", "--runs", "5" },
	  { "--json", "--runs", "1", "--count", "20000" } },
	{ "engines",
	  { "--json", "--runs", "5" },
	  { "--json", "--runs", "1", "--repeat", "1000" } },
	{ "maps",
	  { "--json", "--runs", "5" },
	  { "--json", "--runs", "1", "--ms", "1" } },
	{ "load",
	  { "--json", "--runs", "3" },
	  { "--json", "--runs", "1", "--insns", "2000" } },
	{ "devices",
	  { "--json", "--runs", "3" },
	  { "--json", "--runs", "1", "--count", "20000" } },
};

#define NBENCH (sizeof(benches) / sizeof(benches[0]))

static bool quick;
static char bench_dir[PATH_MAX], out_dir[PATH_MAX];

static void warnx(const char *fmt, ...)
{
	va_list ap;

	fputs("bench/report: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- running the benchmarks ------------------------------------------- */

/* The benchmarks sit beside this binary; their BPF objects in $BUILD. */
static int find_benches(void)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0) {
		warnx("readlink /proc/self/exe: %s", strerror(errno));
		return -errno;
	}
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash) {
		warnx("/proc/self/exe: '%s' has no directory", exe);
		return -EINVAL;
	}
	*slash = 0;
	snprintf(bench_dir, sizeof(bench_dir), "%s", exe);
	/* $BUILD/bench/report: $BUILD/progs for the benchmarks' objects. */
	slash = strrchr(exe, '/');
	if (slash && !getenv("BUILD")) {
		*slash = 0;
		setenv("BUILD", exe, 1);
	}
	return 0;
}

/* Reads all of @fd into a NUL-terminated buffer in *@out. */
static int read_all(int fd, char **out, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap), *nbuf;
	ssize_t r;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (cap - n < 4096) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return -errno;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}

/* Every JSON document in @buf, one after another (JSON lines or not). */
static int parse_docs(const struct bench *b, const char *buf, size_t len,
		      struct json_object *arr)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o;
	size_t off = 0;
	int err = 0;

	if (!tok)
		return -ENOMEM;
	while (off < len) {
		while (off < len && strchr(" \t\r\n", buf[off]))
			off++;
		if (off == len)
			break;
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, buf + off, (int)(len - off));
		if (!o) {
			enum json_tokener_error e = json_tokener_get_error(tok);

			warnx("%s/%s: output is not JSON at byte %zu: %s",
			      bench_dir, b->name, off,
			      e == json_tokener_continue ?
				      "truncated" :
				      json_tokener_error_desc(e));
			err = -EINVAL;
			break;
		}
		json_object_array_add(arr, o);
		off += json_tokener_get_parse_end(tok);
	}
	json_tokener_free(tok);
	return err;
}

static int run_bench(struct bench *b)
{
	const char *const *args = quick ? b->quick : b->full;
	char path[PATH_MAX + 64], *out = NULL;
	char *argv[MAX_ARGS + 2];
	int p[2], st, err, i;
	size_t len = 0;
	double t0;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", bench_dir, b->name);
	argv[0] = path;
	for (i = 0; args[i]; i++)
		argv[i + 1] = (char *)args[i];
	argv[i + 1] = NULL;
	fprintf(stderr, "bench/report: running %s", path);
	for (i = 0; args[i]; i++)
		fprintf(stderr, " %s", args[i]);
	fputc('\n', stderr);
	if (pipe(p))
		return -errno;
	t0 = now_s();
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(p[0]);
		close(p[1]);
		return err;
	}
	if (!pid) {
		dup2(p[1], STDOUT_FILENO);
		close(p[0]);
		close(p[1]);
		execv(path, argv);
		fprintf(stderr, "bench/report: exec %s: %s\n", path,
			strerror(errno));
		_exit(127);
	}
	close(p[1]);
	err = read_all(p[0], &out, &len);
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	b->seconds = now_s() - t0;
	if (err) {
		warnx("%s: reading its output: %s", path, strerror(-err));
		return err;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		if (WIFEXITED(st))
			warnx("%s exited %d", path, WEXITSTATUS(st));
		else
			warnx("%s killed by signal %d", path, WTERMSIG(st));
		free(out);
		return -EIO;
	}
	b->docs = json_object_new_array();
	err = parse_docs(b, out, len, b->docs);
	if (!err && !json_object_array_length(b->docs)) {
		warnx("%s printed no JSON", path);
		err = -ENODATA;
	}
	free(out);
	fprintf(stderr, "bench/report: %s done in %.1f s\n", b->name,
		b->seconds);
	return err;
}

static struct bench *bench(const char *name)
{
	size_t i;

	for (i = 0; i < NBENCH; i++)
		if (!strcmp(benches[i].name, name))
			return &benches[i];
	return NULL;
}

/* ---- reading the figures ---------------------------------------------- */

/* @o's number at @k1 (then @k2 inside it); NAN when absent or null. */
static double num(struct json_object *o, const char *k1, const char *k2)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k1, &v) || !v)
		return NAN;
	if (k2 && (!json_object_object_get_ex(v, k2, &v) || !v))
		return NAN;
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return NAN;
	return json_object_get_double(v);
}

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v) ||
	    !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

/* The document of @b whose @key is @val, or NULL. */
static struct json_object *doc_by(const struct bench *b, const char *key,
				  const char *val)
{
	size_t i, n = json_object_array_length(b->docs);

	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(b->docs, i);

		if (!strcmp(str(o, key), val))
			return o;
	}
	return NULL;
}

struct spread {
	double med, min, max;
};

/* The {median, min, max} object at @o's @k. */
static struct spread spread_of(struct json_object *o, const char *k)
{
	struct spread s = { num(o, k, "median"), num(o, k, "min"),
			    num(o, k, "max") };

	return s;
}

/* "12.34 [12.01 12.90]", or "-" when not measured. */
static const char *cell(char *buf, size_t sz, struct spread s)
{
	if (isnan(s.med))
		snprintf(buf, sz, "-");
	else if (isnan(s.min) || isnan(s.max))
		snprintf(buf, sz, "%.2f", s.med);
	else
		snprintf(buf, sz, "%.2f [%.2f %.2f]", s.med, s.min, s.max);
	return buf;
}

static const char *cell1(char *buf, size_t sz, double v)
{
	struct spread s = { v, NAN, NAN };

	return cell(buf, sz, s);
}

/* ns a packet of @m less @mb by @key's medians; '-' unless both ran. */
static const char *cost_cell(char *buf, size_t n, json_object *m,
			     json_object *mb, const char *key)
{
	double a = num(m, key, "median"), b = num(mb, key, "median");

	if (!(a > 0) || !(b > 0)) {
		snprintf(buf, n, "-");
		return buf;
	}
	return cell1(buf, n, 1e3 / a - 1e3 / b);
}

/* ---- the machine ------------------------------------------------------ */

static void read_line(const char *path, char *buf, size_t sz)
{
	FILE *f = fopen(path, "r");

	snprintf(buf, sz, "unknown");
	if (f) {
		if (!fgets(buf, (int)sz, f))
			snprintf(buf, sz, "unknown");
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
}

static void cpu_model(char *buf, size_t sz)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512], *v;

	snprintf(buf, sz, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) || !(v = strchr(line, ':')))
			continue;
		v += strspn(v + 1, " \t") + 1;
		v[strcspn(v, "\n")] = 0;
		snprintf(buf, sz, "%s", v);
		break;
	}
	fclose(f);
}

/* The first line @cmd prints, or "" (git may be absent). */
static void first_line(const char *cmd, char *buf, size_t sz)
{
	FILE *f = popen(cmd, "r");

	buf[0] = 0;
	if (!f)
		return;
	if (!fgets(buf, (int)sz, f))
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	pclose(f);
}

/* The commit of the tree the benchmarks were built in ($BUILD/bench). */
static void git_commit(char *buf, size_t sz)
{
	char cmd[PATH_MAX + 128], dirty[16];

	buf[0] = 0;
	if (!strchr(bench_dir, '\'')) {
		snprintf(cmd, sizeof(cmd),
			 "git -C '%s' rev-parse --short=12 HEAD 2>/dev/null",
			 bench_dir);
		first_line(cmd, buf, sz);
	}
	if (!buf[0]) {
		snprintf(buf, sz, "unknown (not a git checkout)");
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "git -C '%s' status --porcelain --untracked-files=no "
		 "2>/dev/null",
		 bench_dir);
	first_line(cmd, dirty, sizeof(dirty));
	if (dirty[0])
		strncat(buf, " (with uncommitted changes)",
			sz - strlen(buf) - 1);
}

static void machine(FILE *md, const char *load0, const char *load1,
		    double seconds)
{
	char date[64], cpu[256], commit[128];
	struct utsname u;
	time_t t = time(NULL);
	size_t i;

	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", gmtime(&t));
	cpu_model(cpu, sizeof(cpu));
	git_commit(commit, sizeof(commit));
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	fprintf(md, "## Machine\n\n| | |\n|---|---|\n");
	fprintf(md, "| date | %s |\n", date);
	fprintf(md, "| git commit | %s |\n", commit);
	fprintf(md, "| kernel | %s %s |\n", u.sysname, u.release);
	fprintf(md, "| CPUs online (nproc) | %ld |\n",
		sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(md, "| CPU model | %s |\n", cpu);
	fprintf(md, "| load average before | %s |\n", load0);
	fprintf(md, "| load average after | %s |\n", load1);
	fprintf(md, "| mode | %s |\n",
		quick ? "--quick (one run each, tiny counts: not figures "
			"to quote)" :
			"full");
	fprintf(md, "| whole run | %.0f s |\n\n", seconds);
	fprintf(md, "Commands:\n\n");
	for (i = 0; i < NBENCH; i++) {
		const char *const *a = quick ? benches[i].quick :
					       benches[i].full;

		fprintf(md, "- `bench/%s", benches[i].name);
		for (; *a; a++)
			fprintf(md, " %s", *a);
		fprintf(md, "` (%.1f s)\n", benches[i].seconds);
	}
	fprintf(md, "\n");
}

/* ---- charts ------------------------------------------------------------ */

#define MAX_SERIES 4
#define MAX_BARS 64

struct chart {
	const char *file, *title, *ylabel;
	bool logy;
	int nseries;
	const char *series[MAX_SERIES];
	int nbars;
	char label[MAX_BARS][64];
	struct spread v[MAX_BARS][MAX_SERIES];
};

static struct spread *chart_add(struct chart *c, const char *label)
{
	if (c->nbars == MAX_BARS)
		return NULL;
	snprintf(c->label[c->nbars], sizeof(c->label[0]), "%s", label);
	return c->v[c->nbars++];
}

/* A value gnuplot reads, "-" (missing, no bar) when not measured. */
static void put_num(FILE *f, double v)
{
	if (isnan(v) || v <= 0)
		fprintf(f, " -");
	else
		fprintf(f, " %.4f", v);
}

/*
 * Draws @c as grouped bars with min..max error bars into out_dir/@c->file
 * through gnuplot, the data inline (a datablock), so that no data files
 * are left beside the report.
 */
static int draw(struct chart *c)
{
	FILE *g;
	int i, s, st;

	if (!c->nbars) {
		warnx("%s: nothing to draw", c->file);
		return -ENODATA;
	}
	g = popen("gnuplot", "w");
	if (!g) {
		warnx("cannot run gnuplot: %s", strerror(errno));
		return -errno;
	}
	fprintf(g,
		"set terminal pngcairo size 1100,520 font 'sans,10' noenhanced\n"
		"set output \"%s/%s\"\n"
		"set title \"%s\"\nset ylabel \"%s\"\n"
		"set style data histogram\n"
		"set style histogram errorbars gap 2 lw 1\n"
		"set style fill solid 0.8 border -1\n"
		"set datafile missing '-'\nset grid ytics\n"
		"set key tmargin center horizontal\n"
		"set xtics rotate by 45 right nomirror\n"
		"%s\n$d << EOD\n",
		out_dir, c->file, c->title, c->ylabel,
		c->logy ? "set logscale y" : "set yrange [0:*]");
	for (i = 0; i < c->nbars; i++) {
		fprintf(g, "\"%s\"", c->label[i]);
		for (s = 0; s < c->nseries; s++) {
			put_num(g, c->v[i][s].med);
			put_num(g, isnan(c->v[i][s].min) ? c->v[i][s].med :
							   c->v[i][s].min);
			put_num(g, isnan(c->v[i][s].max) ? c->v[i][s].med :
							   c->v[i][s].max);
		}
		fputc('\n', g);
	}
	fprintf(g, "EOD\nplot");
	for (s = 0; s < c->nseries; s++)
		fprintf(g, "%s $d using %d:%d:%d%s title \"%s\"", s ? "," : "",
			2 + 3 * s, 3 + 3 * s, 4 + 3 * s, s ? "" : ":xtic(1)",
			c->series[s]);
	fprintf(g, "\n");
	st = pclose(g);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		warnx("gnuplot failed drawing %s/%s", out_dir, c->file);
		return -EIO;
	}
	return 0;
}

/* ---- the tables --------------------------------------------------------- */

/* One line naming the pipelines where headroom is behind the kernel. */
static void behind(FILE *md, const struct bench *b)
{
	size_t i, n = json_object_array_length(b->docs), cnt = 0;
	struct json_object *o;
	double r;

	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(b->docs, i);
		r = num(o, "ratio", "median");
		if (isnan(r) || r >= 1)
			continue;
		fprintf(md, "%s%s %.2f",
			cnt++ ? ", " :
				"\nBehind the kernel "
				"(median ratio < 1): ",
			str(o, "pipeline"), r);
	}
	fprintf(md, cnt ? ".\n" : "\nBehind the kernel: none.\n");
}

static const char *const veth_flows[] = { "1", "2", "100" };
static const char *const cpumap_rows[] = { "cpumap", "cpumap-pass", "rps" };

/* The sentence under the cpumap table: where the skb is built, against
 * what is delivered and what the RX worker spends on it. */
static void cpumap_vs_rps(FILE *md, struct json_object *cp,
			  struct json_object *rps)
{
	double d_cp = num(cp, "headroom_mpps", "median"),
	       d_rps = num(rps, "headroom_mpps", "median"),
	       b_cp = num(cp, "rx_busy_ns", "median"),
	       b_rps = num(rps, "rx_busy_ns", "median"),
	       k_rps = num(rps, "kernel_mpps", "median");

	fprintf(md,
		"\nIn headroom, cpumap-pass (skb built on the remote "
		"worker) against rps (skb built on the RX worker): %.2f "
		"against %.2f Mpps delivered (cpumap-pass / rps %.2f); the "
		"RX worker busy %.1f against %.1f ns a packet (%.2f); "
		"dropped on a full ring or backlog %.1f%% against %.1f%%. ",
		d_cp, d_rps, d_rps > 0 ? d_cp / d_rps : NAN, b_cp, b_rps,
		b_rps > 0 ? b_cp / b_rps : NAN,
		100 * num(cp, "dropped_share", "median"),
		100 * num(rps, "dropped_share", "median"));
	if (isnan(k_rps))
		fprintf(md, "The kernel's rps has no figure (%s). ",
			str(rps, "kernel"));
	else
		fprintf(md,
			"The kernel's rps (veth B, rps_cpus on its rx-0): "
			"%.2f Mpps, %.1f%% dropped by its backlog. ",
			k_rps,
			100 * num(rps, "kernel_dropped_share", "median"));
	fprintf(md, "cpumap-pass has no kernel figure (%s).\n\n",
		str(cp, "kernel"));
}

static int datapath_tables(FILE *md)
{
	static struct chart dc = { "datapath.png",
				   "bench/datapath: Mpps, median [min..max]",
				   "Mpps",
				   false,
				   2,
				   { "headroom", "kernel" } };
	static struct chart vc = {
		"veth.png", "veth pair: DROP and TX at 1, 2, 100 flows",
		"Mpps",	    false,
		2,	    { "headroom", "kernel" }
	};
	const struct bench *b = bench("datapath");
	char c1[64], c2[64], c3[64], c4[64], name[32];
	struct json_object *o, *m, *mb, *vd[3], *vt[3];
	size_t i, n = json_object_array_length(b->docs);
	struct spread *bar;
	int err;

	fprintf(md,
		"## bench/datapath: packets a second through a pipeline\n\n"
		"60-byte packets, Mpps: median [min max] of %d run(s). "
		"Ratio: headroom / kernel, run by run. RX worker: its "
		"thread's CPU time a packet received, ns.\n\n",
		(int)num(json_object_array_get_idx(b->docs, 0), "runs", NULL));
	fprintf(md, "| pipeline | headroom Mpps [min max] | kernel Mpps "
		    "[min max] | ratio [min max] | RX worker ns/packet | "
		    "kernel side |\n|---|---|---|---|---|---|\n");
	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(b->docs, i);
		if (!str(o, "pipeline")[0])
			continue;
		fprintf(md, "| %s | %s | %s | %s | %s | %s |\n",
			str(o, "pipeline"),
			cell(c1, sizeof(c1), spread_of(o, "headroom_mpps")),
			cell(c2, sizeof(c2), spread_of(o, "kernel_mpps")),
			cell(c3, sizeof(c3), spread_of(o, "ratio")),
			cell1(c4, sizeof(c4), num(o, "rx_busy_ns", "median")),
			str(o, "kernel"));
		bar = chart_add(&dc, str(o, "pipeline"));
		if (bar) {
			bar[0] = spread_of(o, "headroom_mpps");
			bar[1] = spread_of(o, "kernel_mpps");
		}
	}
	behind(md, b);
	fprintf(md, "\n![bench/datapath](datapath.png)\n\n");

	fprintf(md, "## veth pair: DROP and TX at 1, 2 and 100 flows\n\n"
		    "The veth XDP patch set's table: generator -> XDP "
		    "redirect -> veth A => B; B drops (DROP) or XDP_TX back "
		    "to A, which drops (TX). Mpps.\n\n"
		    "| flows | DROP headroom | DROP kernel | DROP ratio | "
		    "TX headroom | TX kernel | TX ratio |\n"
		    "|---|---|---|---|---|---|---|\n");
	for (i = 0; i < 3; i++) {
		struct json_object *d, *t;

		snprintf(name, sizeof(name), "veth-drop-%s", veth_flows[i]);
		d = doc_by(b, "pipeline", name);
		snprintf(name, sizeof(name), "veth-tx-%s", veth_flows[i]);
		t = doc_by(b, "pipeline", name);
		if (!d || !t) {
			warnx("bench/datapath printed no %s", name);
			return -ENODATA;
		}
		fprintf(md, "| %s | %s | %s | %s |", veth_flows[i],
			cell(c1, sizeof(c1), spread_of(d, "headroom_mpps")),
			cell(c2, sizeof(c2), spread_of(d, "kernel_mpps")),
			cell1(c3, sizeof(c3), num(d, "ratio", "median")));
		fprintf(md, " %s | %s | %s |\n",
			cell(c1, sizeof(c1), spread_of(t, "headroom_mpps")),
			cell(c2, sizeof(c2), spread_of(t, "kernel_mpps")),
			cell1(c3, sizeof(c3), num(t, "ratio", "median")));
		vd[i] = d;
		vt[i] = t;
	}
	/* DROP at 1, 2, 100 flows, then TX: the patch set's order. */
	for (i = 0; i < 6; i++) {
		o = i < 3 ? vd[i] : vt[i - 3];
		snprintf(name, sizeof(name), "%s %s", i < 3 ? "DROP" : "TX",
			 veth_flows[i % 3]);
		bar = chart_add(&vc, name);
		bar[0] = spread_of(o, "headroom_mpps");
		bar[1] = spread_of(o, "kernel_mpps");
	}
	fprintf(md, "\n![veth table](veth.png)\n\n");

	m = doc_by(b, "pipeline", "meta");
	mb = doc_by(b, "pipeline", "meta-base");
	if (!m || !mb) {
		warnx("bench/datapath printed no meta or meta-base");
		return -ENODATA;
	}
	fprintf(md, "## metadata: RX hints + 16 bytes to tc, against the same "
		    "pipeline without\n\n"
		    "| pipeline | headroom Mpps [min max] | kernel Mpps [min "
		    "max] | ratio |\n|---|---|---|---|\n");
	for (i = 0; i < 2; i++) {
		o = i ? mb : m;
		fprintf(md, "| %s | %s | %s | %s |\n", str(o, "pipeline"),
			cell(c1, sizeof(c1), spread_of(o, "headroom_mpps")),
			cell(c2, sizeof(c2), spread_of(o, "kernel_mpps")),
			cell1(c3, sizeof(c3), num(o, "ratio", "median")));
	}
	/* The cost: a packet's time with metadata less that without; '-'
	 * for a side that measured nothing (a kernel that refuses live
	 * frames or bpf_xdp_adjust_meta says so in bench/datapath). */
	fprintf(md, "| metadata cost, ns a packet | %s | %s | - |\n\n",
		cost_cell(c1, sizeof(c1), m, mb, "headroom_mpps"),
		cost_cell(c2, sizeof(c2), m, mb, "kernel_mpps"));

	fprintf(md, "## cpumap: delivered on the remote CPU\n\n"
		    "Packets a second the cpumap entry's CPU delivered "
		    "(counted there by the cpumap program, or by tc for "
		    "cpumap-pass and rps), and how busy the RX worker was. "
		    "rps is the RPS-like baseline of cpumap-pass: the skb "
		    "built on the RX worker, then steered by its hash to the "
		    "other worker's backlog, tc there.\n\n"
		    "| pipeline | headroom Mpps [min max] | kernel Mpps [min "
		    "max] | ratio | RX worker ns/packet [min max] |\n"
		    "|---|---|---|---|---|\n");
	for (i = 0; i < 3; i++) {
		o = doc_by(b, "pipeline", cpumap_rows[i]);
		if (!o) {
			warnx("bench/datapath printed no %s pipeline",
			      cpumap_rows[i]);
			return -ENODATA;
		}
		fprintf(md, "| %s | %s | %s | %s | %s |\n", str(o, "pipeline"),
			cell(c1, sizeof(c1), spread_of(o, "headroom_mpps")),
			cell(c2, sizeof(c2), spread_of(o, "kernel_mpps")),
			cell1(c3, sizeof(c3), num(o, "ratio", "median")),
			cell(c4, sizeof(c4), spread_of(o, "rx_busy_ns")));
	}
	cpumap_vs_rps(md, doc_by(b, "pipeline", "cpumap-pass"),
		      doc_by(b, "pipeline", "rps"));
	err = draw(&dc);
	return err ? err : draw(&vc);
}

/* bench/engines' columns shown, and which are drawn. */
static const struct {
	const char *key, *title;
} eng_cols[] = {
	{ "hr_jit_call", "hr JIT call" },
	{ "dpdk_jit", "DPDK JIT" },
	{ "hr_jit_test_run", "hr JIT test_run" },
	{ "kernel_test_run", "kernel test_run" },
};

static int engines_table(FILE *md)
{
	static struct chart c = { "engines.png",
				  "bench/engines: ns a run, median [min..max]",
				  "ns a run (log scale)",
				  true,
				  4,
				  { "hr JIT call", "DPDK JIT",
				    "hr JIT test_run", "kernel test_run" } };
	const struct bench *b = bench("engines");
	struct json_object *top = json_object_array_get_idx(b->docs, 0);
	struct json_object *progs, *o, *ns;
	struct spread *bar;
	char buf[64];
	size_t i, j, n;

	if (!json_object_object_get_ex(top, "programs", &progs) ||
	    !json_object_is_type(progs, json_type_array)) {
		warnx("bench/engines: no \"programs\" array in its JSON");
		return -ENODATA;
	}
	fprintf(md,
		"## bench/engines: ns a run of one program (lower is "
		"better)\n\n"
		"Median [min max] of %d measurement(s) of %d runs. "
		"test_run: the BPF_PROG_TEST_RUN repeat loop; call: the "
		"compiled code called in a loop. Ratio: hr JIT test_run "
		"/ kernel test_run.\n\n| program |",
		(int)num(top, "runs", NULL), (int)num(top, "repeat", NULL));
	for (j = 0; j < sizeof(eng_cols) / sizeof(eng_cols[0]); j++)
		fprintf(md, " %s ns [min max] |", eng_cols[j].title);
	fprintf(md, " ratio |\n|---|---|---|---|---|---|\n");
	n = json_object_array_length(progs);
	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(progs, i);
		if (!json_object_object_get_ex(o, "ns", &ns))
			continue;
		bar = chart_add(&c, str(o, "name"));
		fprintf(md, "| %s |", str(o, "name"));
		for (j = 0; j < sizeof(eng_cols) / sizeof(eng_cols[0]); j++) {
			struct spread s = spread_of(ns, eng_cols[j].key);

			fprintf(md, " %s |", cell(buf, sizeof(buf), s));
			if (bar)
				bar[j] = s;
		}
		/* The bench writes 0 for a ratio it could not form. */
		fprintf(md, " %s |\n",
			num(o, "jit_test_run_over_kernel", NULL) > 0 ?
				cell1(buf, sizeof(buf),
				      num(o, "jit_test_run_over_kernel",
					  NULL)) :
				"-");
	}
	fprintf(md, "\n![bench/engines](engines.png)\n\n");
	return draw(&c);
}

static int maps_table(FILE *md)
{
	static struct chart c = { "maps.png",
				  "bench/maps: Mops, median [min..max]",
				  "Mops (log scale)",
				  true,
				  2,
				  { "headroom", "kernel" } };
	const struct bench *b = bench("maps");
	size_t i, n = json_object_array_length(b->docs);
	char c1[64], c2[64], c3[64], label[64];
	struct json_object *o;
	struct spread h, k, *bar;

	fprintf(md,
		"## bench/maps: map operations a second\n\n"
		"64 operations a program run, keys all present; Mops: "
		"median [min max] of %d run(s), summed over the "
		"workers.\n\n"
		"| map | op | workers | headroom Mops [min max] | kernel "
		"Mops [min max] | ratio | note |\n"
		"|---|---|---|---|---|---|---|\n",
		(int)num(json_object_array_get_idx(b->docs, 0), "runs", NULL));
	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(b->docs, i);
		h = (struct spread){ num(o, "headroom_mops", NULL),
				     num(o, "headroom_min", NULL),
				     num(o, "headroom_max", NULL) };
		k = (struct spread){ num(o, "kernel_mops", NULL),
				     num(o, "kernel_min", NULL),
				     num(o, "kernel_max", NULL) };
		/* The bench writes 0 for what it could not measure. */
		if (h.med <= 0)
			h.med = NAN;
		if (k.med <= 0)
			k.med = NAN;
		fprintf(md, "| %s | %s | %d | %s | %s | %s | %s |\n",
			str(o, "map"), str(o, "op"),
			(int)num(o, "workers", NULL), cell(c1, sizeof(c1), h),
			cell(c2, sizeof(c2), k),
			num(o, "ratio", NULL) > 0 ?
				cell1(c3, sizeof(c3), num(o, "ratio", NULL)) :
				"-",
			str(o, "note"));
		snprintf(label, sizeof(label), "%s %s %dw", str(o, "map"),
			 str(o, "op"), (int)num(o, "workers", NULL));
		bar = chart_add(&c, label);
		if (bar) {
			bar[0] = h;
			bar[1] = k;
		}
	}
	fprintf(md, "\n![bench/maps](maps.png)\n\n");
	return draw(&c);
}

static int devices_table(FILE *md)
{
	static struct chart c = { "devices.png",
				  "bench/devices: Mpps, median [min..max]",
				  "Mpps",
				  false,
				  1,
				  { "received" } };
	const struct bench *b = bench("devices");
	struct json_object *k = doc_by(b, "pipeline", "kernel veth"), *o;
	size_t i, n = json_object_array_length(b->docs);
	char c1[64], c2[64], c3[64], c4[64];
	struct spread *bar;

	if (!k) {
		warnx("bench/devices printed no kernel veth row");
		return -ENODATA;
	}
	fprintf(md,
		"## bench/devices: AF_XDP, AF_PACKET and TAP beside the "
		"kernel's veth\n\n"
		"Into headroom (-rx: the kernel's live frames over a veth "
		"pair, or onto headroom's TAP) and out of it (-tx: "
		"headroom's generator through the device into the kernel, "
		"which counts); XDP_DROP at the far end. Mpps: median "
		"[min max] of %d run(s); the kernel veth row is the "
		"kernel's XDP_DROP on the same pair, the ratio each "
		"run's figure over that run's kernel figure. Sent: how fast "
		"the sender sent; delivered: the share counted (below 100%%, "
		"the receiver's ring was full).\n\n"
		"| pipeline | Mpps [min max] | ratio to kernel veth | sent "
		"Mpps | delivered %% | note |\n|---|---|---|---|---|---|\n",
		(int)num(k, "runs", NULL));
	for (i = 0; i < n; i++) {
		struct spread m;

		o = json_object_array_get_idx(b->docs, i);
		m = spread_of(o, "mpps");
		fprintf(md, "| %s | %s | %s | %s | %s | %s |\n",
			str(o, "pipeline"), cell(c1, sizeof(c1), m),
			o == k ? "-" :
				 cell(c2, sizeof(c2), spread_of(o, "ratio")),
			cell1(c3, sizeof(c3), num(o, "offered_mpps", "median")),
			cell1(c4, sizeof(c4),
			      num(o, "delivered_pct", "median")),
			str(o, "note"));
		bar = chart_add(&c, str(o, "pipeline"));
		if (bar)
			bar[0] = m;
	}
	fprintf(md, "\n![bench/devices](devices.png)\n\n");
	return draw(&c);
}

static int load_table(FILE *md)
{
	const struct bench *b = bench("load");
	size_t i, n = json_object_array_length(b->docs);
	struct json_object *o, *passes;
	char buf[64];
	bool head = false;

	fprintf(md,
		"## bench/load: ns an instruction to load, pass by "
		"pass\n\n"
		"The load-time analyses' worst-case shapes; median [min "
		"max] of %d load(s). No kernel figure: the kernel's "
		"verifier is not timed here.\n\n",
		(int)num(json_object_array_get_idx(b->docs, 0), "runs", NULL));
	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(b->docs, i);
		if (!json_object_object_get_ex(o, "ns_per_insn", &passes))
			continue;
		if (!head) {
			fprintf(md, "| shape | insns |");
			json_object_object_foreach(passes, k, v)
			{
				(void)v;
				fprintf(md, " %s |", k);
			}
			fprintf(md, "\n|---|---|");
			json_object_object_foreach(passes, k2, v2)
			{
				(void)k2;
				(void)v2;
				fprintf(md, "---|");
			}
			fprintf(md, "\n");
			head = true;
		}
		fprintf(md, "| %s | %d |", str(o, "shape"),
			(int)num(o, "insns", NULL));
		json_object_object_foreach(passes, k3, v3)
		{
			(void)v3;
			fprintf(md, " %s |",
				cell(buf, sizeof(buf), spread_of(passes, k3)));
		}
		fprintf(md, "\n");
	}
	fprintf(md, "\n");
	return head ? 0 : -ENODATA;
}

/* ---- main --------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bench/report [--quick] [--out DIR]\n"
		"  runs bench/datapath, engines, maps, load and devices with --json "
		"and writes\n"
		"  DIR/REPORT.md and PNG charts (DIR: bench/results)\n"
		"  --quick  one run each on tiny counts, for tests\n");
}

int main(int argc, char **argv)
{
	char load0[128], load1[128], md_path[PATH_MAX + 32],
		tmp_path[PATH_MAX + 32];
	const char *out = "bench/results";
	double t0 = now_s();
	size_t i;
	FILE *md;
	int a, err;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--quick")) {
			quick = true;
		} else if (!strcmp(argv[a], "--out") && a + 1 < argc) {
			out = argv[++a];
		} else if (!strcmp(argv[a], "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "bench/report: unknown option '%s'\n",
				argv[a]);
			usage(stderr);
			return 2;
		}
	}
	/* The directory goes into gnuplot's quoted "set output". */
	if (!out[0] || strpbrk(out, "\"\\\n") ||
	    strlen(out) >= sizeof(out_dir) - 64) {
		fprintf(stderr,
			"bench/report: --out '%s': empty, too long, or with a "
			"quote, backslash or newline\n",
			out);
		return 2;
	}
	snprintf(out_dir, sizeof(out_dir), "%s", out);
	if (mkdir(out_dir, 0755) && errno != EEXIST) {
		warnx("mkdir %s: %s", out_dir, strerror(errno));
		return 1;
	}
	if (find_benches())
		return 1;
	read_line("/proc/loadavg", load0, sizeof(load0));
	for (i = 0; i < NBENCH; i++)
		if (run_bench(&benches[i]))
			return 1;
	read_line("/proc/loadavg", load1, sizeof(load1));

	snprintf(md_path, sizeof(md_path), "%s/REPORT.md", out_dir);
	snprintf(tmp_path, sizeof(tmp_path), "%s/REPORT.md.tmp", out_dir);
	md = fopen(tmp_path, "w");
	if (!md) {
		warnx("%s: %s", tmp_path, strerror(errno));
		return 1;
	}
	fprintf(md,
		"# headroom benchmarks beside the kernel\n\n"
		"Written by `bench/report%s` (`make report`): every "
		"figure from this one run on this machine, headroom and "
		"the kernel side by side.\n\n",
		quick ? " --quick" : "");
	machine(md, load0, load1, now_s() - t0);
	err = datapath_tables(md);
	if (!err)
		err = engines_table(md);
	if (!err)
		err = maps_table(md);
	if (!err)
		err = load_table(md);
	if (!err)
		err = devices_table(md);
	if (fclose(md) && !err)
		err = -errno;
	if (!err && rename(tmp_path, md_path))
		err = -errno;
	if (err) {
		warnx("%s not written: %s", md_path, strerror(-err));
		unlink(tmp_path);
		return 1;
	}
	printf("bench/report: wrote %s and charts in %.0f s\n", md_path,
	       now_s() - t0);
	for (i = 0; i < NBENCH; i++)
		json_object_put(benches[i].docs);
	return 0;
}
