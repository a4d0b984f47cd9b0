// SPDX-License-Identifier: MIT
/*
 * The read-only string kfuncs of kernel/bpf/helpers.c (bpf_strcmp ...
 * bpf_strnstr) and the helpers bpf_strtol and bpf_strtoul, one call a
 * run as the packet's struct hr_str_case says, the answer written back
 * into it, for test_string_kfuncs to compare with the kernel. The
 * strings are in the packet, on the stack, in .rodata, or in two .data
 * arrays longer than XATTR_SIZE_MAX (the kernel's limit, -E2BIG); a
 * pointer may also be any number (NULL, 1, an address nothing maps):
 * the kfuncs' __ign arguments let the verifier pass anything.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#include "hr_str_case.h"

extern int bpf_strcmp(const char *s1__ign, const char *s2__ign) __ksym;
extern int bpf_strcasecmp(const char *s1__ign, const char *s2__ign) __ksym;
extern int bpf_strchr(const char *s__ign, char c) __ksym;
extern int bpf_strchrnul(const char *s__ign, char c) __ksym;
extern int bpf_strnchr(const char *s__ign, unsigned long count, char c) __ksym;
extern int bpf_strrchr(const char *s__ign, int c) __ksym;
extern int bpf_strlen(const char *s__ign) __ksym;
extern int bpf_strnlen(const char *s__ign, unsigned long count) __ksym;
extern int bpf_strspn(const char *s__ign, const char *accept__ign) __ksym;
extern int bpf_strcspn(const char *s__ign, const char *reject__ign) __ksym;
extern int bpf_strstr(const char *s1__ign, const char *s2__ign) __ksym;
extern int bpf_strnstr(const char *s1__ign, const char *s2__ign,
		       unsigned long len) __ksym;

/* XATTR_SIZE_MAX and more: every kfunc gives up on them with -E2BIG. */
char long_a[HR_STR_LONG_SIZE] = { [0 ... HR_STR_LONG_SIZE - 2] = 'a' };
char long_b[HR_STR_LONG_SIZE] = { [0 ... 65534] = 'a',
				  [65535] = 'b',
				  [65536 ... HR_STR_LONG_SIZE - 2] = 'c' };
/* No NUL within: a scan that starts here runs off the map value. */
const char ro_str[HR_STR_RO_SIZE] = { 'R', 'o', '\xc9', '\xe9', 'x', 'y',
				      'z', 'z', 'z',	'z',	'z', 'z',
				      'z', 'z', 'z',	'z' };

struct bufs {
	char s1[32];
	char s2[32];
};

/* The packet's 32 bytes at @off in @dst; NULL when they are not all in. */
static __always_inline const char *to_stack(void *data, void *data_end,
					    __u64 off, char *dst)
{
	const char *src = data + (off & 0x3ff);

	if ((void *)(src + 32) > data_end)
		return 0;
	__builtin_memcpy(dst, src, 32);
	return dst;
}

static __always_inline const char *arg(void *data, void *data_end, __u32 kind,
				       __u64 p, char *stack)
{
	switch (kind) {
	case HR_STR_PKT:
		return data + (p & 0x3ff);
	case HR_STR_RAW:
		return (const char *)p;
	case HR_STR_LONG:
		return long_a + (p < HR_STR_LONG_SIZE ? p : 0);
	case HR_STR_LONG_B:
		return long_b + (p < HR_STR_LONG_SIZE ? p : 0);
	case HR_STR_STACK:
		return to_stack(data, data_end, p, stack);
	default:
		return ro_str + (p < HR_STR_RO_SIZE ? p : 0);
	}
}

static __always_inline int str_call(struct hr_str_case *k, const char *s1,
				    const char *s2)
{
	switch (k->op) {
	case HR_STR_STRCMP:
		return bpf_strcmp(s1, s2);
	case HR_STR_STRCASECMP:
		return bpf_strcasecmp(s1, s2);
	case HR_STR_STRCHR:
		return bpf_strchr(s1, (char)k->c);
	case HR_STR_STRCHRNUL:
		return bpf_strchrnul(s1, (char)k->c);
	case HR_STR_STRNCHR:
		return bpf_strnchr(s1, k->n, (char)k->c);
	case HR_STR_STRRCHR:
		return bpf_strrchr(s1, k->c);
	case HR_STR_STRLEN:
		return bpf_strlen(s1);
	case HR_STR_STRNLEN:
		return bpf_strnlen(s1, k->n);
	case HR_STR_STRSPN:
		return bpf_strspn(s1, s2);
	case HR_STR_STRCSPN:
		return bpf_strcspn(s1, s2);
	case HR_STR_STRSTR:
		return bpf_strstr(s1, s2);
	default:
		return bpf_strnstr(s1, s2, k->n);
	}
}

/* bpf_strtol / bpf_strtoul over the packet's k->n bytes at k->p1, copied
 * to the stack first: the helpers may not read the packet. */
static __always_inline int strtox(struct hr_str_case *k, void *data,
				  void *data_end)
{
	__u64 buf[HR_STR_TOX_BUF / 8];
	const __u64 *src = data + (k->p1 & 0x3ff);
	__u32 len = k->n;
	long res = k->res;
	int i;

	if (len == 0 || len > HR_STR_TOX_BUF)
		return -1;
	if ((void *)(src + HR_STR_TOX_BUF / 8) > data_end)
		return -1;
#pragma unroll
	for (i = 0; i < HR_STR_TOX_BUF / 8; i++)
		buf[i] = src[i];
	if (k->op == HR_STR_STRTOL)
		k->ret = bpf_strtol((char *)buf, len, (__u32)k->c, &res);
	else
		k->ret = bpf_strtoul((char *)buf, len, (__u32)k->c,
				     (unsigned long *)&res);
	k->res = res;
	return 0;
}

static __always_inline int one(void *data, void *data_end)
{
	struct hr_str_case *k = data + HR_STR_CASE_OFF;
	struct bufs b;
	const char *s1, *s2;

	if ((void *)(k + 1) > data_end)
		return -1;
	/* Not a case (test_cli runs every program over its own packets). */
	if (k->magic != HR_STR_MAGIC)
		return 0;
	if (k->op == HR_STR_STRTOL || k->op == HR_STR_STRTOUL)
		return strtox(k, data, data_end);
	s1 = arg(data, data_end, k->k1, k->p1, b.s1);
	s2 = arg(data, data_end, k->k2, k->p2, b.s2);
	k->ret = str_call(k, s1, s2);
	return 0;
}

SEC("xdp")
int xdp_str(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;

	return one(data, data_end) ? XDP_ABORTED : XDP_PASS;
}

SEC("tc")
int tc_str(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;

	return one(data, data_end) ? TC_ACT_SHOT : TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
