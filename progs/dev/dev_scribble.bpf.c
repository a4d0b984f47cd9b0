// SPDX-License-Identifier: MIT
/*
 * Drops every packet after checking that it is the generator's (first
 * MAC byte 0x02, IPv4, UDP source port 1024 + n % 4 for the n-th packet
 * of four round-robin flows), and scribbles on every other one first:
 * a frame it wrote must come back rewritten, one it did not may be
 * recycled as it is (test_dev_gen). seen[0] counts packets, seen[1]
 * those that were not as the generator sends them.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

SEC("xdp")
int dev_scribble(struct xdp_md *ctx)
{
	__u8 *d = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 k0 = 0, k1 = 1;
	__u64 *n = bpf_map_lookup_elem(&seen, &k0);
	__u64 *bad = bpf_map_lookup_elem(&seen, &k1);

	if (!n || !bad || d + 36 > end)
		return XDP_ABORTED;
	if (d[0] != 0x02 || d[12] != 0x08 || d[13] != 0x00 || d[34] != 4 ||
	    d[35] != (*n & 3))
		*bad += 1;
	if (*n & 1) {
		d[0] = 0x5a;
		d[13] = 0x5a;
		d[35] = 0x5a;
	}
	*n += 1;
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
