// SPDX-License-Identifier: MIT
/*
 * The afxdp device: a kernel interface's RX queues read through AF_XDP
 * sockets (libxdp's xsk API, one socket per queue), with the kernel's own
 * RX hints. A small kernel program of ours (progs/dev/xsk_hints.bpf.c),
 * loaded bound to the interface where the driver implements the metadata
 * kfuncs, writes the hints in front of each frame and redirects it to the
 * socket of its queue, as the kernel's xdp_hw_metadata selftest does; this
 * device turns them into the per-packet struct hr_rx_hints that headroom's
 * kfuncs answer from. Where the kernel refuses bpf_xdp_adjust_meta the
 * block comes as the packet's first bytes instead, and is taken off here
 * before the user's program sees the frame.
 *
 * The UMEM is the device's own frame pool: frames go from the pool to the
 * fill ring, come back through the RX ring with the packet at the usual
 * 256 bytes of headroom (XDP_PACKET_HEADROOM, UMEM frame_headroom 0), run
 * the user's XDP program and return to the pool like any frame. Frames
 * transmitted on the device go through the TX ring of the same UMEM (a
 * frame of another pool is copied into one of ours first) and back to the
 * pool from the completion ring.
 *
 * What libxdp 1.3.1 does on Linux 6.18: xsk_socket__create() would load
 * libxdp's own redirect program through its multi-program dispatcher;
 * we need our hint program there instead, so every socket is made with
 * XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD and our program is attached through
 * a bpf_link (BPF_LINK_CREATE), which the kernel detaches when the process
 * goes away, even by kill -9: nothing is left on the interface.
 */
#include <errno.h>
#include <net/if.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/xsk.h>

#include "headroom/devices.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "dev/afxdp_meta.h"
#include "dev/dev.h"
#include "dev/dev_common.h"
#include "dev/netif.h"
#include "util/print.h"

#ifndef HR_DATADIR
#define HR_DATADIR "/usr/local/share/headroom"
#endif
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL 69
#endif
#ifndef SO_BUSY_POLL_BUDGET
#define SO_BUSY_POLL_BUDGET 70
#endif

/* The system's 6.1 UAPI headers predate multi-buffer AF_XDP. */
#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD (1 << 0)
#endif

/* Bound to the device, not offloaded to it (Linux 6.3; the 6.1 UAPI
 * headers lack it): without it a program with prog_ifindex asks for
 * hardware offload, which only offload devices (netdevsim, nfp) have. */
#ifndef BPF_F_XDP_DEV_BOUND_ONLY
#define BPF_F_XDP_DEV_BOUND_ONLY (1U << 6)
#endif

#define AFXDP_POOL_DEFAULT 4096
#define AFXDP_RING_DEFAULT 2048
#define AFXDP_FRAME_MASK (~(uint64_t)(HR_FRAME_SIZE - 1))

struct afxdp_queue {
	struct xsk_socket *xsk;
	struct xsk_ring_cons rx;
	struct xsk_ring_prod tx;
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	int fd;
	/* Any worker may transmit on any queue: the TX and completion
	 * rings are taken under this lock. */
	pthread_spinlock_t tx_lock;
	uint32_t fill_want; /* frames to keep on the fill ring */
	struct hr_rx_hints desc[HR_NAPI_BUDGET];
} __attribute__((aligned(64)));

struct afxdp_priv {
	char ifname[IFNAMSIZ];
	int kifindex;
	struct xsk_umem *umem;
	uint8_t *base;
	uint64_t size;
	struct bpf_object *obj;
	struct bpf_program *kprog; /* the one loaded */
	int link_fd;
	int xskmap_fd;
	int counts_fd;
	bool bound;
	bool meta; /* the kernel program writes struct hr_afxdp_meta */
	bool meta_in_data; /* ... at the packet's start, not before it */
	bool zerocopy;
	bool need_wakeup;
	bool busy_poll;
	bool skb_mode;
	uint32_t ring_size;
	_Atomic uint64_t tx_sent, tx_completed, tx_copied, tx_dropped;
	_Atomic uint64_t rx_no_meta;
	struct afxdp_queue q[HR_DEV_MAX_QUEUES];
};

static uint64_t frame_addr(const struct afxdp_priv *p, const void *ptr)
{
	return (uint64_t)((const uint8_t *)ptr - p->base);
}

/*
 * The block the kernel program wrote for a frame of @len bytes at @data,
 * in its metadata or at the packet's start, or NULL (counted) when it is
 * not there. A block at the start is taken off the frame: @data and @len
 * then describe the packet as it arrived.
 */
static const struct hr_afxdp_meta *afxdp_block(struct afxdp_priv *p,
					       uint8_t **data, uint32_t *len,
					       uint64_t headroom)
{
	const struct hr_afxdp_meta *m;

	if (p->meta_in_data) {
		m = (const struct hr_afxdp_meta *)*data;
		if (*len < sizeof(*m) || m->magic != HR_AFXDP_META_MAGIC)
			goto none;
		*data += sizeof(*m);
		*len -= (uint32_t)sizeof(*m);
		return m;
	}
	m = (const struct hr_afxdp_meta *)(*data - sizeof(*m));
	if (headroom < sizeof(*m) || m->magic != HR_AFXDP_META_MAGIC)
		goto none;
	return m;
none:
	atomic_fetch_add_explicit(&p->rx_no_meta, 1, memory_order_relaxed);
	return NULL;
}

/* The hints of the kernel program's block @m, or "none supported" without
 * one: the bytes before the frame are then stale. */
static void afxdp_hints(struct hr_rx_hints *d, const struct hr_afxdp_meta *m)
{
	memset(d, 0, sizeof(*d));
	if (!m)
		return;
	if (m->ret_ts != -EOPNOTSUPP)
		d->supported |= HR_RX_HINT_TIMESTAMP;
	if (m->ret_hash != -EOPNOTSUPP)
		d->supported |= HR_RX_HINT_HASH;
	if (m->ret_vlan != -EOPNOTSUPP)
		d->supported |= HR_RX_HINT_VLAN;
	if (!m->ret_ts)
		d->present |= HR_RX_HINT_TIMESTAMP;
	if (!m->ret_hash)
		d->present |= HR_RX_HINT_HASH;
	if (!m->ret_vlan)
		d->present |= HR_RX_HINT_VLAN;
	d->timestamp = m->timestamp;
	d->hash = m->hash;
	d->hash_type = m->hash_type;
	d->vlan_proto = m->vlan_proto;
	d->vlan_tci = m->vlan_tci;
}

/* Keeps q->fill_want frames on the fill ring, from the device's pool. */
static void afxdp_refill(struct hr_dev *dev, struct afxdp_queue *q)
{
	struct afxdp_priv *p = dev->priv;
	void *frames[HR_NAPI_BUDGET];
	uint32_t idx, want, posted, n, i;

	/* Entries the kernel has not taken yet (refreshes the cached
	 * consumer when the ring is not all free). */
	posted = q->fill.size - xsk_prod_nb_free(&q->fill, q->fill.size);
	want = q->fill_want > posted ? q->fill_want - posted : 0;
	if (want > HR_NAPI_BUDGET)
		want = HR_NAPI_BUDGET;
	if (!want)
		return;
	n = hr_pool_get_bulk(dev->pool, frames, want);
	if (!n)
		return;
	if (xsk_ring_prod__reserve(&q->fill, n, &idx) != n) {
		hr_pool_put_bulk(dev->pool, frames, n);
		return;
	}
	for (i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(&q->fill, idx + i) =
			frame_addr(p, frames[i]);
	xsk_ring_prod__submit(&q->fill, n);
	if (p->need_wakeup && xsk_ring_prod__needs_wakeup(&q->fill))
		recvfrom(q->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
}

/* Frames the kernel has sent go back to the pool. Under q->tx_lock. */
static void afxdp_complete(struct hr_dev *dev, struct afxdp_queue *q)
{
	struct afxdp_priv *p = dev->priv;
	void *frames[HR_NAPI_BUDGET];
	uint32_t idx, n, i;

	while ((n = xsk_ring_cons__peek(&q->comp, HR_NAPI_BUDGET, &idx))) {
		for (i = 0; i < n; i++) {
			uint64_t a =
				*xsk_ring_cons__comp_addr(&q->comp, idx + i);

			frames[i] = p->base + (a & AFXDP_FRAME_MASK);
		}
		xsk_ring_cons__release(&q->comp, n);
		hr_pool_put_bulk(dev->pool, frames, n);
		atomic_fetch_add_explicit(&p->tx_completed, n,
					  memory_order_relaxed);
	}
}

static void afxdp_kick_tx(struct afxdp_priv *p, struct afxdp_queue *q)
{
	/* Copy mode sends in sendto() (xsk_generic_xmit): always kick
	 * there; zero copy only when the driver asks. */
	if (!p->need_wakeup || xsk_ring_prod__needs_wakeup(&q->tx))
		sendto(q->fd, NULL, 0, MSG_DONTWAIT, NULL, 0);
}

static int afxdp_poll(struct hr_dev *dev, struct hr_napi *napi, int budget)
{
	struct afxdp_priv *p = dev->priv;
	struct afxdp_queue *q = &p->q[napi->queue];
	uint32_t idx, n, i;

	if (pthread_spin_trylock(&q->tx_lock) == 0) {
		afxdp_complete(dev, q);
		pthread_spin_unlock(&q->tx_lock);
	}
	if (budget > HR_NAPI_BUDGET)
		budget = HR_NAPI_BUDGET;
	n = xsk_ring_cons__peek(&q->rx, (uint32_t)budget, &idx);
	for (i = 0; i < n; i++) {
		const struct xdp_desc *d =
			xsk_ring_cons__rx_desc(&q->rx, idx + i);
		uint8_t *chunk = p->base + (d->addr & AFXDP_FRAME_MASK);
		uint8_t *data = p->base + d->addr;
		uint64_t headroom = (uint64_t)(data - chunk);
		const struct hr_afxdp_meta *m = NULL;
		uint32_t len = d->len;
		struct hr_xdp_buff xdp;

		/* Multi-buffer frames are refused at creation, and our
		 * kernel program is not frags-aware, so none should come;
		 * one that does is dropped whole. */
		if (d->options & XDP_PKT_CONTD ||
		    headroom + d->len > HR_FRAME_SIZE - HR_SKB_SHINFO_SIZE) {
			hr_pool_put(dev->pool, chunk);
			continue;
		}
		if (p->meta)
			m = afxdp_block(p, &data, &len, headroom);
		afxdp_hints(&q->desc[i], m);
		headroom = (uint64_t)(data - chunk);
		hr_xdp_init_buff(&xdp, HR_FRAME_SIZE, &dev->rxq[napi->queue]);
		hr_xdp_prepare_buff(&xdp, chunk, (uint32_t)headroom, len,
				    dev->meta_supported);
		xdp.hints = &q->desc[i];
		hr_xdp_rx(napi, &xdp);
	}
	if (n)
		xsk_ring_cons__release(&q->rx, n);
	afxdp_refill(dev, q);
	return (int)n;
}

static int afxdp_xdp_xmit(struct hr_dev *dev, struct hr_worker *w,
			  struct hr_xdp_frame **frames, int n, uint32_t flags)
{
	struct afxdp_priv *p = dev->priv;
	struct afxdp_queue *q = &p->q[w->id % dev->nrxq];
	uint32_t idx, room;
	int i;

	if (flags & ~HR_XDP_XMIT_FLUSH)
		return -EINVAL;
	pthread_spin_lock(&q->tx_lock);
	afxdp_complete(dev, q);
	room = xsk_ring_prod__reserve(&q->tx, (uint32_t)n, &idx);
	for (i = 0; i < (int)room; i++) {
		struct hr_xdp_frame *f = frames[i];
		struct xdp_desc *d = xsk_ring_prod__tx_desc(&q->tx, idx + i);
		uint8_t *data = f->data;

		if (f->flags & HR_XDP_FLAGS_HAS_FRAGS)
			break;
		if (!hr_pool_owns(dev->pool, f)) {
			uint8_t *c = hr_pool_get(dev->pool);

			if (!c)
				break;
			data = c + HR_XDP_PACKET_HEADROOM;
			memcpy(data, f->data, f->len);
			atomic_fetch_add_explicit(&p->tx_copied, 1,
						  memory_order_relaxed);
		}
		d->addr = frame_addr(p, data);
		d->len = f->len;
		d->options = 0;
		/* Our own frame is the kernel's until completion. */
		if (data != f->data)
			hr_xdp_return_frame(f);
	}
	if ((uint32_t)i < room) {
		/* Nothing is visible to the kernel before submit: the
		 * slots reserved and not written are simply given back. */
		q->tx.cached_prod -= room - (uint32_t)i;
	}
	if (i)
		xsk_ring_prod__submit(&q->tx, (uint32_t)i);
	afxdp_kick_tx(p, q);
	pthread_spin_unlock(&q->tx_lock);
	atomic_fetch_add_explicit(&p->tx_sent, (uint64_t)i,
				  memory_order_relaxed);
	return i ? i : -ENOSPC;
}

/*
 * The frames the kernel still holds when a queue goes away come back to
 * the pool: posted on the fill ring and not taken, received and not
 * read, sent and completed but not reaped. (The link is gone, so nothing
 * new arrives; copy mode holds no others.)
 */
static void afxdp_reclaim(struct hr_dev *dev, struct afxdp_queue *q)
{
	struct afxdp_priv *p = dev->priv;
	uint32_t idx, n, i, cons, prod;

	if (!q->xsk)
		return;
	afxdp_complete(dev, q);
	n = xsk_ring_cons__peek(&q->rx, q->rx.size, &idx);
	for (i = 0; i < n; i++)
		hr_pool_put(
			dev->pool,
			p->base +
				(xsk_ring_cons__rx_desc(&q->rx, idx + i)->addr &
				 AFXDP_FRAME_MASK));
	if (n)
		xsk_ring_cons__release(&q->rx, n);
	cons = __atomic_load_n(q->fill.consumer, __ATOMIC_ACQUIRE);
	prod = *q->fill.producer;
	for (; cons != prod; cons++)
		hr_pool_put(dev->pool,
			    p->base +
				    (*xsk_ring_prod__fill_addr(&q->fill, cons) &
				     AFXDP_FRAME_MASK));
}

/* The kernel program and its object; the link, sockets, UMEM. */
static void afxdp_teardown(struct hr_dev *dev)
{
	struct afxdp_priv *p = dev->priv;
	unsigned int i;

	if (p->link_fd >= 0) {
		close(p->link_fd);
		p->link_fd = -1;
	}
	for (i = 0; i < HR_DEV_MAX_QUEUES; i++)
		afxdp_reclaim(dev, &p->q[i]);
	for (i = 0; i < HR_DEV_MAX_QUEUES; i++) {
		if (p->q[i].xsk)
			xsk_socket__delete(p->q[i].xsk);
		p->q[i].xsk = NULL;
	}
	if (p->umem)
		xsk_umem__delete(p->umem);
	p->umem = NULL;
	bpf_object__close(p->obj);
	p->obj = NULL;
}

static void afxdp_destroy(struct hr_dev *dev)
{
	struct afxdp_priv *p = dev->priv;
	unsigned int i;

	if (p) {
		afxdp_teardown(dev);
		for (i = 0; i < HR_DEV_MAX_QUEUES; i++)
			pthread_spin_destroy(&p->q[i].tx_lock);
		free(p);
	}
	hr_dev_common_free(dev);
}

static const struct hr_dev_ops afxdp_ops = {
	.kind = "afxdp",
	.poll = afxdp_poll,
	.xdp_xmit = afxdp_xdp_xmit,
	.destroy = afxdp_destroy,
};

static int afxdp_obj_path(const char *given, char *buf, size_t sz)
{
	const char *env = getenv("HEADROOM_DATADIR");

	if (given)
		snprintf(buf, sz, "%s", given);
	else if (env && *env)
		snprintf(buf, sz, "%s/progs/xsk_hints.o", env);
	else
		snprintf(buf, sz, "%s/progs/xsk_hints.o", HR_DATADIR);
	return access(buf, R_OK) ? -errno : 0;
}

/* The kernel programs of xsk_hints.o, from the most hints to none. */
enum afxdp_kprog {
	AFXDP_KPROG_HINTS,
	AFXDP_KPROG_HINTS_HEAD,
	AFXDP_KPROG_PLAIN,
	AFXDP_KPROG_BARE,
};

static const char *const afxdp_kprog_name[] = {
	[AFXDP_KPROG_HINTS] = "xsk_hints",
	[AFXDP_KPROG_HINTS_HEAD] = "xsk_hints_head",
	[AFXDP_KPROG_PLAIN] = "xsk_plain",
	[AFXDP_KPROG_BARE] = "xsk_bare",
};

/* What headroom has from the next program in the list when one fails. */
static const char *const afxdp_kprog_fallback[] = {
	[AFXDP_KPROG_HINTS] = "the hints come in the packet's first bytes",
	[AFXDP_KPROG_HINTS_HEAD] = "hints are -EOPNOTSUPP",
	[AFXDP_KPROG_PLAIN] = "no hints reach headroom",
};

/*
 * Opens and loads one kernel program of the object: the xsk_hints ones
 * bound to the interface (the hint kfuncs need it), the others unbound.
 * The verifier's log goes to @log, not to libbpf's printer: a refusal
 * here is expected on some kernels and its reason is one line of it.
 */
static int afxdp_load_prog(struct afxdp_priv *p, const char *path,
			   enum afxdp_kprog which, char *log, size_t log_sz)
{
	struct bpf_program *prog, *want = NULL;
	int err;

	p->obj = bpf_object__open_file(path, NULL);
	if (!p->obj)
		return -errno;
	bpf_object__for_each_program(prog, p->obj)
	{
		bool it = !strcmp(bpf_program__name(prog),
				  afxdp_kprog_name[which]);

		bpf_program__set_autoload(prog, it);
		if (it)
			want = prog;
	}
	if (!want)
		return -ENOENT;
	log[0] = '\0';
	if (bpf_program__set_log_buf(want, log, log_sz))
		return -EINVAL;
	if (which <= AFXDP_KPROG_HINTS_HEAD) {
		bpf_program__set_ifindex(want, (uint32_t)p->kifindex);
		bpf_program__set_flags(want, bpf_program__flags(want) |
						     BPF_F_XDP_DEV_BOUND_ONLY);
	}
	err = bpf_object__load(p->obj);
	if (err)
		return err;
	p->kprog = want;
	p->bound = which <= AFXDP_KPROG_HINTS_HEAD;
	p->meta = which != AFXDP_KPROG_BARE;
	p->meta_in_data = which == AFXDP_KPROG_HINTS_HEAD;
	p->xskmap_fd = bpf_object__find_map_fd_by_name(p->obj, "xsks");
	p->counts_fd = bpf_object__find_map_fd_by_name(p->obj, "xsk_counts");
	return p->xskmap_fd < 0 || p->counts_fd < 0 ? -ENOENT : 0;
}

/* The verifier's reason in its log: the last line before its summary
 * ("processed N insns ..."), or "" when it logged none. */
static void afxdp_log_reason(char *log, char *out, size_t sz)
{
	char *line, *save = NULL, *last = NULL;

	for (line = strtok_r(log, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "processed ", 10))
			break;
		last = line;
	}
	snprintf(out, sz, "%s%s", last ? ": " : "", last ? last : "");
}

/*
 * The program with the most hints the kernel takes: a generic-mode
 * program cannot be device-bound, a driver may lack the metadata kfuncs,
 * and a kernel may refuse bpf_xdp_adjust_meta (then the hints ride in the
 * packet, and a program that is not bound has none to send).
 */
static int afxdp_load_best(struct afxdp_priv *p, const char *path,
			   bool no_hints)
{
	enum afxdp_kprog which = no_hints    ? AFXDP_KPROG_BARE :
				 p->skb_mode ? AFXDP_KPROG_PLAIN :
					       AFXDP_KPROG_HINTS;
	size_t log_sz = 1 << 20;
	char *log = malloc(log_sz), why[256];
	int err;

	if (!log)
		return -ENOMEM;
	for (;; which++) {
		err = afxdp_load_prog(p, path, which, log, log_sz);
		if (!err || !p->obj)
			break;
		afxdp_log_reason(log, why, sizeof(why));
		if (which == AFXDP_KPROG_BARE) {
			hr_pr_warn("%s: the kernel refuses %s (%s)%s\n",
				   p->ifname, afxdp_kprog_name[which],
				   strerror(-err), why);
			break;
		}
		hr_pr_info("%s: the kernel refuses %s (%s)%s; %s\n", p->ifname,
			   afxdp_kprog_name[which], strerror(-err), why,
			   afxdp_kprog_fallback[which]);
		bpf_object__close(p->obj);
		p->obj = NULL;
		p->kprog = NULL;
	}
	free(log);
	return err;
}

static int afxdp_attach(struct afxdp_priv *p)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo);
	int fd;

	lo.flags = p->skb_mode ? XDP_FLAGS_SKB_MODE : XDP_FLAGS_DRV_MODE;
	fd = bpf_link_create(bpf_program__fd(p->kprog), p->kifindex, BPF_XDP,
			     &lo);
	if (fd < 0)
		return -errno;
	p->link_fd = fd;
	return 0;
}

static void afxdp_busy_poll(struct afxdp_priv *p, int fd)
{
	int one = 1, usecs = 20, budget = HR_NAPI_BUDGET;

	if (setsockopt(fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, &one,
		       sizeof(one)) ||
	    setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &usecs, sizeof(usecs)) ||
	    setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET, &budget,
		       sizeof(budget))) {
		hr_pr_warn("%s: busy polling not available (%s)\n", p->ifname,
			   strerror(errno));
		p->busy_poll = false;
	}
}

static int afxdp_socket(struct hr_dev *dev, unsigned int qi, bool zc)
{
	struct afxdp_priv *p = dev->priv;
	struct afxdp_queue *q = &p->q[qi];
	struct xsk_socket_config cfg = {
		.rx_size = p->ring_size,
		.tx_size = p->ring_size,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.bind_flags =
			(uint16_t)((zc ? XDP_ZEROCOPY : XDP_COPY) |
				   (p->need_wakeup ? XDP_USE_NEED_WAKEUP : 0)),
	};
	int err, tries = 0;

	/*
	 * A queue whose last socket was just closed stays bound for a
	 * moment: the kernel clears its buffer pool from a work item after
	 * the socket's release (xp_release_deferred), and a bind before that
	 * is -EBUSY. Two seconds cover it on a loaded machine; a queue
	 * another process holds is still -EBUSY after them.
	 */
	do {
		if (tries)
			usleep(10000);
		if (!qi)
			err = xsk_socket__create(&q->xsk, p->ifname, qi,
						 p->umem, &q->rx, &q->tx, &cfg);
		else
			err = xsk_socket__create_shared(&q->xsk, p->ifname, qi,
							p->umem, &q->rx, &q->tx,
							&q->fill, &q->comp,
							&cfg);
	} while ((err == -EBUSY || err == EBUSY) && ++tries < 200);
	if (err) {
		q->xsk = NULL;
		return err < 0 ? err : -err;
	}
	q->fd = xsk_socket__fd(q->xsk);
	return 0;
}

static int afxdp_sockets(struct hr_dev *dev, int zc_mode)
{
	struct afxdp_priv *p = dev->priv;
	struct xsk_umem_config ucfg = {
		.fill_size = p->ring_size,
		.comp_size = p->ring_size,
		.frame_size = HR_FRAME_SIZE,
		.frame_headroom = 0,
	};
	unsigned int i;
	int err;

	err = xsk_umem__create(&p->umem, p->base, p->size, &p->q[0].fill,
			       &p->q[0].comp, &ucfg);
	if (err) {
		p->umem = NULL;
		return err;
	}
	for (i = 0; i < dev->nrxq; i++) {
		/* Zero copy first unless asked for copy; the interface
		 * refuses it (veth) and we fall back, unless required. */
		err = zc_mode >= 0 ? afxdp_socket(dev, i, true) : -EOPNOTSUPP;
		if (err && zc_mode <= 0)
			err = afxdp_socket(dev, i, false);
		else if (!err)
			p->zerocopy = true;
		if (err) {
			hr_pr_warn("%s: AF_XDP socket on queue %u: %s\n",
				   p->ifname, i, strerror(-err));
			return err;
		}
		if (p->busy_poll)
			afxdp_busy_poll(p, p->q[i].fd);
		err = bpf_map_update_elem(p->xskmap_fd, &i, &p->q[i].fd, 0);
		if (err)
			return -errno;
		/* Half the pool over the queues' fill rings, the rest for
		 * frames in flight (TX, queued elsewhere). */
		p->q[i].fill_want = hr_pool_size(dev->pool) / 2 / dev->nrxq;
		if (p->q[i].fill_want > p->q[i].fill.size)
			p->q[i].fill_want = p->q[i].fill.size;
		while (xsk_prod_nb_free(&p->q[i].fill, p->q[i].fill.size) >
			       p->q[i].fill.size - p->q[i].fill_want &&
		       hr_pool_outstanding(dev->pool) < hr_pool_size(dev->pool))
			afxdp_refill(dev, &p->q[i]);
	}
	return 0;
}

int hr_dev_afxdp_create(struct hr_datapath *dp, const char *name,
			const char *ifname, const struct hr_afxdp_opts *opts,
			struct hr_dev **out)
{
	unsigned int nrxq = HR_OPTS_GET(opts, nrxq, 0);
	uint32_t frames = HR_OPTS_GET(opts, pool_frames, 0);
	uint32_t ring = HR_OPTS_GET(opts, ring_size, 0);
	int zc_mode = HR_OPTS_GET(opts, zerocopy, 0);
	char path[512];
	struct hr_dev *dev;
	struct afxdp_priv *p;
	unsigned int i;
	int err;

	if (!name || !ifname || !out || nrxq > HR_DEV_MAX_QUEUES ||
	    strlen(ifname) >= IFNAMSIZ || zc_mode < -1 || zc_mode > 1)
		return -EINVAL;
	if (ring && (ring & (ring - 1)))
		return -EINVAL;
	if (HR_OPTS_GET(opts, frags, false)) {
		hr_pr_warn("%s: multi-buffer AF_XDP frames (XDP_USE_SG) are "
			   "not supported: frames are one 4 KiB chunk\n",
			   ifname);
		return -EOPNOTSUPP;
	}
	err = afxdp_obj_path(HR_OPTS_GET(opts, kern_obj, NULL), path,
			     sizeof(path));
	if (err) {
		hr_pr_warn("%s: kernel program %s: %s\n", ifname, path,
			   strerror(-err));
		return err;
	}
	dev = calloc(1, sizeof(*dev));
	p = aligned_alloc(64, (sizeof(*p) + 63) & ~(size_t)63);
	if (!dev || !p) {
		free(dev);
		free(p);
		return -ENOMEM;
	}
	memset(p, 0, sizeof(*p));
	p->link_fd = -1;
	for (i = 0; i < HR_DEV_MAX_QUEUES; i++)
		pthread_spin_init(&p->q[i].tx_lock, PTHREAD_PROCESS_PRIVATE);
	dev->priv = p;
	snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
	p->ring_size = ring ? ring : AFXDP_RING_DEFAULT;
	p->need_wakeup = !HR_OPTS_GET(opts, no_need_wakeup, false);
	p->busy_poll = HR_OPTS_GET(opts, busy_poll, false);
	p->skb_mode = HR_OPTS_GET(opts, skb_mode, false);
	hr_dev_init(dev, name, &afxdp_ops, nrxq);
	err = hr_netif_query(ifname, &p->kifindex, &dev->mtu, dev->dev_addr);
	if (err) {
		hr_pr_warn("%s: no such interface: %s\n", ifname,
			   strerror(-err));
		goto fail;
	}
	hr_dev_common_setup(dev, true, &hr_xdp_std_meta_ops);
	err = hr_pool_create(frames ? frames : AFXDP_POOL_DEFAULT, &dev->pool);
	if (err)
		goto fail;
	p->base = hr_pool_base(dev->pool);
	p->size = (uint64_t)hr_pool_size(dev->pool) * HR_FRAME_SIZE;
	err = afxdp_load_best(p, path, HR_OPTS_GET(opts, no_hints, false));
	if (err) {
		hr_pr_warn("%s: loading %s: %s\n", ifname, path,
			   strerror(-err));
		goto fail;
	}
	err = afxdp_sockets(dev, zc_mode);
	if (err)
		goto fail;
	err = afxdp_attach(p);
	if (err) {
		hr_pr_warn("%s: attaching the XDP program (%s mode): %s%s\n",
			   ifname, p->skb_mode ? "generic" : "native",
			   strerror(-err),
			   err == -EBUSY || err == -EEXIST ?
				   " (another XDP program is attached)" :
				   "");
		goto fail;
	}
	err = hr_dev_common_register(dp, dev, 0);
	if (err)
		goto fail;
	*out = dev;
	return 0;
fail:
	afxdp_destroy(dev);
	return err;
}

static bool is_afxdp(const struct hr_dev *dev)
{
	return dev && dev->ops == &afxdp_ops;
}

int hr_dev_afxdp_stats(struct hr_dev *dev, struct hr_afxdp_stats *st)
{
	struct afxdp_priv *p;
	unsigned int i, k;
	int ncpu, err = 0;

	if (!is_afxdp(dev) || !st || st->sz < sizeof(size_t))
		return -EINVAL;
	p = dev->priv;
	{
		struct hr_afxdp_stats s = { .sz = sizeof(s) };

		s.bound = p->bound;
		s.meta = p->meta;
		s.meta_in_data = p->meta_in_data;
		s.zerocopy = p->zerocopy;
		s.need_wakeup = p->need_wakeup;
		s.busy_poll = p->busy_poll;
		s.tx_sent = atomic_load(&p->tx_sent);
		s.tx_completed = atomic_load(&p->tx_completed);
		s.tx_copied = atomic_load(&p->tx_copied);
		s.rx_no_meta = atomic_load(&p->rx_no_meta);
		for (i = 0; i < dev->nrxq; i++) {
			struct xdp_statistics xs;
			socklen_t len = sizeof(xs);

			if (!p->q[i].xsk ||
			    getsockopt(p->q[i].fd, SOL_XDP, XDP_STATISTICS, &xs,
				       &len)) {
				err = -errno;
				continue;
			}
			s.rx_dropped += xs.rx_dropped;
			s.rx_invalid_descs += xs.rx_invalid_descs;
			s.tx_invalid_descs += xs.tx_invalid_descs;
			s.rx_ring_full += xs.rx_ring_full;
			s.rx_fill_ring_empty += xs.rx_fill_ring_empty_descs;
			s.tx_ring_empty += xs.tx_ring_empty_descs;
		}
		ncpu = libbpf_num_possible_cpus();
		if (ncpu > 0 && p->counts_fd >= 0) {
			uint64_t *v = calloc((size_t)ncpu, sizeof(*v));

			for (k = 0; v && k < HR_AFXDP_CNT__MAX; k++) {
				uint64_t sum = 0;
				int c;

				if (bpf_map_lookup_elem(p->counts_fd, &k, v))
					continue;
				for (c = 0; c < ncpu; c++)
					sum += v[c];
				if (k == HR_AFXDP_CNT_REDIRECT)
					s.kern_redirect = sum;
				else if (k == HR_AFXDP_CNT_NO_SOCKET)
					s.kern_no_socket = sum;
				else
					s.kern_meta_err = sum;
			}
			free(v);
		}
		memcpy(st, &s, st->sz < sizeof(s) ? st->sz : sizeof(s));
	}
	return err;
}

int hr_dev_afxdp_kernel_ifindex(const struct hr_dev *dev)
{
	return is_afxdp(dev) ?
		       ((const struct afxdp_priv *)dev->priv)->kifindex :
		       -EINVAL;
}
