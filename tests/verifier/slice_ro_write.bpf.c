/* A store through a bpf_dynptr_slice slice (read-only memory); the twin
 * writes the byte back with bpf_dynptr_write. */
#include "v.h"
#include "hr_dynptr.h"

SEC("xdp") int bad_slice_ro_write(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u8 buf[20], *ip;

	bpf_dynptr_from_xdp(ctx, 0, &d);
	ip = bpf_dynptr_slice(&d, 14, buf, sizeof(buf));
	if (!ip)
		return XDP_DROP;
	ip[8] = 64;
	return XDP_TX;
}

SEC("xdp") int ok_slice_ro_write(struct xdp_md *ctx)
{
	struct bpf_dynptr d;
	__u8 buf[20], *ip, ttl = 64;

	bpf_dynptr_from_xdp(ctx, 0, &d);
	ip = bpf_dynptr_slice(&d, 14, buf, sizeof(buf));
	if (!ip)
		return XDP_DROP;
	bpf_dynptr_write(&d, 14 + 8, &ttl, 1, 0);
	return XDP_TX;
}
