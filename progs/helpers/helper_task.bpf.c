// SPDX-License-Identifier: MIT
/* The task helpers XDP has had since 6.10 (bpf_base_func_proto): the
 * calling thread's ids, plain and as seen from a pid namespace named by
 * dev/ino (entries 0 and 1 of map ns). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} ns SEC(".maps");

SEC("xdp")
int task_helper(struct xdp_md *ctx)
{
	return (int)(bpf_get_current_pid_tgid() >> 32);
}

SEC("xdp")
int task_ns_helper(struct xdp_md *ctx)
{
	struct bpf_pidns_info info;
	__u32 k0 = 0, k1 = 1;
	__u64 *dev = bpf_map_lookup_elem(&ns, &k0);
	__u64 *ino = bpf_map_lookup_elem(&ns, &k1);

	if (!dev || !ino)
		return -2;
	if (bpf_get_ns_current_pid_tgid(*dev, *ino, &info, sizeof(info)))
		return -1;
	return (int)(info.tgid ^ info.pid);
}

/* uid/gid and the thread's name: what a CAP_PERFMON loader gets. */
SEC("xdp")
int task_ids_helper(struct xdp_md *ctx)
{
	char comm[8];
	__u64 ug = bpf_get_current_uid_gid();

	if (bpf_get_current_comm(comm, sizeof(comm)))
		return -1;
	return (int)((__u32)ug ^ (__u32)(ug >> 32) ^ comm[0] ^ comm[6] << 8);
}

char LICENSE[] SEC("license") = "GPL";
