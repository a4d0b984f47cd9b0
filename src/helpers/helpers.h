/* SPDX-License-Identifier: MIT */
/*
 * Every helper and kfunc headroom implements, one descriptor each (the
 * kernel's bpf_func_proto). Program types pick from this list.
 * Append new ones; keep the kernel's names.
 */
#ifndef HR_HELPERS_HELPERS_H
#define HR_HELPERS_HELPERS_H

#include "helpers/offer.h"
#include "progs/prog.h"

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

/* XDP redirect (helpers_redirect.c). */
extern const struct hr_helper hr_helper_redirect; /* 23 */
extern const struct hr_helper hr_helper_redirect_map; /* 51 */

/* XDP RX metadata kfuncs (kfuncs_xdp.c). */
extern const struct hr_kfunc hr_kfunc_xdp_metadata_rx_hash;
extern const struct hr_kfunc hr_kfunc_xdp_pull_data;
extern const struct hr_kfunc hr_kfunc_xdp_metadata_rx_timestamp;
extern const struct hr_kfunc hr_kfunc_xdp_metadata_rx_vlan_tag;

/* Queue/stack, tail calls, ring buffer, loops, locks, clocks
 * (helpers_generic.c). */
extern const struct hr_helper hr_helper_map_push_elem; /* 87 */
extern const struct hr_helper hr_helper_map_pop_elem; /* 88 */
extern const struct hr_helper hr_helper_map_peek_elem; /* 89 */
extern const struct hr_helper hr_helper_tail_call; /* 12 */
extern const struct hr_helper hr_helper_ringbuf_output; /* 130 */
extern const struct hr_helper hr_helper_ringbuf_reserve; /* 131 */
extern const struct hr_helper hr_helper_ringbuf_submit; /* 132 */
extern const struct hr_helper hr_helper_ringbuf_discard; /* 133 */
extern const struct hr_helper hr_helper_ringbuf_query; /* 134 */
extern const struct hr_helper hr_helper_ringbuf_reserve_dynptr; /* 198 */
extern const struct hr_helper hr_helper_ringbuf_submit_dynptr; /* 199 */
extern const struct hr_helper hr_helper_ringbuf_discard_dynptr; /* 200 */
extern const struct hr_helper hr_helper_ktime_get_boot_ns; /* 125 */
extern const struct hr_helper hr_helper_ktime_get_tai_ns; /* 208 */

/* Task (helpers_task.c). */
extern const struct hr_helper hr_helper_get_current_pid_tgid; /* 14 */
extern const struct hr_helper hr_helper_get_ns_current_pid_tgid; /* 120 */
extern const struct hr_helper hr_helper_get_current_uid_gid; /* 15 */
extern const struct hr_helper hr_helper_get_current_comm; /* 16 */
extern const struct hr_helper hr_helper_ktime_get_coarse_ns; /* 160 */
extern const struct hr_helper hr_helper_jiffies64; /* 118 */
extern const struct hr_helper hr_helper_get_numa_node_id; /* 42 */
extern const struct hr_helper hr_helper_loop; /* 181 */
extern const struct hr_helper hr_helper_for_each_map_elem; /* 164 */
extern const struct hr_helper hr_helper_user_ringbuf_drain; /* 209 */
extern const struct hr_helper hr_helper_spin_lock; /* 93 */
extern const struct hr_helper hr_helper_spin_unlock; /* 94 */
extern const struct hr_helper hr_helper_xdp_check_mtu; /* 163, XDP */

/* BPF timers in map values (helpers_timer.c, over maps/map_timer.c). */
extern const struct hr_helper hr_helper_timer_init; /* 169 */
extern const struct hr_helper hr_helper_timer_set_callback; /* 170 */
extern const struct hr_helper hr_helper_timer_start; /* 171 */
extern const struct hr_helper hr_helper_timer_cancel; /* 172 */

/* The helper with kernel ID @id among @list (NULL-terminated), or NULL. */
const struct hr_helper *hr_helper_find(const struct hr_helper *const *list,
				       int id);
const struct hr_kfunc *hr_kfunc_find(const struct hr_kfunc *const *list,
				     const char *name);

/* Helpers every program type has (the kernel's bpf_base_func_proto). */
extern const struct hr_helper *const hr_base_helpers[];

/* tc skb helpers (helpers_skb.c). */
extern const struct hr_helper hr_helper_skb_store_bytes; /* 9 */
extern const struct hr_helper hr_helper_l3_csum_replace; /* 10 */
extern const struct hr_helper hr_helper_l4_csum_replace; /* 11 */
extern const struct hr_helper hr_helper_clone_redirect; /* 13 */
extern const struct hr_helper hr_helper_skb_vlan_push; /* 18 */
extern const struct hr_helper hr_helper_skb_vlan_pop; /* 19 */
extern const struct hr_helper hr_helper_tc_redirect; /* 23, tc's */
extern const struct hr_helper hr_helper_skb_load_bytes; /* 26 */
extern const struct hr_helper hr_helper_skb_change_proto; /* 31 */
extern const struct hr_helper hr_helper_skb_change_tail; /* 38 */
extern const struct hr_helper hr_helper_skb_pull_data; /* 39 */
extern const struct hr_helper hr_helper_skb_change_head; /* 43 */
extern const struct hr_helper hr_helper_skb_adjust_room; /* 50 */
extern const struct hr_helper hr_helper_skb_change_type; /* 32 */
extern const struct hr_helper hr_helper_skb_load_bytes_relative; /* 68 */

/* The skb's checksum state (helpers_skb_csum.c). */
extern const struct hr_helper hr_helper_csum_update; /* 40 */
extern const struct hr_helper hr_helper_csum_level; /* 135 */

/* What LD_ABS/LD_IND call in tc programs, byte, half and word
 * (helpers_ld_abs.c, progs/ld_abs.h). */
extern const hr_helper_fn hr_skb_ld_abs_fns[3];

/* tc: flow hash, ECN, MTU, neighbour and peer redirects
 * (helpers_tc_net.c). */
extern const struct hr_helper hr_helper_get_hash_recalc; /* 34 */
extern const struct hr_helper hr_helper_set_hash_invalid; /* 41 */
extern const struct hr_helper hr_helper_set_hash; /* 48 */
extern const struct hr_helper hr_helper_skb_ecn_set_ce; /* 97 */
extern const struct hr_helper hr_helper_skb_check_mtu; /* 163, tc */
extern const struct hr_helper hr_helper_redirect_neigh; /* 152 */
extern const struct hr_helper hr_helper_redirect_peer; /* 155 */
/* tc: the skb's tunnel metadata (helpers_tunnel.c). */
extern const struct hr_helper hr_helper_skb_get_tunnel_key; /* 20 */
extern const struct hr_helper hr_helper_skb_set_tunnel_key; /* 21 */
extern const struct hr_helper hr_helper_skb_get_tunnel_opt; /* 29 */
extern const struct hr_helper hr_helper_skb_set_tunnel_opt; /* 30 */
/* bpf_trace_vprintk (helpers_misc.c), in the base set. */
extern const struct hr_helper hr_helper_trace_vprintk; /* 177 */
/* bpf_snprintf (helpers_misc.c), in the base set. */
extern const struct hr_helper hr_helper_snprintf; /* 165 */
/* bpf_strncmp (helpers_misc.c), in the base set. */
extern const struct hr_helper hr_helper_strncmp; /* 182 */
/* bpf_strtol, bpf_strtoul (helpers_strtox.c), in the base set. */
extern const struct hr_helper hr_helper_strtol; /* 105 */
extern const struct hr_helper hr_helper_strtoul; /* 106 */
/* bpf_snprintf_btf (helpers_snprintf_btf.c), in the base set. */
extern const struct hr_helper hr_helper_snprintf_btf; /* 149 */

/* Socket lookups over an empty socket table, XDP and tc (helpers_sock.c). */
extern const struct hr_helper hr_helper_sk_lookup_tcp; /* 84 */
extern const struct hr_helper hr_helper_sk_lookup_udp; /* 85 */
extern const struct hr_helper hr_helper_sk_release; /* 86 */
extern const struct hr_helper hr_helper_skc_lookup_tcp; /* 99 */
extern const struct hr_helper hr_helper_tcp_check_syncookie; /* 100 */
extern const struct hr_helper hr_helper_tcp_gen_syncookie; /* 110 */
extern const struct hr_helper hr_helper_sk_assign; /* 124, tc only */
/* The skb's timestamp and its clock (helpers_skb_tstamp.c). */
extern const struct hr_helper hr_helper_skb_set_tstamp; /* 192 */
/* SYN cookies without a socket (helpers_syncookie.c). */
extern const struct hr_helper hr_helper_tcp_raw_gen_syncookie_ipv4; /* 204 */
extern const struct hr_helper hr_helper_tcp_raw_gen_syncookie_ipv6; /* 205 */
extern const struct hr_helper hr_helper_tcp_raw_check_syncookie_ipv4; /* 206 */
extern const struct hr_helper hr_helper_tcp_raw_check_syncookie_ipv6; /* 207 */

/* Perf events (helpers_perf.c): bpf_perf_event_output per context. */
extern const struct hr_helper hr_helper_xdp_event_output; /* 25, XDP */
extern const struct hr_helper hr_helper_skb_event_output; /* 25, tc */

/* bpf_fib_lookup (helpers_fib.c). */
extern const struct hr_helper hr_helper_xdp_fib_lookup; /* 69, XDP */
extern const struct hr_helper hr_helper_skb_fib_lookup; /* 69, tc */

/* Dynptrs (kfuncs_dynptr.c, dynptr.h). */
extern const struct hr_helper hr_helper_dynptr_read; /* 201 */
extern const struct hr_helper hr_helper_dynptr_write; /* 202 */
extern const struct hr_helper hr_helper_dynptr_from_mem; /* 197 */
extern const struct hr_helper hr_helper_dynptr_data; /* 203 */
extern const struct hr_kfunc hr_kfunc_dynptr_from_xdp;
extern const struct hr_kfunc hr_kfunc_dynptr_from_skb;
extern const struct hr_kfunc hr_kfunc_dynptr_slice;
extern const struct hr_kfunc hr_kfunc_dynptr_slice_rdwr;
extern const struct hr_kfunc hr_kfunc_dynptr_from_skb_meta; /* tc only */
/* Defines kfunc hr_kfunc_@sym, the kernel's bpf_@sym, calling @func. */
#define HR_KFUNC(sym, func)                                           \
	const struct hr_kfunc hr_kfunc_##sym = { .name = "bpf_" #sym, \
						 .fn = func }

/* The dynptr kfuncs for any dynptr type (kfuncs_dynptr_ops.c). */
extern const struct hr_kfunc hr_kfunc_dynptr_size;
extern const struct hr_kfunc hr_kfunc_dynptr_is_null;
extern const struct hr_kfunc hr_kfunc_dynptr_is_rdonly;
extern const struct hr_kfunc hr_kfunc_dynptr_adjust;
extern const struct hr_kfunc hr_kfunc_dynptr_clone;
extern const struct hr_kfunc hr_kfunc_dynptr_copy;
extern const struct hr_kfunc hr_kfunc_dynptr_memset;

/* The open-coded numeric iterator and the RCU and preemption section
 * markers (kfuncs_iter.c). */
extern const struct hr_kfunc hr_kfunc_iter_num_new;
extern const struct hr_kfunc hr_kfunc_iter_num_next;
extern const struct hr_kfunc hr_kfunc_iter_num_destroy;
extern const struct hr_kfunc hr_kfunc_rcu_read_lock;
extern const struct hr_kfunc hr_kfunc_rcu_read_unlock;
extern const struct hr_kfunc hr_kfunc_preempt_disable;
extern const struct hr_kfunc hr_kfunc_preempt_enable;
/* Resilient spin locks and the irq flags (kfuncs_lock.c). */
extern const struct hr_kfunc hr_kfunc_res_spin_lock;
/* Allocated objects (kfuncs_obj.c). */
extern const struct hr_kfunc hr_kfunc_obj_new_impl;
extern const struct hr_kfunc hr_kfunc_obj_drop_impl;
extern const struct hr_kfunc hr_kfunc_refcount_acquire_impl;
extern const struct hr_kfunc hr_kfunc_list_push_front_impl;
extern const struct hr_kfunc hr_kfunc_list_push_back_impl;
extern const struct hr_kfunc hr_kfunc_list_pop_front;
extern const struct hr_kfunc hr_kfunc_list_pop_back;
extern const struct hr_kfunc hr_kfunc_list_front;
extern const struct hr_kfunc hr_kfunc_list_back;
extern const struct hr_kfunc hr_kfunc_rbtree_add_impl;
extern const struct hr_kfunc hr_kfunc_rbtree_first;
extern const struct hr_kfunc hr_kfunc_rbtree_remove;
extern const struct hr_kfunc hr_kfunc_rbtree_root;
extern const struct hr_kfunc hr_kfunc_rbtree_left;
extern const struct hr_kfunc hr_kfunc_rbtree_right;
/* bpf_spin_unlock: the run's references to objects in lists go. */
void hr_obj_unlocked(struct hr_run *run);
extern const struct hr_helper hr_helper_kptr_xchg; /* 194 */
/* Per-CPU objects (kfuncs_percpu.c): the run's reference to the one at
 * @ptr, or NULL; @obj made the run's (0, @obj let go of, when it holds
 * all it can), for bpf_kptr_xchg on a __percpu_kptr field. */
extern const struct hr_kfunc hr_kfunc_percpu_obj_new_impl;
extern const struct hr_kfunc hr_kfunc_percpu_obj_drop_impl;
extern const struct hr_helper hr_helper_per_cpu_ptr; /* 153 */
extern const struct hr_helper hr_helper_this_cpu_ptr; /* 154 */
struct hr_held_rec *hr_percpu_held(struct hr_run *run, uint64_t ptr);
uint64_t hr_percpu_hold(struct hr_run *run, void *obj);
extern const struct hr_kfunc hr_kfunc_res_spin_unlock;
extern const struct hr_kfunc hr_kfunc_res_spin_lock_irqsave;
extern const struct hr_kfunc hr_kfunc_res_spin_unlock_irqrestore;
extern const struct hr_kfunc hr_kfunc_local_irq_save;
extern const struct hr_kfunc hr_kfunc_local_irq_restore;
/* The element count of a map (kfuncs_map.c). */
extern const struct hr_kfunc hr_kfunc_map_sum_elem_count;
/* The bits iterator (kfuncs_iter_bits.c). */
extern const struct hr_kfunc hr_kfunc_iter_bits_new;
extern const struct hr_kfunc hr_kfunc_iter_bits_next;
extern const struct hr_kfunc hr_kfunc_iter_bits_destroy;

/* Conntrack, XDP and tc alike (kfuncs_ct.c over core/ct.c). */
extern const struct hr_kfunc hr_kfunc_xdp_ct_lookup;
extern const struct hr_kfunc hr_kfunc_skb_ct_lookup;
extern const struct hr_kfunc hr_kfunc_xdp_ct_alloc;
extern const struct hr_kfunc hr_kfunc_skb_ct_alloc;
extern const struct hr_kfunc hr_kfunc_ct_insert_entry;
extern const struct hr_kfunc hr_kfunc_ct_release;
extern const struct hr_kfunc hr_kfunc_ct_set_timeout;
extern const struct hr_kfunc hr_kfunc_ct_change_timeout;
extern const struct hr_kfunc hr_kfunc_ct_set_status;
extern const struct hr_kfunc hr_kfunc_ct_change_status;
extern const struct hr_kfunc hr_kfunc_ct_set_nat_info;
/* Their list (NULL-terminated), which both program types search. */
extern const struct hr_kfunc *const hr_ct_kfuncs[];
/* The read-only string kfuncs (kfuncs_string.c). */
extern const struct hr_kfunc hr_kfunc_strcmp;
extern const struct hr_kfunc hr_kfunc_strcasecmp;
extern const struct hr_kfunc hr_kfunc_strchr;
extern const struct hr_kfunc hr_kfunc_strnchr;
extern const struct hr_kfunc hr_kfunc_strchrnul;
extern const struct hr_kfunc hr_kfunc_strrchr;
extern const struct hr_kfunc hr_kfunc_strlen;
extern const struct hr_kfunc hr_kfunc_strnlen;
extern const struct hr_kfunc hr_kfunc_strspn;
extern const struct hr_kfunc hr_kfunc_strcspn;
extern const struct hr_kfunc hr_kfunc_strstr;
extern const struct hr_kfunc hr_kfunc_strnstr;

/* Work queues in map values (kfuncs_wq.c, over maps/map_timer.c). */
extern const struct hr_kfunc hr_kfunc_wq_init;
extern const struct hr_kfunc hr_kfunc_wq_set_callback_impl;
extern const struct hr_kfunc hr_kfunc_wq_start;

/* bpf_throw with the default exception callback (kfuncs_throw.c). */
extern const struct hr_kfunc hr_kfunc_throw;
extern const struct hr_kfunc hr_kfunc_trap; /* __bpf_trap */
extern const struct hr_kfunc hr_kfunc_stream_vprintk_impl;
/* copy_from_kernel_nofault_allowed for a pointer a program passed: true
 * for the program's own memory and any number that could be a kernel
 * address; false for the rest, where the kernel's read is -ERANGE
 * (kfuncs_string.c). */
bool hr_nofault_allowed(const struct hr_run *run, uint64_t addr);

/* Kfuncs every program type has (kernel/bpf/helpers.c registers its
 * generic set for all): NULL-terminated (helpers.c). */
extern const struct hr_kfunc *const hr_common_kfuncs[];

#endif /* HR_HELPERS_HELPERS_H */
