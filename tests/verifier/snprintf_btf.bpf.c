/* bpf_snprintf_btf's output size is ARG_CONST_SIZE (kernel/trace/
 * bpf_trace.c): a size that may be 0 is refused at load; from 1 up the
 * program loads, its output buffer left uninitialized (MEM_WRITE). */
#include "v.h"

SEC("xdp") int bad_snprintf_btf_zero(struct xdp_md *ctx)
{
	struct btf_ptr p = { .ptr = ctx, .type_id = 1 };
	__u32 size = ctx->rx_queue_index & 15;
	char out[16];

	return bpf_snprintf_btf(out, size, &p, sizeof(p), 0) > 0;
}

SEC("xdp") int ok_snprintf_btf_zero(struct xdp_md *ctx)
{
	struct btf_ptr p = { .ptr = ctx, .type_id = 1 };
	__u32 size = (ctx->rx_queue_index & 15) + 1;
	char out[16];

	return bpf_snprintf_btf(out, size, &p, sizeof(p), 0) > 0;
}
