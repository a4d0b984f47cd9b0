/* SPDX-License-Identifier: MIT */
/*
 * The test harness: checks count passes and failures; every test binary
 * ends with t_done(), which prints "RESULT passed=N failed=M" for run.sh.
 */
#ifndef HR_TESTS_HARNESS_H
#define HR_TESTS_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

extern unsigned int t_passed, t_failed;

/* Counts one check; prints the failure with its location. */
#define CHECK(cond, ...)                                              \
	do {                                                          \
		if (cond) {                                           \
			t_passed++;                                   \
		} else {                                              \
			t_failed++;                                   \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, \
				__LINE__, #cond);                     \
			fprintf(stderr, __VA_ARGS__);                 \
			fputc('\n', stderr);                          \
		}                                                     \
	} while (0)

#define CHECK_EQ(a, b)                                          \
	CHECK((long long)(a) == (long long)(b), "%lld != %lld", \
	      (long long)(a), (long long)(b))

/* Prints the RESULT line; the binary's exit status. */
int t_done(void);

/*
 * Whether the live kernel can serve as oracle (root, bpf syscall). When it
 * cannot, t_skip() prints why and returns the exit status: 77 (skip), or a
 * failure when HEADROOM_REQUIRE_KERNEL=1.
 */
bool t_have_kernel(char *why, size_t whysz);
int t_skip(const char *why);

/* Directory holding the built BPF objects ($BUILD/progs). */
const char *t_progs_dir(void);

/* The path of object @name: @name itself when absolute, else under
 * t_progs_dir(). */
void t_prog_path(const char *name, char *path, size_t sz);

/* Lowercase hex of @len bytes into @out (2 * len + 1 bytes). */
void t_hex(const void *buf, size_t len, char *out);

/*
 * Objects under t_progs_dir() that cannot agree with the kernel, or with
 * another run, on purpose: one list for every test that walks the
 * directory (test_cli, test_corpus, test_jit), so that they leave out the
 * same objects for the same reasons.
 */
enum t_by_design {
	/* Random on purpose: no two runs agree, whatever runs them. */
	T_RANDOM = 1 << 0,
	/* The answer is the calling process's own (its pid, its task):
	 * comparable only from one process. */
	T_PER_PROCESS = 1 << 1,
	/* The kernel loads it, headroom refuses it by design. */
	T_REFUSED = 1 << 2,
	/* The kernel's answer hangs on its own state beyond the program
	 * and packet (an allocator): the object's own test compares it. */
	T_KERNEL_STATE = 1 << 3,
};

/*
 * Whether object @name (a path or a bare file name; only the file name
 * counts) is one of @what (a mask of enum t_by_design); when it is and
 * @why is not NULL, *@why is the reason.
 */
bool t_prog_by_design(const char *name, unsigned int what, const char **why);

/*
 * Runs @cmd with /bin/sh and captures its standard output into @out
 * (NUL-terminated, at most @outsz - 1 bytes); with @out NULL the output
 * is read and dropped. Standard error passes through. The command's exit
 * status, or -1 when it could not run or did not exit.
 */
int t_run_cmd(const char *cmd, char *out, size_t outsz);

struct hr_prog;

/*
 * One test run of @prog under @engine over 64 zero bytes but @sel at
 * byte 14 (the selector of the programs that forge pointers on purpose,
 * ct_forged.o, dynptr_local_forged.o, bits_ring_snprintf_forged.o); the
 * run's abort reason, and its
 * return value in *@retval when not NULL. A failed run is a failed check.
 */
int t_run_selector(struct hr_prog *prog, uint8_t sel, int engine,
		   uint32_t *retval);

#endif /* HR_TESTS_HARNESS_H */
