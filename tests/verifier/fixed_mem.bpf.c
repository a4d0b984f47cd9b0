/* ARG_PTR_TO_FIXED_SIZE_MEM: the helper reads or writes its argN_size
 * bytes, and a MEM_ALIGNED one wants them aligned on the stack. */
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include "v.h"

SEC("xdp") int bad_fixed_ro(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct iphdr *iph = data + ETH_HLEN;
	struct tcphdr *th = (void *)(iph + 1);

	if ((void *)th + 10 > end)
		return XDP_PASS;
	return bpf_tcp_raw_check_syncookie_ipv4(iph, th) ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_fixed_ro(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct iphdr *iph = data + ETH_HLEN;
	struct tcphdr *th = (void *)(iph + 1);

	if ((void *)(th + 1) > end)
		return XDP_PASS;
	return bpf_tcp_raw_check_syncookie_ipv4(iph, th) ? XDP_PASS : XDP_DROP;
}

SEC("xdp") NAKED int bad_fixed_w(void)
{
	asm volatile("r1 = 0x31;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "r1 = r10;"
		     "r1 += -8;"
		     "r2 = 8;"
		     "r3 = 0;"
		     "r4 = r10;"
		     "r4 += -20;"
		     "call %[strtol];"
		     "r0 = 2;"
		     "exit;" ::[strtol] "i"(BPF_FUNC_strtol)
		     : "memory");
}

SEC("xdp") NAKED int ok_fixed_w(void)
{
	asm volatile("r1 = 0x31;"
		     "*(u64 *)(r10 - 8) = r1;"
		     "r1 = r10;"
		     "r1 += -8;"
		     "r2 = 8;"
		     "r3 = 0;"
		     "r4 = r10;"
		     "r4 += -24;"
		     "call %[strtol];"
		     "r0 = 2;"
		     "exit;" ::[strtol] "i"(BPF_FUNC_strtol)
		     : "memory");
}
