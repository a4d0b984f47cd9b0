// SPDX-License-Identifier: MIT
/*
 * Local dynptrs (bpf_dynptr_from_mem) over a map value and over global
 * data (the kernel takes no stack memory for one), with the arguments the test puts in the packet's first bytes:
 * [0] the dynptr's size (0..64), [1] flags for bpf_dynptr_from_mem, [2]
 * the write offset, [3] the read offset, [4] bpf_dynptr_data's offset
 * (for 8 bytes, and for none), [6] flags for the write, [7] the adjust
 * start. Every return and the map value's bytes are written back over the
 * packet from byte 16 on.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int bpf_dynptr_adjust(const struct bpf_dynptr *p, __u32 start,
			     __u32 end) __ksym;
extern __u32 bpf_dynptr_size(const struct bpf_dynptr *p) __ksym;

struct val {
	__u8 buf[64];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct val);
} vals SEC(".maps");

__u8 gbuf[32];

struct out {
	__s64 ret[9];
	__u8 read[8];
	__u8 value[64];
};

SEC("xdp")
int dynptr_mem(struct xdp_md *ctx)
{
	static const __u8 src[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct bpf_dynptr d, s;
	__u8 a[8];
	struct out o = {};
	struct val *v;
	__u32 key = 0, size;
	__u8 *p;

	if (bpf_xdp_load_bytes(ctx, 0, a, sizeof(a)))
		return XDP_ABORTED;
	v = bpf_map_lookup_elem(&vals, &key);
	if (!v)
		return XDP_ABORTED;
	__builtin_memset(v->buf, 0, sizeof(v->buf));
	size = a[0] > 64 ? 64 : a[0];
	o.ret[0] = bpf_dynptr_from_mem(v->buf, size, a[1], &d);
	o.ret[1] = bpf_dynptr_write(&d, a[2], (void *)src, sizeof(src), a[6]);
	o.ret[2] = bpf_dynptr_read(o.read, sizeof(o.read), &d, a[3], 0);
	o.ret[8] = bpf_dynptr_data(&d, a[4], 0) != 0;
	p = bpf_dynptr_data(&d, a[4], 8);
	o.ret[3] = p ? p[0] : -1;
	if (p)
		p[1] = 0xab;
	o.ret[4] = bpf_dynptr_adjust(&d, a[7], size);
	o.ret[5] = bpf_dynptr_size(&d);
	o.ret[6] = bpf_dynptr_from_mem(gbuf, sizeof(gbuf), 0, &s);
	o.ret[7] = bpf_dynptr_write(&s, 30, (void *)src, 2, 0) * 100 +
		   bpf_dynptr_write(&s, 31, (void *)src, 2, 0);
	__builtin_memcpy(o.value, v->buf, sizeof(o.value));
	if (bpf_xdp_store_bytes(ctx, 16, &o, sizeof(o)))
		return XDP_ABORTED;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
