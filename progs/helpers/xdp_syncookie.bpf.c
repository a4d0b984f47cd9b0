// SPDX-License-Identifier: MIT
/*
 * The raw SYN-cookie helpers over headers the test puts in the packet:
 * byte 0 says IPv6 (1) or IPv4 (0), byte 1 is the th_len given to the
 * generator, byte 2 a value xor'ed into the acknowledged cookie's top byte (its
 * minute counter, so that the cookie is surely too old). The IP
 * header starts at byte 8, the TCP header at byte 48 (up to 60 bytes).
 * Written back over bytes 8..31, the deterministic part of each answer:
 * the generator's MSS (upper 32 bits) or its error, then what the check
 * says of the ACK the cookie makes (xor'ed as asked), as 64-bit values.
 * The cookie itself is keyed by a secret of the kernel's (or headroom's)
 * own, so it is never written out.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define IP_OFF 8
#define TH_OFF 48

struct hdrs {
	__u8 ip[40];
	__u8 th[64];
};

static __always_inline __u32 be32_at(const __u8 *p)
{
	return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
}

static __always_inline void put_be32(__u8 *p, __u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

SEC("xdp")
int raw_syncookie(struct xdp_md *ctx)
{
	struct hdrs h = {};
	__u8 args[4] = {}, ack[20];
	__s64 out[3] = {};
	__s64 gen;
	__u32 len, cookie;
	int i;

	if (bpf_xdp_load_bytes(ctx, 0, args, sizeof(args)) ||
	    bpf_xdp_load_bytes(ctx, IP_OFF, h.ip, sizeof(h.ip)) ||
	    bpf_xdp_load_bytes(ctx, TH_OFF, h.th, 60))
		return XDP_ABORTED;
	len = args[1] & 63;
	if (args[0])
		gen = bpf_tcp_raw_gen_syncookie_ipv6((void *)h.ip, (void *)h.th,
						     len);
	else
		gen = bpf_tcp_raw_gen_syncookie_ipv4((void *)h.ip, (void *)h.th,
						     len);
	out[0] = gen < 0 ? gen : gen >> 32;
	cookie = (__u32)gen ^ ((__u32)args[2] << 24);
	for (i = 0; i < 20; i++)
		ack[i] = h.th[i];
	put_be32(ack + 4, be32_at(h.th + 4) + 1);
	put_be32(ack + 8, cookie + 1);
	if (args[0]) {
		out[1] = bpf_tcp_raw_check_syncookie_ipv6((void *)h.ip,
							  (void *)ack);
		out[2] = bpf_tcp_raw_check_syncookie_ipv6((void *)h.ip,
							  (void *)h.th);
	} else {
		out[1] = bpf_tcp_raw_check_syncookie_ipv4((void *)h.ip,
							  (void *)ack);
		out[2] = bpf_tcp_raw_check_syncookie_ipv4((void *)h.ip,
							  (void *)h.th);
	}
	if (bpf_xdp_store_bytes(ctx, IP_OFF, out, sizeof(out)))
		return XDP_ABORTED;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
