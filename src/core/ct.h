/* SPDX-License-Identifier: MIT */
/*
 * The conntrack table behind the conntrack kfuncs (core/ct.c,
 * helpers/kfuncs_ct.c). Every entry is an image of the kernel's struct
 * nf_conn as the target BTF lays it out: programs read its fields in
 * place, and the table reads the tuples, zone, status and timeout back
 * from the same bytes.
 */
#ifndef HR_CORE_CT_H
#define HR_CORE_CT_H

#include <stdbool.h>
#include <stdint.h>

#include "headroom/ct.h"

/* CONFIG_HZ of the kernels the oracle runs on (jiffies, timeouts). */
#define HR_HZ 250

/* jiffies_64 (bpf_jiffies64): HZ ticks of CLOCK_MONOTONIC_COARSE. */
uint64_t hr_jiffies64(void);

/* Where struct nf_conn's fields are (byte offsets), and its size. */
struct hr_ct_layout {
	uint32_t size;
	uint32_t use; /* ct_general.use: the references, an int */
	uint32_t timeout; /* u32, jiffies */
	uint32_t zone; /* struct nf_conntrack_zone: u16 id, u8 flags, dir */
	uint32_t tuplehash; /* struct nf_conntrack_tuple_hash[2] */
	uint32_t hash_size; /* sizeof(struct nf_conntrack_tuple_hash) */
	uint32_t hash_tuple; /* offsetof(..._tuple_hash, tuple) */
	uint32_t status; /* unsigned long */
	uint32_t mark; /* u32 */
	uint32_t proto, proto_size; /* union nf_conntrack_proto */
	uint32_t tcp_state; /* proto.tcp.state, u8 */
};

/* Linux 6.18's x86-64 layout, the default. */
extern const struct hr_ct_layout hr_ct_layout_6_18;

/* Lays out every image as @l from now on (the loader's, from the target
 * BTF); -EINVAL for a layout whose fields overlap or overrun it. */
int hr_ct_set_layout(const struct hr_ct_layout *l);

/* The kernel's struct nf_conntrack_tuple, as every kernel lays it out. */
struct hr_ct_tuple {
	uint8_t src[16];
	uint16_t sport; /* network order */
	uint16_t l3num; /* AF_INET, AF_INET6 */
	uint8_t dst[16];
	uint16_t dport; /* network order */
	uint8_t protonum;
	uint8_t dir;
};

struct hr_ct_zone {
	uint16_t id;
	uint8_t flags;
	uint8_t dir; /* NF_CT_ZONE_DIR_* */
};

struct hr_ct;

/* nf_conntrack_find_get: the confirmed, unexpired entry one of whose
 * tuples is @t in @zone, with a reference, and that tuple's direction
 * in @dir; NULL when none. */
struct hr_ct *hr_ct_find_get(const struct hr_ct_tuple *t,
			     const struct hr_ct_zone *zone, uint8_t *dir);
/* nf_conntrack_alloc: a new unconfirmed entry for @orig (and its
 * reverse), one reference, the timeout @jiffies relative; NULL without
 * memory. */
struct hr_ct *hr_ct_alloc(const struct hr_ct_tuple *orig,
			  const struct hr_ct_zone *zone, uint32_t jiffies);
/* nf_conntrack_hash_check_insert: 0 with @ct in the table, confirmed,
 * its timeout made absolute, and a reference still held; -EEXIST when
 * either tuple is there already. */
int hr_ct_insert(struct hr_ct *ct);
/* Lets go of a reference; the last one frees an entry out of the table. */
void hr_ct_put(struct hr_ct *ct);
/* The entry's struct nf_conn image, layout bytes long. */
void *hr_ct_image(struct hr_ct *ct);
uint32_t hr_ct_image_size(const struct hr_ct *ct);
/* Where in the image the mark is, the one field programs may write. */
uint32_t hr_ct_mark_off(const struct hr_ct *ct);

/* __nf_ct_set_timeout: absolute once confirmed, relative before. */
void hr_ct_set_timeout(struct hr_ct *ct, uint64_t jiffies);
/* __nf_ct_change_timeout: -EPERM with IPS_FIXED_TIMEOUT, -ETIME dying. */
int hr_ct_change_timeout(struct hr_ct *ct, uint64_t jiffies);
/* nf_ct_change_status_common: -EBUSY for a change the rules forbid. */
int hr_ct_change_status(struct hr_ct *ct, uint32_t status);
/* nf_nat_setup_info for one manip (0 source, 1 destination) to @addr
 * (and @port, network order, when nonzero): -EINVAL for an entry not
 * IPv4 or IPv6, -ENOMEM when that manip was done already. */
int hr_ct_set_nat(struct hr_ct *ct, const uint8_t addr[16], uint16_t port,
		  int manip);

#endif /* HR_CORE_CT_H */
