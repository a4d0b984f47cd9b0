// SPDX-License-Identifier: MIT
/*
 * headroom bench: every mode runs for a short while and its books
 * balance (packets in = the sum of the outcomes, through every stage of
 * the mode), rxhash's per-type counts add up to what was received, every
 * --json line parses (json-c), --pcap replays a file exactly, SIGINT
 * stops with the summary, and bad options fail with one line and exit 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include <pcap/pcap.h>

#include "harness.h"

#define OUT_MAX (1 << 20)

static char bin[4096];
static char out[OUT_MAX];

/* Runs @args after "headroom bench", stdout into out; the exit status. */
static int bench(const char *args)
{
	char cmd[8192];
	FILE *p;
	size_t n;
	int st;

	snprintf(cmd, sizeof(cmd), "%s bench %s 2>/dev/null", bin, args);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static uint64_t u(struct json_object *o, const char *path)
{
	char buf[128], *save = NULL, *k;
	struct json_object *v = o;

	snprintf(buf, sizeof(buf), "%s", path);
	for (k = strtok_r(buf, ".", &save); k && v;
	     k = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(v, k, &v))
			v = NULL;
	return v ? (uint64_t)json_object_get_uint64(v) : UINT64_MAX;
}

/*
 * Every line of out must be a JSON object; the interval lines carry
 * rx_pps, the last one is the summary (returned, owned by the caller).
 */
static struct json_object *parse_lines(const char *what, int *intervals)
{
	struct json_object *last = NULL, *o, *v;
	char *line, *save = NULL;
	int bad = 0;

	*intervals = 0;
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		o = json_tokener_parse(line);
		if (!o || !json_object_is_type(o, json_type_object)) {
			bad++;
			json_object_put(o);
			continue;
		}
		if (json_object_object_get_ex(o, "rx_pps", &v))
			(*intervals)++;
		json_object_put(last);
		last = o;
	}
	CHECK(bad == 0, "%s: %d lines are not JSON objects", what, bad);
	CHECK(last && u(last, "summary") == 1, "%s: no summary line", what);
	return last;
}

static struct json_object *run_json(const char *mode, const char *extra)
{
	char args[1024];
	struct json_object *s;
	int rc, n;

	snprintf(args, sizeof(args),
		 "%s --duration 0.4 --interval 0.1 --json %s", mode, extra);
	rc = bench(args);
	CHECK(rc == 0, "bench %s: exit %d", args, rc);
	s = parse_lines(args, &n);
	CHECK(n >= 2, "bench %s: %d interval lines", args, n);
	if (s)
		CHECK(u(s, "received") > 0, "bench %s: nothing received", args);
	return s;
}

/* received = the sum of the XDP verdicts. */
static void check_verdicts(struct json_object *s, const char *mode)
{
	uint64_t sum = u(s, "xdp.aborted") + u(s, "xdp.drop") +
		       u(s, "xdp.pass") + u(s, "xdp.tx") + u(s, "xdp.redirect");

	CHECK(u(s, "received") == sum, "%s: received %llu, verdicts %llu", mode,
	      (unsigned long long)u(s, "received"), (unsigned long long)sum);
	CHECK_EQ(u(s, "xdp.aborted"), 0);
}

static void test_basic(void)
{
	struct json_object *s;

	s = run_json("drop", "--flows 100 --touch");
	if (s) {
		check_verdicts(s, "drop");
		CHECK_EQ(u(s, "xdp.drop"), u(s, "received"));
	}
	json_object_put(s);

	s = run_json("pass", "--size 256");
	if (s) {
		check_verdicts(s, "pass");
		CHECK_EQ(u(s, "xdp.pass"), u(s, "received"));
		CHECK_EQ(u(s, "delivered") + u(s, "dev_drops"),
			 u(s, "xdp.pass"));
	}
	json_object_put(s);

	s = run_json("tx", "--workers 2 --flows 64");
	if (s) {
		check_verdicts(s, "tx");
		CHECK_EQ(u(s, "xdp.tx"), u(s, "received"));
		CHECK_EQ(u(s, "transmitted") + u(s, "dev_drops"),
			 u(s, "xdp.tx"));
	}
	json_object_put(s);
}

static void check_veth(struct json_object *s, const char *mode)
{
	check_verdicts(s, mode);
	CHECK_EQ(u(s, "xdp.redirect"), u(s, "received"));
	CHECK_EQ(u(s, "redirect_err") + u(s, "veth.xmit") +
			 u(s, "veth.xmit_err"),
		 u(s, "xdp.redirect"));
	CHECK_EQ(u(s, "veth.peer_rx"), u(s, "veth.xmit"));
	CHECK_EQ(u(s, "veth.peer_drop"), u(s, "veth.peer_rx"));
	CHECK(u(s, "veth.xmit") > 0, "%s: nothing reached veth1", mode);
}

static void test_redirect(void)
{
	struct json_object *s;
	char prog[600];

	s = run_json("redirect", "");
	if (s)
		check_veth(s, "redirect");
	json_object_put(s);

	s = run_json("redirect-map", "--load-egress");
	if (s) {
		check_veth(s, "redirect-map");
		/* The egress program ran once for each frame sent. */
		CHECK_EQ(u(s, "egress_seen"),
			 u(s, "veth.xmit") + u(s, "veth.xmit_err"));
	}
	json_object_put(s);

	/* --egress-prog: the user's devmap program on the entry; one of
	 * another type, or no object at all, is refused. */
	snprintf(prog, sizeof(prog),
		 "--egress-prog %s/bench_devmap.o:"
		 "bench_devmap_egress",
		 t_progs_dir());
	s = run_json("redirect-map", prog);
	if (s)
		check_veth(s, "redirect-map --egress-prog");
	json_object_put(s);
	snprintf(prog, sizeof(prog),
		 "redirect-map --duration 0.2 --egress-prog %s/bench_action.o",
		 t_progs_dir());
	CHECK(bench(prog) != 0, "an XDP program taken as egress program");
	CHECK(bench("redirect-map --duration 0.2 --egress-prog /nonexistent.o") !=
		      0,
	      "a missing egress object taken");
}

static void check_cpumap(struct json_object *s, const char *mode, bool pass)
{
	check_verdicts(s, mode);
	CHECK_EQ(u(s, "xdp.redirect"), u(s, "received"));
	CHECK_EQ(u(s, "redirect_err") + u(s, "cpumap.enqueued"),
		 u(s, "xdp.redirect"));
	CHECK_EQ(u(s, "cpumap.enqueue_drops") +
			 u(s, "cpumap.kthread_processed"),
		 u(s, "cpumap.enqueued"));
	CHECK_EQ(u(s, "cpumap.pass") + u(s, "cpumap.drop") +
			 u(s, "cpumap.redirect") + u(s, "cpumap.kthread_drops"),
		 u(s, "cpumap.kthread_processed"));
	/* Counted by the cpumap program on the remote worker itself. */
	CHECK_EQ(u(s, "cpumap.remote_seen"), u(s, "cpumap.pass") +
						     u(s, "cpumap.drop") +
						     u(s, "cpumap.redirect"));
	CHECK(u(s, "cpumap.kthread_processed") > 0, "%s: nothing delivered",
	      mode);
	if (pass) {
		CHECK_EQ(u(s, "cpumap.drop"), 0);
		CHECK_EQ(u(s, "tc.seen"), u(s, "cpumap.pass"));
		CHECK_EQ(u(s, "delivered"), u(s, "cpumap.pass"));
	} else {
		CHECK_EQ(u(s, "cpumap.pass"), 0);
	}
}

static void test_redirect_cpu(void)
{
	struct json_object *s;

	s = run_json("redirect-cpu", "--cpu 1");
	if (s)
		check_cpumap(s, "redirect-cpu", false);
	json_object_put(s);

	s = run_json("redirect-cpu",
		     "--cpu 0,1 --steer hash --flows 64 --remote-action pass");
	if (s)
		check_cpumap(s, "redirect-cpu hash pass", true);
	json_object_put(s);
}

/* rxhash: the per-type counts add up to what was received, under the
 * type the generator's flows carry. */
static void check_rxhash(const char *extra, const char *type)
{
	struct json_object *s = run_json("rxhash", extra), *types;
	uint64_t sum = 0;

	if (!s)
		return;
	check_verdicts(s, "rxhash");
	CHECK(json_object_object_get_ex(s, "rxhash", &types),
	      "rxhash %s: no types", extra);
	if (types) {
		json_object_object_foreach(types, k, v)
		{
			(void)k;
			sum += (uint64_t)json_object_get_uint64(v);
		}
	}
	CHECK_EQ(sum, u(s, "received"));
	CHECK_EQ(u(s, type), u(s, "received"));
	json_object_put(s);
}

static void test_rxhash(void)
{
	check_rxhash("", "rxhash.IPv4-UDP");
	check_rxhash("--notouch --proto tcp", "rxhash.IPv4-TCP");
	check_rxhash("--ipv6 --workers 2 --flows 32", "rxhash.IPv6-UDP");
}

static void test_meta(void)
{
	struct json_object *s = run_json("meta", "--flows 16");

	if (!s)
		return;
	check_verdicts(s, "meta");
	CHECK_EQ(u(s, "xdp.pass"), u(s, "received"));
	CHECK_EQ(u(s, "tc.seen"), u(s, "xdp.pass"));
	/* Every skb reached tc with the 16 bytes the XDP program wrote. */
	CHECK_EQ(u(s, "tc.meta"), u(s, "tc.seen"));
	CHECK_EQ(u(s, "delivered"), u(s, "tc.seen"));
	json_object_put(s);
}

/* --rps: every PASSed skb is steered, then delivered on its target or
 * dropped by a full backlog; the backlogs' books agree. */
static void check_rps(const char *mode, const char *extra)
{
	struct json_object *s = run_json(mode, extra);

	if (!s)
		return;
	check_verdicts(s, mode);
	CHECK_EQ(u(s, "xdp.pass"), u(s, "received"));
	CHECK_EQ(u(s, "rps.enqueued") + u(s, "rps.backlog_drops"),
		 u(s, "xdp.pass"));
	CHECK_EQ(u(s, "rps.processed"), u(s, "rps.enqueued"));
	CHECK_EQ(u(s, "delivered"), u(s, "rps.processed"));
	CHECK_EQ(u(s, "delivered") + u(s, "dev_drops"), u(s, "xdp.pass"));
	CHECK(u(s, "delivered") > 0, "%s %s: nothing delivered", mode, extra);
	if (!strcmp(mode, "meta"))
		CHECK_EQ(u(s, "tc.seen"), u(s, "delivered"));
	json_object_put(s);
}

static void test_rps(void)
{
	check_rps("pass", "--rps 1 --flows 64");
	check_rps("meta", "--rps 0,1 --flows 64");
}

static void test_pcap(void)
{
	char path[] = "/tmp/hr-bench-XXXXXX", args[512];
	uint8_t pkt[64] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 8, 0, 0x45 };
	struct pcap_pkthdr h = { .caplen = sizeof(pkt), .len = sizeof(pkt) };
	struct json_object *s;
	pcap_dumper_t *d;
	pcap_t *p;
	int fd = mkstemp(path), i, n, rc;

	CHECK(fd >= 0, "mkstemp: %s", strerror(errno));
	if (fd < 0)
		return;
	close(fd);
	p = pcap_open_dead(DLT_EN10MB, 65535);
	d = pcap_dump_open(p, path);
	for (i = 0; i < 100 && d; i++) {
		pkt[20] = (uint8_t)i;
		pcap_dump((u_char *)d, &h, pkt);
	}
	if (d)
		pcap_dump_close(d);
	pcap_close(p);
	snprintf(args, sizeof(args), "drop --pcap %s --loops 3 --json", path);
	rc = bench(args);
	CHECK_EQ(rc, 0);
	s = parse_lines(args, &n);
	if (s) {
		CHECK_EQ(u(s, "received"), 300);
		CHECK_EQ(u(s, "xdp.drop"), 300);
	}
	json_object_put(s);
	unlink(path);
}

/* No --duration: runs until SIGINT, then prints the summary, exit 0. */
static void test_sigint(void)
{
	int p[2], st = -1;
	struct timespec ts = { 0, 400000000L };
	size_t n = 0;
	ssize_t r;
	pid_t pid;

	if (pipe(p))
		return;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		execl(bin, bin, "bench", "drop", "--interval", "0.1", NULL);
		_exit(127);
	}
	close(p[1]);
	nanosleep(&ts, NULL);
	kill(pid, SIGINT);
	while ((r = read(p[0], out + n, sizeof(out) - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "SIGINT: status %d", st);
	CHECK(strstr(out, "Packets received") && strstr(out, "account:"),
	      "SIGINT: no summary in:\n%s", out);
	CHECK(strstr(out, "Summary") != NULL, "SIGINT: no interval line");
}

static void expect_usage(const char *args, const char *msg)
{
	char cmd[8192], err[4096];
	FILE *p;
	size_t n;
	int st;

	snprintf(cmd, sizeof(cmd), "%s bench %s 2>&1 >/dev/null", bin, args);
	p = popen(cmd, "r");
	if (!p)
		return;
	n = fread(err, 1, sizeof(err) - 1, p);
	err[n] = '\0';
	st = pclose(p);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2, "'%s': status %d", args,
	      st);
	CHECK(strstr(err, msg) != NULL, "'%s': '%s' not in: %s", args, msg,
	      err);
	CHECK(n > 0 && strchr(err, '\n') == err + n - 1,
	      "'%s': not one line: %s", args, err);
}

static void test_usage(void)
{
	CHECK_EQ(bench("--help"), 0);
	CHECK(strstr(out, "redirect-cpu") != NULL, "--help: no modes");
	expect_usage("nosuch", "'nosuch': not one of");
	expect_usage("drop --flows 0", "out of range 1 .. 65536");
	expect_usage("drop --size 99999999999999999999", "out of range");
	expect_usage("drop --workers 17", "out of range 1 .. 16");
	expect_usage("drop --duration -1", "out of range");
	expect_usage("drop --interval x", "not a number");
	expect_usage("drop --bogus", "'--bogus': unknown");
	expect_usage("drop --flows", "needs a value");
	expect_usage("drop --cpu 1", "only for redirect-cpu");
	expect_usage("redirect-cpu --cpu 3 --workers 2", "no such worker");
	expect_usage("redirect-cpu --steer x", "not round-robin or hash");
	expect_usage("drop --engine fast", "not interp, jit");
	expect_usage("drop --rps 1", "only for pass and meta");
	expect_usage("pass --rps 2 --workers 2", "no such worker");
	expect_usage("pass --rps 16", "out of range 0 .. 15");
}

/* bench --trace N: the first N packets, each through rx, xdp and free
 * (JSON lines with the summary after them), and only those. */
static void test_trace(void)
{
	int rc = bench("drop --count 40 --trace 3 --json"), rx = 0, xdp = 0;
	struct json_object *o, *v;
	char *line, *save = NULL;

	CHECK(rc == 0, "bench drop --trace: exit %d", rc);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		o = json_tokener_parse(line);
		if (o && json_object_object_get_ex(o, "trace", &v) &&
		    json_object_object_get_ex(o, "stage", &v)) {
			rx += !strcmp(json_object_get_string(v), "rx");
			xdp += !strcmp(json_object_get_string(v), "xdp");
		}
		json_object_put(o);
	}
	CHECK(rx == 3 && xdp == 3, "traced rx %d xdp %d, want 3 and 3", rx,
	      xdp);
	rc = bench("drop --count 10 --trace 0");
	CHECK(rc == 2, "--trace 0: exit %d", rc);
	rc = bench("drop --count 10 --trace 1 --trace-filter colour=red");
	CHECK(rc == 2, "--trace-filter colour=red: exit %d", rc);
}

int main(void)
{
	const char *b = getenv("BUILD");

	snprintf(bin, sizeof(bin), "%s/bin/headroom", b && *b ? b : "build");
	if (access(bin, X_OK)) {
		fprintf(stderr, "test_bench: %s not built\n", bin);
		CHECK(0, "no binary");
		return t_done();
	}
	test_usage();
	test_basic();
	test_redirect();
	test_redirect_cpu();
	test_rxhash();
	test_meta();
	test_rps();
	test_pcap();
	test_sigint();
	test_trace();
	return t_done();
}
