// SPDX-License-Identifier: MIT
/* BPF_PROG_TEST_RUN for XDP programs (bpf_prog_test_run_xdp). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "progs/prog.h"
#include "progs/ctx.h"
#include "progs/test_run_priv.h"
#include "core/pool.h"

static void xdp_sync(void *priv, struct hr_run *run)
{
	hr_xdp_ctx_sync(priv, run);
	hr_xdp_ctx_hints(priv, run);
}

/* The public hints into the layout the kfuncs and the JIT read. */
static void test_hints(struct hr_rx_hints *d, const struct hr_test_hints *h)
{
	_Static_assert(HR_TEST_HINT_TIMESTAMP == HR_RX_HINT_TIMESTAMP &&
			       HR_TEST_HINT_HASH == HR_RX_HINT_HASH &&
			       HR_TEST_HINT_VLAN == HR_RX_HINT_VLAN,
		       "hint bits");
	memset(d, 0, sizeof(*d));
	d->timestamp = h->timestamp;
	d->hash = h->hash;
	d->hash_type = h->rss_type;
	d->vlan_proto = h->vlan_proto;
	d->vlan_tci = h->vlan_tci;
	d->present = h->present & HR_RX_HINTS_ALL;
	d->supported = h->supported & HR_RX_HINTS_ALL;
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

/* Fragments for what does not fit the linear part, a frame each. */
static int add_frags(struct hr_xdp_buff *xdp, const uint8_t *in, uint32_t off,
		     uint32_t total)
{
	struct hr_xdp_shinfo *sinfo = hr_xdp_shinfo(xdp);

	sinfo->nr_frags = 0;
	sinfo->frags_size = 0;
	while (off < total) {
		uint32_t len = total - off;
		struct hr_xdp_frag *frag;
		uint8_t *page;

		if (sinfo->nr_frags == HR_MAX_SKB_FRAGS)
			return -ENOMEM;
		page = hr_test_frame();
		if (!page)
			return -ENOMEM;
		if (len > HR_FRAME_SIZE)
			len = HR_FRAME_SIZE;
		/* Flagged at once, so a failure later frees what is here. */
		xdp->flags |= HR_XDP_FLAGS_HAS_FRAGS;
		frag = &sinfo->frags[sinfo->nr_frags++];
		frag->addr = page;
		frag->size = len;
		frag->off = 0;
		memcpy(page, in + off, len);
		sinfo->frags_size += len;
		off += len;
	}
	return 0;
}

static void free_frags(struct hr_xdp_buff *xdp)
{
	struct hr_xdp_shinfo *sinfo = hr_xdp_shinfo(xdp);
	uint32_t i;

	if (!hr_xdp_has_frags(xdp))
		return;
	for (i = 0; i < sinfo->nr_frags; i++)
		hr_test_frame_put(sinfo->frags[i].addr);
	sinfo->nr_frags = 0;
}

/* bpf_test_finish with fragments: the linear part, then each fragment,
 * as far as a non-zero size hint allows. */
static int finish_frags(struct hr_test_run_opts *o, struct hr_xdp_buff *xdp,
			uint32_t retval, uint32_t duration)
{
	struct hr_xdp_shinfo *sinfo = hr_xdp_shinfo(xdp);
	uint32_t lin = (uint32_t)((uint8_t *)xdp->data_end -
				  (uint8_t *)xdp->data_meta);
	uint32_t size = lin + sinfo->frags_size, copy = size, off, i;
	int err = 0;

	if (o->data_size_out && copy > o->data_size_out) {
		copy = o->data_size_out;
		err = -ENOSPC;
	}
	if (o->data_out) {
		if (copy < sinfo->frags_size)
			return -ENOSPC; /* nothing reported, as the kernel */
		off = copy - sinfo->frags_size;
		memcpy(o->data_out, xdp->data_meta, off);
		for (i = 0; i < sinfo->nr_frags; i++) {
			uint32_t n = sinfo->frags[i].size;

			if (off >= copy) {
				err = -ENOSPC;
				break;
			}
			if (n > copy - off)
				n = copy - off;
			memcpy((uint8_t *)o->data_out + off,
			       hr_xdp_frag_data(&sinfo->frags[i]), n);
			off += n;
		}
	}
	o->data_size_out = size;
	o->retval = retval;
	o->duration = duration;
	return err;
}

int hr_xdp_test_run(struct hr_prog *prog, struct hr_test_run_opts *o)
{
	uint32_t headroom = HR_XDP_PACKET_HEADROOM, meta_sz = 0;
	uint32_t linear = o->data_size_in, max_sz, retval = 0, duration = 0;
	/* lo's queue 0, whose frag_size the test run sets to a page. */
	struct hr_rxq_info rxq = { .meta_supported = true,
				   .frag_size = HR_FRAME_SIZE };
	struct hr_rx_hints hints;
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
		/* No user data may come before the metadata; data_end is the
		 * end of the linear part, the rest goes to fragments. */
		if (md.data_meta || md.data_end > o->data_size_in ||
		    md.data > md.data_end)
			return -EINVAL;
		meta_sz = md.data;
		if (hr_xdp_metalen_invalid(meta_sz) ||
		    meta_sz > headroom - sizeof(struct hr_xdp_frame))
			return -EINVAL;
		headroom -= meta_sz;
		linear = md.data_end;
	}
	max_sz = HR_FRAME_SIZE - headroom - HR_SKB_SHINFO_SIZE;
	if (linear > max_sz)
		linear = max_sz;
	if (o->data_size_in - meta_sz < HR_ETH_HLEN || !o->data_in)
		return -EINVAL;

	frame = hr_test_frame();
	if (!frame)
		return -ENOMEM;
	/* The kernel's buffer is kzalloc()ed: head and tail read as zero. */
	memset(frame, 0, HR_FRAME_SIZE);
	memcpy((uint8_t *)frame + headroom, o->data_in, linear);
	hr_xdp_init_buff(&xdp, HR_FRAME_SIZE, &rxq);
	hr_xdp_prepare_buff(&xdp, frame, headroom, linear, true);
	xdp.hints = NULL;
	if (HR_OPTS_GET(o, hints, NULL)) {
		/* Hints given: bound to a device whose driver has the kfuncs
		 * in @supported, reporting this packet's. */
		test_hints(&hints, o->hints);
		rxq.meta_ops = &hr_xdp_std_meta_ops;
		xdp.hints = &hints;
	}
	ret = xdp_md_to_buff(&md, &xdp, &rxq);
	if (ret)
		goto out;
	ret = add_frags(&xdp, o->data_in, linear, o->data_size_in);
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
	if (!ret && run->abort)
		hr_test_access_fill(prog, run, (uintptr_t)xdp.data, o);
	free(run);
	if (ret)
		goto out;

	/* xdp_convert_buff_to_md */
	md.data = (uint32_t)((uint8_t *)xdp.data - (uint8_t *)xdp.data_meta);
	md.data_end =
		(uint32_t)((uint8_t *)xdp.data_end - (uint8_t *)xdp.data_meta);
	if (hr_xdp_has_frags(&xdp))
		ret = finish_frags(o, &xdp, retval, duration);
	else
		ret = hr_test_finish(o, xdp.data_meta,
				     (uint32_t)((uint8_t *)xdp.data_end -
						(uint8_t *)xdp.data_meta),
				     retval, duration);
	if (!ret && have_ctx)
		ret = hr_ctx_finish(o, &md, sizeof(md));
out:
	free_frags(&xdp);
	hr_test_frame_put(frame);
	return ret;
}
