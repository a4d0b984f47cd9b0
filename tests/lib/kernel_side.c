// SPDX-License-Identifier: MIT
/* The kernel side of oracle tests (kernel_side.h). */
#include "kernel_side.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "harness.h"

struct bpf_object *t_kopen(const char *name)
{
	struct bpf_object *o;
	char path[512];

	t_prog_path(name, path, sizeof(path));
	o = bpf_object__open_file(path, NULL);
	if (!o || libbpf_get_error(o)) {
		CHECK(0, "kernel: open %s", path);
		return NULL;
	}
	if (bpf_object__load(o)) {
		CHECK(0, "kernel: load %s", path);
		bpf_object__close(o);
		return NULL;
	}
	return o;
}

/*
 * The host probe. The refusal comes from the verifier at the kfunc's
 * call instruction, so the smallest program that shows it is an XDP one
 * making a dynptr and taking one rdwr slice of it (nothing stored).
 * The same program with the read-only bpf_dynptr_slice is the control:
 * when that one does not load either, the probe proves nothing and the
 * kernel counts as not refusing (its tests then fail as they would).
 */
#define INSN(c, d, s, o, i)                 \
	((struct bpf_insn){ .code = (c),    \
			    .dst_reg = (d), \
			    .src_reg = (s), \
			    .off = (o),     \
			    .imm = (i) })
#define KCALL(id) INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, id)

static char probe_log[1 << 14];

/* One probe program loaded as XDP, its verifier log in probe_log; 0 or
 * the load's -errno. */
static int probe_run(const struct bpf_insn *insns, size_t n)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = probe_log,
		    .log_size = sizeof(probe_log), .log_level = 1);
	int fd;

	probe_log[0] = '\0';
	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "hr_probe", "GPL", insns, n,
			   &opts);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int probe_load(const struct btf *vm, const char *slice_fn)
{
	int from = btf__find_by_name_kind(vm, "bpf_dynptr_from_xdp",
					  BTF_KIND_FUNC);
	int slice = btf__find_by_name_kind(vm, slice_fn, BTF_KIND_FUNC);
	struct bpf_insn insns[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 3, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 3, 0, 0, -16),
		KCALL(from),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -16),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 4, 0, 0, 1),
		KCALL(slice),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_PASS),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	if (from < 0 || slice < 0)
		return -ENOENT;
	return probe_run(insns, sizeof(insns) / sizeof(insns[0]));
}

/* The control and the probe for the helper refusal: an XDP program
 * moving its data (adjust_head) or its metadata (adjust_meta) by -4. */
static int probe_helper(int id)
{
	struct bpf_insn insns[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, -4),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, id),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, XDP_PASS),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return probe_run(insns, sizeof(insns) / sizeof(insns[0]));
}

static int probe_quiet(enum libbpf_print_level level, const char *fmt,
		       va_list ap)
{
	return 0;
}

/* Program @prog alone of the test object @obj loaded, its verifier log in
 * probe_log; 0 or the load's -errno (-ENOENT without the object). */
static int probe_obj(const char *obj, const char *prog)
{
	libbpf_print_fn_t old = libbpf_set_print(probe_quiet);
	struct bpf_program *p;
	struct bpf_object *o;
	char path[512];
	int err;

	probe_log[0] = '\0';
	t_prog_path(obj, path, sizeof(path));
	o = bpf_object__open_file(path, NULL);
	if (!o) {
		libbpf_set_print(old);
		return -ENOENT;
	}
	bpf_object__for_each_program(p, o)
	{
		bool it = !strcmp(bpf_program__name(p), prog);

		bpf_program__set_autoload(p, it);
		if (it) {
			bpf_program__set_log_buf(p, probe_log,
						 sizeof(probe_log));
			bpf_program__set_log_level(p, 1);
		}
	}
	err = bpf_object__load(o);
	bpf_object__close(o);
	libbpf_set_print(old);
	return err;
}

/* The refusals of this host's kernel that mainline 6.18 does not make,
 * each with the error and verifier line it loads with. */
static struct host_rule {
	int err;
	const char *line;
	const char *note;
	bool refused;
} host_rules[] = {
	{ -EPERM, T_HOST_KFUNC "() is not allowed\n",
	  "every program calling " T_HOST_KFUNC " (EPERM, \"" T_HOST_KFUNC
	  "() is not allowed\"; the read-only bpf_dynptr_slice loads)" },
	{ -EINVAL, "cannot use helper " T_HOST_HELPER "#54\n",
	  "every XDP program calling " T_HOST_HELPER " (EINVAL, \"program "
	  "of this type cannot use helper " T_HOST_HELPER "#54\"; "
	  "bpf_xdp_adjust_head loads)" },
	{ -EPERM, "sleepable callback in a program that is not sleepable\n",
	  "every XDP or tc program calling bpf_wq_set_callback_impl (EPERM, "
	  "\"sleepable callback in a program that is not sleepable\"; "
	  "bpf_wq_init loads; mainline takes it, as HID-BPF and the "
	  "kernel's own wq selftests need)" },
};

#define N_HOST_RULES (sizeof(host_rules) / sizeof(host_rules[0]))

static int host_probed = -1; /* -1 not yet, then 0 or 1 */
static char host_note[1024];

static bool rule_matches(const struct host_rule *r, int err, const char *log)
{
	return err == r->err && log && strstr(log, r->line);
}

/* Each rule's probe, against its control: when the control does not
 * load either, the probe proves nothing and the kernel counts as not
 * refusing (its tests then fail as they would). */
static void host_probe(void)
{
	struct btf *vm;
	size_t n = 0;
	unsigned int i;
	int ro, rw;

	host_probed = 0;
	vm = btf__load_vmlinux_btf();
	if (vm) {
		ro = probe_load(vm, "bpf_dynptr_slice");
		rw = probe_load(vm, T_HOST_KFUNC);
		host_rules[0].refused =
			!ro && rule_matches(&host_rules[0], rw, probe_log);
		btf__free(vm);
	}
	ro = probe_helper(BPF_FUNC_xdp_adjust_head);
	rw = probe_helper(BPF_FUNC_xdp_adjust_meta);
	host_rules[1].refused = !ro &&
				rule_matches(&host_rules[1], rw, probe_log);
	ro = probe_obj("xdp_wq_probe.o", "wq_control");
	rw = probe_obj("xdp_wq_probe.o", "wq_probe");
	host_rules[2].refused = !ro &&
				rule_matches(&host_rules[2], rw, probe_log);
	for (i = 0; i < N_HOST_RULES; i++) {
		if (!host_rules[i].refused)
			continue;
		host_probed = 1;
		n += (size_t)snprintf(host_note + n, sizeof(host_note) - n,
				      "%s%s", n ? "; and " : "",
				      host_rules[i].note);
		if (n >= sizeof(host_note))
			n = sizeof(host_note) - 1;
	}
	if (host_probed)
		snprintf(host_note + n, sizeof(host_note) - n,
			 ": this kernel refuses it at load, a restriction of "
			 "this host's kernel build");
}

bool t_host_refuses_kfunc(void)
{
	if (host_probed < 0)
		host_probe();
	return host_rules[0].refused;
}

bool t_host_refuses_adjust_meta(void)
{
	if (host_probed < 0)
		host_probe();
	return host_rules[1].refused;
}

bool t_host_refuses_wq_callback(void)
{
	if (host_probed < 0)
		host_probe();
	return host_rules[2].refused;
}

bool t_host_skips_adjust_meta(const char *what)
{
	if (!t_host_refuses_adjust_meta())
		return false;
	printf("note: the kernel side not compared: %s calls "
	       "bpf_xdp_adjust_meta: %s\n",
	       what, t_host_note());
	return true;
}

const char *t_host_note(void)
{
	if (host_probed < 0)
		host_probe();
	return host_note;
}

static bool t_host_refusal_log(int err, const char *log)
{
	unsigned int i;

	for (i = 0; i < N_HOST_RULES; i++)
		if (host_rules[i].refused &&
		    rule_matches(&host_rules[i], err, log))
			return true;
	return false;
}

bool t_host_refusal_line(const char *line)
{
	char buf[512];
	unsigned int i;

	if (host_probed < 0)
		host_probe();
	if (!line)
		return false;
	snprintf(buf, sizeof(buf), "%s\n", line);
	for (i = 0; i < N_HOST_RULES; i++)
		if (host_rules[i].refused && strstr(buf, host_rules[i].line))
			return true;
	return false;
}

bool t_host_refusal(int err, const char *log)
{
	if (host_probed < 0)
		host_probe();
	return t_host_refusal_log(err, log);
}

/* What libbpf prints while t_kload() loads, shown only for failures that
 * are not the host's. */
static char kload_out[1 << 16];
static size_t kload_len;

static int kload_print(enum libbpf_print_level level, const char *fmt,
		       va_list ap)
{
	int n;

	if (level == LIBBPF_DEBUG || kload_len >= sizeof(kload_out) - 1)
		return 0;
	n = vsnprintf(kload_out + kload_len, sizeof(kload_out) - kload_len, fmt,
		      ap);
	if (n > 0)
		kload_len += (size_t)n < sizeof(kload_out) - kload_len ?
				     (size_t)n :
				     sizeof(kload_out) - kload_len - 1;
	return 0;
}

static unsigned int kload_zero_size;

void t_kload_size_zero_maps(unsigned int n)
{
	kload_zero_size = n;
}

bool t_sized_by_user(const struct bpf_map *m)
{
	enum bpf_map_type t = bpf_map__type(m);

	/* libbpf sizes a perf event array itself; a ring buffer's size is
	 * pages, not entries. */
	return bpf_map__max_entries(m) == 0 &&
	       t != BPF_MAP_TYPE_PERF_EVENT_ARRAY &&
	       t != BPF_MAP_TYPE_RINGBUF && t != BPF_MAP_TYPE_USER_RINGBUF;
}

/* @path with only program @prog (NULL: all but those in @skip, a list of
 * "name," entries) loaded; 0 or the load's -errno. */
static int kload_some(const char *path, const char *prog, const char *skip,
		      struct bpf_object **out)
{
	struct bpf_object *o = bpf_object__open_file(path, NULL);
	struct bpf_program *p;
	struct bpf_map *m;
	char key[160];
	int err;

	if (!o)
		return -errno;
	bpf_object__for_each_map(m, o)
	{
		if (kload_zero_size && t_sized_by_user(m))
			bpf_map__set_max_entries(m, kload_zero_size);
	}
	bpf_object__for_each_program(p, o)
	{
		snprintf(key, sizeof(key), "%s,", bpf_program__name(p));
		if (prog)
			bpf_program__set_autoload(
				p, !strcmp(prog, bpf_program__name(p)));
		else if (strstr(skip, key))
			bpf_program__set_autoload(p, false);
	}
	err = bpf_object__load(o);
	if (err || !out)
		bpf_object__close(o);
	else
		*out = o;
	return err;
}

struct bpf_object *t_kload(const char *name, char *left_out, size_t sz,
			   int *err)
{
	libbpf_print_fn_t old = libbpf_set_print(kload_print);
	struct bpf_object *o = NULL, *all;
	struct bpf_program *p;
	char path[512], skip[1024] = "";
	size_t n = 0;
	int e;

	if (left_out && sz)
		left_out[0] = '\0';
	t_prog_path(name, path, sizeof(path));
	kload_len = 0;
	kload_out[0] = '\0';
	e = kload_some(path, NULL, "", &o);
	if (!e || !t_host_refusal(e, kload_out))
		goto out;
	/* One program at a time: which ones the host alone refuses. */
	all = bpf_object__open_file(path, NULL);
	if (!all) {
		e = -errno;
		goto out;
	}
	bpf_object__for_each_program(p, all)
	{
		kload_len = 0;
		kload_out[0] = '\0';
		e = kload_some(path, bpf_program__name(p), NULL, NULL);
		if (!e)
			continue;
		if (!t_host_refusal(e, kload_out))
			break;
		n += (size_t)snprintf(skip + n, sizeof(skip) - n, "%s,",
				      bpf_program__name(p));
		e = 0;
		if (n >= sizeof(skip))
			e = -E2BIG;
	}
	bpf_object__close(all);
	if (!e) {
		kload_len = 0;
		kload_out[0] = '\0';
		e = kload_some(path, NULL, skip, &o);
	}
	if (!e && left_out && sz) {
		snprintf(left_out, sz, "%s", skip);
		n = strlen(left_out);
		if (n)
			left_out[n - 1] = '\0'; /* the last ',' */
	}
out:
	libbpf_set_print(old);
	if (e) {
		fprintf(stderr, "kernel: load %s: %s\n%s", path, strerror(-e),
			kload_out);
		o = NULL;
	}
	if (err)
		*err = e;
	return o;
}

int t_kprog(struct bpf_object *o, const char *name)
{
	struct bpf_program *p = bpf_object__find_program_by_name(o, name);

	return p ? bpf_program__fd(p) : -1;
}

int t_kmap(struct bpf_object *o, const char *name)
{
	struct bpf_map *m = bpf_object__find_map_by_name(o, name);

	return m ? bpf_map__fd(m) : -1;
}

static char made_name[32];
static int orig_ns = -1;
static bool ns_made, hooked;

int t_sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	if (rc)
		fprintf(stderr, "netns: '%s' exited %d\n", cmd, rc);
	return rc;
}

void t_netns_cleanup(void)
{
	if (orig_ns >= 0) {
		setns(orig_ns, CLONE_NEWNET);
		close(orig_ns);
		orig_ns = -1;
	}
	if (ns_made) {
		/* Deleting the namespace deletes the pair in it. */
		t_sh("ip netns del %s 2>/dev/null", made_name);
		ns_made = false;
	}
}

static void on_signal(int sig)
{
	t_netns_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

int t_netns_setup(const char *prefix, struct t_netns *ns)
{
	char path[128];
	int fd;

	snprintf(ns->name, sizeof(ns->name), "%s-%d", prefix, (int)getpid());
	snprintf(ns->veth_a, sizeof(ns->veth_a), "%sa%d", prefix,
		 (int)getpid());
	snprintf(ns->veth_b, sizeof(ns->veth_b), "%sb%d", prefix,
		 (int)getpid());
	if (!hooked) {
		atexit(t_netns_cleanup);
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
		hooked = true;
	}
	if (t_sh("ip netns add %s", ns->name))
		return -1;
	snprintf(made_name, sizeof(made_name), "%s", ns->name);
	ns_made = true;
	t_sh("ip netns exec %s sysctl -qw net.ipv6.conf.all.disable_ipv6=1 "
	     "net.ipv6.conf.default.disable_ipv6=1 >/dev/null 2>&1",
	     ns->name);
	if (t_sh("ip -n %s link add %s type veth peer name %s", ns->name,
		 ns->veth_a, ns->veth_b) ||
	    t_sh("ip -n %s link set %s up", ns->name, ns->veth_a) ||
	    t_sh("ip -n %s link set %s up", ns->name, ns->veth_b))
		return -1;
	orig_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/var/run/netns/%s", ns->name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (orig_ns < 0 || fd < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* This thread only: the headroom side does not care. */
	if (setns(fd, CLONE_NEWNET)) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}
