// SPDX-License-Identifier: MIT
/*
 * Section names to program types, after libbpf's section_defs table and
 * iproute2's tc conventions. Order matters: the first match wins, so the
 * specific names come before the prefixes that would also match them.
 */
#include <stdbool.h>
#include <string.h>

#include "progs/prog.h"

enum sec_match {
	SEC_EXACT, /* the name itself */
	SEC_PREFIX, /* the name, or the name followed by "/anything" */
	SEC_LEGACY, /* any name starting so: libbpf before 1.0, iproute2 */
};

struct sec_def {
	const char *name;
	enum sec_match match;
	bool xdp; /* else tc */
	uint32_t attach;
	bool frags;
};

static const struct sec_def sec_defs[] = {
	{ "xdp.frags/devmap", SEC_EXACT, true, HR_ATTACH_XDP_DEVMAP, true },
	{ "xdp/devmap", SEC_EXACT, true, HR_ATTACH_XDP_DEVMAP, false },
	{ "xdp.frags/cpumap", SEC_EXACT, true, HR_ATTACH_XDP_CPUMAP, true },
	{ "xdp/cpumap", SEC_EXACT, true, HR_ATTACH_XDP_CPUMAP, false },
	{ "xdp.frags", SEC_EXACT, true, HR_ATTACH_XDP, true },
	{ "xdp", SEC_PREFIX, true, HR_ATTACH_XDP, false },
	{ "tc/ingress", SEC_EXACT, false, HR_ATTACH_TCX_INGRESS, false },
	{ "tc/egress", SEC_EXACT, false, HR_ATTACH_TCX_EGRESS, false },
	{ "tcx/ingress", SEC_EXACT, false, HR_ATTACH_TCX_INGRESS, false },
	{ "tcx/egress", SEC_EXACT, false, HR_ATTACH_TCX_EGRESS, false },
	/* iproute2 accepts any section for tc; these are its usual names. */
	{ "tc", SEC_PREFIX, false, HR_ATTACH_NONE, false },
	{ "classifier", SEC_PREFIX, false, HR_ATTACH_NONE, false },
	/* Older libbpf matched plain prefixes: "xdp_redirect_cpu",
	 * "xdp_sock", "xdp1", "classifier_x", "tc_ingress". */
	{ "xdp_devmap/", SEC_LEGACY, true, HR_ATTACH_XDP_DEVMAP, false },
	{ "xdp_cpumap/", SEC_LEGACY, true, HR_ATTACH_XDP_CPUMAP, false },
	{ "xdp", SEC_LEGACY, true, HR_ATTACH_XDP, false },
	{ "classifier", SEC_LEGACY, false, HR_ATTACH_NONE, false },
	{ "tc", SEC_LEGACY, false, HR_ATTACH_NONE, false },
};

static bool sec_def_matches(const struct sec_def *d, const char *sec)
{
	size_t len = strlen(d->name);

	if (strncmp(sec, d->name, len) != 0)
		return false;
	if (d->match == SEC_LEGACY || sec[len] == '\0')
		return true;
	return d->match == SEC_PREFIX && sec[len] == '/';
}

const struct hr_prog_type *
hr_prog_type_for_section(const char *sec, uint32_t *attach, bool *frags)
{
	size_t i;

	if (!sec)
		return NULL;
	for (i = 0; i < sizeof(sec_defs) / sizeof(sec_defs[0]); i++) {
		const struct sec_def *d = &sec_defs[i];

		if (!sec_def_matches(d, sec))
			continue;
		if (attach)
			*attach = d->attach;
		if (frags)
			*frags = d->frags;
		return d->xdp ? &hr_prog_type_xdp : &hr_prog_type_tc;
	}
	return NULL;
}

const struct hr_prog_type *hr_prog_type_by_name(const char *name)
{
	if (!name)
		return NULL;
	if (strcmp(name, "xdp") == 0)
		return &hr_prog_type_xdp;
	/* "sched_cls" is the kernel's name for what tc runs. */
	if (strcmp(name, "tc") == 0 || strcmp(name, "sched_cls") == 0 ||
	    strcmp(name, "classifier") == 0)
		return &hr_prog_type_tc;
	return NULL;
}
