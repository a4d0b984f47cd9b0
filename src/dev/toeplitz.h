/* SPDX-License-Identifier: MIT */
/*
 * The Toeplitz hash of receive-side scaling, as NICs compute the RX hash,
 * with the standard 40-byte key from Microsoft's RSS specification.
 */
#ifndef HR_DEV_TOEPLITZ_H
#define HR_DEV_TOEPLITZ_H

#include <stddef.h>
#include <stdint.h>

#define HR_RSS_KEY_SIZE 40

extern const uint8_t hr_rss_default_key[HR_RSS_KEY_SIZE];

/*
 * Hash of @len bytes of @input (in network order: source address,
 * destination address, then source and destination port) under @key,
 * which must be at least @len + 4 bytes long.
 */
uint32_t hr_toeplitz(const uint8_t *key, size_t keylen, const void *input,
		     size_t len);

#endif /* HR_DEV_TOEPLITZ_H */
