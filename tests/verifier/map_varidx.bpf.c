/* A map value indexed by a packet byte with no bound. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[16]);
} tbl SEC(".maps");

SEC("xdp") int bad_map_varidx(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 k = 0;
	__u64 *v;

	if ((void *)(data + 1) > end)
		return XDP_PASS;
	v = bpf_map_lookup_elem(&tbl, &k);
	if (!v)
		return XDP_PASS;
	v[data[0]] += 1;
	return XDP_PASS;
}

SEC("xdp") int ok_map_varidx(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 k = 0;
	__u64 *v;

	if ((void *)(data + 1) > end)
		return XDP_PASS;
	v = bpf_map_lookup_elem(&tbl, &k);
	if (!v)
		return XDP_PASS;
	v[data[0] & 15] += 1;
	return XDP_PASS;
}
