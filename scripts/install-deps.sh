#!/bin/sh
# Installs the Debian packages headroom builds and tests with, when missing.
# As root it runs apt-get; otherwise it names what is missing and fails.
set -e
# libclang-rt-14-dev: clang's libFuzzer and sanitizer runtimes (`make fuzz`,
# and the harnesses `make test` runs), only recommended by clang, so not
# installed with --no-install-recommends.
pkgs="clang llvm make gcc libbpf-dev libelf-dev libpcap-dev libxdp-dev \
zlib1g-dev iproute2 libc6-dev-i386 clang-format help2man pkg-config \
libclang-rt-14-dev libjson-c-dev libyaml-dev libwiretap-dev libwsutil-dev \
libglib2.0-dev gnuplot-nox librte-bpf23 python3"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing (run as root or install them)" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# Another apt (unattended-upgrades on a fresh machine) may hold the dpkg
# lock: wait for it, up to ten minutes, instead of failing at once.
apt="apt-get -o DPkg::Lock::Timeout=600"
$apt install -y --no-install-recommends $missing >/dev/null ||
	{ $apt update >/dev/null && $apt install -y --no-install-recommends $missing >/dev/null; }
