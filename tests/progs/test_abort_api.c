// SPDX-License-Identifier: MIT
/*
 * The access detail of an aborted test run through the C API
 * (hr_test_run_opts.access, issue 14 item 3), under the interpreter and
 * the JIT: the fields of a packet over-read and a NULL load, cleared by
 * the next run that does not abort, and never written for a caller whose
 * opts struct ends before them (the sized-opts convention).
 * progs/cli/abort_access.bpf.c; tests/cli/test_abort_access.sh checks
 * every region through the command line.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include <headroom/object.h>
#include <headroom/test_run.h>

static const enum hr_engine engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT };

/* A 56-byte packet: short_read's 4 bytes at 54 are 2 past data_end; a
 * 58-byte one holds them. */
static uint8_t pkt[58] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00 };

static void run(struct hr_prog *p, struct hr_test_run_opts *o, enum hr_engine e,
		uint32_t len)
{
	static uint8_t out[256];

	o->data_in = pkt;
	o->data_size_in = len;
	o->data_out = out;
	o->data_size_out = sizeof(out);
	o->engine = e;
	CHECK_EQ(hr_prog_test_run(p, o), 0);
}

static void test_packet(struct hr_object *obj, enum hr_engine e)
{
	struct hr_prog *p = hr_object_find_prog(obj, "short_read");
	HR_OPTS(hr_test_run_opts, o);

	CHECK(p != NULL, "short_read");
	if (!p)
		return;
	run(p, &o, e, 56);
	CHECK_EQ(o.abort, 1); /* HR_ABORT_OOB_LOAD */
	CHECK_EQ(o.access.kind, HR_ACCESS_LOAD);
	CHECK_EQ(o.access.size, 4);
	CHECK_EQ(o.access.region, HR_ACCESS_PACKET);
	CHECK_EQ(o.access.offset, 54);
	CHECK_EQ(o.access.lo, 0);
	CHECK_EQ(o.access.hi, 56);
	CHECK(o.access.name == NULL && o.access.helper == NULL, "no names");
	CHECK(!strcmp(hr_access_kind_str(o.access.kind), "load"), "kind str");
	CHECK(!strcmp(hr_access_region_str(o.access.region), "packet"),
	      "region str");
	/* The same opts again, on a packet long enough: nothing is left of
	 * the last abort. */
	run(p, &o, e, 58);
	CHECK_EQ(o.abort, 0);
	CHECK_EQ(o.access.kind, HR_ACCESS_NONE);
	CHECK_EQ(o.access.region, HR_ACCESS_UNKNOWN);
	CHECK_EQ(o.access.offset, 0);
}

static void test_null(struct hr_object *obj, enum hr_engine e)
{
	struct hr_prog *p = hr_object_find_prog(obj, "null_read");
	HR_OPTS(hr_test_run_opts, o);

	CHECK(p != NULL, "null_read");
	if (!p)
		return;
	run(p, &o, e, 56);
	CHECK_EQ(o.abort, 1);
	CHECK_EQ(o.access.kind, HR_ACCESS_LOAD);
	CHECK_EQ(o.access.size, 4);
	CHECK_EQ(o.access.region, HR_ACCESS_NULL);
	CHECK_EQ(o.access.addr, 16);
	CHECK_EQ(o.access.offset, 16);
}

/* A caller built before access existed: its struct ends there, and the
 * bytes after it are not its own. */
static void test_old_opts(struct hr_object *obj, enum hr_engine e)
{
	struct hr_prog *p = hr_object_find_prog(obj, "short_read");
	struct hr_test_run_opts o;
	uint8_t after[sizeof(o.access)];

	if (!p)
		return;
	memset(&o, 0, sizeof(o));
	o.sz = offsetof(struct hr_test_run_opts, access);
	memset(&o.access, 0xa5, sizeof(o.access));
	memset(after, 0xa5, sizeof(after));
	run(p, &o, e, 56);
	CHECK_EQ(o.abort, 1);
	CHECK(!memcmp(&o.access, after, sizeof(after)),
	      "an old-sized opts struct was written past its end");
}

int main(void)
{
	struct hr_object *obj = NULL;
	char path[4096], err[512] = "";
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err));
	size_t i;
	int ret;

	t_prog_path("abort_access.o", path, sizeof(path));
	ret = hr_object_open(path, &oo, &obj);
	CHECK(ret == 0, "%s: %s", path, err);
	for (i = 0; !ret && i < sizeof(engines) / sizeof(engines[0]); i++) {
		test_packet(obj, engines[i]);
		test_null(obj, engines[i]);
		test_old_opts(obj, engines[i]);
	}
	hr_object_close(obj);
	return t_done();
}
