// SPDX-License-Identifier: MIT
/*
 * CO-RE over packet headers, as vmlinux.h-based programs write it: local
 * ___flavor structs with preserve_access_index, laid out differently from
 * the kernel's (fields reordered), so that every offset must come from the
 * target BTF. Writes what it computed over the Ethernet addresses and
 * returns XDP_TX, so the output packet shows each relocation's value.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct ethhdr___hr {
	unsigned short h_proto; /* the kernel has it at 12 */
	unsigned char h_source[6];
	unsigned char h_dest[6];
} __attribute__((preserve_access_index));

struct iphdr___hr {
	unsigned int daddr;
	unsigned int saddr;
	unsigned char protocol;
	unsigned char ttl;
	unsigned char version : 4, ihl : 4;
	unsigned char tos;
	unsigned short tot_len;
	unsigned short id;
	unsigned short frag_off;
	unsigned short check;
	unsigned int not_in_kernel; /* no such field in struct iphdr */
} __attribute__((preserve_access_index));

struct udphdr___hr {
	unsigned short dest;
	unsigned short source;
} __attribute__((preserve_access_index));

struct no_such_type___hr {
	int x;
} __attribute__((preserve_access_index));

enum xdp_action___hr {
	XDP_PASS___hr = 7, /* 2 in the kernel */
	XDP_TX___hr = 9,
	XDP_GONE___hr = 11, /* not in the kernel */
};

SEC("xdp")
int core_fields(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr___hr *eth = data;
	struct iphdr___hr *ip = data + 14;
	unsigned char *out = data;

	if (data + 14 + 24 > end)
		return XDP_DROP;
	if (eth->h_proto != __builtin_bswap16(0x0800))
		return XDP_PASS;
	out[0] = BPF_CORE_READ_BITFIELD(ip, version);
	out[1] = BPF_CORE_READ_BITFIELD(ip, ihl);
	out[2] = ip->protocol;
	out[3] = ip->ttl;
	out[4] = bpf_core_field_offset(ip->daddr);
	out[5] = bpf_core_field_size(ip->tot_len);
	out[6] = bpf_core_field_exists(ip->not_in_kernel);
	if (bpf_core_field_exists(ip->not_in_kernel))
		out[7] = ip->not_in_kernel; /* poisoned, never reached */
	else
		out[7] = 0x5a;
	out[8] = bpf_core_type_exists(struct udphdr___hr);
	out[9] = bpf_core_type_size(struct udphdr___hr);
	out[10] = bpf_core_type_exists(struct no_such_type___hr);
	out[11] =
		bpf_core_enum_value_exists(enum xdp_action___hr, XDP_GONE___hr);
	/* daddr's low byte, read through the relocated offset. */
	out[12] = ((unsigned char *)&ip->daddr)[3];
	out[13] = __builtin_preserve_field_info(ip->ttl, BPF_FIELD_SIGNED);
	if (!bpf_core_enum_value_exists(enum xdp_action___hr, XDP_TX___hr))
		return XDP_ABORTED;
	return bpf_core_enum_value(enum xdp_action___hr, XDP_TX___hr);
}

char _license[] SEC("license") = "GPL";
