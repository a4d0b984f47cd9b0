/* SPDX-License-Identifier: MIT */
/*
 * The topology `headroom run` builds: read from a YAML (or JSON) file
 * with libyaml's document API (config_load.c), or made from command-line
 * flags (cmd_run.c). Every item keeps the line and column it came from,
 * so that errors found while building it still name their place.
 */
#ifndef HR_CLI_CONFIG_H
#define HR_CLI_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include <headroom/headroom.h>

#define HR_CFG_MAX 32 /* devices, programs, entries ... of each kind */

struct hr_cfg_pos {
	int line, col; /* 1-based; 0: from the command line */
};

/* "KEY:VALUE" hex entries preloaded into map @map. */
struct hr_cfg_map_load {
	char *map;
	char *entries[HR_CFG_MAX]; /* "NAME=KEY:VALUE", as --map takes */
	int n;
	struct hr_cfg_pos pos;
};

struct hr_cfg_cpumap_entry {
	uint32_t cpu; /* key: the worker the entry's ring is polled on */
	uint32_t qsize;
	char *prog; /* program name, or NULL */
	struct hr_cfg_pos pos;
};

struct hr_cfg_devmap_entry {
	uint32_t key;
	char *dev; /* target device name, or NULL with ifindex */
	uint32_t ifindex;
	char *egress; /* BPF_XDP_DEVMAP program name, or NULL */
	struct hr_cfg_pos pos;
};

struct hr_cfg_prog {
	char *name;
	char *spec; /* OBJ[:PROG] */
	char *sets[HR_CFG_MAX]; /* "NAME=VALUE" */
	int nsets;
	char *sizes[HR_CFG_MAX]; /* "NAME=N" */
	int nsizes;
	struct hr_cfg_map_load maps[HR_CFG_MAX];
	int nmaps;
	/* One cpumap and one devmap filled per program at most. */
	char *cpumap;
	struct hr_cfg_cpumap_entry cpu[HR_CFG_MAX];
	int ncpu;
	char *devmap;
	struct hr_cfg_devmap_entry dm[HR_CFG_MAX];
	int ndm;
	struct hr_cfg_pos pos;
};

enum hr_cfg_kind {
	HR_CFG_GEN,
	HR_CFG_PCAP,
	HR_CFG_VETH,
	HR_CFG_SINK,
	HR_CFG_AFXDP, /* the real interfaces: ifname */
	HR_CFG_AFPACKET,
	HR_CFG_TAP,
};

struct hr_cfg_queue {
	uint32_t queue, worker;
};

struct hr_cfg_dev {
	char *name;
	enum hr_cfg_kind kind;
	/* generator */
	uint32_t flows, size, nrxq;
	uint64_t rate, count;
	double duration;
	int l4_proto, ip_version;
	bool no_hints, vlan;
	uint16_t vlan_id;
	uint16_t sport_min, sport_max, dport_min, dport_max;
	/* pcap (in), sink (out) */
	char *path;
	char *hints;
	char *out;
	uint32_t loops;
	/* afxdp, afpacket: the interface; tap: the TAP to create */
	char *ifname;
	/* veth */
	char *peer;
	uint32_t mtu;
	/* RX queues and the worker polling each (none: queue 0 on 0) */
	struct hr_cfg_queue queues[HR_CFG_MAX];
	int nqueues;
	/* RPS: the workers (bit i: worker i) every RX queue steers its
	 * skbs to; 0: none */
	uint32_t rps;
	struct hr_cfg_pos rps_pos;
	char *xdp, *tc; /* program names */
	struct hr_cfg_pos xdp_pos, tc_pos;
	char *stack; /* sink the PASSed skbs go to */
	struct hr_cfg_pos stack_pos;
	struct hr_cfg_pos pos;
};

struct hr_config {
	const char *file; /* for messages: "FILE:" or "headroom run" */
	unsigned int workers;
	int cpus[16];
	int ncpus;
	enum hr_engine engine;
	double duration; /* 0: until the devices are done or a signal */
	double interval; /* statistics; 0: none until the summary */
	struct hr_cfg_prog progs[HR_CFG_MAX];
	int nprogs;
	struct hr_cfg_dev devs[HR_CFG_MAX];
	int ndevs;
};

/* Reads @path into @cfg (zeroed first); 0, or -EINVAL after one line on
 * stderr naming FILE:LINE:COL, the key and what was expected. */
int hr_config_load(const char *path, struct hr_config *cfg);
void hr_config_free(struct hr_config *cfg);

/* "FILE:LINE:COL: " for messages about @pos. */
void hr_config_perror(const struct hr_config *cfg, struct hr_cfg_pos pos,
		      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct hr_cfg_prog *hr_config_prog(struct hr_config *cfg, const char *name);
struct hr_cfg_dev *hr_config_dev(struct hr_config *cfg, const char *name);

#endif /* HR_CLI_CONFIG_H */
