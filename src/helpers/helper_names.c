// SPDX-License-Identifier: MIT
/* Kernel names of helper IDs, for messages about helpers headroom lacks. */
#include <linux/bpf.h>

#include "progs/prog.h"

/* The UAPI's own list, so the numbering is the kernel's. */
#define HR_NAME_FN(x) [BPF_FUNC_##x] = "bpf_" #x
static const char *const names[] = { __BPF_FUNC_MAPPER(HR_NAME_FN) };
#undef HR_NAME_FN

/* Added after the 6.1 UAPI headers this builds against. */
static const char *const newer[] = {
	"bpf_cgrp_storage_get", /* 210 */
	"bpf_cgrp_storage_delete", /* 211 */
};

#define NAMES_END ((int)(sizeof(names) / sizeof(names[0])))
#define NEWER_FIRST 210

const char *hr_helper_name(int id)
{
	if (id > 0 && id < NAMES_END)
		return names[id];
	if (id >= NEWER_FIRST &&
	    id < NEWER_FIRST + (int)(sizeof(newer) / sizeof(newer[0])))
		return newer[id - NEWER_FIRST];
	return NULL;
}
