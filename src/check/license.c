// SPDX-License-Identifier: MIT
/*
 * Whether an object's "license" section is one the kernel counts as GPL
 * compatible (license_is_gpl_compatible, include/linux/license.h): the
 * verifier refuses gpl_only helpers to the others (check_helper_call).
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "check/protos.h"

static const char *const gpl_names[] = {
	"GPL",		"GPL v2",	"GPL and additional rights",
	"Dual BSD/GPL", "Dual MIT/GPL", "Dual MPL/GPL",
};

static bool name_is_gpl(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(gpl_names) / sizeof(gpl_names[0]); i++)
		if (strnlen(s, n) == strlen(gpl_names[i]) &&
		    !strncmp(s, gpl_names[i], n))
			return true;
	return false;
}

/* The "license" section's data, looked for among @elf's sections. */
static int scan_license(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -1;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			return -1;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, "license"))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || !d->d_size)
			return 0;
		return name_is_gpl(d->d_buf, d->d_size);
	}
	return 0;
}

int hr_check_license_gpl(const char *path)
{
	Elf *elf;
	int fd, ret;

	if (!path || elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	ret = elf ? scan_license(elf) : -1;
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
