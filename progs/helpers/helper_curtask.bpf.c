// SPDX-License-Identifier: MIT
/* Calls bpf_get_current_task, a kernel pointer the kernel hands a loader
 * with CAP_PERFMON: headroom has no task_struct to give and refuses it by
 * name at load. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int curtask_helper(struct xdp_md *ctx)
{
	return bpf_get_current_task() ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
