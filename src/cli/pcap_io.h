/* SPDX-License-Identifier: MIT */
/*
 * pcap reading and writing, kept apart: libpcap's headers define a classic
 * struct bpf_insn that clashes with <linux/bpf.h>.
 */
#ifndef HR_CLI_PCAP_IO_H
#define HR_CLI_PCAP_IO_H

#include <stddef.h>
#include <stdint.h>

struct hr_pcap_out;

/*
 * Calls @fn for every packet of the pcap or pcapng file @path, in order.
 * 0 when the whole file was read; -EIO after printing where it broke (the
 * packets before the damage have been handed to @fn); -ENOENT when it
 * cannot be opened.
 */
int hr_pcap_each(const char *path,
		 void (*fn)(void *arg, const uint8_t *pkt, size_t caplen,
			    size_t len),
		 void *arg);

/* An Ethernet pcap file to write; NULL after printing why. */
struct hr_pcap_out *hr_pcap_out_open(const char *path);
void hr_pcap_out_write(struct hr_pcap_out *out, const void *pkt, size_t len);
void hr_pcap_out_close(struct hr_pcap_out *out);

#endif /* HR_CLI_PCAP_IO_H */
