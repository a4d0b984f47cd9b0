// SPDX-License-Identifier: MIT
/* Namespaces of the real-interface device tests: see dev_netns.h. */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>

#include "dev_netns.h"
#include "raw_send.h"
#include "harness.h"
#include "kernel_side.h"
#include "headroom/object.h"

#define DV_MAX_NS 4

static char made[DV_MAX_NS][32];
static int nmade;
static int orig_fd = -1;
static pid_t owner;

static void dv_on_signal(int sig)
{
	dv_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

void dv_cleanup(void)
{
	/* Children inherit the atexit hook: only the maker deletes. */
	if (getpid() != owner)
		return;
	dv_ns_enter(NULL);
	while (nmade > 0) {
		nmade--;
		t_sh("ip netns del %s 2>/dev/null", made[nmade]);
	}
}

int dv_ns_add(const char *tag, char *name)
{
	if (nmade == DV_MAX_NS)
		return -1;
	if (!owner) {
		owner = getpid();
		orig_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		atexit(dv_cleanup);
		signal(SIGINT, dv_on_signal);
		signal(SIGTERM, dv_on_signal);
	}
	snprintf(name, 32, "hr-devices-%d-%s", (int)getpid(), tag);
	if (t_sh("ip netns add %s", name))
		return -1;
	snprintf(made[nmade++], 32, "%s", name);
	t_sh("ip netns exec %s sysctl -qw net.ipv6.conf.all.disable_ipv6=1 "
	     "net.ipv6.conf.default.disable_ipv6=1 >/dev/null 2>&1",
	     name);
	return t_sh("ip -n %s link set lo up", name) ? -1 : 0;
}

int dv_ns_enter(const char *name)
{
	char path[128];
	int fd, err;

	if (!name || !*name)
		return orig_fd >= 0 ? setns(orig_fd, CLONE_NEWNET) : 0;
	snprintf(path, sizeof(path), "/var/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	err = setns(fd, CLONE_NEWNET);
	close(fd);
	return err;
}

pid_t dv_fork_in(const char *ns, int (*fn)(void *), void *arg)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid)
		return pid;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (dv_ns_enter(ns))
		_exit(126);
	_exit(fn(arg));
}

int dv_wait(pid_t pid)
{
	pid_t got;
	int st;

	do
		got = waitpid(pid, &st, 0);
	while (got < 0 && errno == EINTR);
	if (got != pid) {
		fprintf(stderr, "waitpid %d: %s\n", (int)pid, strerror(errno));
		return -1;
	}
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

int dv_tx_csum_off(const char *ifname)
{
	struct ethtool_value ev = { .cmd = ETHTOOL_STXCSUM, .data = 0 };
	struct ifreq r = { 0 };
	int fd, err = 0;

	snprintf(r.ifr_name, sizeof(r.ifr_name), "%s", ifname);
	r.ifr_data = (void *)&ev;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCETHTOOL, &r))
		err = -errno;
	close(fd);
	return err;
}

static bool dv_ip_link_grep(const char *ns, const char *ifname,
			    const char *what)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd),
		 "ip %s%s -d link show dev %s 2>/dev/null | grep -q '%s'",
		 ns ? "-n " : "", ns ? ns : "", ifname, what);
	return system(cmd) == 0;
}

bool dv_link_exists(const char *ns, const char *ifname)
{
	return dv_ip_link_grep(ns, ifname, ifname);
}

bool dv_link_has_xdp(const char *ns, const char *ifname)
{
	return dv_ip_link_grep(ns, ifname, "prog/xdp");
}

struct hr_object *dv_hopen(const char *name)
{
	char path[512], err[256] = "";
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .ncpus = 1);
	struct hr_object *o = NULL;

	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), name);
	if (hr_object_open(path, &oo, &o))
		CHECK(0, "headroom: open %s: %s", path, err);
	return o;
}

/* A 60-byte broadcast frame of EtherType *(uint16_t *)@arg, numbered
 * @i in its first payload byte. */
static uint32_t numbered_frame(void *arg, unsigned int i, uint8_t *buf,
			       uint32_t cap)
{
	uint16_t proto = *(uint16_t *)arg;

	if (cap < 60)
		return 0;
	memset(buf, 0, 60);
	memset(buf, 0xff, 6);
	buf[6] = 0x02;
	buf[11] = 2;
	buf[12] = (uint8_t)(proto >> 8);
	buf[13] = (uint8_t)proto;
	buf[14] = (uint8_t)i;
	return 60;
}

int dv_send_frames(const char *ifname, int n, uint16_t proto)
{
	return t_raw_send((int)if_nametoindex(ifname), numbered_frame, &proto,
			  n < 0 ? 0 : (unsigned int)n);
}
