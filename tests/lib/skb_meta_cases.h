/* SPDX-License-Identifier: MIT */
/*
 * The cases of progs/helpers/skb_meta_dynptr.bpf.c (one packet and one record
 * each, progs/include/hr_skb_meta.h), what Linux 6.18 gives for each (a
 * model of kernel/bpf/helpers.c and net/core/filter.c), and headroom's
 * runs of them: through the datapath (an XDP program making the metadata,
 * tc ingress reading it) and through tc test runs.
 */
#ifndef HR_TESTS_SKB_META_CASES_H
#define HR_TESTS_SKB_META_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "headroom/test_run.h"
#include "../../progs/include/hr_skb_meta.h"

#define SMD_OBJ "skb_meta_dynptr.o"
/* The same without bpf_dynptr_slice_rdwr (include/hr_rdwr_emul.h), for
 * kernels that refuse it (tests/lib/kernel_side.h): the same records. */
#define SMD_OBJ_NORDWR "skb_meta_dynptr_nordwr.o"
/* Bytes of a case packet with the filler (what a device receives). */
#define SMD_WIRE_LEN (SMD_FILLER + SMD_PKT_LEN)

/* The metadata lengths the cases cover, and how many cases each. */
extern const uint8_t smd_meta_lens[4];

/* Fills @cs (room for SMD_NRECS) with every case; returns how many. */
unsigned int smd_make_cases(struct smd_case *cs);

/* The packet of case @c: with @filler as a device receives it
 * (SMD_WIRE_LEN bytes), else as tc sees it (SMD_PKT_LEN). */
uint32_t smd_packet(const struct smd_case *c, uint8_t *buf, bool filler);

/* The record Linux 6.18 makes for @c when tc sees @meta_len bytes of
 * metadata (the case's own length, or 0 in a tc test run). */
void smd_expect(const struct smd_case *c, uint32_t meta_len,
		struct smd_rec *out);

/* The write pattern smd_pat must hold (SMD_RD_MAX bytes). */
void smd_pattern(uint8_t *pat);

/* Whether @a and @b agree; otherwise the first field that differs, with
 * both values, goes to @why. */
bool smd_same(const struct smd_rec *a, const struct smd_rec *b, char *why,
	      size_t whysz);

/* smd_expect for each of the @n cases into @recs (SMD_NRECS, by case
 * idx): with their own metadata, or none for tc test runs. */
void smd_expect_all(const struct smd_case *cs, unsigned int n, bool test_run,
		    struct smd_rec *recs);

/* One check a case: @got[idx] against @want[idx]; the first differences
 * are printed, named by @who. */
void smd_compare(const char *who, const struct smd_case *cs, unsigned int n,
		 const struct smd_rec *got, const struct smd_rec *want);

/* The object headroom's runs below open: SMD_OBJ unless set. */
extern const char *smd_obj;

/*
 * Headroom's datapath over @n cases under @engine: a pcap device with
 * smd_xdp and smd_tc attached, into a sink. @recs (indexed by case idx,
 * SMD_NRECS) receive smd_recs. 0, or -1 after a failed check.
 */
int smd_run_datapath(enum hr_engine engine, const struct smd_case *cs,
		     unsigned int n, struct smd_rec *recs);

/* Headroom's tc test run (no metadata) of case @c under @engine into
 * @rec; 0 or -1. */
int smd_run_test_run(enum hr_engine engine, const struct smd_case *c,
		     struct smd_rec *rec);

#endif /* HR_TESTS_SKB_META_CASES_H */
