// SPDX-License-Identifier: MIT
#include "harness.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/bpf.h>

#include "vm/engine.h"
#include "headroom/test_run.h"

unsigned int t_passed, t_failed;

/* Every test binary runs with the engine invariants checked, before any
 * program is compiled or run. */
__attribute__((constructor)) static void t_invariants_on(void)
{
	hr_engine_set_invariants(true);
}

int t_done(void)
{
	/* A run that broke an engine invariant is an engine bug, whatever
	 * the test checked of it (tests that break one on purpose reset). */
	if (hr_engine_invariant_breaks()) {
		printf("FAIL: %lu runs broke an engine invariant\n",
		       hr_engine_invariant_breaks());
		t_failed++;
	}
	printf("RESULT passed=%u failed=%u\n", t_passed, t_failed);
	return t_failed ? 1 : 0;
}

/*
 * The kernel side's pins (libbpf's LIBBPF_PIN_BY_NAME under /sys/fs/bpf)
 * must not outlive the test or meet another test's: each test process
 * that uses the kernel gets a mount namespace of its own with a fresh
 * bpffs on /sys/fs/bpf, whether or not the host has one mounted there.
 * Its pins, and the namespaces' bind mounts under /run/netns, go away
 * with the process. Done before any thread starts (unshare needs that).
 */
static void private_bpffs(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	if (unshare(CLONE_NEWNS) ||
	    mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700"))
		fprintf(stderr,
			"note: no private bpffs (%s): pins may be "
			"shared with the host\n",
			strerror(errno));
}

bool t_have_kernel(char *why, size_t whysz)
{
	union bpf_attr attr;
	long fd;

	if (geteuid() != 0) {
		snprintf(why, whysz, "not root");
		return false;
	}
	/* A tiny array map proves the bpf syscall works here. */
	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	fd = syscall(__NR_bpf, BPF_MAP_CREATE, &attr, sizeof(attr));
	if (fd < 0) {
		snprintf(why, whysz, "bpf(BPF_MAP_CREATE): %s",
			 strerror(errno));
		return false;
	}
	close((int)fd);
	private_bpffs();
	return true;
}

int t_skip(const char *why)
{
	const char *req = getenv("HEADROOM_REQUIRE_KERNEL");

	if (req && strcmp(req, "1") == 0) {
		printf("FAIL: kernel required (HEADROOM_REQUIRE_KERNEL=1) "
		       "but unavailable: %s\n",
		       why);
		t_failed++;
		return t_done();
	}
	printf("SKIP: %s\n", why);
	return 77;
}

const char *t_progs_dir(void)
{
	static char dir[4096];
	const char *b = getenv("BUILD");

	snprintf(dir, sizeof(dir), "%s/progs", b && *b ? b : "build");
	return dir;
}

void t_prog_path(const char *name, char *path, size_t sz)
{
	if (name[0] == '/')
		snprintf(path, sz, "%s", name);
	else
		snprintf(path, sz, "%s/%s", t_progs_dir(), name);
}

void t_hex(const void *buf, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * len] = '\0';
}

static const struct {
	const char *obj;
	enum t_by_design what;
	const char *why;
} by_design[] = {
	{ "kernel_differs.o", T_RANDOM,
	  "random by design, for headroom test --kernel's own test "
	  "(tests/cli/test_kernel_cli.sh)" },
	{ "helper_task.o", T_PER_PROCESS,
	  "bpf_get_current_pid_tgid answers for the caller: "
	  "tests/maps/test_map_types_kernel.c compares it with the kernel "
	  "from one process" },
	{ "xdp_list.o", T_KERNEL_STATE,
	  "user space reads the kernel's list head as the kernel addresses "
	  "check_and_init_map_value's INIT_LIST_HEAD leaves in it: "
	  "tests/helpers/test_obj.c compares every packet" },
	{ "xdp_percpu_obj.o", T_KERNEL_STATE,
	  "bpf_per_cpu_ptr answers NULL from the kernel's nr_cpu_ids on, "
	  "headroom's from the CPUs its object opens with (one for headroom "
	  "test): tests/helpers/test_percpu_obj.c compares every packet with "
	  "the two matched" },
	{ "xdp_stream.o", T_KERNEL_STATE,
	  "a stream write is -ENOMEM where the kernel cannot allocate a "
	  "stream element (this host's can never): "
	  "tests/helpers/test_stream.c compares the rest" },
	{ "helper_curtask.o", T_REFUSED,
	  "bpf_get_current_task hands out a kernel task_struct headroom "
	  "does not have; the load fails naming the helper" },
};

bool t_prog_by_design(const char *name, unsigned int what, const char **why)
{
	const char *base = strrchr(name, '/');
	size_t i;

	base = base ? base + 1 : name;
	for (i = 0; i < sizeof(by_design) / sizeof(by_design[0]); i++) {
		if (!(by_design[i].what & what) ||
		    strcmp(by_design[i].obj, base))
			continue;
		if (why)
			*why = by_design[i].why;
		return true;
	}
	return false;
}

int t_run_cmd(const char *cmd, char *out, size_t outsz)
{
	FILE *p = popen(cmd, "r");
	char sink[4096];
	size_t n;
	int st;

	if (!p)
		return -1;
	if (out && outsz) {
		n = fread(out, 1, outsz - 1, p);
		out[n] = '\0';
	}
	/* What does not fit is read too, so that the command neither blocks
	 * on a full pipe nor dies of SIGPIPE when it is closed. */
	while (fread(sink, 1, sizeof(sink), p) > 0)
		;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int t_run_selector(struct hr_prog *prog, uint8_t sel, int engine,
		   uint32_t *retval)
{
	uint8_t in[64] = { [14] = sel };
	HR_OPTS(hr_test_run_opts, o, .data_in = in, .data_size_in = sizeof(in),
		.engine = engine);

	CHECK_EQ(hr_prog_test_run(prog, &o), 0);
	if (retval)
		*retval = o.retval;
	return o.abort;
}
