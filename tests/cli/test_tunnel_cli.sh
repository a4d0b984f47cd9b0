#!/bin/sh
# headroom test --tunnel (issue 17): the tunnel metadata a tc test run's
# packets arrive with reaches bpf_skb_get_tunnel_key/opt
# (progs/helpers/tc_tunnel_key.bpf.c's tc_tunnel_rx writes what it read
# into the packet), IPv4 and IPv6; what bpf_skb_set_tunnel_key set is
# shown ('tunnel set:', JSON "tunnel_set"); bad specs fail with exit 2 and
# a line naming the word; XDP programs and --kernel refuse it. Prints a
# RESULT line.
BUILD=${BUILD:-build}
make --no-print-directory BUILD="$BUILD" -j2 "$BUILD/bin/headroom" \
	"$BUILD/progs/tc_tunnel_key.o" "$BUILD/progs/bench_parse.o" \
	>/dev/null 2>&1
H=$BUILD/bin/headroom
T=$BUILD/progs/tc_tunnel_key.o
X=$BUILD/progs/bench_parse.o
D=$(mktemp -d /tmp/hr-tunnel-cli-XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
# Ethernet to 0x88b5, then a struct bpf_tunnel_key (id 0x42, remote
# 192.0.2.1, local 192.0.2.2, tos 0x1c, ttl 64; IPv4 in host order), then
# zeroes to 346 bytes.
KEY=42000000010200c00000000000000000000000001c40000000000000020200c0000000000000000000000000
P=02020202020202020202020288b5$KEY$(printf '%0576d' 0)
ok=0
bad=0
check() {
	if [ "$2" = 0 ]; then ok=$((ok + 1)); else
		bad=$((bad + 1)); echo "FAIL tests/cli/test_tunnel_cli.sh: $1"; fi
}
# tc_tunnel_rx: cb[0] the key size selector (0: 44 bytes), cb[1] flags
# (16: BPF_F_TUNINFO_FLAGS, 17: with IPv6), cb[2] the options selector
# (8: 16 bytes); answers in cb[0], cb[1].
echo '{"cb": [0, 16, 8, 0, 0]}' > "$D/v4.json"
echo '{"cb": [0, 17, 8, 0, 0]}' > "$D/v6.json"
out=$("$H" test "$T:tc_tunnel_rx" --hex "$P" --ctx-in "$D/v4.json" 2>&1)
echo "$out" | grep -q '"cb":\[4294967274,4294967294,'
check "no --tunnel: -EINVAL and -ENOENT, as the kernel's test run: $out" $?
out=$("$H" test "$T:tc_tunnel_rx" --hex "$P" --ctx-in "$D/v4.json" \
	--tunnel "id 42 remote 192.0.2.1 local 192.0.2.2 tos 0 ttl 64 csum opts 0102030405060708" 2>&1)
echo "$out" | grep -q '"cb":\[0,8,8,'
check "--tunnel: the key and 8 bytes of options read: $out" $?
# id 42, remote 0xc0000201 and local 0xc0000202 in host order, tos 0,
# ttl 64, flags TUNNEL_GENEVE_OPT|KEY|CSUM (0x0805), then the options.
echo "$out" | grep -q '88b52a000000010200c0000000000000000000000000004008050000000002020'
check "the key as the kernel's get fills it: $out" $?
echo "$out" | grep -q 'a5a5a5a50102030405060708'
check "the options after it: $out" $?
out=$("$H" test "$T:tc_tunnel_rx" --hex "$P" --ctx-in "$D/v6.json" \
	--tunnel "id 7 remote 2001:db8::1 local 2001:db8::2 label 0x12345 nokey" 2>&1)
echo "$out" | grep -q '"cb":\[0,4294967294,' &&
	echo "$out" | grep -q '88b50700000020010db8000000000000000000000001000000004523010020010db8'
check "IPv6 with a label, no options: $out" $?
out=$("$H" test "$T:tc_tunnel_rx" --hex "$P" --ctx-in "$D/v4.json" \
	--tunnel "remote 2001:db8::1" 2>&1)
echo "$out" | grep -q '"cb":\[4294967225,'
check "an IPv6 tunnel read as IPv4: -EPROTO: $out" $?
# tc_tunnel_key sets the packet's key with BPF_F_DONT_FRAGMENT (cb[1] 4).
echo '{"cb": [0, 4, 0, 16, 0]}' > "$D/set.json"
out=$("$H" test "$T:tc_tunnel_key" --hex "$P" --ctx-in "$D/set.json" 2>&1)
echo "$out" | grep -q '^  tunnel set: id 66 remote 192.0.2.1 local 192.0.2.2 tos 28 ttl 64 flags csum,key,df,nocache$'
check "what the program set is shown: $out" $?
out=$("$H" test "$T:tc_tunnel_key" --hex "$P" --ctx-in "$D/set.json" \
	--json 2>&1)
echo "$out" | grep -q '"tunnel_set":{"id":66,"remote":"192.0.2.1","local":"192.0.2.2","tos":28,"ttl":64,"label":0,"flags":\["csum","key","df","nocache"\],"opts":""}'
check "and in JSON: $out" $?
out=$("$H" test "$T:tc_tunnel_rx" --hex "$P" --ctx-in "$D/v4.json" \
	--tunnel "id 1" 2>&1)
echo "$out" | grep -q "tunnel set"
[ $? != 0 ]
check "nothing set, nothing shown: $out" $?
for spec in "id 42 bogus 1|bogus|unknown word" \
	"ttl 256|256|above 255" \
	"id 4294967296|4294967296|not a number" \
	"id -1|-1|not a number" \
	"remote 192.0.2.1 local 2001:db8::1|2001:db8::1|one family" \
	"remote 300.1.1.1|300.1.1.1|not an IPv4 or IPv6 address" \
	"label 1 remote 192.0.2.1|label|needs IPv6" \
	"label 0x100000 remote ::1|0x100000|20 bits" \
	"opts 0g|0g|not hex" \
	"opts-type ipip|ipip|want geneve" \
	"id|id|wants a value"; do
	s=${spec%%|*}
	rest=${spec#*|}
	word=${rest%%|*}
	why=${rest#*|}
	out=$("$H" test "$T:tc_tunnel_rx" --hex "$P" --tunnel "$s" 2>&1)
	rc=$?
	[ $rc = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ] &&
		echo "$out" | grep -qF "'$word': " &&
		echo "$out" | grep -qF "$why"
	check "bad spec '$s' ($rc): $out" $?
done
out=$("$H" test "$X" --hex "$P" --tunnel "id 1" 2>&1)
[ $? = 2 ] && echo "$out" | grep -q "is for tc programs"
check "XDP refuses --tunnel: $out" $?
out=$("$H" test "$T:tc_tunnel_rx" --hex "$P" --tunnel "id 1" --kernel 2>&1)
[ $? = 2 ] && echo "$out" | grep -q "not compared: --tunnel"
check "--kernel refuses --tunnel: $out" $?
"$H" test --help | grep -q -- "--tunnel SPEC"
check "--help names --tunnel" $?
echo "RESULT passed=$ok failed=$bad"
[ "$bad" = 0 ]
