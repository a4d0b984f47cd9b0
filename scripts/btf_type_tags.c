// SPDX-License-Identifier: MIT
/*
 * Gives an object built by clang 14 the BTF type tags clang 15 emits.
 *
 * clang 14 drops __attribute__((btf_type_tag(...))) from BTF, so a field
 * `struct T __kptr *p` comes out as a plain pointer, which the kernel's
 * btf_find_kptr does not take. A program written instead with a typedef
 * named __tag_NAME (`typedef struct T __tag_kptr; __tag_kptr *p;`) gets
 * here, in place, what clang 15 emits for the tag: each such
 * BTF_KIND_TYPEDEF becomes a BTF_KIND_TYPE_TAG named NAME (the same
 * struct btf_type, its name the tail of the typedef's) over the same
 * type. The .BTF section is read with libelf and libbpf's BTF API and
 * written back at its own size.
 *
 * Usage: btf-type-tags OBJ.o   (rewritten in place; no-op without tags)
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#ifndef BTF_KIND_TYPE_TAG
#define BTF_KIND_TYPE_TAG 18
#endif

#define TAG_PREFIX "__tag_"

static Elf_Scn *btf_section(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return NULL;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".BTF"))
			return scn;
	}
	return NULL;
}

/* Turns the tag typedefs of @btf into type tags; how many. */
static int retag(struct btf *btf)
{
	unsigned int id, n = btf__type_cnt(btf), changed = 0;
	size_t plen = strlen(TAG_PREFIX);

	for (id = 1; id < n; id++) {
		struct btf_type *t =
			(struct btf_type *)btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, t->name_off);

		if (!btf_is_typedef(t) || !name ||
		    strncmp(name, TAG_PREFIX, plen) || !name[plen])
			continue;
		/* The same bytes, the kind and the name changed: no offset
		 * in the section moves. */
		t->name_off += (unsigned int)plen;
		t->info = (t->info & ~(0x1fu << 24)) |
			  ((unsigned int)BTF_KIND_TYPE_TAG << 24);
		changed++;
	}
	return (int)changed;
}

int main(int argc, char **argv)
{
	Elf_Data *d;
	Elf_Scn *scn;
	struct btf *btf;
	const void *raw;
	unsigned int raw_sz;
	Elf *elf;
	int fd, n, ret = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OBJ.o\n", argv[0]);
		return 2;
	}
	elf_version(EV_CURRENT);
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "btf-type-tags: %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	elf = elf_begin(fd, ELF_C_RDWR, NULL);
	scn = elf ? btf_section(elf) : NULL;
	d = scn ? elf_getdata(scn, NULL) : NULL;
	if (!d) {
		ret = elf ? 0 : 1; /* no BTF: nothing to do */
		goto out_elf;
	}
	btf = btf__new(d->d_buf, d->d_size);
	if (!btf) {
		fprintf(stderr, "btf-type-tags: %s: .BTF: %s\n", argv[1],
			strerror(errno));
		goto out_elf;
	}
	n = retag(btf);
	raw = btf__raw_data(btf, &raw_sz);
	if (n && raw && raw_sz == d->d_size) {
		memcpy(d->d_buf, raw, raw_sz);
		elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
		elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
		ret = elf_update(elf, ELF_C_WRITE) < 0;
		if (ret)
			fprintf(stderr, "btf-type-tags: %s: %s\n", argv[1],
				elf_errmsg(-1));
	} else if (n) {
		fprintf(stderr, "btf-type-tags: %s: the BTF changed size\n",
			argv[1]);
	} else {
		ret = 0;
	}
	btf__free(btf);
out_elf:
	elf_end(elf);
	close(fd);
	return ret;
}
