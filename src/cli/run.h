/* SPDX-License-Identifier: MIT */
/* `headroom run`: the topology built from a config, its trace and summary. */
#ifndef HR_CLI_RUN_H
#define HR_CLI_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/config.h"

struct hr_datapath;
struct hr_dev;
struct hr_object;
struct hr_prog;
struct hr_map;

struct run_topo {
	struct hr_config *cfg;
	struct hr_datapath *dp;
	struct hr_object *obj[HR_CFG_MAX]; /* by cfg->progs index */
	struct hr_prog *prog[HR_CFG_MAX];
	struct hr_dev *dev[HR_CFG_MAX]; /* by cfg->devs index */
	struct hr_map *cpumaps[8];
	int ncpumaps;
};

/* Builds everything @t->cfg describes; 0, or the exit code after one
 * line naming the config place at fault. */
int run_build(struct run_topo *t);
void run_teardown(struct run_topo *t);

/* The closing account of every packet, text or one JSON line; whether
 * the books balance. */
bool run_summary(struct run_topo *t, FILE *f, bool json, double seconds);

struct run_trace_opts {
	bool json;
	const char *filter; /* "dev=NAME,queue=N,skip=N,every=N" */
	const char *meta_type; /* "struct NAME" (BTF of the XDP program) */
};

/* Starts tracing the first @n packets; 0 or the exit code after a
 * message. */
int run_trace_start(struct run_topo *t, unsigned long long n,
		    const struct run_trace_opts *o);
void run_trace_stop(void);

#endif /* HR_CLI_RUN_H */
