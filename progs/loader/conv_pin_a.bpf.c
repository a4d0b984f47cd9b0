// SPDX-License-Identifier: MIT
/* Two objects sharing one map pinned by name (LIBBPF_PIN_BY_NAME). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "hr_pin_map.h"

/* Counts packets in the shared map. */
SEC("xdp")
int pin_count(struct xdp_md *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&hr_shared_cnt, &k);

	if (!v)
		return XDP_ABORTED;
	__sync_fetch_and_add(v, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
