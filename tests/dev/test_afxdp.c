// SPDX-License-Identifier: MIT
/*
 * The afxdp device against the kernel: UDP from namespace P over a kernel
 * veth into namespace H, where headroom reads the veth end through AF_XDP
 * with its hint program (progs/dev/xsk_hints.bpf.c), and the user's program
 * (xsk_user_hints) reads the hints through the kfuncs. The kernel's own
 * value is recorded on the sending side by a tc egress program
 * (xsk_skbhash: skb_get_hash of the same skb), and must be what the user's
 * program got; the timestamp is what veth reports for an skb (its
 * hardware timestamp: 0 here), the VLAN tag is the one a VLAN device on
 * the sender put in the skb (hardware-accelerated, so not in the data).
 * Then generic mode (no device-bound program) and no_hints (no metadata
 * written at all): every hint -EOPNOTSUPP;
 * multi-buffer refused; and nothing left on the interface after destroy.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dev_netns.h"
#include "harness.h"
#include "kernel_side.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "headroom/print.h"

#define NPORTS 64
#define NVLAN 16
#define PORT0 40000
#define VPORT0 41000

struct xsk_seen {
	int32_t ret_hash;
	uint32_t hash;
	uint32_t hash_type;
	int32_t ret_ts;
	uint64_t ts;
	int32_t ret_vlan;
	uint32_t vlan_tci;
	uint32_t count;
	uint32_t pad;
};

static char nsh[32], nsp[32], va[IFNAMSIZ], vb[IFNAMSIZ];
static bool have_vlan;
static unsigned int nvlan;

struct send_args {
	const char *dst;
	unsigned int port0, n;
};

static int send_udp(void *arg)
{
	const struct send_args *a = arg;
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(7777) };
	unsigned int i;

	inet_pton(AF_INET, a->dst, &to.sin_addr);
	for (i = 0; i < a->n; i++) {
		struct sockaddr_in me = { .sin_family = AF_INET,
					  .sin_port = htons(a->port0 + i) };
		int fd = socket(AF_INET, SOCK_DGRAM, 0);

		if (fd < 0 || bind(fd, (void *)&me, sizeof(me)) ||
		    sendto(fd, "hint", 4, 0, (void *)&to, sizeof(to)) != 4)
			return 1;
		close(fd);
	}
	return 0;
}

static int mac_of(const char *ifname, char *out, size_t sz)
{
	struct ifreq r = { 0 };
	unsigned char *m = (unsigned char *)r.ifr_hwaddr.sa_data;
	int fd = socket(AF_INET, SOCK_DGRAM, 0), err;

	snprintf(r.ifr_name, sizeof(r.ifr_name), "%s", ifname);
	err = ioctl(fd, SIOCGIFHWADDR, &r);
	close(fd);
	snprintf(out, sz, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
		 m[3], m[4], m[5]);
	return err;
}

static int setup(void)
{
	char mac[32];

	if (dv_ns_add("h", nsh) || dv_ns_add("p", nsp))
		return -1;
	snprintf(va, sizeof(va), "hrdv%da", (int)getpid() % 1000000);
	snprintf(vb, sizeof(vb), "hrdv%db", (int)getpid() % 1000000);
	if (t_sh("ip link add %s netns %s type veth peer name %s netns %s", va,
		 nsh, vb, nsp) ||
	    t_sh("ip -n %s link set %s up", nsh, va) ||
	    t_sh("ip -n %s link set %s up", nsp, vb) ||
	    t_sh("ip -n %s addr add 10.77.0.1/24 dev %s", nsp, vb))
		return -1;
	/* A VLAN device needs the 8021q module, which some kernels lack. */
	have_vlan = !t_sh("ip -n %s link add link %s name %s.5 type vlan id 5 "
			  "2>/dev/null",
			  nsp, vb, vb) &&
		    !t_sh("ip -n %s link set %s.5 up", nsp, vb) &&
		    !t_sh("ip -n %s addr add 10.77.1.1/24 dev %s.5", nsp, vb);
	if (!have_vlan)
		printf("no VLAN devices on this kernel (8021q): the VLAN hint "
		       "is checked as -ENODATA only\n");
	if (dv_ns_enter(nsh) || mac_of(va, mac, sizeof(mac)))
		return -1;
	if (t_sh("ip -n %s neigh add 10.77.0.2 lladdr %s dev %s", nsp, mac,
		 vb) ||
	    (have_vlan &&
	     t_sh("ip -n %s neigh add 10.77.1.2 lladdr %s dev %s.5", nsp, mac,
		  vb)))
		return -1;
	return 0;
}

/* The tc egress recorder on the sender's veth end, attached from P. */
static struct bpf_object *attach_recorder(void)
{
	struct bpf_object *o = t_kopen("xsk_skbhash.o");
	LIBBPF_OPTS(bpf_tc_hook, hook, .attach_point = BPF_TC_EGRESS);
	LIBBPF_OPTS(bpf_tc_opts, to);

	if (!o)
		return NULL;
	if (dv_ns_enter(nsp))
		return o;
	hook.ifindex = (int)if_nametoindex(vb);
	CHECK(hook.ifindex > 0, "%s in %s", vb, nsp);
	bpf_tc_hook_create(&hook);
	to.prog_fd = t_kprog(o, "record_hash");
	CHECK_EQ(bpf_tc_attach(&hook, &to), 0);
	CHECK_EQ(dv_ns_enter(nsh), 0);
	return o;
}

static uint64_t rx_of(struct hr_dev *d)
{
	HR_OPTS(hr_dev_counters, c);

	hr_dev_get_counters(d, &c);
	return c.rx_packets;
}

static void wait_rx(struct hr_dev *d, uint64_t n)
{
	int i;

	for (i = 0; i < 300 && rx_of(d) < n; i++)
		usleep(10000);
}

static void send_from_p(const char *dst, unsigned int port0, unsigned int n)
{
	struct send_args a = { dst, port0, n };

	CHECK_EQ(dv_wait(dv_fork_in(nsp, send_udp, &a)), 0);
}

static void bound_hints(struct bpf_object *rec)
{
	char kobj[512];
	HR_OPTS(hr_afxdp_opts, ao, .kern_obj = kobj);
	HR_OPTS(hr_afxdp_stats, st);
	struct hr_datapath *dp = NULL;
	struct hr_dev *x = NULL;
	struct hr_object *uo = dv_hopen("xsk_user.o");
	struct hr_map *seen;
	unsigned int i, ok = 0;
	int err;

	snprintf(kobj, sizeof(kobj), "%s/xsk_hints.o", t_progs_dir());
	if (!uo)
		return;
	CHECK_EQ(hr_dp_create(NULL, &dp), 0);
	err = hr_dev_afxdp_create(dp, "xa", va, &ao, &x);
	CHECK(!err, "hr_dev_afxdp_create %s: %s", va, strerror(-err));
	if (err)
		goto out;
	CHECK(dv_link_has_xdp(nsh, va), "XDP attached on %s", va);
	hr_dev_attach_xdp(x, hr_object_find_prog(uo, "xsk_user_hints"));
	CHECK_EQ(hr_dp_assign_queue(dp, x, 0, 0), 0);
	CHECK_EQ(hr_dp_start(dp), 0);
	send_from_p("10.77.0.2", PORT0, NPORTS);
	nvlan = have_vlan ? NVLAN : 0;
	if (nvlan)
		send_from_p("10.77.1.2", VPORT0, nvlan);
	wait_rx(x, NPORTS + nvlan);
	hr_dp_stop(dp);

	CHECK_EQ(hr_dev_afxdp_stats(x, &st), 0);
	printf("afxdp on %s: %s, %s, need_wakeup %d; kernel redirected %llu, "
	       "headroom received %llu\n",
	       va, st.bound ? "device-bound" : "not bound",
	       st.zerocopy ? "zero copy" : "copy mode", st.need_wakeup,
	       (unsigned long long)st.kern_redirect,
	       (unsigned long long)rx_of(x));
	CHECK(!st.zerocopy, "veth has no zero copy");
	CHECK(st.need_wakeup, "need-wakeup is the default");
	CHECK(!st.busy_poll, "busy polling only when asked");
	CHECK_EQ(st.kern_redirect, NPORTS + nvlan);
	CHECK_EQ(rx_of(x), st.kern_redirect);
	CHECK_EQ(st.rx_no_meta, 0);
	seen = hr_object_find_map(uo, "seen");
	CHECK(st.bound && st.meta, "veth implements the metadata kfuncs");
	/* A kernel that refuses bpf_xdp_adjust_meta (a host difference,
	 * kernel_side.h) gets the hints as the packet's first bytes, which
	 * the device takes off: the user's program parses the UDP port at
	 * its usual place, or the port below is never seen. */
	CHECK(st.meta_in_data == t_host_refuses_adjust_meta(),
	      "hints in the packet (xsk_hints_head) %d: %s", st.meta_in_data,
	      t_host_refuses_adjust_meta() ? t_host_note() :
					     "adjust_meta taken");
	for (i = 0; i < NPORTS + nvlan; i++) {
		uint32_t port = i < NPORTS ? PORT0 + i : VPORT0 + i - NPORTS;
		uint32_t khash = 0;
		struct xsk_seen s = { 0 };

		CHECK_EQ(bpf_map_lookup_elem(t_kmap(rec, "skb_hash"), &port,
					     &khash),
			 0);
		if (hr_map_lookup_elem(seen, &port, &s)) {
			CHECK(0, "port %u not seen by headroom", port);
			continue;
		}
		CHECK_EQ(s.count, 1);
		CHECK_EQ(s.ret_hash, 0);
		CHECK(s.hash == khash, "port %u: rx_hash %#x, kernel %#x", port,
		      s.hash, khash);
		/* veth: XDP_RSS_TYPE_L4 when the hash is an L4 one. */
		CHECK(s.hash_type == 0 || s.hash_type == (1u << 3),
		      "hash type %#x", s.hash_type);
		/* veth reports the skb's hardware timestamp: none here. */
		CHECK_EQ(s.ret_ts, 0);
		CHECK_EQ(s.ts, 0);
		if (i < NPORTS) {
			CHECK_EQ(s.ret_vlan, -ENODATA);
		} else {
			CHECK_EQ(s.ret_vlan, 0);
			CHECK_EQ(s.vlan_tci & 0xfff, 5);
		}
		ok += s.hash == khash && khash;
	}
	printf("rx_hash equal to the kernel's skb hash: %u of %u packets\n", ok,
	       NPORTS + nvlan);
out:
	hr_dp_destroy(dp);
	hr_object_close(uo);
	CHECK(!dv_link_has_xdp(nsh, va), "no XDP left on %s", va);
}

/*
 * The socket options: zero copy required on a veth (which has none)
 * refuses the device and leaves nothing on the interface; copy mode asked
 * for, need-wakeup off and busy polling on give a device that says so
 * and carries traffic.
 */
static void socket_modes(void)
{
	char kobj[512];
	HR_OPTS(hr_afxdp_opts, zc, .kern_obj = kobj, .zerocopy = 1);
	HR_OPTS(hr_afxdp_opts, ao, .kern_obj = kobj, .zerocopy = -1,
		.no_need_wakeup = true, .busy_poll = true);
	HR_OPTS(hr_afxdp_stats, st);
	struct hr_datapath *dp = NULL;
	struct hr_dev *x = NULL;
	struct hr_object *uo = dv_hopen("xsk_user.o");
	int err;

	snprintf(kobj, sizeof(kobj), "%s/xsk_hints.o", t_progs_dir());
	if (!uo)
		return;
	CHECK_EQ(hr_dp_create(NULL, &dp), 0);
	err = hr_dev_afxdp_create(dp, "xz", va, &zc, &x);
	CHECK(err < 0, "zero copy required on a veth: %d", err);
	CHECK(!dv_link_has_xdp(nsh, va), "no XDP left after the refusal");
	err = hr_dev_afxdp_create(dp, "xb", va, &ao, &x);
	CHECK(!err, "copy mode, busy polling: %s", strerror(-err));
	if (err)
		goto out;
	hr_dev_attach_xdp(x, hr_object_find_prog(uo, "xsk_user_hints"));
	CHECK_EQ(hr_dp_assign_queue(dp, x, 0, 0), 0);
	CHECK_EQ(hr_dp_start(dp), 0);
	send_from_p("10.77.0.2", PORT0 + 600, 4);
	wait_rx(x, 4);
	hr_dp_stop(dp);
	CHECK_EQ(hr_dev_afxdp_stats(x, &st), 0);
	CHECK(!st.zerocopy && !st.need_wakeup && st.busy_poll,
	      "zerocopy %d need_wakeup %d busy_poll %d", st.zerocopy,
	      st.need_wakeup, st.busy_poll);
	CHECK_EQ(rx_of(x), 4);
out:
	hr_dp_destroy(dp);
	hr_object_close(uo);
	CHECK(!dv_link_has_xdp(nsh, va), "no XDP left on %s", va);
}

/*
 * No hints: generic XDP (the kernel program cannot be bound; it writes
 * -EOPNOTSUPP for each hint) or no_hints (xsk_bare writes nothing, and
 * headroom reads nothing of the stale bytes before the frame). Either
 * way the user's kfuncs say -EOPNOTSUPP.
 */
static void no_hints_mode(bool skb_mode)
{
	char kobj[512];
	HR_OPTS(hr_afxdp_opts, ao, .kern_obj = kobj, .skb_mode = skb_mode,
		.no_hints = !skb_mode);
	HR_OPTS(hr_afxdp_opts, sg, .kern_obj = kobj, .frags = true);
	HR_OPTS(hr_afxdp_stats, st);
	const char *mode = skb_mode ? "generic mode" : "no_hints";
	struct hr_datapath *dp = NULL;
	struct hr_dev *x = NULL;
	struct hr_object *uo = dv_hopen("xsk_user.o");
	struct xsk_seen s = { 0 };
	uint32_t port = PORT0 + (skb_mode ? 500 : 501);
	int err;

	snprintf(kobj, sizeof(kobj), "%s/xsk_hints.o", t_progs_dir());
	if (!uo)
		return;
	CHECK_EQ(hr_dp_create(NULL, &dp), 0);
	CHECK_EQ(hr_dev_afxdp_create(dp, "xs", va, &sg, &x), -EOPNOTSUPP);
	err = hr_dev_afxdp_create(dp, "xg", va, &ao, &x);
	CHECK(!err, "%s afxdp: %s", mode, strerror(-err));
	if (err)
		goto out;
	hr_dev_attach_xdp(x, hr_object_find_prog(uo, "xsk_user_hints"));
	CHECK_EQ(hr_dp_assign_queue(dp, x, 0, 0), 0);
	CHECK_EQ(hr_dp_start(dp), 0);
	send_from_p("10.77.0.2", port, 1);
	wait_rx(x, 1);
	hr_dp_stop(dp);
	CHECK_EQ(hr_dev_afxdp_stats(x, &st), 0);
	CHECK(!st.bound, "%s is not bound", mode);
	/* Generic mode writes -EOPNOTSUPP hints with xsk_plain, unless
	 * the kernel refuses bpf_xdp_adjust_meta (a host difference). */
	CHECK(st.meta == (skb_mode && !t_host_refuses_adjust_meta()),
	      "%s: kernel metadata %d", mode, st.meta);
	CHECK_EQ(st.rx_no_meta, 0);
	CHECK(st.kern_redirect >= 1, "%s: the kernel program redirected", mode);
	CHECK_EQ(hr_map_lookup_elem(hr_object_find_map(uo, "seen"), &port, &s),
		 0);
	CHECK_EQ(s.ret_hash, -EOPNOTSUPP);
	CHECK_EQ(s.ret_ts, -EOPNOTSUPP);
	CHECK_EQ(s.ret_vlan, -EOPNOTSUPP);
out:
	hr_dp_destroy(dp);
	hr_object_close(uo);
	CHECK(!dv_link_has_xdp(nsh, va), "no XDP left on %s", va);
}

/* The library's warnings; "frames out" means a device lost frames to the
 * kernel at teardown. */
static unsigned int frames_out;

static int count_warnings(enum hr_print_level level, const char *fmt,
			  va_list ap)
{
	char msg[256];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (strstr(msg, "frames out"))
		frames_out++;
	fputs(msg, stderr);
	return 0;
}

int main(void)
{
	char why[256];
	struct bpf_object *rec;

	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	if (setup()) {
		CHECK(0, "namespaces and veth");
		return t_done();
	}
	hr_set_print(count_warnings);
	rec = attach_recorder();
	if (rec) {
		bound_hints(rec);
		no_hints_mode(true);
		no_hints_mode(false);
		socket_modes();
		bpf_object__close(rec);
	}
	/* Fill ring, RX ring and completions handed back at teardown. */
	CHECK_EQ(frames_out, 0);
	dv_cleanup();
	CHECK(!dv_link_exists(NULL, va), "veth gone");
	return t_done();
}
