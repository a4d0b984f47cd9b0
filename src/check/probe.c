// SPDX-License-Identifier: MIT
/*
 * The live kernel's helper and kfunc offer, probed as bpftool's
 * probe_helper_for_progtype does: load "call; exit" and read the
 * verifier's log. Any refusal other than of the call itself (arguments
 * of the wrong kind, r0 unset at exit) means the call was allowed.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "check/probe.h"
#include "progs/prog.h"

#define PROBE_LOG_SIZE 4096
#define PSEUDO_KFUNC_CALL 2

/*
 * The verifier's words when it refuses the call itself
 * (check_helper_call, check_kfunc_call, add_kfunc_call): unknown to it,
 * not in the type's set, or sleepable where XDP and tc never sleep.
 */
static const char *const refusals[] = {
	"invalid func ",	   "unknown func ",	"cannot use helper",
	"helper call might sleep", "must be sleepable", "is only allowed in",
	"calling kernel function", "cannot call",
};

static bool refused(const char *log)
{
	size_t i;

	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
		if (strstr(log, refusals[i]))
			return true;
	return false;
}

static int probe(int kernel_type, int src, int imm)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .src_reg = src, .imm = imm },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char log[PROBE_LOG_SIZE];
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log,
		    .log_size = sizeof(log), .log_level = 1);
	int fd;

	log[0] = '\0';
	/* GPL, so that gpl_only helpers are judged on their offer. */
	fd = bpf_prog_load(kernel_type, NULL, "GPL", insns, 2, &opts);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (errno == EPERM || errno == ENOSYS)
		return -errno;
	/*
	 * add_kfunc_call checks device binding before the type's kfunc set:
	 * "require device-bound" means offered to a type that can be bound
	 * (XDP only, bpf_prog_dev_bound_init), never to another.
	 */
	if (strstr(log, "require device-bound"))
		return kernel_type == HR_KPROG_XDP;
	return !refused(log);
}

int hr_probe_helper(int kernel_type, int id)
{
	return probe(kernel_type, 0, id);
}

int hr_probe_kfunc(int kernel_type, int btf_id)
{
	return probe(kernel_type, PSEUDO_KFUNC_CALL, btf_id);
}

int hr_probe_each_kfunc(int (*fn)(const char *name, int btf_id, void *ctx),
			void *ctx)
{
	struct btf *btf = btf__load_vmlinux_btf();
	unsigned int i, n;
	int ret = 0;

	if (!btf)
		return -errno;
	n = btf__type_cnt(btf);
	for (i = 1; i < n && !ret; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const struct btf_type *f;

		/* pahole tags each kfunc with a decl tag "bpf_kfunc" on the
		 * function itself (component_idx -1). */
		if (!btf_is_decl_tag(t) ||
		    btf_decl_tag(t)->component_idx != -1 ||
		    strcmp(btf__name_by_offset(btf, t->name_off), "bpf_kfunc"))
			continue;
		f = btf__type_by_id(btf, t->type);
		if (!f || !btf_is_func(f))
			continue;
		ret = fn(btf__name_by_offset(btf, f->name_off), (int)t->type,
			 ctx);
	}
	btf__free(btf);
	return ret;
}
