/* SPDX-License-Identifier: MIT */
/*
 * Capture files through Wireshark's libwiretap: pcapng with per-packet
 * comments (opt_comment), or classic pcap; and a reader of every format wiretap knows that hands out
 * each packet's link type, timestamp and comments. libpcap cannot write
 * per-packet options, hence wiretap.
 */
#ifndef HR_DEV_PCAPNG_H
#define HR_DEV_PCAPNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The comment prefix a packet's RX hints are written under, and read
 * back from: "hr-hints: {json}" (the hints file's JSON object). */
#define HR_PCAPNG_HINTS_TAG "hr-hints: "

enum hr_pcapng_format {
	HR_PCAPNG_AUTO = 0, /* classic pcap for a ".pcap" name, else pcapng */
	HR_PCAPNG_NG,
	HR_PCAPNG_CLASSIC, /* nanosecond pcap: no comments */
};

/* One packet to write. */
struct hr_pcapng_rec {
	const void *data;
	uint32_t caplen;
	uint32_t len; /* on the wire; 0: caplen */
	uint64_t ts_ns; /* since the epoch; 0: now */
	/* Each an opt_comment, in order (Wireshark's frame.comment). */
	const char *const *comments;
	unsigned int ncomments;
};

struct hr_pcapng_writer;

/* An Ethernet capture file at @path; 0 or -errno after printing why,
 * naming the file. */
int hr_pcapng_open(const char *path, enum hr_pcapng_format fmt,
		   struct hr_pcapng_writer **w);
/* Thread-safe. 0 or -EIO after printing why (once per file). */
int hr_pcapng_write(struct hr_pcapng_writer *w,
		    const struct hr_pcapng_rec *rec);
/* Thread-safe: with only the packet, stamped now. */
int hr_pcapng_write_data(struct hr_pcapng_writer *w, const void *data,
			 uint32_t len);
bool hr_pcapng_is_ng(const struct hr_pcapng_writer *w);
uint64_t hr_pcapng_count(struct hr_pcapng_writer *w);
/* Flushes and frees; 0 or -EIO after printing why. NULL is a no-op. */
int hr_pcapng_close(struct hr_pcapng_writer *w);

/* One packet read. */
struct hr_pcapng_pkt {
	const uint8_t *data;
	uint32_t caplen;
	uint32_t len;
	uint64_t ts_ns; /* 0 when the file gives no time */
	unsigned int index; /* from 0, counting every packet record */
	/* Link type: wiretap's short name ("ether", "rawip" ...) and its
	 * description. */
	bool ethernet;
	bool raw_ip; /* IPv4 or IPv6 without a link header */
	const char *linktype;
	const char *linktype_desc;
	unsigned int ncomments;
	const void *priv;
};

/* Comment @i (< ncomments) of @p, valid during the callback. */
const char *hr_pcapng_comment(const struct hr_pcapng_pkt *p, unsigned int i);

/*
 * Calls @fn for each packet of @path (pcap, pcapng, or any capture format
 * wiretap reads), in order, until it returns non-zero (that value is
 * returned). 0 when the whole file was read; -ENOENT/-EINVAL when it
 * cannot be opened as a capture, -EIO when it broke after some packets:
 * both printed once, naming the file.
 */
int hr_pcapng_each(const char *path,
		   int (*fn)(void *arg, const struct hr_pcapng_pkt *p),
		   void *arg);

#endif /* HR_DEV_PCAPNG_H */
