/* SPDX-License-Identifier: MIT */
/*
 * The kernel as the benchmarks' other side: libbpf objects from the built
 * progs with .rodata values set before load (the skeleton's way), the
 * kernel's own packet source (BPF_PROG_TEST_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES, which sends every XDP_TX or XDP_REDIRECT
 * for real, as net/bpf/test_run.c's xdp_test_run_batch does) and per-CPU
 * counters summed. Nothing here counts a check: a benchmark prints what
 * failed and goes on.
 */
#ifndef HR_TESTS_KERNEL_LIVE_H
#define HR_TESTS_KERNEL_LIVE_H

#include <stdint.h>

struct bpf_object;

/*
 * $BUILD/progs/@name with each of @sets ("NAME=VALUE", a 32-bit .rodata
 * variable) written before load, every program bound to @bound_ifindex
 * (device-bound, for the metadata kfuncs) when it is not 0; NULL after
 * a message on stderr.
 */
struct bpf_object *t_kopen_set(const char *name, const char *const *sets,
			       unsigned int nsets, int bound_ifindex);

/* The fd of program @name of @o (NULL: its first), or -1. */
int t_kprog_fd(struct bpf_object *o, const char *name);

/*
 * Live-frames test run of @prog_fd: @repeat frames made from @pkt
 * (@len bytes) entering on @ifindex (its queue 0), in batches of 64;
 * the seconds it took, or 0 after a message on stderr, errno saying why.
 */
double t_klive(int prog_fd, int ifindex, const void *pkt, uint32_t len,
	       uint64_t repeat);

/* Entry @key of per-CPU array @map of @o (64-bit values), summed over
 * the possible CPUs; 0 when it cannot be read. */
uint64_t t_kpercpu_sum(struct bpf_object *o, const char *map, uint32_t key);
/* The same, and CPU @cpu's value in *@at (0 when there is none). */
uint64_t t_kpercpu_read(struct bpf_object *o, const char *map, uint32_t key,
			int cpu, uint64_t *at);

/* The live frame the benchmarks send: 64 bytes of IPv4 UDP, from
 * 198.18.0.1:1234 to 198.18.1.1:9, 02:00:00:00:00:01 to ...:02. */
extern const uint8_t t_live_frame[64];

/* CLOCK_MONOTONIC in seconds. */
double t_now_s(void);

#endif /* HR_TESTS_KERNEL_LIVE_H */
