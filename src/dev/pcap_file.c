// SPDX-License-Identifier: MIT
/*
 * libpcap reading and writing. Reading loads a whole file up front, so
 * that the pcap device's NAPI poll touches no file and makes no system
 * call per packet.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dev/pcap_file.h"

struct hr_pcap_writer {
	pcap_t *p;
	pcap_dumper_t *d;
	pthread_mutex_t lock;
	uint64_t count;
};

static int pkts_grow(struct hr_pcap_pkts *o, size_t *cap, size_t *dcap,
		     size_t need)
{
	void *t;

	if (o->n == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		t = realloc(o->off, *cap * sizeof(*o->off));
		if (!t)
			return -ENOMEM;
		o->off = t;
		t = realloc(o->len, *cap * sizeof(*o->len));
		if (!t)
			return -ENOMEM;
		o->len = t;
		t = realloc(o->ts_ns, *cap * sizeof(*o->ts_ns));
		if (!t)
			return -ENOMEM;
		o->ts_ns = t;
		t = realloc(o->fidx, *cap * sizeof(*o->fidx));
		if (!t)
			return -ENOMEM;
		o->fidx = t;
	}
	/* Allocated even for a file of empty packets: each one's address,
	 * data + off, must point into a buffer. */
	if (need > *dcap || !o->data) {
		if (!*dcap)
			*dcap = 65536;
		while (*dcap < need)
			*dcap *= 2;
		t = realloc(o->data, *dcap);
		if (!t)
			return -ENOMEM;
		o->data = t;
	}
	return 0;
}

static uint64_t ts_ns(const struct pcap_pkthdr *h, int nano)
{
	return (uint64_t)h->ts.tv_sec * 1000000000ull +
	       (uint64_t)h->ts.tv_usec * (nano ? 1 : 1000);
}

int hr_pcap_read_all(const char *path, uint32_t max_len, struct hr_pcap_pkts *o)
{
	char err[PCAP_ERRBUF_SIZE];
	const unsigned char *pkt;
	struct pcap_pkthdr *h;
	size_t cap = 0, dcap = 0, used = 0;
	int ret, nano;
	pcap_t *p;

	memset(o, 0, sizeof(*o));
	p = pcap_open_offline_with_tstamp_precision(
		path, PCAP_TSTAMP_PRECISION_NANO, err);
	if (!p) {
		fprintf(stderr, "headroom: %s: %s\n", path, err);
		return access(path, R_OK) ? -ENOENT : -EINVAL;
	}
	nano = pcap_get_tstamp_precision(p) == PCAP_TSTAMP_PRECISION_NANO;
	while ((ret = pcap_next_ex(p, &h, &pkt)) == 1) {
		o->nfile++;
		if (h->len > max_len || h->caplen > max_len) {
			o->oversized++;
			continue;
		}
		if (h->caplen < h->len) {
			o->truncated++;
			continue;
		}
		if (pkts_grow(o, &cap, &dcap, used + h->caplen)) {
			pcap_close(p);
			hr_pcap_pkts_free(o);
			return -ENOMEM;
		}
		memcpy(o->data + used, pkt, h->caplen);
		o->off[o->n] = used;
		o->len[o->n] = h->caplen;
		o->ts_ns[o->n] = ts_ns(h, nano);
		o->fidx[o->n] = o->nfile - 1;
		o->n++;
		used += h->caplen;
	}
	if (ret == PCAP_ERROR) {
		fprintf(stderr, "headroom: %s: damaged after packet %zu: %s\n",
			path, o->nfile, pcap_geterr(p));
		pcap_close(p);
		return -EIO;
	}
	pcap_close(p);
	return 0;
}

void hr_pcap_pkts_free(struct hr_pcap_pkts *o)
{
	free(o->data);
	free(o->off);
	free(o->len);
	free(o->ts_ns);
	free(o->fidx);
	memset(o, 0, sizeof(*o));
}

int hr_pcap_writer_open(const char *path, struct hr_pcap_writer **out)
{
	struct hr_pcap_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->p = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535,
						    PCAP_TSTAMP_PRECISION_NANO);
	if (!w->p) {
		free(w);
		return -ENOMEM;
	}
	w->d = pcap_dump_open(w->p, path);
	if (!w->d) {
		fprintf(stderr, "headroom: %s: %s\n", path, pcap_geterr(w->p));
		pcap_close(w->p);
		free(w);
		return -EIO;
	}
	pthread_mutex_init(&w->lock, NULL);
	*out = w;
	return 0;
}

void hr_pcap_writer_write(struct hr_pcap_writer *w, const void *pkt,
			  uint32_t len)
{
	struct pcap_pkthdr h;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	h.ts.tv_sec = ts.tv_sec;
	h.ts.tv_usec = ts.tv_nsec; /* nanosecond precision file */
	h.caplen = len;
	h.len = len;
	pthread_mutex_lock(&w->lock);
	pcap_dump((unsigned char *)w->d, &h, pkt);
	w->count++;
	pthread_mutex_unlock(&w->lock);
}

uint64_t hr_pcap_writer_count(struct hr_pcap_writer *w)
{
	uint64_t n;

	pthread_mutex_lock(&w->lock);
	n = w->count;
	pthread_mutex_unlock(&w->lock);
	return n;
}

void hr_pcap_writer_close(struct hr_pcap_writer *w)
{
	if (!w)
		return;
	pcap_dump_close(w->d);
	pcap_close(w->p);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
