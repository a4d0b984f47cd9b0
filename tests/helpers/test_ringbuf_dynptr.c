// SPDX-License-Identifier: MIT
/*
 * bpf_ringbuf_reserve_dynptr, _submit_dynptr and _discard_dynptr
 * (progs/helpers/xdp_ringbuf_dynptr.bpf.c) with sizes from none to past
 * what the ring and a dynptr can hold and with bad flags, the record
 * memset, written, read and reached through bpf_dynptr_data, compared
 * with the kernel's BPF_PROG_TEST_RUN under both engines: every return,
 * the dynptr's size (-EINVAL when null), the ring's unconsumed bytes, and then
 * the records a consumer finds in each ring, byte for byte (discarded
 * ones are skipped). Each case consumes both rings, so each starts empty.
 */
#include <errno.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "harness.h"
#include "headroom/object.h"
#include "headroom/ringbuf.h"
#include "headroom/test_run.h"
#include "oracle.h"

#define OBJ "xdp_ringbuf_dynptr.o"

struct rb_rec {
	uint32_t size, flags;
	uint32_t discard, off;
	uint8_t bytes[16];
	int64_t ret, memset_ret, write_ret, read_ret;
	int64_t dsize, data_ok, avail;
	uint8_t back[16];
};

/* What a consumer found: the records, one after another, each as its
 * size and then its bytes. */
struct found {
	uint32_t n;
	uint8_t buf[8192];
	size_t len;
};

static int on_sample(void *ctx, void *data, size_t size)
{
	struct found *f = ctx;
	uint32_t sz = (uint32_t)size;

	f->n++;
	if (f->len + sizeof(sz) + size > sizeof(f->buf))
		return -E2BIG;
	memcpy(f->buf + f->len, &sz, sizeof(sz));
	memcpy(f->buf + f->len + sizeof(sz), data, size);
	f->len += sizeof(sz) + size;
	return 0;
}

static void consume_headroom(struct oracle *o, struct found *f)
{
	struct hr_object *obj = oracle_headroom_object(o, OBJ);
	struct hr_map *m = obj ? hr_object_find_map(obj, "rb") : NULL;

	memset(f, 0, sizeof(*f));
	CHECK(m != NULL, "headroom's ring");
	if (m)
		CHECK(hr_ringbuf_consume(m, on_sample, f) >= 0, "consume");
}

static void consume_kernel(struct oracle *o, struct found *f)
{
	struct bpf_object *obj = oracle_kernel_object(o, OBJ);
	struct bpf_map *m = obj ? bpf_object__find_map_by_name(obj, "rb") :
				  NULL;
	struct ring_buffer *rb;

	memset(f, 0, sizeof(*f));
	CHECK(m != NULL, "kernel's ring");
	if (!m)
		return;
	rb = ring_buffer__new(bpf_map__fd(m), on_sample, f, NULL);
	CHECK(rb != NULL, "ring_buffer__new");
	if (!rb)
		return;
	CHECK(ring_buffer__consume(rb) >= 0, "kernel consume");
	ring_buffer__free(rb);
}

static uint8_t pkt[256];

static void one(struct oracle *o, bool kernel, uint32_t size, uint32_t flags,
		uint32_t discard, uint32_t off, int64_t want_ret)
{
	struct oracle_case c = { .obj = OBJ, .data = pkt, .size = sizeof(pkt) };
	struct rb_rec in = { size, flags, discard, off }, out;
	static struct found hf, kf;
	struct oracle_result r;
	const struct oracle_result *h = &r;
	char label[96];
	int i;

	for (i = 0; i < 16; i++)
		in.bytes[i] = (uint8_t)(0xa0 + i);
	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt + 14, &in, sizeof(in));
	snprintf(label, sizeof(label),
		 "ringbuf dynptr size %u flags %u discard %u off %u", size,
		 flags, discard, off);
	if (kernel) {
		CHECK(oracle_check(o, &c, label) == 1, "%s differs", label);
		h = oracle_headroom_result(o);
	} else {
		CHECK(oracle_run_headroom(o, &c, &r) == 0, "%s: run", label);
	}
	CHECK(h->retval == XDP_PASS, "%s: retval %u", label, h->retval);
	memcpy(&out, h->out + 14, sizeof(out));
	/* bpf_dynptr_size of a null dynptr: -EINVAL as its u32. */
	CHECK(out.ret == want_ret &&
		      out.dsize == (want_ret ? (uint32_t)-EINVAL : size),
	      "%s: ret %lld size %lld", label, (long long)out.ret,
	      (long long)out.dsize);
	consume_headroom(o, &hf);
	CHECK_EQ(hf.n, (uint32_t)(!want_ret && !discard));
	if (!want_ret && !discard && off + 16 <= size)
		CHECK(memcmp(hf.buf + 4 + off, in.bytes, 16) == 0 || off < 8,
		      "%s: the record's bytes", label);
	if (kernel) {
		consume_kernel(o, &kf);
		CHECK(kf.len == hf.len && !memcmp(kf.buf, hf.buf, hf.len),
		      "%s: the rings' records differ (%zu, %zu bytes)", label,
		      kf.len, hf.len);
	}
}

static void cases(struct oracle *o, bool kernel)
{
	one(o, kernel, 64, 0, 0, 0, 0);
	one(o, kernel, 64, 0, 0, 48, 0);
	one(o, kernel, 64, 0, 0, 49, 0);
	one(o, kernel, 64, 0, 1, 8, 0);
	one(o, kernel, 8, 0, 0, 0, 0);
	one(o, kernel, 0, 0, 0, 0, 0);
	one(o, kernel, 13, 0, 0, 0, 0);
	one(o, kernel, 4080, 0, 0, 4000, 0);
	one(o, kernel, 4088, 0, 0, 0, -EINVAL);
	one(o, kernel, 0xffffff, 0, 0, 0, -EINVAL);
	one(o, kernel, 0x1000000, 0, 0, 0, -E2BIG);
	one(o, kernel, 64, 1, 0, 0, -EINVAL);
	one(o, kernel, 64, BPF_RB_NO_WAKEUP, 1, 0, -EINVAL);
}

int main(void)
{
	return oracle_main_engines(cases);
}
