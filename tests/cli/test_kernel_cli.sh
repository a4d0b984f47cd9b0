#!/bin/sh
# headroom test --kernel (issue 14 item 4): the same packets through the
# live kernel's BPF_PROG_TEST_RUN. A program that agrees (XDP and tc) exits
# 0 saying so; one whose return value is random differs on every packet
# (exit 4, each packet named, in text and JSON); one that agrees on every
# packet but leaves a random number in its map differs in the map; a tc
# program's context out (given one in) is the kernel's; one the
# kernel's verifier refuses differs with the kernel's reason and line;
# --set, --map and --map-size reach the kernel's copy too (a step and
# entries that make the maps differ unless they do); a hint program,
# --pin-dir and --map into a per-CPU map are refused saying why (exit 2),
# and so is a user without privileges. Prints a RESULT line.
BUILD=${BUILD:-build}
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: headroom test --kernel needs root"
	[ "${HEADROOM_REQUIRE_KERNEL:-0}" = 1 ] && exit 1
	exit 77
fi
make --no-print-directory BUILD="$BUILD" -j2 "$BUILD/bin/headroom" \
	"$BUILD/progs/kernel_differs.o" "$BUILD/progs/run_tc.o" >/dev/null 2>&1
H=$BUILD/bin/headroom
P=$BUILD/progs
D=$(mktemp -d /tmp/hr-kernel-cli-XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
X=0200000000020200000000010800450000140000000040110000c0a80001c0a80002000000000000000000000000000000000000000000000000
ok=0
bad=0
check() { # what, condition already evaluated as $?
	if [ "$2" = 0 ]; then ok=$((ok + 1)); else
		bad=$((bad + 1)); echo "FAIL tests/cli/test_kernel_cli.sh: $1"; fi
}
run() { # name, args...: stdout+stderr in $D/$1, exit code in $D/$1.rc
	n=$1; shift
	"$H" test "$@" > "$D/$n" 2>&1
	echo $? > "$D/$n.rc"
}
run agree "$P/bench_parse.o" --hex $X --hex ${X}00 --kernel
run agree_tc "$P/bench_tc.o" --hex $X --kernel
echo '{"mark": 7, "priority": 3, "cb": [1, 2, 3, 4, 5], "tstamp": 9}' > "$D/ctx.json"
run agree_ctx "$P/run_tc.o" --hex $X --hex $X --ctx-in "$D/ctx.json" --kernel
run verdict "$P/kernel_differs.o:random_verdict" --hex $X --hex $X --kernel
run verdict_json "$P/kernel_differs.o:random_verdict" --hex $X --kernel --json
run store "$P/kernel_differs.o:random_store" --hex $X --kernel
run refused "$BUILD/verifier/pkt_nocheck.o:bad_pkt_nocheck" --hex $X --kernel
run hints "$P/dev_hints.o" --hex $X --kernel
run opts "$P/kernel_differs.o:options" --hex $X --hex $X --kernel --dump-maps \
	--set ret_code=3 --set step=5 --map which=00000000:07000000 \
	--map counts=07000000:0a00000000000000 --map-size counts=16
run pin "$P/kernel_differs.o:options" --hex $X --kernel --pin-dir "$D"
run percpu "$P/kernel_differs.o:options" --hex $X --kernel \
	--map per_cpu=00000000:0100000000000000
setpriv --reuid=65534 --regid=65534 --clear-groups "$H" test \
	"$P/bench_parse.o" --hex $X --kernel > "$D/nobody" 2>&1
echo $? > "$D/nobody.rc"
has() { grep -q -- "$2" "$D/$1"; }
rc() { [ "$(cat "$D/$1.rc")" = "$2" ]; }
rc agree 0; check "agreeing XDP exits $(cat $D/agree.rc)" $?
has agree "kernel: 2 packets compared, 0 differ; maps agree"; check "agree summary" $?
rc agree_tc 0; check "agreeing tc exits $(cat $D/agree_tc.rc)" $?
rc agree_ctx 0; check "tc context in and out as the kernel's: $(cat $D/agree_ctx)" $?
has agree_ctx "2 packets compared, 0 differ"; check "ctx compared" $?
rc verdict 4; check "random verdict exits $(cat $D/verdict.rc)" $?
[ "$(grep -c '^packet [01]: retval differs: kernel ' "$D/verdict")" = 2 ]
check "both packets' return values named: $(cat $D/verdict)" $?
has verdict "2 packets compared, 2 differ"; check "differ summary" $?
rc verdict_json 4; check "--json exits 4" $?
grep -q '^{"index":0,"differs":"retval","kernel":"[0-9]*","headroom":"[0-9]*"}$' \
	"$D/verdict_json"; check "JSON difference line: $(cat $D/verdict_json)" $?
rc store 4; check "random map exits $(cat $D/store.rc)" $?
has store "map seen key 00000000 differs: kernel "; check "map entry named" $?
has store "1 packets compared, 0 differ; maps differ"; check "packets agree, maps differ" $?
rc refused 4; check "verifier refusal exits $(cat $D/refused.rc)" $?
has refused "the kernel does not load 'bad_pkt_nocheck': invalid access to packet, off=12 size=1"
check "kernel's reason: $(cat $D/refused)" $?
has refused "pkt_nocheck.bpf.c:8"; check "kernel's line" $?
rc hints 2; check "hint program exits $(cat $D/hints.rc)" $?
has hints "not compared: the program reads RX hints"; check "hints why" $?
rc opts 0; check "--set, --map, --map-size on both sides: $(cat $D/opts)" $?
[ "$(grep -c '^packet [01]: XDP_TX retval 3$' "$D/opts")" = 2 ]
check "--set ret_code=3 in headroom" $?
has opts "2 packets compared, 0 differ; maps agree"; check "opts summary" $?
has opts "max_entries 16"; check "--map-size taken" $?
has opts "key: (__u32)7  value: (__u64)20"
check "10 + 2 x step 5 = 20 in headroom, and so in the kernel" $?
rc pin 2; check "--pin-dir exits $(cat $D/pin.rc)" $?
has pin "not compared: --pin-dir"; check "--pin-dir why" $?
rc percpu 2; check "--map into a per-CPU map exits $(cat $D/percpu.rc)" $?
has percpu "--map per_cpu: a BPF_MAP_TYPE_PERCPU_ARRAY map's entries are headroom's alone"
check "--map per-CPU why: $(cat $D/percpu)" $?
rc nobody 2; check "unprivileged exits $(cat $D/nobody.rc)" $?
has nobody "needs root"; check "unprivileged why: $(cat $D/nobody)" $?
echo "RESULT passed=$ok failed=$bad"
[ "$bad" = 0 ]
