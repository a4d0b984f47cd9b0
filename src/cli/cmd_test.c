// SPDX-License-Identifier: MIT
/*
 * headroom test: one program over packets, one run per packet, as
 * BPF_PROG_TEST_RUN would run it; prints each verdict, output packet and
 * metadata.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <json-c/json.h>

#include "cli/cli.h"
#include "check/check.h"
#include "loader/line_info.h"
#include "cli/ctx_json.h"
#include "cli/test_io.h"
#include "cli/test_kernel.h"
#include "dev/pcapng.h"
#include "headroom/perf.h"

static const char test_usage[] =
	"usage: headroom test PROG.o[:SECTION|FUNC] (--pcap FILE | --hex HEX "
	"[--hex HEX ...])\n"
	"                     [--meta HEX] [--repeat N] [--json] [--out FILE]\n"
	"                     [--hints FILE | --hints-const JSON] [--device P]\n"
	"                     [--meta-type 'struct NAME'] [--raw-ip]\n"
	"                     [--engine interp|jit|jit-checked] [--type xdp|tc]\n"
	"                     [--map NAME=KEY:VALUE ...] [--dump-maps]\n"
	"                     [--btf FILE] [--map-size NAME=N ...]\n"
	"                     [--pin-dir DIR] [--set NAME=VALUE ...]\n"
	"                     [--events] [--fib-dev SPEC ...] [--route SPEC ...]\n"
	"                     [--neigh SPEC ...] [--tunnel SPEC]\n"
	"                     [--ct SPEC ...] [--user-ringbuf NAME=@FILE ...]\n"
	"                     [--kernel]\n"
	"\n"
	"Runs the program once per packet (N times on the same buffer with\n"
	"--repeat, as BPF_PROG_TEST_RUN) and prints the index, the verdict, the\n"
	"return value, the output packet and the metadata, and if the run was\n"
	"stopped, why: the instruction, its source line, the reason and for a\n"
	"memory access its kind, size and place (packet offset 54 of 56 ...).\n"
	"What the program wrote to its streams (bpf_stream_vprintk_impl,\n"
	"bpf_stream_printk) follows each packet, a line each ('stdout: ...',\n"
	"'stderr: ...'), as bpftool prog tracelog would show it.\n"
	"\n"
	"  --pcap FILE     packets from a pcap or pcapng file (Ethernet; a\n"
	"                  pcapng's \"hr-hints:\" comments give the hints)\n"
	"  --raw-ip        the capture is raw IP (linktype 101 ...): give each\n"
	"                  packet an Ethernet header (02:00:00:00:00:01 ->\n"
	"                  02:00:00:00:00:02, IPv4 or IPv6 by its version)\n"
	"  --hex HEX       one packet as hex bytes (repeatable)\n"
	"  --meta HEX      metadata placed in front of each packet (XDP only;\n"
	"                  like ctx_in.data of BPF_PROG_TEST_RUN)\n"
	"  --hints FILE    RX hints per packet, JSON lines: one object a packet\n"
	"                  in order, or with \"index\"; keys hash, rss_type\n"
	"                  (number or XDP_RSS_TYPE_* name), timestamp,\n"
	"                  vlan_proto, vlan_tci; a key left out: that kfunc\n"
	"                  returns -ENODATA for the packet\n"
	"  --hints-const JSON  the same hints for every packet\n"
	"  --device P      which hints the device has at all: all, none, a\n"
	"                  driver (mlx5, ice, veth, mlx4, igc, stmmac,\n"
	"                  virtio_net) or a list of hash,timestamp,vlan; a\n"
	"                  hint it lacks: -EOPNOTSUPP (default with hints:\n"
	"                  all; without any: no hints at all, -EOPNOTSUPP)\n"
	"  --meta-type 'struct NAME'  decode the metadata (the type's size\n"
	"                  right before data) with the object's BTF; without\n"
	"                  it, a struct whose BTF id the program stored in the\n"
	"                  last 4 bytes (bpf_core_type_id_local) is decoded\n"
	"  --repeat N      runs per packet on the same buffer (default 1,\n"
	"                  at most 4294967295); prints the average duration\n"
	"  --json          one JSON object a line: index, action, retval, data,\n"
	"                  meta, error, repeat, duration_ns (and hints, device,\n"
	"                  meta_type, meta_decoded, stdout, stderr when\n"
	"                  there are, and\n"
	"                  abort: insn, file, line, reason and the memory\n"
	"                  access: kind, size, region, offset, region_len)\n"
	"  --out FILE      pcapng (libwiretap) of every packet run, as the\n"
	"                  program left it, with the input's timestamp and\n"
	"                  comments (tshark -e frame.comment): hr-verdict,\n"
	"                  hr-hints, hr-device, hr-meta, hr-meta-decoded; a\n"
	"                  name ending in .pcap: classic pcap of the packets\n"
	"                  not dropped, aborted or shot, without comments\n"
	"  --engine E      interp, jit or jit-checked (the JIT with every\n"
	"                  access its proofs elide checked; a failed one is\n"
	"                  a bug report) (default: the best available)\n"
	"  --type T        force the program type: xdp or tc\n"
	"  --map NAME=KEY:VALUE  set a map entry (hex) before the first run\n"
	"                  (repeatable; a per-CPU map takes one value for all\n"
	"                  workers, or every worker's value)\n"
	"  --dump-maps     after the runs, print every map of the object as\n"
	"                  bpftool's map dump: keys and values decoded with\n"
	"                  the object's BTF, per-CPU values by CPU; with\n"
	"                  --json one object a map, bpftool's entry layout\n"
	"  --btf FILE      target BTF for CO-RE relocations (a BTF or ELF file,\n"
	"                  or 'builtin' for headroom's own; default: the\n"
	"                  running kernel's /sys/kernel/btf/vmlinux)\n"
	"  --map-size NAME=N  max_entries of map NAME (for maps declared\n"
	"                  with 0; repeatable)\n"
	"  --pin-dir DIR   where maps pinned by name live (default\n"
	"                  /sys/fs/bpf); objects of one process given the\n"
	"                  same DIR share them\n"
	"  --set NAME=VALUE  initial value of a global variable (a const\n"
	"                  volatile in .rodata, say), decimal or 0x hex\n"
	"                  (repeatable)\n"
	"  --events        print every bpf_perf_event_output sample (of each\n"
	"                  PERF_EVENT_ARRAY map) as hex as it is sent, so\n"
	"                  before its packet's line: 'event MAP cpu N (SIZE):\n"
	"                  HEX', or with --json\n"
	"                  {\"event\":MAP,\"cpu\":N,\"data\":HEX}\n"
	"  --fib-dev SPEC  a device bpf_fib_lookup knows: 'IFINDEX [mtu N]\n"
	"                  [mac MAC] [addr IP] [forwarding]' (repeatable)\n"
	"  --route SPEC    a route: '[blackhole|unreachable|prohibit|local]\n"
	"                  PREFIX/LEN [via GW] [dev IFINDEX] [metric N]\n"
	"                  [mtu N] [src IP]' (mtu: a locked route MTU)\n"
	"  --neigh SPEC    a neighbour: 'IP lladdr MAC dev IFINDEX'\n"
	"  --tunnel SPEC   tc: the tunnel metadata every packet arrives with,\n"
	"                  as from a collect_md ('external') vxlan or geneve\n"
	"                  device, for bpf_skb_get_tunnel_key/opt: '[id N]\n"
	"                  [remote IP] [local IP] [tos N] [ttl N] [label N]\n"
	"                  [nokey] [csum] [seq] [df] [oam] [crit] [opts HEX]\n"
	"                  [opts-type geneve|vxlan|erspan|gtp|pfcp]' (IPv4\n"
	"                  or IPv6; label: IPv6 only; key is on unless\n"
	"                  nokey); without it packets carry none, as in the\n"
	"                  kernel's test run. What a program set with\n"
	"                  bpf_skb_set_tunnel_key/opt is shown with each\n"
	"                  packet ('tunnel set:', JSON \"tunnel_set\")\n"
	"  --ct SPEC       a conntrack entry the ct kfuncs find: 'tcp|udp\n"
	"                  SRC:PORT -> DST:PORT [STATE] [mark N] [timeout S]\n"
	"                  [zone N] [status FLAG,...]' ([ADDR6]:PORT for\n"
	"                  IPv6; STATE a TCP state such as established;\n"
	"                  timeout default 432000 s TCP, 120 s UDP)\n"
	"                  (repeatable; the table is empty without it)\n"
	"  --user-ringbuf NAME=@FILE  samples for the BPF_MAP_TYPE_USER_RINGBUF\n"
	"                  map NAME, submitted in order before the first\n"
	"                  packet (as libbpf's user_ring_buffer__submit), for\n"
	"                  bpf_user_ringbuf_drain to take: FILE has one\n"
	"                  sample a line in hex (spaces, ':' and '-' between\n"
	"                  bytes; a lone '-' is an empty sample; blank lines\n"
	"                  and lines starting with '#' are skipped);\n"
	"                  NAME=HEX gives one sample (repeatable; a sample\n"
	"                  larger than the ring, or more than it holds, is an\n"
	"                  error naming it)\n"
	"  --ctx-in FILE   the context to run with, as bpftool's ctx_in:\n"
	"                  a JSON object of struct __sk_buff (tc: mark,\n"
	"                  priority, ifindex, cb, tstamp, wire_len, gso_segs,\n"
	"                  gso_size, hwtstamp ...) or struct xdp_md fields\n"
	"  --ctx-out FILE  every packet's context after the run, one JSON\n"
	"                  object a line; a tc program's changed fields are\n"
	"                  shown with each packet ('ctx set:', JSON \"ctx\")\n"
	"  --kernel        run every packet through the live kernel's\n"
	"                  BPF_PROG_TEST_RUN too (root) and print what differs:\n"
	"                  verdict, return value, packet, metadata, errors, and\n"
	"                  the maps' entries at the end; --set, --map-size,\n"
	"                  --map and --user-ringbuf reach the kernel's copy\n"
	"                  too\n"
	"\n"
	"exit codes: 0 every packet ran (whatever the verdicts), 1 load error,\n"
	"            2 bad arguments or unreadable input (or --kernel without\n"
	"            privileges), 3 a packet could not be run, 4 the kernel\n"
	"            differs (--kernel)\n";

struct test_cfg {
	const char *spec;
	const char *pcap;
	const char *out;
	char **hex;
	int nhex;
	char **maps;
	int nmaps;
	struct hr_cli_samples *urbs; /* --user-ringbuf */
	int nurbs;
	bool dump_maps;
	bool events;
	struct hr_cli_load load;
	uint8_t *meta;
	size_t meta_len;
	uint32_t repeat;
	bool json;
	bool raw_ip;
	const char *meta_type;
	struct test_hints hints;
	enum hr_engine engine;
	bool kernel, fib, ct;
	const char *ctx_in, *ctx_out;
	bool have_tunnel; /* --tunnel */
	struct hr_tunnel_md tunnel;
};

struct test_state {
	struct test_cfg *cfg;
	struct hr_prog *prog;
	bool xdp;
	struct hr_pcapng_writer *dump;
	struct test_kernel *kernel; /* --kernel */
	struct hr_cli_ctx ctx; /* --ctx-in, --ctx-out */
	struct hr_line_table lines; /* for aborts: loaded at the first */
	bool lines_loaded;
	struct test_meta_type mt;
	unsigned int index;
	unsigned int failed;
	bool stop; /* an input error: no more packets */
};

static bool delivered(const struct test_state *st, uint32_t retval)
{
	if (st->xdp)
		return retval != XDP_ABORTED && retval != XDP_DROP;
	return (int32_t)retval != 2; /* TC_ACT_SHOT */
}

/* The kernel rule an -EINVAL of a test run broke (bpf_prog_test_run_xdp,
 * bpf_prog_test_run_skb), from what was given. */
static void explain_einval(const struct test_state *st, const uint8_t *pkt,
			   size_t len, char *buf, size_t size)
{
	size_t meta = st->cfg->meta_len;
	uint16_t proto = len >= 14 ? (uint16_t)(pkt[12] << 8 | pkt[13]) : 0;

	if (len < 14)
		snprintf(buf, size,
			 "test run failed: Invalid argument: the packet has "
			 "%zu bytes, less than an Ethernet header (14): the "
			 "kernel's test run refuses it",
			 len);
	else if (st->xdp && (meta & 3 || meta > 252))
		snprintf(buf, size,
			 "test run failed: Invalid argument: %zu bytes of "
			 "metadata: the kernel takes a multiple of 4, at most "
			 "252 (xdp_metalen_invalid)",
			 meta);
	else if (!st->xdp && proto == 0x0800 && len < 14 + 20)
		snprintf(buf, size,
			 "test run failed: Invalid argument: the packet says "
			 "IPv4 (ethertype 0x0800) but has %zu bytes, less "
			 "than Ethernet + an IPv4 header (34): "
			 "bpf_prog_test_run_skb refuses it",
			 len);
	else if (!st->xdp && proto == 0x86dd && len < 14 + 40)
		snprintf(buf, size,
			 "test run failed: Invalid argument: the packet says "
			 "IPv6 (ethertype 0x86dd) but has %zu bytes, less "
			 "than Ethernet + an IPv6 header (54): "
			 "bpf_prog_test_run_skb refuses it",
			 len);
	else if (!st->xdp && len > 3520)
		snprintf(buf, size,
			 "test run failed: Invalid argument: %zu bytes do not "
			 "fit one page with the skb's headroom and "
			 "skb_shared_info (at most 3520 here)",
			 len);
	else
		snprintf(buf, size,
			 "test run failed: Invalid argument: the kernel's "
			 "test run refuses this input for %s",
			 hr_prog_type_name(st->prog));
}

/* One packet and where it came from. */
struct test_pkt {
	const uint8_t *data;
	size_t len;
	uint64_t ts_ns;
	const struct hr_pcapng_pkt *rec; /* pcap input only */
};

static void fill_result(struct test_state *st, struct test_result *r,
			const struct hr_test_run_opts *o, const uint8_t *out,
			const struct xdp_md *md_out)
{
	r->action = hr_prog_action_name(st->prog, o->retval);
	r->retval = o->retval;
	r->repeat = st->cfg->repeat;
	r->duration = o->duration;
	if (st->xdp) {
		r->meta = out;
		r->meta_len = md_out->data;
		r->data = out + md_out->data;
		/* data_size_out counts the fragments too; ctx_out.data_end
		 * is the end of the linear part only. */
		r->data_len = o->data_size_out > md_out->data ?
				      o->data_size_out - md_out->data :
				      0;
	} else {
		r->data = out;
		r->data_len = o->data_size_out;
	}
}

/* The source line of instruction @pc from the object's line info, or
 * NULL. */
static const struct hr_line *abort_line(struct test_state *st, uint32_t pc)
{
	const struct hr_line *l;
	char *path;

	if (!st->lines_loaded) {
		st->lines_loaded = true;
		path = hr_cli_spec_file(st->cfg->spec);
		if (!path ||
		    hr_line_table_load_prog(path, st->prog, &st->lines))
			memset(&st->lines, 0, sizeof(st->lines));
		free(path);
	}
	l = st->lines.n ? hr_line_find(&st->lines, pc) : NULL;
	return l && l->file ? l : NULL;
}

/* "aborted at insn 7 (prog.c:23): out-of-bounds load: load of 4 bytes at
 * packet offset 54, ..." into @error, and @ab for JSON. */
static void abort_describe(struct test_state *st,
			   const struct hr_test_run_opts *o,
			   struct test_abort *ab, char *error, size_t size)
{
	const struct hr_line *l = abort_line(st, o->abort_pc);
	char where[300] = "", access[400];

	memset(ab, 0, sizeof(*ab));
	ab->insn = o->abort_pc;
	ab->reason = hr_abort_str(o->abort);
	ab->access = o->access;
	if (l) {
		ab->file = hr_line_base(l->file);
		ab->line = l->line;
		snprintf(where, sizeof(where), " (%s:%u)", ab->file, ab->line);
	}
	test_abort_text(&o->access, access, sizeof(access));
	snprintf(error, size, "aborted at insn %u%s: %s%s", ab->insn, where,
		 ab->reason, access);
}

/* All the text stream @id of @prog holds, taken out of it; NULL when it
 * holds none (or memory ran out: the text is then lost, as a stream
 * full in the kernel loses it). */
static char *stream_take(struct hr_prog *prog, int id)
{
	char *text = NULL, *p;
	size_t len = 0;
	int n;

	for (;;) {
		p = realloc(text, len + 4096 + 1);
		if (!p)
			break;
		text = p;
		n = hr_prog_stream_read(prog, id, text + len, 4096);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (!len) {
		free(text);
		return NULL;
	}
	text[len] = '\0';
	return text;
}

/* Runs one packet; false when it could not be run at all. */
static bool run_packet(struct test_state *st, const struct test_pkt *pkt)
{
	struct test_cfg *cfg = st->cfg;
	size_t len = pkt->len, in_len = cfg->meta_len + len;
	/* Room for the packet grown by a tail adjustment into its last
	 * fragment or the frame's tailroom, or by a tc helper into a head
	 * reallocated up to 64 KiB (test_run_tc.c). */
	size_t out_cap = in_len + 65536;
	uint8_t *in = malloc(in_len ? in_len : 1), *out = malloc(out_cap);
	struct test_result r = { .index = st->index, .ts_ns = pkt->ts_ns };
	struct hr_test_hints hints;
	union hr_cli_ctx_buf ctx_in, ctx_out;
	struct json_object *changed = NULL;
	char *stream_out = NULL, *stream_err = NULL;
	HR_OPTS(hr_tunnel_md, tunnel_out);
	const char *rule;
	struct test_abort ab;
	char error[800];
	bool ok = true;
	int ret;
	HR_OPTS(hr_test_run_opts, o, .repeat = cfg->repeat,
		.engine = cfg->engine);

	if (!in || !out) {
		fprintf(stderr, "headroom: out of memory\n");
		exit(HR_EXIT_RUN);
	}
	ret = test_hints_for(&cfg->hints, st->index, pkt->rec, &hints, &r.hints,
			     &r.supported);
	if (ret < 0) {
		st->stop = true;
		ok = false;
		goto out;
	}
	r.hinted = ret > 0;
	if (r.hinted)
		o.hints = &hints;
	if (cfg->have_tunnel)
		o.tunnel_in = &cfg->tunnel;
	if (!st->xdp)
		o.tunnel_out = &tunnel_out;
	if (cfg->meta_len)
		memcpy(in, cfg->meta, cfg->meta_len);
	memcpy(in + cfg->meta_len, pkt->data, len);
	o.data_in = in;
	o.data_size_in = (uint32_t)in_len;
	o.data_out = out;
	o.data_size_out = (uint32_t)out_cap;
	rule = hr_cli_ctx_prepare(&st->ctx, (uint32_t)cfg->meta_len,
				  (uint32_t)len, &ctx_in, &ctx_out, &o);
	if (rule) {
		snprintf(error, sizeof(error),
			 "test run failed: Invalid argument: %s", rule);
		r.data = pkt->data;
		r.error = error;
		test_print(&r, cfg->json, &st->mt);
		st->failed++;
		ok = false;
		goto out;
	}
	ret = hr_prog_test_run(st->prog, &o);
	if (ret) {
		if (ret == -EINVAL)
			explain_einval(st, pkt->data, len, error,
				       sizeof(error));
		else
			snprintf(error, sizeof(error), "test run failed: %s",
				 strerror(-ret));
		r.data = pkt->data;
		r.error = error;
		test_print(&r, cfg->json, &st->mt);
		if (st->kernel) {
			struct test_kernel_answer a = { .err = ret,
							.ctx_in = &ctx_in };

			test_kernel_packet(st->kernel, st->index, in, in_len,
					   cfg->meta_len, &a, cfg->json);
		}
		st->failed++;
		ok = false;
		goto out;
	}
	fill_result(st, &r, &o, out, &ctx_out.md);
	if (tunnel_out.tx)
		r.tunnel_set = &tunnel_out;
	stream_out = stream_take(st->prog, HR_STREAM_STDOUT);
	stream_err = stream_take(st->prog, HR_STREAM_STDERR);
	r.stream_out = stream_out;
	r.stream_err = stream_err;
	/* What a tc program set is what people look for (bpftool's
	 * ctx_out); an XDP program's only with --ctx-in/--ctx-out. */
	if (!st->xdp || cfg->ctx_in || cfg->ctx_out) {
		changed = hr_cli_ctx_changed(&st->ctx, &ctx_in, &ctx_out);
		r.ctx_changed =
			changed ? json_object_to_json_string_ext(
					  changed, JSON_C_TO_STRING_PLAIN) :
				  NULL;
	}
	if (st->ctx.out && hr_cli_ctx_write(&st->ctx, st->index, &ctx_out)) {
		fprintf(stderr, "headroom: --ctx-out %s: %s\n", cfg->ctx_out,
			strerror(EIO));
		st->stop = true;
	}
	if (o.abort) {
		abort_describe(st, &o, &ab, error, sizeof(error));
		r.error = error;
		r.abort = &ab;
	}
	test_print(&r, cfg->json, &st->mt);
	if (st->kernel) {
		struct test_kernel_answer a = { .retval = r.retval,
						.data = r.data,
						.data_len = r.data_len,
						.meta = r.meta,
						.meta_len = r.meta_len,
						.ctx = &st->ctx,
						.ctx_in = &ctx_in,
						.ctx_out = &ctx_out };

		test_kernel_packet(st->kernel, st->index, in, in_len,
				   cfg->meta_len, &a, cfg->json);
	}
	/* Classic pcap has no room to say a packet was dropped: only what
	 * went on is written there; pcapng says each verdict. */
	if (st->dump && (hr_pcapng_is_ng(st->dump) || delivered(st, r.retval)))
		test_write(st->dump, &r, &st->mt);
out:
	free(stream_out);
	free(stream_err);
	json_object_put(changed);
	st->index++;
	free(in);
	free(out);
	return ok;
}

static int run_hex(struct test_state *st)
{
	int i;

	for (i = 0; i < st->cfg->nhex && !st->stop; i++) {
		struct test_pkt pkt = { 0 };
		uint8_t *data;

		if (hr_hex_parse(st->cfg->hex[i], &data, &pkt.len)) {
			fprintf(stderr,
				"headroom: --hex #%d: not hex bytes: '%s'\n",
				i + 1, st->cfg->hex[i]);
			return HR_EXIT_USAGE;
		}
		pkt.data = data;
		run_packet(st, &pkt);
		free(data);
	}
	return st->stop ? HR_EXIT_USAGE : HR_EXIT_OK;
}

/* A raw IP packet behind a made-up Ethernet header (--raw-ip). */
static int raw_ip_frame(const struct hr_pcapng_pkt *p, uint8_t **out)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };
	unsigned int version = p->caplen ? p->data[0] >> 4 : 0;
	uint8_t *f;

	if (version != 4 && version != 6)
		return -EINVAL;
	f = malloc(14 + (size_t)p->caplen);
	if (!f)
		return -ENOMEM;
	memcpy(f, macs, 12);
	f[12] = version == 4 ? 0x08 : 0x86;
	f[13] = version == 4 ? 0x00 : 0xdd;
	memcpy(f + 14, p->data, p->caplen);
	*out = f;
	return 0;
}

static int pcap_packet(void *arg, const struct hr_pcapng_pkt *p)
{
	struct test_state *st = arg;
	struct test_pkt pkt = {
		.data = p->data,
		.len = p->caplen,
		.ts_ns = p->ts_ns,
		.rec = p,
	};
	uint8_t *frame = NULL;

	if (!p->ethernet && !(st->cfg->raw_ip && p->raw_ip)) {
		fprintf(stderr,
			"headroom: %s: packet %u has linktype %s (%s), not "
			"Ethernet%s\n",
			st->cfg->pcap, p->index, p->linktype, p->linktype_desc,
			p->raw_ip ? "; --raw-ip gives raw IP packets an "
				    "Ethernet header" :
				    "");
		return HR_EXIT_USAGE;
	}
	if (!p->ethernet) {
		if (raw_ip_frame(p, &frame)) {
			fprintf(stderr,
				"headroom: %s: packet %u: --raw-ip: not an "
				"IPv4 or IPv6 packet (version %u)\n",
				st->cfg->pcap, p->index,
				p->caplen ? p->data[0] >> 4 : 0);
			return HR_EXIT_USAGE;
		}
		pkt.data = frame;
		pkt.len = 14 + (size_t)p->caplen;
	}
	if (p->caplen < p->len)
		fprintf(stderr,
			"headroom: %s: packet %u captured %u of %u bytes; "
			"running the captured part\n",
			st->cfg->pcap, p->index, p->caplen, p->len);
	run_packet(st, &pkt);
	free(frame);
	return st->stop ? HR_EXIT_USAGE : 0;
}

static int count_packet(void *arg, const struct hr_pcapng_pkt *p)
{
	(*(size_t *)arg)++;
	return 0;
}

static int run_pcap(struct test_state *st)
{
	size_t n = 0;
	int ret;

	/* The hints file is checked against the packet count first. */
	if (st->cfg->hints.file) {
		if (hr_pcapng_each(st->cfg->pcap, count_packet, &n) < 0 ||
		    test_hints_load(&st->cfg->hints, n))
			return HR_EXIT_USAGE;
	}
	/* A damaged file still has its earlier packets run and printed. */
	ret = hr_pcapng_each(st->cfg->pcap, pcap_packet, st);
	if (ret > 0)
		return ret;
	return ret ? HR_EXIT_USAGE : HR_EXIT_OK;
}

/* --repeat: 1 .. UINT32_MAX (the kernel's attr.test.repeat is a u32),
 * checked in 64 bits so that nothing wraps. */
static int parse_repeat(const char *arg, uint32_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (!*arg || *end || arg[strspn(arg, " \t")] == '-') {
		fprintf(stderr, "headroom: --repeat: '%s' is not a number\n",
			arg);
		return -EINVAL;
	}
	if (errno == ERANGE || v > UINT32_MAX) {
		fprintf(stderr,
			"headroom: --repeat: %s is above 4294967295 (a u32, "
			"as the kernel's test run takes)\n",
			arg);
		return -EINVAL;
	}
	if (!v) {
		fprintf(stderr, "headroom: --repeat: 0: want at least 1\n");
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

static int parse_args(int argc, char **argv, struct test_cfg *cfg)
{
	static const struct option longopts[] = {
		{ "pcap", required_argument, NULL, 'p' },
		{ "hex", required_argument, NULL, 'x' },
		{ "meta", required_argument, NULL, 'm' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "out", required_argument, NULL, 'o' },
		{ "engine", required_argument, NULL, 'e' },
		{ "map", required_argument, NULL, 'M' },
		{ "route", required_argument, NULL, 'R' },
		{ "neigh", required_argument, NULL, 'N' },
		{ "fib-dev", required_argument, NULL, 'F' },
		{ "dump-maps", no_argument, NULL, 'D' },
		HR_CLI_LOAD_LONGOPTS,
		{ "events", no_argument, NULL, 'E' },
		{ "hints", required_argument, NULL, 'H' },
		{ "hints-const", required_argument, NULL, 'C' },
		{ "device", required_argument, NULL, 'd' },
		{ "meta-type", required_argument, NULL, 'T' },
		{ "raw-ip", no_argument, NULL, 'I' },
		{ "kernel", no_argument, NULL, 'K' },
		{ "ctx-in", required_argument, NULL, 1000 },
		{ "ctx-out", required_argument, NULL, 1001 },
		{ "tunnel", required_argument, NULL, 1002 },
		{ "ct", required_argument, NULL, 1003 },
		{ "user-ringbuf", required_argument, NULL, 1004 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	cfg->hex = calloc((size_t)argc, sizeof(*cfg->hex));
	cfg->maps = calloc((size_t)argc, sizeof(*cfg->maps));
	cfg->urbs = calloc((size_t)argc, sizeof(*cfg->urbs));
	if (!cfg->hex || !cfg->maps || !cfg->urbs ||
	    hr_cli_load_init(&cfg->load, argc))
		return -ENOMEM;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			cfg->pcap = optarg;
			break;
		case 'x':
			cfg->hex[cfg->nhex++] = optarg;
			break;
		case 'm':
			free(cfg->meta);
			if (hr_hex_parse(optarg, &cfg->meta, &cfg->meta_len)) {
				fprintf(stderr,
					"headroom: --meta: not hex bytes\n");
				return -EINVAL;
			}
			break;
		case 'r':
			if (parse_repeat(optarg, &cfg->repeat))
				return -EINVAL;
			break;
		case 'H':
			cfg->hints.file = optarg;
			break;
		case 'C':
			cfg->hints.constant = optarg;
			break;
		case 'd':
			cfg->hints.device = optarg;
			break;
		case 'T':
			cfg->meta_type = optarg;
			break;
		case 'I':
			cfg->raw_ip = true;
			break;
		case 'j':
			cfg->json = true;
			break;
		case 'o':
			cfg->out = optarg;
			break;
		case 'e':
			if (hr_cli_engine(optarg, &cfg->engine)) {
				fprintf(stderr, "headroom: --engine: want "
						"interp, jit or jit-checked\n");
				return -EINVAL;
			}
			break;
		case 'M':
			cfg->maps[cfg->nmaps++] = optarg;
			break;
		case 'D':
			cfg->dump_maps = true;
			break;
		case 'R':
		case 'N':
		case 'F':
			if (hr_cli_fib_arg(c, optarg))
				return -EINVAL;
			cfg->fib = true;
			break;
		case 'K':
			cfg->kernel = true;
			break;
		case 1000:
			cfg->ctx_in = optarg;
			break;
		case 1001:
			cfg->ctx_out = optarg;
			break;
		case 1002:
			if (hr_cli_tunnel_arg(optarg, &cfg->tunnel))
				return -EINVAL;
			cfg->have_tunnel = true;
			break;
		case 1003:
			if (hr_cli_ct_arg(optarg))
				return -EINVAL;
			cfg->ct = true;
			break;
		case 1004:
			if (hr_cli_samples_parse(optarg,
						 &cfg->urbs[cfg->nurbs++]))
				return -EINVAL;
			break;
		case 'E':
			cfg->events = true;
			break;
		case 'h':
			fputs(test_usage, stdout);
			exit(HR_EXIT_OK);
		default:
			ret = hr_cli_load_opt(&cfg->load, c, optarg);
			if (ret > 0)
				break;
			if (!ret)
				fputs(test_usage, stderr);
			return -EINVAL;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "headroom test: want exactly one PROG.o "
				"(see 'headroom test --help')\n");
		return -EINVAL;
	}
	cfg->spec = argv[optind];
	if (!cfg->pcap == !cfg->nhex) {
		fprintf(stderr, "headroom test: give --pcap FILE or --hex HEX "
				"(not both)\n");
		return -EINVAL;
	}
	if (cfg->raw_ip && !cfg->pcap) {
		fprintf(stderr,
			"headroom test: --raw-ip is for --pcap input\n");
		return -EINVAL;
	}
	return test_hints_setup(&cfg->hints);
}

/* A --events sample, printed as it arrives (during the run, so before
 * the packet's own line). */
struct event_watch {
	const struct test_cfg *cfg;
	const char *name;
};

static void print_event(void *ctx, unsigned int cpu, const void *data,
			uint32_t size)
{
	const struct event_watch *w = ctx;

	if (w->cfg->json) {
		printf("{\"event\":\"%s\",\"cpu\":%u,\"data\":\"", w->name,
		       cpu);
		hr_hex_print(stdout, data, size);
		printf("\"}\n");
		return;
	}
	printf("event %s cpu %u (%u): ", w->name, cpu, size);
	hr_hex_print(stdout, data, size);
	printf("\n");
}

static void watch_events(const struct test_cfg *cfg, struct hr_object *obj)
{
	static struct event_watch watches[64];
	unsigned int i, n = 0;

	for (i = 0; i < hr_object_map_count(obj) && n < 64; i++) {
		struct hr_map *map = hr_object_map(obj, i);

		watches[n].cfg = cfg;
		watches[n].name = hr_map_name(map);
		if (!hr_perf_set_reader(map, print_event, &watches[n]))
			n++;
	}
}

static int open_out(struct test_state *st)
{
	if (!st->cfg->out)
		return 0;
	return hr_pcapng_open(st->cfg->out, HR_PCAPNG_AUTO, &st->dump);
}

static struct hr_prog *open_prog(const struct test_cfg *cfg,
				 struct hr_object **obj)
{
	HR_OPTS(hr_object_open_opts, opts);

	hr_cli_load_apply(&cfg->load, &opts);
	return hr_cli_open_prog_opts(cfg->spec, &opts, obj);
}

/* What headroom check predicts the kernel's verifier says, as a warning:
 * headroom runs what the kernel would refuse (one short packet aborts
 * where the kernel refuses the whole object), so say so before. */
static void warn_verifier(const struct test_state *st)
{
	struct hr_check_result r;
	char where[300] = "";
	char *path;

	path = hr_cli_spec_file(st->cfg->spec);
	if ((path ? hr_check_predict_at(path, st->prog,
					hr_check_calls_hints(st->prog), &r) :
		    hr_check_predict_opts(
			    st->prog, hr_check_calls_hints(st->prog), &r)) ||
	    r.verdict != HR_CHECK_REJECT) {
		free(path);
		return;
	}
	free(path);
	if (r.file[0])
		snprintf(where, sizeof(where), " (%s:%u)", r.file, r.line);
	fprintf(stderr,
		"headroom test: warning: the kernel's verifier would reject "
		"'%s' at insn %d%s: %s (headroom check)\n",
		hr_prog_name(st->prog), r.insn, where, r.reason);
}

/* A --map NAME=KEY:VALUE whose map the kernel's copy cannot be given
 * alike: a per-CPU map (a value a CPU, and the CPUs differ) or one whose
 * entries are not values (devices, CPUs, programs, sockets). */
static struct hr_map *map_kernel_cannot_take(struct test_cfg *cfg,
					     const struct hr_object *obj)
{
	char name[128];
	const char *eq;
	struct hr_map *m;
	int i;

	for (i = 0; i < cfg->nmaps; i++) {
		eq = strchr(cfg->maps[i], '=');
		if (!eq || (size_t)(eq - cfg->maps[i]) >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(eq - cfg->maps[i]),
			 cfg->maps[i]);
		m = hr_object_find_map(obj, name);
		if (m && !test_kernel_map_comparable(hr_map_type(m)))
			return m;
	}
	return NULL;
}

/* --kernel: what the comparison cannot cover is refused, saying why. */
static int open_kernel(struct test_state *st, const struct hr_object *obj)
{
	struct test_cfg *cfg = st->cfg;
	const char *why = NULL;
	char *path, buf[256];
	struct hr_map *map;
	int err;

	if (cfg->hints.file || cfg->hints.constant || cfg->hints.device ||
	    hr_check_calls_hints(st->prog))
		why = "the program reads RX hints: the kernel takes the "
		      "metadata kfuncs only in device-bound programs, which "
		      "BPF_PROG_TEST_RUN cannot run";
	else if (cfg->load.pin_dir)
		why = "--pin-dir shares headroom's pinned maps; the kernel's "
		      "copy starts as the object says";
	else if ((map = map_kernel_cannot_take(cfg, obj))) {
		snprintf(buf, sizeof(buf),
			 "--map %s: a %s map's entries are headroom's alone",
			 hr_map_name(map), hr_map_type_name(hr_map_type(map)));
		why = buf;
	} else if (cfg->fib)
		why = "the FIB options fill headroom's tables; the kernel "
		      "looks up its own";
	else if (cfg->have_tunnel)
		why = "--tunnel gives headroom's packets tunnel metadata; the "
		      "kernel's test run cannot give its skb any";
	else if (cfg->ct)
		why = "--ct fills headroom's conntrack table; the kernel "
		      "looks up its own";
	if (why) {
		fprintf(stderr, "headroom test --kernel: not compared: %s\n",
			why);
		return HR_EXIT_USAGE;
	}
	path = hr_cli_spec_file(cfg->spec);
	if (!path)
		return HR_EXIT_USAGE;
	err = test_kernel_open(path, hr_prog_name(st->prog), st->xdp, obj,
			       &st->kernel);
	free(path);
	if (err == -EPERM || err == -ENOENT || err == -ENOMEM)
		return HR_EXIT_USAGE;
	return err ? HR_EXIT_DIFFER : 0;
}

/* The maps, then the totals; HR_EXIT_DIFFER when anything differed. */
static int close_kernel(struct test_state *st, struct hr_object *obj, int rc)
{
	unsigned int compared, differed;
	bool maps_same = test_kernel_maps(st->kernel, obj, st->cfg->json);

	test_kernel_counts(st->kernel, &compared, &differed);
	if (!st->cfg->json)
		printf("kernel: %u packets compared, %u differ; maps %s\n",
		       compared, differed, maps_same ? "agree" : "differ");
	return differed || !maps_same ? HR_EXIT_DIFFER : rc;
}

/* --user-ringbuf: the samples into headroom's rings and, with --kernel,
 * the kernel's; 0 or -errno, said. */
static int submit_samples(struct test_state *st, struct hr_object *obj)
{
	const struct test_cfg *cfg = st->cfg;
	const struct hr_cli_samples *s;
	int i, err = 0;

	for (i = 0; i < cfg->nurbs && !err; i++) {
		s = &cfg->urbs[i];
		err = hr_cli_samples_submit(obj, s);
		if (!err && st->kernel)
			err = test_kernel_user_ringbuf(st->kernel, s->map,
						       s->data, s->len, s->n);
	}
	return err;
}

int hr_cmd_test(int argc, char **argv)
{
	struct test_cfg cfg = { .repeat = 1, .engine = HR_ENGINE_DEFAULT };
	struct test_state st = { .cfg = &cfg };
	struct hr_object *obj = NULL;
	int rc;

	if (parse_args(argc, argv, &cfg)) {
		rc = HR_EXIT_USAGE;
		goto out;
	}
	st.prog = open_prog(&cfg, &obj);
	if (!st.prog) {
		rc = HR_EXIT_LOAD;
		goto out;
	}
	st.xdp = !strncmp(hr_prog_type_name(st.prog), "xdp", 3);
	if (st.xdp && cfg.have_tunnel) {
		fprintf(stderr,
			"headroom test: --tunnel is for tc programs (an "
			"xdp_buff carries no tunnel metadata); '%s' is an XDP "
			"program\n",
			hr_prog_name(st.prog));
		rc = HR_EXIT_USAGE;
		goto out;
	}
	if (!st.xdp &&
	    (cfg.hints.file || cfg.hints.constant || cfg.hints.device)) {
		fprintf(stderr,
			"headroom test: --hints, --hints-const and --device "
			"are for XDP programs (the metadata kfuncs); '%s' is "
			"a tc program\n",
			hr_prog_name(st.prog));
		rc = HR_EXIT_USAGE;
		goto out;
	}
	if (test_meta_type_open(&st.mt, cfg.spec, cfg.meta_type) ||
	    (!cfg.pcap && test_hints_load(&cfg.hints, (size_t)cfg.nhex))) {
		rc = HR_EXIT_USAGE;
		goto out;
	}
	st.ctx.in_path = cfg.ctx_in;
	st.ctx.out_path = cfg.ctx_out;
	if (hr_cli_ctx_open(&st.ctx, st.xdp)) {
		rc = HR_EXIT_USAGE;
		goto out;
	}
	warn_verifier(&st);
	if (cfg.kernel) {
		rc = open_kernel(&st, obj);
		if (rc)
			goto out;
	}
	if (cfg.events)
		watch_events(&cfg, obj);
	if (hr_cli_map_preload(obj, cfg.maps, cfg.nmaps) || open_out(&st) ||
	    (st.kernel && test_kernel_take_maps(st.kernel, obj))) {
		rc = HR_EXIT_USAGE;
		goto out;
	}
	if (submit_samples(&st, obj)) {
		rc = HR_EXIT_USAGE;
		goto out;
	}
	rc = cfg.pcap ? run_pcap(&st) : run_hex(&st);
	if (cfg.dump_maps && rc == HR_EXIT_OK)
		hr_cli_map_dump(stdout, obj, cfg.spec, cfg.json);
	if (rc == HR_EXIT_OK && st.failed)
		rc = HR_EXIT_RUN;
	if (st.kernel && rc != HR_EXIT_USAGE)
		rc = close_kernel(&st, obj, rc);
out:
	hr_cli_ctx_close(&st.ctx);
	test_kernel_close(st.kernel);
	if (st.lines.n)
		hr_line_table_free(&st.lines);
	if (hr_pcapng_close(st.dump) && rc == HR_EXIT_OK)
		rc = HR_EXIT_USAGE;
	test_meta_type_close(&st.mt);
	test_hints_free(&cfg.hints);
	hr_object_close(obj);
	free(cfg.hex);
	free(cfg.maps);
	for (int i = 0; i < cfg.nurbs; i++)
		hr_cli_samples_free(&cfg.urbs[i]);
	free(cfg.urbs);
	hr_cli_load_free(&cfg.load);
	free(cfg.meta);
	return rc;
}
