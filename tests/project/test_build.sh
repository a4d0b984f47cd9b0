#!/bin/sh
# Build hygiene: after a build, a second make has nothing to do (no
# intermediate deleted, no rule that always runs). Prints a RESULT line.
BUILD=${BUILD:-build}
make --no-print-directory BUILD="$BUILD" -j2 all >/dev/null 2>&1
if make --no-print-directory BUILD="$BUILD" -q all; then
	echo "RESULT passed=1 failed=0"
else
	echo "FAIL tests/project/test_build.sh: a second make would rebuild:"
	make --no-print-directory BUILD="$BUILD" -n all | head -n 20
	echo "RESULT passed=0 failed=1"
fi
