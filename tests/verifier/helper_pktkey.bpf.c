/* A map key taken straight from the packet before checking the packet
 * holds the whole key. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} bl SEC(".maps");

SEC("xdp") int bad_helper_pktkey(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if (data + 2 > end)
		return XDP_DROP;
	return bpf_map_lookup_elem(&bl, data) ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_helper_pktkey(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if (data + 4 > end)
		return XDP_DROP;
	return bpf_map_lookup_elem(&bl, data) ? XDP_DROP : XDP_PASS;
}
