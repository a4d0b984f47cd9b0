/* SPDX-License-Identifier: MIT */
/*
 * Every helper and kfunc headroom implements, one descriptor each (the
 * kernel's bpf_func_proto). Program types pick from this list.
 * Append new ones; keep the kernel's names.
 */
#ifndef HR_BPF_HELPERS_H
#define HR_BPF_HELPERS_H

#include "prog.h"

/* Maps (helpers_map.c). */
extern const struct hr_helper hr_helper_map_lookup_elem; /* 1 */
extern const struct hr_helper hr_helper_map_update_elem; /* 2 */
extern const struct hr_helper hr_helper_map_delete_elem; /* 3 */
extern const struct hr_helper hr_helper_map_lookup_percpu_elem; /* 195 */

/* Misc (helpers_misc.c). */
extern const struct hr_helper hr_helper_ktime_get_ns; /* 5 */
extern const struct hr_helper hr_helper_trace_printk; /* 6 */
extern const struct hr_helper hr_helper_get_prandom_u32; /* 7 */
extern const struct hr_helper hr_helper_get_smp_processor_id; /* 8 */
extern const struct hr_helper hr_helper_csum_diff; /* 28 */

/* Where bpf_trace_printk text goes (helpers_misc.c): by default stderr as
 * "headroom-trace: <text>"; tests replace it to capture the text. */
typedef void (*hr_trace_sink_fn)(const char *text, size_t len);
extern hr_trace_sink_fn hr_trace_sink;
/* The x86-64 kernel's csum_partial: a 32-bit unfolded sum (helpers_misc.c). */
uint32_t hr_csum_partial(const void *buf, uint32_t len, uint32_t seed);

/* XDP packet helpers (helpers_xdp.c). */
extern const struct hr_helper hr_helper_xdp_adjust_head; /* 44 */
extern const struct hr_helper hr_helper_xdp_adjust_meta; /* 54 */
extern const struct hr_helper hr_helper_xdp_adjust_tail; /* 65 */
extern const struct hr_helper hr_helper_xdp_get_buff_len; /* 188 */
extern const struct hr_helper hr_helper_xdp_load_bytes; /* 189 */
extern const struct hr_helper hr_helper_xdp_store_bytes; /* 190 */

/* XDP RX metadata kfuncs (kfuncs_xdp.c). */
extern const struct hr_kfunc hr_kfunc_xdp_metadata_rx_hash;
extern const struct hr_kfunc hr_kfunc_xdp_metadata_rx_timestamp;
extern const struct hr_kfunc hr_kfunc_xdp_metadata_rx_vlan_tag;

/* The helper with kernel ID @id among @list (NULL-terminated), or NULL. */
const struct hr_helper *hr_helper_find(const struct hr_helper *const *list,
				       int id);
const struct hr_kfunc *hr_kfunc_find(const struct hr_kfunc *const *list,
				     const char *name);

/* Helpers every program type has (the kernel's bpf_base_func_proto). */
extern const struct hr_helper *const hr_base_helpers[];

#endif /* HR_BPF_HELPERS_H */
