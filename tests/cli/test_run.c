// SPDX-License-Identifier: MIT
/*
 * `headroom run` as users run it. The pipeline of the issue's "done
 * when": a generator with RX hints -> XDP (hints into 16 bytes of
 * metadata, cpumap entry by RX hash) -> cpumap on two workers -> cpumap
 * program -> tc (metadata -> mark) -> a pcapng sink, checked packet by
 * packet from the trace JSON and from the pcapng read back through
 * libwiretap, and as totals from the JSON summary (the books balance).
 * Then the flag form, SIGINT, the trace filter, and config errors, each
 * of which must name its line, column and key.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <net/if.h>
#include <json-c/json.h>

#include "dev_netns.h"
#include "harness.h"
#include "kernel_side.h"
#include "dev/pcapng.h"

#define NPKT 2000
#define RUN_MAGIC 0x4e555248u

static char bin[4096], tmp[256];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL, "cannot write %s", path);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return strdup("");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

static uint64_t u64(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_uint64(v) :
						     UINT64_MAX;
}

static const char *str(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) :
						     "";
}

static uint32_t le32_hex(const char *hex)
{
	unsigned int b[4];

	if (sscanf(hex, "%2x%2x%2x%2x", &b[0], &b[1], &b[2], &b[3]) != 4)
		return 0;
	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/* What each traced packet showed at each stage. */
struct pkt_seen {
	uint32_t hash, target, cpu_worker;
	char meta[33];
	bool rx, redirected, cpumap_pass, tc_mark_ok, meta_ok, delivered, freed;
};

static struct pkt_seen seen[NPKT + 1];

static void check_trace_line(json_object *o)
{
	uint64_t id = u64(o, "trace");
	const char *stage = str(o, "stage");
	struct pkt_seen *p;

	CHECK(id >= 1 && id <= NPKT, "trace id %llu", (unsigned long long)id);
	if (id < 1 || id > NPKT)
		return;
	p = &seen[id];
	if (!strcmp(stage, "rx")) {
		p->rx = u64(o, "hash") != UINT64_MAX &&
			u64(o, "timestamp") != UINT64_MAX;
		p->hash = (uint32_t)u64(o, "hash");
	} else if (!strcmp(stage, "xdp")) {
		snprintf(p->meta, sizeof(p->meta), "%s", str(o, "meta"));
		p->target = (uint32_t)u64(o, "target");
		p->redirected = !strcmp(str(o, "verdict"), "XDP_REDIRECT") &&
				!strcmp(str(o, "target_kind"), "cpumap") &&
				p->target == p->hash % 2 &&
				le32_hex(p->meta) == p->hash &&
				le32_hex(p->meta + 24) == RUN_MAGIC;
	} else if (!strcmp(stage, "cpumap_prog")) {
		p->cpu_worker = (uint32_t)u64(o, "worker");
		p->cpumap_pass = !strcmp(str(o, "verdict"), "XDP_PASS") &&
				 !strcmp(str(o, "meta"), p->meta);
	} else if (!strcmp(stage, "tc")) {
		p->tc_mark_ok = !strcmp(str(o, "verdict"), "TC_ACT_OK") &&
				u64(o, "mark") == p->hash;
		p->meta_ok = !strcmp(str(o, "meta"), p->meta) &&
			     u64(o, "meta_len") == 16;
	} else if (!strcmp(stage, "deliver")) {
		p->delivered = u64(o, "mark") == p->hash;
	} else if (!strcmp(stage, "free")) {
		p->freed = true;
	}
}

struct ng_count {
	unsigned int n, ok;
};

/* Each delivered skb: "hr-skb: ... mark M ..." and "hr-meta: HEX" with
 * the RX hash first and the magic last; mark == that hash. */
static int ng_pkt(void *arg, const struct hr_pcapng_pkt *p)
{
	struct ng_count *c = arg;
	const char *skb = p->ncomments > 0 ? hr_pcapng_comment(p, 0) : "";
	const char *meta = p->ncomments > 1 ? hr_pcapng_comment(p, 1) : "";
	const char *m = strstr(skb, " mark ");
	unsigned long mark = m ? strtoul(m + 6, NULL, 10) : 0;

	c->n++;
	if (!strncmp(meta, "hr-meta: ", 9) && strlen(meta) == 9 + 32 &&
	    le32_hex(meta + 9) == mark &&
	    le32_hex(meta + 9 + 24) == RUN_MAGIC && p->caplen == 128)
		c->ok++;
	return 0;
}

static void test_pipeline(void)
{
	char cfg[512], out[512], ng[512], cmd[8192], text[4096];
	struct ng_count ngc = { 0 };
	unsigned int lines = 0, bad_json = 0, stats = 0, i, w[2] = { 0 };
	unsigned int full = 0;
	json_object *summary = NULL, *acc, *cms, *devs, *gen;
	char *buf, *line, *save = NULL;
	int rc;

	snprintf(cfg, sizeof(cfg), "%s/pipeline.yaml", tmp);
	snprintf(out, sizeof(out), "%s/pipeline.out", tmp);
	snprintf(ng, sizeof(ng), "%s/sink.pcapng", tmp);
	snprintf(text, sizeof(text),
		 "# the issue's pipeline\n"
		 "workers: 2\n"
		 "programs:\n"
		 "  rx:\n"
		 "    object: %s/run_rx.o:run_rx\n"
		 "    set: {ncpus: 2}\n"
		 "    cpumap:\n"
		 "      run_cpu_map:\n"
		 "        - {cpu: 0, qsize: 2048, program: remote}\n"
		 "        - {cpu: 1, qsize: 2048, program: remote}\n"
		 "  remote: %s/run_cpu.o\n"
		 "  tc: {object: %s/run_tc.o}\n"
		 "devices:\n"
		 "  gen0:\n"
		 "    kind: generator\n"
		 "    flows: 64\n"
		 "    size: 128\n"
		 "    count: %d\n"
		 "    rate: 100000\n"
		 "    hints: true\n"
		 "    queues: [0]\n"
		 "    xdp: rx\n"
		 "    tc: tc\n"
		 "    stack: sink0\n"
		 "  sink0: {kind: sink, pcap: %s}\n",
		 t_progs_dir(), t_progs_dir(), t_progs_dir(), NPKT, ng);
	write_file(cfg, text);
	snprintf(cmd, sizeof(cmd),
		 "%s run %s --json --trace %d --interval 0.01 >%s", bin, cfg,
		 NPKT, out);
	rc = t_run_cmd(cmd, NULL, 0);
	CHECK_EQ(rc, 0);
	buf = read_file(out);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		json_object *o = json_tokener_parse(line), *v;

		lines++;
		if (!o) {
			bad_json++;
			continue;
		}
		if (json_object_object_get_ex(o, "trace", &v))
			check_trace_line(o);
		else if (json_object_object_get_ex(o, "xdp_rx", &v))
			stats++;
		else if (json_object_object_get_ex(o, "account", &v))
			summary = json_object_get(o);
		json_object_put(o);
	}
	free(buf);
	CHECK(lines > NPKT * 9, "only %u lines", lines);
	CHECK_EQ(bad_json, 0);
	CHECK(stats >= 1, "no statistics line");
	for (i = 1; i <= NPKT; i++) {
		struct pkt_seen *p = &seen[i];

		if (p->rx && p->redirected && p->cpumap_pass && p->tc_mark_ok &&
		    p->meta_ok && p->delivered && p->freed &&
		    p->cpu_worker == p->target)
			full++;
		if (p->cpu_worker < 2)
			w[p->cpu_worker]++;
	}
	CHECK(full == NPKT,
	      "%u of %d packets went the whole way with "
	      "their metadata and mark",
	      full, NPKT);
	CHECK(w[0] > NPKT / 10 && w[1] > NPKT / 10,
	      "cpumap programs ran on workers %u / %u", w[0], w[1]);
	CHECK(summary != NULL, "no summary line");
	if (summary) {
		CHECK(json_object_object_get_ex(summary, "account", &acc),
		      "account");
		CHECK(json_object_get_boolean(
			      json_object_object_get(acc, "balanced")),
		      "books do not balance");
		CHECK_EQ(u64(acc, "received"), NPKT);
		CHECK_EQ(u64(acc, "delivered"), NPKT);
		cms = json_object_object_get(summary, "cpumaps");
		CHECK_EQ(json_object_array_length(cms), 2);
		for (i = 0; i < json_object_array_length(cms); i++) {
			json_object *e = json_object_array_get_idx(cms, i);

			CHECK_EQ(u64(e, "enqueued"), w[u64(e, "cpu") & 1]);
			CHECK_EQ(u64(e, "xdp_pass"), u64(e, "processed"));
		}
		devs = json_object_object_get(summary, "devices");
		gen = json_object_array_get_idx(devs, 0);
		CHECK(!strcmp(str(gen, "name"), "gen0"), "first device %s",
		      str(gen, "name"));
		CHECK_EQ(u64(gen, "xdp_redirect"), NPKT);
		json_object_put(summary);
	}
	rc = hr_pcapng_each(ng, ng_pkt, &ngc);
	CHECK_EQ(rc, 0);
	CHECK_EQ(ngc.n, NPKT);
	CHECK_EQ(ngc.ok, NPKT);
}

/* One device, one program, one sink from flags: with no cpumap entry
 * every bpf_redirect_map falls back to its flags' XDP_DROP, and the
 * books still balance. */
static void test_flags(void)
{
	char cmd[8192], out[512];
	char *buf;
	int rc;

	snprintf(out, sizeof(out), "%s/flags.out", tmp);
	snprintf(cmd, sizeof(cmd),
		 "%s run --gen --count 300 --flows 8 --xdp %s/run_rx.o --tc "
		 "%s/run_tc.o --interval 0 >%s",
		 bin, t_progs_dir(), t_progs_dir(), out);
	rc = t_run_cmd(cmd, NULL, 0);
	CHECK_EQ(rc, 0);
	buf = read_file(out);
	CHECK(strstr(buf, "account: received 300 = XDP drop 300 + aborted 0 + "
			  "drops 0") &&
		      strstr(buf, "the books balance"),
	      "flags run: %s", buf);
	free(buf);
	/* The trace filter: packets 11, 13, 15 of the candidates. */
	snprintf(cmd, sizeof(cmd),
		 "%s run --gen --count 100 --xdp %s/run_rx.o --interval 0 "
		 "--trace 3 --trace-filter skip=10,every=2,dev=gen0 | grep -c "
		 "'^trace .* rx '",
		 bin, t_progs_dir());
	snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), " >%s", out);
	t_run_cmd(cmd, NULL, 0);
	buf = read_file(out);
	CHECK(atoi(buf) == 3, "filtered trace: %s rx lines", buf);
	free(buf);
}

/* rps: the generator's queue on worker 0 steers its skbs to worker 1;
 * every packet is delivered there or dropped by a full backlog, and the
 * books balance. */
static void test_rps_config(void)
{
	char cfg[512], out[512], cmd[8192], text[1024];
	char *buf;
	int rc;

	snprintf(cfg, sizeof(cfg), "%s/rps.yaml", tmp);
	snprintf(out, sizeof(out), "%s/rps.out", tmp);
	snprintf(text, sizeof(text),
		 "workers: 2\n"
		 "devices:\n"
		 "  gen0: {kind: generator, flows: 64, count: 3000, "
		 "queues: [0], rps: [1], stack: sink0}\n"
		 "  sink0: {kind: sink}\n");
	write_file(cfg, text);
	snprintf(cmd, sizeof(cmd), "%s run %s --interval 0 >%s", bin, cfg, out);
	rc = t_run_cmd(cmd, NULL, 0);
	CHECK_EQ(rc, 0);
	buf = read_file(out);
	CHECK(strstr(buf, "account: received 3000 = XDP drop 0 + aborted 0") &&
		      strstr(buf, "the books balance"),
	      "rps run: %s", buf);
	free(buf);
}

/* SIGINT ends an endless generator cleanly, with the summary. */
static void test_sigint(void)
{
	char cmd[8192], out[512];
	char *buf;
	int rc;

	snprintf(out, sizeof(out), "%s/sigint.out", tmp);
	snprintf(cmd, sizeof(cmd),
		 "%s run --gen --rate 20000 --xdp %s/run_rx.o --interval 0.2 "
		 "--json >%s & pid=$!; sleep 0.7; kill -INT $pid; wait $pid",
		 bin, t_progs_dir(), out);
	rc = t_run_cmd(cmd, NULL, 0);
	CHECK_EQ(rc, 0);
	buf = read_file(out);
	CHECK(strstr(buf, "\"balanced\":true") != NULL,
	      "no balanced summary after SIGINT: %.300s", buf);
	free(buf);
}

/*
 * A real interface from the config: a TAP the run creates, the frames the
 * kernel sends on it received and dropped by XDP, the TAP gone after. The
 * frames are written to the TAP from the kernel side with AF_PACKET, in a
 * namespace with IPv6 off so that they are the only ones.
 */
static int tap_run(const char *cmd, const char *ifname)
{
	int i, st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (!pid) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 100 && !if_nametoindex(ifname); i++)
		usleep(20000);
	CHECK(if_nametoindex(ifname) > 0, "the run made no TAP %s", ifname);
	CHECK_EQ(dv_send_frames(ifname, 5, 0x0800), 0);
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_tap_config(void)
{
	char cfg[512], out[512], cmd[8192], ifname[16], text[1024], ns[32];
	char *buf;
	int rc;

	if (geteuid()) {
		printf("note: no TAP config test (not root)\n");
		return;
	}
	/* In a namespace with IPv6 off the kernel sends nothing of its own
	 * on the TAP: the 5 frames are all there is. */
	if (dv_ns_add("tap", ns) || dv_ns_enter(ns)) {
		CHECK(0, "namespace for the TAP config");
		return;
	}
	snprintf(ifname, sizeof(ifname), "hrrun%d", (int)getpid() % 100000);
	snprintf(cfg, sizeof(cfg), "%s/tap.yaml", tmp);
	snprintf(out, sizeof(out), "%s/tap.out", tmp);
	snprintf(text, sizeof(text),
		 "duration: 1.5\ninterval: 0\ndevices:\n  t0:\n"
		 "    kind: tap\n    ifname: %s\n    xdp: %s/bench_drop.o\n",
		 ifname, t_progs_dir());
	write_file(cfg, text);
	snprintf(cmd, sizeof(cmd), "exec %s run %s >%s", bin, cfg, out);
	rc = tap_run(cmd, ifname);
	CHECK_EQ(rc, 0);
	buf = read_file(out);
	CHECK(buf && strstr(buf, "the books balance"), "tap run: %s",
	      buf ? buf : "");
	{
		const char *p = buf ? strstr(buf, "account: received ") : NULL;
		unsigned long got = p ? strtoul(p + 18, NULL, 10) : 0;

		CHECK(got == 5, "TAP frames received: %lu of 5 sent (%s)", got,
		      buf ? buf : "");
	}
	free(buf);
	snprintf(cmd, sizeof(cmd), "ip link show %s >/dev/null 2>&1", ifname);
	CHECK(t_run_cmd(cmd, NULL, 0) != 0, "TAP %s left behind", ifname);
	CHECK_EQ(dv_ns_enter(NULL), 0);
	dv_cleanup();
	/* A real interface needs its name. */
	write_file(cfg, "devices:\n  t0: {kind: afxdp}\n");
	snprintf(cmd, sizeof(cmd), "%s run %s 2>%s", bin, cfg, out);
	CHECK_EQ(t_run_cmd(cmd, NULL, 0), 2);
	buf = read_file(out);
	CHECK(buf && strstr(buf, "tap.yaml:2:") &&
		      strstr(buf, "expected key 'ifname'"),
	      "afxdp without ifname: %s", buf ? buf : "");
	free(buf);
}

#define IFACE_FRAMES 10

/* In the test's namespace: IFACE_FRAMES frames on @arg, the kernel's end
 * of a veth pair. */
static int send_on(void *arg)
{
	return dv_send_frames(arg, IFACE_FRAMES, 0x88b5) ? 1 : 0;
}

/* "  NAME  rx N ..." of the summary: N, or -1. */
static long summary_rx(const char *out, const char *name)
{
	const char *p = out ? strstr(out, "summary after") : NULL;
	char key[32];
	size_t n = (size_t)snprintf(key, sizeof(key), "\n  %s ", name);

	p = p ? strstr(p, key) : NULL;
	if (!p)
		return -1;
	p += n;
	while (*p == ' ')
		p++;
	return strncmp(p, "rx ", 3) ? -1 : strtol(p + 3, NULL, 10);
}

/*
 * A config with an afxdp and an afpacket device, each on a veth of a
 * namespace of the test's own (IPv6 off, so the kernel sends nothing of
 * its own on them). Once the first statistics line shows the workers
 * running, IFACE_FRAMES frames go in on each peer: each device receives
 * exactly those, the books balance, and the afxdp device's kernel
 * program is gone from its veth after the run.
 */
static void test_iface_config(void)
{
	char ns[32], cfg[512], cmd[8192], text[1024], line[512];
	char *out = NULL;
	size_t len = 0;
	FILE *f, *mem;
	int st, ready = 0;

	if (geteuid()) {
		printf("note: no afxdp/afpacket config test (not root)\n");
		CHECK(!getenv("HEADROOM_REQUIRE_KERNEL") ||
			      strcmp(getenv("HEADROOM_REQUIRE_KERNEL"), "1"),
		      "skipped under HEADROOM_REQUIRE_KERNEL=1");
		return;
	}
	if (dv_ns_add("run", ns) ||
	    t_sh("ip -n %s link add rxa type veth peer name rxb && "
		 "ip -n %s link add rpa type veth peer name rpb && "
		 "for l in rxa rxb rpa rpb; do ip -n %s link set $l up "
		 "|| exit 1; done",
		 ns, ns, ns)) {
		CHECK(0, "namespace and veths for the interface config");
		return;
	}
	snprintf(cfg, sizeof(cfg), "%s/ifaces.yaml", tmp);
	snprintf(text, sizeof(text),
		 "duration: 3\ninterval: 0.2\ndevices:\n"
		 "  x0: {kind: afxdp, ifname: rxa, xdp: %s/bench_drop.o}\n"
		 "  p0: {kind: afpacket, ifname: rpa, xdp: %s/bench_drop.o}\n",
		 t_progs_dir(), t_progs_dir());
	write_file(cfg, text);
	snprintf(cmd, sizeof(cmd), "exec ip netns exec %s %s run %s 2>&1", ns,
		 bin, cfg);
	fflush(NULL);
	f = popen(cmd, "r");
	mem = open_memstream(&out, &len);
	if (!f || !mem) {
		CHECK(0, "popen %s: %s", cmd, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		fputs(line, mem);
		/* The baseline statistics come after the workers started. */
		if (!ready && strstr(line, "XDP-RX")) {
			ready = 1;
			CHECK_EQ(dv_wait(dv_fork_in(ns, send_on, "rxb")), 0);
			CHECK_EQ(dv_wait(dv_fork_in(ns, send_on, "rpb")), 0);
		}
	}
	st = pclose(f);
	fclose(mem);
	CHECK(ready, "no statistics line: %s", out ? out : "");
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "run exited %#x: %s", st,
	      out ? out : "");
	CHECK(out && strstr(out, "the books balance"), "books: %s",
	      out ? out : "");
	CHECK(summary_rx(out, "x0") == IFACE_FRAMES,
	      "afxdp x0 received %ld of %d: %s", summary_rx(out, "x0"),
	      IFACE_FRAMES, out ? out : "");
	CHECK(summary_rx(out, "p0") == IFACE_FRAMES,
	      "afpacket p0 received %ld of %d: %s", summary_rx(out, "p0"),
	      IFACE_FRAMES, out ? out : "");
	CHECK(!dv_link_has_xdp(ns, "rxa"), "XDP left on rxa after the run");
	free(out);
	dv_cleanup();
}

struct bad_cfg {
	const char *text;
	const char *expect; /* in stderr, after "FILE:" */
};

static void test_config_errors(void)
{
	static const struct bad_cfg cases[] = {
		{ "workers: 2\nwrokers: 3\ndevices: {}\n",
		  ":2:1: (top level): unknown key 'wrokers'" },
		{ "devices:\n  gen0:\n    kind: generator\n    flows: many\n",
		  ":4:12: key 'flows': expected an integer 1..16777216, got 'many'" },
		{ "devices:\n  gen0:\n    flows: 3\n",
		  ":3:5: device 'gen0': expected key 'kind'" },
		{ "devices:\n  gen0: {kind: generator, xdp: nothere}\n",
		  ":2:32: key 'xdp': no program 'nothere' in 'programs'" },
		{ "devices:\n  gen0: {kind: generator\n",
		  ":3:1: while parsing a flow mapping" },
		{ "devices:\n  gen0:\n    kind: router\n",
		  ":3:11: key 'kind': expected generator, pcap, veth, sink, afxdp, afpacket or tap, got 'router'" },
		{ "devices:\n  gen0: {kind: generator, stack: gen0}\n",
		  ":2:34: key 'stack': expected the name of a sink device, got 'gen0'" },
		{ "workers: 2\nprograms:\n  rx:\n    object: @RX@\n    cpumap:\n"
		  "      run_cpu_map:\n        - {cpu: 5}\n"
		  "devices:\n  gen0: {kind: generator, xdp: rx}\n",
		  ":7:11: cpumap entry: key 'cpu': 5, but there are 2 workers" },
		{ "programs:\n  rx: @RX@\ndevices:\n  gen0: {kind: generator, tc: rx}\n",
		  ":4:31: key 'tc': program 'rx' is of type xdp, expected tc" },
		{ "devices:\n  gen0: {kind: generator, rps: [5]}\n",
		  ":2:32: device 'gen0': key 'rps': queue 0: Invalid argument (workers: 1)" },
		{ "devices:\n  gen0: {kind: generator, rps: 1}\n",
		  ":2:32: key 'rps': expected a list of workers, got a scalar" },
		{ "programs:\n  rx: {colour: red, object: @RX@}\n"
		  "devices:\n  gen0: {kind: generator}\n",
		  ":2:8: rx: unknown key 'colour' (expected object, set, map_sizes, maps, cpumap, devmap)" },
	};
	char cfg[512], err[512], cmd[8192], text[2048], rx[1024];
	unsigned int i;

	snprintf(rx, sizeof(rx), "%s/run_rx.o", t_progs_dir());
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *at = strstr(cases[i].text, "@RX@");
		char want[1024], *msg;
		int rc;

		if (at)
			snprintf(text, sizeof(text), "%.*s%s%s",
				 (int)(at - cases[i].text), cases[i].text, rx,
				 at + 4);
		else
			snprintf(text, sizeof(text), "%s", cases[i].text);
		snprintf(cfg, sizeof(cfg), "%s/bad%u.yaml", tmp, i);
		snprintf(err, sizeof(err), "%s/bad%u.err", tmp, i);
		write_file(cfg, text);
		snprintf(cmd, sizeof(cmd), "%s run %s >/dev/null 2>%s", bin,
			 cfg, err);
		rc = t_run_cmd(cmd, NULL, 0);
		msg = read_file(err);
		snprintf(want, sizeof(want), "%s%s", cfg, cases[i].expect);
		CHECK(rc == 2 && strstr(msg, want),
		      "case %u: exit %d, stderr '%s', want '%s'", i, rc, msg,
		      want);
		free(msg);
	}
}

/* Bad flag values: one line naming the value and the reason, exit 2. */
static void test_bad_flags(void)
{
	static const char *const args[][2] = {
		{ "--gen --count -1", "--count '-1': not a number" },
		{ "--gen --trace 0", "--trace '0': out of range 1..1048576" },
		{ "--gen --flows 99999999999",
		  "--flows '99999999999': out of range" },
		{ "--gen --duration x", "--duration 'x': want seconds" },
		{ "--gen --engine fast",
		  "--engine 'fast': want interp, jit or jit-checked" },
		{ "", "want CONFIG, or one of --gen and --pcap FILE" },
	};
	char cmd[8192], err[512];
	unsigned int i;

	snprintf(err, sizeof(err), "%s/flag.err", tmp);
	for (i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		char *msg;
		int rc;

		snprintf(cmd, sizeof(cmd), "%s run %s >/dev/null 2>%s", bin,
			 args[i][0], err);
		rc = t_run_cmd(cmd, NULL, 0);
		msg = read_file(err);
		CHECK(rc == 2 && strstr(msg, args[i][1]) &&
			      strchr(msg, '\n') == msg + strlen(msg) - 1,
		      "'%s': exit %d, stderr '%s'", args[i][0], rc, msg);
		free(msg);
	}
}

int main(void)
{
	const char *b = getenv("BUILD");
	char cmd[512];

	snprintf(bin, sizeof(bin), "%s/bin/headroom", b && *b ? b : "build");
	if (access(bin, X_OK)) {
		CHECK(0, "%s not built", bin);
		return t_done();
	}
	snprintf(tmp, sizeof(tmp), "/tmp/hr-run-test-XXXXXX");
	if (!mkdtemp(tmp)) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return t_done();
	}
	test_pipeline();
	test_flags();
	test_rps_config();
	test_sigint();
	test_tap_config();
	test_iface_config();
	test_config_errors();
	test_bad_flags();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	CHECK(system(cmd) == 0, "cleanup");
	return t_done();
}
