#!/bin/sh
# headroom run reaches kernel interfaces from a config: an afxdp and an
# afpacket device, each on a veth of a namespace of the test's own, with
# XDP_DROP; 5 ICMP frames sent on each peer must be received and the
# books balance, and nothing is left on the interfaces. (The TAP device's
# config is tests/cli/test_run.c's.) Needs root. Prints a RESULT.
BUILD=${BUILD:-build}
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: kernel interfaces need root"
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
		echo "FAIL tests/cli/test_run_ifaces.sh: $2"
	fi
}
ns=hr-runif-$$
tmp=$(mktemp -d)
trap 'ip netns del $ns 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
ip netns add $ns &&
	ip -n $ns link set lo up &&
	ip -n $ns link add rxa type veth peer name rxb &&
	ip -n $ns link add rpa type veth peer name rpb &&
	for l in rxa rxb rpa rpb; do ip -n $ns link set $l up || exit 1; done &&
	ip -n $ns addr add 10.91.1.1/24 dev rxb &&
	ip -n $ns addr add 10.91.2.1/24 dev rpb &&
	ip -n $ns neigh add 10.91.1.2 lladdr 02:00:00:00:91:01 dev rxb &&
	ip -n $ns neigh add 10.91.2.2 lladdr 02:00:00:00:91:02 dev rpb
check '[ $? -eq 0 ]' "namespace $ns and its veths"
cat >"$tmp/ifaces.yaml" <<CFG
duration: 4
interval: 0
devices:
  x0: {kind: afxdp, ifname: rxa, xdp: $BUILD/progs/bench_drop.o}
  p0: {kind: afpacket, ifname: rpa, xdp: $BUILD/progs/bench_drop.o}
CFG
HEADROOM_DATADIR=$BUILD ip netns exec $ns "$BUILD/bin/headroom" run \
	"$tmp/ifaces.yaml" >"$tmp/out" 2>&1 &
pid=$!
# Until the afxdp device's kernel program is on its veth, then a second
# for its sockets and the workers (a frame before them is passed to the
# kernel's stack, not lost, but not headroom's either).
i=0
while [ $i -lt 50 ] && ! ip -n $ns link show rxa | grep -q xdp; do
	sleep 0.1
	i=$((i + 1))
done
sleep 1
ip netns exec $ns ping -q -c 5 -i 0.2 -W 0.1 10.91.1.2 >/dev/null 2>&1
ip netns exec $ns ping -q -c 5 -i 0.2 -W 0.1 10.91.2.2 >/dev/null 2>&1
wait $pid
rc=$?
out=$(cat "$tmp/out")
check '[ $rc -eq 0 ]' "headroom run exited $rc: $out"
check 'printf "%s" "$out" | grep -q "the books balance"' \
	"the books do not balance: $out"
for d in x0 p0; do
	n=$(printf '%s\n' "$out" | awk -v d="$d" '$1 == d && /rx/ { for (i = 1; i < NF; i++) if ($i == "rx") print $(i + 1) }' | tail -1)
	check '[ "${n:-0}" -ge 5 ]' "$d received ${n:-nothing} of 5: $out"
done
check '! ip -n $ns link show rxa | grep -q xdp' "XDP left on rxa"
echo "RESULT passed=$pass failed=$fail"
