// SPDX-License-Identifier: MIT
/*
 * The bpf_conformance suite (../shared/conformance) under the interpreter
 * in-process, and through headroom-conformance-plugin under each engine
 * (--interpret, --jit) as the official runner drives it.
 *
 * Every file in tests/ must give its `-- result` (or fail, when it has an
 * `-- error` section); every file in negative/ must not pass: assembly or
 * validation error, aborted run, or a wrong r0. Each file is one check.
 * Every assembled program also round-trips through the disassembler.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm/asm.h"
#include "vm/conformance.h"
#include "vm/disasm.h"
#include "harness.h"

#define MAX_BYTES 65536

struct conf_test {
	char *asm_text;
	size_t asm_len;
	uint8_t raw[MAX_BYTES];
	size_t raw_len;
	bool has_raw;
	uint8_t mem[MAX_BYTES];
	size_t mem_len;
	bool has_result;
	uint64_t result;
	bool has_error;
	char error[256];
};

enum section { SEC_NONE, SEC_ASM, SEC_RAW, SEC_MEM, SEC_RESULT, SEC_ERROR };

static enum section section_of(const char *line)
{
	static const struct {
		const char *name;
		enum section sec;
	} names[] = {
		{ "asm", SEC_ASM },	{ "raw", SEC_RAW },
		{ "mem", SEC_MEM },	{ "result", SEC_RESULT },
		{ "error", SEC_ERROR },
	};
	unsigned int i;

	line += 2;
	while (*line == ' ')
		line++;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(line, names[i].name))
			return names[i].sec;
	return SEC_NONE; /* "-- c", "-- no register offset": ignored */
}

static int append_asm(struct conf_test *t, const char *line)
{
	size_t len = strlen(line);
	char *p = realloc(t->asm_text, t->asm_len + len + 2);

	if (!p)
		return -ENOMEM;
	t->asm_text = p;
	memcpy(p + t->asm_len, line, len);
	t->asm_len += len;
	p[t->asm_len++] = '\n';
	p[t->asm_len] = '\0';
	return 0;
}

static int hex_bytes(const char *line, uint8_t *buf, size_t *len)
{
	char *end;

	for (;;) {
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line)
			return 0;
		if (*len >= MAX_BYTES)
			return -E2BIG;
		buf[(*len)++] = (uint8_t)strtoul(line, &end, 16);
		if (end == line)
			return -EINVAL;
		line = end;
	}
}

/*
 * `-- raw` holds either one 64-bit little-endian instruction a token
 * ("0x5566778800000018") or its eight bytes ("18 00 00 00 ...").
 */
static int raw_tokens(const char *line, struct conf_test *t)
{
	unsigned long long v;
	char *end;
	size_t n;

	for (;;) {
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line)
			return 0;
		v = strtoull(line, &end, 16);
		if (end == line)
			return -EINVAL;
		n = (size_t)(end - line);
		if (n > 2 && line[0] == '0' &&
		    (line[1] == 'x' || line[1] == 'X'))
			n -= 2;
		if (t->raw_len + 8 > MAX_BYTES)
			return -E2BIG;
		if (n > 2) {
			memcpy(&t->raw[t->raw_len], &v, 8);
			t->raw_len += 8;
		} else {
			t->raw[t->raw_len++] = (uint8_t)v;
		}
		line = end;
	}
}

static int parse_line(struct conf_test *t, enum section sec, char *line)
{
	char *p = line;

	if (sec == SEC_ASM)
		return append_asm(t, line);
	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	switch (sec) {
	case SEC_RAW:
		t->has_raw = true;
		return raw_tokens(p, t);
	case SEC_MEM:
		return hex_bytes(p, t->mem, &t->mem_len);
	case SEC_RESULT:
		t->has_result = true;
		t->result = strtoull(p, NULL, strstr(p, "0x") ? 16 : 10);
		return 0;
	case SEC_ERROR:
		snprintf(t->error, sizeof(t->error), "%s", p);
		return 0;
	default:
		return 0;
	}
}

static int parse_file(const char *path, struct conf_test *t)
{
	enum section sec = SEC_NONE;
	char line[1024];
	size_t len;
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	while (!err && fgets(line, sizeof(line), f)) {
		len = strlen(line);
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!strncmp(line, "--", 2)) {
			sec = section_of(line);
			if (sec == SEC_ERROR)
				t->has_error = true;
			continue;
		}
		err = parse_line(t, sec, line);
	}
	fclose(f);
	return err;
}

/* The program of @t: `-- raw` when given (the suite's rule), else asm. */
static int program_of(const struct conf_test *t, struct hr_insn **insns,
		      uint32_t *cnt, char *err, size_t errsz)
{
	if (t->has_raw) {
		if (t->raw_len % 8 || !t->raw_len) {
			snprintf(err, errsz,
				 "raw section is not whole "
				 "instructions");
			return -EINVAL;
		}
		*insns = malloc(t->raw_len);
		if (!*insns)
			return -ENOMEM;
		memcpy(*insns, t->raw, t->raw_len);
		*cnt = (uint32_t)(t->raw_len / 8);
		return 0;
	}
	if (!t->asm_text) {
		snprintf(err, errsz, "no program");
		return -EINVAL;
	}
	return hr_asm(t->asm_text, insns, cnt, err, errsz);
}

/* asm(disasm(x)) == x; returns false with @err on a mismatch. */
static bool round_trip(const struct hr_insn *insns, uint32_t cnt, char *err,
		       size_t errsz)
{
	size_t cap = (size_t)cnt * 128 + 1, used = 0;
	char *text = malloc(cap), line[128];
	struct hr_insn *back = NULL;
	uint32_t pc = 0, n = 0;
	bool ok = false;

	if (!text)
		return false;
	while (pc < cnt) {
		pc += hr_disasm_insn2(&insns[pc],
				      pc + 1 < cnt ? &insns[pc + 1] : NULL,
				      line, sizeof(line));
		used += snprintf(text + used, cap - used, "%s\n", line);
	}
	if (hr_asm(text, &back, &n, err, errsz) == 0) {
		ok = n == cnt && !memcmp(back, insns, cnt * sizeof(*insns));
		if (!ok)
			snprintf(err, errsz,
				 "disassembly reassembles "
				 "differently");
	}
	free(back);
	free(text);
	return ok;
}

struct outcome {
	bool ok; /* assembled, valid, ran to the end */
	bool invalid; /* hr_prog_validate() rejected it */
	uint64_t r0;
	char err[512];
};

static void run_test(const struct conf_test *t, struct outcome *o,
		     bool check_round_trip, const char *name)
{
	struct hr_insn *insns = NULL, *from_asm = NULL;
	uint32_t cnt = 0, n = 0;
	char err[256];
	uint8_t mem[MAX_BYTES];
	int rc;

	o->ok = false;
	o->invalid = false;
	o->err[0] = '\0';
	if (program_of(t, &insns, &cnt, o->err, sizeof(o->err)))
		goto out;
	/* Files with both forms: the assembler must give the raw bytes. */
	if (t->has_raw && t->asm_text && check_round_trip) {
		CHECK(hr_asm(t->asm_text, &from_asm, &n, err, sizeof(err)) ==
				      0 &&
			      n == cnt &&
			      !memcmp(from_asm, insns, cnt * sizeof(*insns)),
		      "%s: asm and raw sections differ", name);
	}
	if (check_round_trip && hr_prog_validate(insns, cnt, NULL, NULL) == 0)
		CHECK(round_trip(insns, cnt, err, sizeof(err)),
		      "%s: round trip: %s", name, err);
	memcpy(mem, t->mem, t->mem_len);
	rc = hr_conformance_run(insns, cnt, mem, t->mem_len, &o->r0, o->err,
				sizeof(o->err));
	o->invalid = rc == -EINVAL;
	if (rc)
		goto out;
	o->ok = true;
out:
	free(from_asm);
	free(insns);
}

static void hex_join(const uint8_t *buf, size_t len, char *out)
{
	size_t i;

	out[0] = '\0';
	for (i = 0; i < len; i++)
		sprintf(out + 3 * i, "%02x ", buf[i]);
}

static char plugin_path[4096];
static bool have_plugin;

/* The engine flag each plugin run passes, and what it must report. */
enum plugin_engine { PLUGIN_NONE, PLUGIN_INTERP, PLUGIN_JIT };

static const char *const engine_flag[] = { "", " --interpret", " --jit" };

/*
 * Whether the plugin's --verbose stderr in @path names @engine as the one
 * that ran: the JIT must report code it compiled, so a plugin that quietly
 * interpreted a --jit run fails here even with the right r0.
 */
static bool ran_under(const char *path, enum plugin_engine engine)
{
	char line[1024];
	unsigned long bytes;
	bool seen = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (!seen && fgets(line, sizeof(line), f)) {
		if (engine == PLUGIN_JIT)
			seen = sscanf(line,
				      "headroom-conformance-plugin: engine "
				      "jit, %lu bytes of code",
				      &bytes) == 1 &&
			       bytes > 0;
		else
			seen = strstr(line, "engine interpreter") != NULL;
	}
	fclose(f);
	return seen;
}

/*
 * Runs the plugin as bpf_conformance does (memory as argv[1], then the
 * plugin options, program on stdin) or with --program; fills @o from its
 * exit status and stdout. With --verbose the plugin names the engine that
 * ran: *@engine_ok says whether it was @engine (true when the program
 * never got to run: rejected before any engine saw it).
 */
static void run_plugin(const struct conf_test *t, struct outcome *o,
		       bool use_stdin, enum plugin_engine engine,
		       bool *engine_ok)
{
	static char prog_hex[3 * MAX_BYTES + 1], mem_hex[3 * MAX_BYTES + 1];
	static char cmd[sizeof(prog_hex) * 2 + 8192];
	struct hr_insn *insns = NULL;
	char tmp[] = "/tmp/hr-conf-XXXXXX", errf[] = "/tmp/hr-conf-err-XXXXXX";
	char out[256] = "";
	uint32_t cnt;
	FILE *p;
	int fd = -1, efd = -1, rc;

	o->ok = false;
	o->invalid = false;
	o->err[0] = '\0';
	*engine_ok = true;
	if (program_of(t, &insns, &cnt, o->err, sizeof(o->err)))
		return;
	hex_join((const uint8_t *)insns, cnt * sizeof(*insns), prog_hex);
	hex_join(t->mem, t->mem_len, mem_hex);
	free(insns);
	efd = mkstemp(errf);
	if (efd < 0) {
		snprintf(o->err, sizeof(o->err), "temp file: %s",
			 strerror(errno));
		return;
	}
	if (use_stdin) {
		fd = mkstemp(tmp);
		if (fd < 0 || dprintf(fd, "%s\n", prog_hex) < 0) {
			snprintf(o->err, sizeof(o->err), "temp file: %s",
				 strerror(errno));
			goto out;
		}
		snprintf(cmd, sizeof(cmd), "'%s' %s%s%s%s --verbose < %s 2>%s",
			 plugin_path, t->mem_len ? "'" : "", mem_hex,
			 t->mem_len ? "'" : "", engine_flag[engine], tmp, errf);
	} else {
		snprintf(cmd, sizeof(cmd),
			 "'%s' --program '%s' '%s'%s --verbose 2>%s",
			 plugin_path, prog_hex, mem_hex, engine_flag[engine],
			 errf);
	}
	p = popen(cmd, "r");
	if (!p) {
		snprintf(o->err, sizeof(o->err), "popen: %s", strerror(errno));
		goto out;
	}
	if (!fgets(out, sizeof(out), p))
		out[0] = '\0';
	rc = pclose(p);
	/* Exit 2: --jit and the JIT refused the program. Never a pass. */
	if (rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 2) {
		snprintf(o->err, sizeof(o->err), "the JIT refused it");
		*engine_ok = false;
		goto out;
	}
	/* Exit 1 with no engine named: rejected before any engine ran. */
	*engine_ok = ran_under(errf, engine == PLUGIN_JIT ? PLUGIN_JIT :
							    PLUGIN_INTERP) ||
		     (rc != 0 && !ran_under(errf, PLUGIN_JIT) &&
		      !ran_under(errf, PLUGIN_INTERP));
	if (rc != 0) {
		snprintf(o->err, sizeof(o->err), "plugin exit status %d", rc);
		goto out;
	}
	o->r0 = strtoull(out, NULL, 16);
	o->ok = true;
out:
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	close(efd);
	unlink(errf);
}

/*
 * A program the JIT refuses (a local call and a tail call in one program)
 * that the interpreter runs to r0 = 0: --jit must fail loudly with exit 2
 * and say why, never print the interpreter's answer.
 */
static void jit_refusal(void)
{
	static const char prog[] =
		"85 10 00 00 02 00 00 00 b7 00 00 00 00 00 00 00 "
		"95 00 00 00 00 00 00 00 b7 00 00 00 00 00 00 00 "
		"15 00 01 00 00 00 00 00 85 00 00 00 0c 00 00 00 "
		"95 00 00 00 00 00 00 00";
	char cmd[8192], out[512] = "";
	size_t n;
	FILE *p;
	int rc;

	snprintf(cmd, sizeof(cmd), "'%s' --program '%s' --jit 2>&1",
		 plugin_path, prog);
	p = popen(cmd, "r");
	CHECK(p != NULL, "popen: %s", strerror(errno));
	if (!p)
		return;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	rc = pclose(p);
	CHECK(rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 2,
	      "--jit on a refused program: status %d, output '%s'", rc, out);
	CHECK(strstr(out, "the JIT refused the program") != NULL,
	      "--jit on a refused program said '%s'", out);
	snprintf(cmd, sizeof(cmd), "'%s' --program '%s' --interpret 2>&1",
		 plugin_path, prog);
	p = popen(cmd, "r");
	CHECK(p != NULL, "popen: %s", strerror(errno));
	if (!p)
		return;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	rc = pclose(p);
	CHECK(rc == 0 && !strcmp(out, "0\n"),
	      "--interpret on the same program: status %d, output '%s'", rc,
	      out);
}

/*
 * A test passes when it fails as told by `-- error`, else gives r0. A
 * negative test is rejected unless it runs and gives its r0 (0 when it
 * names none, as the suite reads it).
 */
static bool good_outcome(const struct conf_test *t, const struct outcome *o,
			 bool negative)
{
	if (negative)
		return !o->ok || o->r0 != t->result;
	if (t->has_error && !t->has_result)
		return !o->ok;
	return o->ok && o->r0 == t->result;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted *.data names in @dir; returns the count or -errno. */
static int list_dir(const char *dir, char ***names)
{
	struct dirent *de;
	size_t len;
	int n = 0, cap = 0;
	char **v = NULL, **nv;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".data"))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[n] = strdup(de->d_name);
		if (v[n])
			n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), name_cmp);
	*names = v;
	return n;
}

struct totals {
	int files, good;
};

static void run_dir(const char *root, const char *sub, bool negative,
		    enum plugin_engine plugin, struct totals *tot)
{
	static const char *const label[] = { "", "plugin: ", "plugin --jit: " };
	bool engine_ok = true;
	static struct conf_test t;
	char dir[4096], path[8192], what[600] = "";
	struct outcome o;
	char **names = NULL;
	int i, n;
	bool good;

	snprintf(dir, sizeof(dir), "%s/%s", root, sub);
	n = list_dir(dir, &names);
	CHECK(n > 0, "no .data files in %s (%s)", dir, strerror(-n));
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		memset(&t, 0, sizeof(t));
		if (parse_file(path, &t)) {
			CHECK(negative, "%s: cannot parse", path);
			goto next;
		}
		if (plugin)
			run_plugin(&t, &o, i % 8 != 0, plugin, &engine_ok);
		else
			run_test(&t, &o, !negative, path);
		good = good_outcome(&t, &o, negative);
		/* Raw negatives break an encoding rule: the validator itself
		 * must catch them, not just the run going wrong. */
		if (negative && !plugin && t.has_raw)
			CHECK(o.invalid, "%s: validator accepted it", path);
		if (plugin)
			CHECK(engine_ok,
			      "%s%s: the plugin did not run it "
			      "under the engine asked for",
			      label[plugin], path);
		tot->files++;
		tot->good += good && engine_ok;
		snprintf(what, sizeof(what), "0x%" PRIx64, o.r0);
		if (!o.ok)
			snprintf(what, sizeof(what), "%s", o.err);
		if (negative)
			CHECK(good, "%s%s: negative test not rejected: r0 = %s",
			      label[plugin], path, what);
		else if (t.has_error && !t.has_result)
			CHECK(good, "%s%s: expected an error, got r0 = %s",
			      label[plugin], path, what);
		else
			CHECK(good, "%s%s: expected r0 = 0x%" PRIx64 ", got %s",
			      label[plugin], path, t.result,
			      o.ok ? what : o.err);
next:
		free(t.asm_text);
		free(names[i]);
	}
	free(names);
}

static const char *find_root(void)
{
	static const char *const tries[] = {
		"tests/conformance",
		"../shared/conformance",
		"/work/shared/conformance",
		"../../shared/conformance",
	};
	const char *env = getenv("HEADROOM_CONFORMANCE_DIR");
	unsigned int i;

	if (env && *env)
		return env;
	for (i = 0; i < sizeof(tries) / sizeof(tries[0]); i++)
		if (access(tries[i], R_OK) == 0)
			return tries[i];
	return NULL;
}

int main(void)
{
	struct totals pos = { 0 }, neg = { 0 }, ppos[3] = { 0 },
		      pneg[3] = { 0 };
	const char *root = find_root(), *build = getenv("BUILD");
	enum plugin_engine e;

	if (!root)
		return t_skip("conformance suite not found (set "
			      "HEADROOM_CONFORMANCE_DIR)");
	run_dir(root, "tests", false, PLUGIN_NONE, &pos);
	run_dir(root, "negative", true, PLUGIN_NONE, &neg);
	printf("conformance: %d/%d tests pass, %d/%d negative rejected\n",
	       pos.good, pos.files, neg.good, neg.files);

	snprintf(plugin_path, sizeof(plugin_path),
		 "%s/bin/headroom-conformance-plugin",
		 build && *build ? build : "build");
	have_plugin = access(plugin_path, X_OK) == 0;
	CHECK(have_plugin, "%s not built", plugin_path);
	/* Each engine on the whole suite, as the official runner would run
	 * it with --plugin_options --interpret or --jit. */
	if (have_plugin)
		jit_refusal();
	for (e = PLUGIN_INTERP; have_plugin && e <= PLUGIN_JIT; e++) {
		run_dir(root, "tests", false, e, &ppos[e]);
		run_dir(root, "negative", true, e, &pneg[e]);
		printf("plugin%s: %d/%d tests pass, %d/%d negative "
		       "rejected\n",
		       engine_flag[e], ppos[e].good, ppos[e].files,
		       pneg[e].good, pneg[e].files);
		CHECK(ppos[e].files == pos.files,
		      "plugin%s ran %d files, in-process %d", engine_flag[e],
		      ppos[e].files, pos.files);
	}
	return t_done();
}
