// SPDX-License-Identifier: MIT
/*
 * Seeds 000/003, tc side: finds sc_meta's metadata before the packet
 * (__sk_buff data_meta), checks its length (sc_meta_tc_cfg[0]), that the
 * hash in it is the skb's (taken from the same RX hint), and every
 * pattern word; sets mark = hash. Counts in sc_meta_tc_stats (SC_TC_*).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#define SC_META_MUL 0x9e3779b1u
#define SC_META_MAX_WORDS 63

#define SC_TC_SEEN 0
#define SC_TC_OK 1
#define SC_TC_BAD_LEN 2
#define SC_TC_BAD_HASH 3
#define SC_TC_BAD_PATTERN 4
#define SC_TC_BAD_TS 5

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} sc_meta_tc_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 6);
	__type(key, __u32);
	__type(value, __u64);
} sc_meta_tc_stats SEC(".maps");

static __always_inline void count(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&sc_meta_tc_stats, &key);

	if (v)
		*v += 1;
}

SEC("tc")
int sc_meta_tc(struct __sk_buff *skb)
{
	__u32 *m = (void *)(long)skb->data_meta;
	void *data = (void *)(long)skb->data;
	__u32 key = 0, *want, w, words, hash;

	count(SC_TC_SEEN);
	want = bpf_map_lookup_elem(&sc_meta_tc_cfg, &key);
	if (!want || (void *)m + *want != data || (void *)(m + 2) > data) {
		count(SC_TC_BAD_LEN);
		return TC_ACT_OK;
	}
	hash = m[0];
	skb->mark = hash;
	if (hash != skb->hash) {
		count(SC_TC_BAD_HASH);
		return TC_ACT_OK;
	}
	if ((void *)(m + 4) <= data && !m[2] && !m[3]) {
		count(SC_TC_BAD_TS);
		return TC_ACT_OK;
	}
	words = *want / 4;
	for (w = 4; w < SC_META_MAX_WORDS && w < words; w++) {
		if ((void *)(m + w + 1) > data)
			break;
		if (m[w] != (hash ^ (w * SC_META_MUL))) {
			count(SC_TC_BAD_PATTERN);
			return TC_ACT_OK;
		}
	}
	count(SC_TC_OK);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
