#!/bin/sh
# make install into a temporary DESTDIR, then build a small C and a small
# C++ program against it with pkg-config, run them, run the installed
# command (which must find its data directory by its install prefix), and
# make uninstall must leave no file behind. Prints a RESULT line.
BUILD=${BUILD:-build}
passed=0
failed=0
check() {
	if [ "$1" -eq 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL tests/project/test_install.sh: $2"
	fi
}
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
log=$dest/log
make --no-print-directory BUILD="$BUILD" DESTDIR="$dest" PREFIX=/usr install >"$log" 2>&1
check $? "make install (see below)" || cat "$log"
for f in bin/headroom bin/headroom-conformance-plugin lib/libheadroom.a \
	lib/libheadroom.so lib/libheadroom.so.0 lib/pkgconfig/headroom.pc \
	include/headroom/headroom.h include/headroom/print.h \
	share/headroom/progs/xdp_demo.o share/man/man1/headroom.1 \
	share/man/man1/headroom-test.1 \
	share/bash-completion/completions/headroom; do
	test -e "$dest/usr/$f"
	check $? "installed $f"
done
soname=$(readelf -d "$dest/usr/lib/libheadroom.so" 2>/dev/null | grep SONAME)
echo "$soname" | grep -q 'libheadroom.so.0'
check $? "soname libheadroom.so.0: $soname"

export PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
cflags=$(pkg-config --cflags headroom)
check $? "pkg-config --cflags headroom"
libs=$(pkg-config --libs headroom)
static=$(pkg-config --static --libs headroom)
echo "$static" | grep -q -- '-lbpf'
check $? "pkg-config --static lists the private libraries: $static"
obj=$BUILD/progs/xdp_demo.o
# A sanitizer build's library needs its runtime in the program too.
case $BUILD in
*asan*) san="-fsanitize=address,undefined" ;;
*tsan*) san="-fsanitize=thread" ;;
*) san= ;;
esac

# shellcheck disable=SC2086
cc $san $cflags -o "$dest/prog_c" tests/project/install/prog.c $libs >>"$log" 2>&1
check $? "C program builds with pkg-config --cflags --libs" || cat "$log"
out=$(LD_LIBRARY_PATH="$dest/usr/lib" "$dest/prog_c" "$obj" 2>&1)
check $? "C program runs against libheadroom.so: $out"
echo "$out" | grep -q '^ret 0 retval'
check $? "C program's test run answered: $out"

# shellcheck disable=SC2086
g++ $san -x c++ $cflags -o "$dest/prog_cxx" tests/project/install/prog.c $libs >>"$log" 2>&1
check $? "C++ program builds (extern \"C\" headers)" || cat "$log"
out=$(LD_LIBRARY_PATH="$dest/usr/lib" "$dest/prog_cxx" "$obj" 2>&1)
check $? "C++ program runs: $out"

# shellcheck disable=SC2086
cc $san $cflags -o "$dest/prog_static" tests/project/install/prog.c \
	"$dest/usr/lib/libheadroom.a" $(pkg-config --static --libs-only-l headroom | sed 's/-lheadroom//') >>"$log" 2>&1
check $? "C program links statically with --static's libraries" || cat "$log"

out=$(env -u HEADROOM_DATADIR "$dest/usr/bin/headroom" demo --packets-only 2>&1)
check $? "installed headroom finds its programs: $(echo "$out" | tail -n 2)"
cp "$dest/usr/bin/headroom" "$dest/copied"
out=$(HEADROOM_DATADIR="$dest/usr/share/headroom" "$dest/copied" demo --packets-only 2>&1)
check $? "a copied binary with HEADROOM_DATADIR: $(echo "$out" | tail -n 2)"
"$dest/usr/bin/headroom" --version | grep -q '^headroom [0-9]'
check $? "headroom --version"

make --no-print-directory BUILD="$BUILD" DESTDIR="$dest" PREFIX=/usr uninstall >"$log" 2>&1
check $? "make uninstall"
left=$(find "$dest/usr" -type f 2>/dev/null)
test -z "$left"
check $? "uninstall leaves no file: $left"
echo "RESULT passed=$passed failed=$failed"
