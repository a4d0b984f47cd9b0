/* bpf_dynptr_from_mem over stack memory: check_helper_call takes only a
 * map value for it. */
#include "v.h"
#include "hr_dynptr.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[2]);
} dm_vals SEC(".maps");

SEC("xdp") int bad_dynptr_from_mem(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u64 mem[2] = {};

	bpf_dynptr_from_mem(mem, sizeof(mem), 0, &d);
	return bpf_dynptr_size(&d) ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_dynptr_from_mem(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u32 key = 0;
	__u64 *mem = bpf_map_lookup_elem(&dm_vals, &key);

	if (!mem)
		return XDP_DROP;
	bpf_dynptr_from_mem(mem, 16, 0, &d);
	return bpf_dynptr_size(&d) ? XDP_PASS : XDP_DROP;
}
