// SPDX-License-Identifier: MIT
/*
 * The socket lookups of XDP and tc programs (net/core/filter.c's
 * bpf_sk_lookup_tcp, bpf_sk_lookup_udp, bpf_skc_lookup_tcp and their XDP
 * twins) with bpf_sk_release, bpf_tcp_check_syncookie,
 * bpf_tcp_gen_syncookie and tc's bpf_sk_assign, over headroom's socket table, which holds no
 * socket: every lookup answers NULL, as the kernel's does in a network
 * namespace where nothing listens or is connected. The verifier lets the
 * other four be called only with a socket a lookup returned, so no run
 * reaches them; one that does (a forged pointer) is stopped.
 */
#include <stdint.h>

#include "helpers/helpers.h"

/* struct bpf_sock_tuple: IPv4 (12 bytes) or IPv6 (36 bytes). */
static uint64_t sk_lookup(uint64_t ctx, uint64_t tuple, uint64_t size,
			  uint64_t netns, uint64_t flags, struct hr_run *run)
{
	/* The verifier checks the tuple is readable for its size. */
	if ((uint32_t)size && !hr_run_mem(run, tuple, (uint32_t)size, false))
		return 0;
	return 0;
}

static uint64_t no_socket(uint64_t sk, uint64_t r2, uint64_t r3, uint64_t r4,
			  uint64_t r5, struct hr_run *run)
{
	/* Only a lookup's non-NULL result may get here: there is none. */
	hr_run_abort(run, HR_ABORT_HELPER_ARG, sk);
	return 0;
}

const struct hr_helper hr_helper_sk_lookup_tcp = {
	.id = 84,
	.name = "bpf_sk_lookup_tcp",
	.fn = sk_lookup,
};

const struct hr_helper hr_helper_sk_lookup_udp = {
	.id = 85,
	.name = "bpf_sk_lookup_udp",
	.fn = sk_lookup,
};

const struct hr_helper hr_helper_sk_release = {
	.id = 86,
	.name = "bpf_sk_release",
	.fn = no_socket,
};

const struct hr_helper hr_helper_skc_lookup_tcp = {
	.id = 99,
	.name = "bpf_skc_lookup_tcp",
	.fn = sk_lookup,
};

const struct hr_helper hr_helper_tcp_check_syncookie = {
	.id = 100,
	.name = "bpf_tcp_check_syncookie",
	.fn = no_socket,
};

const struct hr_helper hr_helper_tcp_gen_syncookie = {
	.id = 110,
	.name = "bpf_tcp_gen_syncookie",
	.fn = no_socket,
};

/* ARG_PTR_TO_BTF_ID_SOCK_COMMON, never NULL: a tc packet carries no
 * socket here either, so only a lookup's result could be passed. */
const struct hr_helper hr_helper_sk_assign = {
	.id = 124,
	.name = "bpf_sk_assign",
	.fn = no_socket,
};
