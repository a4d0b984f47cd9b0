/* SPDX-License-Identifier: MIT */
/*
 * A deterministic packet generator for tests: Ethernet, 802.1Q and QinQ,
 * IPv4 with and without options, IPv6 with extension headers, UDP, TCP
 * with options, ICMP, and each packet's header boundaries so that tests
 * can cut it at every one of them. The same seed gives the same packets
 * on every machine.
 */
#ifndef HR_TESTS_GEN_PACKETS_H
#define HR_TESTS_GEN_PACKETS_H

#include <stddef.h>
#include <stdint.h>

#define GEN_MAX_BOUNDS 32

struct gen_rng {
	uint64_t s;
};

/* What gen_packet() built. */
struct gen_info {
	uint32_t len; /* full length */
	/* Offsets where a header starts or ends, ascending, 0 and len
	 * included. */
	uint32_t nbounds;
	uint32_t bounds[GEN_MAX_BOUNDS];
	char desc[96]; /* "vlan2 ipv6+hbh+frag tcp" */
};

void gen_seed(struct gen_rng *r, uint64_t seed);
uint32_t gen_u32(struct gen_rng *r);
/* Uniform in [0, n), n > 0. */
uint32_t gen_below(struct gen_rng *r, uint32_t n);
void gen_fill(struct gen_rng *r, void *buf, size_t len);

/*
 * One random packet of at most @cap bytes (cap >= 256) into @buf; its
 * length, with @info (optional) describing it.
 */
uint32_t gen_packet(struct gen_rng *r, uint8_t *buf, size_t cap,
		    struct gen_info *info);

/*
 * A length to cut @info's packet to: a header boundary, or a byte either
 * side of one, never below 1.
 */
uint32_t gen_cut(struct gen_rng *r, const struct gen_info *info);

/*
 * A well-formed Ethernet + IPv4 + UDP packet of exactly @len bytes
 * (len >= 14; shorter than 42 it is cut), payload from @r.
 */
uint32_t gen_ipv4_udp(struct gen_rng *r, uint8_t *buf, uint32_t len);

/* The Internet checksum's pieces: @sum plus the big-endian 16-bit words
 * of @len bytes at @p (an odd last byte padded), and that folded to 16
 * bits (not complemented: 0xffff over data whose checksum is right). */
uint32_t gen_sum16(const uint8_t *p, size_t len, uint32_t sum);
uint16_t gen_fold(uint32_t sum);

#endif /* HR_TESTS_GEN_PACKETS_H */
