// SPDX-License-Identifier: MIT
/* Collecting what `headroom inspect` shows, as the loader goes. */
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "loader/core_relo.h"
#include "loader/inspect.h"
#include "loader/loader.h"

void hr_inspect_free(struct hr_inspect *insp)
{
	if (!insp)
		return;
	free(insp->progs);
	free(insp->vars);
	free(insp->core);
	free(insp->kfuncs);
	free(insp);
}

static void *grow(void *p, size_t n, size_t size)
{
	return realloc(p, (n + 1) * size);
}

int hr_ld_insp_prog(struct hr_loader *ld, const char *name, const char *sec,
		    const char *type, uint32_t insns, const char *why)
{
	struct hr_inspect *in = ld->insp;
	struct hr_inspect_prog *p;

	p = grow(in->progs, in->nprogs, sizeof(*p));
	if (!p)
		return -ENOMEM;
	in->progs = p;
	p = &in->progs[in->nprogs++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->sec, sizeof(p->sec), "%s", sec);
	snprintf(p->type, sizeof(p->type), "%s", type);
	p->insns = insns;
	p->runnable = !why;
	if (why)
		snprintf(p->why, sizeof(p->why), "%s", why);
	return 0;
}

static void add_helper(struct hr_inspect *in, int id)
{
	size_t i, j;

	for (i = 0; i < in->nhelpers && in->helpers[i] < id; i++)
		;
	if ((i < in->nhelpers && in->helpers[i] == id) ||
	    in->nhelpers == sizeof(in->helpers) / sizeof(in->helpers[0]))
		return;
	for (j = in->nhelpers; j > i; j--)
		in->helpers[j] = in->helpers[j - 1];
	in->helpers[i] = id;
	in->nhelpers++;
}

static void add_kfunc(struct hr_inspect *in, const char *name)
{
	char(*k)[64];
	size_t i;

	for (i = 0; i < in->nkfuncs; i++)
		if (!strcmp(in->kfuncs[i], name))
			return;
	k = grow(in->kfuncs, in->nkfuncs, sizeof(*k));
	if (!k)
		return;
	in->kfuncs = k;
	snprintf(in->kfuncs[in->nkfuncs++], 64, "%s", name);
}

/* Helper calls (src 0) and kfunc calls (to undefined symbols). */
static void scan_calls(struct hr_loader *ld, const struct hr_ld_sec *s)
{
	size_t n = s->data ? s->size / HR_INSN_SZ : 0, i, r;
	struct hr_insn insn;

	/* Copied out: a section's bytes need not be aligned in the file. */
	for (i = 0; i < n; i++) {
		memcpy(&insn, s->data + i * HR_INSN_SZ, sizeof(insn));
		if (insn.code != (HR_JMP | HR_CALL))
			continue;
		if (insn.src == HR_CALL_HELPER)
			add_helper(ld->insp, insn.imm);
	}
	for (r = 0; r < s->nrels; r++) {
		const struct hr_ld_rel *rel = &s->rels[r];
		size_t at = rel->off / HR_INSN_SZ;

		if (at < n)
			memcpy(&insn, s->data + at * HR_INSN_SZ, sizeof(insn));
		if (at < n && insn.code == (HR_JMP | HR_CALL) &&
		    rel->sym < ld->nsyms &&
		    ld->syms[rel->sym].shndx == SHN_UNDEF)
			add_kfunc(ld->insp, ld->syms[rel->sym].name);
	}
}

static void add_vars(struct hr_loader *ld, const struct hr_ld_sec *s)
{
	struct hr_inspect *in = ld->insp;
	const struct btf_var_secinfo *vsi;
	const struct btf_type *ds, *v;
	struct hr_inspect_var *p;
	int id, k;
	size_t i;

	id = ld->btf ? btf__find_by_name_kind(ld->btf, s->name,
					      BTF_KIND_DATASEC) :
		       -1;
	if (id < 0)
		return;
	ds = btf__type_by_id(ld->btf, id);
	vsi = btf_var_secinfos(ds);
	for (k = 0; k < btf_vlen(ds); k++, vsi++) {
		v = btf__type_by_id(ld->btf, vsi->type);
		if (!v || !btf_is_var(v))
			continue;
		p = grow(in->vars, in->nvars, sizeof(*p));
		if (!p)
			return;
		in->vars = p;
		p = &in->vars[in->nvars++];
		snprintf(p->sec, sizeof(p->sec), "%s", s->name);
		snprintf(p->name, sizeof(p->name), "%s",
			 btf__name_by_offset(ld->btf, v->name_off));
		p->off = vsi->offset;
		p->size = vsi->size;
		for (i = 0; i < ld->nsyms; i++)
			if (ld->syms[i].shndx == (uint32_t)(s - ld->secs) &&
			    !strcmp(ld->syms[i].name, p->name))
				p->off = (uint32_t)ld->syms[i].value;
	}
}

static void add_core(struct hr_loader *ld)
{
	struct hr_inspect *in = ld->insp;
	size_t i;

	in->core = calloc(ld->ncore ? ld->ncore : 1, sizeof(*in->core));
	if (!in->core)
		return;
	for (i = 0; i < ld->ncore; i++) {
		const struct hr_core_res *r = &ld->core[i];
		struct hr_inspect_core *c = &in->core[in->ncore++];

		snprintf(c->sec, sizeof(c->sec), "%s", ld->secs[r->sec].name);
		c->insn = r->insn;
		snprintf(c->kind, sizeof(c->kind), "%s",
			 hr_core_kind_str(r->kind));
		snprintf(c->desc, sizeof(c->desc), "%s", r->desc);
		c->resolved = !r->poison;
		c->value = r->val;
	}
}

void hr_ld_insp_object(struct hr_loader *ld)
{
	size_t i;

	for (i = 1; i < ld->nsecs; i++) {
		const struct hr_ld_sec *s = &ld->secs[i];

		if (s->kind == HR_SEC_PROG || s->kind == HR_SEC_SKIPPED ||
		    s->kind == HR_SEC_TEXT)
			scan_calls(ld, s);
		if (s->kind == HR_SEC_DATA || s->kind == HR_SEC_RODATA ||
		    s->kind == HR_SEC_BSS)
			add_vars(ld, s);
	}
	add_core(ld);
}
