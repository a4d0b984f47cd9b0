/* SPDX-License-Identifier: MIT */
/*
 * Programs made from instruction arrays for the engine tests: an
 * instruction, a program of a given type finalized as the loader would,
 * and one XDP run of it on a 64-byte packet.
 */
#ifndef HR_TESTS_INSN_PROGS_H
#define HR_TESTS_INSN_PROGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "progs/prog.h"
#include <headroom/test_run.h>

struct hr_insn t_insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off,
		      int32_t imm);

/* A program "regress" of @type over @insns in @obj, finalized; NULL with
 * *@ret and @err set when finalize refuses it. */
struct hr_prog *t_insn_prog(const struct hr_prog_type *type,
			    struct hr_object *obj, bool frags,
			    const struct hr_insn *insns, uint32_t cnt,
			    char *err, size_t errsz, int *ret);

/* One XDP run of @prog under @eng on a 64-byte packet: r0, or -1 after
 * an abort. */
long long t_insn_xdp_run(struct hr_prog *prog, enum hr_engine eng);

/* The same, also giving the abort reason (0: none) and its pc. */
long long t_insn_xdp_run_why(struct hr_prog *prog, enum hr_engine eng, int *why,
			     uint32_t *pc);

/* The same on the 64 bytes of @pkt (NULL: zeros), written back after. */
long long t_xdp_run_pkt(struct hr_prog *prog, enum hr_engine eng,
			uint8_t pkt[64], int *why, uint32_t *pc);

#endif /* HR_TESTS_INSN_PROGS_H */
