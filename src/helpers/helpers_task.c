// SPDX-License-Identifier: MIT
/*
 * The task helpers of bpf_base_func_proto (kernel/bpf/helpers.c): pid and
 * tgid, plain and in a pid namespace (every program type since 6.10), and
 * for a loader with CAP_PERFMON the uid/gid and the comm. "current" is the
 * thread that runs the program, as it is the task that called
 * BPF_PROG_TEST_RUN or the one a softirq interrupted in the kernel. The
 * helpers that hand out kernel pointers (bpf_get_current_task) have no
 * meaning here and stay refused.
 */
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "helpers/helpers.h"
#include "vm/mem.h"
#include "vm/vm.h"

/* struct bpf_pidns_info of the UAPI: pid, tgid. */
#define HR_PIDNS_INFO_SIZE 8u

static uint64_t get_current_pid_tgid(uint64_t r1, uint64_t r2, uint64_t r3,
				     uint64_t r4, uint64_t r5,
				     struct hr_run *run)
{
	return (uint64_t)getpid() << 32 | (uint32_t)syscall(SYS_gettid);
}

/* The pid namespace is the process's own: the answer is filled in only
 * when @dev/@ino name it, as ns_match() wants. */
static uint64_t get_ns_current_pid_tgid(uint64_t dev, uint64_t ino,
					uint64_t nsdata, uint64_t size,
					uint64_t r5, struct hr_run *run)
{
	uint32_t *info = hr_run_mem(run, nsdata, size, true);
	struct stat st;

	if (!info)
		return (uint64_t)(int64_t)-EINVAL;
	if (size != HR_PIDNS_INFO_SIZE || (uint32_t)dev != dev ||
	    stat("/proc/self/ns/pid", &st) || (uint64_t)st.st_dev != dev ||
	    (uint64_t)st.st_ino != ino) {
		memset(info, 0, size);
		return (uint64_t)(int64_t)-EINVAL;
	}
	info[0] = (uint32_t)syscall(SYS_gettid);
	info[1] = (uint32_t)getpid();
	return 0;
}

static uint64_t get_current_uid_gid(uint64_t r1, uint64_t r2, uint64_t r3,
				    uint64_t r4, uint64_t r5,
				    struct hr_run *run)
{
	return (uint64_t)getgid() << 32 | (uint32_t)getuid();
}

/* strscpy_pad() of the thread's name into @size bytes. */
static uint64_t get_current_comm(uint64_t buf, uint64_t size, uint64_t r3,
				 uint64_t r4, uint64_t r5, struct hr_run *run)
{
	char *out = hr_run_mem(run, buf, size, true);
	char comm[17] = "";

	if (!out)
		return (uint64_t)(int64_t)-EINVAL;
	prctl(PR_GET_NAME, comm);
	memset(out, 0, size);
	if (size)
		memcpy(out, comm, strnlen(comm, size - 1));
	return 0;
}

const struct hr_helper hr_helper_get_current_uid_gid = {
	.id = 15,
	.name = "bpf_get_current_uid_gid",
	.fn = get_current_uid_gid,
};

const struct hr_helper hr_helper_get_current_comm = {
	.id = 16,
	.name = "bpf_get_current_comm",
	.fn = get_current_comm,
};

const struct hr_helper hr_helper_get_current_pid_tgid = {
	.id = 14,
	.name = "bpf_get_current_pid_tgid",
	.fn = get_current_pid_tgid,
};

const struct hr_helper hr_helper_get_ns_current_pid_tgid = {
	.id = 120,
	.name = "bpf_get_ns_current_pid_tgid",
	.fn = get_ns_current_pid_tgid,
};
