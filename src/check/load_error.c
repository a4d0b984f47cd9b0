// SPDX-License-Identifier: MIT
/*
 * When headroom's own loader refuses a program (src/loader, src/vm
 * ctx_check.c and isa.c check what the kernel's check_* functions check at
 * load), the refusal is read as the kernel's verdict where the two rules
 * are the same, and reworded as the verifier words it; any other refusal
 * is "cannot tell".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"

#define FUNC_MAX_ID 212 /* __BPF_FUNC_MAX_ID of 6.18 */
/* check_ld_abs's refusal, worded the same by headroom's loader. */
#define LD_ABS_REFUSED \
	"BPF_LD_[ABS|IND] instructions not allowed for this program type"

/* Helpers the kernel gives tc only or XDP only (predict.c has the same
 * lists for calls it walks). */
bool hr_check_helper_wrong_type(bool xdp, int id);

void hr_check_from_load_error(const char *err, bool xdp,
			      struct hr_check_result *res)
{
	const char *p = strstr(err, " insn ");
	int off, size, id, end = 0;
	char name[64], field[16];

	memset(res, 0, sizeof(*res));
	res->verdict = HR_CHECK_UNKNOWN;
	res->insn = -1;
	snprintf(res->reason, sizeof(res->reason),
		 "cannot tell; headroom does not load it: %s", err);
	if (!p)
		return;
	res->insn = atoi(p + 6);
	p = strchr(p + 6, ':');
	if (!p)
		return;
	p += 2;
	if (sscanf(p, "invalid bpf_context access off=%d size=%d", &off,
		   &size) == 2) {
		res->verdict = HR_CHECK_REJECT;
		snprintf(res->reason, sizeof(res->reason),
			 "invalid bpf_context access off=%d size=%d", off,
			 size);
	} else if (!strncmp(p, LD_ABS_REFUSED, strlen(LD_ABS_REFUSED))) {
		/* The same rule as the kernel's may_access_skb. */
		res->verdict = HR_CHECK_REJECT;
		snprintf(res->reason, sizeof(res->reason), "%s",
			 LD_ABS_REFUSED);
	} else if (!strncmp(p, "frame pointer r10 is read only", 30)) {
		res->verdict = HR_CHECK_REJECT;
		snprintf(res->reason, sizeof(res->reason),
			 "frame pointer is read only");
	} else if (sscanf(p,
			  "map '%63[^']' has to have BTF in order to use "
			  "%15[a-z_]",
			  name, field) == 2 &&
		   (!strcmp(field, "bpf_timer") || !strcmp(field, "bpf_wq"))) {
		/* map_check_btf refused the value's BTF (loader/timer_use.c):
		 * the verifier's check_map_field_pointer then refuses. */
		res->verdict = HR_CHECK_REJECT;
		snprintf(res->reason, sizeof(res->reason),
			 "map '%s' has to have BTF in order to use %s", name,
			 field);
	} else if (sscanf(p, "atomic operation on the context in R%d", &id) ==
		   1) {
		/* check_atomic_rmw refuses a context operand whatever its
		 * offset; ctx_check.c the same. */
		res->verdict = HR_CHECK_REJECT;
		snprintf(res->reason, sizeof(res->reason),
			 "BPF_ATOMIC stores into R%d ctx is not allowed", id);
	} else if (sscanf(p, "unknown helper id %d", &id) == 1 &&
		   (id <= 0 || id >= FUNC_MAX_ID)) {
		res->verdict = HR_CHECK_REJECT;
		snprintf(res->reason, sizeof(res->reason),
			 "invalid func unknown#%d", id);
	} else if (sscanf(p, "kfunc %63s is not allowed in %n", name, &end) ==
			   1 &&
		   end > 0) {
		/* reloc_kfunc's refusal of a kfunc no set of this program
		 * type holds: check_kfunc_call's, at the call. */
		res->verdict = HR_CHECK_REJECT;
		snprintf(res->reason, sizeof(res->reason),
			 "calling kernel function %s is not allowed", name);
	} else if (sscanf(p,
			  "kfunc %63s takes another program type's "
			  "context: %n",
			  name, &end) == 1 &&
		   end > 0) {
		/* reloc_kfunc's refusal of a context of the other program
		 * type, worded as check_kfunc_args words it. */
		res->verdict = HR_CHECK_REJECT;
		snprintf(res->reason, sizeof(res->reason), "%s", p + end);
	} else if (!strncmp(p, "bpf_obj_new type size (", 23) ||
		   !strncmp(p, "bpf_percpu_obj_new type ", 24) ||
		   !strncmp(p, "bpf_obj_new/bpf_percpu_obj_new type ID ", 39)) {
		/* loader/alloc_types.c refuses the struct an object would be
		 * allocated as in check_kfunc_call's words and rules. */
		res->verdict = HR_CHECK_REJECT;
		snprintf(res->reason, sizeof(res->reason), "%s", p);
	} else if (sscanf(p, "helper %63s (id %d) is not available", name,
			  &id) == 2 &&
		   hr_check_helper_wrong_type(xdp, id)) {
		res->verdict = HR_CHECK_REJECT;
		snprintf(res->reason, sizeof(res->reason),
			 "program of this type cannot use helper %s#%d", name,
			 id);
	}
}
