// SPDX-License-Identifier: MIT
/*
 * Clean shutdown of the real-interface devices: a child process in
 * namespace H runs headroom with an afxdp device on a kernel veth and a
 * TAP device, traffic flowing from P, and is stopped by SIGINT, by
 * SIGTERM (it prints its counters and destroys the datapath) and by
 * kill -9 (nothing runs). Every time, afterwards: no XDP program on the
 * veth (the bpf_link went with the process), no AF_XDP socket (ss --xdp),
 * no TAP interface, nothing pinned under /sys/fs/bpf; and when the test
 * ends, no namespace or veth.
 */
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev_netns.h"
#include "harness.h"
#include "kernel_side.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/object.h"

#define SHUTDOWN_FRAMES 5

static char nsh[32], nsp[32], va[IFNAMSIZ], vb[IFNAMSIZ], tp[IFNAMSIZ];
static volatile sig_atomic_t stop_sig;
static int ready_pipe[2], out_pipe[2];

static void on_stop(int sig)
{
	stop_sig = sig;
}

/* The headroom process: what an application on real interfaces does. */
static int headroom_child(void *arg)
{
	char kobj[512], line[256];
	HR_OPTS(hr_afxdp_opts, ao, .kern_obj = kobj);
	HR_OPTS(hr_dev_counters, c);
	struct sigaction sa = { .sa_handler = on_stop };
	struct hr_datapath *dp = NULL;
	struct hr_dev *x = NULL, *t = NULL;
	struct hr_object *uo;
	bool reported = false;
	int n;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	snprintf(kobj, sizeof(kobj), "%s/xsk_hints.o", t_progs_dir());
	uo = dv_hopen("xsk_user.o");
	if (!uo || hr_dp_create(NULL, &dp) ||
	    hr_dev_afxdp_create(dp, "x0", va, &ao, &x) ||
	    hr_dev_tap_create(dp, "t0", tp, NULL, &t))
		return 10;
	hr_dev_attach_xdp(x, hr_object_find_prog(uo, "xsk_drop"));
	hr_dev_attach_xdp(t, hr_object_find_prog(uo, "xsk_drop"));
	if (hr_dp_assign_queue(dp, x, 0, 0) ||
	    hr_dp_assign_queue(dp, t, 0, 0) || hr_dp_start(dp))
		return 11;
	if (write(ready_pipe[1], "r", 1) != 1)
		return 12;
	/*
	 * The parent signals only once every frame it sent has been polled
	 * (a signal racing the worker's poll would leave frames in the RX
	 * ring, which a stop rightly does not process), so the counters
	 * printed on the signal are exact.
	 */
	while (!stop_sig) {
		hr_dev_get_counters(x, &c);
		if (c.rx_packets >= SHUTDOWN_FRAMES && !reported) {
			reported = write(ready_pipe[1], "n", 1) == 1;
			if (!reported)
				return 12;
		}
		usleep(1000);
	}
	hr_dp_stop(dp);
	hr_dev_get_counters(x, &c);
	n = snprintf(line, sizeof(line),
		     "stopped by %d: rx %llu dropped %llu\n", (int)stop_sig,
		     (unsigned long long)c.rx_packets,
		     (unsigned long long)c.xdp_drop);
	if (write(out_pipe[1], line, (size_t)n) != n)
		return 13;
	hr_dp_destroy(dp);
	hr_object_close(uo);
	return 0;
}

static int send_frames(void *arg)
{
	return dv_send_frames(vb, SHUTDOWN_FRAMES, 0x88b5) ? 1 : 0;
}

/* Waits, up to 10 s, for the child's word that every frame was polled. */
static bool polled_all(void)
{
	struct pollfd p = { .fd = ready_pipe[0], .events = POLLIN };
	char c;

	return poll(&p, 1, 10000) == 1 && read(ready_pipe[0], &c, 1) == 1 &&
	       c == 'n';
}

static void one(int sig)
{
	char buf[256] = "", cmd[256];
	ssize_t n;
	pid_t pid;
	int rc;

	CHECK_EQ(pipe(ready_pipe), 0);
	CHECK_EQ(pipe(out_pipe), 0);
	pid = dv_fork_in(nsh, headroom_child, NULL);
	close(ready_pipe[1]);
	close(out_pipe[1]);
	n = read(ready_pipe[0], buf, 1);
	CHECK(n == 1, "child ready (signal %d)", sig);
	if (n == 1) {
		CHECK(dv_link_has_xdp(nsh, va), "XDP attached while running");
		CHECK(dv_link_exists(nsh, tp), "TAP up while running");
		CHECK_EQ(dv_wait(dv_fork_in(nsp, send_frames, NULL)), 0);
		CHECK(polled_all(), "all %d frames polled before signal %d",
		      SHUTDOWN_FRAMES, sig);
	}
	kill(pid, sig);
	rc = dv_wait(pid);
	memset(buf, 0, sizeof(buf));
	n = read(out_pipe[0], buf, sizeof(buf) - 1);
	close(ready_pipe[0]);
	close(out_pipe[0]);
	if (sig == SIGKILL) {
		CHECK_EQ(rc, 128 + SIGKILL);
	} else {
		CHECK_EQ(rc, 0);
		CHECK(n > 0 && strstr(buf, "stopped by"),
		      "counters printed on signal %d", sig);
		snprintf(cmd, sizeof(cmd), ": rx %d dropped %d\n",
			 SHUTDOWN_FRAMES, SHUTDOWN_FRAMES);
		CHECK(strstr(buf, cmd), "signal %d: '%s', not '%s'", sig, buf,
		      cmd);
		printf("%s", buf);
	}
	CHECK(!dv_link_has_xdp(nsh, va), "no XDP on %s after signal %d", va,
	      sig);
	CHECK(!dv_link_exists(nsh, tp), "no TAP after signal %d", sig);
	snprintf(cmd, sizeof(cmd),
		 "ip netns exec %s ss -H --xdp 2>/dev/null | grep -q .", nsh);
	CHECK(system(cmd) != 0, "no AF_XDP socket after signal %d", sig);
	CHECK(system("ls /sys/fs/bpf 2>/dev/null | grep -q hr-devices") != 0,
	      "nothing pinned");
}

int main(void)
{
	char why[256];
	int pid = (int)getpid() % 1000000;

	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	snprintf(va, sizeof(va), "hrds%da", pid);
	snprintf(vb, sizeof(vb), "hrds%db", pid);
	snprintf(tp, sizeof(tp), "hrds%dt", pid);
	if (dv_ns_add("h", nsh) || dv_ns_add("p", nsp) ||
	    t_sh("ip link add %s netns %s type veth peer name %s netns %s", va,
		 nsh, vb, nsp) ||
	    t_sh("ip -n %s link set %s up", nsh, va) ||
	    t_sh("ip -n %s link set %s up", nsp, vb) ||
	    t_sh("ip -n %s addr add 10.80.0.1/24 dev %s", nsp, vb)) {
		CHECK(0, "namespaces and veth");
		return t_done();
	}
	one(SIGINT);
	one(SIGTERM);
	one(SIGKILL);
	dv_cleanup();
	snprintf(why, sizeof(why), "ip netns list | grep -q %s", nsp);
	CHECK(system(why) != 0, "namespace %s gone", nsp);
	snprintf(why, sizeof(why), "ip netns list | grep -q %s", nsh);
	CHECK(system(why) != 0, "namespace %s gone", nsh);
	return t_done();
}
