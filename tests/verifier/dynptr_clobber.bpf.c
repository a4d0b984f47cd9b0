/* A store into half of a dynptr's 16 bytes destroys it (both slots):
 * bpf_dynptr_size then has no initialized dynptr. The twin stores next
 * to it. */
#include "v.h"
#include "hr_dynptr.h"

SEC("xdp") int bad_dynptr_clobber(struct xdp_md *ctx)
{
	struct {
		struct bpf_dynptr d;
		__u32 x[2];
	} s;

	bpf_dynptr_from_xdp(ctx, 0, &s.d);
	*(volatile __u32 *)((char *)&s.d + 8) = 1;
	return bpf_dynptr_size(&s.d) > 64 ? XDP_PASS : XDP_DROP;
}

SEC("xdp") int ok_dynptr_clobber(struct xdp_md *ctx)
{
	struct {
		struct bpf_dynptr d;
		__u32 x[2];
	} s;

	bpf_dynptr_from_xdp(ctx, 0, &s.d);
	*(volatile __u32 *)&s.x[0] = 1;
	return bpf_dynptr_size(&s.d) > 64 ? XDP_PASS : XDP_DROP;
}
