// SPDX-License-Identifier: MIT
/*
 * SYN cookies without a socket (net/core/filter.c's
 * bpf_tcp_raw_gen_syncookie_ipv4/_ipv6 and bpf_tcp_raw_check_syncookie_
 * ipv4/_ipv6, over net/ipv4/syncookies.c's __cookie_v4_init_sequence and
 * __cookie_v4_check and their IPv6 twins), for XDP and tc programs such as
 * the XDP synproxy.
 *
 * The cookie is built as the kernel's: a keyed hash of the addresses and
 * ports plus the client's sequence number, the minute counter
 * (tcp_cookie_time: jiffies / (60 * HZ)) in the top 8 bits, and in the low
 * 24 bits a second hash plus the index of the largest table MSS not above
 * the client's. The kernel keys its hashes with a secret drawn at boot
 * (syncookie_secret), so no two kernels, and no kernel and headroom, make
 * the same cookie: headroom draws a secret of its own once a process.
 * Everything else is the kernel's: the MSS returned in the upper 32 bits,
 * a cookie accepted for two minutes, and the error codes.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>

#include "helpers/helpers.h"
#include "core/ct.h"

#define TCP_HLEN 20u /* sizeof(struct tcphdr) */
#define IPV4_HLEN 20u
#define IPV6_HLEN 40u
#define TCP_MSS_DEFAULT 536u
/* IPV6_MIN_MTU - sizeof(struct tcphdr) - sizeof(struct ipv6hdr) */
#define TCP6_MSS_CLAMP (1280u - 20u - 40u)
#define TCPOPT_EOL 0
#define TCPOPT_NOP 1
#define TCPOPT_MSS 2
#define TCPOLEN_MSS 4
#define COOKIEBITS 24
#define COOKIEMASK ((1u << COOKIEBITS) - 1)
#define MAX_SYNCOOKIE_AGE 2
#define TCP_SYNCOOKIE_PERIOD (60ull * HR_HZ)

/* The MSS a cookie can say, by index (msstab of syncookies.c and of
 * net/ipv6/syncookies.c). */
#define MSSTAB_LEN 4
static const uint16_t msstab4[MSSTAB_LEN] = { 536, 1300, 1440, 1460 };
static const uint16_t msstab6[MSSTAB_LEN] = { 1280 - 60, 1480 - 60, 1500 - 60,
					      9000 - 60 };

static uint64_t secret[2][2];
static pthread_once_t secret_once = PTHREAD_ONCE_INIT;

static void secret_init(void)
{
	if (getrandom(secret, sizeof(secret), 0) != sizeof(secret))
		memset(secret, 0x5a, sizeof(secret));
}

static uint64_t rotl(uint64_t x, int b)
{
	return (x << b) | (x >> (64 - b));
}

/* SipHash's round, once per 8 bytes and once to finish, not SipHash
 * itself: a keyed mix is all a cookie needs here, the kernel's exact
 * hash being unreachable (its key). */
static uint32_t keyed_hash(const uint64_t key[2], const uint8_t *in, size_t len)
{
	uint64_t v0 = key[0] ^ 0x736f6d6570736575ull;
	uint64_t v1 = key[1] ^ 0x646f72616e646f6dull;
	uint64_t v2 = key[0] ^ 0x6c7967656e657261ull;
	uint64_t v3 = key[1] ^ 0x7465646279746573ull;
	size_t i;

	for (i = 0; i < len; i += 8) {
		uint64_t m = 0;

		memcpy(&m, in + i, len - i < 8 ? len - i : 8);
		v3 ^= m;
		v0 += v1;
		v1 = rotl(v1, 13) ^ v0;
		v0 = rotl(v0, 32);
		v2 += v3;
		v3 = rotl(v3, 16) ^ v2;
		v0 += v3;
		v3 = rotl(v3, 21) ^ v0;
		v2 += v1;
		v1 = rotl(v1, 17) ^ v2;
		v2 = rotl(v2, 32);
		v0 ^= m;
	}
	v2 ^= 0xff;
	v0 += v1 + v2 + v3;
	return (uint32_t)(v0 ^ rotl(v0, 29) ^ (v0 >> 32));
}

/* The flow a cookie belongs to: addresses (4 or 16 bytes each), ports. */
struct cookie_flow {
	uint8_t addrs[32];
	uint8_t ports[4];
	size_t alen;
};

static uint32_t cookie_hash(const struct cookie_flow *f, uint32_t count, int c)
{
	uint8_t in[40 + 4];
	size_t n = 2 * f->alen;

	pthread_once(&secret_once, secret_init);
	memcpy(in, f->addrs, n);
	memcpy(in + n, f->ports, 4);
	memcpy(in + n + 4, &count, 4);
	return keyed_hash(secret[c], in, n + 8);
}

static uint32_t cookie_time(void)
{
	return (uint32_t)(hr_jiffies64() / TCP_SYNCOOKIE_PERIOD);
}

/* secure_tcp_syn_cookie */
static uint32_t cookie_make(const struct cookie_flow *f, uint32_t seq,
			    uint32_t mssind)
{
	uint32_t count = cookie_time();

	return cookie_hash(f, 0, 0) + seq + (count << COOKIEBITS) +
	       ((cookie_hash(f, count, 1) + mssind) & COOKIEMASK);
}

/* check_tcp_syn_cookie: the MSS index, or (u32)-1 for a cookie too old
 * or not ours. */
static uint32_t cookie_index(const struct cookie_flow *f, uint32_t cookie,
			     uint32_t seq)
{
	uint32_t count = cookie_time(), diff;

	cookie -= cookie_hash(f, 0, 0) + seq;
	diff = (count - (cookie >> COOKIEBITS)) & (0xffffffffu >> COOKIEBITS);
	if (diff >= MAX_SYNCOOKIE_AGE)
		return 0xffffffffu;
	return (cookie - cookie_hash(f, count - diff, 1)) & COOKIEMASK;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* The flow of @ip (IPv4 or IPv6 header) and @th, as the kernel orders it:
 * saddr, daddr, source, dest. */
static void flow_of(struct cookie_flow *f, const uint8_t *ip, bool v6,
		    const uint8_t *th)
{
	f->alen = v6 ? 16 : 4;
	memcpy(f->addrs, ip + (v6 ? 8 : 12), 2 * f->alen);
	memcpy(f->ports, th, 4);
}

/* tcp_parse_mss_option over the @len option bytes after the header;
 * 0 when there is none. */
static uint16_t parse_mss(const uint8_t *opt, int len)
{
	uint16_t mss = 0;

	while (len > 0) {
		int code = *opt++, size;

		if (code == TCPOPT_EOL)
			return mss;
		if (code == TCPOPT_NOP) {
			len--;
			continue;
		}
		if (len < 2)
			return mss;
		size = *opt++;
		if (size < 2 || size > len)
			return mss;
		if (code == TCPOPT_MSS && size == TCPOLEN_MSS &&
		    (opt[0] << 8 | opt[1]))
			mss = (uint16_t)(opt[0] << 8 | opt[1]);
		opt += size - 2;
		len -= size;
	}
	return mss;
}

/* __cookie_v4_init_sequence / __cookie_v6_init_sequence */
static uint64_t raw_gen(uint64_t ip_ptr, uint64_t th_ptr, uint64_t th_len,
			struct hr_run *run, bool v6)
{
	const uint16_t *tab = v6 ? msstab6 : msstab4;
	uint32_t len = (uint32_t)th_len, mssind;
	const uint8_t *ip, *th;
	struct cookie_flow f;
	uint16_t mss;

	ip = hr_run_mem(run, ip_ptr, v6 ? IPV6_HLEN : IPV4_HLEN, false);
	if (!ip)
		return 0;
	th = len ? hr_run_mem(run, th_ptr, len, false) : NULL;
	if (len && !th)
		return 0;
	/* th_len must be the header's own length (doff * 4). */
	if (len < TCP_HLEN || len != (uint32_t)(th[12] >> 4) * 4)
		return (uint64_t)-EINVAL;
	mss = parse_mss(th + TCP_HLEN, (int)(len - TCP_HLEN));
	if (!mss)
		mss = v6 ? TCP6_MSS_CLAMP : TCP_MSS_DEFAULT;
	for (mssind = MSSTAB_LEN - 1; mssind; mssind--)
		if (mss >= tab[mssind])
			break;
	flow_of(&f, ip, v6, th);
	return cookie_make(&f, be32(th + 4), mssind) |
	       ((uint64_t)tab[mssind] << 32);
}

/* __cookie_v4_check / __cookie_v6_check: 0, or -EACCES. */
static uint64_t raw_check(uint64_t ip_ptr, uint64_t th_ptr, struct hr_run *run,
			  bool v6)
{
	const uint8_t *ip, *th;
	struct cookie_flow f;
	uint32_t idx;

	ip = hr_run_mem(run, ip_ptr, v6 ? IPV6_HLEN : IPV4_HLEN, false);
	if (!ip)
		return 0;
	th = hr_run_mem(run, th_ptr, TCP_HLEN, false);
	if (!th)
		return 0;
	flow_of(&f, ip, v6, th);
	idx = cookie_index(&f, be32(th + 8) - 1, be32(th + 4) - 1);
	return idx < MSSTAB_LEN ? 0 : (uint64_t)-EACCES;
}

static uint64_t gen4(uint64_t iph, uint64_t th, uint64_t th_len, uint64_t r4,
		     uint64_t r5, struct hr_run *run)
{
	return raw_gen(iph, th, th_len, run, false);
}

static uint64_t gen6(uint64_t iph, uint64_t th, uint64_t th_len, uint64_t r4,
		     uint64_t r5, struct hr_run *run)
{
	return raw_gen(iph, th, th_len, run, true);
}

static uint64_t check4(uint64_t iph, uint64_t th, uint64_t r3, uint64_t r4,
		       uint64_t r5, struct hr_run *run)
{
	return raw_check(iph, th, run, false);
}

static uint64_t check6(uint64_t iph, uint64_t th, uint64_t r3, uint64_t r4,
		       uint64_t r5, struct hr_run *run)
{
	return raw_check(iph, th, run, true);
}

const struct hr_helper hr_helper_tcp_raw_gen_syncookie_ipv4 = {
	.id = 204,
	.name = "bpf_tcp_raw_gen_syncookie_ipv4",
	.fn = gen4,
};

const struct hr_helper hr_helper_tcp_raw_gen_syncookie_ipv6 = {
	.id = 205,
	.name = "bpf_tcp_raw_gen_syncookie_ipv6",
	.fn = gen6,
};

const struct hr_helper hr_helper_tcp_raw_check_syncookie_ipv4 = {
	.id = 206,
	.name = "bpf_tcp_raw_check_syncookie_ipv4",
	.fn = check4,
};

const struct hr_helper hr_helper_tcp_raw_check_syncookie_ipv6 = {
	.id = 207,
	.name = "bpf_tcp_raw_check_syncookie_ipv6",
	.fn = check6,
};
