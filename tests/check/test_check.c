// SPDX-License-Identifier: MIT
/*
 * headroom check against the labelled verifier corpus (tests/verifier/):
 * every bad_* program is predicted rejected and every ok_* twin accepted,
 * without the kernel; with the kernel, its own verdict on each agrees with
 * the label and its log's error line is the one headroom printed, at the
 * same instruction. Then the command line: exit codes 0/5/1/2, the source
 * line in the text output and one JSON object a program with --json.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "check/check.h"
#include "harness.h"
#include "kernel_side.h"
#include "headroom/object.h"
#include "progs/prog.h"

static char vdir[4096], bin[4096];

/* tests/verifier/EXPECTED (scripts/verifier-record.sh): the kernel's
 * verdict, line and error line for each program, recorded. */
struct expected {
	char obj[64], prog[64], verdict[16], insn[16], where[128], reason[256];
};
static struct expected expected[512];
static unsigned int n_expected, n_expected_met, n_line_same;

static void load_expected(void)
{
	char line[1024];
	FILE *f = fopen("tests/verifier/EXPECTED", "r");

	CHECK(f != NULL, "tests/verifier/EXPECTED: %s", strerror(errno));
	while (f && fgets(line, sizeof(line), f) && n_expected < 512) {
		struct expected *e = &expected[n_expected];

		if (line[0] == '#')
			continue;
		line[strcspn(line, "\n")] = 0;
		if (sscanf(line,
			   "%63[^\t]\t%63[^\t]\t%15[^\t]\t%15[^\t]\t%127[^\t]"
			   "\t%255[^\n]",
			   e->obj, e->prog, e->verdict, e->insn, e->where,
			   e->reason) == 6)
			n_expected++;
	}
	if (f)
		fclose(f);
}

static const struct expected *find_expected(const char *path, const char *prog)
{
	const char *base = strrchr(path, '/');
	unsigned int i;

	base = base ? base + 1 : path;
	for (i = 0; i < n_expected; i++)
		if (!strcmp(expected[i].obj, base) &&
		    !strcmp(expected[i].prog, prog))
			return &expected[i];
	return NULL;
}

/* The prediction against the recorded kernel verdict: same verdict, and
 * for a rejection the same error line at the same source line. */
static void check_expected(const char *path, const char *name,
			   const struct hr_check_result *pr)
{
	const struct expected *e = find_expected(path, name);
	char where[300];

	CHECK(e != NULL,
	      "%s:%s not in tests/verifier/EXPECTED (run "
	      "scripts/verifier-record.sh)",
	      path, name);
	if (!e)
		return;
	n_expected_met++;
	CHECK(!strcmp(e->verdict, hr_check_verdict_str(pr->verdict)),
	      "%s:%s predicted %s, recorded kernel %s", path, name,
	      hr_check_verdict_str(pr->verdict), e->verdict);
	if (pr->verdict != HR_CHECK_REJECT || strcmp(e->verdict, "reject"))
		return;
	CHECK(!strcmp(e->reason, pr->reason),
	      "%s:%s: recorded '%s', "
	      "predicted '%s'",
	      path, name, e->reason, pr->reason);
	/* The instruction, exactly; the kernel's log may annotate it with
	 * the source line it walked last rather than the insn's own. */
	snprintf(where, sizeof(where), "%d", pr->insn);
	CHECK(!strcmp(e->insn, "-") || !strcmp(e->insn, where),
	      "%s:%s: recorded insn %s, predicted %s", path, name, e->insn,
	      where);
	/* And that source line: the one the kernel's log shows last before
	 * the error ("-": the error comes before any line is printed). */
	if (pr->line)
		snprintf(where, sizeof(where), "%s:%u", pr->file, pr->line);
	else
		snprintf(where, sizeof(where), "-");
	n_line_same += !strcmp(e->where, where);
	CHECK(!strcmp(e->where, where),
	      "%s:%s: recorded kernel line %s, predicted %s", path, name,
	      e->where, where);
}
static bool have_kernel;
static unsigned int n_progs, n_kernel, n_reason_same;

static void check_prog(const char *path, const char *name)
{
	struct hr_object_open_opts oo = { .sz = sizeof(oo) };
	struct hr_check_result pr, kr;
	struct hr_object *obj = NULL;
	bool bad = !strncmp(name, "bad_", 4);
	bool dev_bound = strstr(name, "devbound_ok") != NULL;
	struct hr_prog *prog;
	char err[512] = "";

	oo.only_prog = name;
	memset(&pr, 0, sizeof(pr));
	pr.insn = -1;
	oo.errbuf = err;
	oo.errbuf_sz = sizeof(err);
	hr_object_open(path, &oo, &obj);
	prog = obj ? hr_object_find_prog(obj, name) : NULL;
	if (!prog) {
		/* headroom's loader refuses what the kernel refuses at load
		 * (a context field, r10, a helper id): a rejection too. */
		CHECK(bad, "%s:%s: headroom's loader refused an ok_ twin: %s",
		      path, name, err);
		hr_check_from_load_error(err, !strstr(err, "section 'tc"), &pr);
		hr_check_set_line(path, name, &pr);
	} else {
		CHECK_EQ(hr_check_predict_at(path, prog, dev_bound, &pr), 0);
	}
	n_progs++;
	CHECK(pr.verdict == (bad ? HR_CHECK_REJECT : HR_CHECK_ACCEPT),
	      "%s:%s predicted %s (%s)", path, name,
	      hr_check_verdict_str(pr.verdict), pr.reason);
	if (bad && pr.verdict == HR_CHECK_REJECT)
		CHECK(pr.reason[0] && pr.insn >= 0,
		      "%s:%s: a rejection names reason and insn (%s insn %d)",
		      path, name, pr.reason, pr.insn);
	check_expected(path, name, &pr);
	if (!have_kernel)
		goto out;
	memset(&kr, 0, sizeof(kr));
	CHECK_EQ(hr_check_kernel(path, name, dev_bound, &kr, NULL), 0);
	n_kernel++;
	CHECK(kr.verdict == (bad ? HR_CHECK_REJECT : HR_CHECK_ACCEPT),
	      "%s:%s: the kernel says %s (%s): the label is wrong", path, name,
	      hr_check_verdict_str(kr.verdict), kr.reason);
	if (bad && kr.verdict == HR_CHECK_REJECT &&
	    pr.verdict == HR_CHECK_REJECT) {
		CHECK(!strcmp(kr.reason, pr.reason),
		      "%s:%s: kernel '%s', headroom '%s'", path, name,
		      kr.reason, pr.reason);
		CHECK(kr.insn < 0 || kr.insn == pr.insn,
		      "%s:%s: kernel insn %d, headroom %d", path, name, kr.insn,
		      pr.insn);
		n_reason_same += !strcmp(kr.reason, pr.reason);
	}
out:
	hr_object_close(obj);
}

/* Each program of the object, by the names libbpf sees in .symtab. */
static void check_object(const char *file)
{
	char path[8192], cmd[16384], out[1 << 14], *line, *save;
	bool any_bad = false;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", vdir, file);
	/* The CLI's JSON gives the program names; one object a line. */
	snprintf(cmd, sizeof(cmd), "%s check --json '%s' 2>/dev/null", bin,
		 path);
	rc = t_run_cmd(cmd, out, sizeof(out));
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct json_object *j = json_tokener_parse(line), *v;

		CHECK(j != NULL, "%s: --json line is JSON: %s", file, line);
		if (!j)
			continue;
		if (json_object_object_get_ex(j, "program", &v)) {
			check_prog(path, json_object_get_string(v));
			any_bad |=
				!strncmp(json_object_get_string(v), "bad_", 4);
		} else
			CHECK(0, "%s: no name in %s", file, line);
		json_object_put(j);
	}
	CHECK(rc == (any_bad ? 5 : 0), "%s: exit %d", file, rc);
}

/*
 * The tree's own objects (build/progs) against the kernel, through the
 * command line: a predicted verdict is never the wrong one (no false
 * rejection, no accept of what the kernel rejects, a rejection's reason
 * the kernel's); "unknown" is allowed and counted.
 */
static void check_progs_dir(void)
{
	static char out[1 << 16];
	unsigned int n[3][2] = { { 0 } }; /* [ours][kernel accept/reject] */
	unsigned int host = 0;
	char cmd[16384], *line, *save;
	struct dirent *de;
	DIR *d = opendir(t_progs_dir());

	CHECK(d != NULL, "%s", t_progs_dir());
	while (d && (de = readdir(d))) {
		if (!strstr(de->d_name, ".o"))
			continue;
		snprintf(cmd, sizeof(cmd),
			 "%s check --json --kernel '%s/%s' "
			 "2>/dev/null",
			 bin, t_progs_dir(), de->d_name);
		t_run_cmd(cmd, out, sizeof(out));
		for (line = strtok_r(out, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			struct json_object *j = json_tokener_parse(line);
			struct json_object *v, *kv, *r, *kr;
			const char *ours, *ks;
			int o, k;

			if (!j)
				continue;
			if (!json_object_object_get_ex(j, "verdict", &v) ||
			    !json_object_object_get_ex(j, "kernel_verdict",
						       &kv) ||
			    !json_object_get_string(kv)) {
				json_object_put(j);
				continue;
			}
			ours = json_object_get_string(v);
			ks = json_object_get_string(kv);
			json_object_object_get_ex(j, "reason", &r);
			json_object_object_get_ex(j, "kernel_reason", &kr);
			/* A host difference (kernel_side.h): the kernel's
			 * verdict is not 6.18's. */
			if (!strcmp(ks, "reject") &&
			    t_host_refusal_line(json_object_get_string(kr))) {
				host++;
				json_object_put(j);
				continue;
			}
			o = !strcmp(ours, "accept") ? 0 :
			    !strcmp(ours, "reject") ? 1 :
						      2;
			k = !strcmp(ks, "reject");
			n[o][k]++;
			CHECK(o == 2 || o == k, "%s: predicted %s, kernel %s",
			      line, ours, ks);
			if (o == 1 && k)
				CHECK(!strcmp(json_object_get_string(r),
					      json_object_get_string(kr)),
				      "%s: another reason than the kernel's",
				      line);
			json_object_put(j);
		}
	}
	if (d)
		closedir(d);
	printf("build/progs: kernel accepts %u: predicted accept %u, unknown "
	       "%u, reject %u; kernel rejects %u: predicted reject %u (same "
	       "reason), unknown %u, accept %u\n",
	       n[0][0] + n[1][0] + n[2][0], n[0][0], n[2][0], n[1][0],
	       n[0][1] + n[1][1] + n[2][1], n[1][1], n[2][1], n[0][1]);
	if (host)
		printf("build/progs: %u programs not compared: %s\n", host,
		       t_host_note());
	CHECK(n[0][0] > 0 && n[1][1] > 0, "both verdicts met");
}

static void check_cli(void)
{
	char cmd[16384], out[1 << 14];

	snprintf(cmd, sizeof(cmd), "%s check %s/pkt_nocheck.o:ok_pkt_nocheck",
		 bin, vdir);
	CHECK_EQ(t_run_cmd(cmd, out, sizeof(out)), 0);
	CHECK(strstr(out, "ok_pkt_nocheck (xdp): accept") != NULL, "%s", out);
	snprintf(cmd, sizeof(cmd), "%s check %s/pkt_nocheck.o:bad_pkt_nocheck",
		 bin, vdir);
	CHECK_EQ(t_run_cmd(cmd, out, sizeof(out)), 5);
	CHECK(strstr(out, "pkt_nocheck.bpf.c:8") &&
		      strstr(out, "invalid access to packet, off=12 size=1"),
	      "the rejection names file:line, offset and size: %s", out);
	snprintf(cmd, sizeof(cmd), "%s check /nonexistent/x.o 2>&1", bin);
	CHECK_EQ(t_run_cmd(cmd, out, sizeof(out)), 1);
	CHECK(strstr(out, "/nonexistent/x.o") != NULL, "%s", out);
	snprintf(cmd, sizeof(cmd), "%s check --bogus 2>&1", bin);
	CHECK_EQ(t_run_cmd(cmd, out, sizeof(out)), 2);
	snprintf(cmd, sizeof(cmd), "%s check %s/pkt_nocheck.o:no_such 2>&1",
		 bin, vdir);
	CHECK(t_run_cmd(cmd, out, sizeof(out)) != 0 && strstr(out, "no_such"),
	      "an unknown program is named: %s", out);
	/* An object this libbpf cannot open (an extern without BTF): the
	 * programs come from headroom's loader, the kernel side says why. */
	snprintf(cmd, sizeof(cmd), "%s check --json %s/xdp_trap.o 2>&1", bin,
		 t_progs_dir());
	CHECK(t_run_cmd(cmd, out, sizeof(out)) == 6 &&
		      strstr(out, "\"program\":\"xdp_trap\""),
	      "xdp_trap.o checked through headroom's loader: %s", out);
	if (have_kernel) {
		snprintf(cmd, sizeof(cmd),
			 "%s check --kernel %s/xdp_trap.o 2>&1", bin,
			 t_progs_dir());
		t_run_cmd(cmd, out, sizeof(out));
		CHECK(strstr(out, "kernel: no verdict: libbpf: ") != NULL,
		      "libbpf's refusal is named: %s", out);
	}
}

int main(void)
{
	const char *b = getenv("BUILD");
	char why[256];
	struct dirent *de;
	DIR *d;

	snprintf(vdir, sizeof(vdir), "%s/verifier", b && *b ? b : "build");
	snprintf(bin, sizeof(bin), "%s/bin/headroom", b && *b ? b : "build");
	have_kernel = t_have_kernel(why, sizeof(why));
	if (!have_kernel)
		printf("note: no kernel verdicts (%s)\n", why);
	load_expected();
	d = opendir(vdir);
	CHECK(d != NULL, "%s: %s", vdir, strerror(errno));
	while (d && (de = readdir(d)))
		if (strstr(de->d_name, ".o"))
			check_object(de->d_name);
	if (d)
		closedir(d);
	CHECK(n_progs >= 60, "the corpus holds %u programs (at least 60)",
	      n_progs);
	CHECK_EQ(n_expected_met, n_progs);
	check_cli();
	if (have_kernel)
		check_progs_dir();
	printf("headroom check: %u programs predicted as labelled; kernel "
	       "verdicts %u, same error line on %u rejections; the recorded "
	       "kernel source line on %u\n",
	       n_progs, n_kernel, n_reason_same, n_line_same);
	if (!have_kernel)
		return t_skip(why);
	return t_done();
}
