// SPDX-License-Identifier: MIT
/*
 * The kernel-side program of headroom's afxdp device (src/dev/afxdp.c):
 * reads the RX hints the driver has for the packet through the metadata
 * kfuncs, writes them with each kfunc's verdict in front of the frame
 * (struct hr_afxdp_meta) and redirects the frame to the AF_XDP socket of
 * its RX queue, as the kernel's xdp_hw_metadata selftest does.
 *
 * xsk_hints calls the kfuncs, so it must be loaded bound to the device
 * (prog_ifindex); xsk_plain is the same without them, for drivers where a
 * bound program cannot load: every hint is then -EOPNOTSUPP. Some kernels
 * refuse bpf_xdp_adjust_meta to XDP programs (a sandboxed 6.18 build
 * does) but not bpf_xdp_adjust_head: xsk_hints_head then puts the same
 * block at the start of the packet itself, and headroom takes it off
 * before anyone sees the frame. xsk_bare writes nothing, for users who
 * want no hints. Only one of them is loaded.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_rx_kfuncs.h"
#include "../../src/dev/afxdp_meta.h"

#define EOPNOTSUPP 95

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u32);
} xsks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, HR_AFXDP_CNT__MAX);
	__type(key, __u32);
	__type(value, __u64);
} xsk_counts SEC(".maps");

static __always_inline void count(__u32 key)
{
	__u64 *c = bpf_map_lookup_elem(&xsk_counts, &key);

	if (c)
		(*c)++;
}

static __always_inline int redirect(struct xdp_md *ctx)
{
	int ret = bpf_redirect_map(&xsks, ctx->rx_queue_index, XDP_PASS);

	count(ret == XDP_REDIRECT ? HR_AFXDP_CNT_REDIRECT :
				    HR_AFXDP_CNT_NO_SOCKET);
	return ret;
}

static __always_inline int to_socket(struct xdp_md *ctx,
				     const struct hr_afxdp_meta *h)
{
	struct hr_afxdp_meta *m;

	if (bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m))) {
		count(HR_AFXDP_CNT_META_ERR);
		return XDP_PASS;
	}
	m = (void *)(long)ctx->data_meta;
	if ((void *)(m + 1) > (void *)(long)ctx->data) {
		count(HR_AFXDP_CNT_META_ERR);
		return XDP_PASS;
	}
	*m = *h;
	return redirect(ctx);
}

/* The block in front of the packet's own bytes. A frame that does not
 * reach a socket goes to the stack as it came. */
static __always_inline int to_socket_head(struct xdp_md *ctx,
					  const struct hr_afxdp_meta *h)
{
	struct hr_afxdp_meta *m;
	int ret;

	if (bpf_xdp_adjust_head(ctx, -(int)sizeof(*m))) {
		count(HR_AFXDP_CNT_META_ERR);
		return XDP_PASS;
	}
	m = (void *)(long)ctx->data;
	if ((void *)(m + 1) > (void *)(long)ctx->data_end) {
		count(HR_AFXDP_CNT_META_ERR);
		return XDP_DROP; /* cannot happen: adjust_head made the room */
	}
	*m = *h;
	ret = redirect(ctx);
	if (ret != XDP_REDIRECT && bpf_xdp_adjust_head(ctx, (int)sizeof(*m)))
		return XDP_DROP;
	return ret;
}

static __always_inline void read_hints(struct xdp_md *ctx,
				       struct hr_afxdp_meta *h)
{
	enum xdp_rss_hash_type type = 0;
	__be16 proto = 0;

	h->ret_ts = (__s16)bpf_xdp_metadata_rx_timestamp(ctx, &h->timestamp);
	h->ret_hash = (__s16)bpf_xdp_metadata_rx_hash(ctx, &h->hash, &type);
	h->hash_type = type;
	h->ret_vlan =
		(__s16)bpf_xdp_metadata_rx_vlan_tag(ctx, &proto, &h->vlan_tci);
	h->vlan_proto = proto;
}

SEC("xdp")
int xsk_hints(struct xdp_md *ctx)
{
	struct hr_afxdp_meta h = { .magic = HR_AFXDP_META_MAGIC };

	read_hints(ctx, &h);
	return to_socket(ctx, &h);
}

SEC("xdp")
int xsk_hints_head(struct xdp_md *ctx)
{
	struct hr_afxdp_meta h = { .magic = HR_AFXDP_META_MAGIC };

	read_hints(ctx, &h);
	return to_socket_head(ctx, &h);
}

SEC("xdp")
int xsk_plain(struct xdp_md *ctx)
{
	struct hr_afxdp_meta h = {
		.magic = HR_AFXDP_META_MAGIC,
		.ret_ts = -EOPNOTSUPP,
		.ret_hash = -EOPNOTSUPP,
		.ret_vlan = -EOPNOTSUPP,
	};

	return to_socket(ctx, &h);
}

SEC("xdp")
int xsk_bare(struct xdp_md *ctx)
{
	return redirect(ctx);
}

char _license[] SEC("license") = "GPL";
