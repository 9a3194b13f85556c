#!/usr/bin/env bash
# need.sh PACKAGE ...
#
# Makes sure the Debian packages the tests need are installed. Missing ones
# are installed with apt-get when running as root; otherwise the script
# prints the exact apt-get line to run and fails. A package can be written
# CMD:PACKAGE to accept any CMD on the PATH instead (e.g. node:nodejs for a
# Node.js installed another way).
set -euo pipefail
installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
missing=()
for arg in "$@"; do
	pkg=${arg#*:}
	if [ "$arg" != "$pkg" ] && command -v "${arg%%:*}" >/dev/null 2>&1; then
		continue
	fi
	installed "$pkg" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "need.sh: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	exit 0
fi
echo "need.sh: missing Debian packages. Run:" >&2
echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
exit 1
