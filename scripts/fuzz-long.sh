#!/bin/sh
# Long libFuzzer runs: every harness (or those named) for HOURS each, on
# the growing corpus build-fuzz/corpus/NAME (seeded from fuzz/corpus/NAME).
# A crash is copied to fuzz/crashes/ and the harness started again until
# its time is up. At the end each harness's executions, seconds and
# crashes are printed and appended to fuzz/HISTORY.md, the record that
# docs/robustness.md quotes.
#
#   scripts/fuzz-long.sh HOURS [NAME...]    e.g. scripts/fuzz-long.sh 0.5 pcap
#   FUZZ_JOBS=N     harnesses run at once (default 1)
#   FUZZ_NO_BUILD=1 use the binaries in build-fuzz as they are
set -u
[ $# -ge 1 ] || { echo "usage: $0 HOURS [NAME...]" >&2; exit 2; }
hours=$1
shift
secs=$(awk -v h="$hours" 'BEGIN { s = int(h * 3600); if (s < 1) s = 1; print s }')
build=build-fuzz
jobs=${FUZZ_JOBS:-1}
cd "$(dirname "$0")/.." || exit 1
if [ $# -eq 0 ]; then
	set -- $(ls fuzz/fuzz_*.c | sed 's,fuzz/fuzz_\(.*\)\.c,\1,')
fi
if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
	make -j2 --no-print-directory fuzz-build >/dev/null || exit 1
fi
mkdir -p fuzz/crashes "$build/long"
[ -f fuzz/HISTORY.md ] || printf '%s\n\n%s\n%s\n' "# Fuzzing history" \
	"| date (UTC) | harness | seconds | executions | crashes |" \
	"| --- | --- | --- | --- | --- |" >fuzz/HISTORY.md

# One harness for $secs seconds; writes "name secs execs crashes" to
# $build/long/NAME.sum.
run_one() {
	n=$1
	bin=$build/fuzz_$n
	corpus=$build/corpus/$n
	log=$build/long/$n.log
	mkdir -p "$corpus"
	start=$(date +%s)
	execs=0
	crashes=0
	: >"$log"
	while :; do
		left=$((start + secs - $(date +%s)))
		[ "$left" -gt 0 ] || break
		"$bin" -max_total_time="$left" -print_final_stats=1 \
			-artifact_prefix="$build/long/crash-$n-" "$corpus" \
			"fuzz/corpus/$n" >"$log.part" 2>&1
		rc=$?
		e=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log.part" |
			tail -n 1 | awk '{ print $2 }')
		execs=$((execs + ${e:-0}))
		tail -n 60 "$log.part" >>"$log"
		[ "$rc" -eq 0 ] && break
		found=0
		for c in "$build/long/crash-$n-"*; do
			[ -f "$c" ] || continue
			cp "$c" fuzz/crashes/ && rm -f "$c"
			found=1
			echo "fuzz-long: $n: kept fuzz/crashes/${c##*/}"
		done
		crashes=$((crashes + 1))
		# A harness that fails without leaving an input would only
		# fail again: stop it.
		[ "$found" -eq 1 ] || break
	done
	rm -f "$log.part"
	echo "$n $(($(date +%s) - start)) $execs $crashes" >"$build/long/$n.sum"
}

running=0
for n in "$@"; do
	[ -x "$build/fuzz_$n" ] || { echo "fuzz-long: no $build/fuzz_$n" >&2; continue; }
	echo "fuzz-long: $n for $secs s"
	run_one "$n" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait

total=0
bad=0
echo "harness seconds executions crashes"
for n in "$@"; do
	f=$build/long/$n.sum
	[ -f "$f" ] || continue
	read -r name s e c <"$f"
	echo "$name $s $e $c"
	echo "| $(date -u +%Y-%m-%dT%H:%MZ) | $name | $s | $e | $c |" >>fuzz/HISTORY.md
	total=$((total + s))
	bad=$((bad + c))
	rm -f "$f"
done
echo "fuzz-long: $total harness-seconds, $bad crashes (fuzz/HISTORY.md)"
[ "$bad" -eq 0 ]
