// SPDX-License-Identifier: MIT
/*
 * bpf_xdp_adjust_tail with the deltas taken from the packet (see
 * hr_progs.h). A shrink followed by a grow shows that the kernel zeroes
 * grown bytes even where the packet had data before.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_adjust.h"

HR_ADJUST_PROG(xdp_adjust_tail_prog, bpf_xdp_adjust_tail, )

char _license[] SEC("license") = "GPL";
