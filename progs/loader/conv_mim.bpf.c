// SPDX-License-Identifier: MIT
/* Map-in-map with initial values (__array(values, ...)). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct inner {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
};

struct inner inner_a SEC(".maps"), inner_b SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, struct inner);
} outer SEC(".maps") = {
	.values = { [0] = &inner_a, [2] = &inner_b },
};

/* Declared with 'values' but none filled: libbpf asks 4-byte keys only
 * of a hash of maps whose slots it fills (Katran's vip_to_down_reals_map
 * keys by a struct). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__uint(max_entries, 4);
	__type(
		key, struct {
			__u32 addr[4];
			__u16 port;
			__u8 proto;
		});
	__array(values, struct inner);
} by_struct SEC(".maps");

/* Slot = first packet byte; returns the slot's inner value, or DROP. */
SEC("xdp")
int conv_mim(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 slot, zero = 0, *v;
	void *in;

	if ((void *)(data + 1) > end)
		return XDP_ABORTED;
	slot = data[0];
	in = bpf_map_lookup_elem(&outer, &slot);
	if (!in)
		return XDP_DROP;
	v = bpf_map_lookup_elem(in, &zero);
	if (!v)
		return XDP_ABORTED;
	if (!*v)
		*v = slot == 0 ? XDP_PASS : XDP_TX;
	return *v;
}

char _license[] SEC("license") = "GPL";
