#!/bin/sh
# headroom test --user-ringbuf: samples for a BPF_MAP_TYPE_USER_RINGBUF
# before the first packet (progs/helpers/xdp_user_ringbuf.bpf.c drains
# them and says how many in the packet). A file of hex lines (comments,
# blank lines, '-' for an empty sample) and an inline sample reach the
# program in order, the first packet's drain takes all four and the
# second none; what the callback saw is in the map dump; a bad line
# exits 2 naming the file and line, as do a missing map, a map of another
# type, a sample larger than the ring, more than the ring holds, no '='
# and an unreadable file; --help says it; headroom check says it cannot
# tell; with root, --kernel gives the kernel's ring the same samples and
# agrees. Prints a RESULT line.
BUILD=${BUILD:-build}
make --no-print-directory BUILD="$BUILD" -j2 "$BUILD/bin/headroom" \
	"$BUILD/progs/xdp_user_ringbuf.o" >/dev/null 2>&1
H=$BUILD/bin/headroom
P=$BUILD/progs/xdp_user_ringbuf.o
D=$(mktemp -d /tmp/hr-urb-cli-XXXXXX)
trap 'rm -rf "$D"' EXIT
ok=0
bad=0
check() {
	if [ "$2" = 0 ]; then ok=$((ok + 1)); else
		bad=$((bad + 1)); echo "FAIL tests/cli/test_user_ringbuf_cli.sh: $1"; fi
}
# Ethernet header, then struct ur_case (40 bytes) zeroed: drain urb.
hex=$(printf '00%.0s' $(seq 54))
# The packet's hex bytes at offset $2 (length $3) of the JSON line $1.
field() {
	echo "$1" | sed 's/.*"data":"\([0-9a-f]*\)".*/\1/' |
		cut -c $(($2 * 2 + 1))-$((($2 + $3) * 2))
}

printf '# three samples\n68656c6c6f\n\n  -\n01:02:03 04-05 06070809\n' \
	>"$D/s.txt"
out=$("$H" test "$P" --hex "$hex" --hex "$hex" --json \
	--user-ringbuf urb=@"$D/s.txt" --user-ringbuf urb=aabb)
check "a run with --user-ringbuf (exit $?)" $?
first=$(echo "$out" | sed -n 1p)
second=$(echo "$out" | sed -n 2p)
# ret at 14 + 24, calls at 14 + 32.
[ "$(field "$first" 38 8)" = 0400000000000000 ] &&
	[ "$(field "$first" 46 8)" = 0400000000000000 ]
check "the first packet drains 4: $(field "$first" 38 16)" $?
[ "$(field "$second" 38 16)" = 00000000000000000000000000000000 ]
check "the second finds the ring empty: $(field "$second" 38 16)" $?

dump=$("$H" test "$P" --hex "$hex" --user-ringbuf urb=@"$D/s.txt" \
	--dump-maps)
echo "$dump" | grep -q "\['h','e','l','l','o',\]" &&
	echo "$dump" | grep -q "size = (__u32)9,.*\[1,2,3,4,5,6,7,8,9,\]"
check "the callback saw the samples' bytes" $?

fails() {
	what=$1
	want=$2
	shift 2
	err=$("$H" test "$P" --hex "$hex" "$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 2 ] && echo "$err" | grep -q -- "$want"
	check "$what: exit $rc, '$err'" $?
}
printf 'aa\nzz\n' >"$D/bad.txt"
fails "a bad line" "bad.txt:2: not hex" --user-ringbuf urb=@"$D/bad.txt"
fails "no such map" "no map 'nope'" --user-ringbuf nope=aa
fails "another type" "'seen' is a BPF_MAP_TYPE_ARRAY" --user-ringbuf seen=aa
fails "no '='" "want NAME=@FILE" --user-ringbuf urb
fails "no file" "No such file" --user-ringbuf urb=@"$D/none.txt"
fails "odd hex" "not hex" --user-ringbuf urb=abc
big=$(printf '00%.0s' $(seq 4089))
fails "larger than the ring" "4089 bytes) does not fit in the 4096-byte" \
	--user-ringbuf urb="$big"
line=$(printf '00%.0s' $(seq 56))
for i in $(seq 65); do echo "$line"; done >"$D/full.txt"
fails "more than the ring holds" "sample 65: the 4096-byte ring is full" \
	--user-ringbuf urb=@"$D/full.txt"

"$H" test --help | grep -q -- "--user-ringbuf NAME=@FILE"
check "--help says --user-ringbuf" $?

out=$("$H" check "$P")
rc=$?
[ "$rc" = 6 ] && echo "$out" | grep -q "bpf_user_ringbuf_drain#209"
check "headroom check cannot tell: exit $rc, '$out'" $?

if [ "$(id -u)" = 0 ]; then
	out=$("$H" test "$P" --hex "$hex" --hex "$hex" --kernel \
		--user-ringbuf urb=@"$D/s.txt" --user-ringbuf urb=aabb)
	rc=$?
	[ "$rc" = 0 ] && echo "$out" | grep -q "2 packets compared, 0 differ"
	check "--kernel with --user-ringbuf agrees: exit $rc" $?
else
	echo "note: not root: --kernel with --user-ringbuf not compared"
	[ "${HEADROOM_REQUIRE_KERNEL:-0}" = 1 ]
	check "HEADROOM_REQUIRE_KERNEL=1 without root" $((1 - $?))
fi

echo "RESULT passed=$ok failed=$bad"
[ "$bad" = 0 ]
