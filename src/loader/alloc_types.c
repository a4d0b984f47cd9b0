// SPDX-License-Identifier: MIT
/*
 * The structs of an object's BTF that bpf_obj_new_impl and
 * bpf_percpu_obj_new_impl may allocate, by local type id (what
 * bpf_core_type_id_local() gives the call): their size, whether they
 * hold a special field headroom does not model yet, and whether the
 * verifier takes them for a per-CPU object (no more than
 * BPF_GLOBAL_PERCPU_MA_MAX_SIZE bytes, a struct of scalars, no special
 * field: check_kfunc_call's refusals, in its words). The kernel's verifier (check_kfunc_call for KF_bpf_obj_new_impl)
 * takes a struct of program BTF and rewrites the call with its size and
 * its btf_struct_meta (btf_parse_fields' record: spin locks, list and
 * rbtree heads and nodes, kptrs, bpf_refcount); the kfunc
 * (helpers/kfuncs_obj.c) finds the size here at run time.
 *
 * A program allocating a struct with a field headroom does not model is
 * refused at load when the call's type id is a constant just before it
 * (as clang emits bpf_obj_new()); at run time otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "loader/btf_value.h"
#include "loader/loader.h"
#include "loader/map_fields.h"
#include "maps/map.h"
#include "maps/map_timer.h"
#include "progs/prog.h"
#include "vm/isa.h"

/* bpf_mem_alloc's largest cache and the llist node before each object. */
#define OBJ_CACHE_MAX 4096
#define OBJ_LLIST_NODE 8

/* The special structs of btf_get_field_type (kernel/bpf/btf.c) a local
 * object may hold that headroom does not model. */
static const char *const unmodelled_structs[] = {
	"bpf_timer",
	"bpf_wq",
	"bpf_task_work",
};

/* The type tags of a kptr field (btf_find_kptr). */
static const char *const kptr_tags[] = { "kptr", "kptr_untrusted",
					 "percpu_kptr", "uptr" };

static bool in_list(const char *name, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}

/* The first special field headroom does not model in type @id, nested
 * structs and arrays included, as a name; NULL when there is none. */
static const char *unmodelled(const struct btf *btf, uint32_t id, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name;
	uint16_t i;

	if (!t || depth > 8)
		return NULL;
	id = btf__resolve_type(btf, id);
	t = btf__type_by_id(btf, id);
	if (!t)
		return NULL;
	if (btf_is_array(t))
		return unmodelled(btf, btf_array(t)->type, depth + 1);
	if (btf_is_composite(t)) {
		name = btf__name_by_offset(btf, t->name_off);
		if (in_list(name, unmodelled_structs,
			    sizeof(unmodelled_structs) /
				    sizeof(unmodelled_structs[0])))
			return name;
		for (i = 0; i < btf_vlen(t); i++) {
			const char *f = NULL;
			uint32_t m = btf_members(t)[i].type;
			const struct btf_type *mt = btf__type_by_id(btf, m);

			/* A pointer to a type tag "kptr" ... is a kptr. */
			if (mt && btf_is_ptr(mt)) {
				const struct btf_type *tt =
					btf__type_by_id(btf, mt->type);

				if (tt && btf_is_type_tag(tt) &&
				    in_list(btf__name_by_offset(btf,
								tt->name_off),
					    kptr_tags,
					    sizeof(kptr_tags) /
						    sizeof(kptr_tags[0])))
					return "kptr";
				continue;
			}
			f = unmodelled(btf, m, depth + 1);
			if (f)
				return f;
		}
	}
	return NULL;
}

/* Whether struct @t has a struct bpf_refcount among its own members
 * (btf_parse_fields finds it there). */
static bool has_refcount(const struct btf *btf, const struct btf_type *t)
{
	uint16_t i;

	for (i = 0; i < btf_vlen(t); i++) {
		uint32_t id = btf__resolve_type(btf, btf_members(t)[i].type);
		const struct btf_type *m = btf__type_by_id(btf, id);

		if (m && btf_is_struct(m) &&
		    !strcmp(btf__name_by_offset(btf, m->name_off),
			    "bpf_refcount"))
			return true;
	}
	return false;
}

/* BPF_GLOBAL_PERCPU_MA_MAX_SIZE, the largest struct the verifier lets
 * bpf_percpu_obj_new allocate. */
#define PERCPU_MAX_SIZE 512

/* The special fields btf_parse_fields finds for an object's
 * btf_struct_meta, which a per-CPU object may not hold. */
static const char *const meta_structs[] = {
	"bpf_spin_lock", "bpf_res_spin_lock", "bpf_list_head", "bpf_list_node",
	"bpf_rb_root",	 "bpf_rb_node",	      "bpf_refcount",
};

static bool is_scalar(const struct btf_type *t)
{
	return t && (btf_is_int(t) || btf_kind(t) == BTF_KIND_ENUM);
}

/* __btf_type_is_scalar_struct: every member an int or enum, an array of
 * them with elements, or a struct of them nested at most three deep;
 * *@special set when one of those structs is one of meta_structs. */
static bool scalar_struct(const struct btf *btf, const struct btf_type *t,
			  int depth, bool *special)
{
	uint16_t i;

	if (!t || !btf_is_composite(t))
		return false;
	if (depth &&
	    in_list(btf__name_by_offset(btf, t->name_off), meta_structs,
		    sizeof(meta_structs) / sizeof(meta_structs[0])))
		*special = true;
	for (i = 0; i < btf_vlen(t); i++) {
		uint32_t id = btf_members(t)[i].type;
		const struct btf_type *m = hr_btf_skip_mods(btf, &id);

		if (m && btf_is_composite(m)) {
			if (depth >= 3 ||
			    !scalar_struct(btf, m, depth + 1, special))
				return false;
			continue;
		}
		if (m && btf_is_array(m)) {
			id = btf_array(m)->type;
			if (!btf_array(m)->nelems ||
			    !is_scalar(hr_btf_skip_mods(btf, &id)))
				return false;
			continue;
		}
		if (!is_scalar(m))
			return false;
	}
	return true;
}

/* Why check_kfunc_call refuses bpf_percpu_obj_new of struct @id, in
 * its words (after "bpf_percpu_obj_new "); NULL when it does not. */
static const char *percpu_refusal(const struct btf *btf, uint32_t id, char *buf,
				  size_t len)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	bool special = false;

	if (t->size > PERCPU_MAX_SIZE) {
		snprintf(buf, len, "type size (%u) is greater than %u", t->size,
			 PERCPU_MAX_SIZE);
		return buf;
	}
	if (!scalar_struct(btf, t, 0, &special))
		return "type ID argument must be of a struct of scalars";
	if (special)
		return "type ID argument must not contain special fields";
	return NULL;
}

static int build(struct hr_loader *ld)
{
	struct hr_object *obj = ld->obj;
	uint32_t i, n = btf__type_cnt(ld->btf);
	char why[64];

	obj->local_types = calloc(n, sizeof(*obj->local_types));
	if (!obj->local_types)
		return -ENOMEM;
	obj->nlocal_types = n;
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(ld->btf, i);
		struct hr_local_type *lt = &obj->local_types[i];

		if (!t || !btf_is_struct(t))
			continue;
		lt->alloc = true;
		lt->size = t->size;
		lt->unmodelled = unmodelled(ld->btf, i, 0) != NULL;
		lt->refcounted = has_refcount(ld->btf, t);
		lt->percpu = !percpu_refusal(ld->btf, i, why, sizeof(why));
	}
	return 0;
}

static bool alloc_kfunc(const struct hr_kfunc *k)
{
	return k && (!strcmp(k->name, "bpf_obj_new_impl") ||
		     !strcmp(k->name, "bpf_obj_drop_impl") ||
		     !strncmp(k->name, "bpf_percpu_obj_", 15) ||
		     !strcmp(k->name, "bpf_refcount_acquire_impl") ||
		     !strncmp(k->name, "bpf_list_", 9) ||
		     !strncmp(k->name, "bpf_rbtree_", 11));
}

/* The constant r1 takes just before the call at @pc, when the few
 * instructions before it set it so; -1 otherwise. */
static int64_t r1_const(const struct hr_prog *prog, uint32_t pc)
{
	uint32_t i;

	for (i = pc; i > 0 && pc - i < 8; i--) {
		const struct hr_insn *in = &prog->insns[i - 1];

		if (i >= 2 && prog->insns[i - 2].code == HR_OPC_LDDW) {
			in = &prog->insns[i - 2];
			if (in->dst == 1)
				return (int64_t)(hr_insn_lddw_value(in) &
						 0xffffffffu);
			i--;
			continue;
		}
		if (in->code == (HR_ALU64 | HR_MOV | HR_K) && in->dst == 1)
			return (uint32_t)in->imm;
		if (HR_CLASS(in->code) == HR_JMP ||
		    HR_CLASS(in->code) == HR_JMP32 || in->dst == 1)
			return -1;
	}
	return -1;
}

int hr_ld_alloc_types(struct hr_loader *ld, const struct hr_prog *prog)
{
	struct hr_object *obj = ld->obj;
	const struct btf_type *t;
	bool percpu;
	char why[64];
	uint32_t pc;
	int64_t id;
	int ret;

	for (pc = 0; pc < prog->cnt; pc++) {
		const struct hr_kfunc *k = prog->kfuncs ? prog->kfuncs[pc] :
							  NULL;

		if (!alloc_kfunc(k))
			continue;
		if (!ld->btf)
			return hr_ld_error(ld, -EINVAL,
					   "section '%s' insn %u: %s requires "
					   "prog BTF",
					   prog->sec, pc, k->name);
		if (!obj->local_types) {
			ret = build(ld);
			if (ret)
				return hr_ld_error(ld, ret, "out of memory");
		}
		percpu = !strcmp(k->name, "bpf_percpu_obj_new_impl");
		if (strcmp(k->name, "bpf_obj_new_impl") && !percpu)
			continue;
		id = r1_const(prog, pc);
		if (id < 0)
			continue;
		if (id >= obj->nlocal_types || !obj->local_types[id].alloc)
			return hr_ld_error(
				ld, -EINVAL,
				"section '%s' insn %u: bpf_obj_new/"
				"bpf_percpu_obj_new type ID argument "
				"must be of a struct",
				prog->sec, pc);
		if (percpu && !obj->local_types[id].percpu)
			return hr_ld_error(ld, -EINVAL,
					   "section '%s' insn %u: "
					   "bpf_percpu_obj_new %s",
					   prog->sec, pc,
					   percpu_refusal(ld->btf, (uint32_t)id,
							  why, sizeof(why)));
		if (percpu)
			continue;
		/* check_kfunc_call: what bpf_mem_alloc cannot serve. */
		if (obj->local_types[id].size + OBJ_LLIST_NODE > OBJ_CACHE_MAX)
			return hr_ld_error(ld, -EINVAL,
					   "section '%s' insn %u: bpf_obj_new "
					   "type size (%u) is more than the "
					   "allocator serves",
					   prog->sec, pc,
					   obj->local_types[id].size);
		if (obj->local_types[id].unmodelled) {
			t = btf__type_by_id(ld->btf, (uint32_t)id);
			return hr_ld_error(
				ld, -EOPNOTSUPP,
				"section '%s' insn %u: not implemented yet: "
				"bpf_obj_new of struct %s, whose %s field "
				"headroom does not model",
				prog->sec, pc,
				btf__name_by_offset(ld->btf, t->name_off),
				unmodelled(ld->btf, (uint32_t)id, 0));
		}
	}
	return 0;
}

/* The offset of member @name of struct @t (top level), or -1. */
static int member_off(const struct btf *btf, const struct btf_type *t,
		      const char *name)
{
	uint16_t i;

	for (i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf,
						btf_members(t)[i].name_off),
			    name))
			return (int)(btf_member_bit_offset(t, i) / 8);
	return -1;
}

/* The name of the struct member @i of @t's type, or "". */
static const char *member_type(const struct btf *btf, const struct btf_type *t,
			       uint16_t i)
{
	uint32_t id = btf__resolve_type(btf, btf_members(t)[i].type);
	const struct btf_type *m = btf__type_by_id(btf, id);

	return m && btf_is_struct(m) ? btf__name_by_offset(btf, m->name_off) :
				       "";
}

/* The struct named @name's node offset @node, from "contains:T:N". */
static int contains(const struct btf *btf, uint32_t value_id, uint16_t idx,
		    int *node_off)
{
	uint32_t i, n = btf__type_cnt(btf);

	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const char *tag, *colon;
		char type[128];
		int id;

		if (!btf_is_decl_tag(t) || t->type != value_id ||
		    btf_decl_tag(t)->component_idx != idx)
			continue;
		tag = btf__name_by_offset(btf, t->name_off);
		if (strncmp(tag, "contains:", 9))
			continue;
		colon = strchr(tag + 9, ':');
		if (!colon || colon - (tag + 9) >= (long)sizeof(type))
			return -1;
		snprintf(type, sizeof(type), "%.*s", (int)(colon - (tag + 9)),
			 tag + 9);
		id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
		if (id <= 0)
			return -1;
		*node_off =
			member_off(btf, btf__type_by_id(btf, id), colon + 1);
		return *node_off < 0 ? -1 : 0;
	}
	return -1;
}

void hr_ld_map_lists(struct hr_loader *ld, struct hr_map *map)
{
	uint32_t key_id = 0, value_id = 0;
	const struct btf_type *t;
	int head = -1, lock = -1, node = -1;
	bool rb = false;
	uint16_t i;

	if (!ld->btf || !hr_map_timer_type_ok(map->attr.type) ||
	    hr_btf_value_map_types(ld->btf, map->name, &key_id, &value_id) ||
	    !value_id)
		return;
	value_id = btf__resolve_type(ld->btf, value_id);
	t = btf__type_by_id(ld->btf, value_id);
	if (!t || !btf_is_struct(t))
		return;
	for (i = 0; i < btf_vlen(t); i++) {
		const char *name = member_type(ld->btf, t, i);
		int off = (int)(btf_member_bit_offset(t, i) / 8);

		if (!strcmp(name, "bpf_spin_lock"))
			lock = off;
		if ((!strcmp(name, "bpf_list_head") ||
		     !strcmp(name, "bpf_rb_root")) &&
		    head < 0 && !contains(ld->btf, value_id, i, &node)) {
			head = off;
			rb = !strcmp(name, "bpf_rb_root");
		}
	}
	if (head < 0 || lock < 0)
		return;
	map->list_off = head;
	map->list_lock_off = lock;
	map->list_node_off = node;
	map->list_rb = rb;
}
