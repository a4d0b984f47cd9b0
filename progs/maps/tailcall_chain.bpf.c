// SPDX-License-Identifier: MIT
/*
 * A tail call chain: the program tail-calls slot 0 of jmp (itself, once
 * user space stores it there) and counts its runs in .bss. The kernel
 * allows 33 tail calls a run, so a run returns 34 when slot 0 holds the
 * program and 1 when it is empty.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} jmp SEC(".maps");

__u32 runs;

SEC("xdp")
int tailcall_entry(struct xdp_md *ctx)
{
	runs++;
	bpf_tail_call(ctx, &jmp, 0);
	/* Reached once the chain limit is hit or slot 0 is empty. */
	return runs;
}

char LICENSE[] SEC("license") = "GPL";
