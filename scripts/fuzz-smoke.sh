#!/bin/sh
# Runs each libFuzzer harness for SECONDS on its seed corpus and prints a
# RESULT line for tests/run.sh: one pass per harness that ends without a
# crash, one failure per harness that finds one (the input is kept in
# BUILD/crash-NAME-*).  Usage: fuzz-smoke.sh BUILD SECONDS HARNESS...
# Without arguments (as tests/run.sh runs it from `make test`): the
# harness of every fuzz/fuzz_*.c, from build-fuzz, for 10 s each; one
# that was not built is a failure.
passed=0
failed=0
if [ $# -eq 0 ]; then
	cd "$(dirname "$0")/.." || exit 1
	set -- build-fuzz 10
	for src in fuzz/fuzz_*.c; do
		[ -f "$src" ] || continue
		b=build-fuzz/$(basename "$src" .c)
		if [ -x "$b" ]; then
			set -- "$@" "$b"
		else
			echo "FAIL $(basename "$b"): not built (make fuzz-build)"
			failed=$((failed + 1))
		fi
	done
fi
build=$1
secs=$2
shift 2
for b in "$@"; do
	n=${b##*/fuzz_}
	work=$(mktemp -d)
	if "$b" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$build/crash-$n-" \
		"$work" "fuzz/corpus/$n" >"$work.log" 2>&1; then
		execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' \
			"$work.log" | tail -n 1 | awk '{ print $2 }')
		echo "ok   fuzz_$n: ${execs:-?} executions in $secs s"
		passed=$((passed + 1))
	else
		echo "FAIL fuzz_$n"
		tail -n 40 "$work.log"
		failed=$((failed + 1))
	fi
	rm -rf "$work" "$work.log"
done
echo "RESULT passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
