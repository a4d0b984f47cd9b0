// SPDX-License-Identifier: MIT
/*
 * bpf_xdp_adjust_head with the deltas taken from the packet (see
 * hr_progs.h). The output shows where data and the moved metadata ended
 * up, and the bytes a push exposes (which the kernel does not zero).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_adjust.h"

HR_ADJUST_PROG(xdp_adjust_head_prog, bpf_xdp_adjust_head, )

char _license[] SEC("license") = "GPL";
