/* SPDX-License-Identifier: MIT */
/*
 * What the bpf_timer and bpf_wq tests (test_timer, test_wq) share: one
 * case, a record after an Ethernet header, run through a program on
 * headroom and the kernel alike; the reads of a map value and of the
 * counter its callbacks add to, on either side, while callbacks may run;
 * and the uses both kernels refuse at load.
 */
#ifndef HR_TESTS_ASYNC_CASES_H
#define HR_TESTS_ASYNC_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct oracle;

/* The largest record a case carries. */
#define T_ASYNC_REC_MAX 256

/*
 * Program @prog (NULL: the first) of @obj over 14 zero bytes and the
 * @size bytes of @rec, on headroom and, when @kernel, the kernel; each
 * must pass (XDP_PASS), and the record each wrote back goes to @out_hr
 * and @out_k (@size bytes). With @out_hr NULL the kernel's side alone
 * runs (a case the kernel could not serve, run again).
 */
void t_async_run(struct oracle *o, bool kernel, const char *obj,
		 const char *prog, const char *label, const void *rec,
		 size_t size, void *out_hr, void *out_k);
/* t_async_run, then the returns in the record from @r_off on (int64_t
 * each) compared, the kernel's with headroom's (@out_hr); while the
 * kernel's alone hold -ENOMEM (@alloc, the helper or kfunc that
 * allocates, could not; nothing was made) its side runs again, for up
 * to 2 s, with a note. */
void t_async_case(struct oracle *o, bool kernel, const char *obj,
		  const char *prog, const char *label, const void *rec,
		  size_t size, size_t r_off, const char *alloc, void *out_hr);

/* The value the timer and wq programs keep: the struct bpf_timer or
 * bpf_wq, then what the callbacks add to. */
struct t_async_val {
	uint64_t field[2];
	uint64_t ran; /* callback runs */
	uint32_t id; /* map * 16 + key */
	uint32_t cb_key; /* the key the callbacks got, summed */
	int64_t cb_ret; /* what the callbacks record, summed */
};

/*
 * After the callbacks had their time, element @key of map @map in @obj,
 * whose counter is counts[@id]: the callbacks ran @count times on
 * headroom, each with key @key and recording @cb_ret in all; the element
 * is @present, its @field (bpf_timer, bpf_wq) read by user space as 0;
 * and with @kernel, the kernel's counter, presence and value bytes the
 * same as headroom's.
 */
void t_async_expect(struct oracle *o, bool kernel, const char *obj,
		    const char *label, const char *map, const char *field,
		    uint32_t key, uint32_t id, uint64_t count, bool present,
		    int64_t cb_ret);

/* counts[@id] (an array of u64 named "counts") and the value of @key in
 * map @map of @obj, headroom's or (@kernel) the kernel's: @v gets
 * @vsize bytes, zero when the element is not there (false). */
bool t_async_read(struct oracle *o, bool kernel, const char *obj,
		  const char *map, uint32_t key, uint32_t id, uint64_t *count,
		  void *v, size_t vsize);
/* Waits up to 2 s for counts[@id] of @obj to reach @want on headroom's
 * side and, when @kernel, the kernel's. */
void t_async_wait(struct oracle *o, bool kernel, const char *obj, uint32_t id,
		  uint64_t want);

/*
 * The uses the kernel refuses at load, in @obj: program @ctx_prog, whose
 * callback calls a helper that needs a context (headroom stops the run
 * at set_callback, under each engine, and nothing runs), and a @field
 * ("bpf_timer", "bpf_wq") in the per-CPU array 'pc_arr' (headroom refuses
 * the object with the verifier's reason; the kernel refuses it too).
 */
void t_async_refused(const char *obj, const char *ctx_prog, const char *field,
		     bool kernel);

#endif /* HR_TESTS_ASYNC_CASES_H */
