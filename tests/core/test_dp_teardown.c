// SPDX-License-Identifier: MIT
/*
 * Teardown order: a datapath destroyed while a cpumap entry still holds
 * frames in its ring, before the object owning the cpumap is closed (the
 * order a program naturally uses). The entry must give the frames back
 * while their pools exist and forget its worker; closing the object
 * afterwards must touch neither. Checked under ASan in CI.
 */
#include <string.h>

#include <headroom/headroom.h>
#include <headroom/datapath.h>
#include <headroom/devices.h>

#include "harness.h"
#include "core/datapath.h"
#include "core/pool.h"
#include "headroom/cpumap.h"

int main(void)
{
	HR_OPTS(hr_datapath_opts, dpo, .nworkers = 2);
	HR_OPTS(hr_gen_opts, go, .count = 500);
	struct hr_cpumap_kthread_stats k;
	struct hr_datapath *dp = NULL;
	struct hr_object *obj = NULL;
	struct hr_dev *gen = NULL;
	char path[4096], err[512] = "";
	HR_OPTS(hr_object_open_opts, oo, .errbuf = err,
		.errbuf_sz = sizeof(err), .ncpus = 2);
	uint32_t key = 1, qsize = 1024;
	struct hr_map *cm;
	int i;

	CHECK_EQ(hr_dp_create(&dpo, &dp), 0);
	snprintf(path, sizeof(path), "%s/bench_cpumap.o", t_progs_dir());
	CHECK(hr_object_open(path, &oo, &obj) == 0, "%s", err);
	if (!dp || !obj)
		return t_done();
	cm = hr_object_find_map(obj, "cpu_map");
	CHECK_EQ(hr_map_update_elem(cm, &key, &qsize, 0), 0);
	CHECK_EQ(hr_dev_gen_create(dp, "gen0", &go, &gen), 0);
	hr_dev_attach_xdp(gen, hr_object_find_prog(obj, NULL));
	CHECK_EQ(hr_dp_assign_queue(dp, gen, 0, 0), 0);
	CHECK_EQ(hr_dev_open(gen), 0);
	/* Only the RX worker polls: the frames wait on worker 1's ring. */
	for (i = 0; i < 4; i++)
		hr_worker_poll_once(dp->workers[0]);
	CHECK(hr_pool_outstanding(gen->pool) > 0, "nothing queued");
	hr_dp_destroy(dp);
	/* The ring was emptied into the pools before they went. */
	CHECK_EQ(hr_cpumap_kthread_stats(cm, key, &k), 0);
	CHECK_EQ(k.drops, 4 * 64);
	CHECK_EQ(k.processed, 4 * 64);
	hr_object_close(obj);
	return t_done();
}
