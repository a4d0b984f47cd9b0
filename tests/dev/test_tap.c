// SPDX-License-Identifier: MIT
/*
 * A TCP transfer through headroom while a UDP flood is dropped by XDP (the
 * cpumap thread's TCP-under-flood experiment, in small). Namespace P (the
 * client, 10.78.0.1) reaches namespace H over a kernel veth; in H headroom
 * reads the veth end through AF_XDP (afxdp device) and owns a TAP
 * interface (10.78.0.2, the server's address, in H's stack). The user's
 * program xsk_fwd on both devices drops UDP to port 9 and bridges the
 * rest: veth -> AF_XDP -> XDP -> TAP -> H's stack, and back H's stack ->
 * TAP -> XDP -> AF_XDP TX -> veth -> P, ARP included.
 *
 * The transfer must arrive byte-exact; every flood packet the client sent
 * is either counted dropped by the XDP program or by the kernel on its
 * way to the socket, and the kernel-side counters (our kernel program's
 * redirects, the socket's XDP_STATISTICS) agree with headroom's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "dev_netns.h"
#include "harness.h"
#include "kernel_side.h"
#include "headroom/datapath.h"
#include "headroom/devices.h"
#include "headroom/map.h"
#include "headroom/object.h"

#define XFER_BYTES (4u << 20)
#define FLOOD_PKTS 20000u
#define PORT 5001

static char nsh[32], nsp[32], va[IFNAMSIZ], vb[IFNAMSIZ], tp[IFNAMSIZ];

static uint8_t pattern(uint32_t i)
{
	return (uint8_t)(i * 7u + (i >> 11));
}

static int client(void *arg)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(PORT) };
	static uint8_t buf[65536];
	uint32_t sent = 0, i;
	int fd, tries;

	inet_pton(AF_INET, "10.78.0.2", &to.sin_addr);
	for (tries = 0; tries < 50; tries++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (!connect(fd, (void *)&to, sizeof(to)))
			break;
		close(fd);
		fd = -1;
		usleep(100000);
	}
	if (fd < 0)
		return 2;
	while (sent < XFER_BYTES) {
		uint32_t n = XFER_BYTES - sent < sizeof(buf) ?
				     XFER_BYTES - sent :
				     (uint32_t)sizeof(buf);
		ssize_t w;

		for (i = 0; i < n; i++)
			buf[i] = pattern(sent + i);
		w = send(fd, buf, n, 0);
		if (w <= 0)
			return 3;
		sent += (uint32_t)w;
	}
	shutdown(fd, SHUT_WR);
	/* Wait for the server's close, so every byte was taken. */
	while (recv(fd, buf, sizeof(buf), 0) > 0)
		;
	close(fd);
	return 0;
}

/* The sending veth's tx drops, from this netns's /proc/net/dev: veth
 * drops a frame when the peer's XDP ring (VETH_RING_SIZE) is full, and
 * such a frame never reaches the kernel's XDP program. */
static uint64_t tx_dropped(const char *ifname)
{
	unsigned long long v[12];
	char line[512], name[IFNAMSIZ + 2];
	uint64_t drops = 0;
	FILE *f = fopen("/proc/net/dev", "r");

	snprintf(name, sizeof(name), "%s:", ifname);
	while (f && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, name);

		if (p && sscanf(p + strlen(name),
				"%llu %llu %llu %llu %llu %llu %llu %llu "
				"%llu %llu %llu %llu",
				&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
				&v[7], &v[8], &v[9], &v[10], &v[11]) == 12)
			drops = v[11];
	}
	if (f)
		fclose(f);
	return drops;
}

/* The flood, paced in bursts; exits with nothing but reports the count
 * through the pipe in @arg. */
static int flood(void *arg)
{
	int *pfd = arg;
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9) };
	char payload[64] = "flood";
	uint32_t sent[2] = { 0 }, i;
	uint64_t drops0 = tx_dropped(vb);
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	inet_pton(AF_INET, "10.78.0.2", &to.sin_addr);
	for (i = 0; i < FLOOD_PKTS; i++) {
		if (sendto(fd, payload, sizeof(payload), 0, (void *)&to,
			   sizeof(to)) == sizeof(payload))
			sent[0]++;
		if (i % 128 == 127)
			usleep(2000);
	}
	usleep(100000);
	sent[1] = (uint32_t)(tx_dropped(vb) - drops0);
	if (write(pfd[1], sent, sizeof(sent)) != sizeof(sent))
		return 1;
	return 0;
}

struct server {
	int lfd;
	uint64_t got;
	uint64_t bad;
	int err;
};

static void *serve(void *arg)
{
	struct server *s = arg;
	static uint8_t buf[65536];
	int fd = accept(s->lfd, NULL, NULL);
	ssize_t n, i;

	if (fd < 0) {
		s->err = errno;
		return NULL;
	}
	while ((n = recv(fd, buf, sizeof(buf), 0)) > 0) {
		for (i = 0; i < n; i++)
			s->bad += buf[i] != pattern((uint32_t)(s->got + i));
		s->got += (uint64_t)n;
	}
	close(fd);
	return NULL;
}

static int setup(void)
{
	int pid = (int)getpid() % 1000000;

	if (dv_ns_add("h", nsh) || dv_ns_add("p", nsp))
		return -1;
	snprintf(va, sizeof(va), "hrdt%da", pid);
	snprintf(vb, sizeof(vb), "hrdt%db", pid);
	snprintf(tp, sizeof(tp), "hrdt%dt", pid);
	if (t_sh("ip link add %s netns %s type veth peer name %s netns %s", va,
		 nsh, vb, nsp) ||
	    t_sh("ip -n %s link set %s up", nsh, va) ||
	    t_sh("ip -n %s link set %s up", nsp, vb) ||
	    t_sh("ip -n %s addr add 10.78.0.1/24 dev %s", nsp, vb))
		return -1;
	/* XDP on a veth sees the sender's CHECKSUM_PARTIAL packets as
	 * they are: the client's kernel must finish its checksums. */
	if (dv_ns_enter(nsp) || dv_tx_csum_off(vb) || dv_ns_enter(nsh))
		return -1;
	return 0;
}

/*
 * P's neighbour entry for the server, the TAP's address (headroom forwards
 * P's frames to it at layer 2): without it the client and the flood start
 * by resolving it through headroom, and a flood that outruns the answer
 * loses packets in P's neighbour queue (unresolved_discards), out of the
 * books (seen under AddressSanitizer). 0 or -1.
 */
static int neigh_to_tap(void)
{
	struct ifreq r = { 0 };
	const uint8_t *m = (const uint8_t *)r.ifr_hwaddr.sa_data;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err;

	snprintf(r.ifr_name, sizeof(r.ifr_name), "%s", tp);
	err = fd < 0 || ioctl(fd, SIOCGIFHWADDR, &r);
	if (fd >= 0)
		close(fd);
	if (err)
		return -1;
	return t_sh("ip -n %s neigh replace 10.78.0.2 lladdr "
		    "%02x:%02x:%02x:%02x:%02x:%02x dev %s nud permanent",
		    nsp, m[0], m[1], m[2], m[3], m[4], m[5], vb) ?
		       -1 :
		       0;
}

static uint64_t cnt(const struct hr_dev *d, int which)
{
	HR_OPTS(hr_dev_counters, c);

	hr_dev_get_counters(d, &c);
	return which == 0 ? c.rx_packets :
	       which == 1 ? c.xdp_drop :
			    c.tx_packets;
}

static void run(void)
{
	char kobj[512];
	HR_OPTS(hr_afxdp_opts, ao, .kern_obj = kobj);
	HR_OPTS(hr_afxdp_stats, st);
	HR_OPTS(hr_tap_stats, ts);
	struct sockaddr_in me = { .sin_family = AF_INET,
				  .sin_port = htons(PORT) };
	struct hr_datapath *dp = NULL;
	struct hr_dev *x = NULL, *t = NULL;
	struct hr_object *uo = dv_hopen("xsk_user.o");
	struct server srv = { .lfd = -1 };
	pthread_t th;
	uint32_t xi, ti, key, flood_sent = 0, flood_acct[2] = { 0 };
	uint64_t fwd[4] = { 0 }, lost;
	pid_t cpid, fpid;
	int pfd[2], err, one = 1;

	snprintf(kobj, sizeof(kobj), "%s/xsk_hints.o", t_progs_dir());
	if (!uo)
		return;
	CHECK_EQ(hr_dp_create(NULL, &dp), 0);
	err = hr_dev_afxdp_create(dp, "x0", va, &ao, &x);
	CHECK(!err, "afxdp on %s: %s", va, strerror(-err));
	err = err ? err : hr_dev_tap_create(dp, "t0", tp, NULL, &t);
	CHECK(!err, "tap %s: %s", tp, strerror(-err));
	if (err)
		goto out;
	if (t_sh("ip addr add 10.78.0.2/24 dev %s", tp) || neigh_to_tap())
		goto out;
	xi = hr_dev_ifindex(x);
	ti = hr_dev_ifindex(t);
	CHECK_EQ(hr_map_update_elem(hr_object_find_map(uo, "tx_port"), &xi, &ti,
				    0),
		 0);
	CHECK_EQ(hr_map_update_elem(hr_object_find_map(uo, "tx_port"), &ti, &xi,
				    0),
		 0);
	hr_dev_attach_xdp(x, hr_object_find_prog(uo, "xsk_fwd"));
	hr_dev_attach_xdp(t, hr_object_find_prog(uo, "xsk_fwd"));
	CHECK_EQ(hr_dp_assign_queue(dp, x, 0, 0), 0);
	CHECK_EQ(hr_dp_assign_queue(dp, t, 0, 0), 0);
	CHECK_EQ(hr_dp_start(dp), 0);

	srv.lfd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(srv.lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	inet_pton(AF_INET, "10.78.0.2", &me.sin_addr);
	CHECK_EQ(bind(srv.lfd, (void *)&me, sizeof(me)), 0);
	CHECK_EQ(listen(srv.lfd, 1), 0);
	pthread_create(&th, NULL, serve, &srv);
	CHECK_EQ(pipe(pfd), 0);
	cpid = dv_fork_in(nsp, client, NULL);
	fpid = dv_fork_in(nsp, flood, pfd);
	close(pfd[1]); /* a flood that dies leaves read() an EOF */
	CHECK_EQ(dv_wait(fpid), 0);
	CHECK_EQ(read(pfd[0], flood_acct, sizeof(flood_acct)),
		 sizeof(flood_acct));
	flood_sent = flood_acct[0];
	CHECK_EQ(dv_wait(cpid), 0);
	pthread_join(th, NULL);
	usleep(200000);
	hr_dp_stop(dp);

	for (key = 0; key < 4; key++)
		hr_map_lookup_elem(hr_object_find_map(uo, "fwd_counts"), &key,
				   &fwd[key]);
	CHECK_EQ(hr_dev_afxdp_stats(x, &st), 0);
	CHECK_EQ(hr_dev_tap_stats(t, &ts), 0);
	printf("TCP %llu of %u bytes, %llu differing; flood sent %u, dropped "
	       "by XDP %llu; forwarded %llu (failed %llu)\n",
	       (unsigned long long)srv.got, XFER_BYTES,
	       (unsigned long long)srv.bad, flood_sent,
	       (unsigned long long)fwd[0], (unsigned long long)fwd[1],
	       (unsigned long long)fwd[2]);
	printf("kernel: redirected %llu to AF_XDP, socket dropped %llu (ring "
	       "full %llu, fill empty %llu); headroom: afxdp rx %llu xdp_drop "
	       "%llu tx %llu (completed %llu); tap rx %llu tx %llu\n",
	       (unsigned long long)st.kern_redirect,
	       (unsigned long long)st.rx_dropped,
	       (unsigned long long)st.rx_ring_full,
	       (unsigned long long)st.rx_fill_ring_empty,
	       (unsigned long long)cnt(x, 0), (unsigned long long)cnt(x, 1),
	       (unsigned long long)st.tx_sent,
	       (unsigned long long)st.tx_completed,
	       (unsigned long long)ts.rx_frames,
	       (unsigned long long)ts.tx_frames);
	CHECK_EQ(srv.err, 0);
	CHECK_EQ(srv.got, XFER_BYTES);
	CHECK_EQ(srv.bad, 0);
	CHECK_EQ(flood_sent, FLOOD_PKTS);
	/* Every flood packet: dropped by XDP, by the kernel before the
	 * socket (XDP_STATISTICS rx_dropped, and rx_ring_full: xsk_rcv
	 * counts a full RX ring there, not in rx_dropped), or by the sending
	 * veth when the peer's ring was full (its tx drops) - no other way
	 * out. The socket's and the veth's drops may be TCP segments too. */
	lost = st.rx_dropped + st.rx_ring_full;
	printf("sending veth dropped %u while the flood ran\n", flood_acct[1]);
	CHECK(fwd[0] <= flood_sent &&
		      flood_sent - fwd[0] <= lost + flood_acct[1],
	      "flood %u = XDP %llu + socket %llu + veth %u", flood_sent,
	      (unsigned long long)fwd[0], (unsigned long long)lost,
	      flood_acct[1]);
	CHECK(fwd[0] >= flood_sent * 9 / 10, "most of the flood reached XDP");
	/* Kernel and headroom agree on what crossed: every redirect the
	 * kernel program made is a frame headroom received or the socket
	 * dropped; what XDP dropped on the afxdp device is the flood. */
	CHECK_EQ(st.kern_redirect, cnt(x, 0) + lost);
	CHECK_EQ(cnt(x, 1), fwd[0]);
	CHECK_EQ(fwd[2], 0);
	CHECK_EQ(st.tx_sent, cnt(x, 2));
	CHECK_EQ(ts.tx_frames, cnt(t, 2));
out:
	if (srv.lfd >= 0)
		close(srv.lfd);
	hr_dp_destroy(dp);
	hr_object_close(uo);
	CHECK(!dv_link_has_xdp(nsh, va), "no XDP left on %s", va);
	CHECK(!dv_link_exists(nsh, tp), "TAP %s gone with its device", tp);
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
	run();
	dv_cleanup();
	return t_done();
}
