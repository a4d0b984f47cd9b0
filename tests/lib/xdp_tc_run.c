// SPDX-License-Identifier: MIT
/* XDP then tc ingress over frames, kernel veth and headroom (xdp_tc_run.h). */
#include "xdp_tc_run.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "harness.h"
#include "kernel_side.h"
#include "raw_send.h"
#include "headroom/devices.h"
#include "headroom/headroom.h"
#include "progs/prog.h"
#include "dev/pcap_file.h"

/* @r's records from the map; whether each has a run. */
static bool kread(struct bpf_object *o, const struct t_krecs *r)
{
	int fd = t_kmap(o, r->map);
	bool all = true;
	uint32_t i, seen;

	for (i = 0; i < r->n; i++) {
		uint8_t *rec = (uint8_t *)r->recs + i * r->size;

		if (bpf_map_lookup_elem(fd, &i, rec))
			memset(rec, 0, r->size);
		memcpy(&seen, rec, sizeof(seen));
		all = all && seen;
	}
	return all;
}

/* Until every record has a run (or 3 s), then a little longer for
 * stragglers. */
static void kwait(struct bpf_object *o, const struct t_krecs *r)
{
	struct timespec ts = { 0, 2000000 };
	unsigned int k;

	for (k = 0; k < 1500 && !kread(o, r); k++)
		nanosleep(&ts, NULL);
	ts.tv_nsec = 50000000;
	nanosleep(&ts, NULL);
	kread(o, r);
}

static uint32_t kframe(void *arg, unsigned int i, uint8_t *buf, uint32_t cap)
{
	const struct t_frames *f = arg;

	return cap >= T_FRAME_MAX ? f->frame(f->arg, i, buf) : 0;
}

static int ksend(const struct t_netns *ns, const struct t_frames *f)
{
	int err = t_raw_send((int)if_nametoindex(ns->veth_a), kframe, (void *)f,
			     f->n);

	CHECK(!err, "AF_PACKET send on %s: %s", ns->veth_a, strerror(-err));
	return err ? -1 : 0;
}

int t_veth_xdp_tc(const struct t_netns *ns, struct bpf_object *o,
		  const char *xdp, const char *tc, const struct t_frames *f,
		  const struct t_krecs *r)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, to, .prog_fd = t_kprog(o, tc));
	int ifb = (int)if_nametoindex(ns->veth_b);
	int rc = -1;

	if (!ifb ||
	    bpf_xdp_attach(ifb, t_kprog(o, xdp), XDP_FLAGS_DRV_MODE, NULL)) {
		CHECK(0, "kernel: native XDP %s on %s", xdp, ns->veth_b);
		return -1;
	}
	hook.ifindex = ifb;
	if (bpf_tc_hook_create(&hook)) {
		CHECK(0, "kernel: clsact on %s", ns->veth_b);
		goto out_xdp;
	}
	if (bpf_tc_attach(&hook, &to)) {
		CHECK(0, "kernel: tc ingress program %s", tc);
		goto out;
	}
	if (!ksend(ns, f)) {
		kwait(o, r);
		rc = 0;
	}
out:
	hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
	bpf_tc_hook_destroy(&hook);
out_xdp:
	bpf_xdp_detach(ifb, XDP_FLAGS_DRV_MODE, NULL);
	return rc;
}

static bool jit_state_ok(const struct hr_prog *p, enum hr_engine engine)
{
	return engine == HR_ENGINE_JIT ? p->vm.jit && !p->vm.jit_refused :
					 !p->vm.jit;
}

int t_dp_xdp_tc(enum hr_engine engine, struct hr_object *o, const char *xdp,
		const char *tc, const struct t_frames *f,
		struct hr_dev_counters *dc)
{
	HR_OPTS(hr_datapath_opts, dpo, .nworkers = 1, .engine = engine);
	char path[64];
	HR_OPTS(hr_pcap_opts, po, .path = path);
	struct hr_pcap_writer *w = NULL;
	struct hr_prog *xp = hr_object_find_prog(o, xdp);
	struct hr_prog *tp = hr_object_find_prog(o, tc);
	struct hr_dev *dev = NULL, *sink = NULL;
	struct hr_datapath *dp = NULL;
	uint8_t pkt[T_FRAME_MAX];
	unsigned int i;
	int rc = -1;

	memset(dc, 0, sizeof(*dc));
	dc->sz = sizeof(*dc);
	snprintf(path, sizeof(path), "/tmp/hr-xtr-%d.pcap", (int)getpid());
	if (!xp || !tp || hr_pcap_writer_open(path, &w)) {
		CHECK(0, "headroom: programs %s, %s or %s", xdp, tc, path);
		return -1;
	}
	for (i = 0; i < f->n; i++)
		hr_pcap_writer_write(w, pkt, f->frame(f->arg, i, pkt));
	hr_pcap_writer_close(w);
	if (hr_dp_create(&dpo, &dp) ||
	    hr_dev_pcap_create(dp, "xtr0", &po, &dev) ||
	    hr_dev_sink_create(dp, "xtrs", NULL, &sink)) {
		CHECK(0, "headroom: datapath and devices");
		goto out;
	}
	hr_dev_attach_xdp(dev, xp);
	hr_dev_attach_tc(dev, tp);
	hr_dev_set_stack(dev, sink);
	CHECK_EQ(hr_dp_assign_queue(dp, dev, 0, 0), 0);
	CHECK_EQ(hr_dev_open(sink), 0);
	CHECK_EQ(hr_dev_open(dev), 0);
	CHECK_EQ(hr_dp_run_until_idle(dp, 10000), 0);
	hr_dev_get_counters(dev, dc);
	CHECK_EQ(dc->rx_packets, f->n);
	CHECK(jit_state_ok(xp, engine) && jit_state_ok(tp, engine),
	      "programs ran under engine %d", (int)engine);
	rc = 0;
out:
	hr_dp_destroy(dp);
	unlink(path);
	return rc;
}
