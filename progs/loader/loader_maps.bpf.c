// SPDX-License-Identifier: MIT
/* BTF-defined maps and global data in .data, .rodata and .bss. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} counts SEC(".maps");

struct flow {
	__u32 saddr;
	__u32 daddr;
	__u16 sport;
	__u16 dport;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct flow);
	__type(value, __u32);
	__uint(max_entries, 128);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} flows SEC(".maps");

__u64 seen = 7;
const volatile __u32 verdict = XDP_PASS;
__u32 zeroed;

SEC("xdp")
int maps(struct xdp_md *ctx)
{
	__u32 key = 1;
	__u64 *v;
	struct flow f = {};

	v = bpf_map_lookup_elem(&counts, &key);
	if (v)
		__sync_fetch_and_add(v, 1);
	f.saddr = ctx->ingress_ifindex;
	if (!bpf_map_lookup_elem(&flows, &f))
		zeroed++;
	seen++;
	return verdict;
}

char _license[] SEC("license") = "GPL";
