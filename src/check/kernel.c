// SPDX-License-Identifier: MIT
/*
 * The live kernel's verdict, for `headroom check --kernel` and
 * scripts/verifier-record.sh: one program of an object loaded through
 * libbpf (bpf_object__load) with the verifier log at level 1, the others
 * left out (autoload off). A program calling the XDP hint kfuncs is loaded
 * device-bound (BPF_F_XDP_DEV_BOUND_ONLY, prog_ifindex) on a veth made in
 * a network namespace of a child of its own, so nothing outlives it.
 * From the log: the error line (the first after the instruction at
 * fault), that instruction, and the "; code @ file:line" before it, as
 * bpftool prints them.
 */
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "check/check.h"
#include "headroom/object.h"
#include "progs/prog.h"
#include "loader/line_info.h"

#define LOG_SIZE (1u << 22)
#define XDP_DEV_BOUND_ONLY (1u << 6)

/* libbpf's last warning, for a load that failed before the verifier. */
static __thread char libbpf_said[256];

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN) {
		vsnprintf(libbpf_said, sizeof(libbpf_said), fmt, ap);
		libbpf_said[strcspn(libbpf_said, "\n")] = 0;
	}
	return 0;
}

const char *hr_check_kernel_libbpf_error(void)
{
	return libbpf_said;
}

/* "12: (71) r1 = ..." -> 12, and "12: <invalid CO-RE relocation>", the
 * line libbpf writes over a poisoned call's; -1 when @l is not an
 * instruction line. */
static int insn_line(const char *l)
{
	char *e;
	long v = strtol(l, &e, 10);

	if (e == l || e[0] != ':' || e[1] != ' ' ||
	    (e[2] != '(' && e[2] != '<') || v < 0 || v > INT32_MAX)
		return -1;
	return (int)v;
}

static void copy_line(char *dst, size_t n, const char *l)
{
	size_t k = strcspn(l, "\n");

	if (k >= n)
		k = n - 1;
	memcpy(dst, l, k);
	dst[k] = 0;
}

/* "; code @ file.c:23" -> file, line. */
static void src_line(struct hr_check_result *res, const char *l)
{
	const char *at = NULL, *p;
	size_t k = strcspn(l, "\n");
	char *colon;

	for (p = l; p < l + k; p++)
		if (p[0] == ' ' && p[1] == '@' && p[2] == ' ')
			at = p + 3;
	if (!at)
		return;
	copy_line(res->file, sizeof(res->file), at);
	colon = strrchr(res->file, ':');
	if (!colon)
		return;
	*colon = 0;
	res->line = (unsigned int)strtoul(colon + 1, NULL, 10);
}

static void parse_log(const char *log, struct hr_check_result *res)
{
	const char *l, *last_insn = NULL, *last_src = NULL, *src_for = NULL;

	/* The last instruction printed is the one at fault; its error line
	 * follows it. */
	for (l = log; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
		if (l[0] == ';')
			last_src = l;
		else if (insn_line(l) >= 0) {
			last_insn = l;
			src_for = last_src;
		}
	}
	res->insn = last_insn ? insn_line(last_insn) : -1;
	if (src_for)
		src_line(res, src_for);
	l = last_insn ? strchr(last_insn, '\n') : NULL;
	l = l ? l + 1 : log;
	/* Skip state dumps ("R1=..." lines at level 2, "from 4 to 6:"). */
	while (*l && (l[0] == '\n' || !strncmp(l, "from ", 5)))
		l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "";
	copy_line(res->reason, sizeof(res->reason), l);
}

/* Whether the log ends with the verifier's summary right after the last
 * instruction: no error line, so the verifier accepted the program. */
static bool verifier_passed(const struct hr_check_result *res)
{
	return !strncmp(res->reason, "processed ", 10);
}

/* res->file and res->line from @l (nothing when NULL). */
static void put_line(const struct hr_line *l, struct hr_check_result *res)
{
	if (!l)
		return;
	snprintf(res->file, sizeof(res->file), "%s", hr_line_base(l->file));
	res->line = l->line;
}

static void set_line(const char *path, const char *name,
		     const struct hr_prog *prog, struct hr_check_result *res)
{
	struct hr_line_table t;
	const struct hr_line *l;

	if (res->insn < 0 || (prog ? hr_line_table_load_prog(path, prog, &t) :
				     hr_line_table_load(path, name, &t)))
		return;
	l = hr_line_find(&t, (uint32_t)res->insn);
	put_line(l, res);
	hr_line_table_free(&t);
}

int hr_check_predict_at(const char *path, const struct hr_prog *prog,
			bool dev_bound, struct hr_check_result *res)
{
	struct hr_line_table t;
	uint32_t *first = NULL;
	size_t i;
	int ret;

	/* Without line info there is no line to give either way. */
	if (hr_line_table_load_prog(path, prog, &t))
		return hr_check_predict_opts(prog, dev_bound, res);
	if (t.n)
		first = malloc(t.n * sizeof(*first));
	for (i = 0; first && i < t.n; i++)
		first[i] = t.v[i].insn;
	ret = hr_check_predict_lines(prog, dev_bound, first, first ? t.n : 0,
				     res);
	if (!ret && res->verdict == HR_CHECK_REJECT && res->log_line_set) {
		if (res->line_insn >= 0)
			put_line(hr_line_find(&t, (uint32_t)res->line_insn),
				 res);
	} else if (!ret && res->insn >= 0) {
		put_line(hr_line_find(&t, (uint32_t)res->insn), res);
	}
	free(first);
	hr_line_table_free(&t);
	return ret;
}

void hr_check_set_line(const char *path, const char *name,
		       struct hr_check_result *res)
{
	set_line(path, name, NULL, res);
}

void hr_check_set_line_prog(const char *path, const struct hr_prog *prog,
			    struct hr_check_result *res)
{
	set_line(path, prog->name, prog, res);
}

/*
 * The source line of the kernel's instruction @res->insn when its log did
 * not print one: instructions past the main function belong to its
 * subprograms as libbpf appended them, which only the linked program
 * knows; the main function's own table when headroom cannot load it.
 */
static void kernel_set_line(const char *path, const char *name,
			    struct hr_check_result *res)
{
	char err[256];
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .only_prog = name);
	struct hr_object *obj = NULL;
	struct hr_prog *prog;

	if (hr_object_open(path, &oo, &obj)) {
		hr_check_set_line(path, name, res);
		return;
	}
	prog = hr_object_find_prog(obj, name);
	if (prog)
		hr_check_set_line_prog(path, prog, res);
	else
		hr_check_set_line(path, name, res);
	hr_object_close(obj);
}

static int load_one(const char *path, const char *name, int ifindex,
		    struct hr_check_result *res, char **logp)
{
	struct bpf_object *obj;
	struct bpf_program *p, *want = NULL;
	char *log;
	int err;

	log = calloc(1, LOG_SIZE);
	if (!log)
		return -ENOMEM;
	libbpf_said[0] = 0;
	libbpf_set_print(quiet);
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		err = -errno;
		free(log);
		return err;
	}
	bpf_object__for_each_program(p, obj)
	{
		if (!strcmp(bpf_program__name(p), name))
			want = p;
		else
			bpf_program__set_autoload(p, false);
	}
	if (!want) {
		bpf_object__close(obj);
		free(log);
		return -ENOENT;
	}
	bpf_program__set_log_buf(want, log, LOG_SIZE);
	bpf_program__set_log_level(want, 1);
	if (ifindex) {
		bpf_program__set_ifindex(want, (unsigned int)ifindex);
		bpf_program__set_flags(want, bpf_program__flags(want) |
						     XDP_DEV_BOUND_ONLY);
	}
	err = bpf_object__load(obj);
	memset(res, 0, sizeof(*res));
	res->insn = -1;
	if (!err) {
		res->verdict = HR_CHECK_ACCEPT;
	} else if (!log[0]) {
		/* No log: the load failed before the verifier ran. */
		bpf_object__close(obj);
		free(log);
		return err;
	} else {
		res->verdict = HR_CHECK_REJECT;
		parse_log(log, res);
		/* The log prints a line only where it changes: one that
		 * scrolled away is looked up. */
		if (!res->line && res->insn >= 0)
			kernel_set_line(path, name, res);
	}
	if (res->verdict == HR_CHECK_REJECT && verifier_passed(res)) {
		/* The verifier took it; libbpf failed after (a program
		 * array's initial values naming a program left out). */
		memset(res, 0, sizeof(*res));
		res->verdict = HR_CHECK_ACCEPT;
		res->insn = -1;
	}
	bpf_object__close(obj);
	if (logp)
		*logp = log;
	else
		free(log);
	return 0;
}

/* In a child: a namespace and a veth of its own, the load, the answer
 * written to @fd. */
static int devbound_child(const char *path, const char *name, int fd)
{
	struct hr_check_result res;
	int err, idx;

	if (unshare(CLONE_NEWNET))
		return -errno;
	if (system("ip link add hr-check0 type veth peer name hr-check1 "
		   ">/dev/null 2>&1 && ip link set hr-check0 up "
		   ">/dev/null 2>&1"))
		return -ENODEV;
	idx = (int)if_nametoindex("hr-check0");
	if (!idx)
		return -ENODEV;
	err = load_one(path, name, idx, &res, NULL);
	if (!err && write(fd, &res, sizeof(res)) != sizeof(res))
		err = -EIO;
	return err;
}

static int load_devbound(const char *path, const char *name,
			 struct hr_check_result *res)
{
	int fds[2], st, err = -EIO;
	pid_t pid;

	if (pipe(fds))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(fds[0]);
		close(fds[1]);
		return err;
	}
	if (!pid) {
		close(fds[0]);
		_exit(-devbound_child(path, name, fds[1]) & 0xff);
	}
	close(fds[1]);
	if (read(fds[0], res, sizeof(*res)) == sizeof(*res))
		err = 0;
	close(fds[0]);
	if (waitpid(pid, &st, 0) == pid && err && WIFEXITED(st) &&
	    WEXITSTATUS(st))
		err = -WEXITSTATUS(st);
	return err;
}

int hr_check_kernel(const char *path, const char *name, bool dev_bound,
		    struct hr_check_result *res, char **log)
{
	if (log)
		*log = NULL;
	if (geteuid() != 0)
		return -EPERM;
	if (dev_bound)
		return load_devbound(path, name, res);
	return load_one(path, name, 0, res, log);
}
