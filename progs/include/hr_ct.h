/* SPDX-License-Identifier: MIT */
/*
 * The conntrack kfuncs of Linux 6.18 (net/netfilter/nf_conntrack_bpf.c,
 * nf_nat_bpf.c) and their option struct, for the test programs; struct
 * nf_conn stays opaque here (a program defines the fields it reads, with
 * preserve_access_index).
 */
#ifndef HR_PROGS_CT_H
#define HR_PROGS_CT_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* 6.18's struct bpf_ct_opts, NF_BPF_CT_OPTS_SZ (16) bytes; the kfuncs
 * take the 12 bytes before the zone fields too. */
struct bpf_ct_opts {
	__s32 netns_id;
	__s32 error;
	__u8 l4proto;
	__u8 dir;
	__u16 ct_zone_id;
	__u8 ct_zone_dir;
	__u8 reserved[3];
};

struct nf_conn;
struct nf_conn___init;
union nf_inet_addr;

enum nf_nat_manip_type { NF_NAT_MANIP_SRC, NF_NAT_MANIP_DST };

extern struct nf_conn *bpf_xdp_ct_lookup(struct xdp_md *,
					 struct bpf_sock_tuple *, __u32,
					 struct bpf_ct_opts *, __u32) __ksym;
extern struct nf_conn___init *bpf_xdp_ct_alloc(struct xdp_md *,
					       struct bpf_sock_tuple *, __u32,
					       struct bpf_ct_opts *,
					       __u32) __ksym;
extern struct nf_conn *bpf_skb_ct_lookup(struct __sk_buff *,
					 struct bpf_sock_tuple *, __u32,
					 struct bpf_ct_opts *, __u32) __ksym;
extern struct nf_conn___init *bpf_skb_ct_alloc(struct __sk_buff *,
					       struct bpf_sock_tuple *, __u32,
					       struct bpf_ct_opts *,
					       __u32) __ksym;
extern struct nf_conn *bpf_ct_insert_entry(struct nf_conn___init *) __ksym;
extern void bpf_ct_release(struct nf_conn *) __ksym;
extern void bpf_ct_set_timeout(struct nf_conn___init *, __u32) __ksym;
extern int bpf_ct_change_timeout(struct nf_conn *, __u32) __ksym;
extern int bpf_ct_set_status(const struct nf_conn___init *, __u32) __ksym;
extern int bpf_ct_change_status(struct nf_conn *, __u32) __ksym;
extern int bpf_ct_set_nat_info(struct nf_conn___init *, union nf_inet_addr *,
			       int, enum nf_nat_manip_type) __ksym;

#endif /* HR_PROGS_CT_H */
