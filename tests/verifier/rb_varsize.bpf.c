/* bpf_ringbuf_reserve with a size the verifier cannot know: the record's
 * size must be a constant. */
#include "v.h"
#include "rb.h"

SEC("xdp") int bad_rb_varsize(struct xdp_md *ctx)
{
	__u64 n = (ctx->data_end - ctx->data) & 63;
	char *r = bpf_ringbuf_reserve(&rb, n + 8, 0);

	if (!r)
		return XDP_PASS;
	r[0] = 1;
	bpf_ringbuf_submit(r, 0);
	return XDP_PASS;
}

SEC("xdp") int ok_rb_varsize(struct xdp_md *ctx)
{
	__u64 n = (ctx->data_end - ctx->data) & 63;
	char *r = bpf_ringbuf_reserve(&rb, 72, 0);

	if (!r)
		return XDP_PASS;
	r[0] = n;
	bpf_ringbuf_submit(r, 0);
	return XDP_PASS;
}
