// SPDX-License-Identifier: MIT
/* The kernel side of oracle tests (kernel_side.h). */
#include "kernel_side.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "harness.h"

struct bpf_object *t_kopen(const char *name)
{
	struct bpf_object *o;
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
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
