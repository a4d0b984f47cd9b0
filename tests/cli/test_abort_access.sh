#!/bin/sh
# An aborted `headroom test` run names the access it stopped (issue 14 item
# 3): load, store or a helper's, its size, the region it was checked
# against and its offset there, and the region's bounds, in the text and
# in the --json "abort" object, the same under the interpreter, the JIT
# and the checked JIT. progs/cli/abort_access.bpf.c has one program per
# region: a packet read past data_end only for short packets (also behind
# metadata), metadata read before data_meta, stores past an array and a
# hash map value, past global data and below the stack frame, a helper
# writing past the stack, a load past the context, a tc read past
# data_end. Prints a RESULT line.
BUILD=${BUILD:-build}
make --no-print-directory BUILD="$BUILD" -j2 "$BUILD/bin/headroom" \
	"$BUILD/progs/abort_access.o" >/dev/null 2>&1
H=$BUILD/bin/headroom
O=$BUILD/progs/abort_access.o
SRC=progs/cli/abort_access.bpf.c
D=$(mktemp -d /tmp/hr-abort-access-XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
ETH=0102030405060708090a0b0c0d0e
pad() { python3 -c "print('$ETH' + '00' * ($1 - 14))"; }
P56=$(pad 56)
P58=$(pad 58)
P20=$(pad 20)
# name, program, arguments: each run once as text and once as JSON per
# engine; python checks them below.
run() {
	name=$1
	prog=$2
	shift 2
	for e in interp jit jit-checked; do
		"$H" test "$O:$prog" --engine $e "$@" 2>/dev/null \
			>"$D/$name.$e.txt"
		"$H" test "$O:$prog" --engine $e --json "$@" 2>/dev/null \
			>"$D/$name.$e.json"
	done
}
run short short_read --hex $P56 --hex $P58
run shortmeta short_read --hex $P56 --meta 0a0b0c0d
run meta meta_before --hex $P56 --meta 0a0b0c0d0e0f1011
run nometa meta_before --hex $P56
run value value_past --hex $P56
run hash hash_past --hex $P56
run global global_past --hex $P56
run stack stack_below --hex $P56
run helper helper_past --hex $P56
run ctx ctx_past --hex $P56
run tc tc_short_read --hex $P20
python3 - "$D" "$SRC" <<'PY'
import json, sys
d, src = sys.argv[1], sys.argv[2]
ok = bad = 0
def check(cond, what):
    global ok, bad
    if cond:
        ok += 1
    else:
        bad += 1
        print("FAIL tests/cli/test_abort_access.sh:", what)
lines = open(src).read().split("\n")
def line_of(text):
    return [i + 1 for i, l in enumerate(lines) if text in l][0]
# name: (reason, the access in JSON, the text after the reason, the source
# line of the access or None for asm, where lines are less exact)
cases = {
    "short": ("out-of-bounds load",
              dict(kind="load", size=4, region="packet", offset=54,
                   region_len=56, region_lo=0, region_hi=56),
              "load of 4 bytes at packet offset 54, packet is 56 bytes "
              "(data 0..56), 2 bytes past data_end",
              line_of("(data + 54)")),
    # Packet offsets count from data, not from the metadata before it.
    "shortmeta": ("out-of-bounds load",
                  dict(kind="load", size=4, region="packet", offset=54,
                       region_len=56, region_lo=0, region_hi=56),
                  "load of 4 bytes at packet offset 54, packet is 56 bytes "
                  "(data 0..56), 2 bytes past data_end",
                  line_of("(data + 54)")),
    "meta": ("out-of-bounds load",
             dict(kind="load", size=4, region="metadata", offset=-4,
                  region_len=8, region_lo=0, region_hi=8),
             "load of 4 bytes at metadata offset -4, metadata is 8 bytes "
             "(data_meta 0..8), 4 bytes before data_meta",
             line_of("(meta - 4)")),
    "nometa": ("out-of-bounds load",
               dict(kind="load", size=4, region="packet", offset=-4,
                    region_len=56, region_lo=0, region_hi=56),
               "load of 4 bytes at packet offset -4, packet is 56 bytes "
               "(data 0..56), 4 bytes before data",
               line_of("(meta - 4)")),
    "value": ("out-of-bounds store",
              dict(kind="store", size=4, region="map value", name="counts",
                   offset=8, region_len=8, region_lo=0, region_hi=8),
              "store of 4 bytes at offset 8 of a value of map 'counts', "
              "the value is 8 bytes, 4 bytes past its end",
              line_of("(char *)v + 8")),
    "hash": ("out-of-bounds store",
             dict(kind="store", size=4, region="map value", name="flows",
                  offset=12, region_len=8, region_lo=0, region_hi=8),
             "store of 4 bytes at offset 12 of a value of map 'flows', "
             "the value is 8 bytes, 8 bytes past its end",
             line_of("(char *)v + 12")),
    "global": ("out-of-bounds store",
               dict(kind="store", size=4, region="global data", name=".bss",
                    offset=4, region_len=4, region_lo=0, region_hi=4),
               "store of 4 bytes at offset 4 of global data '.bss', which "
               "is 4 bytes, 4 bytes past its end",
               line_of("(&hits)[1]")),
    "stack": ("out-of-bounds store",
              dict(kind="store", size=8, region="stack", offset=-520,
                   region_len=512, region_lo=-512, region_hi=0),
              "store of 8 bytes at stack offset r10-520, the frame is "
              "r10-512..r10, 8 bytes below the frame", None),
    "helper": ("bad helper argument",
               dict(kind="helper write", size=32, helper="bpf_xdp_load_bytes",
                    region="stack", offset=-16, region_len=512,
                    region_lo=-512, region_hi=0),
               "bpf_xdp_load_bytes writing 32 bytes at stack offset r10-16, "
               "the frame is r10-512..r10, 16 bytes past the stack's top",
               None),
    "ctx": ("out-of-bounds load",
            dict(kind="load", size=4, region="context", name="xdp_md",
                 offset=24, region_len=24, region_lo=0, region_hi=24),
            "load of 4 bytes at context offset 24 (struct xdp_md is 24 "
            "bytes), 4 bytes past its end", None),
    "tc": ("out-of-bounds load",
           dict(kind="load", size=2, region="packet", offset=20,
                region_len=20, region_lo=0, region_hi=20),
           "load of 2 bytes at packet offset 20, packet is 20 bytes "
           "(data 0..20), 2 bytes past data_end",
           line_of("(data + 20)")),
}
for name, (reason, access, text, line) in cases.items():
    first = None
    for e in ("interp", "jit", "jit-checked"):
        what = "%s --engine %s" % (name, e)
        try:
            objs = [json.loads(l) for l in open("%s/%s.%s.json" % (d, name, e))]
        except ValueError as err:
            check(False, "%s: JSON: %s" % (what, err))
            continue
        txt = open("%s/%s.%s.txt" % (d, name, e)).read()
        if not objs:
            check(False, "%s: no output" % what)
            continue
        ab = objs[0].get("abort")
        check(ab is not None, "%s: no abort object: %s" % (what, objs[0]))
        if not ab:
            continue
        check(ab.get("reason") == reason, "%s: reason %s" % (what, ab))
        check(ab.get("file") == "abort_access.bpf.c", "%s: file %s" % (what, ab))
        if line:
            check(ab.get("line") == line,
                  "%s: line %s, want %d" % (what, ab.get("line"), line))
        check(ab.get("access") == access,
              "%s: access %s, want %s" % (what, ab.get("access"), access))
        want = "error: aborted at insn %d (abort_access.bpf.c:%d): %s: %s\n" % (
            ab["insn"], ab["line"] or 0, reason, text)
        check(want in txt, "%s: text %r, want %r" % (what, txt, want))
        check(objs[0]["error"] + "\n" == want[len("error: "):],
              "%s: JSON error %r" % (what, objs[0]["error"]))
        if first is None:
            first = ab
        check(ab == first, "%s: differs from the interpreter: %s vs %s"
              % (what, ab, first))
# The 58-byte packet of short_read does not abort: no abort object.
for e in ("interp", "jit", "jit-checked"):
    objs = [json.loads(l) for l in open("%s/short.%s.json" % (d, e))]
    check(len(objs) == 2 and "abort" not in objs[1] and objs[1]["error"] is None,
          "short --engine %s: the 58-byte packet: %s" % (e, objs[1:]))
print("RESULT passed=%d failed=%d" % (ok, bad))
sys.exit(1 if bad else 0)
PY
