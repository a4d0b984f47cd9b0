/* SPDX-License-Identifier: MIT */
/*
 * The argument and return kinds of the helpers predict.c follows, one row
 * a helper, as each helper's struct bpf_func_proto gives them to the
 * kernel's check_func_arg and check_helper_call (kernel/bpf/verifier.c),
 * with whether bpf_helper_changes_pkt_data names it.
 */
#ifndef HR_CHECK_PROTOS_H
#define HR_CHECK_PROTOS_H

#include <stdbool.h>
#include <stdint.h>

enum hr_arg_kind {
	HR_ARG_NONE, /* ARG_DONTCARE: not read */
	HR_ARG_ANY, /* ARG_ANYTHING */
	HR_ARG_CTX, /* ARG_PTR_TO_CTX */
	HR_ARG_MEM_RO, /* ARG_PTR_TO_MEM | MEM_RDONLY, sized by the next */
	HR_ARG_MEM_RO_NULL, /* the same, or NULL */
	HR_ARG_MEM_W, /* ARG_PTR_TO_(UNINIT_)MEM: written */
	HR_ARG_MEM_W_NULL, /* ARG_PTR_TO_MEM_OR_NULL: written, or NULL */
	HR_ARG_SIZE, /* ARG_CONST_SIZE of the argument before */
	HR_ARG_SIZE0, /* ARG_CONST_SIZE_OR_ZERO */
	HR_ARG_MAP, /* ARG_CONST_MAP_PTR */
	HR_ARG_MAP_VALUE, /* ARG_PTR_TO_MAP_VALUE of the map before: read */
	HR_ARG_MAP_VALUE_W, /* the same, MEM_UNINIT: written */
	/* ARG_PTR_TO_FIXED_SIZE_MEM of arg_size bytes: read; and with
	 * MEM_UNINIT | MEM_WRITE | MEM_ALIGNED: written, aligned. */
	HR_ARG_FIXED_RO,
	HR_ARG_FIXED_W,
	HR_ARG_SOCK_COMMON, /* ARG_PTR_TO_BTF_ID_SOCK_COMMON */
	HR_ARG_SOCK_COMMON_NULL, /* the same, or NULL (PTR_MAYBE_NULL) */
	HR_ARG_CONST_STR, /* ARG_PTR_TO_CONST_STR: in a frozen .rodata */
};

enum hr_ret_kind {
	HR_RET_INTEGER, /* an unknown scalar */
	HR_RET_VOID, /* R0 left uninitialized */
};

struct hr_proto {
	int id; /* enum bpf_func_id */
	uint8_t arg[5]; /* enum hr_arg_kind */
	uint8_t arg_size[5]; /* HR_ARG_FIXED_*: the argN_size */
	uint8_t ret; /* enum hr_ret_kind */
	bool changes_pkt; /* bpf_helper_changes_pkt_data */
	bool gpl_only; /* refused to programs of other licenses */
	/* The map types an HR_ARG_MAP may be (check_map_func_compatibility
	 * both ways), as a bit per BPF_MAP_TYPE_*. */
	uint64_t map_types;
};

/* The row of helper @id, or NULL when this table has none. */
const struct hr_proto *hr_proto_find(int id);

/* 1 when the "license" section of the object at @path is GPL compatible
 * to the kernel, 0 when not, -1 when it cannot be read. */
int hr_check_license_gpl(const char *path);

#endif /* HR_CHECK_PROTOS_H */
