# headroom: top-level build. `make demo` and `make test` are the entry points.
#
#   make            build library, binaries, BPF programs and tests
#   make demo       install missing packages (as root), build, run the demo
#   make test       install, build, run every test: "N passed, N failed"
#   make report     run every benchmark: bench/results/REPORT.md, charts
#   make SAN=1 test the same, built with -fsanitize=address,undefined
#   make SAN=thread test   ... with ThreadSanitizer
#   make format     rewrite sources with clang-format
#   make check-format   fail when a source is not clang-formatted

CC      ?= gcc
CLANG   ?= clang
SAN     ?=

ifeq ($(SAN),)
BUILD   ?= build
SANFLAGS :=
else ifeq ($(SAN),thread)
BUILD   ?= build-tsan
SANFLAGS := -fsanitize=thread
else
BUILD   ?= build-asan
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	    -fno-omit-frame-pointer
endif

CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Wno-unused-parameter \
	   -Wno-missing-field-initializers -D_GNU_SOURCE -pthread \
	   -Iinclude -Isrc $(SANFLAGS)
LDFLAGS += -pthread $(SANFLAGS)
# json-c for every JSON read or written, libyaml for configs, Wireshark's
# wiretap (with glib) for pcapng with per-packet options.
PKG_LIBS := json-c yaml-0.1 glib-2.0
CFLAGS  += $(shell pkg-config --cflags $(PKG_LIBS)) -I/usr/include/wireshark
LDLIBS  += -lxdp -lbpf -lelf -lz -lpcap -lm -lwiretap -lwsutil \
	   $(shell pkg-config --libs $(PKG_LIBS))

BPF_CFLAGS ?= -O2 -g -target bpf -Wall -Wno-unused-value \
	      -I/usr/include/$(shell uname -m)-linux-gnu -Iprogs/include

# The library's layers, lowest first: a file includes headers of its own
# layer or of lower ones only (tests/project/test_layers.sh, scripts/layers.allow).
LAYERS    := util vm core dev progs maps helpers loader check
LIB_SRCS  := $(wildcard $(addsuffix /*.c,$(addprefix src/,$(LAYERS))))
CLI_SRCS  := $(filter-out src/cli/conformance_plugin.c,$(wildcard src/cli/*.c))
# Tests and programs are grouped by the layer they test (tests/LAYER/,
# progs/LAYER/); binaries and objects land flat, by name, under $(BUILD).
TEST_SRCS := $(wildcard tests/*/test_*.c)
TEST_SCRIPTS := $(wildcard tests/*/test_*.sh)
TEST_LIB_SRCS := $(wildcard tests/lib/*.c)
BENCH_SRCS := $(wildcard bench/*.c)
PROG_SRCS := $(wildcard progs/*/*.bpf.c)

LIB       := $(BUILD)/libheadroom.a
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_LIB_OBJS := $(TEST_LIB_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_BINS := $(addprefix $(BUILD)/tests/,$(notdir $(TEST_SRCS:.c=)))
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(BUILD)/bench/%)
PROG_OBJS := $(addprefix $(BUILD)/progs/,$(notdir $(PROG_SRCS:.bpf.c=.o)))
BINS      := $(BUILD)/bin/headroom $(BUILD)/bin/headroom-conformance-plugin

FORMAT_SRCS := $(shell find include src tests bench progs fuzz scripts -name '*.[ch]' 2>/dev/null)

.PHONY: all deps demo docs test bench report format check-format clean install uninstall shared fuzz fuzz-build fuzz-smoke
.SUFFIXES:
# Test and bench objects are intermediates GNU make would delete; keep
# them so that a second make builds nothing.
.SECONDARY:

all: $(BINS) $(PROG_OBJS) $(TEST_BINS) $(BENCH_BINS)

deps:
	@scripts/install-deps.sh

# docs/helpers.md is generated from the table of src/helpers/offer_*.c.
docs: $(BUILD)/bin/headroom
	$(BUILD)/bin/headroom feature --markdown > docs/helpers.md

demo: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/bin/headroom demo

# TESTS=name ... runs only those test programs (e.g. TESTS="test_maps").
TESTS ?=
RUN_TESTS = $(if $(TESTS),$(foreach t,$(TESTS),$(or $(wildcard tests/*/$(t).sh),$(BUILD)/tests/$(t))),$(TEST_BINS) $(TEST_SCRIPTS))

# The whole suite also runs every libFuzzer harness for 10 s on its
# corpus (scripts/fuzz-smoke.sh); a harness that fails to build fails there.
test: deps
	@$(MAKE) --no-print-directory all
	-@$(if $(TESTS),,$(MAKE) --no-print-directory fuzz-build >/dev/null)
	@BUILD=$(BUILD) LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
		tests/run.sh $(RUN_TESTS) $(if $(TESTS),,scripts/fuzz-smoke.sh)

# bench/report runs the others itself: not one of the loop's.
bench: all
	@for b in $(filter-out $(BUILD)/bench/report,$(BENCH_BINS)); do \
		echo "== $$b"; $$b || exit 1; done

# Every benchmark with --json, then bench/results/REPORT.md and its PNG
# charts (gnuplot); REPORT_OPTS=--quick for a quick look.
REPORT_OPTS ?=
report: deps
	@$(MAKE) -s --no-print-directory $(BENCH_BINS) $(PROG_OBJS)
	BUILD=$(BUILD) $(BUILD)/bench/report $(REPORT_OPTS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/bin/headroom: $(CLI_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/bin/headroom-conformance-plugin: $(BUILD)/obj/src/cli/conformance_plugin.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/obj/tests/%.o $(BUILD)/obj/bench/%.o: CFLAGS += -Itests/lib

define test_rule
$(BUILD)/tests/$(notdir $(1:.c=)): $(BUILD)/obj/$(1:.c=.o) $$(TEST_LIB_OBJS) $$(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach t,$(TEST_SRCS),$(eval $(call test_rule,$(t))))

$(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(TEST_LIB_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# clang 14 leaves BTF type tags out: programs that name them with a
# typedef __tag_NAME (progs/include/hr_kptr.h's __tag_kptr,
# hr_percpu_kptr.h's __tag_percpu_kptr, a program's own) get them from
# this tool (scripts/btf_type_tags.c).
BTF_TAGS_TOOL := $(BUILD)/scripts/btf-type-tags
$(BTF_TAGS_TOOL): scripts/btf_type_tags.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -std=gnu11 -Wall -Wextra -o $@ $< -lbpf -lelf

define prog_rule
$(BUILD)/progs/$(notdir $(1:.bpf.c=.o)): $(1) $$(wildcard progs/include/*.h) $(if $(shell grep -l 'kptr.h\|__tag_' $(1)),$(BTF_TAGS_TOOL))
	@mkdir -p $$(dir $$@)
	$$(CLANG) $$(BPF_CFLAGS) -c $$< -o $$@
	$(if $(shell grep -l 'kptr.h\|__tag_' $(1)),$(BTF_TAGS_TOOL) $$@)
endef
$(foreach p,$(PROG_SRCS),$(eval $(call prog_rule,$(p))))

# The labelled verifier corpus (tests/verifier/, see docs/check.md): each
# file a kernel-rejected program and its accepted twin, for test_check.
VERIFIER_SRCS := $(wildcard tests/verifier/*.bpf.c)
VERIFIER_OBJS := $(addprefix $(BUILD)/verifier/,$(notdir $(VERIFIER_SRCS:.bpf.c=.o)))
all: $(VERIFIER_OBJS)
$(BUILD)/verifier/%.o: tests/verifier/%.bpf.c tests/verifier/v.h tests/verifier/lock.h tests/verifier/rb.h tests/verifier/timer.h $(wildcard progs/include/*.h)
	@mkdir -p $(dir $@)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# Programs that include another one's source.
$(BUILD)/progs/jit_percpu.o $(BUILD)/progs/jit_percpu_hash.o \
	$(BUILD)/progs/jit_lru_percpu.o: progs/bench/bench_lookup.bpf.c
$(BUILD)/progs/xdp_dynptr_nordwr.o: progs/helpers/xdp_dynptr.bpf.c
$(BUILD)/progs/skb_meta_dynptr_nordwr.o: progs/helpers/skb_meta_dynptr.bpf.c
$(BUILD)/progs/bench_cpu_hash.o: progs/bench/bench_cpu.bpf.c
$(BUILD)/progs/xdp_user_ringbuf_big.o: progs/helpers/xdp_user_ringbuf.bpf.c

# Installation: PREFIX (/usr/local), DESTDIR for staging. The shared
# library is built from position-independent objects of its own.
VERSION    := 0.1.0
SOVERSION  := 0
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR    ?= $(PREFIX)/share/headroom
MANDIR     ?= $(PREFIX)/share/man
COMPDIR    ?= $(PREFIX)/share/bash-completion/completions
SHLIB      := $(BUILD)/libheadroom.so.$(VERSION)
PIC_OBJS   := $(LIB_SRCS:%.c=$(BUILD)/pic/%.o)
DATA_PROGS := $(BUILD)/progs/xdp_demo.o $(BUILD)/progs/demo_rx.o \
	      $(BUILD)/progs/demo_tc.o \
	      $(addprefix $(BUILD)/progs/,bench_action.o bench_cpu.o bench_cpu_hash.o \
		bench_tc.o bench_rxhash.o bench_devmap.o bench_hints.o) $(BUILD)/progs/xsk_hints.o
MAN_NAME_test    := run one XDP or tc program over packets, as BPF_PROG_TEST_RUN
MAN_NAME_inspect := list what a BPF object holds and what headroom can run
MAN_NAME_demo    := run the datapath on its built-in default
MAN_NAME_bench   := packets a second through a pipeline, as xdp-bench
MAN_PAGES  := $(BUILD)/man/headroom.1 \
	      $(patsubst MAN_NAME_%,$(BUILD)/man/headroom-%.1,$(filter MAN_NAME_%,$(.VARIABLES)))

shared: $(SHLIB)

# The data directory of the prefix, for a binary copied out of its tree.
$(BUILD)/obj/src/cli/cmd_demo.o: CFLAGS += -DHR_DATADIR='"$(DATADIR)"'
# The afxdp device's kernel program, installed there (xsk_hints.o).
$(BUILD)/obj/src/dev/afxdp.o $(BUILD)/pic/src/dev/afxdp.o: CFLAGS += -DHR_DATADIR='"$(DATADIR)"'
$(BUILD)/obj/src/cli/main.o: CFLAGS += -DHR_VERSION='"$(VERSION)"'

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@

$(SHLIB): $(PIC_OBJS)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libheadroom.so.$(SOVERSION) \
		-o $@ $^ $(LDLIBS)

$(BUILD)/headroom.pc: headroom.pc.in Makefile
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|; s|@VERSION@|$(VERSION)|' $< >$@

# Man pages from the --help texts, so that they say what --help says.
$(BUILD)/man/headroom.1: $(BUILD)/bin/headroom
	@mkdir -p $(dir $@)
	help2man --no-info --name="run XDP and tc programs in user space" \
		--version-option=--version -o $@ $<

$(BUILD)/man/headroom-%.1: $(BUILD)/bin/headroom
	@mkdir -p $(dir $@)
	help2man --no-info --name="$(MAN_NAME_$*)" \
		--help-option="$* --help" --version-option=--version -o $@ $<
	sed -i -e '/^\.TH /s/^\.TH HEADROOM /.TH HEADROOM-$(shell echo $* | tr a-z A-Z) /' \
	    -e '/^\.SH NAME/{n;s/^headroom /headroom-$* /}' $@

install: $(MAN_PAGES) $(BINS) $(LIB) $(SHLIB) $(DATA_PROGS) $(BUILD)/headroom.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(INCLUDEDIR)/headroom $(DESTDIR)$(DATADIR)/progs \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPDIR)
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)
	ln -sf libheadroom.so.$(VERSION) \
		$(DESTDIR)$(LIBDIR)/libheadroom.so.$(SOVERSION)
	ln -sf libheadroom.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libheadroom.so
	install -m 644 include/headroom/*.h $(DESTDIR)$(INCLUDEDIR)/headroom
	install -m 644 $(BUILD)/headroom.pc $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 644 $(DATA_PROGS) $(DESTDIR)$(DATADIR)/progs
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1
	install -m 644 completions/headroom $(DESTDIR)$(COMPDIR)/headroom

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(BINS)))
	rm -f $(DESTDIR)$(LIBDIR)/libheadroom.a $(DESTDIR)$(LIBDIR)/libheadroom.so*
	rm -f $(DESTDIR)$(LIBDIR)/pkgconfig/headroom.pc
	rm -rf $(DESTDIR)$(INCLUDEDIR)/headroom $(DESTDIR)$(DATADIR)
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN_PAGES)))
	rm -f $(DESTDIR)$(COMPDIR)/headroom

# libFuzzer harnesses: fuzz/fuzz_NAME.c, seed corpus fuzz/corpus/NAME/.
# Built with clang and the library's sources compiled again under
# -fsanitize=fuzzer-no-link,address,undefined. `make fuzz` runs each for
# FUZZ_SECONDS (60); `make test` runs each for 10 s on its corpus
# (fuzz-smoke); scripts/fuzz-long.sh runs them for hours.
FUZZ_BUILD   := build-fuzz
FUZZ_SRCS    := $(wildcard fuzz/fuzz_*.c)
FUZZ_BINS    := $(FUZZ_SRCS:fuzz/%.c=$(FUZZ_BUILD)/%)
FUZZ_CFLAGS  := -O1 -g -std=gnu11 -D_GNU_SOURCE -pthread -Iinclude -Isrc \
		-DHR_FUZZING -fsanitize=fuzzer-no-link,address,undefined \
		-fno-sanitize-recover=undefined -fno-omit-frame-pointer \
		$(shell pkg-config --cflags $(PKG_LIBS)) -I/usr/include/wireshark
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_BUILD)/obj/%.o)
FUZZ_AUX_OBJS := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(wildcard fuzz/lib/*.c))
FUZZ_SECONDS ?= 60

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@for b in $(FUZZ_BINS); do n=$${b##*/fuzz_}; mkdir -p $(FUZZ_BUILD)/corpus/$$n; \
		echo "== $$n ($(FUZZ_SECONDS) s)"; \
		$$b -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_BUILD)/crash-$$n- \
			$(FUZZ_BUILD)/corpus/$$n fuzz/corpus/$$n || exit 1; done

fuzz-smoke: fuzz-build
	@scripts/fuzz-smoke.sh $(FUZZ_BUILD) 10 $(FUZZ_BINS)

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/obj/fuzz/fuzz_%.o $(FUZZ_AUX_OBJS) $(FUZZ_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CLANG) -fsanitize=fuzzer,address,undefined -pthread -o $@ $^ $(LDLIBS)

format:
	clang-format -i $(FORMAT_SRCS)

check-format:
	@bad=$$(for f in $(FORMAT_SRCS); do \
		clang-format --dry-run --Werror $$f >/dev/null 2>&1 || echo $$f; done); \
	if [ -n "$$bad" ]; then echo "not clang-formatted:"; echo "$$bad"; exit 1; fi; \
	echo "format ok"

clean:
	rm -rf build build-asan build-tsan build-fuzz

-include $(shell find $(BUILD)/obj $(BUILD)/pic -name '*.d' 2>/dev/null)
-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)
