// SPDX-License-Identifier: MIT
/*
 * The kernel-as-oracle harness (see oracle.h). Objects are opened once per
 * side and kept, so map state carries over between cases on both sides in
 * the same way.
 */
#include "oracle.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "headroom/headroom.h"
#include "kernel_side.h"

/*
 * Weak, so that every test binary (each links this file) still links
 * while parts of the library are missing; oracle_have_headroom() says
 * whether they are there.
 */
#pragma weak hr_object_open
#pragma weak hr_object_close
#pragma weak hr_object_find_prog
#pragma weak hr_prog_test_run
#pragma weak hr_abort_str

#define ORACLE_MAX_OBJS 32
#define HEX_FULL_MAX 256 /* bytes printed whole; longer: a window */
#define HEX_WINDOW 64

struct oracle_obj {
	char name[512];
	struct bpf_object *kobj;
	int kerr;
	bool kopened;
	/* Programs left out for the host's kfunc restriction. */
	char kleft[512];
	struct hr_object *hobj;
	int herr;
	bool hopened;
	char herrbuf[256];
};

struct oracle {
	struct oracle_obj objs[ORACLE_MAX_OBJS];
	unsigned int nobjs;
	unsigned int cases;
	unsigned int diffs;
	unsigned int setup_errors;
	unsigned int refused;
	unsigned int printed;
	unsigned int print_limit;
	int engine;
	/* Entries for the maps objects leave to user space to size. */
	unsigned int zero_size;
	unsigned int ncpus; /* hr_object_open_opts.ncpus; 0: its default */
	bool headroom_only;
	struct oracle_result kres;
	struct oracle_result hres;
};

bool oracle_have_headroom(void)
{
	return hr_object_open && hr_object_find_prog && hr_prog_test_run &&
	       hr_object_close;
}

int oracle_new(struct oracle **o)
{
	*o = calloc(1, sizeof(**o));
	if (!*o)
		return -ENOMEM;
	(*o)->print_limit = 20;
	return 0;
}

void oracle_free(struct oracle *o)
{
	unsigned int i;

	if (!o)
		return;
	for (i = 0; i < o->nobjs; i++) {
		if (o->objs[i].kobj)
			bpf_object__close(o->objs[i].kobj);
		if (o->objs[i].hobj && hr_object_close)
			hr_object_close(o->objs[i].hobj);
	}
	free(o);
}

void oracle_set_engine(struct oracle *o, int engine)
{
	o->engine = engine;
}

int oracle_engine(const struct oracle *o)
{
	return o->engine;
}

void oracle_set_print_limit(struct oracle *o, unsigned int n)
{
	o->print_limit = n;
}

void oracle_size_zero_maps(struct oracle *o, unsigned int n)
{
	o->zero_size = n;
}

void oracle_set_ncpus(struct oracle *o, unsigned int n)
{
	o->ncpus = n;
}

static struct oracle_obj *get_obj(struct oracle *o, const char *name)
{
	struct oracle_obj *ob;
	unsigned int i;

	for (i = 0; i < o->nobjs; i++)
		if (strcmp(o->objs[i].name, name) == 0)
			return &o->objs[i];
	if (o->nobjs == ORACLE_MAX_OBJS)
		return NULL;
	ob = &o->objs[o->nobjs++];
	snprintf(ob->name, sizeof(ob->name), "%s", name);
	return ob;
}

static void obj_path(const char *name, char *path, size_t sz)
{
	t_prog_path(name, path, sz);
}

/* The programs the host refuses for its kfunc restriction are left out
 * (kernel_side.h); the others still load and are compared. */
static int kernel_open(struct oracle *o, struct oracle_obj *ob)
{
	if (ob->kopened)
		return ob->kerr;
	ob->kopened = true;
	t_kload_size_zero_maps(o->zero_size);
	ob->kobj = t_kload(ob->name, ob->kleft, sizeof(ob->kleft), &ob->kerr);
	t_kload_size_zero_maps(0);
	if (ob->kobj && ob->kleft[0])
		fprintf(stderr, "oracle: kernel: %s: left out %s: %s\n",
			ob->name, ob->kleft, t_host_note());
	return ob->kerr;
}

static bool left_out(const struct oracle_obj *ob, const char *prog)
{
	const char *s = ob->kleft;
	size_t n = strlen(prog);

	while ((s = strstr(s, prog))) {
		if ((s == ob->kleft || s[-1] == ',') &&
		    (s[n] == ',' || s[n] == '\0'))
			return true;
		s += n;
	}
	return false;
}

#define ORACLE_MAX_SIZED 64

/* The maps of @path the kernel side sizes (t_kload_size_zero_maps), as
 * headroom's "name=N" map sizes: into @list, their text in @buf. */
static size_t zero_sized(const char *path, unsigned int n, char *buf, size_t sz,
			 const char **list)
{
	struct bpf_object *o;
	struct bpf_map *m;
	size_t cnt = 0, used = 0;
	int w;

	if (!n)
		return 0;
	o = bpf_object__open_file(path, NULL);
	if (!o)
		return 0;
	bpf_object__for_each_map(m, o)
	{
		if (!t_sized_by_user(m) || cnt == ORACLE_MAX_SIZED)
			continue;
		w = snprintf(buf + used, sz - used, "%s=%u", bpf_map__name(m),
			     n);
		if (w < 0 || (size_t)w >= sz - used)
			break;
		list[cnt++] = buf + used;
		used += (size_t)w + 1;
	}
	bpf_object__close(o);
	return cnt;
}

static int headroom_open(struct oracle *o, struct oracle_obj *ob)
{
	static char sizes[ORACLE_MAX_SIZED * 64];
	const char *list[ORACLE_MAX_SIZED];
	char path[4096];
	HR_OPTS(hr_object_open_opts, opts, .errbuf = ob->herrbuf,
		.errbuf_sz = sizeof(ob->herrbuf));

	if (ob->hopened)
		return ob->herr;
	ob->hopened = true;
	if (!oracle_have_headroom()) {
		ob->herr = -ENOSYS;
		return ob->herr;
	}
	obj_path(ob->name, path, sizeof(path));
	opts.ncpus = o->ncpus;
	opts.map_sizes = list;
	opts.map_sizes_cnt =
		zero_sized(path, o->zero_size, sizes, sizeof(sizes), list);
	ob->herr = hr_object_open(path, &opts, &ob->hobj);
	if (ob->herr) {
		fprintf(stderr, "oracle: headroom: open %s: %s (%s)\n", path,
			strerror(-ob->herr), ob->herrbuf);
		ob->hobj = NULL;
	}
	return ob->herr;
}

struct bpf_object *oracle_kernel_object(struct oracle *o, const char *obj)
{
	struct oracle_obj *ob = get_obj(o, obj);

	if (!ob || kernel_open(o, ob))
		return NULL;
	return ob->kobj;
}

const char *oracle_kernel_left_out(struct oracle *o, const char *obj)
{
	struct oracle_obj *ob = get_obj(o, obj);

	if (!ob || kernel_open(o, ob))
		return "";
	return ob->kleft;
}

struct hr_object *oracle_headroom_object(struct oracle *o, const char *obj)
{
	struct oracle_obj *ob = get_obj(o, obj);

	if (!ob || headroom_open(o, ob))
		return NULL;
	return ob->hobj;
}

static struct bpf_program *kernel_prog(struct bpf_object *obj, const char *name)
{
	if (name)
		return bpf_object__find_program_by_name(obj, name);
	return bpf_object__next_program(obj, NULL);
}

static uint32_t out_cap(const struct oracle_case *c)
{
	if (c->data_out_cap && c->data_out_cap < ORACLE_OUT_MAX)
		return c->data_out_cap;
	return ORACLE_OUT_MAX;
}

/* The buffers and sizes of one run, the same for both sides. */
struct run_io {
	void *data_out;
	uint32_t data_size_out;
	bool with_ctx;
	/* Larger than the context, for ctx_size_in tail-zero cases. */
	uint8_t ctx_in[sizeof(struct __sk_buff) + 64];
	uint32_t ctx_size_in;
	void *ctx_out; /* res->ctx_out (XDP) or res->skb_out (tc) */
	uint32_t ctx_size_out;
};

static void prepare_io(const struct oracle_case *c, struct oracle_result *res,
		       struct run_io *io)
{
	struct xdp_md ctx = { 0 };

	memset(io, 0, sizeof(*io));
	memset(res, 0, offsetof(struct oracle_result, out));
	memset(res->out, 0, sizeof(res->out));
	if (!c->no_data_out) {
		io->data_out = res->out;
		io->data_size_out = out_cap(c);
	}
	if (c->skb) {
		io->with_ctx = true;
		io->ctx_size_in = sizeof(*c->skb);
		memcpy(io->ctx_in, c->skb, sizeof(*c->skb));
		io->ctx_out = &res->skb_out;
		io->ctx_size_out = sizeof(res->skb_out);
		return;
	}
	io->ctx_out = &res->ctx_out;
	io->ctx_size_out = sizeof(res->ctx_out);
	io->ctx_size_in = c->ctx_size_in ? c->ctx_size_in : sizeof(ctx);
	if (io->ctx_size_in > sizeof(io->ctx_in))
		io->ctx_size_in = sizeof(io->ctx_in);
	if (c->ctx) {
		ctx = *c->ctx;
		io->with_ctx = true;
	} else if (c->use_ctx) {
		ctx.data = c->metalen;
		ctx.data_end = c->size;
		io->with_ctx = true;
	}
	memcpy(io->ctx_in, &ctx, sizeof(ctx));
}

/* Keeps the run's outputs only where the run produced them. */
static void finish_io(const struct run_io *io, int err, uint32_t retval,
		      uint32_t size_out, uint32_t ctx_size_out,
		      struct oracle_result *res)
{
	res->err = err < 0 ? err : 0;
	if (res->err && res->err != -ENOSPC)
		return;
	res->retval = retval;
	res->size_out = size_out;
	res->ctx_size_out = io->with_ctx ? ctx_size_out : 0;
}

/* Into libbpf's or headroom's opts, whose fields have the same names. */
#define APPLY_IO(t, io, res)                                  \
	do {                                                  \
		(t).data_out = (io).data_out;                 \
		(t).data_size_out = (io).data_size_out;       \
		if ((io).with_ctx) {                          \
			(t).ctx_in = (io).ctx_in;             \
			(t).ctx_size_in = (io).ctx_size_in;   \
			(t).ctx_out = (io).ctx_out;           \
			(t).ctx_size_out = (io).ctx_size_out; \
		}                                             \
	} while (0)

int oracle_run_kernel(struct oracle *o, const struct oracle_case *c,
		      struct oracle_result *res)
{
	struct oracle_obj *ob = get_obj(o, c->obj);
	struct bpf_program *prog;
	struct run_io io;
	int err;
	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = c->data,
		    .data_size_in = c->size, .repeat = 1);

	prepare_io(c, res, &io);
	if (!ob)
		return -ENOMEM;
	err = kernel_open(o, ob);
	if (err)
		return err;
	prog = kernel_prog(ob->kobj, c->prog);
	if (!prog)
		return -ENOENT;
	if (left_out(ob, bpf_program__name(prog)))
		return -EPERM;
	APPLY_IO(t, io, res);
	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &t);
	finish_io(&io, err, t.retval, t.data_size_out, t.ctx_size_out, res);
	return 0;
}

int oracle_run_headroom(struct oracle *o, const struct oracle_case *c,
			struct oracle_result *res)
{
	struct oracle_obj *ob = get_obj(o, c->obj);
	struct hr_prog *prog;
	struct run_io io;
	int err;
	HR_OPTS(hr_test_run_opts, t, .data_in = c->data,
		.data_size_in = c->size, .repeat = 1);

	prepare_io(c, res, &io);
	if (!ob)
		return -ENOMEM;
	err = headroom_open(o, ob);
	if (err)
		return err;
	prog = hr_object_find_prog(ob->hobj, c->prog);
	if (!prog)
		return -ENOENT;
	t.engine = (enum hr_engine)o->engine;
	t.tunnel_in = c->tunnel_in;
	t.tunnel_out = c->tunnel_out;
	APPLY_IO(t, io, res);
	err = hr_prog_test_run(prog, &t);
	finish_io(&io, err, t.retval, t.data_size_out, t.ctx_size_out, res);
	if (t.abort && hr_abort_str)
		fprintf(stderr, "oracle: headroom aborted: %s at pc %u\n",
			hr_abort_str(t.abort), t.abort_pc);
	return 0;
}

/* Bytes of output a side's result holds. */
static uint32_t held(const struct oracle_case *c, const struct oracle_result *r)
{
	uint32_t n = r->size_out;

	if (c->no_data_out)
		return 0;
	return n < out_cap(c) ? n : out_cap(c);
}

static bool same(const struct oracle_case *c, const struct oracle_result *a,
		 const struct oracle_result *b)
{
	uint32_t n = held(c, a);

	if (a->err != b->err || a->retval != b->retval ||
	    a->size_out != b->size_out || a->ctx_size_out != b->ctx_size_out)
		return false;
	if (memcmp(&a->ctx_out, &b->ctx_out, sizeof(a->ctx_out)) ||
	    memcmp(&a->skb_out, &b->skb_out, sizeof(a->skb_out)))
		return false;
	return memcmp(a->out, b->out, n) == 0;
}

static void print_bytes(const char *side, const uint8_t *buf, uint32_t from,
			uint32_t len)
{
	char *hex = malloc(2 * (size_t)len + 1);

	if (!hex)
		return;
	t_hex(buf + from, len, hex);
	fprintf(stderr, "  %s out[%u..%u]: %s\n", side, from, from + len, hex);
	free(hex);
}

static void print_skb(const char *side, const struct __sk_buff *s)
{
	char hex[2 * sizeof(s->cb) + 1];

	t_hex(s->cb, sizeof(s->cb), hex);
	fprintf(stderr,
		"  %s skb_out {mark %u priority %u tc_index %u tc_classid %u "
		"hash %u cb %s}\n",
		side, s->mark, s->priority, s->tc_index, s->tc_classid, s->hash,
		hex);
}

static void print_side(const char *side, const struct oracle_result *r, bool tc)
{
	if (tc) {
		fprintf(stderr,
			"  %s: err %d retval %u (0x%x) size_out %u "
			"ctx_size_out %u\n",
			side, r->err, r->retval, r->retval, r->size_out,
			r->ctx_size_out);
		print_skb(side, &r->skb_out);
		return;
	}
	fprintf(stderr,
		"  %s: err %d retval %u (0x%x) size_out %u ctx_size_out %u "
		"ctx_out {data_meta %u data %u data_end %u ingress %u "
		"rxq %u egress %u}\n",
		side, r->err, r->retval, r->retval, r->size_out,
		r->ctx_size_out, r->ctx_out.data_meta, r->ctx_out.data,
		r->ctx_out.data_end, r->ctx_out.ingress_ifindex,
		r->ctx_out.rx_queue_index, r->ctx_out.egress_ifindex);
}

static void print_diff(const struct oracle *o, const struct oracle_case *c,
		       const char *label, const struct oracle_result *k,
		       const struct oracle_result *h)
{
	uint32_t nk = held(c, k), nh = held(c, h), n, first = 0, from;

	fprintf(stderr, "DIFF %s: %s/%s size %u metalen %u engine %d\n", label,
		c->obj, c->prog ? c->prog : "(first)", c->size, c->metalen,
		o->engine);
	print_side("kernel  ", k, c->skb);
	print_side("headroom", h, c->skb);
	n = nk > nh ? nk : nh;
	if (n <= HEX_FULL_MAX) {
		print_bytes("kernel  ", k->out, 0, nk);
		print_bytes("headroom", h->out, 0, nh);
		return;
	}
	while (first < n && k->out[first] == h->out[first])
		first++;
	from = first > HEX_WINDOW / 2 ? first - HEX_WINDOW / 2 : 0;
	fprintf(stderr, "  first differing byte at %u\n", first);
	print_bytes("kernel  ", k->out, from,
		    nk > from ?
			    (nk - from < HEX_WINDOW ? nk - from : HEX_WINDOW) :
			    0);
	print_bytes("headroom", h->out, from,
		    nh > from ?
			    (nh - from < HEX_WINDOW ? nh - from : HEX_WINDOW) :
			    0);
}

int oracle_check(struct oracle *o, const struct oracle_case *c,
		 const char *label)
{
	int err;

	if (o->headroom_only) {
		err = oracle_run_headroom(o, c, &o->hres);
		if (err)
			fprintf(stderr, "oracle: %s: no program %s in %s\n",
				label, c->prog ? c->prog : "(first)", c->obj);
		return err ? err : 1;
	}
	err = oracle_run_kernel(o, c, &o->kres);
	if (err == -EPERM) {
		/* Not compared, and not counted as agreeing. */
		o->refused++;
		return ORACLE_REFUSED;
	}
	if (!err)
		err = oracle_run_headroom(o, c, &o->hres);
	if (err) {
		o->setup_errors++;
		fprintf(stderr, "oracle: %s: setup of %s failed: %s\n", label,
			c->obj, strerror(-err));
		return err;
	}
	o->cases++;
	if (same(c, &o->kres, &o->hres))
		return 1;
	o->diffs++;
	if (o->printed++ < o->print_limit)
		print_diff(o, c, label, &o->kres, &o->hres);
	return 0;
}

void oracle_summary(const struct oracle *o)
{
	printf("oracle: %u cases, %u differences", o->cases, o->diffs);
	if (o->setup_errors)
		printf(", %u setup failures", o->setup_errors);
	if (o->refused)
		printf(", %u not compared: %s", o->refused, t_host_note());
	printf("\n");
}

unsigned int oracle_cases(const struct oracle *o)
{
	return o->cases;
}

unsigned int oracle_differences(const struct oracle *o)
{
	return o->diffs;
}

unsigned int oracle_refused(const struct oracle *o)
{
	return o->refused;
}

void oracle_set_headroom_only(struct oracle *o, bool headroom_only)
{
	o->headroom_only = headroom_only;
}

const struct oracle_result *oracle_headroom_result(const struct oracle *o)
{
	return &o->hres;
}

void oracle_skb_cb(struct __sk_buff *s, uint32_t a, uint32_t b, uint32_t c,
		   uint32_t d)
{
	memset(s, 0, sizeof(*s));
	s->cb[0] = a;
	s->cb[1] = b;
	s->cb[2] = c;
	s->cb[3] = d;
}

static void (*each_two)(struct oracle *o, bool kernel);

static void call_two(struct oracle *o, bool kernel, size_t engine)
{
	each_two(o, kernel);
}

static int main_engines(void (*each)(struct oracle *o, bool kernel,
				     size_t engine),
			size_t nengines)
{
	static const int engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
				       HR_ENGINE_JIT_CHECKED };
	struct oracle *o;
	char why[200];
	bool kernel;
	size_t e;
	int ret = oracle_new(&o);

	CHECK(ret == 0, "oracle_new: %s", strerror(-ret));
	if (ret)
		return t_done();
	kernel = t_have_kernel(why, sizeof(why));
	for (e = 0; e < nengines; e++) {
		oracle_set_engine(o, engines[e]);
		each(o, kernel, e);
	}
	oracle_summary(o);
	oracle_free(o);
	if (!kernel) {
		t_done();
		return t_skip(why);
	}
	return t_done();
}

int oracle_main_engines(void (*each)(struct oracle *o, bool kernel))
{
	each_two = each;
	return main_engines(call_two, 2);
}

int oracle_main_engines3(void (*each)(struct oracle *o, bool kernel,
				      size_t engine))
{
	return main_engines(each, 3);
}
