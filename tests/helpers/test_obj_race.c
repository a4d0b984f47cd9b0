// SPDX-License-Identifier: MIT
/*
 * A value's list freed while a run of another thread holds the value's
 * lock and reads a node through a reference it does not own
 * (progs/helpers/xdp_list_race.bpf.c): user space overwrites the element
 * as soon as the run says it holds the lock. The list is freed under the
 * lock (maps/map_kptr.c, as bpf_list_head_free takes it), so the update
 * waits for the unlock and the run reads its node (42) every time, under
 * every engine; freed without the lock, the read is of freed memory,
 * which AddressSanitizer reports in CI's sanitizer stage.
 *
 * The same for a per-CPU object (progs/helpers/xdp_percpu_race.bpf.c):
 * its copy, reached through the __percpu_kptr field, read after user
 * space overwrote the element, which lets go of the field's object. The
 * run holds a reference to it with the copy (the kernel's RCU grace
 * period), so it reads its 42 every time.
 *
 * And for an object reached through its __kptr field and read in place
 * (progs/helpers/xdp_kptr_race.bpf.c): its first access through the
 * field takes that reference, so the overwrite frees nothing the run
 * still reads.
 */
#include <pthread.h>
#include <linux/bpf.h>
#include <string.h>

#include "harness.h"
#include "headroom/map.h"
#include "headroom/object.h"
#include "headroom/test_run.h"

#define ROUNDS 20

/* A race's object, program and the map whose element user space
 * overwrites. */
struct race_case {
	const char *obj, *prog, *map;
};

struct race {
	struct hr_map *bss, *lists;
	int update_ret;
	int saw_held;
};

/* Waits for the run to hold the lock, then overwrites the element. */
static void *overwrite(void *arg)
{
	struct race *r = arg;
	uint64_t bss[2] = { 0, 0 };
	uint8_t value[32] = { 0 };
	uint32_t zero = 0;
	long i;

	for (i = 0; i < 100000000L; i++) {
		if (hr_map_lookup_elem(r->bss, &zero, bss) == 0 && bss[0] == 1)
			break;
	}
	r->saw_held = bss[0] == 1;
	r->update_ret = hr_map_update_elem(r->lists, &zero, value, 0);
	return NULL;
}

static void rounds(struct hr_object *obj, const struct race_case *rc,
		   int engine)
{
	struct hr_prog *prog = hr_object_find_prog(obj, rc->prog);
	struct race r = { .bss = hr_object_find_map(obj, ".bss"),
			  .lists = hr_object_find_map(obj, rc->map) };
	uint8_t pkt[64] = { 0 }, out[64];
	uint64_t zeros[2] = { 0, 0 };
	uint32_t zero = 0;
	unsigned int i, held = 0;
	pthread_t t;

	CHECK(prog && r.bss && r.lists, "program and maps");
	if (!prog || !r.bss || !r.lists)
		return;
	for (i = 0; i < ROUNDS; i++) {
		HR_OPTS(hr_test_run_opts, o, .data_in = pkt,
			.data_size_in = sizeof(pkt), .data_out = out,
			.data_size_out = sizeof(out), .engine = engine);

		CHECK_EQ(hr_map_update_elem(r.bss, &zero, zeros, 0), 0);
		CHECK_EQ(pthread_create(&t, NULL, overwrite, &r), 0);
		CHECK_EQ(hr_prog_test_run(prog, &o), 0);
		pthread_join(t, NULL);
		CHECK(o.retval == XDP_PASS && !o.abort,
		      "%s engine %d round %u: retval %u abort %d", rc->prog,
		      engine, i, o.retval, o.abort);
		CHECK_EQ(r.update_ret, 0);
		held += r.saw_held;
	}
	printf("%s engine %d: the update met the run waiting in %u of %u "
	       "rounds\n",
	       rc->prog, engine, held, ROUNDS);
}

int main(void)
{
	static const int engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
				       HR_ENGINE_JIT_CHECKED };
	static const struct race_case races[] = {
		{ "xdp_list_race.o", "list_race", "lists" },
		{ "xdp_percpu_race.o", "pc_race", "pcpu" },
		{ "xdp_kptr_race.o", "kptr_race", "kptrs" },
	};
	char path[4096];
	struct hr_object *obj;
	size_t e, i;
	int err;

	for (i = 0; i < sizeof(races) / sizeof(races[0]); i++) {
		obj = NULL;
		t_prog_path(races[i].obj, path, sizeof(path));
		err = hr_object_open(path, NULL, &obj);
		CHECK(!err, "open %s: %d", path, err);
		for (e = 0; !err && e < sizeof(engines) / sizeof(engines[0]);
		     e++)
			rounds(obj, &races[i], engines[e]);
		hr_object_close(obj);
	}
	return t_done();
}
