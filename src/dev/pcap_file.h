/* SPDX-License-Identifier: MIT */
/*
 * pcap and pcapng files for the devices, through libpcap. Kept in a file
 * of its own: libpcap's headers define a classic struct bpf_insn that
 * clashes with <linux/bpf.h>.
 */
#ifndef HR_DEV_PCAP_FILE_H
#define HR_DEV_PCAP_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Every packet of a file, in one buffer. */
struct hr_pcap_pkts {
	uint8_t *data;
	size_t *off; /* packet i starts at data + off[i] */
	uint32_t *len;
	uint64_t *ts_ns; /* capture time */
	size_t *fidx; /* its position in the file, counting every packet */
	size_t n;
	size_t nfile; /* packets in the file, kept or not */
	uint64_t oversized; /* longer than the limit: skipped */
	uint64_t truncated; /* captured shorter than on the wire: skipped */
};

/*
 * Reads @path, keeping packets of at most @max_len bytes. 0 when the
 * whole file was read; -EIO when it broke (the packets before the damage
 * are kept, and the error is printed naming the file); -ENOENT or
 * -EINVAL when it cannot be opened as a capture.
 */
int hr_pcap_read_all(const char *path, uint32_t max_len,
		     struct hr_pcap_pkts *out);
void hr_pcap_pkts_free(struct hr_pcap_pkts *pkts);

struct hr_pcap_writer;

/* An Ethernet pcap file; 0 or -errno after printing why. */
int hr_pcap_writer_open(const char *path, struct hr_pcap_writer **w);
/* Thread-safe: one packet, stamped now. */
void hr_pcap_writer_write(struct hr_pcap_writer *w, const void *pkt,
			  uint32_t len);
uint64_t hr_pcap_writer_count(struct hr_pcap_writer *w);
void hr_pcap_writer_close(struct hr_pcap_writer *w);

#endif /* HR_DEV_PCAP_FILE_H */
