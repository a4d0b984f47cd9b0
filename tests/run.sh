#!/bin/sh
# Runs each test binary given, sums their RESULT lines and ends with
# "N passed, N failed". A crash, a missing RESULT line or (with
# HEADROOM_REQUIRE_KERNEL=1) a skip counts as a failure.
passed=0
failed=0
skipped=0
for t in "$@"; do
	name=$(basename "$t")
	out=$(mktemp)
	"$t" >"$out" 2>&1
	rc=$?
	line=$(grep '^RESULT ' "$out" | tail -n 1)
	if [ $rc -eq 77 ] && [ -z "$line" ]; then
		if [ "${HEADROOM_REQUIRE_KERNEL:-0}" = 1 ]; then
			echo "FAIL $name: skipped while HEADROOM_REQUIRE_KERNEL=1"
			failed=$((failed + 1))
		else
			echo "SKIP $name: $(grep '^SKIP' "$out" | head -n 1)"
			skipped=$((skipped + 1))
		fi
		rm -f "$out"
		continue
	fi
	if [ -z "$line" ]; then
		echo "FAIL $name: exit $rc without a RESULT line"
		tail -n 30 "$out"
		failed=$((failed + 1))
		rm -f "$out"
		continue
	fi
	p=$(echo "$line" | sed 's/.*passed=\([0-9]*\).*/\1/')
	f=$(echo "$line" | sed 's/.*failed=\([0-9]*\).*/\1/')
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$f" -ne 0 ]; then
		echo "FAIL $name: $p passed, $f failed"
		grep -v '^RESULT' "$out" | tail -n 40
	else
		echo "ok   $name: $p passed"
	fi
	rm -f "$out"
done
[ $skipped -ne 0 ] && echo "($skipped test programs skipped)"
# A kernel that offers other helpers or kfuncs than 6.18's table (a
# sandboxed build, say) fails the kernel comparisons for that alone: say so.
hr="${BUILD:-build}/bin/headroom"
if [ $failed -ne 0 ] && [ -x "$hr" ] && [ "$(id -u)" = 0 ]; then
	"$hr" feature --kernel 2>/dev/null | grep 'the live kernel' |
		grep -v ' 0 differ' | sed 's/^/note: /'
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
