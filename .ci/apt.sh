#!/usr/bin/env bash
# CI, first: every Debian package the servers behind the checks need, in one go, so the
# package lists are fetched once (`apt-get update`) and a failed install is retried
# once. PostgreSQL for the store tests, Chromium and fonts with emoji and CJK glyphs
# for the browser check, a compiler and cmake to build the local model's server.
# Each later script checks for its own packages again, so it also runs alone.
set -euo pipefail
packages=(postgresql chromium fonts-noto-color-emoji fonts-noto-cjk build-essential
          cmake)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
        || missing+=("$package")
done
if [ "${#missing[@]}" -eq 0 ]; then
    echo "apt: all ${#packages[@]} packages already installed"
    exit 0
fi
sudo=$([ "$(id -u)" -eq 0 ] || echo sudo)
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
install() { $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"; }
install || { sleep 10; install; }  # a mirror hiccup gets one retry
echo "apt: installed ${missing[*]}"
