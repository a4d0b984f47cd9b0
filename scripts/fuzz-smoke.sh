#!/bin/sh
# Runs each libFuzzer harness for SECONDS on its seed corpus and prints a
# RESULT line for tests/run.sh: one pass per harness that ends without a
# crash, one failure per harness that finds one (the input is kept in
# BUILD/crash-NAME-*).  Usage: fuzz-smoke.sh BUILD SECONDS HARNESS...
build=$1
secs=$2
shift 2
passed=0
failed=0
for b in "$@"; do
	n=${b##*/fuzz_}
	work=$(mktemp -d)
	if "$b" -max_total_time="$secs" -artifact_prefix="$build/crash-$n-" \
		"$work" "fuzz/corpus/$n" >"$work.log" 2>&1; then
		echo "ok   fuzz_$n: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$work.log" | tail -n 1)$(tail -n 1 "$work.log")"
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
