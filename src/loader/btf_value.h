/* SPDX-License-Identifier: MIT */
/*
 * Typed values from an object's BTF: as C-like text (libbpf's
 * btf_dump__dump_type_data) and as json-c objects in the layout of
 * bpftool's btf_dumper (`bpftool map dump -j`: structs and unions as
 * objects, arrays as arrays, char arrays holding a string as strings,
 * enums by name, bool as true/false, 128-bit and bitfield values as "0x"
 * strings, DATASECs as {"SEC":[{"var":value},...]}).
 */
#ifndef HR_LOADER_BTF_VALUE_H
#define HR_LOADER_BTF_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;
struct json_object;

/* The .BTF of object file @path into *@btf (free with btf__free());
 * 0, -ENOENT when the object has no BTF, or -errno. */
int hr_btf_value_open(const char *path, struct btf **btf);

/*
 * The id of the type @spec names: "struct NAME", "union NAME",
 * "enum NAME" or a bare NAME (a typedef, int, or any named type, tried in
 * that order). >0, or -ENOENT when there is none, -EINVAL for an empty
 * name.
 */
int hr_btf_value_find_type(const struct btf *btf, const char *spec);

/* Bytes of type @id (modifiers and typedefs resolved); >=0 or -errno. */
long long hr_btf_value_size(const struct btf *btf, uint32_t id);

/*
 * Key and value type ids of map @map_name as libbpf gives them to the
 * kernel: a BTF-defined map's __type(key/value, ...) in ".maps", a legacy
 * map's "struct ____btf_map_NAME", a global data map's DATASEC (as value;
 * key 0). An id is 0 when the object does not say. 0, or -ENOENT when the
 * BTF knows no such map.
 */
int hr_btf_value_map_types(const struct btf *btf, const char *map_name,
			   uint32_t *key_id, uint32_t *value_id);

/* Flags of hr_btf_value_text(). */
#define HR_BTF_TEXT_MULTILINE (1u << 0) /* one field a line, indented */
#define HR_BTF_TEXT_SKIP_ZEROES (1u << 1) /* leave out 0-valued fields */

/*
 * @data (@size bytes) of type @id as libbpf's btf_dump__dump_type_data
 * writes it ("(struct s){.a = (__u32)1,.b = ...,}"), into *@text (free()).
 * 0, -E2BIG when @size is smaller than the type, or -errno.
 */
int hr_btf_value_text(const struct btf *btf, uint32_t id, const void *data,
		      size_t size, unsigned int flags, char **text);

/*
 * @data (@size bytes) of type @id as a new json-c object in bpftool's
 * btf_dumper layout, into *@out (json_object_put()). 0, -E2BIG when @size
 * is smaller than the type, -EINVAL for a type with no value (void,
 * function, forward declaration), or -ENOMEM.
 */
int hr_btf_value_json(const struct btf *btf, uint32_t id, const void *data,
		      size_t size, struct json_object **out);

/* @size bytes as bpftool's hex array (["0x01","0xab",...]); NULL on
 * ENOMEM. */
struct json_object *hr_btf_value_hex_json(const void *data, size_t size);

#endif /* HR_LOADER_BTF_VALUE_H */
