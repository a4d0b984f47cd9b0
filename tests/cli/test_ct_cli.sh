#!/bin/sh
# headroom test --ct: entries of the conntrack table the ct kfuncs find.
# A lookup (progs/helpers/ct.bpf.c, its request in the packet) finds the
# entry --ct gives, with its mark and status, and misses (-ENOENT)
# without it; an entry a packet's run inserts is found by the next's; a bad spec exits 2 with a one-line error naming the word;
# --kernel refuses --ct. Prints a RESULT line.
BUILD=${BUILD:-build}
make --no-print-directory BUILD="$BUILD" -j2 "$BUILD/bin/headroom" \
	"$BUILD/progs/ct.o" >/dev/null 2>&1
H=$BUILD/bin/headroom
P=$BUILD/progs/ct.o:xdp_ct
ok=0
bad=0
check() {
	if [ "$2" = 0 ]; then ok=$((ok + 1)); else
		bad=$((bad + 1)); echo "FAIL tests/cli/test_ct_cli.sh: $1"; fi
}
zeros() {
	printf '00%.0s' $(seq "$1")
}

# After the Ethernet header: a lookup (op 1) of the IPv4 TCP tuple
# 10.0.0.2:1234 -> 10.0.0.1:80, 16-byte options, the current namespace.
req="01000000""0c000000""10000000"$(zeros 28)
req="$req""0a000002""0a000001""04d20050"$(zeros 28)
req="$req""ffffffff""00000000""06000000""00000000"$(zeros 8)
hex=$(zeros 14)$req$(zeros 400)
# The packet's hex bytes at offset $2 (length $3) of the JSON line $1.
field() {
	echo "$1" | sed 's/.*"data":"\([0-9a-f]*\)".*/\1/' |
		cut -c $(($2 * 2 + 1))-$((($2 + $3) * 2))
}

out=$("$H" test "$P" --hex "$hex" --json \
	--ct "tcp 10.0.0.2:1234 -> 10.0.0.1:80 established mark 7")
check "a run with --ct (exit $?)" $?
# found (request offset 104), status and mark of the view (128, 136).
[ "$(field "$out" 118 4)" = 01000000 ]
check "lookup finds the --ct entry: $(field "$out" 118 4)" $?
[ "$(field "$out" 142 8)" = 0e00000000000000 ]
check "status CONFIRMED|SEEN_REPLY|ASSURED: $(field "$out" 142 8)" $?
[ "$(field "$out" 150 4)" = 07000000 ]
check "mark 7: $(field "$out" 150 4)" $?

out=$("$H" test "$P" --hex "$hex" --json)
# opts.error: request offset 84.
[ "$(field "$out" 118 4)" = 00000000 ] &&
	[ "$(field "$out" 98 4)" = feffffff ]
check "without --ct the table is empty: -ENOENT" $?

out=$("$H" test "$P" --hex "$hex" --json \
	--ct "udp [fd00::2]:53 -> [fd00::1]:53 timeout 30 zone 3" \
	--ct "tcp 10.0.0.2:1234 -> 10.0.0.1:80")
[ "$(field "$out" 118 4)" = 01000000 ]
check "two --ct, IPv6 and zone among them" $?

# An entry one packet's run inserts (op 2) the next packet's finds.
ins=$(zeros 14)02${req#01}$(zeros 400)
out=$("$H" test "$P" --hex "$ins" --hex "$hex" --json | tail -1)
[ "$(field "$out" 118 4)" = 01000000 ]
check "a lookup finds what the run before inserted" $?

bad_spec() {
	err=$("$H" test "$P" --hex "$hex" --ct "$1" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 2 ] && [ "$(echo "$err" | wc -l)" = 1 ] &&
		echo "$err" | grep -q "'$2' not understood"
	check "--ct '$1': exit $rc, '$err'" $?
}
bad_spec "icmp 10.0.0.2:1 -> 10.0.0.1:2" icmp
bad_spec "tcp 10.0.0.2:1 => 10.0.0.1:2" "=>"
bad_spec "tcp 10.0.0.2:65536 -> 10.0.0.1:2" "10.0.0.2:65536"
bad_spec "tcp 10.0.0.2:1 -> [fd00::1]:2" "\[fd00::1\]:2"
bad_spec "udp 10.0.0.2:1 -> 10.0.0.1:2 established" established
bad_spec "tcp 10.0.0.2:1 -> 10.0.0.1:2 mark 4294967296" 4294967296
bad_spec "tcp 10.0.0.2:1 -> 10.0.0.1:2 timeout 0" 0
bad_spec "tcp 10.0.0.2:1 -> 10.0.0.1:2 zone 65536" 65536
bad_spec "tcp 10.0.0.2:1 -> 10.0.0.1:2 status bogus" bogus
bad_spec "tcp 10.0.0.2:1 -> 10.0.0.1:2 colour 3" colour

err=$("$H" test "$P" --hex "$hex" --ct "tcp 10.0.0.2:1 -> 10.0.0.1:2" \
	--ct "tcp 10.0.0.1:2 -> 10.0.0.2:1" 2>&1 >/dev/null)
rc=$?
[ "$rc" = 2 ] && echo "$err" | grep -q "there already"
check "a second entry on the first's reply tuple: exit $rc, '$err'" $?

err=$("$H" test "$P" --hex "$hex" --kernel \
	--ct "tcp 10.0.0.2:1 -> 10.0.0.1:2" 2>&1 >/dev/null)
rc=$?
[ "$rc" = 2 ] && echo "$err" | grep -q "conntrack table"
check "--kernel refuses --ct: exit $rc" $?

echo "RESULT passed=$ok failed=$bad"
[ "$bad" = 0 ]
