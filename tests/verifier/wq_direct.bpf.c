/* A struct bpf_wq is the kfuncs' alone: no load or store may touch it
 * (check_map_access), as a bpf_timer. */
#include "v.h"
#include "hr_wq.h"

struct wval {
	struct bpf_wq w;
	__u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wval);
} wqs SEC(".maps");

SEC("xdp") int bad_wq_direct(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct wval *v = bpf_map_lookup_elem(&wqs, &k);

	if (v)
		*(volatile __u64 *)&v->w = 0;
	return XDP_PASS;
}

SEC("xdp") int ok_wq_direct(struct xdp_md *ctx)
{
	__u32 k = 0;
	struct wval *v = bpf_map_lookup_elem(&wqs, &k);

	if (v)
		*(volatile __u64 *)&v->n = 0;
	return XDP_PASS;
}
