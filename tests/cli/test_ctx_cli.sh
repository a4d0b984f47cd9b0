#!/bin/sh
# headroom test's context in and out (issue 14 item 5), as bpftool prog
# run's ctx_in/ctx_out: progs/cli/run_tc.bpf.c sets skb->mark to 0xdead on
# a packet without metadata. The field it set is shown with each packet;
# --ctx-in fields reach the program and --ctx-out has every field the
# kernel copies back; tc --meta fails each packet with the kernel's rule
# (6.18's skb test run takes no metadata); fields the kernel refuses are
# named; XDP's rx_queue_index rule holds. Prints a RESULT line.
BUILD=${BUILD:-build}
make --no-print-directory BUILD="$BUILD" -j2 "$BUILD/bin/headroom" \
	"$BUILD/progs/run_tc.o" "$BUILD/progs/bench_parse.o" \
	"$BUILD/progs/xdp_frags.o" >/dev/null 2>&1
H=$BUILD/bin/headroom
T=$BUILD/progs/run_tc.o
X=$BUILD/progs/bench_parse.o
F=$BUILD/progs/xdp_frags.o:frag_pull
D=$(mktemp -d /tmp/hr-ctx-cli-XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
P=0200000000020200000000010800450000140000000040110000c0a80001c0a80002000000000000000000000000000000000000000000000000
ok=0
bad=0
check() {
	if [ "$2" = 0 ]; then ok=$((ok + 1)); else
		bad=$((bad + 1)); echo "FAIL tests/cli/test_ctx_cli.sh: $1"; fi
}
out=$("$H" test "$T" --hex $P 2>&1)
echo "$out" | grep -q '^  ctx set: {"mark":57005}$'
check "the mark the tc program set: $out" $?
echo '{"mark": 7, "priority": 3, "cb": [1, 2, 3, 4, 5]}' > "$D/in.json"
out=$("$H" test "$T" --hex $P --hex $P --ctx-in "$D/in.json" \
	--ctx-out "$D/out.json" --json 2>&1)
echo "$out" | grep -q '"ctx":{"mark":57005}'
check "changed fields in JSON: $out" $?
[ "$(wc -l < "$D/out.json")" = 2 ]
check "one --ctx-out line a packet" $?
grep -q '^{"index":1,"mark":57005,"priority":3,.*"cb":\[1,2,3,4,5\].*"wire_len":58' \
	"$D/out.json"
check "ctx_in fields kept, wire_len the packet's: $(cat "$D/out.json")" $?
out=$("$H" test "$T" --hex $P --meta 01020304 2>&1)
rc=$?
[ $rc = 3 ] && echo "$out" | grep -q "takes no metadata.*-EINVAL"
check "tc --meta: the kernel's rule, exit 3 ($rc): $out" $?
echo '{"data_meta": 4}' > "$D/bad.json"
out=$("$H" test "$T" --hex $P --ctx-in "$D/bad.json" 2>&1)
rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "'data_meta' may not be set"
check "a field the skb test run refuses ($rc): $out" $?
echo '{"mark": "x"}' > "$D/bad2.json"
out=$("$H" test "$T" --hex $P --ctx-in "$D/bad2.json" 2>&1)
[ $? = 2 ] && echo "$out" | grep -q "mark"
check "a value that is no number: $out" $?
echo '{"rx_queue_index": 1}' > "$D/xq.json"
out=$("$H" test "$X" --hex $P --ctx-in "$D/xq.json" 2>&1)
[ $? = 2 ] && echo "$out" | grep -q "rx_queue_index needs ingress_ifindex"
check "xdp rx_queue_index without ingress_ifindex: $out" $?
# 6.18: data_end below the packet's size is the linear part's end, the
# rest in fragments (xdp.frags); past it the kernel's -EINVAL.
echo '{"data_end": 20}' > "$D/lin.json"
out=$("$H" test "$F" --hex $P --hex 0000000000000000000000000800140000000000 \
	--ctx-in "$D/lin.json" --ctx-out "$D/lin.out" 2>&1)
grep -q '"index":0,"data":0,"data_end":20' "$D/lin.out" &&
	echo "$out" | grep -q '^packet 0: .*retval 122$' &&
	echo "$out" | grep -q '^packet 1: .*retval 1$'
check "xdp data_end as the linear size: $out $(cat "$D/lin.out")" $?
echo '{"data_end": 100}' > "$D/far.json"
out=$("$H" test "$F" --hex $P --ctx-in "$D/far.json" 2>&1)
echo "$out" | grep -q "'data_end' is past the end of data_in"
check "xdp data_end past the packet: $out" $?
echo "RESULT passed=$ok failed=$bad"
[ "$bad" = 0 ]
