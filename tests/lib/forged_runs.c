// SPDX-License-Identifier: MIT
/*
 * Headroom-only runs of forged programs, each ending with its reason
 * under every engine (forged_runs.h).
 */
#include <linux/bpf.h>
#include <string.h>

#include "forged_runs.h"
#include "harness.h"
#include "headroom/headroom.h"
#include "vm/vm.h"

static const int engines[] = { HR_ENGINE_INTERP, HR_ENGINE_JIT,
			       HR_ENGINE_JIT_CHECKED };
static const char *const engine_names[] = { "interp", "jit", "jit-checked" };

void t_forged_runs(const char *obj_name, const struct t_forged *cases, size_t n,
		   const uint8_t in[64])
{
	HR_OPTS(hr_object_open_opts, oo);
	struct hr_object *obj = NULL;
	uint8_t data[64], out[64];
	char path[512];
	size_t e, i;
	int r;

	memcpy(data, in, sizeof(data));
	t_prog_path(obj_name, path, sizeof(path));
	CHECK_EQ(hr_object_open(path, &oo, &obj), 0);
	for (i = 0; obj && i < n; i++) {
		struct hr_prog *p = hr_object_find_prog(obj, cases[i].prog);

		CHECK(p != NULL, "%s found", cases[i].prog);
		for (e = 0; p && e < sizeof(engines) / sizeof(engines[0]); e++)
			for (r = 0; r < 2; r++) {
				HR_OPTS(hr_test_run_opts, ro, .data_in = data,
					.data_size_in = sizeof(data),
					.data_out = out,
					.data_size_out = sizeof(out),
					.engine = engines[e]);

				CHECK_EQ(hr_prog_test_run(p, &ro), 0);
				CHECK(ro.abort == cases[i].abort &&
					      ro.retval ==
						      (cases[i].abort ?
							       XDP_ABORTED :
							       XDP_PASS),
				      "%s %s run %d: abort %s retval %u",
				      cases[i].prog, engine_names[e], r,
				      hr_abort_str(ro.abort), ro.retval);
			}
	}
	hr_object_close(obj);
}
