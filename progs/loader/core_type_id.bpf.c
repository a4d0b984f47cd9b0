// SPDX-License-Identifier: MIT
/*
 * bpf_core_type_id_local() and bpf_core_type_id_kernel(): the BTF ids of
 * types in the object's own BTF and in the target's (vmlinux), as the
 * AF_XDP hints programs of bpf-examples tag their metadata. Each id is
 * written little-endian over the packet, 4 bytes each, and the program
 * returns XDP_TX, so the output packet shows every relocated value as
 * libbpf (tools/lib/bpf/relo_core.c) computed it for the kernel's load.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct meta_rx___hr {
	unsigned long long rx_ts;
	unsigned int rx_hash;
	unsigned int btf_id;
};

typedef struct meta_rx___hr meta_rx_t;

struct iphdr___hr {
	unsigned char ttl;
} __attribute__((preserve_access_index));

struct no_such_type___hr {
	int x;
};

union meta_any {
	struct meta_rx___hr rx;
	unsigned char raw[16];
};

#define N_IDS 10

SEC("xdp")
int core_type_id(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	unsigned int *out = data;

	if (data + N_IDS * 4 > end)
		return XDP_DROP;
	out[0] = bpf_core_type_id_local(struct meta_rx___hr);
	out[1] = bpf_core_type_id_local(meta_rx_t);
	out[2] = bpf_core_type_id_local(union meta_any);
	out[3] = bpf_core_type_id_local(unsigned int);
	out[4] = bpf_core_type_id_kernel(struct iphdr___hr);
	out[5] = bpf_core_type_id_kernel(struct ethhdr);
	out[6] = bpf_core_type_id_kernel(struct no_such_type___hr);
	out[7] = bpf_core_type_id_kernel(struct xdp_md);
	out[8] = bpf_core_type_id_kernel(unsigned int);
	out[9] = bpf_core_type_id_local(struct iphdr___hr);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
