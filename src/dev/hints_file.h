/* SPDX-License-Identifier: MIT */
/* Per-packet RX hints for the pcap device, from a JSON-lines file. */
#ifndef HR_DEV_HINTS_FILE_H
#define HR_DEV_HINTS_FILE_H

#include <stddef.h>
#include <stdint.h>

#define HR_HINT_HASH (1u << 0)
#define HR_HINT_TIMESTAMP (1u << 1)
#define HR_HINT_VLAN (1u << 2)

/* The hints of one packet; @have says which exist. */
struct hr_hint {
	uint64_t timestamp;
	uint32_t hash;
	uint32_t rss_type;
	uint16_t vlan_proto; /* host order */
	uint16_t vlan_tci;
	uint8_t have;
};

/*
 * Reads @path: one JSON object a line with the integer fields index,
 * hash, rss_type, timestamp, vlan_proto and vlan_tci (blank lines
 * skipped). Returns an array of @npkts hints, in *@out, all absent but
 * those the file gives. 0, or -EINVAL after printing "path:line: why" for
 * a malformed line, -errno when the file cannot be read.
 */
int hr_hints_load(const char *path, size_t npkts, struct hr_hint **out);

/* Parses one line into @h and @index; NULL, or what is wrong with it. */
const char *hr_hints_parse_line(const char *line, uint64_t *index,
				struct hr_hint *h);

#endif /* HR_DEV_HINTS_FILE_H */
