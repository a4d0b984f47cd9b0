// SPDX-License-Identifier: MIT
/*
 * bench/maps: map lookups and updates a second, per map type, with one
 * worker and with two, under headroom (hr_prog_test_run in repeat mode)
 * and under the kernel (BPF_PROG_TEST_RUN in repeat mode) in the same run,
 * on the same objects: progs/maps/bmap_lookup.bpf.c and progs/maps/bmap_update.bpf.c
 * do BMAP_OPS (64) operations a run on keys that are all present.
 *
 * Each worker is a thread pinned to its own CPU (0, 1), running the
 * program REPEAT times in one test run with its CPU index as headroom's
 * worker (per-CPU values) and as the kernel's CPU (the pin); the workers
 * start together. A worker's rate is 64 operations over the mean time of
 * a run: the kernel's reported duration (its bpf_test_timer, which
 * leaves out the time the loop was rescheduled away), and for headroom
 * the worker thread's CPU time over the test run divided by REPEAT (which
 * leaves out preemption the same way; other work shares these CPUs). A
 * figure is the sum over the workers, the median of RUNS measurements.
 * Not the wall time, because the kernel's BPF_PROG_TEST_RUN of XDP with
 * repeat > 1 swaps the XDP dispatcher before and after the loop, a fixed
 * ~16 ms here that would swamp the loop. REPEAT is calibrated so that one test run lasts about MS ms (so
 * that two workers' loops overlap), unless --repeat fixes it.
 *
 * usage: bench/maps [--engine interp|jit] [--ms N] [--repeat N]
 *                   [--runs N] [--json]
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include <headroom/map.h>
#include <headroom/object.h>
#include <headroom/test_run.h>

#include "../tests/lib/harness.h"
#include "bench.h"

/* As in progs/bmap_*.bpf.c. */
#define BMAP_OPS 64
#define BMAP_KEYS 1024
#define MAX_RUNS 31
#define MAX_WORKERS 2

static const char *const map_types[] = {
	"array", "percpu_array", "hash", "percpu_hash", "lru_hash", "lpm_trie",
};
#define NTYPES (sizeof(map_types) / sizeof(map_types[0]))
static const char *const ops[] = { "lookup", "update" };
#define NOPS 2

struct row {
	const char *type, *op;
	unsigned int workers;
	double hr, k; /* Mops/s, 0 when not measured */
	double hr_min, hr_max, k_min, k_max; /* over the runs */
	char note[96];
};

static unsigned int repeat, runs = 5, target_ms = 100;
static enum hr_engine engine = HR_ENGINE_JIT;
static uint8_t packet[64];
static int ncpus_k;

/* CPU time of the calling thread, which excludes the time other tasks
 * preempt it, as the kernel's bpf_test_timer excludes it from duration. */
static double thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), dbl_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Ethernet, IPv4 10.0.0.1 -> 10.0.0.2, UDP; byte 33 seeds the keys. */
static void build_packet(void)
{
	static const uint8_t hdr[34] = {
		2,    0,    0,	  0, 0, 2,  2,	0, 0,	 0, 0,	1,
		0x08, 0x00, 0x45, 0, 0, 50, 0,	0, 0x40, 0, 64, 17,
		0,    0,    10,	  0, 0, 1,  10, 0, 0,	 2,
	};

	memset(packet, 0, sizeof(packet));
	memcpy(packet, hdr, sizeof(hdr));
}

static const char *progs_dir(void)
{
	return t_progs_dir();
}

static void pin(unsigned int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void lpm_key(uint8_t *k, uint32_t key, uint32_t plen)
{
	memcpy(k, &plen, 4);
	k[4] = 10;
	k[5] = (uint8_t)(key >> 8);
	k[6] = (uint8_t)key;
	k[7] = 0;
}

/*
 * Fills map @name with every key of the key space (and 10.0.0.0/8 for the
 * trie) through @update, a headroom or kernel update; 0 or the first error.
 */
typedef int (*update_fn)(void *m, const void *key, const void *val);

static int fill(const char *type, void *m, update_fn update, unsigned int ncpu)
{
	uint64_t val[MAX_WORKERS * 64];
	uint8_t key[8];
	uint32_t i, c;
	int err;

	for (i = 0; i < BMAP_KEYS; i++) {
		for (c = 0; c < ncpu && c < MAX_WORKERS * 64; c++)
			val[c] = i + 1;
		if (!strcmp(type, "lpm_trie"))
			lpm_key(key, i, 24);
		else
			memcpy(key, &i, 4);
		err = update(m, key, val);
		if (err)
			return err;
	}
	if (!strcmp(type, "lpm_trie")) {
		lpm_key(key, 0, 8);
		return update(m, key, val);
	}
	return 0;
}

static int hr_update(void *m, const void *key, const void *val)
{
	return hr_map_update_elem(m, key, val, 0);
}

static int k_update(void *m, const void *key, const void *val)
{
	return bpf_map_update_elem((int)(long)m, key, val, 0) ? -errno : 0;
}

/* Runs @fn on @workers threads pinned to CPUs 0 .. workers - 1 from one
 * start; returns the wall ns, or a negative errno a worker reported. */
struct worker {
	pthread_barrier_t *bar;
	unsigned int cpu;
	void *prog; /* struct hr_prog *, or the kernel fd */
	int err;
	uint32_t rep, retval;
	double ns; /* a run */
	char note[96];
};

static void *hr_worker(void *arg)
{
	struct worker *w = arg;
	uint8_t out[sizeof(packet) + 256];
	double t0;
	struct hr_test_run_opts o = {
		.sz = sizeof(o),
		.data_in = packet,
		.data_size_in = sizeof(packet),
		.data_out = out,
		.data_size_out = sizeof(out),
		.repeat = w->rep,
		.engine = engine,
		.cpu = w->cpu,
	};

	pin(w->cpu);
	pthread_barrier_wait(w->bar);
	t0 = thread_ns();
	w->err = hr_prog_test_run(w->prog, &o);
	w->ns = (thread_ns() - t0) / w->rep;
	w->retval = o.retval;
	if (!w->err && o.abort)
		snprintf(w->note, sizeof(w->note), "abort: %s",
			 hr_abort_str(o.abort));
	return NULL;
}

static void *k_worker(void *arg)
{
	struct worker *w = arg;
	uint8_t out[sizeof(packet) + 256];
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = packet,
		    .data_size_in = sizeof(packet), .data_out = out,
		    .data_size_out = sizeof(out), .repeat = w->rep);

	pin(w->cpu);
	pthread_barrier_wait(w->bar);
	w->err = bpf_prog_test_run_opts((int)(long)w->prog, &o) ? -errno : 0;
	w->retval = o.retval;
	w->ns = o.duration;
	return NULL;
}

/*
 * Mops/s, the median of @nruns runs of @rep, or 0 with @note set;
 * the slowest and the fastest run in *@lo and *@hi when given.
 */
static double measure(void *(*fn)(void *), void *prog, unsigned int workers,
		      uint32_t rep, unsigned int nruns, char *note,
		      size_t notesz, double *lo, double *hi)
{
	double v[MAX_RUNS], med;
	unsigned int r, i;

	for (r = 0; r < nruns; r++) {
		struct worker w[MAX_WORKERS];
		pthread_t t[MAX_WORKERS];
		pthread_barrier_t bar;

		pthread_barrier_init(&bar, NULL, workers + 1);
		for (i = 0; i < workers; i++) {
			memset(&w[i], 0, sizeof(w[i]));
			w[i].bar = &bar;
			w[i].cpu = i;
			w[i].prog = prog;
			w[i].rep = rep;
			pthread_create(&t[i], NULL, fn, &w[i]);
		}
		pthread_barrier_wait(&bar);
		for (i = 0; i < workers; i++)
			pthread_join(t[i], NULL);
		pthread_barrier_destroy(&bar);
		v[r] = 0;
		for (i = 0; i < workers; i++) {
			if (w[i].err || w[i].note[0]) {
				snprintf(note, notesz, "test run: %s",
					 w[i].note[0] ? w[i].note :
							strerror(-w[i].err));
				return 0;
			}
			if (w[i].retval != XDP_DROP) {
				snprintf(note, notesz,
					 "retval %u: an operation failed",
					 w[i].retval);
				return 0;
			}
			v[r] += BMAP_OPS * 1e3 / (w[i].ns > 0 ? w[i].ns : 1);
		}
	}
	med = median(v, nruns); /* sorts @v */
	if (lo)
		*lo = v[0];
	if (hi)
		*hi = v[nruns - 1];
	return med;
}

/* REPEAT for one test run of about target_ms on one worker. */
static uint32_t calibrate(void *(*fn)(void *), void *prog)
{
	char note[96];
	double mops, rep;

	if (repeat)
		return repeat;
	mops = measure(fn, prog, 1, 2000, 1, note, sizeof(note), NULL, NULL);
	if (mops <= 0)
		return 2000;
	rep = target_ms * 1e3 * mops / BMAP_OPS;
	return rep < 100 ? 100 : rep > 1e8 ? 100000000 : (uint32_t)rep;
}

/* Appends "@who: @msg" to the row's note. */
static void add_note(struct row *r, const char *who, const char *msg)
{
	size_t len = strlen(r->note);

	if (!msg[0])
		return;
	snprintf(r->note + len, sizeof(r->note) - len, "%s%s: %s",
		 len ? "; " : "", who, msg);
}

static void hr_side(struct row *rows, const char *op)
{
	struct hr_object_open_opts oo = { .sz = sizeof(oo),
					  .ncpus = MAX_WORKERS };
	char path[4200], err[256] = "", name[64];
	struct hr_object *obj;
	unsigned int t, w;
	int ret;

	oo.errbuf = err;
	oo.errbuf_sz = sizeof(err);
	snprintf(path, sizeof(path), "%s/bmap_%s.o", progs_dir(), op);
	ret = hr_object_open(path, &oo, &obj);
	for (t = 0; t < NTYPES; t++) {
		struct row *r = &rows[t * MAX_WORKERS];
		struct hr_map *m;
		struct hr_prog *p;
		uint32_t rep;

		if (ret) {
			add_note(r, "headroom open", err);
			continue;
		}
		snprintf(name, sizeof(name), "m_%s", map_types[t]);
		m = hr_object_find_map(obj, name);
		snprintf(name, sizeof(name), "%s_%s", op, map_types[t]);
		p = hr_object_find_prog(obj, name);
		if (!m || !p || fill(map_types[t], m, hr_update, MAX_WORKERS)) {
			add_note(r, "headroom",
				 m ? p ? "fill failed" : "no program" :
				     "no map");
			continue;
		}
		rep = calibrate(hr_worker, p);
		for (w = 0; w < MAX_WORKERS; w++) {
			char note[96] = "";

			r[w].hr = measure(hr_worker, p, w + 1, rep, runs, note,
					  sizeof(note), &r[w].hr_min,
					  &r[w].hr_max);
			add_note(&r[w], "headroom", note);
		}
	}
	if (!ret)
		hr_object_close(obj);
}

static void k_side(struct row *rows, const char *op)
{
	char path[4200], name[64];
	struct bpf_object *obj;
	unsigned int t, w;
	int ret;

	snprintf(path, sizeof(path), "%s/bmap_%s.o", progs_dir(), op);
	obj = bpf_object__open_file(path, NULL);
	ret = libbpf_get_error(obj);
	if (!ret)
		ret = bpf_object__load(obj);
	for (t = 0; t < NTYPES; t++) {
		struct row *r = &rows[t * MAX_WORKERS];
		struct bpf_program *p;
		struct bpf_map *m;
		uint32_t rep;
		void *fd;

		if (ret) {
			add_note(r, "kernel load", strerror(-ret));
			continue;
		}
		snprintf(name, sizeof(name), "m_%s", map_types[t]);
		m = bpf_object__find_map_by_name(obj, name);
		snprintf(name, sizeof(name), "%s_%s", op, map_types[t]);
		p = bpf_object__find_program_by_name(obj, name);
		if (!m || !p ||
		    fill(map_types[t], (void *)(long)bpf_map__fd(m), k_update,
			 ncpus_k)) {
			add_note(r, "kernel",
				 m ? p ? "fill failed" : "no program" :
				     "no map");
			continue;
		}
		fd = (void *)(long)bpf_program__fd(p);
		rep = calibrate(k_worker, fd);
		for (w = 0; w < MAX_WORKERS; w++) {
			char note[96] = "";

			r[w].k = measure(k_worker, fd, w + 1, rep, runs, note,
					 sizeof(note), &r[w].k_min,
					 &r[w].k_max);
			add_note(&r[w], "kernel", note);
		}
	}
	if (!ret)
		bpf_object__close(obj);
}

static void loadavg(char *buf, size_t sz)
{
	FILE *f = fopen("/proc/loadavg", "r");

	buf[0] = 0;
	if (f) {
		if (!fgets(buf, (int)sz, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
}

static void print(const struct row *rows, unsigned int n, bool json,
		  const char *load0, const char *load1)
{
	unsigned int i;

	if (json) {
		for (i = 0; i < n; i++)
			printf("{\"map\":\"%s\",\"op\":\"%s\",\"workers\":%u,"
			       "\"headroom_mops\":%.3f,\"kernel_mops\":%.3f,"
			       "\"headroom_min\":%.3f,\"headroom_max\":%.3f,"
			       "\"kernel_min\":%.3f,\"kernel_max\":%.3f,"
			       "\"ratio\":%.3f,\"engine\":\"%s\","
			       "\"runs\":%u,\"note\":\"%s\"}\n",
			       rows[i].type, rows[i].op, rows[i].workers,
			       rows[i].hr, rows[i].k, rows[i].hr_min,
			       rows[i].hr_max, rows[i].k_min, rows[i].k_max,
			       rows[i].k ? rows[i].hr / rows[i].k : 0.0,
			       engine == HR_ENGINE_INTERP ? "interp" : "jit",
			       runs, rows[i].note);
		return;
	}
	printf("%u operations a run, median of %u test runs of ~%u ms "
	       "each, engine %s; Mops/s\n",
	       BMAP_OPS, runs, repeat ? 0 : target_ms,
	       engine == HR_ENGINE_INTERP ? "interp" : "jit");
	printf("load average before: %s\nload average after:  %s\n", load0,
	       load1);
	printf("%-13s %-7s %7s %14s %12s %7s\n", "map", "op", "workers",
	       "headroom Mops", "kernel Mops", "ratio");
	for (i = 0; i < n; i++)
		printf("%-13s %-7s %7u %14.2f %12.2f %7.2f%s%s\n", rows[i].type,
		       rows[i].op, rows[i].workers, rows[i].hr, rows[i].k,
		       rows[i].k ? rows[i].hr / rows[i].k : 0.0,
		       rows[i].note[0] ? "  " : "", rows[i].note);
}

int main(int argc, char **argv)
{
	struct row rows[NOPS * NTYPES * MAX_WORKERS];
	char why[256], load0[128], load1[128];
	unsigned int o, t, w, n = 0;
	bool json = false, kernel;
	int i;
	bench_begin();

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--engine") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "interp")) {
				engine = HR_ENGINE_INTERP;
			} else if (!strcmp(argv[i], "jit")) {
				engine = HR_ENGINE_JIT;
			} else {
				fprintf(stderr, "unknown engine %s\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			repeat = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--ms") && i + 1 < argc) {
			target_ms = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			runs = strtoul(argv[++i], NULL, 0);
		} else {
			fprintf(stderr,
				"usage: %s [--engine interp|jit] [--ms N] "
				"[--repeat N] [--runs N] [--json]\n",
				argv[0]);
			return 2;
		}
	}
	if (!target_ms)
		target_ms = 1;
	if (runs < 1 || runs > MAX_RUNS)
		runs = runs < 1 ? 1 : MAX_RUNS;
	build_packet();
	libbpf_set_print(NULL);
	loadavg(load0, sizeof(load0));
	for (o = 0; o < NOPS; o++)
		for (t = 0; t < NTYPES; t++)
			for (w = 0; w < MAX_WORKERS; w++, n++) {
				memset(&rows[n], 0, sizeof(rows[n]));
				rows[n].type = map_types[t];
				rows[n].op = ops[o];
				rows[n].workers = w + 1;
			}
	kernel = t_have_kernel(why, sizeof(why));
	ncpus_k = libbpf_num_possible_cpus();
	if (ncpus_k > MAX_WORKERS * 64)
		kernel = false;
	if (sysconf(_SC_NPROCESSORS_ONLN) < MAX_WORKERS && !json)
		printf("fewer than %d CPUs online: two workers share one\n",
		       MAX_WORKERS);
	for (o = 0; o < NOPS; o++) {
		hr_side(&rows[o * NTYPES * MAX_WORKERS], ops[o]);
		if (kernel)
			k_side(&rows[o * NTYPES * MAX_WORKERS], ops[o]);
	}
	loadavg(load1, sizeof(load1));
	if (!kernel && !json)
		printf("kernel figures skipped: %s\n", why);
	print(rows, n, json, load0, load1);
	return 0;
}
