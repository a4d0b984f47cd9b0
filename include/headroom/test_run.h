/* SPDX-License-Identifier: MIT */
/*
 * Test runs: one program over one packet, with the semantics of the
 * kernel's BPF_PROG_TEST_RUN for the same program type.
 */
#ifndef HEADROOM_TEST_RUN_H
#define HEADROOM_TEST_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "headroom/opts.h"
#include "headroom/tunnel.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hr_prog;

enum hr_engine {
	HR_ENGINE_DEFAULT = 0,
	HR_ENGINE_INTERP = 1,
	HR_ENGINE_JIT = 2,
	/* The JIT with every access its proofs leave unchecked checked anyway;
	 * a check that fails there is a bug report (HR_ABORT_JIT_CHECK). */
	HR_ENGINE_JIT_CHECKED = 3,
};

/* An aborted memory access, as hr_prog_test_run reports it. */
struct hr_test_access {
	int kind; /* enum hr_access_kind */
	uint32_t size; /* bytes */
	uint64_t addr;
	/* The region the access was checked against: the one that
	 * holds it, else the nearest (within a page). */
	int region; /* enum hr_access_region */
	/* HR_ACCESS_MAP_VALUE, HR_ACCESS_GLOBAL: the map's name
	 * (".bss" ... for global data); HR_ACCESS_CTX: the context
	 * struct's ("xdp_md", "__sk_buff"). Valid while the
	 * program is loaded. */
	const char *name;
	/* A helper's access to memory it was passed: its name
	 * ("bpf_xdp_load_bytes"; NULL for a kfunc). */
	const char *helper;
	/* addr relative to the region's start, and the region's
	 * bounds [lo, hi) in the same terms: packet and metadata
	 * from data and data_meta (0, length), the context and a map
	 * value from their start, the stack from the frame pointer
	 * r10 of the aborting frame (-512, 512 * its callers). */
	int64_t offset;
	int64_t lo;
	int64_t hi;
};

struct hr_test_run_opts {
	size_t sz;
	/* As BPF_PROG_TEST_RUN: for XDP the first ctx_in->data bytes of
	 * data_in are the metadata, and data_out starts at data_meta. */
	const void *data_in;
	uint32_t data_size_in;
	void *data_out;
	uint32_t data_size_out; /* in: capacity; out: full length */
	const void *ctx_in; /* struct xdp_md or struct __sk_buff */
	uint32_t ctx_size_in;
	void *ctx_out;
	uint32_t ctx_size_out;
	uint32_t retval; /* out */
	uint32_t repeat; /* runs on the same buffer, as the kernel */
	uint32_t duration; /* out: mean ns a run */
	enum hr_engine engine;
	unsigned int cpu; /* worker index for per-CPU maps */
	/* Out: why the last run aborted (enum hr_abort, 0 if it did not),
	 * at which instruction. */
	int abort;
	uint32_t abort_pc;
	/* XDP: the RX hints the metadata kfuncs (bpf_xdp_metadata_rx_*)
	 * answer from, as a device would give them; NULL: the program runs
	 * bound to a device without hints (-EOPNOTSUPP). The kernel cannot
	 * test-run device-bound programs at all: here headroom is the
	 * device. */
	const struct hr_test_hints *hints;
	/* Out: with a memory-access abort, the access that failed (kind
	 * HR_ACCESS_NONE for any other abort, or no abort). */
	struct hr_test_access access;
	/* tc: the tunnel metadata the packet arrived with, as a collect_md
	 * tunnel device gives it (tx false; its ->sz set); NULL: none, as
	 * the kernel's test run skb has none. -EINVAL for XDP, for a bad
	 * family, flag or label. */
	const struct hr_tunnel_md *tunnel_in;
	/* tc, out (NULL: not wanted): the metadata the skb carries after
	 * the last run, the caller's ->sz bytes of it: the input's, or what
	 * bpf_skb_set_tunnel_key/opt set (tx true); family 0: none. */
	struct hr_tunnel_md *tunnel_out;
};

/* What an aborted access did (struct hr_test_access.kind). */
enum hr_access_kind {
	HR_ACCESS_NONE = 0,
	HR_ACCESS_LOAD = 1,
	HR_ACCESS_STORE = 2,
	HR_ACCESS_ATOMIC = 3,
	HR_ACCESS_HELPER_READ = 4, /* a helper reading memory it was given */
	HR_ACCESS_HELPER_WRITE = 5,
};

/* Where it was (struct hr_test_access.region). */
enum hr_access_region {
	HR_ACCESS_UNKNOWN = 0, /* no region within a page of it */
	HR_ACCESS_NULL = 1, /* in the first page: a NULL pointer + offset */
	HR_ACCESS_PACKET = 2, /* data .. data_end */
	HR_ACCESS_META = 3, /* data_meta .. data */
	HR_ACCESS_STACK = 4,
	HR_ACCESS_CTX = 5, /* struct xdp_md, struct __sk_buff */
	HR_ACCESS_MAP_VALUE = 6,
	HR_ACCESS_GLOBAL = 7, /* .bss, .data, .rodata */
};

/* What a hint kfunc answers: -EOPNOTSUPP for a hint not in @supported
 * (the driver lacks that kfunc), -ENODATA for one not in @present, else
 * 0 and the values. */
#define HR_TEST_HINT_TIMESTAMP (1u << 0)
#define HR_TEST_HINT_HASH (1u << 1)
#define HR_TEST_HINT_VLAN (1u << 2)

struct hr_test_hints {
	uint64_t timestamp;
	uint32_t hash;
	uint32_t rss_type; /* enum xdp_rss_hash_type */
	uint16_t vlan_proto; /* network byte order, as the kfunc gives it */
	uint16_t vlan_tci;
	uint8_t present; /* HR_TEST_HINT_* */
	uint8_t supported; /* HR_TEST_HINT_* */
};

/* 0 or -errno with the kernel's error codes for the same input. */
int hr_prog_test_run(struct hr_prog *prog, struct hr_test_run_opts *opts);

/* Printable abort reason ("out-of-bounds load" ...). */
const char *hr_abort_str(int reason);

/* "load", "store", "atomic", "helper read", "helper write"; "none". */
const char *hr_access_kind_str(int kind);
/* "packet", "metadata", "stack", "context", "map value", "global data",
 * "NULL", "unknown". */
const char *hr_access_region_str(int region);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_TEST_RUN_H */
