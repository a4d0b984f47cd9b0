// SPDX-License-Identifier: MIT
/*
 * btf_value: map key/value types found as libbpf finds them, values
 * decoded to text (btf_dump__dump_type_data) and to bpftool's JSON layout.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <json-c/json.h>

#include "harness.h"
#include "loader/btf_value.h"

/* struct ctx_stat of progs/cli/ctx_maps.bpf.c, as the BPF target lays it. */
struct ctx_stat {
	unsigned long long packets;
	unsigned long long bytes;
	int last;
	char tag[8];
	unsigned int odd : 1, len_hi : 7;
	unsigned char first[4];
};

static const char *jstr(struct json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
}

static void check_struct(const struct btf *btf)
{
	struct ctx_stat st = { .packets = 3,
			       .bytes = 180,
			       .last = 2,
			       .tag = "long",
			       .odd = 1,
			       .len_hi = 0x35,
			       .first = { 1, 2, 3, 0xff } };
	uint32_t kid, vid;
	struct json_object *o = NULL;
	char *text = NULL;
	int id;

	CHECK_EQ(hr_btf_value_map_types(btf, "ctx_stats", &kid, &vid), 0);
	id = hr_btf_value_find_type(btf, "struct ctx_stat");
	CHECK(id > 0, "struct ctx_stat: %d", id);
	CHECK_EQ(vid, id);
	CHECK(kid > 0, "key type id 0");
	CHECK_EQ(hr_btf_value_size(btf, vid), sizeof(st));
	CHECK_EQ(hr_btf_value_json(btf, vid, &st, sizeof(st), &o), 0);
	CHECK(o && !strcmp(jstr(o),
			   "{\"packets\":3,\"bytes\":180,\"last\":\"CTX_LONG\","
			   "\"tag\":\"long\",\"odd\":\"0x1\",\"len_hi\":"
			   "\"0x35\",\"first\":[1,2,3,255]}"),
	      "json: %s", o ? jstr(o) : "(null)");
	json_object_put(o);
	CHECK_EQ(hr_btf_value_json(btf, vid, &st, sizeof(st) - 1, &o), -E2BIG);
	CHECK_EQ(hr_btf_value_text(btf, vid, &st, sizeof(st), 0, &text), 0);
	CHECK(text && strstr(text, ".packets = (__u64)3") &&
		      strstr(text, ".last = (enum ctx_kind)CTX_LONG") &&
		      strstr(text, ".tag = (char[8])['l','o','n','g',]") &&
		      !strchr(text, '\n'),
	      "text: %s", text ? text : "(null)");
	free(text);
	/* An unknown enum value is its number; a char array without a NUL
	 * is its bytes as numbers (clang's char is a signed int). */
	st.last = 7;
	memset(st.tag, 'x', sizeof(st.tag));
	CHECK_EQ(hr_btf_value_json(btf, vid, &st, sizeof(st), &o), 0);
	CHECK(o && strstr(jstr(o), "\"last\":7,") &&
		      strstr(jstr(o),
			     "\"tag\":[120,120,120,120,120,120,120,120]"),
	      "json: %s", o ? jstr(o) : "(null)");
	json_object_put(o);
}

static void check_others(const struct btf *btf)
{
	unsigned char key[4] = { 0x08, 0x00, 60, 0 }, rodata[4] = { 100 };
	uint32_t kid, vid;
	struct json_object *o = NULL;

	CHECK_EQ(hr_btf_value_map_types(btf, "ctx_seen", &kid, &vid), 0);
	CHECK_EQ(hr_btf_value_json(btf, kid, key, sizeof(key), &o), 0);
	CHECK(o && !strcmp(jstr(o), "{\"proto\":8,\"port\":60}"), "key: %s",
	      o ? jstr(o) : "(null)");
	json_object_put(o);
	/* libbpf's global data map names: object prefix and section. */
	CHECK_EQ(hr_btf_value_map_types(btf, "ctx_maps.rodata", &kid, &vid), 0);
	CHECK_EQ(kid, 0);
	CHECK_EQ(hr_btf_value_json(btf, vid, rodata, sizeof(rodata), &o), 0);
	CHECK(o && !strcmp(jstr(o), "{\".rodata\":[{\"ctx_limit\":100}]}"),
	      "rodata: %s", o ? jstr(o) : "(null)");
	json_object_put(o);
	CHECK_EQ(hr_btf_value_map_types(btf, "ctx_maps.bss", &kid, &vid), 0);
	CHECK(vid > 0, "bss DATASEC");
	CHECK_EQ(hr_btf_value_map_types(btf, "nosuch", &kid, &vid), -ENOENT);
	CHECK_EQ(hr_btf_value_find_type(btf, "struct nosuch"), -ENOENT);
	CHECK_EQ(hr_btf_value_find_type(btf, "struct "), -EINVAL);
	CHECK(hr_btf_value_find_type(btf, "enum ctx_kind") > 0, "enum");
	CHECK(hr_btf_value_find_type(btf, "__u32") > 0, "typedef");
	o = hr_btf_value_hex_json(key, 2);
	CHECK(o && !strcmp(jstr(o), "[\"0x08\",\"0x00\"]"), "hex: %s",
	      o ? jstr(o) : "(null)");
	json_object_put(o);
}

int main(void)
{
	struct btf *btf = NULL;
	char path[512];

	t_prog_path("ctx_maps.o", path, sizeof(path));
	CHECK_EQ(hr_btf_value_open(path, &btf), 0);
	if (btf) {
		check_struct(btf);
		check_others(btf);
	}
	btf__free(btf);
	CHECK(hr_btf_value_open("/nonexistent.o", &btf) < 0, "no file");
	return t_done();
}
