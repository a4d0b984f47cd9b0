#!/bin/sh
# headroom test with per-packet RX hints (issue 14 item 1): progs/dev/
# dev_hints.o copies each metadata kfunc's return value and hint into its
# metadata. Over --hex packets with a hints file, each packet's metadata
# must hold the hints given, -ENODATA (-61) where the file has none,
# -EOPNOTSUPP (-95) with a --device profile lacking the hint; the pcapng
# --out must carry the hints in comments and replay to the same results;
# bad hints name file:line and key. Prints a RESULT line.
BUILD=${BUILD:-build}
make --no-print-directory BUILD="$BUILD" -j2 "$BUILD/bin/headroom" \
	"$BUILD/progs/dev_hints.o" >/dev/null 2>&1
H=$BUILD/bin/headroom
O=$BUILD/progs/dev_hints.o
D=$(mktemp -d /tmp/hr-hints-cli-XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
P=0200000000020200000000010800450000140000000040110000c0a80001c0a80002
printf '%s\n' '{"hash":305419896,"rss_type":"XDP_RSS_TYPE_L4_IPV4_UDP","timestamp":1000}' \
	'' '{"index":2,"vlan_tci":7,"vlan_proto":"0x88a8"}' > "$D/h.jsonl"
"$H" test "$O" --hex $P --hex $P --hex $P --hints "$D/h.jsonl" --json \
	--out "$D/o.pcapng" > "$D/a.json" 2> "$D/a.err"
echo "rc $?" > "$D/a.rc"
"$H" test "$O" --hex $P --hex $P --hex $P --hints "$D/h.jsonl" --json \
	--device timestamp > "$D/b.json" 2>&1
"$H" test "$O" --pcap "$D/o.pcapng" --json > "$D/c.json" 2>&1
printf '{"hash":1}\n{"hsh":2}\n' > "$D/bad.jsonl"
"$H" test "$O" --hex $P --hints "$D/bad.jsonl" > "$D/bad.out" 2>&1
echo "rc $?" >> "$D/bad.out"
"$H" test "$O" --hex $P --repeat 99999999999 > "$D/rep.out" 2>&1
echo "rc $?" >> "$D/rep.out"
python3 - "$D" <<'PY'
import json, struct, sys
d = sys.argv[1]
ok = bad = 0
def check(cond, what):
    global ok, bad
    if cond:
        ok += 1
    else:
        bad += 1
        print("FAIL tests/cli/test_hints_cli.sh:", what)
def meta(line):
    m = bytes.fromhex(line["meta"])
    # struct dev_hints_meta: ret_ts, ret_hash, ret_vlan, hash, rss_type,
    # vlan_proto (network order), vlan_tci, ts
    return struct.unpack("<iiiIIHHQ", m[:32])
def load(name):
    try:
        return [json.loads(l) for l in open(f"{d}/{name}") if l.strip()]
    except Exception as e:
        check(False, f"{name}: not JSON lines: {e}")
        return []
a = load("a.json")
check(open(f"{d}/a.rc").read().strip() == "rc 0", "exit code of the run")
check(len(a) == 3, "three packets")
if len(a) == 3:
    m0, m1, m2 = (meta(x) for x in a)
    check(m0[0] == 0 and m0[7] == 1000, f"packet 0 timestamp {m0}")
    check(m0[1] == 0 and m0[3] == 305419896 and m0[4] == 0x29,
          f"packet 0 hash {m0}")
    check(m0[2] == -61, f"packet 0 vlan -ENODATA {m0}")
    check(m1[0] == -61 and m1[1] == -61 and m1[2] == -61,
          f"packet 1 has no hints: -ENODATA {m1}")
    check(m2[2] == 0 and m2[5] == 0xa888 and m2[6] == 7,
          f"packet 2 vlan {m2}")
    check(m2[0] == -61 and m2[1] == -61, f"packet 2 others {m2}")
    check(a[0].get("hints", {}).get("hash") == 305419896, "hints shown")
b = load("b.json")
if len(b) == 3:
    m0 = meta(b[0])
    check(m0[0] == 0 and m0[7] == 1000, f"--device timestamp keeps ts {m0}")
    check(m0[1] == -95 and m0[2] == -95, f"-EOPNOTSUPP without it {m0}")
    check(b[0].get("device") == "timestamp", "device shown")
else:
    check(False, "--device run: three packets")
c = load("c.json")
check([x["meta"] for x in c] == [x["meta"] for x in a],
      "the pcapng --out replays to the same metadata")
check(all(x["data"] == y["data"] for x, y in zip(a, c)), "same data")
bo = open(f"{d}/bad.out").read()
check("bad.jsonl:2:" in bo and '"hsh"' in bo and "rc 2" in bo,
      f"bad hints named: {bo!r}")
ro = open(f"{d}/rep.out").read()
check("99999999999" in ro and "rc 2" in ro, f"--repeat range: {ro!r}")
print(f"RESULT passed={ok} failed={bad}")
PY
