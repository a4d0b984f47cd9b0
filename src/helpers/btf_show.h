/* SPDX-License-Identifier: MIT */
/*
 * The kernel's typed-data printer (kernel/bpf/btf.c: btf_type_show and
 * its btf_show machinery, btf_type_snprintf_show's snprintf sink), for
 * bpf_snprintf_btf (helpers_snprintf_btf.c).
 */
#ifndef HR_HELPERS_BTF_SHOW_H
#define HR_HELPERS_BTF_SHOW_H

#include <stdint.h>

struct btf;
struct hr_run;

/* The flags bpf_snprintf_btf takes (BTF_F_*, include/uapi/linux/bpf.h). */
#define HR_BTF_F_COMPACT (1ULL << 0)
#define HR_BTF_F_NONAME (1ULL << 1)
#define HR_BTF_F_PTR_RAW (1ULL << 2)
#define HR_BTF_F_ZERO (1ULL << 3)
#define HR_BTF_F_ALL \
	(HR_BTF_F_COMPACT | HR_BTF_F_NONAME | HR_BTF_F_PTR_RAW | HR_BTF_F_ZERO)

/*
 * btf_type_snprintf_show: the object at @obj of type @type_id (which
 * must exist in @btf) as text in @buf of @len bytes, cut with its NUL
 * as vsnprintf cuts; returns the length the whole text has without the
 * NUL, or the -errno the kernel's show ends with. The object's bytes
 * are checked against @run's memory before any is read: outside it the
 * run ends (HR_ABORT_HELPER_ARG; then 0), but for an address in the
 * first 64 KiB, which the kernel refuses as a user address (-ERANGE).
 */
int hr_btf_snprintf_show(const struct btf *btf, uint32_t type_id, uint64_t obj,
			 char *buf, int len, uint64_t flags,
			 struct hr_run *run);

#endif /* HR_HELPERS_BTF_SHOW_H */
