/* bpf_snprintf's format is checked at load against the data's size
 * (check_bpf_snprintf_call): more conversions than u64s given, or a
 * conversion the kernel does not format, is refused. */
#include "v.h"

static const char two[] = "%d %d";
static const char spec[] = "%q";
static const char one[] = "%d %pI4 %%";

SEC("xdp") int bad_snprintf_fmt(struct xdp_md *ctx)
{
	char out[16];
	__u64 args[1] = { ctx->rx_queue_index };

	return bpf_snprintf(out, sizeof(out), two, args, sizeof(args)) > 0;
}

SEC("xdp") int bad_snprintf_fmt_spec(struct xdp_md *ctx)
{
	char out[16];
	__u64 args[1] = { ctx->rx_queue_index };

	return bpf_snprintf(out, sizeof(out), spec, args, sizeof(args)) > 0;
}

SEC("xdp") int ok_snprintf_fmt(struct xdp_md *ctx)
{
	char out[32];
	__u64 args[2] = { ctx->rx_queue_index, 0 };

	return bpf_snprintf(out, sizeof(out), one, args, sizeof(args)) > 0;
}
