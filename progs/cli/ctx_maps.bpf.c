// SPDX-License-Identifier: MIT
/*
 * Maps of every shape `--dump-maps` decodes with BTF: a struct value with
 * an enum, a char array and a bitfield, a per-CPU array, a hash keyed by
 * a struct, and global data (.rodata, .bss).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

enum ctx_kind { CTX_NONE = 0, CTX_SHORT = 1, CTX_LONG = 2 };

struct ctx_stat {
	__u64 packets;
	__u64 bytes;
	enum ctx_kind last;
	char tag[8];
	__u32 odd : 1, len_hi : 7;
	__u8 first[4];
};

struct ctx_key {
	__u16 proto;
	__u16 port;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct ctx_stat);
} ctx_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} ctx_pcpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8);
	__type(key, struct ctx_key);
	__type(value, __u32);
} ctx_seen SEC(".maps");

const volatile __u32 ctx_limit = 100;
__u32 ctx_runs = 0;

SEC("xdp")
int ctx_maps(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 len = (__u32)(end - (void *)data), k = len >= ctx_limit;
	struct ctx_key key = { .proto = 0, .port = 0 };
	struct ctx_stat *st;
	__u64 *pc;
	__u32 one = 1, *seen;

	ctx_runs++;
	st = bpf_map_lookup_elem(&ctx_stats, &k);
	if (!st)
		return XDP_ABORTED;
	st->packets++;
	st->bytes += len;
	st->last = k ? CTX_LONG : CTX_SHORT;
	if (k)
		__builtin_memcpy(st->tag, "long", 5);
	else
		__builtin_memcpy(st->tag, "short", 6);
	st->odd = len & 1;
	st->len_hi = (len >> 1) & 0x7f;
	if (data + 14 <= (unsigned char *)end) {
		__builtin_memcpy(st->first, data, 4);
		key.proto = (__u16)(data[12] << 8 | data[13]);
		key.port = (__u16)len;
	}
	seen = bpf_map_lookup_elem(&ctx_seen, &key);
	if (seen)
		__sync_fetch_and_add(seen, 1);
	else
		bpf_map_update_elem(&ctx_seen, &key, &one, BPF_ANY);
	pc = bpf_map_lookup_elem(&ctx_pcpu, &k);
	if (pc)
		*pc += len;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
