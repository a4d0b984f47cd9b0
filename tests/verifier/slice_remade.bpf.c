/* A bpf_dynptr_data slice used after its dynptr was made again over the
 * same bytes: destroy_if_dynptr_stack_slot invalidated the old dynptr's
 * slices (making one over an unreferenced one is itself allowed). The
 * twin takes the slice of the new one. */
#include "v.h"
#include "hr_dynptr.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[2]);
} sr_vals SEC(".maps");

SEC("xdp") int bad_slice_remade(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u32 key = 0;
	__u64 *mem = bpf_map_lookup_elem(&sr_vals, &key), *p;

	if (!mem)
		return XDP_DROP;
	bpf_dynptr_from_mem(mem, 16, 0, &d);
	p = bpf_dynptr_data(&d, 0, 8);
	if (!p)
		return XDP_DROP;
	bpf_dynptr_from_mem(mem, 16, 0, &d);
	return *p ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_slice_remade(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u32 key = 0;
	__u64 *mem = bpf_map_lookup_elem(&sr_vals, &key), *p;

	if (!mem)
		return XDP_DROP;
	bpf_dynptr_from_mem(mem, 16, 0, &d);
	bpf_dynptr_from_mem(mem, 16, 0, &d);
	p = bpf_dynptr_data(&d, 0, 8);
	if (!p)
		return XDP_DROP;
	return *p ? XDP_PASS : XDP_DROP;
}
