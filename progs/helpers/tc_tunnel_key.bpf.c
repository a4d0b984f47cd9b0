// SPDX-License-Identifier: MIT
/*
 * bpf_skb_set_tunnel_key, bpf_skb_get_tunnel_key, bpf_skb_set_tunnel_opt
 * and bpf_skb_get_tunnel_opt, driven by the cb[] words the test passes in
 * (which size of the key, which flags): the key to set is read from the
 * packet, what the gets fill is written back into it and the return
 * values go to cb[], for test_tunnel_key to compare with the kernel.
 * Packets must have 14 + 256 + 64 bytes.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define KEY_AT 14 /* the key in, what the get filled out */
#define OPT_AT 14 /* the options in and out (tc_tunnel_opt) */
#define FLAGS_AT (14 + 256) /* tc_tunnel_opt's key read with its flags */
#define NO_CALL 15 /* a size selector: skip the call */
#define BPF_F_TUNINFO_FLAGS_ (1ull << 4)

/* Every size the kernel's switch knows, and some it does not:
 * sizeof, local_ipv6, tunnel_label, tunnel_ext, remote_ipv6[1]. */
#define KEY_SIZES(X) \
	X(0, 44)     \
	X(1, 28)     \
	X(2, 24) X(3, 22) X(4, 8) X(5, 4) X(6, 43) X(7, 48) X(8, 20) X(9, 40)

static __u8 opt_in[256], opt_out[256];

static __always_inline long set_key(struct __sk_buff *skb, void *k, __u32 sel,
				    __u64 flags)
{
#define SET_CASE(i, n) \
	case i:        \
		return bpf_skb_set_tunnel_key(skb, k, n, flags);
	switch (sel) {
		KEY_SIZES(SET_CASE)
	}
	return 1000;
}

static __always_inline long get_key(struct __sk_buff *skb, void *k, __u32 sel,
				    __u64 flags)
{
#define GET_CASE(i, n) \
	case i:        \
		return bpf_skb_get_tunnel_key(skb, k, n, flags);
	switch (sel) {
		KEY_SIZES(GET_CASE)
	}
	return 1000;
}

/* cb[0] the set's size selector (NO_CALL: no set), cb[1] its flags,
 * cb[2] the get's selector, cb[3] its flags; the key comes from the
 * packet at KEY_AT and the get's buffer (pre-filled with 0xa5, to show
 * what it zeroes) goes back there. cb[0], cb[1]: the two answers; cb[2]
 * a second get with the same arguments, after a failed set. */
SEC("tc")
int tc_tunnel_key(struct __sk_buff *skb)
{
	__u32 set_sel = skb->cb[0], get_sel = skb->cb[2];
	__u64 set_flags = skb->cb[1], get_flags = skb->cb[3];
	__u8 in[48], out[48];
	long r1 = 1000, r2 = 1000, r3;

	if (bpf_skb_load_bytes(skb, KEY_AT, in, sizeof(in)))
		return 1;
	__builtin_memset(out, 0xa5, sizeof(out));
	if (set_sel != NO_CALL)
		r1 = set_key(skb, in, set_sel, set_flags);
	if (get_sel != NO_CALL)
		r2 = get_key(skb, out, get_sel, get_flags);
	if (bpf_skb_store_bytes(skb, KEY_AT, out, sizeof(out), 0))
		return 2;
	/* A set that fails leaves the skb as it was. */
	__builtin_memset(in, 0xff, sizeof(in));
	set_key(skb, in, 0, 0x80);
	__builtin_memset(out, 0x5a, sizeof(out));
	r3 = get_key(skb, out, get_sel, get_flags);
	skb->cb[0] = (__u32)r1;
	skb->cb[1] = (__u32)r2;
	skb->cb[2] = (__u32)r3;
	skb->cb[3] = out[0] | out[20] << 8 | out[22] << 16 | out[43] << 24;
	return 0;
}

#define OPT_SIZES(X) \
	X(0, 4)      \
	X(1, 8)      \
	X(2, 12) X(3, 252) X(4, 256) X(5, 6) X(6, 1) X(7, 2) X(8, 16) X(9, 64)

static __always_inline long set_opt(struct __sk_buff *skb, __u32 sel)
{
#define SET_OPT_CASE(i, n) \
	case i:            \
		return bpf_skb_set_tunnel_opt(skb, opt_in, n);
	switch (sel) {
		OPT_SIZES(SET_OPT_CASE)
	}
	return 1000;
}

static __always_inline long get_opt(struct __sk_buff *skb, __u32 sel)
{
#define GET_OPT_CASE(i, n) \
	case i:            \
		return bpf_skb_get_tunnel_opt(skb, opt_out, n);
	switch (sel) {
		OPT_SIZES(GET_OPT_CASE)
	}
	return 1000;
}

/*
 * cb[0]: bit 0 set a key first (flags cb[1]), bit 1 set a key again
 * after the options, bits 4..7 a second set_opt's selector (NO_CALL:
 * none); cb[2] the set_opt's selector, cb[3] the get_opt's. The options
 * come from the packet at OPT_AT; what the get filled goes back there,
 * and the key read with BPF_F_TUNINFO_FLAGS (so the option bits show) at
 * FLAGS_AT. cb[0..3]: the answers.
 */
SEC("tc")
int tc_tunnel_opt(struct __sk_buff *skb)
{
	__u32 what = skb->cb[0], sel2 = (what >> 4) & 15;
	__u64 flags = skb->cb[1];
	__u8 key[44];
	long r1 = 1000, r2 = 1000, r3, r4;

	if (bpf_skb_load_bytes(skb, OPT_AT, opt_in, sizeof(opt_in)))
		return 1;
	__builtin_memset(key, 0, sizeof(key));
	key[0] = 7;
	if (what & 1)
		r1 = bpf_skb_set_tunnel_key(skb, (void *)key, sizeof(key),
					    flags);
	r2 = set_opt(skb, skb->cb[2]);
	if (sel2 != NO_CALL)
		r2 |= set_opt(skb, sel2) << 16;
	if (what & 2)
		bpf_skb_set_tunnel_key(skb, (void *)key, sizeof(key), flags);
	__builtin_memset(opt_out, 0xa5, sizeof(opt_out));
	r3 = get_opt(skb, skb->cb[3]);
	if (bpf_skb_store_bytes(skb, OPT_AT, opt_out, sizeof(opt_out), 0))
		return 2;
	__builtin_memset(key, 0xa5, sizeof(key));
	r4 = bpf_skb_get_tunnel_key(skb, (void *)key, sizeof(key),
				    BPF_F_TUNINFO_FLAGS_ |
					    (flags & BPF_F_TUNINFO_IPV6));
	if (bpf_skb_store_bytes(skb, FLAGS_AT, key, sizeof(key), 0))
		return 3;
	skb->cb[0] = (__u32)r1;
	skb->cb[1] = (__u32)r2;
	skb->cb[2] = (__u32)r3;
	skb->cb[3] = (__u32)r4;
	return 0;
}

/* What the packet arrived with: the key (cb[0] the size selector, cb[1]
 * the flags) at KEY_AT, the options (cb[2] the selector) after it;
 * cb[0], cb[1]: the answers. The program a collect_md device's ingress
 * runs, and `headroom test --tunnel` too. */
SEC("tc")
int tc_tunnel_rx(struct __sk_buff *skb)
{
	__u8 out[48];
	long r1, r2;

	__builtin_memset(out, 0xa5, sizeof(out));
	r1 = get_key(skb, out, skb->cb[0], skb->cb[1]);
	if (bpf_skb_store_bytes(skb, KEY_AT, out, sizeof(out), 0))
		return 1;
	__builtin_memset(opt_out, 0xa5, sizeof(opt_out));
	r2 = get_opt(skb, skb->cb[2]);
	if (bpf_skb_store_bytes(skb, KEY_AT + 48, opt_out, 64, 0))
		return 2;
	skb->cb[0] = (__u32)r1;
	skb->cb[1] = (__u32)r2;
	return 0;
}

/* What tc_tunnel_record saw of the last packet of type 0x88b5. */
struct tun_seen {
	__s32 key_ret;
	__s32 opt_ret;
	__u8 key[44]; /* with BPF_F_TUNINFO_FLAGS */
	__u8 opt[16];
	__u32 count;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tun_seen);
} tun_seen SEC(".maps");

/* On a collect_md vxlan device's ingress: the metadata it received a
 * test frame with (inner type 0x88b5), into tun_seen; test_tunnel_key
 * runs it in headroom with the same metadata given and compares. */
SEC("tc")
int tc_tunnel_record(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	struct tun_seen *v;
	__u32 zero = 0;
	__u8 *eth = data;

	if (data + 14 > end || eth[12] != 0x88 || eth[13] != 0xb5)
		return 0;
	v = bpf_map_lookup_elem(&tun_seen, &zero);
	if (!v)
		return 0;
	v->key_ret = bpf_skb_get_tunnel_key(skb, (void *)v->key, sizeof(v->key),
					    BPF_F_TUNINFO_FLAGS_);
	/* An IPv6 tunnel: -EPROTO (-71) for the IPv4 view. */
	if (v->key_ret == -71)
		v->key_ret = bpf_skb_get_tunnel_key(
			skb, (void *)v->key, sizeof(v->key),
			BPF_F_TUNINFO_FLAGS_ | BPF_F_TUNINFO_IPV6);
	v->opt_ret = bpf_skb_get_tunnel_opt(skb, v->opt, sizeof(v->opt));
	v->count++;
	return 0;
}

char _license[] SEC("license") = "GPL";
