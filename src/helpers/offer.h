/* SPDX-License-Identifier: MIT */
/*
 * What Linux 6.18 offers XDP and tc programs, helper by helper and kfunc
 * by kfunc, and for each one headroom does not implement, why: the gap
 * between the two, as `headroom feature` and docs/helpers.md show it.
 */
#ifndef HR_HELPERS_OFFER_H
#define HR_HELPERS_OFFER_H

#include <stddef.h>

/* The program types a row is offered to (cpumap and devmap programs are
 * XDP programs: xdp_func_proto serves every expected attach type). */
#define HR_OFFER_XDP 1u
#define HR_OFFER_TC 2u

struct hr_offer {
	const char *name; /* kfuncs; helpers are named by hr_helper_name */
	int id; /* helper ID (enum bpf_func_id); 0 for kfuncs */
	unsigned int types; /* the HR_OFFER_* the kernel offers it to */
	/* Why headroom refuses it, said to the user at load; NULL where
	 * headroom implements it for every type of .types. */
	const char *why;
};

extern const struct hr_offer hr_helper_offer[];
extern const size_t hr_helper_offer_cnt;
extern const struct hr_offer hr_kfunc_offer[];
extern const size_t hr_kfunc_offer_cnt;

/* The HR_OFFER_* bit of a kernel program type (HR_KPROG_*), 0 for one
 * the table does not cover. */
unsigned int hr_offer_type(int kernel_type);
/* The row of helper @id or kfunc @name, NULL when the kernel offers it
 * to none of the types. */
const struct hr_offer *hr_offer_helper(int id);
const struct hr_offer *hr_offer_kfunc(const char *name);
/* Why headroom refuses the row: its reason, or "not implemented". */
const char *hr_offer_why(const struct hr_offer *o);
/* Why a program of @kernel_type may not call helper @id (kfunc @name)
 * in headroom: the table's reason, or the kernel's own refusal when the
 * kernel does not offer it to that type either. */
const char *hr_offer_helper_why(int kernel_type, int id);
const char *hr_offer_kfunc_why(int kernel_type, const char *name);

#endif /* HR_HELPERS_OFFER_H */
