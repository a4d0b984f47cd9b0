#!/bin/sh
# bench/devices runs every real-interface pipeline (afxdp, afpacket and
# tap, in and out of a kernel veth) beside the kernel's veth figure, in a
# namespace of its own, and leaves no namespace behind. Each row must
# carry a positive rate: a device that failed to set up reports 0 and a
# note. The figures themselves are the benchmark's, never asserted here.
# Needs root. Prints a RESULT.
BUILD=${BUILD:-build}
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: bench/devices needs root (namespaces, AF_XDP, TAP)"
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
		echo "FAIL tests/project/test_bench_devices.sh: $2"
	fi
}
before=$(ip netns list | grep -c '^hr-devices-' || true)
out=$("$BUILD/bench/devices" --count 20000 --runs 1 --json 2>&1)
rc=$?
check '[ $rc -eq 0 ]' "exit $rc: $out"
n='[0-9]+\.[0-9]+'
for p in "kernel veth" afxdp-rx afpacket-rx tap-rx afxdp-tx afpacket-tx \
	tap-tx; do
	line=$(printf '%s\n' "$out" | grep -F "\"pipeline\":\"$p\"")
	check '[ -n "$line" ]' "no row '$p': $out"
	check 'printf "%s" "$line" | grep -Eq "\"mpps\":\{\"median\":(0\.[0-9]*[1-9]|[1-9])"' \
		"'$p' has no positive rate: $line"
	# The one note a row may carry: a host whose kernel refuses live
	# frames, where the frames go by AF_PACKET (tests/lib/kernel_side.h).
	check '! printf "%s" "$line" | grep "\"note\"" | grep -vq "\"note\":\"the kernel refuses live frames here: sent by AF_PACKET\""' "'$p': $line"
	[ "$p" = "kernel veth" ] && continue
	check 'printf "%s" "$line" | grep -Eq "\"ratio\":\{\"median\":$n,\"min\":$n,\"max\":$n\}"' \
		"'$p' has no ratio to the kernel: $line"
done
after=$(ip netns list | grep -c '^hr-devices-' || true)
check '[ "$after" -le "$before" ]' "namespaces left behind: $(ip netns list)"
one=$("$BUILD/bench/devices" --count 20000 --runs 1 --only tap-tx 2>&1)
check 'printf "%s" "$one" | grep -q "^tap-tx " && ! printf "%s" "$one" | grep -q "^afxdp-rx"' \
	"--only tap-tx: $one"
bad=$("$BUILD/bench/devices" --runs 0 2>&1)
check '[ $? -eq 2 ] && printf "%s" "$bad" | grep -q -- "--runs"' \
	"--runs 0 is not refused with the option named: $bad"
echo "RESULT passed=$pass failed=$fail"
