#!/bin/sh
# headroom test names the source line and the access of an abort (issue 14
# item 3; tests/cli/test_abort_access.sh checks each region) and
# warns when headroom check predicts the kernel would refuse the program:
# tests/verifier/pkt_short.bpf.c's bad_pkt_short reads past the byte it
# checked (line 11), which a 14-byte packet makes an out-of-bounds load.
# Prints a RESULT line.
BUILD=${BUILD:-build}
make --no-print-directory BUILD="$BUILD" -j2 "$BUILD/bin/headroom" \
	"$BUILD/verifier/pkt_short.o" >/dev/null 2>&1
H=$BUILD/bin/headroom
O=$BUILD/verifier/pkt_short.o
P=0102030405060708090a0b0c0d0e
ok=0
bad=0
check() {
	if [ "$2" = 0 ]; then ok=$((ok + 1)); else
		bad=$((bad + 1)); echo "FAIL tests/cli/test_abort_cli.sh: $1"; fi
}
out=$("$H" test "$O:bad_pkt_short" --hex $P 2>/dev/null)
echo "$out" | grep -q '^packet 0: XDP_ABORTED retval 0 error: aborted at insn [0-9]* (pkt_short.bpf.c:11): out-of-bounds load: load of 1 byte at packet offset 23, packet is 14 bytes (data 0..14), 10 bytes past data_end$'
check "abort with its source line: $out" $?
out=$("$H" test "$O:bad_pkt_short" --hex $P --json 2>/dev/null)
echo "$out" | grep -q '"error":"aborted at insn [0-9]* (pkt_short.bpf.c:11): out-of-bounds load: load of 1 byte at packet offset 23, packet is 14 bytes (data 0..14), 10 bytes past data_end"'
check "the same in JSON: $out" $?
err=$("$H" test "$O:bad_pkt_short" --hex $P 2>&1 >/dev/null)
echo "$err" | grep -q "warning: the kernel's verifier would reject 'bad_pkt_short' at insn [0-9]* (pkt_short.bpf.c:11): invalid access to packet"
check "verifier warning: $err" $?
err=$("$H" test "$O:ok_pkt_short" --hex $P 2>&1 >/dev/null)
[ -z "$err" ]
check "no warning for the accepted twin: $err" $?
echo "RESULT passed=$ok failed=$bad"
[ "$bad" = 0 ]
