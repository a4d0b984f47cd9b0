/* SPDX-License-Identifier: MIT */
/*
 * headroom bench: the pieces of the command shared by its files, the
 * options (bench_args.c), the topology of each mode (bench_setup.c) and
 * the counters read from it (bench_counters.c). cmd_bench.c runs it.
 */
#ifndef HR_CLI_BENCH_H
#define HR_CLI_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <headroom/headroom.h>
#include <headroom/datapath.h>
#include <headroom/devices.h>

#define BENCH_MAX_CPUS 16
/* bench_rxhash.bpf.c's entries: 512 types, then "no hash". */
#define BENCH_RXHASH_TYPES 513

enum bench_mode {
	BM_DROP,
	BM_PASS,
	BM_TX,
	BM_REDIRECT,
	BM_REDIRECT_CPU,
	BM_REDIRECT_MAP,
	BM_RXHASH,
	BM_META,
};

struct bench_opts {
	enum bench_mode mode;
	const char *prog; /* --prog OBJ[:PROG] */
	const char *egress; /* --egress-prog OBJ[:PROG] */
	const char *pcap;
	uint32_t loops;
	uint32_t flows;
	uint32_t size;
	uint64_t count;
	uint64_t rate;
	double duration; /* seconds; 0: until SIGINT */
	double interval;
	enum hr_engine engine;
	unsigned int workers;
	int cpus[BENCH_MAX_CPUS];
	unsigned int ncpus;
	int rps[BENCH_MAX_CPUS]; /* --rps: the workers RPS steers to */
	unsigned int nrps;
	bool by_hash;
	bool remote_pass;
	bool load_egress;
	bool notouch;
	bool touch;
	bool json;
	bool stats;
	unsigned long long trace; /* --trace N: packets followed */
	const char *trace_filter; /* --trace-filter */
	bool ipv6;
	int proto;
};

struct bench {
	struct bench_opts o;
	struct hr_datapath *dp;
	struct hr_dev *in; /* generator or pcap */
	struct hr_dev *sink;
	struct hr_dev *va, *vb; /* redirect, redirect-map: in -> va => vb */
	struct hr_object *rx_obj, *peer_obj, *tc_obj, *egress_obj;
	struct hr_prog *rx_prog;
	struct hr_map *cpumap, *devmap;
	/* Counting maps of the built-in programs (NULL with --prog). */
	struct hr_map *rxhash_types, *remote_seen, *tc_seen, *egress_seen;
};

/* One reading of every counter the modes report. */
struct bench_snap {
	double t;
	struct hr_dev_counters in, vb;
	struct hr_veth_stats va_tx;
	uint64_t enq, enq_drops, enq_bulks;
	uint64_t kt_processed, kt_drops, kt_pass, kt_drop, kt_redirect;
	uint64_t kt_sched;
	uint64_t rps_enq, rps_drops, rps_proc; /* the backlogs, summed */
	uint64_t remote_seen, tc_seen, tc_meta, egress_seen;
	uint64_t types[BENCH_RXHASH_TYPES];
};

/* Parses argv into @o; 0, or HR_EXIT_USAGE after a one-line message
 * (or -1 after --help was printed). */
int bench_parse_args(int argc, char **argv, struct bench_opts *o);
const char *bench_mode_name(enum bench_mode m);

/* Builds the mode's topology with the programs in @dir; 0, or an exit
 * code after a message. */
int bench_build(struct bench *b, const char *dir);
void bench_destroy(struct bench *b);

void bench_read(struct bench *b, struct bench_snap *s);
/* "IPv4-UDP", "IPv6", "L2", "no-hash" ... for entry @i of rxhash_types;
 * written into @buf. */
const char *bench_rxhash_name(unsigned int i, char *buf, size_t sz);
/* Sum of the per-CPU values of entry @key of @map (0 without the map). */
uint64_t bench_percpu_sum(struct hr_map *map, uint32_t key);

#endif /* HR_CLI_BENCH_H */
