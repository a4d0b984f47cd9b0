/* The UDP header behind an IPv4 header of any length (ihl * 4): a packet
 * pointer with a variable part, its reads proven by a data_end test made
 * through it. The rejected twin reads ihl before testing that the IPv4
 * header is there at all. */
#include "v.h"

#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/udp.h>

SEC("xdp") int bad_pkt_var(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct iphdr *ip = data + sizeof(struct ethhdr);
	struct udphdr *udp;

	udp = (void *)ip + ip->ihl * 4;
	if ((void *)(udp + 1) > end)
		return XDP_PASS;
	return udp->dest == 9 ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_pkt_var(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct iphdr *ip = data + sizeof(struct ethhdr);
	struct udphdr *udp;

	if ((void *)(ip + 1) > end)
		return XDP_PASS;
	udp = (void *)ip + ip->ihl * 4;
	if ((void *)(udp + 1) > end)
		return XDP_PASS;
	return udp->dest == 9 ? XDP_DROP : XDP_PASS;
}
