// SPDX-License-Identifier: MIT
/* A kernel interface's index, MTU and MAC, and bringing it up, through
 * the SIOCGIF* / SIOCSIFFLAGS ioctls on a datagram socket (as ip-link's
 * older ifconfig path does). */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dev/netif.h"

static int netif_ioctl(const char *ifname, unsigned long req, struct ifreq *r)
{
	int fd, err = 0;

	if (strlen(ifname) >= IFNAMSIZ)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	snprintf(r->ifr_name, sizeof(r->ifr_name), "%s", ifname);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, req, r))
		err = -errno;
	close(fd);
	return err;
}

int hr_netif_query(const char *ifname, int *ifindex, uint32_t *mtu,
		   uint8_t mac[6])
{
	struct ifreq r;
	int err;

	err = netif_ioctl(ifname, SIOCGIFINDEX, &r);
	if (err)
		return err;
	*ifindex = r.ifr_ifindex;
	err = netif_ioctl(ifname, SIOCGIFMTU, &r);
	if (err)
		return err;
	*mtu = (uint32_t)r.ifr_mtu;
	err = netif_ioctl(ifname, SIOCGIFHWADDR, &r);
	if (err)
		return err;
	memcpy(mac, r.ifr_hwaddr.sa_data, 6);
	return 0;
}

int hr_netif_up(const char *ifname)
{
	struct ifreq r;
	int fd, err;

	err = netif_ioctl(ifname, SIOCGIFFLAGS, &r);
	if (err)
		return err;
	if (r.ifr_flags & IFF_UP)
		return 0;
	r.ifr_flags |= IFF_UP;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	err = ioctl(fd, SIOCSIFFLAGS, &r) ? -errno : 0;
	close(fd);
	return err;
}
