/* SPDX-License-Identifier: MIT */
/*
 * Generated XDP programs of the shapes that cost load-time analyses the
 * most (straight lines, control flow visiting blocks in reverse address
 * order, joins, nesting, back-edges, calls), built as instruction arrays,
 * each with the r0 it returns on ls_packet(): for tests/vm/test_load_limits.c
 * and bench/load.c.
 */
#ifndef HR_TESTS_LOAD_SHAPES_H
#define HR_TESTS_LOAD_SHAPES_H

#include <stddef.h>
#include <stdint.h>

#include "vm/isa.h"

enum ls_shape {
	LS_STRAIGHT, /* one block: packet loads and adds */
	LS_REVERSE, /* blocks that jump to the one before them */
	LS_JOINS, /* a diamond every three instructions */
	LS_FANIN, /* one join with a predecessor every two instructions */
	LS_NESTED, /* forward jumps nested as deep as the program */
	LS_LOOPNEST, /* loops nested as deep as the program */
	LS_LOOPS, /* a loop of three iterations every five instructions */
	LS_CALLS, /* a bpf-to-bpf call every two instructions */
	LS_STACK, /* stack spills and fills between joins */
	LS__MAX,
};

#define LS_PKT_LEN 64

const char *ls_name(enum ls_shape shape);

/* The packet every shape runs on: byte i is i. */
void ls_packet(uint8_t pkt[LS_PKT_LEN]);

/*
 * A program of @shape of at most @n instructions (and about that many):
 * malloc()ed into *@insns, its length in *@cnt, the r0 a run on
 * ls_packet() returns in *@expect. 0 or -ENOMEM.
 */
int ls_build(enum ls_shape shape, uint32_t n, struct hr_insn **insns,
	     uint32_t *cnt, uint32_t *expect);

/*
 * An XDP program of @cnt instructions (taking @insns, freed with it) made
 * runnable as the loader makes one (hr_prog_finalize): the program, or
 * NULL with *@ret the error and @err its message.
 */
struct hr_prog *ls_prog(struct hr_insn *insns, uint32_t cnt, int *ret,
			char *err, size_t errsz);

#endif /* HR_TESTS_LOAD_SHAPES_H */
