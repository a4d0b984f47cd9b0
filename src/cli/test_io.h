/* SPDX-License-Identifier: MIT */
/*
 * The pieces of `headroom test` around a run: where each packet's RX hints
 * come from (test_hints.c), and how a result is shown: text, JSON lines,
 * pcapng with per-packet comments, metadata decoded with BTF
 * (test_out.c), aborts with their access (test_abort.c).
 */
#ifndef HR_CLI_TEST_IO_H
#define HR_CLI_TEST_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <headroom/test_run.h>

#include "dev/hints_file.h"

struct hr_pcapng_pkt;
struct hr_pcapng_writer;
struct btf;
struct json_object;

/* Comment tag of the device profile a capture was run with. */
#define TEST_DEVICE_TAG "hr-device: "

/* --hints FILE, --hints-const JSON, --device PROFILE, and the hints a
 * pcapng input carries in its "hr-hints:" comments. */
struct test_hints {
	const char *file;
	const char *constant;
	const char *device;
	struct hr_hint *per_pkt; /* from @file, npkts of them */
	size_t npkts;
	struct hr_hint all; /* from @constant */
	uint8_t supported; /* HR_HINT_* the device has */
};

/* Parses --hints-const and --device; 0 or -EINVAL after a message. */
int test_hints_setup(struct test_hints *th);
/* Loads --hints FILE for a capture of @npkts packets; 0 or -errno after
 * a message naming file:line and key. */
int test_hints_load(struct test_hints *th, size_t npkts);
/*
 * The hints for packet @index (@p: its pcapng record, or NULL): 1 and
 * *@out (the kfuncs' view) and *@shown filled when the run has hints at
 * all, 0 when it runs on a device without any (-EOPNOTSUPP), -EINVAL
 * after a message for a bad "hr-hints:" comment.
 */
int test_hints_for(const struct test_hints *th, unsigned int index,
		   const struct hr_pcapng_pkt *p, struct hr_test_hints *out,
		   struct hr_hint *shown, uint8_t *supported);
void test_hints_free(struct test_hints *th);
/* "hash,timestamp,vlan" for HR_HINT_* @have ("none" for 0). */
void test_hints_profile_str(uint8_t have, char *buf, size_t size);

/* How metadata is decoded: --meta-type, or the type id the program
 * stored last in the area (bpf_core_type_id_local). */
struct test_meta_type {
	struct btf *btf; /* the object's, NULL without BTF */
	int id; /* --meta-type's, 0: look for a stored id */
	const char *name;
};

/* Opens @spec's BTF and finds --meta-type @name (NULL: automatic only);
 * 0, or -EINVAL after a message. */
int test_meta_type_open(struct test_meta_type *mt, const char *spec,
			const char *name);
void test_meta_type_close(struct test_meta_type *mt);

/* An aborted run: where, why, and the memory access if it was one. */
struct test_abort {
	uint32_t insn;
	const char *file; /* from the object's line info, or NULL */
	unsigned int line;
	const char *reason; /* hr_abort_str() */
	struct hr_test_access access;
};

/* ": load of 4 bytes at packet offset 54, packet is 56 bytes (data
 * 0..56), 2 bytes past data_end", or "" when @a is no memory access. */
void test_abort_text(const struct hr_test_access *a, char *buf, size_t size);
/* The "abort" object: insn, file, line, reason, access {kind, size,
 * region, offset, region_len ...} (null when no memory access). */
struct json_object *test_abort_json(const struct test_abort *ab);

/* One packet's outcome, as printed. */
struct test_result {
	unsigned int index;
	const char *action; /* NULL: the run failed */
	uint32_t retval;
	const uint8_t *data;
	size_t data_len;
	const uint8_t *meta;
	size_t meta_len;
	const char *error;
	uint32_t repeat;
	uint32_t duration; /* mean ns a run */
	bool hinted;
	struct hr_hint hints;
	uint8_t supported;
	uint64_t ts_ns;
	/* The context fields the program changed, as JSON text ("{}" when
	 * none), or NULL not to show them. */
	const char *ctx_changed;
	/* Set when the run aborted. */
	const struct test_abort *abort;
	/* The tunnel metadata the program set (bpf_skb_set_tunnel_key), or
	 * NULL when it set none. */
	const struct hr_tunnel_md *tunnel_set;
	/* What the program wrote to its streams in this packet's runs
	 * (bpf_stream_vprintk_impl), NULL when nothing. */
	const char *stream_out, *stream_err;
};

/* Prints @r as text or one JSON line (keys index, action, retval, data,
 * meta, error, and duration_ns, hints, meta_type, meta_decoded, abort). */
void test_print(const struct test_result *r, bool json,
		const struct test_meta_type *mt);
/* Writes @r's packet to @w with comments: verdict and return value,
 * hints and device profile, metadata in hex and decoded. 0 or -EIO. */
int test_write(struct hr_pcapng_writer *w, const struct test_result *r,
	       const struct test_meta_type *mt);

#endif /* HR_CLI_TEST_IO_H */
