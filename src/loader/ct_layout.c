// SPDX-License-Identifier: MIT
/*
 * Where the target BTF puts struct nf_conn's fields, for the images the
 * conntrack table hands programs (core/ct.h): the offsets a program's
 * CO-RE relocations against the same BTF read. As libbpf's field lookup
 * (bpf_core_calc_field_relo), by member name from the struct down.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "core/ct.h"
#include "helpers/helpers.h"
#include "loader/core_relo.h"
#include "loader/loader.h"

/* Member @name of the struct or union @id (modifiers and typedefs
 * skipped): its byte offset, and its type in @mid; -ENOENT without it. */
static int member(const struct btf *btf, uint32_t id, const char *name,
		  uint32_t *off, uint32_t *mid)
{
	const struct btf_type *t;
	const struct btf_member *m;
	int rid = btf__resolve_type(btf, id);
	uint16_t i;

	if (rid < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, (uint32_t)rid);
	if (!t || (!btf_is_struct(t) && !btf_is_union(t)))
		return -ENOENT;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		uint32_t bits = btf_member_bit_offset(t, i);

		if (strcmp(btf__name_by_offset(btf, m->name_off), name) ||
		    bits % 8)
			continue;
		*off = bits / 8;
		*mid = m->type;
		return 0;
	}
	return -ENOENT;
}

/* The byte offset of the dotted @path from struct @id. */
static int path_off(const struct btf *btf, uint32_t id, const char *path,
		    uint32_t *off)
{
	char buf[64], *save = NULL, *name;
	uint32_t o;

	*off = 0;
	snprintf(buf, sizeof(buf), "%s", path);
	for (name = strtok_r(buf, ".", &save); name;
	     name = strtok_r(NULL, ".", &save)) {
		if (member(btf, id, name, &o, &id))
			return -ENOENT;
		*off += o;
	}
	return 0;
}

/* sizeof the type @path leads to from struct @id. */
static int path_size(const struct btf *btf, uint32_t id, const char *path,
		     uint32_t *size)
{
	char buf[64], *save = NULL, *name;
	uint32_t o;
	int64_t sz;

	snprintf(buf, sizeof(buf), "%s", path);
	for (name = strtok_r(buf, ".", &save); name;
	     name = strtok_r(NULL, ".", &save))
		if (member(btf, id, name, &o, &id))
			return -ENOENT;
	sz = btf__resolve_size(btf, id);
	if (sz <= 0 || sz > UINT32_MAX)
		return -ENOENT;
	*size = (uint32_t)sz;
	return 0;
}

int hr_ld_ct_layout(const struct btf *btf, struct hr_ct_layout *l)
{
	int sid = btf__find_by_name_kind(btf, "nf_conn", BTF_KIND_STRUCT);
	int hid = btf__find_by_name_kind(btf, "nf_conntrack_tuple_hash",
					 BTF_KIND_STRUCT);
	const struct btf_type *t;
	uint32_t s, h;
	int64_t hsz;

	if (sid < 0 || hid < 0)
		return -ENOENT;
	s = (uint32_t)sid;
	h = (uint32_t)hid;
	t = btf__type_by_id(btf, s);
	hsz = btf__resolve_size(btf, h);
	if (!t || hsz <= 0 || hsz > UINT32_MAX)
		return -EINVAL;
	memset(l, 0, sizeof(*l));
	l->size = t->size;
	l->hash_size = (uint32_t)hsz;
	if (path_off(btf, s, "ct_general.use.refs.counter", &l->use) ||
	    path_off(btf, s, "timeout", &l->timeout) ||
	    path_off(btf, s, "zone", &l->zone) ||
	    path_off(btf, s, "tuplehash", &l->tuplehash) ||
	    path_off(btf, h, "tuple", &l->hash_tuple) ||
	    path_off(btf, s, "status", &l->status) ||
	    path_off(btf, s, "mark", &l->mark) ||
	    path_off(btf, s, "proto", &l->proto) ||
	    path_size(btf, s, "proto", &l->proto_size) ||
	    path_off(btf, s, "proto.tcp.state", &l->tcp_state))
		return -EINVAL;
	return 0;
}

void hr_ld_ct_setup(struct hr_loader *ld)
{
	struct hr_ct_layout l;
	char why[256];

	if (ld->ct_layout_done)
		return;
	ld->ct_layout_done = true;
	if (!ld->targ_btf)
		ld->targ_btf =
			hr_core_target_btf(ld->btf_path, why, sizeof(why));
	/* A target without struct nf_conn (headroom's builtin BTF) keeps
	 * 6.18's layout: the program's offsets are then its own. */
	if (ld->targ_btf && !hr_ld_ct_layout(ld->targ_btf, &l))
		hr_ct_set_layout(&l);
}
