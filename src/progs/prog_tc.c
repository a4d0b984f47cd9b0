// SPDX-License-Identifier: MIT
/* The tc (sched_cls) program type: struct __sk_buff, helpers, verdicts. */
#include <stddef.h>
#include <linux/bpf.h>
#include <linux/pkt_cls.h>

#include "helpers/helpers.h"

#define SKB_OFF(f) ((int)offsetof(struct __sk_buff, f))
#define SKB_END(f) (SKB_OFF(f) + (int)sizeof(((struct __sk_buff *)0)->f))
#define IN(off, f) ((off) >= SKB_OFF(f) && (off) < SKB_END(f))

/* tc_cls_act_is_valid_access: the fields a tc program may write. */
static bool tc_writable(int off)
{
	return IN(off, mark) || IN(off, tc_index) || IN(off, priority) ||
	       IN(off, tc_classid) || IN(off, tstamp) ||
	       IN(off, queue_mapping) ||
	       (off >= SKB_OFF(cb[0]) && off < SKB_END(cb[4]));
}

/* bpf_skb_is_valid_access with the tc restrictions before it. */
static bool tc_ctx_access(const struct hr_prog *prog, int off, int size,
			  bool write)
{
	if (write && !tc_writable(off))
		return false;
	if (off >= SKB_OFF(family) && off < SKB_END(local_port))
		return false;
	if (off < 0 || off >= (int)sizeof(struct __sk_buff) || off % size)
		return false;
	if (off >= SKB_OFF(cb[0]) && off < SKB_END(cb[4]))
		return off + size <= SKB_END(cb[4]);
	if (IN(off, data) || IN(off, data_meta) || IN(off, data_end))
		return size == 4;
	if (IN(off, flow_keys))
		return false;
	if (IN(off, hwtstamp))
		return !write && size == 8;
	if (IN(off, tstamp))
		return size == 8;
	if (IN(off, sk))
		return !write && size == 8;
	/* tstamp_type a byte to read; the padding up to hwtstamp none. */
	if (IN(off, tstamp_type))
		return !write && size == 1;
	if (off >= SKB_OFF(tstamp_type) && off < SKB_OFF(hwtstamp))
		return false;
	if (write)
		return size == 4;
	return size <= 4 && !(size & (size - 1));
}

static const struct hr_helper *const tc_helpers[] = {
	&hr_helper_csum_diff,
	&hr_helper_skb_store_bytes,
	&hr_helper_l3_csum_replace,
	&hr_helper_l4_csum_replace,
	&hr_helper_clone_redirect,
	&hr_helper_skb_vlan_push,
	&hr_helper_skb_vlan_pop,
	&hr_helper_tc_redirect,
	&hr_helper_skb_load_bytes,
	&hr_helper_skb_change_proto,
	&hr_helper_skb_change_tail,
	&hr_helper_skb_pull_data,
	&hr_helper_skb_change_head,
	&hr_helper_skb_adjust_room,
	&hr_helper_skb_event_output,
	&hr_helper_dynptr_read,
	&hr_helper_dynptr_write,
	&hr_helper_dynptr_from_mem,
	&hr_helper_dynptr_data,
	&hr_helper_skb_fib_lookup,
	&hr_helper_get_hash_recalc,
	&hr_helper_set_hash_invalid,
	&hr_helper_set_hash,
	&hr_helper_skb_ecn_set_ce,
	&hr_helper_skb_check_mtu,
	&hr_helper_redirect_neigh,
	&hr_helper_redirect_peer,
	&hr_helper_sk_lookup_tcp,
	&hr_helper_sk_lookup_udp,
	&hr_helper_sk_release,
	&hr_helper_skc_lookup_tcp,
	&hr_helper_tcp_check_syncookie,
	&hr_helper_tcp_gen_syncookie,
	&hr_helper_sk_assign,
	&hr_helper_skb_load_bytes_relative,
	&hr_helper_skb_set_tstamp,
	&hr_helper_tcp_raw_gen_syncookie_ipv4,
	&hr_helper_tcp_raw_gen_syncookie_ipv6,
	&hr_helper_tcp_raw_check_syncookie_ipv4,
	&hr_helper_tcp_raw_check_syncookie_ipv6,
	&hr_helper_skb_change_type,
	&hr_helper_csum_update,
	&hr_helper_csum_level,
	&hr_helper_skb_get_tunnel_key,
	&hr_helper_skb_set_tunnel_key,
	&hr_helper_skb_get_tunnel_opt,
	&hr_helper_skb_set_tunnel_opt,
	NULL,
};

static const struct hr_helper *tc_helper(int id)
{
	const struct hr_helper *h = hr_helper_find(tc_helpers, id);

	return h ? h : hr_helper_find(hr_base_helpers, id);
}

/* bpf_dynptr_from_skb_meta: the kernel's for SCHED_CLS and SCHED_ACT
 * only; the type-independent dynptr kfuncs are in hr_common_kfuncs. */
static const struct hr_kfunc *const tc_kfuncs[] = {
	&hr_kfunc_dynptr_from_skb,
	&hr_kfunc_dynptr_from_skb_meta,
	&hr_kfunc_dynptr_slice,
	&hr_kfunc_dynptr_slice_rdwr,
	NULL,
};

static const struct hr_kfunc *tc_kfunc(const char *name)
{
	const struct hr_kfunc *k = hr_kfunc_find(tc_kfuncs, name);

	if (!k)
		k = hr_kfunc_find(hr_ct_kfuncs, name);
	return k ? k : hr_kfunc_find(hr_common_kfuncs, name);
}

static const char *tc_action_name(uint64_t ret)
{
	static const char *const names[] = {
		"TC_ACT_OK",	 "TC_ACT_RECLASSIFY", "TC_ACT_SHOT",
		"TC_ACT_PIPE",	 "TC_ACT_STOLEN",     "TC_ACT_QUEUED",
		"TC_ACT_REPEAT", "TC_ACT_REDIRECT",   "TC_ACT_TRAP",
	};
	int32_t v = (int32_t)ret;

	if (v == TC_ACT_UNSPEC)
		return "TC_ACT_UNSPEC";
	return v >= 0 && v < (int32_t)(sizeof(names) / sizeof(names[0])) ?
		       names[v] :
		       NULL;
}

const struct hr_prog_type hr_prog_type_tc = {
	.name = "tc",
	.kernel_type = HR_KPROG_SCHED_CLS,
	.ctx_size = sizeof(struct __sk_buff),
	.ctx_access = tc_ctx_access,
	.helper = tc_helper,
	.helper_why = hr_offer_helper_why,
	.kfunc = tc_kfunc,
	.action_name = tc_action_name,
	.abort_ret = TC_ACT_SHOT,
	.ld_abs = hr_skb_ld_abs_fns,
};
