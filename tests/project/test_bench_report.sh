#!/bin/sh
# bench/report --quick runs every benchmark and writes REPORT.md with each
# table (figures and ratios that are numbers, headroom beside the kernel)
# and PNG charts (the figures themselves are the benchmarks', never
# asserted here). Needs root for the kernel's columns. Prints a RESULT.
BUILD=${BUILD:-build}
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: bench/report's kernel figures need root"
	[ "${HEADROOM_REQUIRE_KERNEL:-0}" = 1 ] && exit 1
	exit 77
fi
pass=0
fail=0
check() {
	if eval "$1"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL tests/project/test_bench_report.sh: $2"
	fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$BUILD/bench/report" --quick --out "$tmp" 2>&1)
rc=$?
md=$tmp/REPORT.md
check '[ $rc -eq 0 ]' "exit $rc: $out"
check '[ -s "$md" ]' "no $md"
[ -s "$md" ] || md=/dev/null

# The lines of the section whose heading starts "## $1".
section() {
	awk -v h="## $1" 'index($0, h) == 1 { on = 1; next } /^## / { on = 0 } on' "$md"
}
# Whether section $1 has a line matching the extended regex $2.
has() {
	section "$1" | grep -Eq "$2"
}
n='-?[0-9]+\.[0-9]+'
c="$n \\[$n $n\\]"

check 'has Machine "^\| CPUs online \(nproc\) \| [1-9][0-9]* \|$"' "no nproc"
check 'has Machine "^\| kernel \| Linux [0-9]+\.[0-9]+"' "no kernel version"
check 'has Machine "^\| CPU model \| [^|]*[a-zA-Z]"' "no CPU model"
check 'has Machine "^\| date \| 20[0-9-]+ [0-9:]+ UTC \|$"' "no date"
check 'has Machine "^\| git commit \| [0-9a-f]{7,}"' "no git commit"
check 'has Machine "^\| load average before \| [0-9]+\.[0-9]+ "' "no load average"

# A host whose kernel refuses live-frames test runs (EPERM) has no kernel
# figure for a pipeline whose packets they send: its row says so, and the
# kernel cells of the other tables are '-' too. Elsewhere, numbers.
lfk="no kernel figure: the live-frames test run that sends its packets failed"
if section "bench/datapath" | grep -qF "$lfk"; then
	kc="($c|-)"
	kn="($n|-)"
	echo "note: this host's kernel refuses live-frames test runs: kernel cells may be '-'"
else
	kc=$c
	kn=$n
fi
for p in drop veth-drop-1 veth-drop-2 veth-drop-100 veth-tx-1 veth-tx-2 \
	veth-tx-100 cpumap meta meta-base; do
	check 'has "bench/datapath" "^\| $p \| $c \| $c \| $c \| $n \|" ||
	       has "bench/datapath" "^\| $p \| $c \| - \| - \| $n \| $lfk \|$"' \
		"datapath: no row '$p' with headroom, kernel and ratio: $(section bench/datapath)"
done
check 'has "bench/datapath" "^\| cpumap-pass \| $c \| - \| - \| $n \|"' \
	"datapath: no row cpumap-pass"
for f in 1 2 100; do
	check 'has "veth pair" "^\| $f \| $c \| $kc \| $kn \| $c \| $kc \| $kn \|$"' \
		"veth table: no row for $f flows: $(section 'veth pair')"
done
for p in meta meta-base; do
	check 'has metadata "^\| $p \| $c \| $kc \| $kn \|$"' "metadata: no row $p"
done
check 'has metadata "^\| metadata cost, ns a packet \| $n \| ($n|-) \| - \|$"' \
	"metadata: no cost row: $(section metadata)"
check 'has cpumap "^\| cpumap \| $c \| $kc \| $kn \| $c \|$"' \
	"cpumap: no row cpumap: $(section cpumap)"
# rps: the kernel's figure is '-' where RPS did not steer (the reason is
# in the sentence under the table).
check 'has "bench/datapath" "^\| rps \| $c \| ($c|-) \| ($c|-) \| $n \|"' \
	"datapath: no row rps: $(section bench/datapath)"
check 'has cpumap "^\| cpumap-pass \| $c \| - \| - \| $c \|$"' \
	"cpumap: no row cpumap-pass: $(section cpumap)"
check 'has cpumap "^\| rps \| $c \| ($c|-) \| ($n|-) \| $c \|$"' \
	"cpumap: no row rps: $(section cpumap)"
check 'has cpumap "^In headroom, cpumap-pass \(skb built on the remote worker\) against rps \(skb built on the RX worker\): $n against $n Mpps delivered \(cpumap-pass / rps $n\); the RX worker busy -?[0-9]+\.[0-9] against -?[0-9]+\.[0-9] ns a packet"' \
	"cpumap: no comparison of cpumap-pass and rps: $(section cpumap)"
check '! section cpumap | grep -q "not a bench/datapath pipeline yet"' \
	"cpumap: still says rps is not a pipeline"
for p in drop parse swap count; do
	check 'has "bench/engines" "^\| $p \| $c \| [^|]+ \| $c \| $c \| $n \|$"' \
		"engines: no row '$p' with headroom, kernel and ratio: $(section bench/engines)"
done
for p in hints meta; do
	check 'has "bench/engines" "^\| $p \| $c \|"' "engines: no row '$p'"
done
# Every map row measured on both sides, and a good number of them.
rows=$(section "bench/maps" | grep -c '^| [a-z_]* | [a-z]* | [0-9]')
bad=$(section "bench/maps" | grep '^| [a-z_]* | [a-z]* | [0-9]' |
	grep -Ev "^\| [a-z_]+ \| (lookup|update) \| [12] \| $c \| $c \| $n \| +\|$")
check '[ "$rows" -ge 12 ] && [ -z "$bad" ]' \
	"maps: $rows rows, not all numbers: $bad"
rows=$(section "bench/load" | grep -c '^| [a-z-]* | [0-9]')
bad=$(section "bench/load" | grep '^| [a-z-]* | [0-9]' |
	grep -Ev "^\| [a-z-]+ \| [0-9]+ \|( $c \|){5}$")
check '[ "$rows" -ge 5 ] && [ -z "$bad" ]' \
	"load: $rows rows, not all numbers: $bad"

# A row's notes: none, but for a host whose kernel refuses live frames.
lf='( +| the kernel refuses live frames here: sent by AF_PACKET +)'
check 'has "bench/devices" "^\| kernel veth \| $c \| - \| $n \| $n \|$lf\|$"' \
	"devices: no kernel veth row: $(section bench/devices)"
for p in afxdp-rx afpacket-rx tap-rx afxdp-tx afpacket-tx tap-tx; do
	check 'has "bench/devices" "^\| $p \| $c \| $c \| $n \| $n \|$lf\|$"' \
		"devices: no row '$p' with rate, ratio, sent and delivered: $(section bench/devices)"
done

for png in datapath veth engines maps devices; do
	magic=$(od -An -tx1 -N8 "$tmp/$png.png" 2>/dev/null | tr -d ' \n')
	check '[ "$magic" = 89504e470d0a1a0a ]' "$png.png is not a PNG ($magic)"
	check 'grep -qF "]($png.png)" "$md"' "REPORT.md does not show $png.png"
done
check '[ ! -e "$tmp/REPORT.md.tmp" ]' "REPORT.md.tmp left behind"

bad=$("$BUILD/bench/report" --quik 2>&1)
check '[ $? -eq 2 ] && printf "%s" "$bad" | grep -q -- "--quick"' \
	"a wrong option does not fail with a usage naming --quick: $bad"
bad=$("$BUILD/bench/report" --out 'a"b' 2>&1)
check '[ $? -eq 2 ] && printf "%s" "$bad" | grep -qF "a\"b"' \
	"an --out with a quote is not refused naming it: $bad"
echo "RESULT passed=$pass failed=$fail"
