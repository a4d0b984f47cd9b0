/* A CO-RE field no kernel struct has: libbpf poisons its load, and the
 * verifier refuses the program when the poisoned call is reachable; behind
 * bpf_core_field_exists() the branch is dead and the program loads. */
#include "v.h"
#include <bpf/bpf_core_read.h>

struct xdp_md___poison {
	__u32 data;
	__u32 no_such_field;
} __attribute__((preserve_access_index));

SEC("xdp") int bad_core_poison(struct xdp_md *ctx)
{
	struct xdp_md___poison *c = (void *)ctx;

	return c->no_such_field ? XDP_DROP : XDP_PASS;
}

SEC("xdp") int ok_core_poison(struct xdp_md *ctx)
{
	struct xdp_md___poison *c = (void *)ctx;

	if (bpf_core_field_exists(c->no_such_field))
		return c->no_such_field ? XDP_DROP : XDP_PASS;
	return XDP_PASS;
}
