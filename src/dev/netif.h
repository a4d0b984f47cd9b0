/* SPDX-License-Identifier: MIT */
/* What the real-interface devices (afxdp, afpacket, tap) ask the kernel of
 * an interface: SIOCGIFINDEX, SIOCGIFMTU, SIOCGIFHWADDR as ip-link shows. */
#ifndef HR_DEV_NETIF_H
#define HR_DEV_NETIF_H

#include <stdint.h>

/* The kernel ifindex, L3 MTU and MAC address of @ifname; 0 or -errno
 * (-ENODEV: no such interface). */
int hr_netif_query(const char *ifname, int *ifindex, uint32_t *mtu,
		   uint8_t mac[6]);

/* Sets IFF_UP on @ifname; 0 or -errno. */
int hr_netif_up(const char *ifname);

#endif /* HR_DEV_NETIF_H */
