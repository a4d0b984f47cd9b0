// SPDX-License-Identifier: MIT
/* The `headroom run` topology (config.h): look-ups and freeing. */
#include <stdlib.h>
#include <string.h>

#include "cli/config.h"

struct hr_cfg_prog *hr_config_prog(struct hr_config *cfg, const char *name)
{
	int i;

	for (i = 0; name && i < cfg->nprogs; i++)
		if (cfg->progs[i].name && !strcmp(cfg->progs[i].name, name))
			return &cfg->progs[i];
	return NULL;
}

struct hr_cfg_dev *hr_config_dev(struct hr_config *cfg, const char *name)
{
	int i;

	for (i = 0; name && i < cfg->ndevs; i++)
		if (cfg->devs[i].name && !strcmp(cfg->devs[i].name, name))
			return &cfg->devs[i];
	return NULL;
}

static void free_prog(struct hr_cfg_prog *p)
{
	int i, j;

	free(p->name);
	free(p->spec);
	for (i = 0; i < p->nsets; i++)
		free(p->sets[i]);
	for (i = 0; i < p->nsizes; i++)
		free(p->sizes[i]);
	for (i = 0; i < p->nmaps; i++) {
		free(p->maps[i].map);
		for (j = 0; j < p->maps[i].n; j++)
			free(p->maps[i].entries[j]);
	}
	free(p->cpumap);
	for (i = 0; i < p->ncpu; i++)
		free(p->cpu[i].prog);
	free(p->devmap);
	for (i = 0; i < p->ndm; i++) {
		free(p->dm[i].dev);
		free(p->dm[i].egress);
	}
}

void hr_config_free(struct hr_config *cfg)
{
	const char *file = cfg->file;
	int i;

	for (i = 0; i < cfg->nprogs; i++)
		free_prog(&cfg->progs[i]);
	for (i = 0; i < cfg->ndevs; i++) {
		struct hr_cfg_dev *d = &cfg->devs[i];

		free(d->name);
		free(d->path);
		free(d->hints);
		free(d->out);
		free(d->peer);
		free(d->ifname);
		free(d->xdp);
		free(d->tc);
		free(d->stack);
	}
	memset(cfg, 0, sizeof(*cfg));
	cfg->file = file;
}
