// SPDX-License-Identifier: MIT
/*
 * headroom check: helper and kfunc calls as the kernel's check_helper_call()
 * and check_kfunc_call() take them, bpf_spin_lock and LD_ABS among them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "check/walk.h"

/* bpf_spin_lock and bpf_spin_unlock: one lock taken at a time (a second
 * call is refused before, as any call while it is held), and an unlock
 * with none held refused. Both return void. */
static int spin_lock_call(struct walk *w, struct state *s, uint32_t pc,
			  bool lock)
{
	const struct reg *r = &s->r[1];

	if (ck_lock_arg(w, s, pc))
		return -1;
	if (lock) {
		s->locked = true;
		s->lock_id = r->id;
		s->lock_map = r->map;
		return 0;
	}
	if (!s->locked)
		return ck_fault(w, s, pc,
				"bpf_spin_unlock without taking a lock");
	if (s->lock_id != r->id || s->lock_map != r->map) {
		ck_set_unknown(w, pc, "bpf_spin_unlock of another lock");
		return -1;
	}
	s->locked = false;
	return 0;
}

/* do_check refuses every call but bpf_spin_unlock while a lock is held,
 * before it looks at the call itself; kfuncs the kernel lets through
 * there (the graph API) and bpf-to-bpf calls (enter_func) are not
 * followed. */
static int call_while_locked(struct walk *w, struct state *s, uint32_t pc,
			     const struct hr_insn *in)
{
	if (!s->locked)
		return 0;
	if (in->src == 0 && in->imm == BPF_FUNC_spin_unlock)
		return 0;
	if (in->src != 0 || in->imm == BPF_FUNC_kptr_xchg) {
		ck_set_unknown(w, pc, "a call while a bpf_spin_lock is held");
		return -1;
	}
	return ck_fault(w, s, pc,
			"function calls are not allowed while holding a lock");
}

/*
 * bpf_throw: with the default exception callback the path ends there, as
 * at an exit (do_check's process_bpf_exit_full with exception_exit), and
 * no return value is checked. What is held at that point is checked with
 * words this check does not model, and whether a callback throws is
 * checked after the walk (throw_in_callback_refused).
 */
static int throw_call(struct walk *w, struct state *s, uint32_t pc)
{
	if (s->r[1].t != R_SCALAR) {
		ck_set_unknown(w, pc, "bpf_throw's cookie");
		return -1;
	}
	if (s->nrefs || s->rcu || s->preempt || s->locked) {
		ck_set_unknown(w, pc,
			       "bpf_throw with a reference, lock or "
			       "section held");
		return -1;
	}
	return -1;
}

/* check_resource_leak(env, false, true, @what) past the spin lock, which
 * each caller meets first in words of its own: a reference held, then an
 * RCU or preemption section open; -1 when one is. */
int ck_held_at(struct walk *w, struct state *s, uint32_t pc, const char *what)
{
	if (s->nrefs)
		return ck_fault(w, s, pc,
				"Unreleased reference id=%u alloc_insn=%u",
				s->refs[0], s->ref_insn[0]);
	if (s->rcu || s->preempt)
		return ck_fault(
			w, s, pc, "%s cannot be used inside %s-ed region", what,
			s->rcu ? "bpf_rcu_read_lock" : "bpf_preempt_disable");
	return 0;
}

/* Whether @fn is one of the loads BPF_LD_[ABS|IND] became (ld_abs.c). */
static bool is_ld_abs(const struct walk *w, hr_helper_fn fn)
{
	const hr_helper_fn *ld = w->prog->type->ld_abs;

	return fn && ld && (fn == ld[0] || fn == ld[1] || fn == ld[2]);
}

/*
 * A BPF_LD_[ABS|IND], which the loader expanded into "r2 = offset; r1 =
 * r6; call; if r0 s>= 0 goto +2; w0 = 0; exit": check_ld_abs's rules at
 * the call, where r1 is the r6 the kernel looks at (an r6 never written
 * already failed at the copy), then on past the sequence's own exit,
 * which the kernel adds only once it has verified the program.
 */
static int ld_abs_call(struct walk *w, struct state *s, uint32_t pc)
{
	const struct reg *ctx = &s->r[1];
	int i;

	/* check_resource_leak(env, false, true, "BPF_LD_[ABS|IND]"). */
	if (s->locked)
		return ck_fault(w, s, pc,
				"BPF_LD_[ABS|IND] cannot be used inside "
				"bpf_spin_lock-ed region");
	if (ck_held_at(w, s, pc, "BPF_LD_[ABS|IND]"))
		return -1;
	if (ctx->t != R_CTX)
		return ck_fault(
			w, s, pc,
			"at the time of BPF_LD_ABS|IND R6 != pointer to "
			"skb");
	if (ctx->off)
		return ck_fault(w, s, pc,
				"dereference of modified ctx ptr R6 off=%d "
				"disallowed",
				ctx->off);
	for (i = 1; i <= 5; i++)
		s->r[i] = (struct reg){ .t = R_NONE };
	s->r[0] = scalar(0, UINT64_MAX, true);
	if (pc + 3 >= w->cnt) {
		ck_set_unknown(w, pc, "a BPF_LD_[ABS|IND] not as expanded");
		return -1;
	}
	s->pc = pc + 3; /* the walk goes on after the sequence's exit */
	return 0;
}

/* A helper or kfunc call; 0 to go on, -1 when the path ends. */
int ck_call(struct walk *w, struct state *s, uint32_t pc,
	    const struct hr_insn *in)
{
	struct reg r0 = scalar(0, UINT64_MAX, false);
	int id = in->imm, i;
	int64_t n;

	/* Not a call to the kernel: no kfunc's rules apply. */
	if (in->src == HR_CALL_KFUNC && w->prog->calls &&
	    is_ld_abs(w, w->prog->calls[pc]))
		return ld_abs_call(w, s, pc);
	if (call_while_locked(w, s, pc, in))
		return -1;
	if (in->src == HR_CALL_KFUNC) {
		hr_helper_fn fn = w->prog->calls ? w->prog->calls[pc] : NULL;
		const struct hr_kfunc *k =
			w->prog->kfuncs ? w->prog->kfuncs[pc] : NULL;

		/* libbpf poisons a relocation it could not resolve with a
		 * call of an unknown helper, which the verifier refuses when
		 * reached; libbpf then writes this line in its place. */
		if (fn == hr_core_poison_fn)
			return ck_fault(w, s, pc,
					"failed to resolve CO-RE relocation %s",
					hr_core_poison_desc((uint32_t)in->imm));
		/* add_kfunc_call refuses every kfunc to other licenses. */
		if (!ck_license_gpl(w)) {
			ck_set_unknown(w, pc, "a kfunc, and the license");
			return -1;
		}
		if (k == &hr_kfunc_throw)
			return throw_call(w, s, pc);
		if (k) {
			int ret = ck_section_kfunc(w, s, pc, k);

			if (ret <= 0)
				return ret;
			ret = ck_dyn_kfunc(w, s, pc, k, &r0);
			if (ret < 0)
				return ret;
			if (!ret)
				goto done;
		}
		if (k == &hr_kfunc_xdp_pull_data) {
			/* (ctx, u32 len): a packet-changing kfunc
			 * (is_kfunc_pkt_changing), every packet pointer
			 * and slice invalid after it. */
			if (s->r[1].t != R_CTX || s->r[1].off ||
			    s->r[2].t != R_SCALAR) {
				ck_set_unknown(w, pc,
					       "bpf_xdp_pull_data's arguments");
				return -1;
			}
			ck_clear_pkt(s);
			/* An int the kernel knows nothing of, as here. */
			r0 = scalar(0, UINT64_MAX, true);
			goto done;
		}
		if (!ck_is_hint_kfunc(fn)) {
			ck_set_unknown(w, pc,
				       "a kfunc call this check does not "
				       "model");
			return -1;
		}
		if (!w->dev_bound) {
			/* The kernel says so before walking any path. */
			return ck_fault(w, s, pc,
					"metadata kfuncs require "
					"device-bound program");
		}
		if (s->r[1].t != R_CTX || s->r[1].off) {
			ck_set_unknown(w, pc, "hint kfunc context argument");
			return -1;
		}
		for (i = 2; i <= 3; i++) {
			if (fn == hr_kfunc_xdp_metadata_rx_timestamp.fn &&
			    i == 3)
				break;
			if (s->r[i].t != R_STACK ||
			    ck_mem_arg(
				    w, s, pc, i,
				    i == 2 && fn == hr_kfunc_xdp_metadata_rx_timestamp
								    .fn ?
					    8 :
					    (fn == hr_kfunc_xdp_metadata_rx_vlan_tag
								     .fn ?
						     2 :
						     4),
				    true)) {
				ck_set_unknown(w, pc, "hint kfunc argument");
				return -1;
			}
		}
		r0 = scalar(0, UINT64_MAX, false);
		goto done;
	}
	if (id <= 0 || id >= FUNC_MAX_ID)
		return ck_fault(w, s, pc, "invalid func unknown#%d", id);
	if ((w->xdp || w->tc) && hr_check_helper_wrong_type(w->xdp, id))
		return ck_fault(w, s, pc,
				"program of this type cannot use helper %s#%d",
				ck_helper_name(id), id);
	switch (id) {
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem: {
		const struct hr_map *m;

		if (ck_arg_map(w, s, pc, id))
			return -1;
		m = s->r[1].map;
		/* check_map_func_compatibility: a cpumap takes only
		 * bpf_redirect_map from a program. */
		if (m->attr.type == BPF_MAP_TYPE_CPUMAP)
			return ck_fault(
				w, s, pc,
				"cannot pass map_type %u into func %s#%d",
				m->attr.type, ck_helper_name(id), id);
		/* A devmap's values are read-only to programs
		 * (BPF_F_RDONLY_PROG): its update is a write. */
		if ((m->attr.type == BPF_MAP_TYPE_DEVMAP ||
		     m->attr.type == BPF_MAP_TYPE_DEVMAP_HASH) &&
		    id == BPF_FUNC_map_update_elem)
			return ck_fault(w, s, pc, "write into map forbidden");
		if (m->attr.type == BPF_MAP_TYPE_RINGBUF ||
		    m->attr.type == BPF_MAP_TYPE_PERF_EVENT_ARRAY ||
		    (ck_map_of_maps(m) && (id != BPF_FUNC_map_lookup_elem ||
					   !ck_inner_stand_in(w, m))) ||
		    ((m->attr.type == BPF_MAP_TYPE_DEVMAP ||
		      m->attr.type == BPF_MAP_TYPE_DEVMAP_HASH) &&
		     id != BPF_FUNC_map_lookup_elem) ||
		    (m->attr.type == BPF_MAP_TYPE_XSKMAP &&
		     id != BPF_FUNC_map_lookup_elem) ||
		    m->attr.type == BPF_MAP_TYPE_QUEUE ||
		    m->attr.type == BPF_MAP_TYPE_STACK) {
			ck_set_unknown(w, pc, "%s on this map type",
				       ck_helper_name(id));
			return -1;
		}
		if (ck_mem_arg(w, s, pc, 2, m->attr.key_size, false))
			return -1;
		if (id == BPF_FUNC_map_update_elem &&
		    (ck_mem_arg(w, s, pc, 3, m->attr.value_size, false) ||
		     s->r[4].t != R_SCALAR)) {
			if (s->r[4].t == R_NONE)
				return ck_fault(w, s, pc, "R4 !read_ok");
			if (!w->unknown && !w->rejected)
				ck_set_unknown(w, pc, "map update flags");
			return -1;
		}
		/* check_map_func_compatibility, after the arguments: a
		 * program array is for bpf_tail_call only. */
		if (m->attr.type == BPF_MAP_TYPE_PROG_ARRAY)
			return ck_fault(
				w, s, pc,
				"cannot pass map_type %u into func %s#%d",
				m->attr.type, ck_helper_name(id), id);
		if (id == BPF_FUNC_map_lookup_elem) {
			bool arr = m->attr.type == BPF_MAP_TYPE_ARRAY ||
				   m->attr.type == BPF_MAP_TYPE_PERCPU_ARRAY;

			bool dev = m->attr.type == BPF_MAP_TYPE_DEVMAP ||
				   m->attr.type == BPF_MAP_TYPE_DEVMAP_HASH;

			r0 = (struct reg){ .t = R_VAL_OR_NULL,
					   .exact = true,
					   .maybe_nonnull = arr,
					   .id = ++w->next_id,
					   .map = m,
					   .vsize = m->attr.value_size,
					   .rdonly = dev ||
						     hr_map_prog_rdonly(m) };
			/* The inner map's template stands for whichever
			 * map the slot holds (inner_map_meta). */
			if (ck_map_of_maps(m))
				r0 = (struct reg){ .t = R_MAP_PTR_OR_NULL,
						   .exact = true,
						   .id = r0.id,
						   .map = ck_inner_stand_in(
							   w, m) };
			if (m->attr.type == BPF_MAP_TYPE_XSKMAP)
				r0 = (struct reg){ .t = R_XSK_OR_NULL,
						   .exact = true,
						   .id = r0.id };
		} else {
			r0 = scalar(0, UINT64_MAX, false);
		}
		break;
	}
	case BPF_FUNC_redirect_map: {
		uint32_t t;

		if (ck_arg_map(w, s, pc, id))
			return -1;
		t = s->r[1].map->attr.type;
		if (t != BPF_MAP_TYPE_DEVMAP && t != BPF_MAP_TYPE_DEVMAP_HASH &&
		    t != BPF_MAP_TYPE_CPUMAP && t != BPF_MAP_TYPE_XSKMAP)
			return ck_fault(
				w, s, pc,
				"cannot pass map_type %u into func %s#%d", t,
				ck_helper_name(id), id);
		if (s->r[2].t != R_SCALAR || s->r[3].t != R_SCALAR) {
			ck_set_unknown(w, pc, "redirect_map arguments");
			return -1;
		}
		break;
	}
	case BPF_FUNC_xdp_load_bytes:
	case BPF_FUNC_xdp_store_bytes:
	case BPF_FUNC_skb_load_bytes:
	case BPF_FUNC_skb_load_bytes_relative:
		/* _relative: the same, and the header to start from. */
		if (s->r[1].t != R_CTX || s->r[1].off ||
		    s->r[2].t != R_SCALAR ||
		    (id == BPF_FUNC_skb_load_bytes_relative &&
		     s->r[5].t != R_SCALAR)) {
			ck_set_unknown(w, pc, "%s arguments",
				       ck_helper_name(id));
			return -1;
		}
		n = ck_size_arg(w, s, pc, 4);
		if (n < 0 || ck_mem_arg(w, s, pc, 3, n ? n : 1,
					id != BPF_FUNC_xdp_store_bytes))
			return -1;
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_skb_get_tunnel_key:
	case BPF_FUNC_skb_set_tunnel_key:
	case BPF_FUNC_skb_get_tunnel_opt:
	case BPF_FUNC_skb_set_tunnel_opt:
		/* The context, memory of a constant non-zero size (the gets
		 * write it: ARG_PTR_TO_UNINIT_MEM), flags for the keys. The
		 * packet is not modelled: these protos lack pkt_access. */
		if (s->r[1].t != R_CTX || s->r[1].off ||
		    (s->r[2].t != R_STACK && s->r[2].t != R_VAL) ||
		    ((id == BPF_FUNC_skb_get_tunnel_key ||
		      id == BPF_FUNC_skb_set_tunnel_key) &&
		     s->r[4].t != R_SCALAR)) {
			ck_set_unknown(w, pc, "%s arguments",
				       ck_helper_name(id));
			return -1;
		}
		n = ck_size_arg(w, s, pc, 3);
		if (n == 0)
			ck_set_unknown(w, pc, "%s of zero bytes",
				       ck_helper_name(id));
		if (n <= 0 ||
		    ck_mem_arg(w, s, pc, 2, n,
			       id == BPF_FUNC_skb_get_tunnel_key ||
				       id == BPF_FUNC_skb_get_tunnel_opt))
			return -1;
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_csum_level:
	case BPF_FUNC_csum_update:
	case BPF_FUNC_skb_change_type:
	case BPF_FUNC_xdp_adjust_head:
	case BPF_FUNC_xdp_adjust_meta:
	case BPF_FUNC_xdp_adjust_tail:
		if (ck_proto_ctx(w, s, pc, 1))
			return -1;
		if (s->r[2].t != R_SCALAR) {
			ck_set_unknown(w, pc, "%s arguments",
				       ck_helper_name(id));
			return -1;
		}
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_ktime_get_boot_ns:
	case BPF_FUNC_ktime_get_coarse_ns:
	case BPF_FUNC_ktime_get_tai_ns:
	case BPF_FUNC_jiffies64:
	case BPF_FUNC_get_prandom_u32:
	case BPF_FUNC_get_current_pid_tgid:
	case BPF_FUNC_get_current_uid_gid:
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_get_current_comm:
		/* ARG_PTR_TO_UNINIT_MEM and its ARG_CONST_SIZE. */
		n = ck_size_arg(w, s, pc, 2);
		if (n < 0 || ck_mem_arg(w, s, pc, 1, n ? n : 1, true))
			return -1;
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_get_ns_current_pid_tgid:
		/* dev, ino, then ARG_PTR_TO_UNINIT_MEM and its size. */
		if (s->r[1].t != R_SCALAR || s->r[2].t != R_SCALAR) {
			ck_set_unknown(w, pc, "%s arguments",
				       ck_helper_name(id));
			return -1;
		}
		n = ck_size_arg(w, s, pc, 4);
		if (n < 0 || ck_mem_arg(w, s, pc, 3, n ? n : 1, true))
			return -1;
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_get_smp_processor_id:
		break;
	case BPF_FUNC_tail_call:
		/* check_resource_leak once the arguments pass; when the
		 * call falls through, it returned void (R0 unset) and left
		 * packet pointers valid (6.18, confirmed on the kernel). A
		 * tail call from a subprogram has stack limits of its own
		 * (check_max_stack_depth), not followed here. */
		if (s->curframe) {
			ck_set_unknown(w, pc, "a tail call from a subprogram");
			return -1;
		}
		if (s->r[1].t != R_CTX || s->r[1].off ||
		    s->r[2].t != R_MAP_PTR ||
		    s->r[2].map->attr.type != BPF_MAP_TYPE_PROG_ARRAY ||
		    s->r[3].t != R_SCALAR) {
			ck_set_unknown(w, pc, "%s arguments",
				       ck_helper_name(id));
			return -1;
		}
		if (ck_held_at(w, s, pc, "tail_call"))
			return -1;
		r0 = (struct reg){ .t = R_NONE };
		break;
	case BPF_FUNC_loop:
	case BPF_FUNC_for_each_map_elem:
	case BPF_FUNC_timer_init:
	case BPF_FUNC_timer_set_callback:
	case BPF_FUNC_timer_start:
	case BPF_FUNC_timer_cancel:
		if (id == BPF_FUNC_loop || id == BPF_FUNC_for_each_map_elem ?
			    ck_callback_call(w, s, pc, id) :
			    ck_timer_call(w, s, pc, id))
			return -1;
		r0 = scalar(0, UINT64_MAX, true);
		break;
	case BPF_FUNC_spin_lock:
	case BPF_FUNC_spin_unlock:
		if (spin_lock_call(w, s, pc, id == BPF_FUNC_spin_lock))
			return -1;
		r0 = (struct reg){ .t = R_NONE };
		break;
	case BPF_FUNC_dynptr_from_mem:
	case BPF_FUNC_dynptr_read:
	case BPF_FUNC_dynptr_write:
	case BPF_FUNC_dynptr_data:
	case BPF_FUNC_ringbuf_reserve_dynptr:
	case BPF_FUNC_ringbuf_submit_dynptr:
	case BPF_FUNC_ringbuf_discard_dynptr:
		if (ck_dyn_helper(w, s, pc, id, &r0))
			return -1;
		break;
	case BPF_FUNC_ringbuf_reserve:
		if (ck_ringbuf_reserve(w, s, pc, &r0))
			return -1;
		break;
	case BPF_FUNC_ringbuf_submit:
	case BPF_FUNC_ringbuf_discard:
		if (ck_ringbuf_release(w, s, pc))
			return -1;
		r0 = (struct reg){ .t = R_NONE };
		break;
	case BPF_FUNC_redirect:
		if (s->r[1].t != R_SCALAR || s->r[2].t != R_SCALAR) {
			ck_set_unknown(w, pc, "redirect arguments");
			return -1;
		}
		break;
	case BPF_FUNC_sk_lookup_tcp:
	case BPF_FUNC_sk_lookup_udp:
	case BPF_FUNC_skc_lookup_tcp:
		if (s->r[1].t != R_CTX || s->r[1].off ||
		    s->r[4].t != R_SCALAR || s->r[5].t != R_SCALAR) {
			ck_set_unknown(w, pc, "socket lookup arguments");
			return -1;
		}
		n = ck_size_arg(w, s, pc, 3);
		if (n < 0 || ck_mem_arg(w, s, pc, 2, n ? n : 1, false))
			return -1;
		r0 = (struct reg){ .t = R_SOCK_OR_NULL, .exact = true };
		if (ck_acquire_ref(w, s, pc, &r0))
			return -1;
		break;
	case BPF_FUNC_sk_release: {
		struct reg *r = &s->r[1];
		int k;

		if (r->t != R_SOCK) {
			if (r->t == R_SOCK_OR_NULL || r->t == R_SCALAR)
				return ck_fault(
					w, s, pc,
					"R1 type=%s expected=sock_common, "
					"sock, tcp_sock, xdp_sock, ptr_, "
					"trusted_ptr_",
					ck_reg_str(r));
			ck_set_unknown(w, pc, "sk_release argument");
			return -1;
		}
		for (k = 0; k < s->nrefs && s->refs[k] != r->id; k++)
			;
		if (k == s->nrefs) {
			ck_set_unknown(w, pc,
				       "sk_release of a reference not held");
			return -1;
		}
		ck_release_ref(s, r->id);
		break;
	}
	default: {
		const struct hr_proto *p = hr_proto_find(id);

		if (!p) {
			ck_set_unknown(w, pc,
				       "helper %s#%d is not modelled here",
				       ck_helper_name(id), id);
			return -1;
		}
		if (ck_proto_call(w, s, pc, p, &r0))
			return -1;
		if (id == BPF_FUNC_snprintf && ck_snprintf_fmt(w, s, pc))
			return -1;
		break;
	}
	}
	if (ck_changes_pkt(id))
		ck_clear_pkt(s);
done:
	for (i = 1; i <= 5; i++)
		s->r[i] = (struct reg){ .t = R_NONE };
	s->r[0] = r0;
	return 0;
}
