/* SPDX-License-Identifier: MIT */
/*
 * Per-packet RX hints from JSON (a JSON-lines file, one object, or a
 * pcapng comment), and device hint profiles: which hints a device has.
 */
#ifndef HR_DEV_HINTS_FILE_H
#define HR_DEV_HINTS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HR_HINT_HASH (1u << 0)
#define HR_HINT_TIMESTAMP (1u << 1)
#define HR_HINT_VLAN (1u << 2)
#define HR_HINT_ALL 7u

/* The hints of one packet; @have says which exist. */
struct hr_hint {
	uint64_t timestamp;
	uint32_t hash;
	uint32_t rss_type;
	uint16_t vlan_proto; /* host order */
	uint16_t vlan_tci;
	uint8_t have;
};

struct hr_rx_hints;

/*
 * One JSON object: the fields index, hash, rss_type (a number or an enum
 * xdp_rss_hash_type name: "XDP_RSS_TYPE_L4_IPV4_TCP", or without the
 * prefix: "L4_IPV4_TCP"), timestamp, vlan_proto and vlan_tci, every
 * number a non-negative integer in its field's range (vlan_proto may be
 * a "0x88a8" string too). A field left out is a hint the packet does not
 * have; rss_type without hash is meaningless and refused; vlan_proto
 * defaults to 0x8100. 0 and @h filled, *@has_index and *@index set; or
 * -EINVAL with @why naming the key and what it wants.
 */
int hr_hints_parse(const char *text, struct hr_hint *h, bool *has_index,
		   uint64_t *index, char *why, size_t whysz);

/*
 * Reads @path: JSON lines, one object a packet (blank lines skipped). A
 * line's packet is its "index", or the one after the previous line's
 * (the first: 0). Returns an array of @npkts hints in *@out, absent but
 * those the file gives. 0, or -EINVAL after printing "path:line: why",
 * -errno when the file cannot be read (printed once, naming it).
 */
int hr_hints_load(const char *path, size_t npkts, struct hr_hint **out);

/*
 * A device hint profile: "all" (or "nic"), "none", a driver's name for
 * the hints its xdp_metadata_ops give ("mlx5", "ice", "veth": all three;
 * "mlx4", "igc": hash and timestamp; "stmmac": timestamp; "virtio_net":
 * hash), or a comma list of hash, timestamp, vlan. 0 and *@have the
 * HR_HINT_* set, or -EINVAL with @why.
 */
int hr_hints_profile(const char *text, uint8_t *have, char *why, size_t whysz);

/* @h as one JSON object in the hints file's format, into @buf (at least
 * 160 bytes); the length, or -ENOSPC. */
int hr_hints_format(const struct hr_hint *h, char *buf, size_t size);

/* The name of rss_type @type (enum xdp_rss_hash_type), or NULL. */
const char *hr_rss_type_name(uint32_t type);

#endif /* HR_DEV_HINTS_FILE_H */
