// SPDX-License-Identifier: MIT
/* Calls bpf_get_current_pid_tgid, which XDP programs may not: the kernel's
 * verifier and headroom's loader both refuse it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int task_helper(struct xdp_md *ctx)
{
	return (int)(bpf_get_current_pid_tgid() & 3);
}

char LICENSE[] SEC("license") = "GPL";
