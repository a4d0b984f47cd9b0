// SPDX-License-Identifier: MIT
/*
 * A map value's special fields from the object's BTF, as the kernel's
 * btf_parse_fields looks for them (kernel/bpf/btf.c): here three kinds are
 * placed exactly, a struct bpf_spin_lock, a struct bpf_timer and a struct
 * bpf_wq among the value's own members (headroom check reads the lock,
 * the maps the timer and the wq), and its own __kptr and __percpu_kptr
 * members to structs
 * (the maps keep what they own, maps/map_kptr.c); any other special
 * struct, a pointer member, a second one or a special struct nested
 * deeper, and a kptr too, makes the answer "unsure", so the verdict stays
 * unknown where it would matter.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "loader/map_fields.h"
#include "loader/btf_value.h"

#define MAX_DEPTH 8

static const char *const special_structs[] = {
	"bpf_spin_lock", "bpf_res_spin_lock", "bpf_timer",   "bpf_wq",
	"bpf_list_head", "bpf_list_node",     "bpf_rb_root", "bpf_rb_node",
	"bpf_refcount",	 "bpf_task_work",
};

static bool is_special(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(special_structs) / sizeof(special_structs[0]);
	     i++)
		if (!strcmp(name, special_structs[i]))
			return true;
	return false;
}

const struct btf_type *hr_btf_skip_mods(const struct btf *btf, __u32 *id)
{
	const struct btf_type *t = btf__type_by_id(btf, *id);

	while (t &&
	       (btf_is_mod(t) || btf_is_typedef(t) || btf_is_type_tag(t))) {
		*id = t->type;
		t = btf__type_by_id(btf, *id);
	}
	return t;
}

static void scan_type(const struct btf *btf, __u32 id, int off, int depth,
		      struct hr_map_fields *f);

static void scan_members(const struct btf *btf, const struct btf_type *t,
			 int off, int depth, struct hr_map_fields *f)
{
	const struct btf_member *m = btf_members(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++)
		scan_type(btf, m->type, off + btf_member_bit_offset(t, i) / 8,
			  depth + 1, f);
}

static void scan_type(const struct btf *btf, __u32 id, int off, int depth,
		      struct hr_map_fields *f)
{
	const struct btf_type *t = hr_btf_skip_mods(btf, &id);
	const char *name;

	if (!t || depth > MAX_DEPTH) {
		f->unsure = true;
		return;
	}
	if (btf_is_ptr(t)) {
		const struct btf_type *tag = btf__type_by_id(btf, t->type);
		__u32 to = tag ? tag->type : 0;
		const struct btf_type *s = hr_btf_skip_mods(btf, &to);

		const char *tname =
			tag && btf_is_type_tag(tag) ?
				btf__name_by_offset(btf, tag->name_off) :
				"";
		bool percpu = !strcmp(tname, "percpu_kptr");

		/* struct T __kptr *: a pointer to the type tag "kptr" of a
		 * struct (btf_find_kptr), "percpu_kptr" for __percpu_kptr. */
		if (depth == 1 && (percpu || !strcmp(tname, "kptr")) && s &&
		    btf_is_struct(s) &&
		    f->nkptrs < sizeof(f->kptr_off) / sizeof(f->kptr_off[0])) {
			if (percpu)
				f->kptr_percpu |= 1u << f->nkptrs;
			f->kptr_off[f->nkptrs++] = off;
		} else {
			f->unsure = true;
		}
		return;
	}
	if (btf_is_array(t)) {
		/* An array of plain data holds nothing special; look at
		 * its element once. */
		scan_type(btf, btf_array(t)->type, off, depth + 1, f);
		return;
	}
	if (!btf_is_composite(t))
		return;
	name = btf__name_by_offset(btf, t->name_off);
	if (name && is_special(name)) {
		if (depth == 1 && !strcmp(name, "bpf_spin_lock") &&
		    f->lock_off < 0)
			f->lock_off = off;
		else if (depth == 1 && !strcmp(name, "bpf_timer") &&
			 f->timer_off < 0)
			f->timer_off = off;
		else if (depth == 1 && !strcmp(name, "bpf_wq") && f->wq_off < 0)
			f->wq_off = off;
		else
			f->unsure = true;
		return;
	}
	scan_members(btf, t, off, depth, f);
}

void hr_map_fields_btf(const struct btf *btf, const char *map_name,
		       struct hr_map_fields *f)
{
	__u32 key_id = 0, value_id = 0;
	const struct btf_type *t;
	int ret;

	f->lock_off = -1;
	f->timer_off = -1;
	f->wq_off = -1;
	f->unsure = false;
	f->has_btf = false;
	f->nkptrs = 0;
	f->kptr_percpu = 0;
	f->unsure_but_kptrs = false;
	if (!btf) {
		/* No BTF: the kernel finds no fields either. */
		return;
	}
	ret = hr_btf_value_map_types(btf, map_name, &key_id, &value_id);
	if (ret) {
		/* Not in the BTF (a global data section with no named
		 * variable): libbpf gives the kernel no value type, so no
		 * fields either. */
		f->unsure = ret != -ENOENT;
		return;
	}
	if (!value_id)
		return;
	f->has_btf = true;
	t = hr_btf_skip_mods(btf, &value_id);
	if (t && btf_is_datasec(t)) {
		const struct btf_var_secinfo *v = btf_var_secinfos(t);
		int i;

		/* Global data: fields are allowed there, not followed. */
		for (i = 0; i < btf_vlen(t); i++, v++) {
			struct hr_map_fields g = { .lock_off = -1,
						   .timer_off = -1,
						   .wq_off = -1 };
			const struct btf_type *var =
				btf__type_by_id(btf, v->type);

			if (!var) {
				f->unsure = true;
				continue;
			}
			scan_type(btf, var->type, 0, 1, &g);
			if (g.unsure || g.lock_off >= 0 || g.timer_off >= 0 ||
			    g.wq_off >= 0)
				f->unsure = true;
		}
		return;
	}
	scan_type(btf, value_id, 0, 0, f);
	f->unsure_but_kptrs = f->unsure;
	if (f->nkptrs)
		f->unsure = true;
}

void hr_check_map_fields(const char *path, const char *map_name,
			 struct hr_map_fields *f)
{
	struct btf *btf = NULL;

	if (!path || hr_btf_value_open(path, &btf))
		btf = NULL;
	hr_map_fields_btf(btf, map_name, f);
	btf__free(btf);
}
