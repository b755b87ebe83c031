#!/usr/bin/env bash
# Fetches the sources the page compiles besides our own: Debian's source packages of Dear
# ImGui (1.86, the version the window is written for) and giflib, unpacked under
# build/web-deps/src. apt-get reads web/deps/debian-sources.list with its own state under
# build/web-deps/apt, so the system's apt configuration is left alone. Does nothing when the
# sources are there; run by `scripts/install-deps.sh web`.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD/build/web-deps"
imgui_version="1.86+ds"
if [ -f "$root/src/imgui-$imgui_version/imgui.cpp" ] && [ -f "$root/src/giflib/gif_lib.h" ]; then
  exit 0
fi
mkdir -p "$root/apt/lists/partial" "$root/apt/cache/archives/partial" "$root/fetch"
apt_options=(
  -o "Dir::Etc::SourceList=$PWD/web/deps/debian-sources.list"
  -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$root/apt/lists"
  -o "Dir::Cache=$root/apt/cache"
)
if [ "$(id -u)" -eq 0 ]; then
  apt_options+=(-o APT::Sandbox::User=root) # apt's own user cannot write into this folder
fi
echo "web-sources: fetching Debian's source packages imgui and giflib"
apt-get "${apt_options[@]}" -qq update
rm -rf "$root/fetch"/*
(cd "$root/fetch" && apt-get "${apt_options[@]}" -qq source --only-source "imgui=$imgui_version-1" giflib)
mkdir -p "$root/src"
rm -rf "$root/src/imgui-$imgui_version" "$root/src/giflib"
mv "$root/fetch/imgui-$imgui_version" "$root/src/"
mv "$root/fetch"/giflib-*/ "$root/src/giflib"
rm -rf "$root/fetch"
echo "web-sources: $(ls "$root/src" | tr '\n' ' ')in $root/src"
