#!/usr/bin/env bash
# need.sh CMD:DEBIAN_PACKAGE ...
#
# Checks that each command exists. Missing ones are installed with apt-get
# when running as root; otherwise the script prints the exact apt-get line
# to run and fails.
set -euo pipefail
missing=()
for pair in "$@"; do
	cmd=${pair%%:*}
	pkg=${pair#*:}
	command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "need.sh: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	apt-get install -y -qq "${missing[@]}" >/dev/null
	exit 0
fi
echo "need.sh: missing Debian packages. Run:" >&2
echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
exit 1
