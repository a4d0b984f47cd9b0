// SPDX-License-Identifier: MIT
/*
 * .BTF.ext: libbpf 1.1 keeps its parser private, so the CO-RE part is read
 * here. Layout (Documentation/bpf/btf.rst): a header whose offsets count
 * from its end; the core_relo subsection is a record size, then per
 * section { name offset, record count, records } with records of
 * { insn byte offset, type id, access string offset, kind }.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "core_relo.h"
#include "loader.h"

#define BTF_EXT_MAGIC 0xeB9F
#define CORE_REC_MIN 16

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
