// SPDX-License-Identifier: MIT
/*
 * Capture files through libwiretap (what tshark and editcap use): the
 * pcapng writer puts each packet's comments into opt_comment, so
 * `tshark -r F -T fields -e frame.comment` shows them. (Not epb_verdict:
 * wiretap 4.0 writes that option under the epb_queue code and then cannot
 * read its own file back.)
 * The reader serves pcap and pcapng alike and hands out the link type, so
 * that callers can refuse what is not Ethernet.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <wiretap/wtap.h>
#include <wsutil/buffer.h>
#include <wsutil/wslog.h>

#include "dev/pcapng.h"

#define PCAPNG_SNAPLEN 262144

struct hr_pcapng_writer {
	wtap_dumper *d;
	char *path;
	bool ng;
	bool failed; /* an error was printed: say it once */
	uint64_t count;
};

static pthread_once_t wtap_once = PTHREAD_ONCE_INIT;
/*
 * wsutil keeps one process-wide pool of small buffers (ws_buffer_init and
 * ws_buffer_free, under every wtap_rec_init, wtap_rec_cleanup and dumper)
 * in a GPtrArray without a lock: workers writing to sinks at once broke
 * it (GLib's ptr_array_remove_index assertion, then ws_buffer_init's,
 * and an abort). Every call into wiretap here holds this lock; it is
 * recursive because a reader's callback may write.
 */
static pthread_mutex_t wtap_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static void wtap_setup(void)
{
	/* Uninitialised, wsutil logs every debug line to stderr: only
	 * critical ones here, our own messages name the file. */
	ws_log_set_level(LOG_LEVEL_CRITICAL);
	/* No plugins: the file formats built in are all we read. */
	wtap_init(FALSE);
}

static bool name_is_pcap(const char *path)
{
	size_t n = strlen(path);

	return n >= 5 && !strcmp(path + n - 5, ".pcap");
}

static const char *wtap_why(int err, const char *info)
{
	return info && *info ? info : wtap_strerror(err);
}

int hr_pcapng_open(const char *path, enum hr_pcapng_format fmt,
		   struct hr_pcapng_writer **out)
{
	wtap_dump_params params = WTAP_DUMP_PARAMS_INIT;
	struct hr_pcapng_writer *w;
	gchar *info = NULL;
	int err = 0, type;

	pthread_once(&wtap_once, wtap_setup);
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->path = strdup(path);
	if (!w->path) {
		free(w);
		return -ENOMEM;
	}
	if (fmt == HR_PCAPNG_AUTO)
		fmt = name_is_pcap(path) ? HR_PCAPNG_CLASSIC : HR_PCAPNG_NG;
	w->ng = fmt == HR_PCAPNG_NG;
	type = w->ng ? wtap_pcapng_file_type_subtype() :
		       wtap_pcap_nsec_file_type_subtype();
	params.encap = WTAP_ENCAP_ETHERNET;
	params.snaplen = PCAPNG_SNAPLEN;
	params.tsprec = WTAP_TSPREC_NSEC;
	/* Without interface blocks given, wiretap makes the one IDB of
	 * params.encap itself. */
	pthread_mutex_lock(&wtap_lock);
	w->d = wtap_dump_open(path, type, WTAP_UNCOMPRESSED, &params, &err,
			      &info);
	pthread_mutex_unlock(&wtap_lock);
	if (!w->d) {
		fprintf(stderr, "headroom: %s: %s\n", path,
			wtap_why(err, info));
		g_free(info);
		free(w->path);
		free(w);
		return err > 0 ? -err : -EIO;
	}
	g_free(info);
	*out = w;
	return 0;
}

bool hr_pcapng_is_ng(const struct hr_pcapng_writer *w)
{
	return w->ng;
}

static void rec_options(wtap_rec *rec, const struct hr_pcapng_rec *r)
{
	unsigned int i;

	rec->block = wtap_block_create(WTAP_BLOCK_PACKET);
	for (i = 0; i < r->ncomments; i++)
		wtap_block_add_string_option(rec->block, OPT_COMMENT,
					     r->comments[i],
					     strlen(r->comments[i]));
	rec->block_was_modified = TRUE;
}

int hr_pcapng_write(struct hr_pcapng_writer *w, const struct hr_pcapng_rec *r)
{
	struct timespec now;
	uint64_t ts = r->ts_ns;
	gchar *info = NULL;
	int err = 0, ret = 0;
	wtap_rec rec;

	if (!ts) {
		clock_gettime(CLOCK_REALTIME, &now);
		ts = (uint64_t)now.tv_sec * 1000000000ull +
		     (uint64_t)now.tv_nsec;
	}
	pthread_mutex_lock(&wtap_lock);
	wtap_rec_init(&rec);
	rec.rec_type = REC_TYPE_PACKET;
	rec.presence_flags = WTAP_HAS_TS | WTAP_HAS_CAP_LEN;
	rec.tsprec = WTAP_TSPREC_NSEC;
	rec.ts.secs = (time_t)(ts / 1000000000ull);
	rec.ts.nsecs = (int)(ts % 1000000000ull);
	rec.rec_header.packet_header.caplen = r->caplen;
	rec.rec_header.packet_header.len = r->len ? r->len : r->caplen;
	rec.rec_header.packet_header.pkt_encap = WTAP_ENCAP_ETHERNET;
	if (w->ng) {
		rec.presence_flags |= WTAP_HAS_INTERFACE_ID;
		rec_options(&rec, r);
	}
	if (!wtap_dump(w->d, &rec, r->data, &err, &info)) {
		if (!w->failed)
			fprintf(stderr, "headroom: %s: packet %llu: %s\n",
				w->path, (unsigned long long)w->count,
				wtap_why(err, info));
		w->failed = true;
		ret = -EIO;
	} else {
		w->count++;
	}
	g_free(info);
	wtap_rec_cleanup(&rec);
	pthread_mutex_unlock(&wtap_lock);
	return ret;
}

int hr_pcapng_write_data(struct hr_pcapng_writer *w, const void *data,
			 uint32_t len)
{
	struct hr_pcapng_rec r = { .data = data, .caplen = len };

	return hr_pcapng_write(w, &r);
}

uint64_t hr_pcapng_count(struct hr_pcapng_writer *w)
{
	uint64_t n;

	pthread_mutex_lock(&wtap_lock);
	n = w->count;
	pthread_mutex_unlock(&wtap_lock);
	return n;
}

int hr_pcapng_close(struct hr_pcapng_writer *w)
{
	gchar *info = NULL;
	int err = 0, ret = 0;

	if (!w)
		return 0;
	pthread_mutex_lock(&wtap_lock);
	if (!wtap_dump_close(w->d, NULL, &err, &info)) {
		fprintf(stderr, "headroom: %s: %s\n", w->path,
			wtap_why(err, info));
		ret = -EIO;
	}
	g_free(info);
	pthread_mutex_unlock(&wtap_lock);
	free(w->path);
	free(w);
	return ret;
}

const char *hr_pcapng_comment(const struct hr_pcapng_pkt *p, unsigned int i)
{
	const wtap_rec *rec = p->priv;
	char *s = NULL;

	if (!rec->block ||
	    wtap_block_get_nth_string_option_value(rec->block, OPT_COMMENT, i,
						   &s) != WTAP_OPTTYPE_SUCCESS)
		return NULL;
	return s;
}

static void pkt_fill(struct hr_pcapng_pkt *p, const wtap_rec *rec,
		     const uint8_t *data)
{
	const wtap_packet_header *ph = &rec->rec_header.packet_header;
	int encap = ph->pkt_encap;

	p->data = data;
	p->caplen = ph->caplen;
	p->len = ph->len;
	p->ts_ns = 0;
	if (rec->presence_flags & WTAP_HAS_TS)
		p->ts_ns = (uint64_t)rec->ts.secs * 1000000000ull +
			   (uint64_t)rec->ts.nsecs;
	p->ethernet = encap == WTAP_ENCAP_ETHERNET;
	p->raw_ip = encap == WTAP_ENCAP_RAW_IP || encap == WTAP_ENCAP_RAW_IP4 ||
		    encap == WTAP_ENCAP_RAW_IP6;
	p->linktype = wtap_encap_name(encap);
	p->linktype_desc = wtap_encap_description(encap);
	p->ncomments =
		rec->block ? wtap_block_count_option(rec->block, OPT_COMMENT) :
			     0;
	p->priv = rec;
}

int hr_pcapng_each(const char *path,
		   int (*fn)(void *arg, const struct hr_pcapng_pkt *p),
		   void *arg)
{
	struct hr_pcapng_pkt p;
	gchar *info = NULL;
	int err = 0, ret = 0;
	gint64 offset;
	unsigned int n = 0;
	wtap_rec rec;
	Buffer buf;
	wtap *wth;

	pthread_once(&wtap_once, wtap_setup);
	pthread_mutex_lock(&wtap_lock);
	wth = wtap_open_offline(path, WTAP_TYPE_AUTO, &err, &info, FALSE);
	if (!wth) {
		pthread_mutex_unlock(&wtap_lock);
		fprintf(stderr, "headroom: %s: %s\n", path,
			err > 0 ? strerror(err) : wtap_why(err, info));
		g_free(info);
		return err == ENOENT ? -ENOENT : err > 0 ? -err : -EINVAL;
	}
	wtap_rec_init(&rec);
	ws_buffer_init(&buf, 2048);
	/* Held throughout: the callback runs under it too (recursive). */
	while (wtap_read(wth, &rec, &buf, &err, &info, &offset)) {
		if (rec.rec_type != REC_TYPE_PACKET) {
			wtap_rec_reset(&rec);
			continue;
		}
		memset(&p, 0, sizeof(p));
		pkt_fill(&p, &rec, ws_buffer_start_ptr(&buf));
		p.index = n++;
		ret = fn(arg, &p);
		wtap_rec_reset(&rec);
		if (ret)
			break;
	}
	if (!ret && err) {
		fprintf(stderr, "headroom: %s: after %u packets: %s\n", path, n,
			wtap_why(err, info));
		ret = -EIO;
	}
	g_free(info);
	ws_buffer_free(&buf);
	wtap_rec_cleanup(&rec);
	wtap_close(wth);
	pthread_mutex_unlock(&wtap_lock);
	return ret;
}
