// SPDX-License-Identifier: MIT
/*
 * The helpers whose bpf_func_proto predict.c reads from this table
 * (net/core/filter.c, kernel/bpf/helpers.c, kernel/bpf/ringbuf.c,
 * kernel/trace/bpf_trace.c of 6.18): their argument kinds in order, what
 * they return, whether they move skb data (bpf_helper_changes_pkt_data,
 * which clear_all_pkt_pointers follows) and which maps they take. A
 * helper with no row here is not followed and leaves the verdict unknown.
 */
#include <stddef.h>

#include <linux/bpf.h>

#include "check/protos.h"

#define A(k) HR_ARG_##k
#define MT(t) (1ull << BPF_MAP_TYPE_##t)

static const struct hr_proto protos[] = {
	{ .id = BPF_FUNC_skb_store_bytes,
	  .arg = { A(CTX), A(ANY), A(MEM_RO), A(SIZE), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .changes_pkt = true },
	{ .id = BPF_FUNC_l3_csum_replace,
	  .arg = { A(CTX), A(ANY), A(ANY), A(ANY), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .changes_pkt = true },
	{ .id = BPF_FUNC_l4_csum_replace,
	  .arg = { A(CTX), A(ANY), A(ANY), A(ANY), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .changes_pkt = true },
	{ .id = BPF_FUNC_clone_redirect,
	  .arg = { A(CTX), A(ANY), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .changes_pkt = true },
	{ .id = BPF_FUNC_skb_vlan_push,
	  .arg = { A(CTX), A(ANY), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .changes_pkt = true },
	{ .id = BPF_FUNC_skb_vlan_pop,
	  .arg = { A(CTX) },
	  .ret = HR_RET_INTEGER,
	  .changes_pkt = true },
	{ .id = BPF_FUNC_perf_event_output,
	  .arg = { A(CTX), A(MAP), A(ANY), A(MEM_RO), A(SIZE0) },
	  .ret = HR_RET_INTEGER,
	  .gpl_only = true,
	  .map_types = MT(PERF_EVENT_ARRAY) },
	{ .id = BPF_FUNC_csum_diff,
	  .arg = { A(MEM_RO_NULL), A(SIZE0), A(MEM_RO_NULL), A(SIZE0), A(ANY) },
	  .ret = HR_RET_INTEGER },
	{ .id = BPF_FUNC_skb_change_proto,
	  .arg = { A(CTX), A(ANY), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .changes_pkt = true },
	{ .id = BPF_FUNC_get_hash_recalc,
	  .arg = { A(CTX) },
	  .ret = HR_RET_INTEGER },
	{ .id = BPF_FUNC_skb_change_tail,
	  .arg = { A(CTX), A(ANY), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .changes_pkt = true },
	{ .id = BPF_FUNC_skb_pull_data,
	  .arg = { A(CTX), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .changes_pkt = true },
	{ .id = BPF_FUNC_skb_change_head,
	  .arg = { A(CTX), A(ANY), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .changes_pkt = true },
	{ .id = BPF_FUNC_skb_adjust_room,
	  .arg = { A(CTX), A(ANY), A(ANY), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .changes_pkt = true },
	{ .id = BPF_FUNC_fib_lookup,
	  .arg = { A(CTX), A(MEM_W), A(SIZE), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .gpl_only = true },
	{ .id = BPF_FUNC_map_push_elem,
	  .arg = { A(MAP), A(MAP_VALUE), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .map_types = MT(QUEUE) | MT(STACK) },
	{ .id = BPF_FUNC_map_pop_elem,
	  .arg = { A(MAP), A(MAP_VALUE_W) },
	  .ret = HR_RET_INTEGER,
	  .map_types = MT(QUEUE) | MT(STACK) },
	{ .id = BPF_FUNC_map_peek_elem,
	  .arg = { A(MAP), A(MAP_VALUE_W) },
	  .ret = HR_RET_INTEGER,
	  .map_types = MT(QUEUE) | MT(STACK) },
	{ .id = BPF_FUNC_skb_ecn_set_ce,
	  .arg = { A(CTX) },
	  .ret = HR_RET_INTEGER },
	{ .id = BPF_FUNC_tcp_check_syncookie,
	  .arg = { A(SOCK_COMMON), A(MEM_RO), A(SIZE), A(MEM_RO), A(SIZE) },
	  .ret = HR_RET_INTEGER,
	  .gpl_only = true },
	{ .id = BPF_FUNC_set_hash_invalid,
	  .arg = { A(CTX) },
	  .ret = HR_RET_INTEGER },
	{ .id = BPF_FUNC_set_hash,
	  .arg = { A(CTX), A(ANY) },
	  .ret = HR_RET_INTEGER },
	{ .id = BPF_FUNC_tcp_gen_syncookie,
	  .arg = { A(SOCK_COMMON), A(MEM_RO), A(SIZE), A(MEM_RO), A(SIZE) },
	  .ret = HR_RET_INTEGER,
	  .gpl_only = true },
	{ .id = BPF_FUNC_ringbuf_output,
	  .arg = { A(MAP), A(MEM_RO), A(SIZE0), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .map_types = MT(RINGBUF) },
	{ .id = BPF_FUNC_ringbuf_query,
	  .arg = { A(MAP), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .map_types = MT(RINGBUF) },
	{ .id = BPF_FUNC_strncmp,
	  .arg = { A(MEM_RO), A(SIZE), A(CONST_STR) },
	  .ret = HR_RET_INTEGER },
	{ .id = BPF_FUNC_redirect_neigh,
	  .arg = { A(ANY), A(MEM_RO_NULL), A(SIZE0), A(ANY) },
	  .ret = HR_RET_INTEGER },
	{ .id = BPF_FUNC_redirect_peer,
	  .arg = { A(ANY), A(ANY) },
	  .ret = HR_RET_INTEGER },
	{ .id = BPF_FUNC_check_mtu,
	  .arg = { A(CTX), A(ANY), A(FIXED4_W), A(ANY), A(ANY) },
	  .ret = HR_RET_INTEGER,
	  .gpl_only = true },
	{ .id = BPF_FUNC_trace_vprintk,
	  .arg = { A(MEM_RO), A(SIZE), A(MEM_RO_NULL), A(SIZE0) },
	  .ret = HR_RET_INTEGER,
	  .gpl_only = true },
};

const struct hr_proto *hr_proto_find(int id)
{
	size_t i;

	for (i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (protos[i].id == id)
			return &protos[i];
	return NULL;
}
