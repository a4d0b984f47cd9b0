// SPDX-License-Identifier: MIT
/*
 * Linking one program: its function's instructions, then each subprogram
 * it reaches (bpf-to-bpf calls, callback addresses) appended once at the
 * end, as libbpf lays programs out; relocations turn map references into
 * map pointers, global data references into value addresses and kfunc
 * externs into resolved kfunc calls.
 */
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "helpers/helpers.h"
#include "helpers/offer.h"
#include "loader/core_relo.h"
#include "loader/loader.h"
#include "maps/map.h"

/* A function of some section, copied into the program at @at. */
struct link_func {
	uint32_t sec;
	uint32_t start; /* first instruction, in the section */
	uint32_t cnt;
	uint32_t at; /* first instruction, in the program */
	bool global; /* its symbol is not STB_LOCAL */
};

struct link {
	struct hr_loader *ld;
	struct hr_prog *prog;
	struct hr_insn *insns;
	hr_helper_fn *calls;
	const struct hr_kfunc **kfuncs;
	/* Per program instruction: the section instruction it came from. */
	uint32_t *orig_sec;
	uint32_t *orig_idx;
	uint32_t cnt, cap;
	struct link_func *funcs;
	uint32_t nfuncs;
};

static int resize(void *pp, size_t n, size_t size)
{
	void **p = pp, *q = realloc(*p, n * size);

	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

/* Makes room for @need instructions in the five parallel arrays. */
static int link_grow(struct link *l, uint32_t need)
{
	uint32_t cap = l->cap ? l->cap : 64;

	while (cap < need)
		cap *= 2;
	if (cap == l->cap)
		return 0;
	if (resize(&l->insns, cap, sizeof(*l->insns)) ||
	    resize(&l->calls, cap, sizeof(*l->calls)) ||
	    resize(&l->kfuncs, cap, sizeof(*l->kfuncs)) ||
	    resize(&l->orig_sec, cap, sizeof(*l->orig_sec)) ||
	    resize(&l->orig_idx, cap, sizeof(*l->orig_idx)))
		return -ENOMEM;
	l->cap = cap;
	return 0;
}

/* Copies instructions [start, start + cnt) of @sec to the program's end. */
static int append_func(struct link *l, uint32_t sec, uint32_t start,
		       uint32_t cnt, bool global, uint32_t *at)
{
	const struct hr_ld_sec *s = &l->ld->secs[sec];
	struct link_func *f;
	uint32_t i;

	if (!cnt || ((uint64_t)start + cnt) * HR_INSN_SZ > s->size)
		return hr_ld_error(l->ld, -EINVAL,
				   "section '%s': function at insn %u has a "
				   "bad size",
				   s->name, start);
	if (link_grow(l, l->cnt + cnt))
		return hr_ld_error(l->ld, -ENOMEM, "out of memory");
	f = realloc(l->funcs, (l->nfuncs + 1) * sizeof(*f));
	if (!f)
		return hr_ld_error(l->ld, -ENOMEM, "out of memory");
	l->funcs = f;
	l->funcs[l->nfuncs++] = (struct link_func){ .sec = sec,
						    .start = start,
						    .cnt = cnt,
						    .at = l->cnt,
						    .global = global };
	memcpy(l->insns + l->cnt, s->data + (size_t)start * HR_INSN_SZ,
	       (size_t)cnt * HR_INSN_SZ);
	for (i = 0; i < cnt; i++) {
		l->calls[l->cnt + i] = NULL;
		l->kfuncs[l->cnt + i] = NULL;
		l->orig_sec[l->cnt + i] = sec;
		l->orig_idx[l->cnt + i] = start + i;
	}
	*at = l->cnt;
	l->cnt += cnt;
	return 0;
}

/* The function symbol of @sec whose body holds instruction @idx. */
static const struct hr_ld_sym *func_at(const struct hr_loader *ld, uint32_t sec,
				       uint32_t idx)
{
	uint64_t off = (uint64_t)idx * HR_INSN_SZ;
	size_t i;

	for (i = 0; i < ld->nsyms; i++) {
		const struct hr_ld_sym *s = &ld->syms[i];

		if (s->shndx == sec && s->type == STT_FUNC && s->value <= off &&
		    off - s->value < s->size)
			return s;
	}
	return NULL;
}

static int reloc_range(struct link *l, uint32_t start, uint32_t end);

/* Program index of section instruction @idx of @sec, linking it in. */
static int target_pc(struct link *l, uint32_t pc, uint32_t sec, int64_t idx,
		     uint32_t *out)
{
	const struct hr_ld_sec *s = &l->ld->secs[sec];
	const struct hr_ld_sym *fn;
	uint32_t i, at;
	int ret;

	for (i = 0; i < l->nfuncs; i++) {
		const struct link_func *f = &l->funcs[i];

		if (f->sec == sec && idx >= f->start &&
		    idx < (int64_t)f->start + f->cnt) {
			*out = f->at + (uint32_t)(idx - f->start);
			return 0;
		}
	}
	if (s->kind != HR_SEC_TEXT && s->kind != HR_SEC_PROG &&
	    s->kind != HR_SEC_SKIPPED)
		return hr_ld_error(l->ld, -EINVAL,
				   "section '%s' insn %u: call into "
				   "non-code section '%s'",
				   l->prog->sec, pc, s->name);
	fn = idx >= 0 && idx < UINT32_MAX ? func_at(l->ld, sec, (uint32_t)idx) :
					    NULL;
	if (!fn || fn->value % HR_INSN_SZ || fn->size % HR_INSN_SZ)
		return hr_ld_error(l->ld, -EINVAL,
				   "section '%s' insn %u: call target %lld "
				   "of '%s' is not inside a function",
				   l->prog->sec, pc, (long long)idx, s->name);
	ret = append_func(l, sec, (uint32_t)(fn->value / HR_INSN_SZ),
			  (uint32_t)(fn->size / HR_INSN_SZ),
			  fn->bind != STB_LOCAL, &at);
	if (ret)
		return ret;
	/* libbpf relocates a subprogram as soon as it appends it, before
	 * its caller's next call (bpf_object__reloc_code): the order, and
	 * so the kernel's instruction numbers, depth first. */
	ret = reloc_range(l, at, at + (uint32_t)(fn->size / HR_INSN_SZ));
	if (ret)
		return ret;
	*out = at + (uint32_t)(idx - fn->value / HR_INSN_SZ);
	return 0;
}

static const struct hr_ld_rel *find_rel(const struct hr_ld_sec *s, uint32_t idx)
{
	uint64_t off = (uint64_t)idx * HR_INSN_SZ;
	size_t lo = 0, hi = s->nrels;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->rels[mid].off < off)
			lo = mid + 1;
		else if (s->rels[mid].off > off)
			hi = mid;
		else
			return &s->rels[mid];
	}
	return NULL;
}

static bool is_code(const struct hr_ld_sec *s)
{
	return s->kind == HR_SEC_TEXT || s->kind == HR_SEC_PROG ||
	       s->kind == HR_SEC_SKIPPED;
}

/* ld_imm64 of a subprogram's address: a bpf_loop callback, say. */
static int reloc_func_addr(struct link *l, uint32_t pc,
			   const struct hr_ld_sym *sym)
{
	struct hr_insn *insn = &l->insns[pc];
	int64_t off = (int64_t)sym->value + insn->imm;
	uint32_t dst;
	int ret;

	if (off % HR_INSN_SZ)
		return hr_ld_error(l->ld, -EINVAL,
				   "section '%s' insn %u: misaligned "
				   "function address",
				   l->prog->sec, pc);
	ret = target_pc(l, pc, sym->shndx, off / HR_INSN_SZ, &dst);
	if (ret)
		return ret;
	/* The kernel's encoding: src 4 and imm relative to the next insn. */
	insn = &l->insns[pc];
	insn[0].src = HR_PSEUDO_FUNC;
	insn[0].imm = (int32_t)((int64_t)dst - pc - 1);
	insn[1].imm = 0;
	return 0;
}

static int reloc_data(struct link *l, uint32_t pc, const struct hr_ld_sym *sym,
		      const struct hr_ld_sec *s)
{
	struct hr_insn *insn = &l->insns[pc];
	int64_t off = (int64_t)insn->imm + (int64_t)sym->value;

	if (off < 0 || (uint64_t)off >= s->size)
		return hr_ld_error(l->ld, -EINVAL,
				   "section '%s' insn %u: offset %lld "
				   "outside '%s' (%zu bytes)",
				   l->prog->sec, pc, (long long)off, s->name,
				   s->size);
	insn->src = HR_PSEUDO_MAP_VALUE;
	hr_insn_set_lddw(insn, (uint64_t)(uintptr_t)(s->value + off));
	return 0;
}

static int reloc_lddw(struct link *l, uint32_t pc, const struct hr_ld_rel *r,
		      const struct hr_ld_sym *sym)
{
	struct hr_loader *ld = l->ld;
	const struct hr_ld_sec *s;
	struct hr_map *map;

	if (r->type != HR_R_BPF_64_64)
		return hr_ld_error(ld, -EOPNOTSUPP,
				   "section '%s' insn %u: relocation type %u "
				   "not supported",
				   l->prog->sec, pc, r->type);
	if (sym->shndx == SHN_UNDEF || sym->shndx >= ld->nsecs)
		return hr_ld_error(ld, -EOPNOTSUPP,
				   "section '%s' insn %u: extern variable "
				   "'%s' not supported",
				   l->prog->sec, pc, sym->name);
	s = &ld->secs[sym->shndx];
	if (is_code(s))
		return reloc_func_addr(l, pc, sym);
	switch (s->kind) {
	case HR_SEC_MAPS:
	case HR_SEC_LEGACY_MAPS:
		map = hr_ld_map_at(ld, sym->shndx, sym->value);
		if (!map)
			return hr_ld_error(ld, -EINVAL,
					   "section '%s' insn %u: no map at "
					   "'%s' offset %llu",
					   l->prog->sec, pc, s->name,
					   (unsigned long long)sym->value);
		l->insns[pc].src = HR_PSEUDO_MAP_FD;
		hr_insn_set_lddw(&l->insns[pc], (uint64_t)(uintptr_t)map);
		return 0;
	case HR_SEC_DATA:
	case HR_SEC_RODATA:
	case HR_SEC_BSS:
		return reloc_data(l, pc, sym, s);
	default:
		return hr_ld_error(ld, -EOPNOTSUPP,
				   "section '%s' insn %u: reference to "
				   "section '%s' not supported",
				   l->prog->sec, pc, s->name);
	}
}

/* A call to an undefined symbol: a __ksym kfunc the program type has. */
static int reloc_kfunc(struct link *l, uint32_t pc, const struct hr_ld_sym *sym)
{
	const struct hr_prog_type *type = l->prog->type;
	const struct hr_kfunc *k = type->kfunc ? type->kfunc(sym->name) : NULL;
	const struct hr_offer *o = hr_offer_kfunc(sym->name);
	struct hr_insn *insn = &l->insns[pc];

	if (sym->bind != STB_GLOBAL && sym->bind != STB_WEAK)
		return hr_ld_error(l->ld, -EINVAL,
				   "section '%s' insn %u: call to undefined "
				   "local '%s'",
				   l->prog->sec, pc, sym->name);
	/* The verifier's "calling kernel function %s is not allowed": the
	 * kernel registers kfunc sets per program type. */
	if (!k && o && !(o->types & hr_offer_type(type->kernel_type)))
		return hr_ld_error(l->ld, -EACCES,
				   "section '%s' insn %u: kfunc %s is not "
				   "allowed in %s programs",
				   l->prog->sec, pc, sym->name, type->name);
	if (!k && o)
		return hr_ld_error(l->ld, -EOPNOTSUPP,
				   "section '%s' insn %u: kfunc %s is not "
				   "available to %s programs in headroom: %s",
				   l->prog->sec, pc, sym->name, type->name,
				   hr_offer_why(o));
	if (!k)
		return hr_ld_error(l->ld, -EOPNOTSUPP,
				   "section '%s' insn %u: unknown kfunc %s",
				   l->prog->sec, pc, sym->name);
	if (k->ctx_type && k->ctx_type != type->kernel_type)
		return hr_ld_error(l->ld, -EINVAL,
				   "section '%s' insn %u: kfunc %s takes "
				   "another program type's context: R1 must "
				   "be referenced or trusted",
				   l->prog->sec, pc, sym->name);
	if (hr_kfunc_find(hr_ct_kfuncs, sym->name))
		hr_ld_ct_setup(l->ld);
	insn->src = HR_CALL_KFUNC;
	insn->imm = 0;
	insn->off = 0;
	l->calls[pc] = k->fn;
	l->kfuncs[pc] = k;
	return 0;
}

static int reloc_call(struct link *l, uint32_t pc, const struct hr_ld_rel *r)
{
	struct hr_loader *ld = l->ld;
	struct hr_insn *insn = &l->insns[pc];
	const struct hr_ld_sym *sym;
	uint32_t sec = l->orig_sec[pc], dst;
	int64_t idx;
	int ret;

	if (r) {
		if (r->type != HR_R_BPF_64_32)
			return hr_ld_error(ld, -EOPNOTSUPP,
					   "section '%s' insn %u: relocation "
					   "type %u not supported",
					   l->prog->sec, pc, r->type);
		sym = &ld->syms[r->sym];
		if (sym->shndx == SHN_UNDEF)
			return reloc_kfunc(l, pc, sym);
		if (sym->shndx >= ld->nsecs || !is_code(&ld->secs[sym->shndx]))
			return hr_ld_error(ld, -EINVAL,
					   "section '%s' insn %u: call to "
					   "'%s' outside code",
					   l->prog->sec, pc, sym->name);
		/* Function symbol: imm -1; section symbol: imm = target-1. */
		sec = sym->shndx;
		idx = (int64_t)(sym->value / HR_INSN_SZ) + insn->imm + 1;
	} else if (insn->src == HR_CALL_LOCAL) {
		/* No relocation: a call inside the same section. */
		idx = (int64_t)l->orig_idx[pc] + insn->imm + 1;
	} else {
		return 0; /* a helper call, finalize resolves it */
	}
	ret = target_pc(l, pc, sec, idx, &dst);
	if (ret)
		return ret;
	insn = &l->insns[pc];
	insn->src = HR_CALL_LOCAL;
	insn->imm = (int32_t)((int64_t)dst - pc - 1);
	return 0;
}

static bool is_call(const struct hr_insn *insn)
{
	return insn->code == (HR_JMP | HR_CALL);
}

static int core_apply(struct link *l, uint32_t pc);

static int reloc_insn(struct link *l, uint32_t pc)
{
	struct hr_loader *ld = l->ld;
	const struct hr_ld_sec *os = &ld->secs[l->orig_sec[pc]];
	const struct hr_ld_rel *r = find_rel(os, l->orig_idx[pc]);
	struct hr_insn *insn = &l->insns[pc];
	int ret = core_apply(l, pc);

	if (ret)
		return ret;

	if (r && r->sym >= ld->nsyms)
		return hr_ld_error(ld, -EINVAL,
				   "section '%s' insn %u: relocation symbol "
				   "%u out of range",
				   l->prog->sec, pc, r->sym);
	if (is_call(insn))
		return reloc_call(l, pc, r);
	if (!r)
		return 0;
	if (hr_insn_is_lddw(insn) && pc + 1 < l->cnt)
		return reloc_lddw(l, pc, r, &ld->syms[r->sym]);
	return hr_ld_error(ld, -EINVAL,
			   "section '%s' insn %u: relocation on an "
			   "instruction that is neither ld_imm64 nor call",
			   l->prog->sec, pc);
}

static void link_free(struct link *l)
{
	free(l->insns);
	free(l->calls);
	free(l->kfuncs);
	free(l->orig_sec);
	free(l->orig_idx);
	free(l->funcs);
}

/* The functions linked, for headroom check's call frames. */
static int link_funcs(struct link *l, struct hr_prog *prog)
{
	uint32_t i;

	prog->funcs = calloc(l->nfuncs, sizeof(*prog->funcs));
	if (!prog->funcs)
		return hr_ld_error(l->ld, -ENOMEM, "out of memory");
	prog->nfuncs = l->nfuncs;
	for (i = 0; i < l->nfuncs; i++) {
		const struct hr_ld_sym *fs =
			func_at(l->ld, l->funcs[i].sec, l->funcs[i].start);

		prog->funcs[i] = (struct hr_prog_func){
			.name = fs && fs->name ? strdup(fs->name) : NULL,
			.start = l->funcs[i].at,
			.cnt = l->funcs[i].cnt,
			.sec = strdup(l->ld->secs[l->funcs[i].sec].name),
			.sec_insn = l->funcs[i].start,
			.global = l->funcs[i].global,
		};
		if (!prog->funcs[i].sec ||
		    (fs && fs->name && !prog->funcs[i].name))
			return hr_ld_error(l->ld, -ENOMEM, "out of memory");
	}
	return 0;
}

/* Relocates program instructions [start, end), appending (and so
 * relocating) the subprograms they reach. */
static int reloc_range(struct link *l, uint32_t start, uint32_t end)
{
	uint32_t pc;
	int ret = 0;

	for (pc = start; !ret && pc < end; pc++) {
		ret = reloc_insn(l, pc);
		if (hr_insn_is_lddw(&l->insns[pc]))
			pc++;
	}
	return ret;
}

int hr_ld_link_prog(struct hr_loader *ld, struct hr_prog *prog, uint32_t sec,
		    const struct hr_ld_sym *func)
{
	struct link l = { .ld = ld, .prog = prog };
	uint32_t at;
	int ret;

	/* check_syms() bounds every symbol by its section; a section is
	 * far below 2^32 instructions, so the casts below keep every bit. */
	if (func->value % HR_INSN_SZ || func->size % HR_INSN_SZ ||
	    func->value > ld->secs[sec].size ||
	    func->size > ld->secs[sec].size - func->value)
		return hr_ld_error(ld, -EINVAL,
				   "section '%s': program '%s' value 0x%llx "
				   "size %llu is not instructions of the "
				   "section",
				   prog->sec, prog->name,
				   (unsigned long long)func->value,
				   (unsigned long long)func->size);
	ret = append_func(&l, sec, (uint32_t)(func->value / HR_INSN_SZ),
			  (uint32_t)(func->size / HR_INSN_SZ), false, &at);
	/* Each subprogram is relocated where it is appended. */
	if (!ret)
		ret = reloc_range(&l, 0, l.cnt);
	if (ret) {
		link_free(&l);
		return ret;
	}
	ret = link_funcs(&l, prog);
	if (ret) {
		link_free(&l);
		return ret;
	}
	prog->insns = l.insns;
	prog->calls = l.calls;
	prog->kfuncs = l.kfuncs;
	prog->cnt = l.cnt;
	l.insns = NULL;
	l.calls = NULL;
	l.kfuncs = NULL;
	link_free(&l);
	return 0;
}

/* ---- CO-RE ---- */

static int cmp_core(const void *a, const void *b)
{
	const struct hr_core_res *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->insn < y->insn ? -1 : x->insn > y->insn;
}

static int32_t code_sec_by_name(const struct hr_loader *ld, const char *name)
{
	size_t i;

	for (i = 1; i < ld->nsecs; i++)
		if (is_code(&ld->secs[i]) && !strcmp(ld->secs[i].name, name))
			return (int32_t)i;
	return -1;
}

static int core_one(struct hr_loader *ld, const struct hr_core_rec *rec,
		    uint32_t sec)
{
	struct hr_core_res *res = &ld->core[ld->ncore];
	char why[256] = "";
	int ret;

	memset(res, 0, sizeof(*res));
	if (!ld->targ_btf && rec->kind != HR_CORE_TYPE_ID_LOCAL) {
		ld->targ_btf =
			hr_core_target_btf(ld->btf_path, why, sizeof(why));
		if (!ld->targ_btf)
			return hr_ld_error(ld, -ENOENT,
					   "section '%s' insn %u: %s", rec->sec,
					   rec->insn, why);
	}
	ret = hr_core_resolve(ld->btf, ld->targ_btf, rec, res, why,
			      sizeof(why));
	res->sec = sec;
	if (ret && ld->secs[sec].kind == HR_SEC_SKIPPED) {
		/* Not ours to run: keep the reason, poison, go on. */
		res->poison = true;
		if (!res->desc[0])
			snprintf(res->desc, sizeof(res->desc), "%s (%s)",
				 hr_core_kind_str(rec->kind), rec->access);
		ret = 0;
	}
	if (ret)
		return hr_ld_error(ld, ret, "section '%s' insn %u: %s",
				   rec->sec, rec->insn, why);
	ld->ncore++;
	return 0;
}

int hr_ld_core_prepare(struct hr_loader *ld)
{
	struct hr_core_rec *recs = NULL;
	char why[256] = "";
	size_t n = 0, i;
	int32_t sec;
	int ret;

	if (!ld->btf_ext)
		return 0;
	if (!ld->btf)
		return hr_ld_error(ld, -EINVAL, ".BTF.ext without .BTF");
	ret = hr_ld_check_btf_ext(ld);
	if (ret)
		return ret;
	ret = hr_btf_ext_core_recs(ld->btf_ext, ld->btf_ext_size, ld->btf,
				   &recs, &n, why, sizeof(why));
	if (ret)
		goto out;
	ld->core = calloc(n ? n : 1, sizeof(*ld->core));
	if (!ld->core) {
		ret = hr_ld_error(ld, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		sec = code_sec_by_name(ld, recs[i].sec);
		if (sec >= 0)
			ret = core_one(ld, &recs[i], (uint32_t)sec);
	}
	qsort(ld->core, ld->ncore, sizeof(*ld->core), cmp_core);
	free(recs);
	return ret;
out:
	free(recs);
	return ret == -ENOMEM || !why[0] ? ret :
					   hr_ld_error(ld, ret, "%s", why);
}

/* Replaces @pc (both halves of an ld_imm64) with a poison call. */
static void core_poison(struct link *l, uint32_t pc, struct hr_core_res *res)
{
	uint32_t n = hr_insn_is_lddw(&l->insns[pc]) && pc + 1 < l->cnt ? 2 : 1;
	uint32_t i;

	if (!res->poison_id)
		res->poison_id = hr_core_poison_id(res);
	for (i = 0; i < n; i++) {
		struct hr_insn *insn = &l->insns[pc + i];

		memset(insn, 0, sizeof(*insn));
		insn->code = HR_JMP | HR_CALL;
		insn->src = HR_CALL_KFUNC;
		insn->imm = res->poison_id;
		l->calls[pc + i] = hr_core_poison_fn;
	}
}

static struct hr_core_res *core_find(struct hr_loader *ld, uint32_t sec,
				     uint32_t insn)
{
	struct hr_core_res key = { .sec = sec, .insn = insn }, *r;

	if (!ld->ncore)
		return NULL;
	r = bsearch(&key, ld->core, ld->ncore, sizeof(*ld->core), cmp_core);
	/* Several records may name one instruction: start at the first. */
	while (r && r > ld->core && !cmp_core(r - 1, &key))
		r--;
	return r;
}

static int core_apply(struct link *l, uint32_t pc)
{
	struct hr_loader *ld = l->ld;
	struct hr_core_res *r = core_find(ld, l->orig_sec[pc], l->orig_idx[pc]);
	char why[160] = "";
	int ret;

	for (; r && r < ld->core + ld->ncore && r->sec == l->orig_sec[pc] &&
	       r->insn == l->orig_idx[pc];
	     r++) {
		r->applied = true;
		ret = hr_core_patch(&l->insns[pc], l->cnt - pc, r, why,
				    sizeof(why));
		if (ret < 0)
			return hr_ld_error(ld, ret,
					   "section '%s' insn %u: CO-RE "
					   "relocation %s: %s",
					   ld->secs[r->sec].name, r->insn,
					   r->desc, why);
		if (ret > 0) {
			core_poison(l, pc, r);
			return 0;
		}
	}
	return 0;
}
