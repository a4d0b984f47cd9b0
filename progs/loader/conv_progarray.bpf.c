// SPDX-License-Identifier: MIT
/* A program array filled at load (__array(values, int (void *))), as
 * libbpf fills it once the programs are loaded: tail calls by the first
 * packet byte. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* Tail called with the caller's packet: PASS when it is long enough. */
SEC("xdp")
int tail_pass(struct xdp_md *ctx)
{
	return ctx->data_end - ctx->data >= 32 ? XDP_PASS : XDP_ABORTED;
}

/* TX when the caller's first byte is the slot it was filled into. */
SEC("xdp")
int tail_tx(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;

	if ((void *)(data + 1) > (void *)(long)ctx->data_end)
		return XDP_ABORTED;
	return data[0] == 2 ? XDP_TX : XDP_ABORTED;
}

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, int(void *));
} jump SEC(".maps") = {
	.values = { [0] = (void *)&tail_pass, [2] = (void *)&tail_tx },
};

/* A program headroom does not run, in an array of its own: the kernel
 * fills the slot, headroom leaves it empty and still loads the rest. */
SEC("kprobe/do_nothing")
int probe_slot(void *ctx)
{
	return 0;
}

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, int(void *));
} probes SEC(".maps") = {
	.values = { [0] = (void *)&probe_slot },
};

/* Slot = first packet byte; DROP when the slot is empty. */
SEC("xdp")
int conv_progarray(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if ((void *)(data + 1) > end)
		return XDP_ABORTED;
	bpf_tail_call(ctx, &jump, data[0]);
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
