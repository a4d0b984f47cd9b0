// SPDX-License-Identifier: MIT
/*
 * The afpacket device against the kernel: UDP flows from namespace P over
 * a kernel veth into headroom's afpacket device (two TPACKET_V3 queues in
 * a fanout group) in namespace H. The user's program (xsk_user_hints)
 * must read the software hints: the Toeplitz hash of the flow with the
 * standard key (computed here from the addresses and ports we sent), the
 * L4 UDP IPv4 type, a receive timestamp within the test's clock reading,
 * and no VLAN. The kernel spread the flows over both queues, and its
 * PACKET_STATISTICS agree with what headroom received. Then xsk_fwd sends
 * every packet back out of the device (sendmmsg): P sees them arrive.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "dev_netns.h"
#include "harness.h"
#include "kernel_side.h"
#include "dev/toeplitz.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/object.h"

#define NPORTS 64
#define PORT0 42000

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

static uint64_t now_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sends the flows; with @arg, also counts how many come back (frames to
 * UDP port 7777 arriving on vb, not our own outgoing): the exit status. */
static int send_flows(void *arg)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(7777) };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETH_P_ALL) };
	int back = -1, got = 0, i;
	uint8_t buf[2048];

	if (arg) {
		back = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
		sll.sll_ifindex = (int)if_nametoindex(vb);
		if (back < 0 || bind(back, (void *)&sll, sizeof(sll)))
			return 255;
	}
	inet_pton(AF_INET, "10.79.0.2", &to.sin_addr);
	for (i = 0; i < NPORTS; i++) {
		struct sockaddr_in me = { .sin_family = AF_INET,
					  .sin_port = htons(PORT0 + i) };
		int fd = socket(AF_INET, SOCK_DGRAM, 0);

		if (fd < 0 || bind(fd, (void *)&me, sizeof(me)) ||
		    sendto(fd, "hint", 4, 0, (void *)&to, sizeof(to)) != 4)
			return 254;
		close(fd);
	}
	if (back < 0)
		return 0;
	for (;;) {
		struct pollfd pf = { back, POLLIN, 0 };
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		ssize_t n;

		if (poll(&pf, 1, 1000) <= 0)
			break;
		n = recvfrom(back, buf, sizeof(buf), 0, (void *)&from, &fl);
		if (n >= 42 && from.sll_pkttype != PACKET_OUTGOING &&
		    buf[23] == 17 && buf[36] == 7777 >> 8 &&
		    buf[37] == (7777 & 255))
			got++;
		if (got == NPORTS)
			break;
	}
	return got;
}

static int setup(void)
{
	int pid = (int)getpid() % 1000000;

	if (dv_ns_add("h", nsh) || dv_ns_add("p", nsp))
		return -1;
	snprintf(va, sizeof(va), "hrdp%da", pid);
	snprintf(vb, sizeof(vb), "hrdp%db", pid);
	if (t_sh("ip link add %s netns %s type veth peer name %s netns %s", va,
		 nsh, vb, nsp) ||
	    t_sh("ip -n %s link set %s up", nsh, va) ||
	    t_sh("ip -n %s link set %s up", nsp, vb) ||
	    t_sh("ip -n %s addr add 10.79.0.1/24 dev %s", nsp, vb) ||
	    t_sh("ip -n %s neigh add 10.79.0.2 lladdr 02:00:00:00:79:02 dev "
		 "%s",
		 nsp, vb))
		return -1;
	return dv_ns_enter(nsh);
}

static uint64_t rx_of(struct hr_dev *d)
{
	HR_OPTS(hr_dev_counters, c);

	hr_dev_get_counters(d, &c);
	return c.rx_packets;
}

static void run(const char *prog, bool reflect)
{
	HR_OPTS(hr_afpacket_opts, po, .nrxq = 2);
	HR_OPTS(hr_afpacket_stats, st);
	struct hr_datapath *dp = NULL;
	struct hr_dev *d = NULL;
	struct hr_object *uo = dv_hopen("xsk_user.o");
	uint64_t t0, t1, q0 = 0, q1 = 0, b;
	uint32_t i, di;
	int err, rc;

	if (!uo)
		return;
	CHECK_EQ(hr_dp_create(NULL, &dp), 0);
	err = hr_dev_afpacket_create(dp, "p0", va, &po, &d);
	CHECK(!err, "afpacket on %s: %s", va, strerror(-err));
	if (err)
		goto out;
	di = hr_dev_ifindex(d);
	CHECK_EQ(hr_map_update_elem(hr_object_find_map(uo, "tx_port"), &di, &di,
				    0),
		 0);
	hr_dev_attach_xdp(d, hr_object_find_prog(uo, prog));
	CHECK_EQ(hr_dp_assign_queue(dp, d, 0, 0), 0);
	CHECK_EQ(hr_dp_assign_queue(dp, d, 1, 0), 0);
	CHECK_EQ(hr_dp_start(dp), 0);
	t0 = now_real();
	rc = dv_wait(dv_fork_in(nsp, send_flows, reflect ? "back" : NULL));
	for (i = 0; i < 300 && rx_of(d) < NPORTS; i++)
		usleep(10000);
	t1 = now_real();
	hr_dp_stop(dp);
	CHECK_EQ(hr_dev_afpacket_stats(d, &st), 0);
	hr_dev_get_queue_counters(d, 0, &q0, &b);
	hr_dev_get_queue_counters(d, 1, &q1, &b);
	printf("afpacket %s: received %llu (queues %llu + %llu), kernel "
	       "tp_packets %llu tp_drops %llu, sent %llu\n",
	       prog, (unsigned long long)rx_of(d), (unsigned long long)q0,
	       (unsigned long long)q1, (unsigned long long)st.tp_packets,
	       (unsigned long long)st.tp_drops, (unsigned long long)st.tx_sent);
	/* ARP or other frames of P may come too: at least the flows. */
	CHECK(rx_of(d) >= NPORTS, "received %llu",
	      (unsigned long long)rx_of(d));
	CHECK_EQ(st.tp_packets, rx_of(d));
	CHECK_EQ(st.tp_drops, 0);
	CHECK(q0 && q1, "fanout used both queues: %llu %llu",
	      (unsigned long long)q0, (unsigned long long)q1);
	if (reflect) {
		CHECK_EQ(rc, NPORTS);
		CHECK(st.tx_sent >= NPORTS, "sent %llu",
		      (unsigned long long)st.tx_sent);
		goto out;
	}
	CHECK_EQ(rc, 0);
	for (i = 0; i < NPORTS; i++) {
		uint32_t port = PORT0 + i;
		uint8_t tuple[12] = { 10, 79, 0, 1, 10, 79, 0, 2 };
		struct xsk_seen s = { 0 };
		uint32_t want;

		tuple[8] = (uint8_t)(port >> 8);
		tuple[9] = (uint8_t)port;
		tuple[10] = 7777 >> 8;
		tuple[11] = 7777 & 255;
		want = hr_toeplitz(hr_rss_default_key, HR_RSS_KEY_SIZE, tuple,
				   sizeof(tuple));
		if (hr_map_lookup_elem(hr_object_find_map(uo, "seen"), &port,
				       &s)) {
			CHECK(0, "port %u not seen", port);
			continue;
		}
		CHECK_EQ(s.ret_hash, 0);
		CHECK(s.hash == want, "port %u: hash %#x, Toeplitz %#x", port,
		      s.hash, want);
		CHECK_EQ(s.hash_type, 0x29); /* L3_IPV4 | L4 | L4_UDP */
		CHECK_EQ(s.ret_ts, 0);
		CHECK(s.ts >= t0 && s.ts <= t1, "timestamp %llu not in run",
		      (unsigned long long)s.ts);
		CHECK_EQ(s.ret_vlan, -ENODATA);
	}
out:
	hr_dp_destroy(dp);
	hr_object_close(uo);
}

int main(void)
{
	char why[256];

	if (!t_have_kernel(why, sizeof(why)))
		return t_skip(why);
	if (setup()) {
		CHECK(0, "namespaces and veth");
		return t_done();
	}
	run("xsk_user_hints", false);
	run("xsk_fwd", true);
	dv_cleanup();
	return t_done();
}
