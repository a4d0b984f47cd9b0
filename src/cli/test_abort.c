// SPDX-License-Identifier: MIT
/*
 * How `headroom test` tells an abort: the instruction and its source line,
 * the reason, and for a memory access what it was (load, store, atomic or
 * a helper's), its size and where it fell against the region it was
 * checked against, in that region's own offsets, as the kernel's verifier
 * names a bad access ("invalid access to packet, off=54 size=4, R2
 * offset=0 ..."); as text and as the JSON "abort" object (json-c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/test_io.h"

/* "byte" or "bytes" for @n of them. */
static const char *bytes(int64_t n)
{
	return n == 1 ? "byte" : "bytes";
}

/* "load of 4 bytes", "bpf_xdp_load_bytes reading 64 bytes". */
static void what(const struct hr_test_access *a, char *buf, size_t size)
{
	const char *helper = a->helper ? a->helper : "a kfunc";

	switch (a->kind) {
	case HR_ACCESS_HELPER_READ:
		snprintf(buf, size, "%s reading %" PRIu32 " %s", helper,
			 a->size, bytes(a->size));
		break;
	case HR_ACCESS_HELPER_WRITE:
		snprintf(buf, size, "%s writing %" PRIu32 " %s", helper,
			 a->size, bytes(a->size));
		break;
	case HR_ACCESS_ATOMIC:
		snprintf(buf, size, "atomic access of %" PRIu32 " %s", a->size,
			 bytes(a->size));
		break;
	default:
		snprintf(buf, size, "%s of %" PRIu32 " %s",
			 hr_access_kind_str(a->kind), a->size, bytes(a->size));
	}
}

/* Where the access lies against [lo, hi): ", 2 bytes past data_end". The
 * ends are named as the program knows them. */
static void overrun(const struct hr_test_access *a, char *buf, size_t size)
{
	static const char *const ends[][2] = {
		[HR_ACCESS_PACKET] = { "data", "data_end" },
		[HR_ACCESS_META] = { "data_meta", "data" },
		[HR_ACCESS_STACK] = { "the frame", "the stack's top" },
		[HR_ACCESS_CTX] = { "its start", "its end" },
		[HR_ACCESS_MAP_VALUE] = { "its start", "its end" },
		[HR_ACCESS_GLOBAL] = { "its start", "its end" },
	};
	int64_t end = a->offset + (int64_t)a->size;

	buf[0] = '\0';
	if (a->offset < a->lo)
		snprintf(buf, size, ", %" PRId64 " %s %s %s", a->lo - a->offset,
			 bytes(a->lo - a->offset),
			 a->region == HR_ACCESS_STACK ? "below" : "before",
			 ends[a->region][0]);
	else if (end > a->hi)
		snprintf(buf, size, ", %" PRId64 " %s past %s", end - a->hi,
			 bytes(end - a->hi), ends[a->region][1]);
	else if (a->kind == HR_ACCESS_ATOMIC && a->size && a->addr % a->size)
		snprintf(buf, size, ", not aligned to %" PRIu32 " bytes",
			 a->size);
}

void test_abort_text(const struct hr_test_access *a, char *buf, size_t size)
{
	char w[96], over[64];
	int64_t len = a->hi - a->lo;

	buf[0] = '\0';
	if (a->kind == HR_ACCESS_NONE)
		return;
	what(a, w, sizeof(w));
	switch (a->region) {
	case HR_ACCESS_PACKET:
	case HR_ACCESS_META:
	case HR_ACCESS_STACK:
	case HR_ACCESS_CTX:
	case HR_ACCESS_MAP_VALUE:
	case HR_ACCESS_GLOBAL:
		overrun(a, over, sizeof(over));
		break;
	default:
		over[0] = '\0';
	}
	switch (a->region) {
	case HR_ACCESS_PACKET:
		snprintf(buf, size,
			 ": %s at packet offset %" PRId64 ", packet is %" PRId64
			 " bytes (data 0..%" PRId64 ")%s",
			 w, a->offset, len, a->hi, over);
		break;
	case HR_ACCESS_META:
		snprintf(buf, size,
			 ": %s at metadata offset %" PRId64
			 ", metadata is %" PRId64
			 " bytes (data_meta 0..%" PRId64 ")%s",
			 w, a->offset, len, a->hi, over);
		break;
	case HR_ACCESS_STACK:
		if (a->hi > 0)
			snprintf(
				buf, size,
				": %s at stack offset r10%+" PRId64
				", the stack it may reach is r10-512..r10+%" PRId64
				" (its frame and its callers')%s",
				w, a->offset, a->hi, over);
		else
			snprintf(buf, size,
				 ": %s at stack offset r10%+" PRId64
				 ", the frame is r10-512..r10%s",
				 w, a->offset, over);
		break;
	case HR_ACCESS_CTX:
		snprintf(buf, size,
			 ": %s at context offset %" PRId64
			 " (struct %s is %" PRId64 " bytes)%s",
			 w, a->offset, a->name ? a->name : "?", len, over);
		break;
	case HR_ACCESS_MAP_VALUE:
	case HR_ACCESS_GLOBAL:
		snprintf(buf, size,
			 ": %s at offset %" PRId64 " of %s '%s', %s is %" PRId64
			 " bytes%s",
			 w, a->offset,
			 a->region == HR_ACCESS_GLOBAL ? "global data" :
							 "a value of map",
			 a->name ? a->name : "?",
			 a->region == HR_ACCESS_GLOBAL ? "which" : "the value",
			 len, over);
		break;
	case HR_ACCESS_NULL:
		snprintf(buf, size,
			 ": %s at address 0x%" PRIx64
			 ", a NULL pointer + %" PRIu64,
			 w, a->addr, a->addr);
		break;
	default:
		snprintf(buf, size,
			 ": %s at address 0x%" PRIx64
			 ", in no region the program may touch",
			 w, a->addr);
	}
}

static void add_int(struct json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

static void add_str(struct json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, s ? json_object_new_string(s) : NULL);
}

static struct json_object *access_json(const struct hr_test_access *a)
{
	struct json_object *o = json_object_new_object();
	char addr[24];

	if (!o)
		return NULL;
	add_str(o, "kind", hr_access_kind_str(a->kind));
	add_int(o, "size", a->size);
	if (a->helper || a->kind == HR_ACCESS_HELPER_READ ||
	    a->kind == HR_ACCESS_HELPER_WRITE)
		add_str(o, "helper", a->helper);
	add_str(o, "region", hr_access_region_str(a->region));
	if (a->name)
		add_str(o, "name", a->name);
	if (a->region == HR_ACCESS_NULL || a->region == HR_ACCESS_UNKNOWN) {
		/* Host addresses mean nothing elsewhere but for these. */
		snprintf(addr, sizeof(addr), "0x%" PRIx64, a->addr);
		add_str(o, "address", addr);
	}
	if (a->region == HR_ACCESS_UNKNOWN)
		return o;
	add_int(o, "offset", a->offset);
	if (a->region == HR_ACCESS_NULL)
		return o;
	add_int(o, "region_len", a->hi - a->lo);
	add_int(o, "region_lo", a->lo);
	add_int(o, "region_hi", a->hi);
	return o;
}

struct json_object *test_abort_json(const struct test_abort *ab)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	add_int(o, "insn", ab->insn);
	add_str(o, "file", ab->file);
	if (ab->file)
		add_int(o, "line", ab->line);
	else
		json_object_object_add(o, "line", NULL);
	add_str(o, "reason", ab->reason);
	json_object_object_add(o, "access",
			       ab->access.kind != HR_ACCESS_NONE ?
				       access_json(&ab->access) :
				       NULL);
	return o;
}
