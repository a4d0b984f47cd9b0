#!/bin/sh
# bench/datapath --breakdown runs and reports every stage (the figures
# themselves are the benchmark's, never asserted here). Prints a RESULT.
BUILD=${BUILD:-build}
pass=0
fail=0
out=$("$BUILD/bench/datapath" --breakdown --runs 1 --count 20000 --json 2>&1)
rc=$?
check() {
	if eval "$1"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL tests/project/test_bench_breakdown.sh: $2"
	fi
}
check '[ $rc -eq 0 ]' "exit $rc: $out"
for stage in "device RX: poll loop, frame pool, recycle in bulk" \
	"device RX: headers written" "verdict dispatch, frame recycled" \
	"context set-up" "program (JIT)" "statistics" \
	"drop pipeline, total" \
	"redirect: helper, buff to frame, bulk enqueue" \
	"flush: xmit into the veth peer's ring" "redirect pipeline, total"; do
	check 'printf "%s" "$out" | grep -qF "\"$stage\":"' "no stage '$stage'"
done
# Totals are costs, so positive numbers.
for total in drop redirect; do
	check 'printf "%s" "$out" | grep -Eq "\"$total pipeline, total\": ?[0-9]*[1-9]"' \
		"$total total not a positive number: $out"
done
bad=$("$BUILD/bench/datapath" --breakdwn 2>&1)
check '[ $? -eq 2 ] && printf "%s" "$bad" | grep -q -- "--breakdown"' \
	"a wrong option does not print a usage naming --breakdown: $bad"
echo "RESULT passed=$pass failed=$fail"
