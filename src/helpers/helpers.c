// SPDX-License-Identifier: MIT
/* Helper lookup, and the helpers and kfuncs every program type may call. */
#include <string.h>

#include "helpers/helpers.h"

const struct hr_kfunc *const hr_common_kfuncs[] = {
	&hr_kfunc_dynptr_size,
	&hr_kfunc_dynptr_is_null,
	&hr_kfunc_dynptr_is_rdonly,
	&hr_kfunc_dynptr_adjust,
	&hr_kfunc_dynptr_clone,
	&hr_kfunc_dynptr_copy,
	&hr_kfunc_dynptr_memset,
	&hr_kfunc_iter_num_new,
	&hr_kfunc_iter_num_next,
	&hr_kfunc_iter_num_destroy,
	&hr_kfunc_iter_bits_new,
	&hr_kfunc_iter_bits_next,
	&hr_kfunc_iter_bits_destroy,
	&hr_kfunc_map_sum_elem_count,
	&hr_kfunc_obj_new_impl,
	&hr_kfunc_obj_drop_impl,
	&hr_kfunc_refcount_acquire_impl,
	&hr_kfunc_percpu_obj_new_impl,
	&hr_kfunc_percpu_obj_drop_impl,
	&hr_kfunc_list_push_front_impl,
	&hr_kfunc_list_push_back_impl,
	&hr_kfunc_list_pop_front,
	&hr_kfunc_list_pop_back,
	&hr_kfunc_list_front,
	&hr_kfunc_list_back,
	&hr_kfunc_rbtree_add_impl,
	&hr_kfunc_rbtree_first,
	&hr_kfunc_rbtree_remove,
	&hr_kfunc_rbtree_root,
	&hr_kfunc_rbtree_left,
	&hr_kfunc_rbtree_right,
	&hr_kfunc_res_spin_lock,
	&hr_kfunc_res_spin_unlock,
	&hr_kfunc_res_spin_lock_irqsave,
	&hr_kfunc_res_spin_unlock_irqrestore,
	&hr_kfunc_local_irq_save,
	&hr_kfunc_local_irq_restore,
	&hr_kfunc_rcu_read_lock,
	&hr_kfunc_rcu_read_unlock,
	&hr_kfunc_preempt_disable,
	&hr_kfunc_preempt_enable,
	&hr_kfunc_strcmp,
	&hr_kfunc_strcasecmp,
	&hr_kfunc_strchr,
	&hr_kfunc_strnchr,
	&hr_kfunc_strchrnul,
	&hr_kfunc_strrchr,
	&hr_kfunc_strlen,
	&hr_kfunc_strnlen,
	&hr_kfunc_strspn,
	&hr_kfunc_strcspn,
	&hr_kfunc_strstr,
	&hr_kfunc_strnstr,
	&hr_kfunc_throw,
	&hr_kfunc_trap,
	&hr_kfunc_stream_vprintk_impl,
	&hr_kfunc_wq_init,
	&hr_kfunc_wq_set_callback_impl,
	&hr_kfunc_wq_start,
	NULL, /* one a line: clang-format would pack the list */
};

const struct hr_helper *const hr_base_helpers[] = {
	&hr_helper_map_lookup_elem,
	&hr_helper_map_update_elem,
	&hr_helper_map_delete_elem,
	&hr_helper_map_lookup_percpu_elem,
	&hr_helper_ktime_get_ns,
	&hr_helper_trace_printk,
	&hr_helper_get_prandom_u32,
	&hr_helper_get_smp_processor_id,
	&hr_helper_map_push_elem,
	&hr_helper_map_pop_elem,
	&hr_helper_map_peek_elem,
	&hr_helper_tail_call,
	&hr_helper_ringbuf_output,
	&hr_helper_ringbuf_reserve,
	&hr_helper_ringbuf_submit,
	&hr_helper_ringbuf_discard,
	&hr_helper_ringbuf_query,
	&hr_helper_ringbuf_reserve_dynptr,
	&hr_helper_ringbuf_submit_dynptr,
	&hr_helper_ringbuf_discard_dynptr,
	&hr_helper_ktime_get_boot_ns,
	&hr_helper_ktime_get_tai_ns,
	&hr_helper_ktime_get_coarse_ns,
	&hr_helper_jiffies64,
	&hr_helper_get_numa_node_id,
	&hr_helper_loop,
	&hr_helper_for_each_map_elem,
	&hr_helper_user_ringbuf_drain,
	&hr_helper_spin_lock,
	&hr_helper_spin_unlock,
	&hr_helper_trace_vprintk,
	&hr_helper_snprintf,
	&hr_helper_strncmp,
	&hr_helper_strtol,
	&hr_helper_strtoul,
	&hr_helper_snprintf_btf,
	&hr_helper_get_current_pid_tgid,
	&hr_helper_get_ns_current_pid_tgid,
	&hr_helper_get_current_uid_gid,
	&hr_helper_get_current_comm,
	&hr_helper_timer_init,
	&hr_helper_timer_set_callback,
	&hr_helper_timer_start,
	&hr_helper_timer_cancel,
	&hr_helper_kptr_xchg,
	&hr_helper_per_cpu_ptr,
	&hr_helper_this_cpu_ptr,
	NULL,
};

const struct hr_helper *hr_helper_find(const struct hr_helper *const *list,
				       int id)
{
	for (; *list; list++)
		if ((*list)->id == id)
			return *list;
	return NULL;
}

const struct hr_kfunc *hr_kfunc_find(const struct hr_kfunc *const *list,
				     const char *name)
{
	for (; *list; list++)
		if (strcmp((*list)->name, name) == 0)
			return *list;
	return NULL;
}
