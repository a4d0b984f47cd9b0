/* SPDX-License-Identifier: MIT */
/*
 * The connection tracking table the conntrack kfuncs (bpf_xdp_ct_lookup,
 * bpf_skb_ct_lookup, bpf_*_ct_alloc with bpf_ct_insert_entry ...)
 * consult: one process-wide table (as one network namespace), empty
 * until the embedding program or the CLI's --ct adds entries, and filled
 * further by programs that insert. Addresses are in network order,
 * ports in host order.
 */
#ifndef HEADROOM_CT_H
#define HEADROOM_CT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* TCP states of the kernel's conntrack (enum tcp_conntrack). */
enum hr_ct_tcp_state {
	HR_CT_TCP_NONE = 0,
	HR_CT_TCP_SYN_SENT,
	HR_CT_TCP_SYN_RECV,
	HR_CT_TCP_ESTABLISHED,
	HR_CT_TCP_FIN_WAIT,
	HR_CT_TCP_CLOSE_WAIT,
	HR_CT_TCP_LAST_ACK,
	HR_CT_TCP_TIME_WAIT,
	HR_CT_TCP_CLOSE,
	HR_CT_TCP_SYN_SENT2,
};

struct hr_ct_entry_opts {
	size_t sz; /* sizeof(struct hr_ct_entry_opts): HR_OPTS() sets it */
	int family; /* AF_INET or AF_INET6 */
	uint8_t proto; /* IPPROTO_TCP or IPPROTO_UDP */
	uint8_t src[16], dst[16]; /* original direction; 4 bytes for IPv4 */
	uint16_t sport, dport;
	/* IPS_* bits (linux/netfilter/nf_conntrack_common.h); an entry in
	 * the table always has IPS_CONFIRMED. */
	uint32_t status;
	uint32_t mark;
	uint32_t timeout; /* seconds from now; 0: 432000 (TCP), 120 */
	uint16_t zone; /* conntrack zone id (0: the default zone) */
	uint8_t zone_dir; /* NF_CT_ZONE_DIR_* bits; 0: both directions */
	uint8_t tcp_state; /* enum hr_ct_tcp_state, TCP only */
};

/*
 * Adds an entry whose reply tuple is the original one reversed. 0, or
 * -EINVAL for a bad family, protocol, size or zone direction, -EEXIST
 * when either tuple is already in the table (as nf_conntrack's insert
 * answers), -ENOMEM.
 */
int hr_ct_add(const struct hr_ct_entry_opts *opts);
/* Empties the table (references programs hold stay valid until let go). */
void hr_ct_flush(void);
/* Entries in the table, expired ones not counted. */
unsigned int hr_ct_count(void);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_CT_H */
