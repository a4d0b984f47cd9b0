// SPDX-License-Identifier: MIT
/*
 * .BTF.ext: libbpf 1.1 keeps its parser private, so the CO-RE part is read
 * here. Layout (Documentation/bpf/btf.rst): a header whose offsets count
 * from its end; the core_relo subsection is a record size, then per
 * section { name offset, record count, records } with records of
 * { insn byte offset, type id, access string offset, kind }.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "loader/core_relo.h"
#include "loader/loader.h"

#define BTF_EXT_MAGIC 0xeB9F
#define CORE_REC_MIN 16
#define FUNC_REC_MIN 8 /* struct bpf_func_info */
#define LINE_REC_MIN 16 /* struct bpf_line_info */

struct ext_hdr {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t func_info_off;
	uint32_t func_info_len;
	uint32_t line_info_off;
	uint32_t line_info_len;
	uint32_t core_relo_off; /* absent in headers of 24 bytes */
	uint32_t core_relo_len;
};

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The core_relo subsection's bounds, or 0 with *len 0 when absent. */
static int core_bounds(const uint8_t *data, size_t size, const uint8_t **p,
		       size_t *len, char *why, size_t whysz)
{
	struct ext_hdr h = { 0 };

	*len = 0;
	if (size < 8) {
		snprintf(why, whysz, "truncated .BTF.ext header");
		return -EINVAL;
	}
	memcpy(&h, data, size < sizeof(h) ? size : sizeof(h));
	if (h.magic != BTF_EXT_MAGIC) {
		snprintf(why, whysz, "bad .BTF.ext magic 0x%x", h.magic);
		return -EINVAL;
	}
	if (h.hdr_len > size) {
		snprintf(why, whysz, "truncated .BTF.ext header");
		return -EINVAL;
	}
	if (h.hdr_len < sizeof(h) || !h.core_relo_len)
		return 0;
	if ((uint64_t)h.hdr_len + h.core_relo_off + h.core_relo_len > size) {
		snprintf(why, whysz, "truncated .BTF.ext core_relo section");
		return -EINVAL;
	}
	*p = data + h.hdr_len + h.core_relo_off;
	*len = h.core_relo_len;
	return 0;
}

static int grow(struct hr_core_rec **recs, size_t n, size_t more)
{
	struct hr_core_rec *r = realloc(*recs, (n + more) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	*recs = r;
	return 0;
}

int hr_btf_ext_core_recs(const uint8_t *data, size_t size,
			 const struct btf *btf, struct hr_core_rec **recs,
			 size_t *n, char *why, size_t whysz)
{
	const uint8_t *p = NULL, *end;
	uint32_t rec_sz, cnt, i;
	size_t len;
	int ret;

	*recs = NULL;
	*n = 0;
	ret = core_bounds(data, size, &p, &len, why, whysz);
	if (ret || !len)
		return ret;
	end = p + len;
	if (len < 4 || (rec_sz = rd32(p)) < CORE_REC_MIN) {
		snprintf(why, whysz, "bad CO-RE record size in .BTF.ext");
		return -EINVAL;
	}
	for (p += 4; p < end; p += (size_t)cnt * rec_sz) {
		const char *sec;

		if (end - p < 8) {
			snprintf(why, whysz, "truncated .BTF.ext core_relo");
			return -EINVAL;
		}
		sec = btf__name_by_offset(btf, rd32(p));
		cnt = rd32(p + 4);
		p += 8;
		if (!sec || (uint64_t)cnt * rec_sz > (uint64_t)(end - p)) {
			snprintf(why, whysz, "truncated .BTF.ext core_relo");
			return -EINVAL;
		}
		if (grow(recs, *n, cnt ? cnt : 1)) {
			snprintf(why, whysz, "out of memory");
			return -ENOMEM;
		}
		for (i = 0; i < cnt; i++) {
			const uint8_t *r = p + (size_t)i * rec_sz;
			struct hr_core_rec *c = &(*recs)[(*n)++];

			c->sec = sec;
			c->insn = rd32(r) / HR_INSN_SZ;
			c->type_id = rd32(r + 4);
			c->access = btf__name_by_offset(btf, rd32(r + 8));
			c->kind = rd32(r + 12);
			if (!c->access) {
				snprintf(why, whysz,
					 "section '%s' insn %u: CO-RE access "
					 "string out of range",
					 sec, c->insn);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* The code section of the object named @name, or NULL. */
static const struct hr_ld_sec *code_sec(const struct hr_loader *ld,
					const char *name)
{
	size_t i;

	for (i = 1; i < ld->nsecs; i++) {
		const struct hr_ld_sec *s = &ld->secs[i];

		if ((s->kind == HR_SEC_TEXT || s->kind == HR_SEC_PROG ||
		     s->kind == HR_SEC_SKIPPED) &&
		    !strcmp(s->name, name))
			return s;
	}
	return NULL;
}

/*
 * One subsection (func_info, line_info or core_relo): a record size, then
 * per section { name offset, record count, records }. Every record lies
 * inside the subsection, every count is non-zero (as libbpf asks), and
 * every record's first field, an instruction's byte offset, is on an
 * instruction boundary inside the code section it names.
 */
static int check_info(struct hr_loader *ld, const char *what, const uint8_t *p,
		      uint32_t len, uint32_t min_rec)
{
	const uint8_t *end = p + len;
	uint32_t rec_sz, cnt, i, off;

	if (len < 4)
		return hr_ld_error(ld, -EINVAL, ".BTF.ext %s: %u bytes", what,
				   len);
	rec_sz = rd32(p);
	if (rec_sz < min_rec || rec_sz % 4)
		return hr_ld_error(ld, -EINVAL,
				   ".BTF.ext %s: bad record size %u", what,
				   rec_sz);
	for (p += 4; p < end; p += (size_t)cnt * rec_sz) {
		const struct hr_ld_sec *sec;
		const char *name;

		if (end - p < 8)
			return hr_ld_error(ld, -EINVAL,
					   ".BTF.ext %s: truncated section "
					   "header at byte %zu",
					   what, (size_t)(len - (end - p)));
		name = btf__name_by_offset(ld->btf, rd32(p));
		cnt = rd32(p + 4);
		p += 8;
		if (!name || !name[0])
			return hr_ld_error(ld, -EINVAL,
					   ".BTF.ext %s: section name offset "
					   "%u out of range",
					   what, rd32(p - 8));
		if (!cnt || (uint64_t)cnt * rec_sz > (uint64_t)(end - p))
			return hr_ld_error(ld, -EINVAL,
					   ".BTF.ext %s: section '%s': %u "
					   "records of %u bytes do not fit "
					   "in %zu bytes",
					   what, name, cnt, rec_sz,
					   (size_t)(end - p));
		sec = code_sec(ld, name);
		for (i = 0; sec && i < cnt; i++) {
			off = rd32(p + (size_t)i * rec_sz);
			if (off % HR_INSN_SZ || off >= sec->size)
				return hr_ld_error(
					ld, -EINVAL,
					".BTF.ext %s: section '%s' record "
					"%u: insn_off 0x%x outside the "
					"section's instructions (%zu bytes)",
					what, name, i, off, sec->size);
		}
	}
	return 0;
}

/* Whether the kernel takes the object's BTF: where it refuses it, libbpf
 * loads the programs without it (and so without func_info). Only the
 * refusal clang's output meets in practice is looked for: btf_func_check's
 * "Invalid arg#N", a named function whose prototype has a parameter with
 * a type but no name (naked functions written with unnamed ones). Extern
 * functions (kfuncs: clang names none of their parameters) are left out:
 * libbpf names their parameters after its dummy .ksyms variable before
 * loading the BTF. */
static bool btf_loads(const struct btf *btf)
{
	uint32_t id, n = btf__type_cnt(btf);

	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_type *proto;
		const struct btf_param *p;
		uint16_t i;

		/* A FUNC's vlen is its linkage. */
		if (!t || !btf_is_func(t) || btf_vlen(t) == BTF_FUNC_EXTERN)
			continue;
		proto = btf__type_by_id(btf, t->type);
		if (!proto || !btf_is_func_proto(proto))
			continue;
		p = btf_params(proto);
		for (i = 0; i < btf_vlen(proto); i++)
			if (!p[i].name_off && p[i].type)
				return false;
	}
	return true;
}

bool hr_ld_has_func_info(const struct hr_loader *ld)
{
	struct ext_hdr h = { 0 };

	if (!ld->btf || !ld->btf_ext || ld->btf_ext_size < 24)
		return false;
	memcpy(&h, ld->btf_ext,
	       ld->btf_ext_size < sizeof(h) ? ld->btf_ext_size : sizeof(h));
	/* A record size, then at least one section's header and record. */
	if (h.magic != BTF_EXT_MAGIC || h.func_info_len <= 4)
		return false;
	return btf_loads(ld->btf);
}

int hr_ld_check_btf_ext(struct hr_loader *ld)
{
	const uint8_t *data = ld->btf_ext;
	size_t size = ld->btf_ext_size;
	struct ext_hdr h = { 0 };
	uint64_t start;
	int ret = 0;

	if (!data)
		return 0;
	if (size < 8)
		return hr_ld_error(ld, -EINVAL,
				   "truncated .BTF.ext header (%zu bytes)",
				   size);
	memcpy(&h, data, size < sizeof(h) ? size : sizeof(h));
	if (h.magic != BTF_EXT_MAGIC)
		return hr_ld_error(ld, -EINVAL, "bad .BTF.ext magic 0x%x",
				   h.magic);
	/* The func_info and line_info pairs are in every header. */
	if (h.hdr_len < offsetof(struct ext_hdr, core_relo_off) ||
	    h.hdr_len > size)
		return hr_ld_error(ld, -EINVAL,
				   ".BTF.ext header length %u (section %zu "
				   "bytes)",
				   h.hdr_len, size);
	if (h.hdr_len < sizeof(h))
		h.core_relo_off = h.core_relo_len = 0;
	start = h.hdr_len;
	{
		const struct {
			const char *what;
			uint32_t off, len, min;
		} sub[] = {
			{ "func_info", h.func_info_off, h.func_info_len,
			  FUNC_REC_MIN },
			{ "line_info", h.line_info_off, h.line_info_len,
			  LINE_REC_MIN },
			{ "core_relo", h.core_relo_off, h.core_relo_len,
			  CORE_REC_MIN },
		};
		size_t i;

		for (i = 0; i < sizeof(sub) / sizeof(sub[0]) && !ret; i++) {
			if (!sub[i].len)
				continue;
			if (start + sub[i].off > size ||
			    sub[i].len > size - start - sub[i].off)
				return hr_ld_error(
					ld, -EINVAL,
					".BTF.ext %s: offset %u length %u "
					"outside the section (%zu bytes)",
					sub[i].what, sub[i].off, sub[i].len,
					size);
			ret = check_info(ld, sub[i].what,
					 data + start + sub[i].off, sub[i].len,
					 sub[i].min);
		}
	}
	return ret;
}
