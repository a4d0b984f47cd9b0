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

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_TEST_RUN_H */
