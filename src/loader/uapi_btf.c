// SPDX-License-Identifier: MIT
/*
 * headroom's own BTF: the UAPI structs a program sees through headroom
 * (the XDP and tc contexts and the usual packet headers), laid out as the
 * kernel lays them out on x86-64. It is the CO-RE target when no kernel
 * BTF is available, built here with libbpf's BTF writer so that it needs
 * no file at run time.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "loader/core_relo.h"

enum base {
	U8,
	U16,
	U32,
	U64,
	BE16,
	BE32,
	SUM16,
	VOIDP,
	NBASE,
};

/* A member: its name, base or struct type, bit offset, bit size, array. */
struct fdef {
	const char *name;
	int type; /* enum base, or -(index in structs + 1) */
	uint32_t bit_off;
	uint32_t bit_sz;
	uint32_t nelems; /* 0: not an array */
};

struct sdef {
	const char *name;
	uint32_t size;
	bool is_union;
	const struct fdef *f;
};

#define S(i) (-(i)-1)
#define END                      \
	{                        \
		NULL, 0, 0, 0, 0 \
	}

static const struct fdef xdp_md_f[] = {
	{ "data", U32, 0, 0, 0 },
	{ "data_end", U32, 32, 0, 0 },
	{ "data_meta", U32, 64, 0, 0 },
	{ "ingress_ifindex", U32, 96, 0, 0 },
	{ "rx_queue_index", U32, 128, 0, 0 },
	{ "egress_ifindex", U32, 160, 0, 0 },
	END,
};

static const struct fdef ethhdr_f[] = {
	{ "h_dest", U8, 0, 0, 6 },
	{ "h_source", U8, 48, 0, 6 },
	{ "h_proto", BE16, 96, 0, 0 },
	END,
};

static const struct fdef vlan_hdr_f[] = {
	{ "h_vlan_TCI", BE16, 0, 0, 0 },
	{ "h_vlan_encapsulated_proto", BE16, 16, 0, 0 },
	END,
};

static const struct fdef iphdr_f[] = {
	{ "ihl", U8, 0, 4, 0 },	      { "version", U8, 4, 4, 0 },
	{ "tos", U8, 8, 0, 0 },	      { "tot_len", BE16, 16, 0, 0 },
	{ "id", BE16, 32, 0, 0 },     { "frag_off", BE16, 48, 0, 0 },
	{ "ttl", U8, 64, 0, 0 },      { "protocol", U8, 72, 0, 0 },
	{ "check", SUM16, 80, 0, 0 }, { "saddr", BE32, 96, 0, 0 },
	{ "daddr", BE32, 128, 0, 0 }, END,
};

static const struct fdef in6_u_f[] = {
	{ "u6_addr8", U8, 0, 0, 16 },
	{ "u6_addr16", BE16, 0, 0, 8 },
	{ "u6_addr32", BE32, 0, 0, 4 },
	END,
};

static const struct fdef in6_addr_f[] = {
	{ "in6_u", S(4), 0, 0, 0 }, /* union in6_u, structs[4] */
	END,
};

static const struct fdef ipv6hdr_f[] = {
	{ "priority", U8, 0, 4, 0 },
	{ "version", U8, 4, 4, 0 },
	{ "flow_lbl", U8, 8, 0, 3 },
	{ "payload_len", BE16, 32, 0, 0 },
	{ "nexthdr", U8, 48, 0, 0 },
	{ "hop_limit", U8, 56, 0, 0 },
	{ "saddr", S(5), 64, 0, 0 },
	{ "daddr", S(5), 192, 0, 0 },
	END,
};

static const struct fdef udphdr_f[] = {
	{ "source", BE16, 0, 0, 0 },
	{ "dest", BE16, 16, 0, 0 },
	{ "len", BE16, 32, 0, 0 },
	{ "check", SUM16, 48, 0, 0 },
	END,
};

static const struct fdef tcphdr_f[] = {
	{ "source", BE16, 0, 0, 0 },	{ "dest", BE16, 16, 0, 0 },
	{ "seq", BE32, 32, 0, 0 },	{ "ack_seq", BE32, 64, 0, 0 },
	{ "res1", U16, 96, 4, 0 },	{ "doff", U16, 100, 4, 0 },
	{ "fin", U16, 104, 1, 0 },	{ "syn", U16, 105, 1, 0 },
	{ "rst", U16, 106, 1, 0 },	{ "psh", U16, 107, 1, 0 },
	{ "ack", U16, 108, 1, 0 },	{ "urg", U16, 109, 1, 0 },
	{ "ece", U16, 110, 1, 0 },	{ "cwr", U16, 111, 1, 0 },
	{ "window", BE16, 112, 0, 0 },	{ "check", SUM16, 128, 0, 0 },
	{ "urg_ptr", BE16, 144, 0, 0 }, END,
};

static const struct fdef icmphdr_f[] = {
	{ "type", U8, 0, 0, 0 },
	{ "code", U8, 8, 0, 0 },
	{ "checksum", SUM16, 16, 0, 0 },
	END,
};

#define SKB(n, off)                   \
	{                             \
		n, U32, (off)*8, 0, 0 \
	}
static const struct fdef sk_buff_f[] = {
	SKB("len", 0),
	SKB("pkt_type", 4),
	SKB("mark", 8),
	SKB("queue_mapping", 12),
	SKB("protocol", 16),
	SKB("vlan_present", 20),
	SKB("vlan_tci", 24),
	SKB("vlan_proto", 28),
	SKB("priority", 32),
	SKB("ingress_ifindex", 36),
	SKB("ifindex", 40),
	SKB("tc_index", 44),
	{ "cb", U32, 48 * 8, 0, 5 },
	SKB("hash", 68),
	SKB("tc_classid", 72),
	SKB("data", 76),
	SKB("data_end", 80),
	SKB("napi_id", 84),
	SKB("family", 88),
	SKB("remote_ip4", 92),
	SKB("local_ip4", 96),
	{ "remote_ip6", U32, 100 * 8, 0, 4 },
	{ "local_ip6", U32, 116 * 8, 0, 4 },
	SKB("remote_port", 132),
	SKB("local_port", 136),
	SKB("data_meta", 140),
	{ "flow_keys", VOIDP, 144 * 8, 0, 0 },
	{ "tstamp", U64, 152 * 8, 0, 0 },
	SKB("wire_len", 160),
	SKB("gso_segs", 164),
	{ "sk", VOIDP, 168 * 8, 0, 0 },
	SKB("gso_size", 176),
	{ "tstamp_type", U8, 180 * 8, 0, 0 },
	{ "hwtstamp", U64, 184 * 8, 0, 0 },
	END,
};

static const struct sdef structs[] = {
	{ "xdp_md", 24, false, xdp_md_f },
	{ "ethhdr", 14, false, ethhdr_f },
	{ "iphdr", 20, false, iphdr_f },
	{ "vlan_hdr", 4, false, vlan_hdr_f },
	{ "", 16, true, in6_u_f }, /* [4]: in6_addr's anonymous-named union */
	{ "in6_addr", 16, false, in6_addr_f },
	{ "ipv6hdr", 40, false, ipv6hdr_f },
	{ "udphdr", 8, false, udphdr_f },
	{ "tcphdr", 20, false, tcphdr_f },
	{ "icmphdr", 8, false, icmphdr_f },
	{ "__sk_buff", 192, false, sk_buff_f },
};

#define NSTRUCTS (sizeof(structs) / sizeof(structs[0]))

static int add_bases(struct btf *btf, int *ids)
{
	int u8 = btf__add_int(btf, "unsigned char", 1, 0);
	int u16 = btf__add_int(btf, "short unsigned int", 2, 0);
	int u32 = btf__add_int(btf, "unsigned int", 4, 0);
	int u64 = btf__add_int(btf, "long long unsigned int", 8, 0);

	if (u8 < 0 || u16 < 0 || u32 < 0 || u64 < 0)
		return -1;
	ids[U8] = btf__add_typedef(btf, "__u8", u8);
	ids[U16] = btf__add_typedef(btf, "__u16", u16);
	ids[U32] = btf__add_typedef(btf, "__u32", u32);
	ids[U64] = btf__add_typedef(btf, "__u64", u64);
	ids[BE16] = btf__add_typedef(btf, "__be16", ids[U16]);
	ids[BE32] = btf__add_typedef(btf, "__be32", ids[U32]);
	ids[SUM16] = btf__add_typedef(btf, "__sum16", ids[U16]);
	ids[VOIDP] = btf__add_ptr(btf, 0);
	for (int i = 0; i < NBASE; i++)
		if (ids[i] < 0)
			return -1;
	return 0;
}

/* Member type ids need the struct ids first: structs are forward-named
 * by their position, and defined in table order (no struct refers to a
 * later one). */
static int field_type(struct btf *btf, const int *base, const int *sids,
		      const struct fdef *f, int idx_type)
{
	int t = f->type >= 0 ? base[f->type] : sids[-f->type - 1];

	if (t <= 0)
		return -1;
	if (f->nelems)
		t = btf__add_array(btf, idx_type, t, f->nelems);
	return t;
}

static int add_struct(struct btf *btf, const int *base, int *sids, size_t i,
		      int idx_type)
{
	const struct sdef *s = &structs[i];
	const struct fdef *f;
	int id, *ft, n = 0, k;

	for (f = s->f; f->name; f++)
		n++;
	ft = calloc((size_t)n + 1, sizeof(*ft));
	if (!ft)
		return -1;
	/* Arrays first: fields must follow their struct directly. */
	for (k = 0; k < n; k++) {
		ft[k] = field_type(btf, base, sids, &s->f[k], idx_type);
		if (ft[k] < 0) {
			free(ft);
			return -1;
		}
	}
	id = s->is_union ? btf__add_union(btf, s->name, s->size) :
			   btf__add_struct(btf, s->name, s->size);
	for (k = 0; id > 0 && k < n; k++)
		if (btf__add_field(btf, s->f[k].name, ft[k], s->f[k].bit_off,
				   s->f[k].bit_sz))
			id = -1;
	free(ft);
	sids[i] = id;
	return id > 0 ? 0 : -1;
}

static int add_xdp_action(struct btf *btf)
{
	static const char *const names[] = { "XDP_ABORTED", "XDP_DROP",
					     "XDP_PASS", "XDP_TX",
					     "XDP_REDIRECT" };
	int id = btf__add_enum(btf, "xdp_action", 4);
	size_t i;

	for (i = 0; id > 0 && i < 5; i++)
		if (btf__add_enum_value(btf, names[i], (int64_t)i))
			return -1;
	return id > 0 ? 0 : -1;
}

struct btf *hr_uapi_btf_new(void)
{
	int base[NBASE], sids[NSTRUCTS], idx;
	struct btf *btf = btf__new_empty();
	size_t i;

	if (!btf)
		return NULL;
	if (add_bases(btf, base))
		goto fail;
	idx = btf__add_int(btf, "__ARRAY_SIZE_TYPE__", 4, 0);
	if (idx < 0)
		goto fail;
	for (i = 0; i < NSTRUCTS; i++)
		if (add_struct(btf, base, sids, i, idx))
			goto fail;
	if (add_xdp_action(btf))
		goto fail;
	return btf;
fail:
	btf__free(btf);
	return NULL;
}
