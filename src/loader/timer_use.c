// SPDX-License-Identifier: MIT
/*
 * Where a map value's struct bpf_timer and struct bpf_wq sit, from the
 * object's BTF, and the loader's refusal of a program calling the timer
 * helpers or the wq kfuncs when no map can hold one: what the kernel's
 * map_check_btf (kernel/bpf/syscall.c) and check_map_field_pointer
 * (kernel/bpf/verifier.c) leave.
 *
 * map_check_btf refuses a bpf_timer or a bpf_wq in any map but a hash, an
 * LRU hash or an array (-EOPNOTSUPP); libbpf then creates the map again
 * without BTF, and the verifier refuses a timer helper or a wq kfunc on
 * it: "map 'NAME' has to have BTF in order to use bpf_timer" (bpf_wq). A
 * value with no such field at all is "map 'NAME' has no valid bpf_timer".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include "loader/map_fields.h"
#include "maps/map.h"
#include "maps/map_timer.h"
#include "progs/prog.h"
#include "vm/isa.h"

/* The first helpers and last of bpf_timer_* (enum bpf_func_id). */
#define HR_FUNC_TIMER_INIT 169
#define HR_FUNC_TIMER_CANCEL 172

void hr_ld_map_timer(struct hr_loader *ld, struct hr_map *map)
{
	struct hr_map_fields f;

	unsigned int i;

	hr_map_fields_btf(ld->btf, map->name, &f);
	/* Kptrs of arrays and hashes (the per-CPU ones not yet). */
	if (hr_map_timer_type_ok(map->attr.type))
		for (i = 0; i < f.nkptrs && i < HR_MAP_MAX_KPTRS; i++) {
			if (f.kptr_percpu & (1u << i))
				map->kptr_percpu |= 1u << map->nkptrs;
			map->kptr_off[map->nkptrs++] = f.kptr_off[i];
		}
	if ((f.nkptrs ? f.unsure_but_kptrs : f.unsure) ||
	    !hr_map_timer_type_ok(map->attr.type))
		return;
	map->timer_off = f.timer_off;
	map->wq_off = f.wq_off;
}

/* The first call of a timer helper (a wq kfunc when @wq) in @prog, or -1. */
static int64_t async_call(const struct hr_prog *prog, bool wq)
{
	uint32_t i;

	for (i = 0; i < prog->cnt; i++) {
		const struct hr_insn *in = &prog->insns[i];
		const struct hr_kfunc *k;

		if (in->code != (HR_JMP | HR_CALL))
			continue;
		if (!wq && in->src == 0 && in->imm >= HR_FUNC_TIMER_INIT &&
		    in->imm <= HR_FUNC_TIMER_CANCEL)
			return i;
		k = prog->kfuncs ? prog->kfuncs[i] : NULL;
		if (wq && in->src == HR_CALL_KFUNC && k &&
		    !strncmp(k->name, "bpf_wq_", 7))
			return i;
	}
	return -1;
}

/* Whether @prog loads the address of @map (an ld_imm64 the relocations
 * made its pointer). */
static bool uses_map(const struct hr_prog *prog, const struct hr_map *map)
{
	uint32_t i;

	for (i = 0; i + 1 < prog->cnt; i++)
		if (prog->insns[i].code == HR_OPC_LDDW &&
		    hr_insn_lddw_value(&prog->insns[i]) ==
			    (uint64_t)(uintptr_t)map)
			return true;
	return false;
}

/* The refusal of @prog's call at @at of a helper or kfunc on @field
 * (bpf_timer, bpf_wq) when no map it names holds one; 0 when one does. */
static int check_use(struct hr_loader *ld, const struct hr_prog *prog,
		     int64_t at, bool wq)
{
	const char *field = wq ? "bpf_wq" : "bpf_timer";
	const struct hr_object *obj = ld->obj;
	const struct hr_map *refused = NULL, *no_btf = NULL, *outer = NULL;
	unsigned int i;
	char why[256];
	int err = -EINVAL;

	/* The maps the program names: the field's is among them, or is an
	 * inner map of one. */
	for (i = 0; i < obj->nmaps; i++) {
		const struct hr_map *m = obj->maps[i];
		struct hr_map_fields f;

		if (!uses_map(prog, m))
			continue;
		if ((wq ? m->wq_off : m->timer_off) >= 0)
			return 0;
		if (m->attr.type == HR_MAP_ARRAY_OF_MAPS ||
		    m->attr.type == HR_MAP_HASH_OF_MAPS)
			outer = outer ? outer : m;
		hr_map_fields_btf(ld->btf, m->name, &f);
		if ((wq ? f.wq_off : f.timer_off) >= 0 && !refused)
			refused = m;
		if (!f.has_btf && !no_btf)
			no_btf = m;
	}
	if (refused) {
		snprintf(why, sizeof(why),
			 "map '%s' has to have BTF in order to use %s "
			 "(the kernel: a %s cannot hold a %s, "
			 "map_check_btf refuses its BTF with -EOPNOTSUPP and "
			 "libbpf creates it without)",
			 refused->name, field,
			 hr_map_type_name(refused->attr.type), field);
	} else if (outer) {
		err = -EOPNOTSUPP;
		snprintf(why, sizeof(why),
			 "%ss in the values of inner maps (map '%s' holds "
			 "maps) are not implemented",
			 field, outer->name);
	} else if (no_btf) {
		snprintf(why, sizeof(why),
			 "map '%s' has to have BTF in order to use %s "
			 "(its value has no BTF type)",
			 no_btf->name, field);
	} else {
		snprintf(why, sizeof(why),
			 "no map the program uses has a valid %s: the "
			 "kernel refuses a %s on a map whose value "
			 "has no struct %s in its BTF",
			 field, wq ? "wq kfunc" : "timer helper", field);
	}
	return hr_ld_error(ld, err, "section '%s' insn %lld: %s", prog->sec,
			   (long long)at, why);
}

int hr_ld_check_timer_use(struct hr_loader *ld, const struct hr_prog *prog)
{
	int64_t timer = async_call(prog, false), wq = async_call(prog, true);
	int ret = 0;

	if (timer >= 0)
		ret = check_use(ld, prog, timer, false);
	if (!ret && wq >= 0)
		ret = check_use(ld, prog, wq, true);
	return ret;
}
