// SPDX-License-Identifier: MIT
/*
 * The table of the kernel's helper and kfunc offer (helpers/offer.h)
 * against what headroom's program types implement: a row without a
 * reason is implemented for every type the kernel offers it to, a row
 * with one is missing from at least one of them, and no program type
 * lets a program call a helper the kernel would refuse it. The
 * table against the live kernel is tests/cli/test_feature_cli.sh's.
 */
#include <string.h>

#include "harness.h"
#include "helpers/helpers.h"
#include "helpers/offer.h"
#include "progs/prog.h"

static const struct hr_prog_type *const types[] = {
	&hr_prog_type_xdp,
	&hr_prog_type_tc,
};

#define NTYPES (sizeof(types) / sizeof(types[0]))

static bool implemented(const struct hr_prog_type *t, const struct hr_offer *o)
{
	return o->name ? t->kfunc(o->name) != NULL : t->helper(o->id) != NULL;
}

static void check_rows(const struct hr_offer *rows, size_t n)
{
	size_t i, t;

	for (i = 0; i < n; i++) {
		const struct hr_offer *o = &rows[i];
		unsigned int offered = 0, impl = 0;

		CHECK(o->types && !(o->types & ~(HR_OFFER_XDP | HR_OFFER_TC)),
		      "row %zu (%s#%d): types 0x%x", i, o->name ? o->name : "",
		      o->id, o->types);
		for (t = 0; t < NTYPES; t++) {
			if (!(o->types & hr_offer_type(types[t]->kernel_type)))
				continue;
			offered++;
			impl += implemented(types[t], o);
		}
		if (o->why)
			CHECK(impl < offered,
			      "%s#%d is implemented everywhere the kernel "
			      "offers it, yet the table refuses it: %s",
			      o->name ? o->name : hr_helper_name(o->id), o->id,
			      o->why);
		else
			CHECK(impl == offered,
			      "%s#%d: implemented for %u of %u types, and the "
			      "table gives no reason",
			      o->name ? o->name : hr_helper_name(o->id), o->id,
			      impl, offered);
	}
}

/* Nothing a program type implements is refused to it by the kernel. */
static void check_not_looser(void)
{
	size_t t;
	int id;

	for (t = 0; t < NTYPES; t++) {
		unsigned int bit = hr_offer_type(types[t]->kernel_type);

		for (id = 1; id < 256; id++) {
			const struct hr_offer *o = hr_offer_helper(id);

			if (!types[t]->helper(id))
				continue;
			CHECK(o && (o->types & bit),
			      "%s programs may call %s#%d, which the kernel "
			      "refuses them",
			      types[t]->name, hr_helper_name(id), id);
		}
		for (id = 0; hr_common_kfuncs[id]; id++) {
			const struct hr_offer *o =
				hr_offer_kfunc(hr_common_kfuncs[id]->name);

			CHECK(o && (o->types & bit),
			      "kfunc %s: not offered to %s",
			      hr_common_kfuncs[id]->name, types[t]->name);
		}
	}
}

static void check_why(void)
{
	/* bpf_skb_store_bytes: tc's, never XDP's; bpf_get_current_task:
	 * offered to both, meaningless outside a kernel. */
	CHECK(strstr(hr_offer_helper_why(HR_KPROG_XDP, 9),
		     "program of this type cannot use helper") != NULL,
	      "%s", hr_offer_helper_why(HR_KPROG_XDP, 9));
	CHECK(strstr(hr_offer_helper_why(HR_KPROG_SCHED_CLS, 35), "task") !=
		      NULL,
	      "%s", hr_offer_helper_why(HR_KPROG_SCHED_CLS, 35));
	CHECK(strstr(hr_offer_kfunc_why(HR_KPROG_SCHED_CLS,
					"bpf_dynptr_from_xdp"),
		     "calling kernel function is not allowed") != NULL,
	      "%s",
	      hr_offer_kfunc_why(HR_KPROG_SCHED_CLS, "bpf_dynptr_from_xdp"));
	CHECK(hr_offer_helper(1) && hr_offer_helper(1)->why == NULL,
	      "bpf_map_lookup_elem");
	CHECK(hr_offer_helper(0) == NULL && hr_offer_kfunc("no_such") == NULL,
	      "lookups of what is not there");
}

int main(void)
{
	CHECK(hr_helper_offer_cnt > 100 && hr_kfunc_offer_cnt > 100,
	      "%zu helpers, %zu kfuncs", hr_helper_offer_cnt,
	      hr_kfunc_offer_cnt);
	check_rows(hr_helper_offer, hr_helper_offer_cnt);
	check_rows(hr_kfunc_offer, hr_kfunc_offer_cnt);
	check_not_looser();
	check_why();
	return t_done();
}
