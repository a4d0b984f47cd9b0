// SPDX-License-Identifier: MIT
/*
 * Lookups in the table of what the kernel offers (offer_helpers.c,
 * offer_kfuncs.c), for the loader's refusals and `headroom feature`.
 */
#include <string.h>

#include "helpers/offer.h"
#include "progs/prog.h"

unsigned int hr_offer_type(int kernel_type)
{
	switch (kernel_type) {
	case HR_KPROG_XDP:
		return HR_OFFER_XDP;
	case HR_KPROG_SCHED_CLS:
		return HR_OFFER_TC;
	default:
		return 0;
	}
}

const struct hr_offer *hr_offer_helper(int id)
{
	size_t i;

	for (i = 0; i < hr_helper_offer_cnt; i++)
		if (hr_helper_offer[i].id == id)
			return &hr_helper_offer[i];
	return NULL;
}

const struct hr_offer *hr_offer_kfunc(const char *name)
{
	size_t i;

	for (i = 0; i < hr_kfunc_offer_cnt; i++)
		if (!strcmp(hr_kfunc_offer[i].name, name))
			return &hr_kfunc_offer[i];
	return NULL;
}

const char *hr_offer_why(const struct hr_offer *o)
{
	return o->why ? o->why : "not implemented";
}

static const char *why(const struct hr_offer *o, int kernel_type,
		       const char *kernel_refusal)
{
	if (!o || !(o->types & hr_offer_type(kernel_type)))
		return kernel_refusal;
	return hr_offer_why(o);
}

const char *hr_offer_helper_why(int kernel_type, int id)
{
	/* The verifier's own words (check_helper_call). */
	return why(hr_offer_helper(id), kernel_type,
		   "the kernel does not offer it to this program type either "
		   "(\"program of this type cannot use helper\")");
}

const char *hr_offer_kfunc_why(int kernel_type, const char *name)
{
	/* The verifier's own words (check_kfunc_call). */
	return why(hr_offer_kfunc(name), kernel_type,
		   "the kernel does not offer it to this program type either "
		   "(\"calling kernel function is not allowed\")");
}
