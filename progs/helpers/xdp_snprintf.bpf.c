// SPDX-License-Identifier: MIT
/*
 * bpf_snprintf with one of its formats the packet picks (each a constant
 * string, with its constant number of arguments: the verifier checks the
 * format at load), the arguments and the output size from the packet;
 * the return and the text go back in the packet for test_snprintf to
 * compare with the kernel.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define OUT 128

/* After the Ethernet header: the case in, the answers out. */
struct snp_rec {
	__u32 which, size;
	__u64 args[12];
	char s1[16], s2[16]; /* strings %s and %pks read */
	__u8 ip[16]; /* the address %pI4 and %pI6 read */
	long long ret;
	char out[OUT];
};

#define SNP(fmt, n) bpf_snprintf(out, size, fmt, args, (n)*8)

SEC("xdp")
int xdp_snprintf(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct snp_rec *r = data + 14;
	char out[OUT] = {}, s1[16], s2[16];
	__u8 ip[16];
	__u64 args[12];
	__u32 size;
	long long ret;

	if ((void *)(r + 1) > data_end)
		return XDP_ABORTED;
	__builtin_memcpy(args, r->args, sizeof(args));
	__builtin_memcpy(s1, r->s1, sizeof(s1));
	__builtin_memcpy(s2, r->s2, sizeof(s2));
	__builtin_memcpy(ip, r->ip, sizeof(ip));
	size = r->size;
	if (size > OUT)
		size = OUT;
	switch (r->which) {
	case 0:
		ret = SNP("%d %u %x %X %i", 5);
		break;
	case 1:
		ret = SNP("%lld %llu %llx %ld %lu %li", 6);
		break;
	case 2:
		ret = SNP("[%5d|%-5d|%05u|%+d|% d|%08llx]", 6);
		break;
	case 3:
		/* args[2] chooses: a string, or a number none can read. */
		args[0] = (__u64)(long)s1;
		if (!args[2])
			args[1] = (__u64)(long)s2;
		ret = SNP("<%s> and <%10s|%-6s>", 3);
		break;
	case 4:
		args[0] = args[1] = args[2] = args[3] = (__u64)(long)ip;
		ret = SNP("%pI4 %pi4 %pI6 %pi6", 4);
		break;
	case 5:
		ret = SNP("%c%c%c 100%% %c", 4);
		break;
	case 6:
		args[0] = (__u64)(long)s1;
		ret = SNP("%pks!", 1);
		break;
	case 7:
		ret = bpf_snprintf(out, size, "no arguments at all", 0, 0);
		break;
	case 8:
		ret = SNP("%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%llx", 12);
		break;
	default:
		ret = -1;
	}
	r->ret = ret;
	__builtin_memcpy(r->out, out, sizeof(out));
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
