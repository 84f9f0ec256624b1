#!/usr/bin/env bash
# CI, after the tests: the course as learners see it, in JupyterLab and Notebook 7 in
# a real browser (scripts/browser_check.py): contrast in both themes, and the 09
# playground typed into. Installs Debian's Chromium and fonts with emoji and CJK
# glyphs, and Playwright and Notebook 7 as Python packages only: Playwright drives
# the system Chromium and downloads no browser. Screenshots: browser-check/. Run it
# inside the CI virtual environment. Non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(chromium fonts-noto-color-emoji fonts-noto-cjk)
installed=$(dpkg-query -W -f='${Status}\n' "${packages[@]}" 2>/dev/null \
    | grep -c "ok installed" || true)
if [ "$installed" -ne "${#packages[@]}" ]; then
    sudo=$([ "$(id -u)" -eq 0 ] || echo sudo)
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -q
    apt_install() {
        $sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
    }
    apt_install || { sleep 10; apt_install; }  # a mirror hiccup gets one retry
fi
pip install --quiet -e ".[browser]"
export TINYAGENT_OFFLINE=1
python scripts/browser_check.py
