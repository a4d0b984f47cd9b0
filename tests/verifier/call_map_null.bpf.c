/* A map value looked up in a static subprogram and used without its NULL
 * test. */
#include "v.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

static __attribute__((noinline)) int bump(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&counts, &key);

	*(volatile __u64 *)v += 1;
	return 0;
}

static __attribute__((noinline)) int bump_checked(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&counts, &key);

	if (v)
		*(volatile __u64 *)v += 1;
	return 0;
}

SEC("xdp") int bad_call_map_null(struct xdp_md *ctx)
{
	return bump(ctx->ingress_ifindex) ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_call_map_null(struct xdp_md *ctx)
{
	return bump_checked(ctx->ingress_ifindex) ? XDP_DROP : XDP_PASS;
}
