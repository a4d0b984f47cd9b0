#!/bin/sh
# The layering rule of src/ (README, Layout): a file includes headers of
# its own layer or of lower ones; the layers, lowest first, are the
# Makefile's LAYERS, then cli on top. An upward include fails the test
# unless scripts/layers.allow lists it (the ones the tree still has, each
# to go behind an ops table), and an allowed one that is gone must leave
# the list too. Prints a RESULT line.
cd "$(dirname "$0")/../.." || exit 1
layers="$(sed -n 's/^LAYERS *:= *//p' Makefile) cli"
rank() {
	i=0
	for l in $layers; do
		[ "$l" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo -1
}
passed=0
failed=0
found=$(mktemp)
trap 'rm -f "$found"' EXIT
for f in $(find src -name '*.[ch]' | sort); do
	own=$(echo "$f" | cut -d/ -f2)
	r=$(rank "$own")
	if [ "$r" -lt 0 ]; then
		echo "FAIL tests/project/test_layers.sh: $f is in no layer of LAYERS"
		failed=$((failed + 1))
		continue
	fi
	for inc in $(sed -n 's/^#include "\([a-z_]*\/[^"]*\)".*/\1/p' "$f"); do
		l=${inc%%/*}
		[ "$l" = headroom ] && continue
		ri=$(rank "$l")
		[ "$ri" -le "$r" ] && [ "$ri" -ge 0 ] && continue
		echo "$f $inc" >>"$found"
		if grep -qx "$f $inc" scripts/layers.allow; then
			passed=$((passed + 1))
		else
			echo "FAIL tests/project/test_layers.sh: $f ($own) includes $inc ($l), a higher layer"
			failed=$((failed + 1))
		fi
	done
	passed=$((passed + 1))
done
grep -v '^#' scripts/layers.allow | grep . | while read -r line; do
	grep -qx "$line" "$found" || echo "FAIL tests/project/test_layers.sh: scripts/layers.allow lists '$line', which is gone: remove it"
done >"$found.gone"
gone=$(wc -l <"$found.gone")
cat "$found.gone"
rm -f "$found.gone"
failed=$((failed + gone))
echo "upward includes still allowed: $(sort -u "$found" | wc -l)"
echo "RESULT passed=$passed failed=$failed"
