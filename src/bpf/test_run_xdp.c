// SPDX-License-Identifier: MIT
/* BPF_PROG_TEST_RUN for XDP programs (bpf_prog_test_run_xdp). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"
#include "ctx.h"
#include "test_run_priv.h"
#include "../core/pool.h"

static void xdp_sync(void *priv, struct hr_run *run)
{
	hr_xdp_ctx_sync(priv, run);
}

/* xdp_convert_md_to_buff: only lo (ifindex 1) exists for test runs. */
static int xdp_md_to_buff(const struct xdp_md *md, struct hr_xdp_buff *xdp,
			  struct hr_rxq_info *rxq)
{
	if (md->egress_ifindex)
		return -EINVAL;
	if (!md->ingress_ifindex && md->rx_queue_index)
		return -EINVAL;
	if (md->ingress_ifindex) {
		if (md->ingress_ifindex != 1)
			return -ENODEV;
		if (md->rx_queue_index >= 1)
			return -EINVAL;
	}
	rxq->ifindex = 1;
	rxq->queue_index = md->rx_queue_index;
	xdp->data = (uint8_t *)xdp->data_meta + md->data;
	return 0;
}

int hr_xdp_test_run(struct hr_prog *prog, struct hr_test_run_opts *o)
{
	uint32_t size = o->data_size_in, headroom = HR_XDP_PACKET_HEADROOM;
	uint32_t max_sz, retval = 0, duration = 0;
	struct hr_rxq_info rxq = { .meta_supported = true };
	struct hr_xdp_buff xdp;
	struct hr_xdp_ctx c;
	struct hr_run *run;
	struct xdp_md md;
	bool have_ctx;
	void *frame;
	int ret;

	if (prog->expected_attach == HR_ATTACH_XDP_DEVMAP ||
	    prog->expected_attach == HR_ATTACH_XDP_CPUMAP)
		return -EINVAL;
	ret = hr_ctx_init(o, &md, sizeof(md), &have_ctx);
	if (ret)
		return ret;
	if (have_ctx) {
		/* No user data may come before the metadata. */
		if (md.data_meta || md.data_end != size ||
		    md.data > md.data_end || hr_xdp_metalen_invalid(md.data))
			return -EINVAL;
		headroom -= md.data;
	}
	max_sz = HR_FRAME_SIZE - headroom - HR_SKB_SHINFO_SIZE;
	/* Larger packets become multi-buffer in the kernel; headroom has no
	 * fragments yet, so it refuses them rather than truncating. */
	if (size > max_sz)
		return -E2BIG;
	if (size < HR_ETH_HLEN || !o->data_in)
		return -EINVAL;

	frame = hr_test_frame();
	if (!frame)
		return -ENOMEM;
	/* The kernel's buffer is kzalloc()ed: head and tail read as zero. */
	memset(frame, 0, HR_FRAME_SIZE);
	memcpy((uint8_t *)frame + headroom, o->data_in, size);
	hr_xdp_init_buff(&xdp, HR_FRAME_SIZE, &rxq);
	hr_xdp_prepare_buff(&xdp, frame, headroom, size, true);
	xdp.hints = NULL;
	ret = xdp_md_to_buff(&md, &xdp, &rxq);
	if (ret)
		goto out;

	memset(&c, 0, sizeof(c));
	c.xdp = &xdp;
	c.md.ingress_ifindex = rxq.ifindex;
	c.md.rx_queue_index = rxq.queue_index;
	run = malloc(sizeof(*run));
	if (!run) {
		ret = -ENOMEM;
		goto out;
	}
	run->ctx = &c.md;
	ret = hr_run_repeat(prog, run, o, &retval, &duration, xdp_sync, &c);
	free(run);
	if (ret)
		goto out;

	/* xdp_convert_buff_to_md */
	md.data = (uint32_t)((uint8_t *)xdp.data - (uint8_t *)xdp.data_meta);
	md.data_end =
		(uint32_t)((uint8_t *)xdp.data_end - (uint8_t *)xdp.data_meta);
	ret = hr_test_finish(o, xdp.data_meta,
			  (uint32_t)((uint8_t *)xdp.data_end -
				     (uint8_t *)xdp.data_meta),
			  retval, duration);
	if (!ret && have_ctx)
		ret = hr_ctx_finish(o, &md, sizeof(md));
out:
	hr_test_frame_put(frame);
	return ret;
}

