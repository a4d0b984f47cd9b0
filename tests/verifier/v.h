/* SPDX-License-Identifier: MIT */
/*
 * Shared by the labelled verifier corpus (tests/verifier/): each file holds
 * a program the 6.18 verifier rejects (bad_*) and its accepted near-miss
 * twin (ok_*); scripts/verifier-record.sh records the kernel's verdicts.
 */
#ifndef HR_VERIFIER_V_H
#define HR_VERIFIER_V_H

#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#define NAKED __attribute__((naked))

char _license[] SEC("license") = "GPL";

/* The RCU and preemption section kfuncs (kernel/bpf/helpers.c). */
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;
extern void bpf_preempt_disable(void) __ksym;
extern void bpf_preempt_enable(void) __ksym;

/* An asm lookup of key 0 (a u32 at fp-4) in the map operand %[m]; R0
 * the value or NULL. */
#define LOOKUP_KEY0               \
	"r1 = 0;"                 \
	"*(u32 *)(r10 - 4) = r1;" \
	"r2 = r10;"               \
	"r2 += -4;"               \
	"r1 = %[m] ll;"           \
	"call %[lookup];"
#define LOOKUP_OPERANDS(map) \
	[m] "i"(&(map)), [lookup] "i"(BPF_FUNC_map_lookup_elem)

#endif
