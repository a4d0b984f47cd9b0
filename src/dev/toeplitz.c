// SPDX-License-Identifier: MIT
/*
 * Toeplitz: for every set bit of the input, XOR in the 32 key bits that
 * start at that bit position. A 64-bit window slides over the key so each
 * input byte costs eight shifts, no table.
 */
#include "dev/toeplitz.h"

const uint8_t hr_rss_default_key[HR_RSS_KEY_SIZE] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

uint32_t hr_toeplitz(const uint8_t *key, size_t keylen, const void *input,
		     size_t len)
{
	const uint8_t *in = input;
	uint64_t window = 0;
	uint32_t hash = 0;
	size_t i, k;
	int bit;

	/* The first 8 key bytes; later bytes shift in one per input byte. */
	for (k = 0; k < 8; k++)
		window = (window << 8) | (k < keylen ? key[k] : 0);
	for (i = 0; i < len; i++) {
		for (bit = 7; bit >= 0; bit--) {
			if (in[i] & (1u << bit))
				hash ^= (uint32_t)(window >> 32);
			window <<= 1;
			/* Refill the low bits from the next key byte. */
			if (!bit)
				window |= k < keylen ? key[k] : 0;
		}
		k++;
	}
	return hash;
}
