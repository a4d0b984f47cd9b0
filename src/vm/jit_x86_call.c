// SPDX-License-Identifier: MIT
/*
 * The JIT's calls and exits (jit_x86.c): helpers and kfuncs, bpf-to-bpf
 * calls, the calls it inlines (array and hash lookups, XDP hints,
 * bpf_xdp_adjust_meta) and the returns.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "helpers/helpers.h"
#include "maps/map.h"
#include "progs/ctx.h"
#include "progs/prog.h"
#include "vm/jit_x86.h"

#if defined(__x86_64__)

void jx_budget_step(struct jit *j, uint32_t pc)
{
	jx_alu_mi(j, true, 5, RUN, OFF_BUDGET, 1); /* sub qword, 1 */
	jx_jcc_to(j, CC_B, jx_abort_stub(j, pc, HR_ABORT_BUDGET, false, pc));
}

/* Returns after a helper: the interpreter's abort and unwind tests. */
static void after_helper(struct jit *j)
{
	jx_alu_mi(j, false, 7, RUN, OFF_ABORT, 0);
	jx_jcc_to(j, CC_NE, j->l_abort_exit);
	jx_op_rm(j, false, false, 0x80, 1, 7, RUN, OFF_UNWIND); /* cmp byte */
	jx_emit1(j, 0);
	jx_jcc_to(j, CC_NE, j->l_unwind_exit);
}

uint16_t jx_insn_reads(const struct hr_insn *insn);

/* After a call that may be bpf_tail_call: leave for hr_jit_run to follow
 * it when the helper set run->tail_call (abort and unwind tested first, as
 * the interpreter does). */
static void after_tail_call(struct jit *j)
{
	if (!j->tail)
		return;
	jx_alu_mi(j, true, 7, RUN, OFF_TAIL_CALL, 0);
	jx_jcc_to(j, CC_NE, j->l_tail_exit);
}

static void save_args(struct jit *j)
{
	jx_push(j, RDI);
	jx_push(j, RSI);
	jx_push(j, RDX);
	jx_push(j, RCX);
	jx_push(j, R8);
	jx_alu_ri(j, true, 5, RSP, 8);
}

static void restore_args(struct jit *j)
{
	jx_alu_ri(j, true, 0, RSP, 8);
	jx_pop(j, R8);
	jx_pop(j, RCX);
	jx_pop(j, RDX);
	jx_pop(j, RSI);
	jx_pop(j, RDI);
}

static void set_pc(struct jit *j, uint32_t pc)
{
	jx_op_rm(j, false, false, 0xc7, 1, 0, RUN, OFF_PC);
	jx_emit4(j, pc);
}

static void emit_helper(struct jit *j, uint32_t pc, hr_helper_fn fn)
{
	set_pc(j, pc);
	save_args(j);
	jx_mov_rr(j, true, R9, RUN);
	jx_call_abs(j, fn);
	restore_args(j);
	after_helper(j);
	/* The same test as jx_insn_reads(): only helper 12 is bpf_tail_call. */
	if (jx_insn_reads(&j->vm->insns[pc]) == 0x7ff)
		after_tail_call(j);
}

static void emit_callx(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	uint32_t fail = jx_new_label(j);
	static const int8_t args[5] = { R8, RCX, RDX, RSI, RDI };
	int i;

	set_pc(j, pc);
	save_args(j);
	jx_mov_rr(j, true, RSI, bpf2x[insn->dst]);
	jx_mov_rr(j, true, RDI, RUN);
	jx_call_abs(j, hr_jit_callx_lookup);
	jx_op_rr(j, true, false, 0x85, 1, RAX, RAX);
	jx_jcc_to(j, CC_E, fail);
	jx_mov_rr(j, true, R11, RAX);
	for (i = 0; i < 5; i++)
		jx_op_rm(j, true, false, 0x8b, 1, args[i], RSP, 8 * (i + 1));
	jx_mov_rr(j, true, R9, RUN);
	jx_op_rr(j, false, false, 0xff, 1, 2, R11); /* call r11 */
	restore_args(j);
	after_helper(j);
	after_tail_call(j);

	j->cur = 1;
	jx_bind(j, fail);
	jx_alu_ri(j, true, 0, RSP, 48);
	jx_jmp_to(j, jx_abort_stub(j, pc, HR_ABORT_UNKNOWN_CALL, false, pc));
	j->cur = 0;
}

static void emit_local_call(struct jit *j, uint32_t pc,
			    const struct hr_insn *insn)
{
	uint32_t t = pc + 1 + (uint32_t)insn->imm;

	jx_alu_mi(j, false, 7, RUN, OFF_DEPTH, HR_MAX_CALL_FRAMES - 1);
	jx_jcc_to(j, CC_AE,
		  jx_abort_stub(j, pc, HR_ABORT_CALL_DEPTH, false, pc));
	jx_budget_step(j, pc);
	jx_push(j, RBX);
	jx_push(j, R13);
	jx_push(j, R14);
	jx_push(j, R15);
	jx_push(j, RBP);
	jx_alu_ri(j, true, 5, RBP, HR_STACK_SIZE);
	jx_alu_mi(j, false, 0, RUN, OFF_DEPTH, 1);
	jx_call_to(j, jx_target_label(j, t));
	jx_pop(j, RBP);
	jx_pop(j, R15);
	jx_pop(j, R14);
	jx_pop(j, R13);
	jx_pop(j, RBX);
}

/*
 * The map of a bpf_map_lookup_elem at @pc whose r1 the analysis proves is
 * an ld_imm64 constant naming a map of the program's own object (with r10
 * never written, so a key on the stack is at a constant offset), or NULL.
 */
static struct hr_map *own_map_lookup(const struct jit *j, uint32_t pc)
{
	const struct jb_reg *r1 = jb_reg_at(&j->facts, pc, 1);

	if (j->vm->calls[pc] != hr_helper_map_lookup_elem.fn || !r1 ||
	    r1->t != JB_MAP || !j->fp_fixed)
		return NULL;
	return jb_own_map(j->vm, r1->a);
}

/* @reg *= @by (0 < @by <= INT32_MAX): a shift for a power of two. */
static void scale(struct jit *j, int reg, int64_t by)
{
	if (!(by & (by - 1))) {
		jx_op_rr(j, true, false, 0xc1, 1, 4, reg); /* shl reg, n */
		jx_emit1(j, (uint8_t)__builtin_ctzll((uint64_t)by));
		return;
	}
	jx_op_rr(j, true, false, 0x69, 1, reg, reg); /* imul reg, by */
	jx_emit4(j, (uint32_t)by);
}

/*
 * bpf_map_lookup_elem on an ARRAY or PERCPU_ARRAY map named by an ld_imm64
 * constant, with the key on this frame's stack: hr_run_map() accepts the
 * map (it is one of the program's object, which every run of the program
 * is given) and hr_run_mem() the key (the stack rule), so the helper's
 * answer is array.c's: base + cpu * block + key * slot, or NULL when
 * key >= max_entries or (per-CPU) run->cpu >= the map's CPUs. The values
 * do not move (preallocated), so base, slot and block are asked of the
 * map's own lookup once, here, as the kernel's array_map_gen_lookup and
 * percpu_array_map_gen_lookup emit them.
 */
static bool inline_array_lookup(struct jit *j, uint32_t pc)
{
	struct hr_map *map = own_map_lookup(j, pc);
	uint32_t k0 = 0, k1 = 1, null, done, ncpus = 1;
	uint8_t *v0, *v1;
	int64_t slot = 0, block = 0;
	int32_t koff;
	bool percpu;

	if (!map || map->ops != &hr_map_ops_array ||
	    (map->attr.type != HR_MAP_ARRAY &&
	     map->attr.type != HR_MAP_PERCPU_ARRAY) ||
	    map->attr.key_size != 4 || !map->attr.max_entries ||
	    !map->ops->lookup || !jb_fp_arg(&j->facts, pc, 2, 4, &koff))
		return false;
	percpu = map->attr.type == HR_MAP_PERCPU_ARRAY;
	v0 = map->ops->lookup(map, &k0, 0);
	if (!v0)
		return false;
	if (map->attr.max_entries > 1) {
		v1 = map->ops->lookup(map, &k1, 0);
		if (!v1 || v1 <= v0 || v1 - v0 > INT32_MAX)
			return false;
		slot = v1 - v0;
	}
	if (percpu) {
		ncpus = map->attr.ncpus;
		if (!ncpus || ncpus > INT32_MAX)
			return false;
		if (ncpus > 1) {
			v1 = map->ops->lookup(map, &k0, 1);
			if (!v1 || v1 <= v0 || v1 - v0 > INT32_MAX)
				return false;
			block = v1 - v0;
		}
	}
	null = jx_new_label(j);
	done = jx_new_label(j);
	jx_op_rm(j, false, false, 0x8b, 1, RAX, RBP, koff); /* eax = key */
	jx_op_rr(j, false, false, 0x81, 1, 7, RAX); /* cmp eax, max */
	jx_emit4(j, map->attr.max_entries);
	jx_jcc_to(j, CC_AE, null);
	/* One entry: the key is 0 here, and so is its offset. */
	if (slot)
		scale(j, RAX, slot);
	if (percpu) {
		jx_op_rm(j, false, false, 0x8b, 1, R11, RUN, OFF_CPU);
		jx_op_rr(j, false, false, 0x81, 1, 7,
			 R11); /* cmp r11d, ncpus */
		jx_emit4(j, ncpus);
		jx_jcc_to(j, CC_AE, null);
		if (block) { /* one CPU: cpu is 0 here */
			scale(j, R11, block);
			jx_op_rr(j, true, false, 0x01, 1, R11, RAX);
		}
	}
	jx_mov_ri(j, R11, (uint64_t)(uintptr_t)v0);
	jx_op_rr(j, true, false, 0x01, 1, R11, RAX); /* add rax, r11 */
	jx_jmp_to(j, done);
	jx_bind(j, null);
	jx_op_rr(j, false, false, 0x31, 1, RAX, RAX);
	jx_bind(j, done);
	return true;
}

/*
 * bpf_map_lookup_elem on a hash map (HASH, LRU_HASH and their per-CPU
 * forms) named by an ld_imm64 constant, with the key on this frame's
 * stack: a direct call of the map's own lookup, map->ops->lookup(map,
 * key, run->cpu), which is what the helper calls after hr_run_map() has
 * accepted the map (one of the program's object) and hr_run_mem() the key
 * (the stack rule), so the answer is the same. Those lookups read the key
 * bytewise-safe (memcpy), so the helper's copy of an unaligned key is not
 * needed, and they never end the run, so nothing is tested after.
 */
static bool direct_hash_lookup(struct jit *j, uint32_t pc)
{
	struct hr_map *map = own_map_lookup(j, pc);
	uint32_t type;
	int32_t koff;

	if (!map)
		return false;
	type = map->attr.type;
	if ((type != HR_MAP_HASH && type != HR_MAP_PERCPU_HASH &&
	     type != HR_MAP_LRU_HASH && type != HR_MAP_LRU_PERCPU_HASH) ||
	    map->ops != hr_map_ops_for(type) || !map->ops->lookup ||
	    !jb_fp_arg(&j->facts, pc, 2, (int)map->attr.key_size, &koff))
		return false;
	save_args(j);
	jx_mov_ri(j, RDI, (uint64_t)(uintptr_t)map);
	jx_op_rm(j, true, false, 0x8d, 1, RSI, RBP, koff); /* jx_lea rsi, key */
	jx_op_rm(j, false, false, 0x8b, 1, RDX, RUN, OFF_CPU);
	jx_call_abs(j, (const void *)map->ops->lookup);
	restore_args(j);
	return true;
}

/* A cold stub: rax = @v (a helper's negative int as its u64), then back
 * to @done. Returns its label. For hot code (it is emitted where the cold
 * section is now). */
static uint32_t ret_stub(struct jit *j, int32_t v, uint32_t done)
{
	int saved = j->cur;
	uint32_t l = jx_new_label(j);

	j->cur = 1;
	jx_bind(j, l);
	jx_mov_ri(j, RAX, (uint64_t)(int64_t)v);
	jx_jmp_to(j, done);
	j->cur = saved;
	return l;
}

/* @dst = [@base + @off], then to @l when that is NULL. */
static void load_or_null(struct jit *j, int dst, int base, int32_t off,
			 uint32_t l)
{
	jx_op_rm(j, true, false, 0x8b, 1, dst, base, off);
	jx_op_rr(j, true, false, 0x85, 1, dst, dst);
	jx_jcc_to(j, CC_E, l);
}

/* mov [rbp + @dst], @len bytes of [@base + @src] (through TMP). */
static void copy_out(struct jit *j, int base, int32_t src, int32_t dst, int len)
{
	switch (len) {
	case 8:
		jx_op_rm(j, true, false, 0x8b, 1, TMP, base, src);
		jx_op_rm(j, true, false, 0x89, 1, TMP, RBP, dst);
		return;
	case 4:
		jx_op_rm(j, false, false, 0x8b, 1, TMP, base, src);
		jx_op_rm(j, false, false, 0x89, 1, TMP, RBP, dst);
		return;
	default:
		jx_op_rm(j, false, false, 0x0fb7, 2, TMP, base,
			 src); /* movzx */
		jx_emit1(j, 0x66);
		jx_op_rm(j, false, false, 0x89, 1, TMP, RBP, dst);
		return;
	}
}

/* The reverse of copy_out: len bytes of the BPF stack slot r10 + @src to
 * rsp + @dst, through rax (r10 holds the op being called). */
static void copy_in(struct jit *j, int32_t src, int32_t dst, int len)
{
	switch (len) {
	case 8:
		jx_op_rm(j, true, false, 0x8b, 1, RAX, RBP, src);
		jx_op_rm(j, true, false, 0x89, 1, RAX, RSP, dst);
		return;
	case 4:
		jx_op_rm(j, false, false, 0x8b, 1, RAX, RBP, src);
		jx_op_rm(j, false, false, 0x89, 1, RAX, RSP, dst);
		return;
	default:
		jx_op_rm(j, false, false, 0x0fb7, 2, RAX, RBP, src); /* movzx */
		jx_emit1(j, 0x66);
		jx_op_rm(j, false, false, 0x89, 1, RAX, RSP, dst);
		return;
	}
}

/* A hint kfunc's one or two values, first then second as the kfunc
 * writes them; as one move when both sides are adjacent in that order
 * (the same bytes end up in the same places). */
static void copy_vals(struct jit *j, int base, int32_t src2, int32_t o2,
		      int32_t src3, int32_t o3, int len)
{
	if (src3 == src2 + len && o3 == o2 + len && len < 8) {
		copy_out(j, base, src2, o2, 2 * len);
		return;
	}
	copy_out(j, base, src2, o2, len);
	if (src3 >= 0)
		copy_out(j, base, src3, o3, len);
}

/* Whether the call at @pc is a hint kfunc the JIT inlines: out pointers
 * proven in this frame, through an r10 nothing writes. */
bool jx_hint_call(const struct jit *j, uint32_t pc, struct hint_call *h)
{
	hr_helper_fn fn = j->vm->calls ? j->vm->calls[pc] : NULL;

	memset(h, 0, sizeof(*h));
	h->src3 = -1;
	if (!fn) {
		return false;
	} else if (fn == hr_kfunc_xdp_metadata_rx_timestamp.fn) {
		h->len = 8;
		h->opoff = offsetof(struct hr_xdp_metadata_ops, rx_timestamp);
		h->bit = HR_RX_HINT_TIMESTAMP;
		h->src2 = offsetof(struct hr_rx_hints, timestamp);
	} else if (fn == hr_kfunc_xdp_metadata_rx_hash.fn) {
		h->len = 4;
		h->opoff = offsetof(struct hr_xdp_metadata_ops, rx_hash);
		h->bit = HR_RX_HINT_HASH;
		h->src2 = offsetof(struct hr_rx_hints, hash);
		h->src3 = offsetof(struct hr_rx_hints, hash_type);
	} else if (fn == hr_kfunc_xdp_metadata_rx_vlan_tag.fn) {
		h->len = 2;
		h->opoff = offsetof(struct hr_xdp_metadata_ops, rx_vlan_tag);
		h->bit = HR_RX_HINT_VLAN;
		h->src2 = offsetof(struct hr_rx_hints, vlan_proto);
		h->src3 = offsetof(struct hr_rx_hints, vlan_tci);
	} else {
		return false;
	}
	h->two = h->src3 >= 0;
	return j->fp_fixed && jb_fp_arg(&j->facts, pc, 2, h->len, &h->o2) &&
	       (!h->two || jb_fp_arg(&j->facts, pc, 3, h->len, &h->o3));
}

/*
 * The RX metadata kfuncs (kfuncs_xdp.c) with their out pointers on this
 * frame's stack, so that hr_run_mem() accepts them; no BPF register is
 * read (the slots are known). Hot path: run->rx_hints_ok has the hint's
 * bit, so run->rx_hints has it present and supported (hr_xdp_ctx_hints
 * sets both from the same hints, which do not change during the run):
 * the kfunc's first branch gives 0 and the values, moved jx_straight to the
 * slots. Cold path, the kfunc's steps in its order: run->rx_hints not
 * NULL: -EOPNOTSUPP without the supported bit, -ENODATA without the
 * present bit, else the values and 0 (hr_rx_hint_get()); NULL: run->priv's
 * xdp_buff, its rxq's meta_ops (-EOPNOTSUPP where one is missing), the
 * device's op called directly into a scratch slot that holds the
 * program's values, all copied back after the call.
 */
static bool inline_hint(struct jit *j, uint32_t pc)
{
	struct hint_call h;
	uint32_t eop, done, cold, ops, nodata;

	if (!jx_hint_call(j, pc, &h))
		return false;
	done = jx_new_label(j);
	cold = jx_new_label(j);
	jx_op_rm(j, false, false, 0xf6, 1, 0, RUN, OFF_RX_HINTS_OK); /* test */
	jx_emit1(j, (uint8_t)h.bit);
	jx_jcc_to(j, CC_E, cold);
	jx_op_rm(j, true, false, 0x8b, 1, ADDR, RUN, OFF_RX_HINTS);
	copy_vals(j, ADDR, h.src2, h.o2, h.src3, h.o3, h.len);
	jx_op_rr(j, false, false, 0x31, 1, RAX, RAX);
	jx_bind(j, done);

	j->cur = 1;
	jx_bind(j, cold);
	ops = jx_new_label(j);
	eop = jx_new_label(j);
	nodata = jx_new_label(j);
	load_or_null(j, ADDR, RUN, OFF_RX_HINTS, ops); /* r11 = rx_hints */
	jx_op_rm(j, false, false, 0xf6, 1, 0, ADDR,
		 offsetof(struct hr_rx_hints, supported)); /* test byte */
	jx_emit1(j, (uint8_t)h.bit);
	jx_jcc_to(j, CC_E, eop);
	jx_op_rm(j, false, false, 0xf6, 1, 0, ADDR,
		 offsetof(struct hr_rx_hints, present));
	jx_emit1(j, (uint8_t)h.bit);
	jx_jcc_to(j, CC_E, nodata);
	copy_vals(j, ADDR, h.src2, h.o2, h.src3, h.o3, h.len);
	jx_op_rr(j, false, false, 0x31, 1, RAX, RAX);
	jx_jmp_to(j, done);
	jx_bind(j, nodata);
	jx_mov_ri(j, RAX, (uint64_t)(int64_t)-ENODATA);
	jx_jmp_to(j, done);

	/* r11 = ((struct hr_xdp_ctx *)run->priv)->xdp, r10 = the op. */
	jx_bind(j, ops);
	load_or_null(j, TMP, RUN, OFF_PRIV, eop);
	load_or_null(j, ADDR, TMP, offsetof(struct hr_xdp_ctx, xdp), eop);
	load_or_null(j, TMP, ADDR, offsetof(struct hr_xdp_buff, rxq), eop);
	load_or_null(j, TMP, TMP, offsetof(struct hr_rxq_info, meta_ops), eop);
	load_or_null(j, TMP, TMP, h.opoff, eop);
	/* op(xdp, rsp + 0, rsp + 4): the slot below the saved args, holding
	 * the program's values first and copied back whatever the op
	 * returns (it writes what the driver writes, on failure too). */
	save_args(j);
	copy_in(j, h.o2, 0, h.len);
	if (h.two)
		copy_in(j, h.o3, 4, h.len);
	jx_mov_rr(j, true, RDI, ADDR);
	jx_lea(j, RSI, RSP, 0);
	jx_lea(j, RDX, RSP, 4);
	jx_op_rr(j, false, false, 0xff, 1, 2, TMP); /* call r10 */
	jx_op_rr(j, true, false, 0x63, 1, RAX, RAX); /* movsxd rax, eax */
	copy_vals(j, RSP, 0, h.o2, h.two ? 4 : -1, h.o3, h.len);
	restore_args(j);
	jx_jmp_to(j, done);
	jx_bind(j, eop);
	jx_mov_ri(j, RAX, (uint64_t)(int64_t)-EOPNOTSUPP);
	jx_jmp_to(j, done);
	j->cur = 0;
	return true;
}

/* The value r2 holds at @pc when the analysis knows it is a constant. */
bool jx_const_r2(const struct jit *j, uint32_t pc, uint64_t *v)
{
	const struct jb_reg *r = jb_reg_at(&j->facts, pc, 2);

	if (!r || r->t != JB_SCALAR || r->a != r->b)
		return false;
	*v = r->a;
	return true;
}

/*
 * bpf_xdp_adjust_meta (helpers_xdp.c, hr_xdp_adjust_meta() in
 * core/xdp.c), its every step inline when run->priv and its xdp_buff are
 * set (else the C call): data_meta > data (no metadata support):
 * -ENOTSUPP; meta = data_meta + (int)r2 below data_hard_start + 40 or
 * above data (signed 64-bit, as the C): -EINVAL; data - meta not a
 * multiple of 4 or above 252: -EACCES; else xdp->data_meta = meta and
 * what hr_xdp_ctx_sync() then sets: the context's data, data_end and
 * data_meta, run->pkt_lo = meta (now <= data) and pkt_hi = data_end; 0.
 * Only rax and the scratch registers change; the helper never aborts or
 * unwinds, so the after-call tests have nothing to see.
 */
static bool inline_adjust_meta(struct jit *j, uint32_t pc)
{
	uint32_t call, done;
	int32_t md = (int32_t)offsetof(struct hr_xdp_ctx, md);
	uint64_t r2 = 0;
	bool k;

	if (j->vm->calls[pc] != hr_helper_xdp_adjust_meta.fn)
		return false;
	k = jx_const_r2(j, pc, &r2);
	call = jx_new_label(j);
	done = jx_new_label(j);
	/* r9 = the context (run->priv), r11 = its xdp_buff. */
	load_or_null(j, TMP2, RUN, OFF_PRIV, call);
	load_or_null(j, ADDR, TMP2, offsetof(struct hr_xdp_ctx, xdp), call);
	/* data_meta > data: unsupported. */
	jx_op_rm(j, true, false, 0x8b, 1, RAX, ADDR,
		 offsetof(struct hr_xdp_buff, data_meta));
	jx_op_rm(j, true, false, 0x8b, 1, TMP, ADDR,
		 offsetof(struct hr_xdp_buff, data));
	jx_op_rr(j, true, false, 0x39, 1, TMP, RAX); /* cmp rax, r10 */
	jx_jcc_to(j, CC_A, ret_stub(j, -HR_ENOTSUPP, done));
	/* rax = meta; meta < data_hard_start + 40 or > data: -EINVAL. A
	 * known offset <= 0 cannot fail the second: data_meta <= data was
	 * just tested. */
	if (k) {
		jx_alu_ri(j, true, 0, RAX, (int32_t)(uint32_t)r2);
	} else {
		jx_op_rr(j, true, false, 0x63, 1, TMP, bpf2x[2]); /* movsxd */
		jx_op_rr(j, true, false, 0x01, 1, TMP, RAX);
	}
	jx_op_rm(j, true, false, 0x8b, 1, TMP, ADDR,
		 offsetof(struct hr_xdp_buff, data_hard_start));
	jx_alu_ri(j, true, 0, TMP, (int32_t)sizeof(struct hr_xdp_frame));
	jx_op_rr(j, true, false, 0x39, 1, TMP, RAX);
	jx_jcc_to(j, CC_L, ret_stub(j, -EINVAL, done));
	jx_op_rm(j, true, false, 0x8b, 1, TMP, ADDR,
		 offsetof(struct hr_xdp_buff, data));
	if (!k || (int32_t)(uint32_t)r2 > 0) {
		jx_op_rr(j, true, false, 0x39, 1, TMP, RAX);
		jx_jcc_to(j, CC_G, ret_stub(j, -EINVAL, done));
	}
	/* r10 = data - meta >= 0: & 3 or > 252: -EACCES. */
	jx_op_rr(j, true, false, 0x29, 1, RAX, TMP);
	jx_op_rr(j, false, true, 0xf6, 1, 0, TMP); /* test r10b, 3 */
	jx_emit1(j, 3);
	jx_jcc_to(j, CC_NE, ret_stub(j, -EACCES, done));
	jx_alu_ri(j, true, 7, TMP, HR_XDP_META_MAX);
	jx_jcc_to(j, CC_A, ret_stub(j, -EACCES, done));
	/* The new data_meta, and what hr_xdp_ctx_sync() would change of
	 * the context and the packet window: data and data_end stay. */
	jx_op_rm(j, true, false, 0x89, 1, RAX, ADDR,
		 offsetof(struct hr_xdp_buff, data_meta));
	jx_op_rm(j, false, false, 0x89, 1, RAX, TMP2,
		 md + (int32_t)offsetof(struct xdp_md, data_meta));
	jx_op_rm(j, true, false, 0x89, 1, RAX, RUN, OFF_PKT_LO);
	jx_op_rr(j, false, false, 0x31, 1, RAX, RAX);
	jx_bind(j, done);

	j->cur = 1;
	jx_bind(j, call);
	/* r2 may not have been computed (jx_call_reads): it is the constant. */
	if (k)
		jx_mov_ri(j, bpf2x[2], r2);
	emit_helper(j, pc, j->vm->calls[pc]);
	jx_jmp_to(j, done);
	j->cur = 0;
	return true;
}

/*
 * Checked mode, before a helper or kfunc call: what the analysis says of
 * r1..r5 here (a map constant, this frame's r10 + c, a constant, the
 * context), the facts the inlined calls are built on, tested on the
 * registers, and r10 tested to be the current frame's top (the stack
 * rule); any that fails is HR_ABORT_JIT_CHECK.
 */
void jx_chk_call_facts(struct jit *j, uint32_t pc)
{
	uint32_t bad = 0;
	int reg;

	if (!j->chk)
		return;
	bad = jx_abort_stub(j, pc, HR_ABORT_JIT_CHECK, false, pc);
	if (j->need_fp && j->fp_fixed) {
		/* r11 = stack_hi - 512 * depth */
		jx_op_rm(j, false, false, 0x8b, 1, TMP, RUN, OFF_DEPTH);
		jx_op_rr(j, true, false, 0xc1, 1, 4, TMP); /* shl r10, 9 */
		jx_emit1(j, 9);
		jx_lea(j, R11, RUN, OFF_STACK_HI);
		jx_op_rr(j, true, false, 0x29, 1, TMP, R11); /* sub r11, r10 */
		jx_op_rr(j, true, false, 0x39, 1, R11, RBP); /* cmp rbp, r11 */
		jx_jcc_to(j, CC_NE, bad);
	}
	for (reg = 1; reg <= 5; reg++) {
		const struct jb_reg *r = jb_reg_at(&j->facts, pc, reg);
		/* The test hook's wrong fact: r1 is the context. */
		static const struct jb_reg wrong_ctx = { .t = JB_CTX };

		if (reg == 1 && jx_wrong_proofs)
			r = &wrong_ctx;
		if (!r)
			continue;
		switch (r->t) {
		case JB_MAP:
			jx_mov_ri(j, R11, r->a);
			break;
		case JB_SCALAR:
			if (r->a != r->b)
				continue;
			jx_mov_ri(j, R11, r->a);
			break;
		case JB_FP:
			if (!j->fp_fixed || !j->need_fp ||
			    !jx_is_simm32((int64_t)r->a))
				continue;
			jx_lea(j, R11, RBP, (int32_t)(int64_t)r->a);
			break;
		case JB_CTX:
			jx_op_rm(j, true, false, 0x8b, 1, R11, RUN, OFF_CTX);
			break;
		default:
			continue;
		}
		jx_op_rr(j, true, false, 0x39, 1, R11, bpf2x[reg]);
		jx_jcc_to(j, CC_NE, bad);
	}
}

void jx_emit_call(struct jit *j, uint32_t pc, const struct hr_insn *insn)
{
	bool wide = HR_CLASS(insn->code) == HR_JMP;
	const struct hr_vm_prog *vm = j->vm;
	hr_helper_fn fn = NULL;

	if (wide && insn->src == HR_CALL_LOCAL) {
		emit_local_call(j, pc, insn);
		return;
	}
	if (wide && HR_SRC(insn->code) == HR_X) {
		emit_callx(j, pc, insn);
		return;
	}
	if (vm->calls)
		fn = vm->calls[pc];
	if (!fn || !wide) {
		jx_jmp_to(j, jx_abort_stub(j, pc, HR_ABORT_UNKNOWN_CALL, false,
					   pc));
		return;
	}
	jx_chk_call_facts(j, pc);
	if (inline_array_lookup(j, pc) || direct_hash_lookup(j, pc) ||
	    inline_hint(j, pc) || inline_adjust_meta(j, pc))
		return;
	emit_helper(j, pc, fn);
}

/* ret, then int3: no jx_straight-line speculation past it (AMD runs the
 * bytes after a ret speculatively; the cold stubs follow). */
void jx_emit_ret(struct jit *j)
{
	jx_emit1(j, 0xc3);
	jx_emit1(j, 0xcc);
}

/* Pops what the prologue pushed and returns (r0 is in rax). */
void jx_emit_pop_return(struct jit *j)
{
	int i;

	if (j->pad)
		jx_alu_ri(j, true, 0, RSP, j->pad);
	for (i = (int)sizeof(saved_order) - 1; i >= 0; i--)
		if (j->saved & (1u << saved_order[i]))
			jx_pop(j, saved_order[i]);
	jx_emit_ret(j);
}

/* The frame check, then the return: rsp is where the prologue left it
 * and the canary above it is intact (l_frame_bad tells which broke). */
void jx_emit_frame_check(struct jit *j)
{
	if (!j->need_run || !j->frame_check)
		return;
	jx_op_rm(j, true, false, 0x3b, 1, RSP, RUN, OFF_JIT_SP);
	jx_jcc_to(j, CC_NE, j->l_frame_bad);
	jx_mov_ri(j, R11, j->canary);
	jx_op_rm(j, true, false, 0x39, 1, R11, RSP, j->pad - 8);
	jx_jcc_to(j, CC_NE, j->l_frame_bad);
}

static void emit_return(struct jit *j)
{
	jx_emit_frame_check(j);
	jx_emit_pop_return(j);
}

void jx_emit_exit(struct jit *j)
{
	if (!j->local_calls) {
		/* Always the main program's exit. */
		emit_return(j);
		return;
	}
	jx_alu_mi(j, false, 7, RUN, OFF_DEPTH, 0);
	jx_jcc_to(j, CC_E, j->l_epilogue);
	jx_alu_mi(j, false, 5, RUN, OFF_DEPTH, 1);
	jx_emit_ret(j);
}

#endif /* __x86_64__ */
