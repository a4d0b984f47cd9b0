// SPDX-License-Identifier: MIT
/* Two objects sharing one map pinned by name (LIBBPF_PIN_BY_NAME). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_pin_map.h"

/* Returns the count the other object wrote (XDP_TX after three). */
SEC("xdp")
int pin_read(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&hr_shared_cnt, &k);

	if (!v)
		return XDP_ABORTED;
	return *v >= 3 ? XDP_TX : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
