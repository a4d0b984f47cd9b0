/* A per-CPU object may be at most BPF_GLOBAL_PERCPU_MA_MAX_SIZE (512)
 * bytes (check_kfunc_call). No ok_ twin here: check does not follow the
 * object kfuncs, so a 512-byte one is "cannot tell" (the kernel takes
 * it; test_percpu_obj runs such objects). */
#include "v.h"
#include "hr_obj.h"

struct big {
	__u8 b[513];
};

SEC("xdp") int bad_obj_size(struct xdp_md *ctx)
{
	struct big *p = bpf_percpu_obj_new(struct big);

	if (p)
		bpf_percpu_obj_drop(p);
	return XDP_PASS;
}
