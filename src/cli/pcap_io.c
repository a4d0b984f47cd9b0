// SPDX-License-Identifier: MIT
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pcap_io.h"

struct hr_pcap_out {
	pcap_t *dead;
	pcap_dumper_t *dump;
};

int hr_pcap_each(const char *path,
		 void (*fn)(void *arg, const uint8_t *pkt, size_t caplen,
			    size_t len),
		 void *arg)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned int n = 0;
	pcap_t *p;
	int ret;

	p = pcap_open_offline(path, errbuf);
	if (!p) {
		fprintf(stderr, "headroom: %s: %s\n", path, errbuf);
		return -ENOENT;
	}
	while ((ret = pcap_next_ex(p, &h, &data)) == 1) {
		fn(arg, data, h->caplen, h->len);
		n++;
	}
	if (ret == PCAP_ERROR) {
		fprintf(stderr, "headroom: %s: after %u packets: %s\n", path, n,
			pcap_geterr(p));
		pcap_close(p);
		return -EIO;
	}
	pcap_close(p);
	return 0;
}

struct hr_pcap_out *hr_pcap_out_open(const char *path)
{
	struct hr_pcap_out *out = calloc(1, sizeof(*out));

	if (!out)
		return NULL;
	out->dead = pcap_open_dead(DLT_EN10MB, 65535);
	if (out->dead)
		out->dump = pcap_dump_open(out->dead, path);
	if (!out->dump) {
		fprintf(stderr, "headroom: %s: %s\n", path,
			out->dead ? pcap_geterr(out->dead) : "pcap_open_dead");
		hr_pcap_out_close(out);
		return NULL;
	}
	return out;
}

void hr_pcap_out_write(struct hr_pcap_out *out, const void *pkt, size_t len)
{
	struct pcap_pkthdr h;

	memset(&h, 0, sizeof(h));
	h.caplen = (bpf_u_int32)len;
	h.len = (bpf_u_int32)len;
	pcap_dump((u_char *)out->dump, &h, pkt);
}

void hr_pcap_out_close(struct hr_pcap_out *out)
{
	if (!out)
		return;
	if (out->dump)
		pcap_dump_close(out->dump);
	if (out->dead)
		pcap_close(out->dead);
	free(out);
}
