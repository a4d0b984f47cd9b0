// SPDX-License-Identifier: MIT
/*
 * Helpers that do not touch the packet: time, random numbers, the CPU
 * number, checksum differences, and the kernel's bprintf formats
 * (kernel/bpf/helpers.c's bpf_bprintf_prepare, then bstr_printf) behind
 * bpf_trace_printk, bpf_trace_vprintk and bpf_snprintf.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "headroom/object.h"
#include "helpers/helpers.h"
#include "progs/stream.h"
#include "vm/mem.h"
#include "util/print.h"

static uint64_t ret_int(int v)
{
	return (uint64_t)(int64_t)v;
}

/* bpf_ktime_get_ns: CLOCK_MONOTONIC, as ktime_get_mono_fast_ns. */
static uint64_t ktime_get_ns(uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4,
			     uint64_t r5, struct hr_run *run)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* splitmix64: one add and three mixes a call, state per thread. */
static __thread uint64_t prandom_state;

static uint64_t prandom_seed(void)
{
	struct timespec ts;
	uint64_t seed;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32);
	/* Threads started in the same nanosecond still differ. */
	seed ^= (uint64_t)(uintptr_t)&prandom_state;
	return seed | 1;
}

static uint64_t get_prandom_u32(uint64_t r1, uint64_t r2, uint64_t r3,
				uint64_t r4, uint64_t r5, struct hr_run *run)
{
	uint64_t z;

	if (!prandom_state)
		prandom_state = prandom_seed();
	prandom_state += 0x9e3779b97f4a7c15ull;
	z = prandom_state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static uint64_t get_smp_processor_id(uint64_t r1, uint64_t r2, uint64_t r3,
				     uint64_t r4, uint64_t r5,
				     struct hr_run *run)
{
	return run->cpu;
}

/*
 * x86-64 csum_partial, bit for bit, in the kernel's grouping
 * (arch/x86/lib/csum-partial_64.c): 80-byte blocks as two 40-byte
 * add-with-carry chains, one 40-byte chain, then 32, 16 and 8 byte chains
 * and a zero-padded little-endian tail, the 64-bit sum folded to 32 bits.
 * A chain that starts with a plain add never loses its last carry, so the
 * result is the one's complement sum itself, zero only for all-zero input.
 */
static uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* add, adc, adc ..., adc $0 over @n words. */
static uint64_t adc_chain(uint64_t sum, const uint8_t *p, unsigned int n)
{
	unsigned __int128 acc;
	uint64_t carry = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		acc = (unsigned __int128)sum + load64(p + 8 * i) + carry;
		sum = (uint64_t)acc;
		carry = (uint64_t)(acc >> 64);
	}
	return sum + carry;
}

/* addq b, a; adcq $0, a. */
static uint64_t add_fold(uint64_t a, uint64_t b)
{
	uint64_t s = a + b;

	return s + (s < b);
}

static uint32_t csum_finalize(uint64_t sum)
{
	uint64_t ror = (sum >> 32) | (sum << 32);

	return (uint32_t)((sum + ror) >> 32);
}

uint32_t hr_csum_partial(const void *buf, uint32_t len, uint32_t seed)
{
	const uint8_t *p = buf;
	uint64_t sum = seed;

	if (len >= 80) {
		uint64_t sum2 = 0;

		do {
			sum = adc_chain(sum, p, 5);
			sum2 = adc_chain(sum2, p + 40, 5);
			p += 80;
			len -= 80;
		} while (len >= 80);
		sum = add_fold(sum, sum2);
	}
	if (len >= 40) {
		sum = adc_chain(sum, p, 5);
		p += 40;
		len -= 40;
	}
	if (len & 32) {
		sum = adc_chain(sum, p, 4);
		p += 32;
	}
	if (len & 16) {
		sum = adc_chain(sum, p, 2);
		p += 16;
	}
	if (len & 8) {
		sum = adc_chain(sum, p, 1);
		p += 8;
	}
	if (len & 7) {
		uint64_t trail = 0;

		memcpy(&trail, p, len & 7);
		sum = add_fold(sum, trail);
	}
	return csum_finalize(sum);
}

static uint32_t csum_add32(uint32_t a, uint32_t b)
{
	uint32_t s = a + b;

	return s + (s < b);
}

/* csum_from32to16: folds without complementing. */
static uint16_t csum_from32to16(uint32_t sum)
{
	sum += (sum >> 16) | (sum << 16);
	return (uint16_t)(sum >> 16);
}

/*
 * bpf_csum_diff as of Linux 6.18: no size checks left in the helper (the
 * verifier bounds both buffers, and any length is summed), and the 32-bit
 * sum folded to 16 bits.
 */
static uint64_t csum_diff(uint64_t from, uint64_t from_size, uint64_t to,
			  uint64_t to_size, uint64_t seed, struct hr_run *run)
{
	uint32_t fsz = (uint32_t)from_size, tsz = (uint32_t)to_size;
	const void *f = NULL, *t = NULL;
	uint32_t ret = (uint32_t)seed;

	if (fsz) {
		f = hr_run_mem(run, from, fsz, false);
		if (!f)
			return 0;
	}
	if (tsz) {
		t = hr_run_mem(run, to, tsz, false);
		if (!t)
			return 0;
	}
	if (fsz && tsz)
		ret = csum_add32(hr_csum_partial(t, tsz, ret),
				 ~hr_csum_partial(f, fsz, 0));
	else if (tsz)
		ret = hr_csum_partial(t, tsz, ret);
	else if (fsz)
		ret = ~hr_csum_partial(f, fsz, ~ret);
	return csum_from32to16(ret);
}

/* bpf_trace_printk, bpf_trace_vprintk and bpf_snprintf: the kernel's
 * format rules (bpf_bprintf_prepare). */

#define HR_TRACE_BUF 1024 /* MAX_BPRINTF_BUF */
#define HR_TRACE_BIN_ARGS 512 /* MAX_BPRINTF_BIN_ARGS */
#define HR_TRACE_NARGS 3 /* MAX_TRACE_PRINTK_VARARGS */
#define HR_VPRINTK_NARGS 12 /* MAX_BPRINTF_VARARGS */

static void default_sink(const char *text, size_t len)
{
	bool nl = len && text[len - 1] == '\n';

	hr_pr(HR_INFO, "headroom-trace: %.*s%s", (int)len, text,
	      nl ? "" : "\n");
}

hr_trace_sink_fn hr_trace_sink = default_sink;

struct trace_out {
	char *buf; /* cap bytes; NULL when cap is 0 */
	size_t cap;
	size_t used; /* bytes in buf, at most cap - 1 */
	size_t total; /* bytes the whole text has (bstr_printf's result) */
	uint32_t bin_used; /* the kernel's bin_args space, for %s limits */
};

/* Bytes of text buf still takes, its NUL aside. */
static size_t out_room(const struct trace_out *o)
{
	return o->cap ? o->cap - 1 - o->used : 0;
}

static void out_put(struct trace_out *o, const char *s, size_t n)
{
	size_t room = out_room(o);
	size_t k = n < room ? n : room;

	if (k)
		memcpy(o->buf + o->used, s, k);
	o->used += k;
	o->total += n;
}

static void out_fmt(struct trace_out *o, const char *spec, ...)
	__attribute__((format(printf, 2, 3)));

static void out_fmt(struct trace_out *o, const char *spec, ...)
{
	size_t room = out_room(o), shown;
	va_list ap;
	int n;

	/* Straight into buf: its NUL slot takes vsnprintf's. */
	va_start(ap, spec);
	n = vsnprintf(room ? o->buf + o->used : NULL, room ? room + 1 : 0, spec,
		      ap);
	va_end(ap);
	if (n < 0)
		return;
	/* A conversion wider than the buffer still counts in full. */
	shown = (size_t)n < room ? (size_t)n : room;
	o->used += shown;
	o->total += (size_t)n;
}

static bool readable(const struct hr_run *run, uint64_t addr)
{
	return run->vm &&
	       hr_mem_check(run, (uintptr_t)addr, 1, false) == HR_ABORT_NONE;
}

/*
 * The string at @addr as strncpy_from_kernel_nofault gives it: at most
 * @max - 1 bytes, empty when a byte before its end is out of reach.
 * Returns the bytes copied including the NUL (the bin_args cost).
 */
static uint32_t copy_string(const struct hr_run *run, uint64_t addr,
			    uint32_t max, char *dst)
{
	uint32_t i;

	for (i = 0; i < max; i++) {
		if (!readable(run, addr + i)) {
			dst[0] = '\0';
			return 1;
		}
		dst[i] = *(const char *)(uintptr_t)(addr + i);
		if (!dst[i])
			return i + 1;
	}
	dst[max - 1] = '\0';
	return max;
}

/* The @n bytes at @addr, zeros when out of reach. */
static void copy_bytes(const struct hr_run *run, uint64_t addr, uint8_t *dst,
		       unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!readable(run, addr + i))
			break;
	if (i == n)
		memcpy(dst, (const void *)(uintptr_t)addr, n);
	else
		memset(dst, 0, n);
}

/*
 * A conversion bpf_bprintf_prepare formats (or copies) into bin_args
 * itself (%pI4, %pi6, %pks ...): bstr_printf copies that text without
 * width or padding, and only while there is room; once the text has
 * reached the end of the buffer it is neither written nor counted.
 */
static void out_prepared(struct trace_out *o, const char *s, size_t n)
{
	if (o->total < o->cap)
		out_put(o, s, n);
}

static void fmt_ip(struct trace_out *o, const struct hr_run *run, uint64_t arg,
		   char kind, char ver)
{
	uint8_t ip[16];
	char s[48];
	int n = 0, i;

	copy_bytes(run, arg, ip, ver == '4' ? 4 : 16);
	if (ver == '4') {
		n = snprintf(s, sizeof(s),
			     kind == 'i' ? "%03u.%03u.%03u.%03u" :
					   "%u.%u.%u.%u",
			     ip[0], ip[1], ip[2], ip[3]);
	} else {
		for (i = 0; i < 16; i++)
			n += snprintf(s + n, sizeof(s) - n,
				      kind == 'I' && i && !(i & 1) ? ":%02x" :
								     "%02x",
				      ip[i]);
	}
	out_prepared(o, s, (size_t)n);
	o->bin_used += (uint32_t)n + 1;
}

static void bin_align(struct trace_out *o, uint32_t size)
{
	o->bin_used = (o->bin_used + 3) & ~3u;
	o->bin_used += size;
}

/*
 * One conversion starting at fmt[*i] == '%' with @arg; advances *i to its
 * last character. 0 or -EINVAL / -ENOSPC, as bpf_bprintf_prepare.
 */
static int fmt_spec(struct trace_out *o, const struct hr_run *run,
		    const char *fmt, size_t *i, uint64_t arg)
{
	char spec[32], str[HR_TRACE_BIN_ARGS];
	size_t j = *i + 1, k = 0;
	bool ll = false, l = false, prepared = false;

	spec[k++] = '%';
	while (fmt[j] == '0' || fmt[j] == '+' || fmt[j] == '-' ||
	       fmt[j] == ' ') {
		if (k < 8)
			spec[k++] = fmt[j];
		j++;
	}
	if (fmt[j] >= '1' && fmt[j] <= '9') {
		while (fmt[j] >= '0' && fmt[j] <= '9') {
			if (k < 16)
				spec[k++] = fmt[j];
			j++;
		}
	}
	if (fmt[j] == 'p') {
		char c = fmt[j + 1];

		if ((c == 'k' || c == 'u') && fmt[j + 2] == 's') {
			/* user and kernel strings are one memory here */
			j += 2;
			prepared = true;
			goto str;
		}
		if (c == 0 || isspace((unsigned char)c) ||
		    ispunct((unsigned char)c) || c == 'K' || c == 'x' ||
		    c == 's' || c == 'S') {
			/* Kernel pointers are hashed or symbolised there;
			 * here the value is printed as the kernel prints
			 * an unhashed one. */
			if (c == 's' || c == 'S')
				out_fmt(o, "0x%llx", (unsigned long long)arg);
			else
				out_fmt(o, "%016llx", (unsigned long long)arg);
			bin_align(o, 8);
			*i = (c == 'K' || c == 'x' || c == 's' || c == 'S') ?
				     j + 1 :
				     j;
			return 0;
		}
		if (c == 'B') {
			out_fmt(o, "0x%llx", (unsigned long long)arg);
			o->bin_used += 19;
			*i = j + 1;
			return 0;
		}
		if ((c != 'i' && c != 'I') ||
		    (fmt[j + 2] != '4' && fmt[j + 2] != '6'))
			return -EINVAL;
		if (HR_TRACE_BIN_ARGS - o->bin_used <
		    (fmt[j + 2] == '4' ? 4u : 16u))
			return -ENOSPC;
		fmt_ip(o, run, arg, c, fmt[j + 2]);
		*i = j + 2;
		return 0;
	}
	if (fmt[j] == 's') {
str:
		if (fmt[j + 1] != 0 && !isspace((unsigned char)fmt[j + 1]) &&
		    !ispunct((unsigned char)fmt[j + 1]))
			return -EINVAL;
		if (o->bin_used >= HR_TRACE_BIN_ARGS)
			return -ENOSPC;
		o->bin_used += copy_string(
			run, arg, HR_TRACE_BIN_ARGS - o->bin_used, str);
		if (prepared) {
			out_prepared(o, str, strlen(str));
			*i = j;
			return 0;
		}
		spec[k++] = 's';
		spec[k] = '\0';
		out_fmt(o, spec, str);
		*i = j;
		return 0;
	}
	if (fmt[j] == 'c') {
		if (o->bin_used >= HR_TRACE_BIN_ARGS)
			return -ENOSPC;
		o->bin_used++;
		spec[k++] = 'c';
		spec[k] = '\0';
		out_fmt(o, spec, (int)(unsigned char)arg);
		*i = j;
		return 0;
	}
	if (fmt[j] == 'l') {
		l = true;
		j++;
	}
	if (fmt[j] == 'l') {
		ll = true;
		j++;
	}
	if (fmt[j] != 'i' && fmt[j] != 'd' && fmt[j] != 'u' && fmt[j] != 'x' &&
	    fmt[j] != 'X')
		return -EINVAL;
	bin_align(o, l || ll ? 8 : 4);
	if (o->bin_used > HR_TRACE_BIN_ARGS)
		return -ENOSPC;
	if (l || ll) {
		spec[k++] = 'l';
		spec[k++] = 'l';
	}
	spec[k++] = fmt[j];
	spec[k] = '\0';
	if (l || ll)
		out_fmt(o, spec, (unsigned long long)arg);
	else if (fmt[j] == 'd' || fmt[j] == 'i')
		out_fmt(o, spec, (int)(uint32_t)arg);
	else
		out_fmt(o, spec, (unsigned int)(uint32_t)arg);
	*i = j;
	return 0;
}

static int trace_format(struct trace_out *o, const struct hr_run *run,
			const char *fmt, size_t len, const uint64_t *args,
			unsigned int nargs)
{
	unsigned int nspec = 0;
	size_t i;
	int err;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)fmt[i];

		if ((!isprint(c) && !isspace(c)) || !isascii(c))
			return -EINVAL;
		if (c != '%') {
			out_put(o, fmt + i, 1);
			continue;
		}
		if (fmt[i + 1] == '%') {
			out_put(o, "%", 1);
			i++;
			continue;
		}
		if (nspec >= nargs)
			return -EINVAL;
		err = fmt_spec(o, run, fmt, &i, args[nspec]);
		if (err)
			return err;
		nspec++;
	}
	return 0;
}

/* Formats @fmt (@fmt_size bytes with its NUL) with @nargs arguments and
 * hands the text to the sink: bpf_trace_printk and bpf_trace_vprintk. */
static uint64_t trace_emit(struct hr_run *run, uint64_t fmt, uint64_t fmt_size,
			   const uint64_t *args, unsigned int nargs)
{
	static __thread char text[HR_TRACE_BUF];
	struct trace_out out = { .buf = text, .cap = sizeof(text) };
	uint32_t size = (uint32_t)fmt_size;
	const char *f, *end;
	int err;

	if (!size)
		return ret_int(-EINVAL);
	f = hr_run_mem(run, fmt, size, false);
	if (!f)
		return 0;
	end = memchr(f, 0, size);
	if (!end)
		return ret_int(-EINVAL);
	err = trace_format(&out, run, f, (size_t)(end - f), args, nargs);
	if (err)
		return ret_int(err);
	out.buf[out.used] = '\0';
	if (hr_trace_sink)
		hr_trace_sink(out.buf, out.used);
	return ret_int((int)out.total);
}

static uint64_t trace_printk(uint64_t fmt, uint64_t fmt_size, uint64_t a1,
			     uint64_t a2, uint64_t a3, struct hr_run *run)
{
	const uint64_t args[HR_TRACE_NARGS] = { a1, a2, a3 };

	return trace_emit(run, fmt, fmt_size, args, HR_TRACE_NARGS);
}

/*
 * The arguments of bpf_trace_vprintk and bpf_snprintf, an array of u64,
 * at most 12 of them, into @args: their number, -EINVAL for a data_len
 * not so (or without data), or -EFAULT after the run ended on @data.
 */
static int varargs(struct hr_run *run, uint64_t data, uint64_t data_len,
		   uint64_t args[HR_VPRINTK_NARGS])
{
	uint32_t len = (uint32_t)data_len;
	const void *p;

	if ((len & 7) || len > HR_VPRINTK_NARGS * 8 || (len && !data))
		return -EINVAL;
	if (len) {
		p = hr_run_mem(run, data, len, false);
		if (!p)
			return -EFAULT;
		memcpy(args, p, len);
	}
	return (int)(len / 8);
}

/* bpf_trace_vprintk(fmt, fmt_size, data, data_len) */
static uint64_t trace_vprintk(uint64_t fmt, uint64_t fmt_size, uint64_t data,
			      uint64_t data_len, uint64_t r5,
			      struct hr_run *run)
{
	uint64_t args[HR_VPRINTK_NARGS] = { 0 };
	int n = varargs(run, data, data_len, args);

	if (n < 0)
		return n == -EFAULT ? 0 : ret_int(n);
	return trace_emit(run, fmt, fmt_size, args, (unsigned int)n);
}

/*
 * The NUL-ended string at @addr, each byte checked as read; NULL after
 * ending the run where it leaves the program's memory first (the
 * verifier takes only a string it proved ended: ARG_PTR_TO_CONST_STR).
 */
static const char *const_str(struct hr_run *run, uint64_t addr, size_t *len)
{
	size_t i;

	for (i = 0;; i++) {
		if (!readable(run, addr + i)) {
			hr_run_abort(run, HR_ABORT_HELPER_ARG, addr + i);
			return NULL;
		}
		if (!*(const char *)(uintptr_t)(addr + i))
			break;
	}
	*len = i;
	return (const char *)(uintptr_t)addr;
}

/*
 * long bpf_snprintf(str, str_size, fmt, data, data_len): the text in
 * str, cut to str_size with its NUL; returns the length the whole text
 * needs with the NUL, or -EINVAL for a data_len not a multiple of 8 or
 * over 12 arguments and for a format bpf_bprintf_prepare refuses (which
 * the kernel's verifier refuses at load already), -ENOSPC past its 512
 * bytes of arguments. As the kernel's, nothing is written unless the
 * whole format is good: a first pass checks it, a second writes.
 *
 * Where headroom cannot agree: %p (without a letter), %pK, %px, %ps
 * and %pS print the number unhashed, unsymbolised; %pus reads the
 * program's memory, where the kernel's copy from a user address would
 * fail for any kernel pointer. When the text has filled str before an
 * address or %pks/%pus (out_prepared), the kernel's bstr_printf also
 * leaves its place in bin_args where it was, so the conversions after
 * it read the wrong bytes and count what those give; headroom reads the
 * right arguments there, and the length it returns can then differ.
 */
/* A call with a constant format and an array of u64 arguments. */
struct fmt_call {
	uint64_t args[HR_VPRINTK_NARGS];
	unsigned int nargs;
	const char *fmt;
	size_t fmt_len;
};

/*
 * Reads @c's arguments (@data, @data_len) and format (@fmt) and formats
 * them into @out: 0, -errno for the program to get, or 1 when the run
 * ended on an address outside its memory.
 */
static int fmt_call_format(struct hr_run *run, uint64_t fmt, uint64_t data,
			   uint64_t data_len, struct fmt_call *c,
			   struct trace_out *out)
{
	int n = varargs(run, data, data_len, c->args);

	if (n < 0)
		return n == -EFAULT ? 1 : n;
	c->nargs = (unsigned int)n;
	c->fmt = const_str(run, fmt, &c->fmt_len);
	if (!c->fmt)
		return 1;
	return trace_format(out, run, c->fmt, c->fmt_len, c->args, c->nargs);
}

static uint64_t snprintf_fn(uint64_t str, uint64_t str_size, uint64_t fmt,
			    uint64_t data, uint64_t data_len,
			    struct hr_run *run)
{
	uint32_t size = (uint32_t)str_size;
	struct trace_out out = { 0 };
	struct fmt_call c = { .nargs = 0 };
	int err = fmt_call_format(run, fmt, data, data_len, &c, &out);

	if (err)
		return err > 0 ? 0 : ret_int(err);
	if (size) {
		out = (struct trace_out){
			.buf = hr_run_mem(run, str, size, true), .cap = size
		};
		if (!out.buf)
			return 0;
		trace_format(&out, run, c.fmt, c.fmt_len, c.args, c.nargs);
		out.buf[out.used] = '\0';
	}
	return ret_int((int)out.total + 1);
}

/*
 * int bpf_stream_vprintk_impl(stream_id, fmt__str, args, len__sz,
 * aux__prog) (kernel/bpf/stream.c, 6.18): the text appended to the
 * running program's stream (the verifier puts the program in aux__prog);
 * 0, -ENOENT for a stream other than 1 and 2, -EINVAL for the arguments
 * or the format, -ENOMEM for a text the kernel's 1 KiB element cannot
 * hold, -ENOSPC past the stream's capacity. A text of exactly 1024
 * bytes goes in as the kernel's does: 1023 of them and a NUL.
 */
static uint64_t stream_vprintk(uint64_t id, uint64_t fmt, uint64_t data,
			       uint64_t data_len, uint64_t aux,
			       struct hr_run *run)
{
	static __thread char text[HR_TRACE_BUF];
	struct trace_out out = { .buf = text, .cap = sizeof(text) };
	struct fmt_call c = { .nargs = 0 };
	int err;

	if ((id != HR_STREAM_STDOUT && id != HR_STREAM_STDERR) ||
	    !run->vm->prog)
		return ret_int(-ENOENT);
	err = fmt_call_format(run, fmt, data, data_len, &c, &out);
	if (err)
		return err > 0 ? 0 : ret_int(err);
	if (out.total > HR_TRACE_BUF)
		return ret_int(-ENOMEM);
	out.buf[out.used] = '\0';
	return ret_int(
		hr_prog_stream_push(run->vm->prog, (int)id, text, out.total));
}

const struct hr_kfunc hr_kfunc_stream_vprintk_impl = {
	.name = "bpf_stream_vprintk_impl",
	.fn = stream_vprintk,
};

/*
 * long bpf_strncmp(s1, s1_sz, s2): lib/string.c's strncmp, -1, 0 or 1,
 * bytes compared unsigned. The kernel's verifier proves s2 a NUL-ended
 * string of a read-only map; here each byte of it is checked as read.
 */
static uint64_t strncmp_fn(uint64_t s1, uint64_t s1_sz, uint64_t s2,
			   uint64_t r4, uint64_t r5, struct hr_run *run)
{
	uint32_t n = (uint32_t)s1_sz, i;
	const uint8_t *a = hr_run_mem(run, s1, n, false), *b;

	if (!a)
		return 0;
	for (i = 0; i < n; i++) {
		b = hr_run_mem(run, s2 + i, 1, false);
		if (!b)
			return 0;
		if (a[i] != *b)
			return a[i] < *b ? (uint64_t)-1 : 1;
		if (!a[i])
			break;
	}
	return 0;
}

const struct hr_helper hr_helper_strncmp = {
	.id = 182, /* BPF_FUNC_strncmp */
	.name = "bpf_strncmp",
	.fn = strncmp_fn,
};

const struct hr_helper hr_helper_trace_vprintk = {
	.id = 177, /* BPF_FUNC_trace_vprintk */
	.name = "bpf_trace_vprintk",
	.fn = trace_vprintk,
};

const struct hr_helper hr_helper_snprintf = {
	.id = 165, /* BPF_FUNC_snprintf */
	.name = "bpf_snprintf",
	.fn = snprintf_fn,
};

const struct hr_helper hr_helper_ktime_get_ns = {
	.id = 5,
	.name = "bpf_ktime_get_ns",
	.fn = ktime_get_ns,
};

const struct hr_helper hr_helper_trace_printk = {
	.id = 6,
	.name = "bpf_trace_printk",
	.fn = trace_printk,
};

const struct hr_helper hr_helper_get_prandom_u32 = {
	.id = 7,
	.name = "bpf_get_prandom_u32",
	.fn = get_prandom_u32,
};

const struct hr_helper hr_helper_get_smp_processor_id = {
	.id = 8,
	.name = "bpf_get_smp_processor_id",
	.fn = get_smp_processor_id,
};

const struct hr_helper hr_helper_csum_diff = {
	.id = 28,
	.name = "bpf_csum_diff",
	.fn = csum_diff,
};
