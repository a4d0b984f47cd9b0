#!/bin/sh
# Builds a corpus of public XDP and tc programs for tests/progs/test_corpus.c:
#   scripts/corpus-build.sh OUT_DIR SRC_DIR...
# Each SRC_DIR is a checkout of a repository of BPF programs (xdp-tutorial,
# bpf-examples, xdp-tools ...; clone them yourself: nothing of theirs is
# kept in this tree). Every *kern*.c and *.bpf.c under it, and every
# other C file with an XDP or tc section (cilium/ebpf's examples,
# Suricata's ebpf/ and the kernel's selftests name theirs freely), is
# compiled with clang -target bpf against the repository's own headers;
# the objects land flat in OUT_DIR as REPO__DIR__NAME.o. Then
#   HEADROOM_CORPUS=OUT_DIR build/tests/test_corpus
# runs each XDP and tc program in the kernel and in headroom.
set -u
[ $# -ge 2 ] || { echo "usage: $0 OUT_DIR SRC_DIR..." >&2; exit 2; }
out=$1
shift
mkdir -p "$out" || exit 1
arch_inc=/usr/include/$(uname -m)-linux-gnu
# Programs written against vmlinux.h (xdp-tools' xdp-bench, say) get the
# running kernel's, written by bpftool (Debian's bpftool) when it is here.
inc=$out/.include
mkdir -p "$inc"
if [ ! -s "$inc/vmlinux.h" ] && command -v bpftool >/dev/null 2>&1; then
	bpftool btf dump file /sys/kernel/btf/vmlinux format c \
		>"$inc/vmlinux.h" 2>/dev/null || rm -f "$inc/vmlinux.h"
fi
# xdp-tools asks for <bpf/vmlinux.h>; the kernel's own samples for
# <uapi/linux/...>, which the installed UAPI headers are.
[ -s "$inc/vmlinux.h" ] && mkdir -p "$inc/bpf/vmlinux" &&
	ln -sf ../vmlinux.h "$inc/bpf/vmlinux.h" &&
	ln -sf ../../vmlinux.h "$inc/bpf/vmlinux/vmlinux.h"
[ -e "$inc/uapi" ] || ln -s /usr/include "$inc/uapi"
# The repository's root and its src/ (Katran and XDP-Firewall include
# from there), a headers/ beside
# the program's directory (cilium/ebpf's examples) and libbpf's headers
# by their bare names ("bpf_endian.h"), last so that a repository's own
# win. The HAVE_LIBBPF_ defines are what a configure script (xdp-tools')
# finds in any libbpf since 1.0, which declares those helpers itself.
build() {
	_f=$1
	_src=$2
	_o=$3
	shift 3
	clang -O2 -g -target bpf -D__TARGET_ARCH_x86 \
		-DHAVE_LIBBPF_BPF_PROGRAM__TYPE -DHAVE_LIBBPF_BPF_PROGRAM__FLAGS \
		-I"$(dirname "$_f")" -I"$_src/headers" -I"$_src/headers/bpf" \
		-I"$_src/include" -I"$_src/lib" -I"$_src/lib/util" \
		-I"$(dirname "$_f")/../headers" -I"$_src" -I"$_src/src" \
		-I"$inc" -I"$arch_inc" \
		-idirafter /usr/include/bpf "$@" -c "$_f" -o "$_o" 2>/dev/null
}
built=0
failed=0
# The sections libbpf gives an XDP or tc program type, named with
# libbpf's SEC() or the bare attribute (the prevail verifier's samples).
sec_re='(SEC|section)\("(xdp|tc|tcx|classifier|action|netkit)[/"_.]'
sources() {
	{
		find "$1" \( -name '*kern*.c' -o -name '*.bpf.c' \) \
			-not -path '*/libbpf/*'
		find "$1" -name '*.c' -not -name '*kern*.c' \
			-not -name '*.bpf.c' -not -path '*/libbpf/*' \
			-exec grep -lE "$sec_re" {} +
	} | sort -u
}
for src in "$@"; do
	[ -d "$src" ] || { echo "$0: $src: not a directory" >&2; exit 2; }
	repo=$(basename "$src")
	for f in $(sources "$src"); do
		rel=${f#"$src"/}
		name=$(echo "$repo/$rel" | sed 's#/#__#g; s#\.c$#.o#')
		# A failure is tried once more with <stdbool.h>: xdp-tools
		# builds as C2x, where bool needs no header (and vmlinux.h's
		# own typedef of bool forbids it for the rest).
		if build "$f" "$src" "$out/$name" ||
			build "$f" "$src" "$out/$name" -include stdbool.h; then
			built=$((built + 1))
		else
			failed=$((failed + 1))
			echo "not built: $repo/$rel"
		fi
	done
done
echo "corpus: $built objects in $out, $failed sources did not build"
