/* SPDX-License-Identifier: MIT */
/*
 * Network namespaces for the real-interface device tests (test_afxdp,
 * test_afpacket, test_tap): named "hr-devices-<pid>-<tag>", made with
 * iproute2 and deleted (with every veth and TAP in them) at exit, on
 * SIGINT / SIGTERM, and by dv_cleanup(). Children forked into one run a
 * function there (the traffic of the other side).
 */
#ifndef HR_TESTS_DEV_NETNS_H
#define HR_TESTS_DEV_NETNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Makes namespace "hr-devices-<pid>-<tag>" into @name (32 bytes), with
 * lo up and IPv6 off; 0 or -1. */
int dv_ns_add(const char *tag, char *name);
/* The calling thread into @name ("" or NULL: the original one). */
int dv_ns_enter(const char *name);
/* Deletes every namespace made, back to the original namespace. */
void dv_cleanup(void);
/* A child in namespace @ns running @fn(@arg); its exit status is fn's
 * return. The child's pid, or -1. */
pid_t dv_fork_in(const char *ns, int (*fn)(void *), void *arg);
/* Waits for @pid: its exit status, or 128 + signal. */
int dv_wait(pid_t pid);
/* ETHTOOL_STXCSUM off on @ifname (current namespace): the kernel then
 * sends complete checksums, where XDP on a veth would otherwise see
 * CHECKSUM_PARTIAL packets. 0 or -errno. */
int dv_tx_csum_off(const char *ifname);
/* Whether interface @ifname exists in namespace @ns (NULL: current). */
bool dv_link_exists(const char *ns, const char *ifname);
/* Whether an XDP program is attached to @ifname in @ns. */
bool dv_link_has_xdp(const char *ns, const char *ifname);

/* @n broadcast frames of 60 bytes and EtherType @proto sent on @ifname
 * (current namespace) with AF_PACKET, byte 14 numbering them; 0 or
 * -errno. Where IPv6 is off (dv_ns_add) they are all the peer sees. */
int dv_send_frames(const char *ifname, int n, uint16_t proto);

struct hr_object;
/* $BUILD/progs/@name opened by headroom (one CPU); NULL after a failed
 * check naming the loader's error. */
struct hr_object *dv_hopen(const char *name);

#endif /* HR_TESTS_DEV_NETNS_H */
