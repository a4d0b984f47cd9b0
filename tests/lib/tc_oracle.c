// SPDX-License-Identifier: MIT
/* tc programs in the kernel and in headroom, compared (tc_oracle.h). */
#include "tc_oracle.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "headroom/headroom.h"
#include "kernel_side.h"

struct tc_oracle {
	struct bpf_object *kobj;
	struct hr_object *hobj;
	char kleft[512]; /* left out for the host (kernel_side.h) */
};

struct tc_oracle *tc_oracle_open(const char *obj, bool kernel)
{
	struct tc_oracle *o = calloc(1, sizeof(*o));
	struct hr_object_open_opts opts = { .sz = sizeof(opts) };
	char path[512], err[256] = "";

	if (!o)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", t_progs_dir(), obj);
	opts.errbuf = err;
	opts.errbuf_sz = sizeof(err);
	if (hr_object_open(path, &opts, &o->hobj)) {
		fprintf(stderr, "headroom cannot open %s: %s\n", path, err);
		free(o);
		return NULL;
	}
	if (!kernel)
		return o;
	o->kobj = t_kload(obj, o->kleft, sizeof(o->kleft), NULL);
	if (!o->kobj)
		fprintf(stderr, "kernel cannot load %s\n", path);
	else if (o->kleft[0])
		fprintf(stderr, "tc oracle: kernel: %s: left out %s: %s\n", obj,
			o->kleft, t_host_note());
	return o;
}

void tc_oracle_close(struct tc_oracle *o)
{
	if (!o)
		return;
	if (o->kobj)
		bpf_object__close(o->kobj);
	hr_object_close(o->hobj);
	free(o);
}

int tc_run_kernel(struct tc_oracle *o, const char *prog, const void *pkt,
		  uint32_t len, const struct __sk_buff *ctx,
		  struct tc_result *res)
{
	struct bpf_program *p;
	struct __sk_buff in = *ctx;
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	if (!o->kobj)
		return -ENOENT;
	p = bpf_object__find_program_by_name(o->kobj, prog);
	if (!p)
		return -ENOENT;
	if (bpf_program__fd(p) < 0 && o->kleft[0])
		return -EPERM;
	memset(res, 0, sizeof(*res));
	opts.data_in = pkt;
	opts.data_size_in = len;
	opts.data_out = res->out;
	opts.data_size_out = sizeof(res->out);
	opts.ctx_in = &in;
	opts.ctx_size_in = sizeof(in);
	opts.ctx_out = &res->ctx;
	opts.ctx_size_out = sizeof(res->ctx);
	res->err = bpf_prog_test_run_opts(bpf_program__fd(p), &opts);
	if (res->err)
		res->err = -errno;
	res->retval = opts.retval;
	res->size_out = opts.data_size_out;
	return 0;
}

int tc_run_headroom(struct tc_oracle *o, const char *prog, const void *pkt,
		    uint32_t len, const struct __sk_buff *ctx,
		    struct tc_result *res)
{
	struct hr_prog *p = hr_object_find_prog(o->hobj, prog);
	struct hr_test_run_opts opts = { .sz = sizeof(opts) };
	struct __sk_buff in = *ctx;

	if (!p)
		return -ENOENT;
	memset(res, 0, sizeof(*res));
	opts.data_in = pkt;
	opts.data_size_in = len;
	opts.data_out = res->out;
	opts.data_size_out = sizeof(res->out);
	opts.ctx_in = &in;
	opts.ctx_size_in = sizeof(in);
	opts.ctx_out = &res->ctx;
	opts.ctx_size_out = sizeof(res->ctx);
	res->err = hr_prog_test_run(p, &opts);
	res->retval = opts.retval;
	res->size_out = opts.data_size_out;
	if (opts.abort)
		fprintf(stderr, "%s: aborted (%s) at insn %u\n", prog,
			hr_abort_str(opts.abort), opts.abort_pc);
	return 0;
}

static void print_side(const char *who, const struct tc_result *r)
{
	static char hex[2 * TC_ORACLE_OUT_MAX + 1];
	uint32_t n = r->size_out < TC_ORACLE_OUT_MAX ? r->size_out :
						       TC_ORACLE_OUT_MAX;

	t_hex(r->out, n, hex);
	fprintf(stderr, "  %s: err %d retval %d size %u\n    data %s\n", who,
		r->err, (int)r->retval, r->size_out, hex);
	t_hex(r->ctx.cb, sizeof(r->ctx.cb), hex);
	fprintf(stderr, "    cb %s mark %u\n", hex, r->ctx.mark);
}

int tc_check(struct tc_oracle *o, const char *prog, const void *pkt,
	     uint32_t len, const struct __sk_buff *ctx, const char *label,
	     struct tc_result *hr)
{
	static struct tc_result k, h;
	bool same;
	int err;

	if (tc_run_headroom(o, prog, pkt, len, ctx, &h)) {
		fprintf(stderr, "%s: no program %s\n", label, prog);
		return 0;
	}
	if (hr)
		*hr = h;
	if (!o->kobj)
		return 1;
	err = tc_run_kernel(o, prog, pkt, len, ctx, &k);
	if (err == -EPERM)
		return TC_REFUSED;
	if (err) {
		fprintf(stderr, "%s: kernel has no program %s\n", label, prog);
		return 0;
	}
	same = k.err == h.err && k.retval == h.retval &&
	       k.size_out == h.size_out &&
	       !memcmp(k.out, h.out,
		       k.size_out < TC_ORACLE_OUT_MAX ? k.size_out :
							TC_ORACLE_OUT_MAX) &&
	       !memcmp(&k.ctx, &h.ctx, sizeof(k.ctx));
	if (!same) {
		fprintf(stderr, "DIFF %s (%s):\n", label, prog);
		print_side("kernel  ", &k);
		print_side("headroom", &h);
	}
	return same;
}
