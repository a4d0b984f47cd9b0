/* SPDX-License-Identifier: MIT */
/* The headroom command: shared pieces of its subcommands. */
#ifndef HR_CLI_H
#define HR_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <getopt.h>

#include <headroom/headroom.h>

/* Exit codes of every subcommand. */
#define HR_EXIT_OK 0
#define HR_EXIT_LOAD 1 /* the object did not load */
#define HR_EXIT_USAGE 2 /* bad arguments or unreadable input */
#define HR_EXIT_RUN 3 /* a packet could not be run */
#define HR_EXIT_DIFFER 4 /* headroom test --kernel: the kernel differs */

int hr_cmd_test(int argc, char **argv);
int hr_cmd_demo(int argc, char **argv);
int hr_cmd_run(int argc, char **argv);
int hr_cmd_bench(int argc, char **argv);
/* Where the built-in BPF programs are (beside the binary, installed, or
 * $HEADROOM_DATADIR/progs); 0 or -1. */
int hr_cli_progs_dir(char *buf, size_t sz);

/* The datapath part of the demo: objects from @dir, @seconds of traffic at
 * @pps; 0 or -errno. */
int hr_demo_pipeline(const char *dir, double seconds, uint64_t pps);
int hr_cmd_inspect(int argc, char **argv);
/* headroom check: exit 0 accepted, 5 rejection predicted, 6 cannot tell. */
int hr_cmd_check(int argc, char **argv);
int hr_cmd_feature(int argc, char **argv);

/* Parses hex (whitespace, ':' and '-' allowed between bytes) into a new
 * buffer; 0 or -EINVAL. */
int hr_hex_parse(const char *text, uint8_t **out, size_t *len);
/* Prints @len bytes as lowercase hex without separators. */
void hr_hex_print(FILE *f, const void *buf, size_t len);
/* The same as a new string (free()), NULL on ENOMEM. */
char *hr_hex_str(const void *buf, size_t len);

/* Splits "PROG.o[:SEL]" and opens it; prints a one-line error and
 * returns NULL on failure. */
struct hr_prog *hr_cli_open_prog(const char *spec, const char *force_type,
				 struct hr_object **obj);

/* The same with the caller's open options (errbuf is the function's). */
struct hr_prog *hr_cli_open_prog_opts(const char *spec,
				      struct hr_object_open_opts *opts,
				      struct hr_object **obj);

int hr_cli_engine(const char *name, enum hr_engine *engine);

/* --route ('R'), --neigh ('N') or --fib-dev ('F') @arg into the tables
 * bpf_fib_lookup reads; 0 or -errno after a message. */
int hr_cli_fib_arg(int which, const char *arg);
/* --ct @arg into the conntrack table (ct_args.c); 0 or -errno after a
 * one-line message naming the word not understood. */
int hr_cli_ct_arg(const char *arg);

/* The words of an iproute2-style SPEC (fib_args.c): splits @s in place
 * at blanks into @w (HR_CLI_MAX_WORDS of room); the count, or -E2BIG. */
#define HR_CLI_MAX_WORDS 32
int hr_cli_words(char *s, char **w);
/* An IPv4 or IPv6 address into @out (network order); its family, or 0. */
int hr_cli_addr(const char *s, uint8_t out[16]);
/* A decimal or 0x number up to UINT32_MAX; 0 or -EINVAL. */
int hr_cli_u32(const char *s, uint32_t *v);

/* --tunnel @arg (tunnel_args.c): the tunnel metadata each packet of a tc
 * test run arrives with; 0, or -EINVAL after a one-line message naming
 * the word it could not take. */
int hr_cli_tunnel_arg(const char *arg, struct hr_tunnel_md *md);
/* "id 42 remote 192.0.2.1 local ... flags csum,key" for @md. */
void hr_cli_tunnel_text(const struct hr_tunnel_md *md, char *buf, size_t size);
struct json_object;
/* The same as a JSON object (id, remote, local, tos, ttl, label, flags,
 * opts), or NULL on ENOMEM. */
struct json_object *hr_cli_tunnel_json(const struct hr_tunnel_md *md);

/* How to open the object, shared by test and inspect: --btf, --type,
 * --map-size, --pin-dir, --set. */
struct hr_cli_load {
	const char *btf;
	const char *type;
	const char *pin_dir;
	const char **sizes;
	const char **sets;
	int nsizes;
	int nsets;
};

/* Their getopt_long entries, for the commands' option tables. */
#define HR_CLI_LOAD_LONGOPTS                                  \
	{ "btf", required_argument, NULL, 'B' },              \
		{ "type", required_argument, NULL, 't' },     \
		{ "map-size", required_argument, NULL, 'S' }, \
		{ "pin-dir", required_argument, NULL, 'P' },  \
	{                                                     \
		"set", required_argument, NULL, 'V'           \
	}

/* Room for @argc repeated options; 0 or -ENOMEM. */
int hr_cli_load_init(struct hr_cli_load *l, int argc);
/* 1 when option @c was one of these, 0 when not, -EINVAL after a
 * message. */
int hr_cli_load_opt(struct hr_cli_load *l, int c, const char *arg);
/* Fills the matching fields of @o. */
void hr_cli_load_apply(const struct hr_cli_load *l,
		       struct hr_object_open_opts *o);
void hr_cli_load_free(struct hr_cli_load *l);

/*
 * --user-ringbuf NAME=@FILE or NAME=HEX: samples for user ring buffer NAME,
 * submitted before the first run. FILE holds one sample a line in hex
 * (whitespace, ':' and '-' between bytes; a lone '-' is a sample of no
 * bytes); blank lines and lines starting with '#' are skipped.
 */
struct hr_cli_samples {
	const char *arg; /* as given, for messages */
	char *map; /* NAME */
	unsigned int n;
	uint8_t **data;
	size_t *len;
};

/* Reads @arg's samples into @s; 0 or -errno after a message naming the
 * argument (and the file and line). */
int hr_cli_samples_parse(const char *arg, struct hr_cli_samples *s);
/* Submits them to @obj's map, in order; 0 or -errno after a message
 * (no such map, not a user ring buffer, a sample larger than the ring,
 * the ring full). */
int hr_cli_samples_submit(struct hr_object *obj,
			  const struct hr_cli_samples *s);
void hr_cli_samples_free(struct hr_cli_samples *s);

/* --map NAME=KEY:VALUE entries into @obj's maps; 0 or -errno after a
 * message naming the argument. */
int hr_cli_map_preload(struct hr_object *obj, char **args, int n);
/* Every map of @obj and its entries as `bpftool map dump` shows them,
 * decoded with the BTF of @spec's object (PROG.o[:SEL]; NULL: hex):
 * text, or with @json one JSON object a map, bpftool's entry layout. */
void hr_cli_map_dump(FILE *f, const struct hr_object *obj, const char *spec,
		     bool json);
/* The file part of PROG.o[:SEL] (free()), or NULL on ENOMEM. */
char *hr_cli_spec_file(const char *spec);

#endif /* HR_CLI_H */
