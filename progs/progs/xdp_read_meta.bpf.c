// SPDX-License-Identifier: MIT
/*
 * Reads data_meta through the context and reports what it saw over the
 * start of the packet: the metadata length and its first bytes (struct
 * hr_read_meta_out).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_progs.h"

SEC("xdp")
int xdp_read_meta_prog(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u8 *meta = (void *)(long)ctx->data_meta;
	struct hr_read_meta_out *out = data;
	int i;

	if ((void *)(out + 1) > data_end)
		return XDP_DROP;
	/* A device without metadata support has data_meta past data. */
	if ((void *)meta > data)
		return XDP_ABORTED;
	out->metalen = (__u32)(data - (void *)meta);
	for (i = 0; i < (int)sizeof(out->first); i++) {
		if ((void *)(meta + i + 1) > data)
			out->first[i] = 0;
		else
			out->first[i] = meta[i];
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
