/* SPDX-License-Identifier: MIT */
/*
 * The routing and neighbour tables bpf_fib_lookup() consults: one
 * process-wide set (as one network namespace), filled by the embedding
 * program or the CLI's configuration. Addresses are in network order.
 */
#ifndef HEADROOM_FIB_H
#define HEADROOM_FIB_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Route types (the kernel's RTN_*: what the lookup answers for each). */
enum hr_fib_type {
	HR_FIB_UNICAST = 0, /* forwarded: BPF_FIB_LKUP_RET_SUCCESS ... */
	HR_FIB_BLACKHOLE, /* BPF_FIB_LKUP_RET_BLACKHOLE */
	HR_FIB_UNREACHABLE, /* BPF_FIB_LKUP_RET_UNREACHABLE */
	HR_FIB_PROHIBIT, /* BPF_FIB_LKUP_RET_PROHIBIT */
	HR_FIB_LOCAL, /* to this host: BPF_FIB_LKUP_RET_NOT_FWDED */
};

struct hr_fib_route {
	int family; /* AF_INET or AF_INET6 */
	uint8_t dst[16]; /* prefix: 4 bytes for IPv4 */
	uint8_t prefix_len;
	enum hr_fib_type type;
	uint32_t ifindex; /* output device of a unicast route */
	int gw_family; /* 0: on-link; AF_INET or AF_INET6 */
	uint8_t gw[16];
	uint32_t metric; /* the lowest wins among equal prefixes */
	uint32_t mtu; /* locked route MTU ('mtu lock N'); 0: the device's */
	uint8_t prefsrc[16]; /* source for BPF_FIB_LOOKUP_SRC; 0: device's */
};

struct hr_fib_neigh {
	int family;
	uint8_t addr[16];
	uint32_t ifindex;
	uint8_t mac[6];
};

struct hr_fib_dev {
	uint32_t ifindex;
	uint32_t mtu; /* L3 MTU (0: 1500) */
	uint8_t mac[6];
	bool forwarding; /* IPv4 forwarding on this device */
	uint8_t addr4[4]; /* first IPv4 address, for LOOKUP_SRC (0: none) */
	uint8_t addr6[16]; /* first IPv6 address (0: none) */
};

/* Adds or replaces (same ifindex) a device; 0 or -EINVAL / -ENOMEM. */
int hr_fib_dev_set(const struct hr_fib_dev *dev);
/* Adds a route; -EEXIST for the same prefix and metric, -EINVAL for a
 * bad family or prefix length, -ENODEV for a unicast route's device. */
int hr_fib_route_add(const struct hr_fib_route *route);
/* Adds or replaces a neighbour entry (always valid, as NUD_PERMANENT). */
int hr_fib_neigh_add(const struct hr_fib_neigh *neigh);
/* net.ipv6.conf.all.forwarding (default off, as in the kernel). */
void hr_fib_set_ipv6_forwarding(bool on);
/* Empties every table. */
void hr_fib_flush(void);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_FIB_H */
