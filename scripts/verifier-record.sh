#!/bin/sh
# Records the live kernel's verdict on every program of the labelled
# verifier corpus (tests/verifier/*.bpf.c, built into $BUILD/verifier/) in
# tests/verifier/EXPECTED: one line a program, tab-separated: object,
# program, verdict (accept/reject), instruction, source line and the
# verifier's error line. Needs root; run after changing the corpus.
# test_check compares headroom check's predictions with this file (and
# with the kernel itself when it can).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
make --no-print-directory BUILD="$BUILD" -j2 "$BUILD/bin/headroom" >/dev/null
out=tests/verifier/EXPECTED
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
echo "# object	program	kernel verdict	insn	file:line	kernel error line (scripts/verifier-record.sh, $(uname -r))" > "$tmp"
for src in tests/verifier/*.bpf.c; do
	obj=$BUILD/verifier/$(basename "$src" .bpf.c).o
	make --no-print-directory BUILD="$BUILD" "$obj" >/dev/null
	"$BUILD/bin/headroom" check --json --kernel "$obj" 2>/dev/null |
		python3 -c '
import json, sys
obj = sys.argv[1]
for l in sys.stdin:
    o = json.loads(l)
    v = o.get("kernel_verdict")
    if v is None:
        sys.exit("no kernel verdict for %s:%s (root?)" % (obj, o["program"]))
    where = "%s:%s" % (o["kernel_file"], o["kernel_line"]) if o.get("kernel_file") else "-"
    insn = o.get("kernel_insn")
    print("\t".join([obj, o["program"], v, "-" if insn is None else str(insn),
                     where, o.get("kernel_reason") or "-"]))
' "$(basename "$obj")" >> "$tmp"
done
mv "$tmp" "$out"
trap - EXIT
echo "$out: $(grep -vc '^#' "$out") programs"
