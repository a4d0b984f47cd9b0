// SPDX-License-Identifier: MIT
/*
 * The Toeplitz RSS hash against the verification suite of Microsoft's
 * RSS specification ("Verifying the RSS Hash Calculation"): IPv4 and
 * IPv6, with and without the TCP ports, under the standard key.
 */
#include <arpa/inet.h>
#include <string.h>

#include "harness.h"
#include "dev/toeplitz.h"

struct vec {
	const char *src, *dst;
	uint16_t sport, dport;
	uint32_t l4, l3; /* with ports; addresses only */
};

static const struct vec v4[] = {
	{ "66.9.149.187", "161.142.100.80", 2794, 1766, 0x51ccc178,
	  0x323e8fc2 },
	{ "199.92.111.2", "65.69.140.83", 14230, 4739, 0xc626b0ea, 0xd718262a },
	{ "24.19.198.95", "12.22.207.184", 12898, 38024, 0x5c2b394a,
	  0xd2d0a5de },
	{ "38.27.205.30", "209.142.163.6", 48228, 2217, 0xafc7327f,
	  0x82989176 },
	{ "153.39.163.191", "202.188.127.2", 44251, 1303, 0x10e828a2,
	  0x5d1809c5 },
};

static const struct vec v6[] = {
	{ "3ffe:2501:200:1fff::7", "3ffe:2501:200:3::1", 2794, 1766, 0x40207d3d,
	  0x2cc18cd5 },
	{ "3ffe:501:8::260:97ff:fe40:efab", "ff02::1", 14230, 4739, 0xdde51bbf,
	  0x0f0c461c },
	{ "3ffe:1900:4545:3:200:f8ff:fe21:67cf", "fe80::200:f8ff:fe21:67cf",
	  44251, 38024, 0x02d1feef, 0x4b61e985 },
};

static void check(const struct vec *v, int af, size_t alen)
{
	uint8_t in[36];
	uint16_t port;

	CHECK(inet_pton(af, v->src, in) == 1, "%s", v->src);
	CHECK(inet_pton(af, v->dst, in + alen) == 1, "%s", v->dst);
	port = htons(v->sport);
	memcpy(in + 2 * alen, &port, 2);
	port = htons(v->dport);
	memcpy(in + 2 * alen + 2, &port, 2);
	CHECK_EQ(hr_toeplitz(hr_rss_default_key, HR_RSS_KEY_SIZE, in, 2 * alen),
		 v->l3);
	CHECK_EQ(hr_toeplitz(hr_rss_default_key, HR_RSS_KEY_SIZE, in,
			     2 * alen + 4),
		 v->l4);
}

int main(void)
{
	static const uint8_t one = 0x80;
	size_t i;

	for (i = 0; i < sizeof(v4) / sizeof(v4[0]); i++)
		check(&v4[i], AF_INET, 4);
	for (i = 0; i < sizeof(v6) / sizeof(v6[0]); i++)
		check(&v6[i], AF_INET6, 16);
	/* A single leading one bit selects the first 32 key bits. */
	CHECK_EQ(hr_toeplitz(hr_rss_default_key, HR_RSS_KEY_SIZE, &one, 1),
		 0x6d5a56da);
	CHECK_EQ(hr_toeplitz(hr_rss_default_key, HR_RSS_KEY_SIZE, "", 0), 0);
	return t_done();
}
