// SPDX-License-Identifier: MIT
/* Programs from instruction arrays for the engine tests (insn_progs.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "insn_progs.h"
#include "progs/ctx.h"
#include "vm/engine.h"

struct hr_insn t_insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off,
		      int32_t imm)
{
	struct hr_insn i = {
		.code = code, .dst = dst, .src = src, .off = off, .imm = imm
	};

	return i;
}

struct hr_prog *t_insn_prog(const struct hr_prog_type *type,
			    struct hr_object *obj, bool frags,
			    const struct hr_insn *insns, uint32_t cnt,
			    char *err, size_t errsz, int *ret)
{
	struct hr_prog *p = calloc(1, sizeof(*p));

	if (!p) {
		*ret = -ENOMEM;
		return NULL;
	}
	p->name = strdup("regress");
	p->sec = strdup(type == &hr_prog_type_tc ? "tc" : "xdp");
	p->frags = frags;
	p->insns = malloc(cnt * sizeof(*insns));
	memcpy(p->insns, insns, cnt * sizeof(*insns));
	p->cnt = cnt;
	p->type = type;
	p->obj = obj;
	*ret = hr_prog_finalize(p, err, errsz);
	if (*ret) {
		hr_prog_free(p);
		return NULL;
	}
	return p;
}

long long t_insn_xdp_run(struct hr_prog *prog, enum hr_engine eng)
{
	int why;
	uint32_t pc;

	return t_insn_xdp_run_why(prog, eng, &why, &pc);
}

long long t_insn_xdp_run_why(struct hr_prog *prog, enum hr_engine eng, int *why,
			     uint32_t *pc)
{
	return t_xdp_run_pkt(prog, eng, NULL, why, pc);
}

long long t_xdp_run_pkt(struct hr_prog *prog, enum hr_engine eng,
			uint8_t pkt[64], int *why, uint32_t *pc)
{
	uint8_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	struct hr_run *run = aligned_alloc(64, (sizeof(*run) + 63) & ~63ul);
	struct hr_xdp_buff xdp = { 0 };
	struct hr_xdp_ctx c = { 0 };
	long long r0;

	if (pkt)
		memcpy(page + 256, pkt, 64);
	xdp.data_hard_start = page;
	xdp.data = xdp.data_meta = page + 256;
	xdp.data_end = page + 256 + 64;
	xdp.frame_sz = 4096;
	c.xdp = &xdp;
	hr_prog_run_init(prog, run, &c.md);
	run->priv = &c;
	hr_xdp_ctx_sync(&c, run);
	r0 = (long long)hr_engine_run_ctx(eng, run);
	*why = run->abort;
	*pc = run->abort_pc;
	if (run->abort)
		r0 = -1;
	if (pkt)
		memcpy(pkt, page + 256, 64);
	free(run);
	munmap(page, 4096);
	return r0;
}
