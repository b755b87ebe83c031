#!/usr/bin/env bash
# Installs what pplab needs to build, test and run, from Debian's packages only.
# Idempotent: does nothing when everything is present. Uses sudo when not root.
# `install-deps.sh web` adds what the page needs (build/web, the `web` preset): emscripten,
# headless Chromium for its tests, and Debian's sources of ImGui and giflib (scripts/web-sources.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  # build
  build-essential cmake ninja-build pkg-config git
  # kernels, CLI and tests
  googletest libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev
  # students' kernels on the CPU: each CUDA thread a fiber
  libboost-context-dev
  # the window: GLFW 3.3, Dear ImGui 1.86 (its static library holds the GLFW and OpenGL3
  # backends), stb (image writing), OpenGL/EGL headers, giflib for animated exports
  libglfw3-dev libimgui-dev libstb-dev libegl-dev libgl-dev libgif-dev
  # offscreen rendering without an X server: Mesa's surfaceless EGL platform (llvmpipe)
  libegl-mesa0 libgl1-mesa-dri libgbm1
  # the UI font, legible from the back of a room
  fonts-dejavu-core
  # running the window without a display, for screenshots
  xvfb xauth
  # the sanitize and fuzz presets: clang 14, its sanitizer and libFuzzer runtimes, and
  # llvm-symbolizer for readable reports
  clang libclang-rt-14-dev llvm
)
web=false
if [ "${1:-}" = "web" ]; then
  web=true
  packages+=(
    # the page: Debian's emscripten (clang 14, binaryen and Node come with it; its system
    # libraries are prebuilt, so nothing is downloaded at build time); dpkg-dev unpacks the
    # source packages of ImGui and giflib
    emscripten dpkg-dev xz-utils
    # the page's tests: headless Chromium draws it through WebGL2
    chromium
  )
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/install-deps.sh [web]" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  if $web; then scripts/web-sources.sh; fi
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
if $web; then scripts/web-sources.sh; fi
