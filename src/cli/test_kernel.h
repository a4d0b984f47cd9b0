/* SPDX-License-Identifier: MIT */
/*
 * headroom test --kernel: the same packets through the live kernel's
 * BPF_PROG_TEST_RUN (libbpf's bpf_prog_test_run_opts), each packet's
 * verdict, return value, data and metadata compared with headroom's, and
 * the maps compared at the end.
 */
#ifndef HR_CLI_TEST_KERNEL_H
#define HR_CLI_TEST_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hr_object;
struct test_kernel;
struct hr_cli_ctx;
union hr_cli_ctx_buf;

/* Loads program @prog of the object at @path into the kernel (@xdp: as
 * XDP, else SCHED_CLS) into *@out, its maps sized and its global data set
 * as headroom's @hobj has them (--map-size, --set); 0, or -errno after a
 * message saying why (-EPERM: not privileged; else refused, with the
 * verifier's first error line). */
int test_kernel_open(const char *path, const char *prog, bool xdp,
		     const struct hr_object *hobj, struct test_kernel **out);
/* Whether maps of type @t hold the same entries on both sides, value for
 * value (array, hash, LRU hash, LPM trie: a per-CPU map holds a value a
 * CPU, and the CPUs differ; others hold devices, CPUs, programs). */
bool test_kernel_map_comparable(uint32_t t);
/* Puts the entries headroom's maps hold now (--map) in the kernel's maps
 * of the same name that both sides compare; 0 or -errno, said. */
int test_kernel_take_maps(struct test_kernel *k, const struct hr_object *obj);
/* Submits @n samples (@data[i], @len[i] bytes) to the kernel's user
 * ring buffer @map, as --user-ringbuf gives headroom's; 0 or -errno,
 * said. */
int test_kernel_user_ringbuf(struct test_kernel *k, const char *map,
			     uint8_t *const *data, const size_t *len,
			     unsigned int n);
void test_kernel_close(struct test_kernel *k);

/* headroom's answer for one packet, to compare. */
struct test_kernel_answer {
	int err; /* 0, or the test run's -errno */
	uint32_t retval;
	const uint8_t *data, *meta;
	size_t data_len, meta_len;
	/* The context the run was given and the one it gave back (the
	 * kernel's is compared field by field), or NULL. */
	const struct hr_cli_ctx *ctx;
	const union hr_cli_ctx_buf *ctx_in, *ctx_out;
};

/* Runs packet @index (@in: @meta_len bytes of metadata, then the packet)
 * in the kernel and prints what differs from @hr; true when it agrees. */
bool test_kernel_packet(struct test_kernel *k, unsigned int index,
			const uint8_t *in, size_t in_len, size_t meta_len,
			const struct test_kernel_answer *hr, bool json);

/* Compares every map the two objects share by name (per-CPU maps: the
 * sum over CPUs is not the kernel's run CPU's, so they are left out and
 * said so); true when they agree. */
bool test_kernel_maps(struct test_kernel *k, const struct hr_object *obj,
		      bool json);

/* Packets compared and packets that differed. */
void test_kernel_counts(const struct test_kernel *k, unsigned int *compared,
			unsigned int *differed);

#endif /* HR_CLI_TEST_KERNEL_H */
