// SPDX-License-Identifier: MIT
/* The XDP program type: struct xdp_md, its helpers and its verdicts. */
#include <stddef.h>
#include <linux/bpf.h>

#include "helpers/helpers.h"

/* net/core/filter.c xdp_is_valid_access: aligned 4-byte reads only, no
 * writes, egress_ifindex only for devmap programs. */
static bool xdp_ctx_access(const struct hr_prog *prog, int off, int size,
			   bool write)
{
	if (off < 0 || off >= (int)sizeof(struct xdp_md))
		return false;
	if (off == offsetof(struct xdp_md, egress_ifindex) &&
	    (!prog || prog->expected_attach != HR_ATTACH_XDP_DEVMAP))
		return false;
	if (write)
		return false;
	return size == 4 && off % 4 == 0;
}

static const struct hr_helper *const xdp_helpers[] = {
	&hr_helper_csum_diff,
	&hr_helper_xdp_adjust_head,
	&hr_helper_xdp_adjust_meta,
	&hr_helper_xdp_adjust_tail,
	&hr_helper_xdp_get_buff_len,
	&hr_helper_xdp_load_bytes,
	&hr_helper_xdp_store_bytes,
	&hr_helper_xdp_check_mtu,
	&hr_helper_redirect,
	&hr_helper_redirect_map,
	&hr_helper_xdp_event_output,
	&hr_helper_dynptr_read,
	&hr_helper_dynptr_write,
	&hr_helper_dynptr_from_mem,
	&hr_helper_dynptr_data,
	&hr_helper_xdp_fib_lookup,
	&hr_helper_sk_lookup_tcp,
	&hr_helper_sk_lookup_udp,
	&hr_helper_sk_release,
	&hr_helper_skc_lookup_tcp,
	&hr_helper_tcp_check_syncookie,
	&hr_helper_tcp_gen_syncookie,
	&hr_helper_tcp_raw_gen_syncookie_ipv4,
	&hr_helper_tcp_raw_gen_syncookie_ipv6,
	&hr_helper_tcp_raw_check_syncookie_ipv4,
	&hr_helper_tcp_raw_check_syncookie_ipv6,
	NULL,
};

static const struct hr_helper *xdp_helper(int id)
{
	const struct hr_helper *h = hr_helper_find(xdp_helpers, id);

	return h ? h : hr_helper_find(hr_base_helpers, id);
}

static const struct hr_kfunc *const xdp_kfuncs[] = {
	&hr_kfunc_xdp_metadata_rx_timestamp, &hr_kfunc_xdp_metadata_rx_hash,
	&hr_kfunc_xdp_metadata_rx_vlan_tag,  &hr_kfunc_xdp_pull_data,
	&hr_kfunc_dynptr_from_xdp,	     &hr_kfunc_dynptr_slice,
	&hr_kfunc_dynptr_slice_rdwr,	     NULL,
};

static const struct hr_kfunc *xdp_kfunc(const char *name)
{
	const struct hr_kfunc *k = hr_kfunc_find(xdp_kfuncs, name);

	if (!k)
		k = hr_kfunc_find(hr_ct_kfuncs, name);
	return k ? k : hr_kfunc_find(hr_common_kfuncs, name);
}

static const char *xdp_action_name(uint64_t ret)
{
	static const char *const names[] = {
		"XDP_ABORTED", "XDP_DROP", "XDP_PASS", "XDP_TX", "XDP_REDIRECT",
	};

	return ret < sizeof(names) / sizeof(names[0]) ? names[ret] : NULL;
}

const struct hr_prog_type hr_prog_type_xdp = {
	.name = "xdp",
	.kernel_type = HR_KPROG_XDP,
	.ctx_size = sizeof(struct xdp_md),
	.ctx_access = xdp_ctx_access,
	.helper = xdp_helper,
	.helper_why = hr_offer_helper_why,
	.kfunc = xdp_kfunc,
	.action_name = xdp_action_name,
	.abort_ret = XDP_ABORTED,
};
