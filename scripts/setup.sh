#!/usr/bin/env bash
# Installs every build and run dependency of morne from Debian 12 packages, then configures
# and builds. Idempotent: packages already present are skipped, the build is incremental.
#
#   scripts/setup.sh            install (when needed) + configure + build (Release, build/)
#   scripts/setup.sh --deps     install only
#
# Needs root or sudo for apt-get. No download happens outside apt. slurm-wlm and munge are
# for the Slurm scripts and their test (tests/slurm/slurm_test.sh starts its own daemons):
# Debian's slurmctld and slurmd services stay idle without /etc/slurm/slurm.conf, and munge's
# service starts with the key the package makes. iproute2 (ip, tc) makes the network-namespace
# test bed (scripts/netns/, tests/netns/).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build ccache git ca-certificates pkg-config
  libtorch-dev libopenblas0-pthread libgloo-dev
  libtbb-dev libhdf5-dev zlib1g-dev libboost-program-options-dev
  libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev clang-14 libclang-rt-14-dev
  clang-format
  python3-h5py python3-numpy pybind11-dev python3-dev python3-pytest python3-torch
  chromium chromium-driver python3-selenium python3-pil
  slurm-wlm munge iproute2
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${#missing[@]} Debian package(s): ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup: all Debian packages present"
fi

[ "${1:-}" = "--deps" ] && exit 0

# ccache keys paths relative to the checkout, so that a fresh clone elsewhere (CI's) reuses
# what an earlier clone compiled: without this, 97% of a clone's compiles missed here.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
build_dir=${MORNE_BUILD_DIR:-build}
# A unity build (eight sources of a target compiled as one) halves a cold build: the headers
# (nlohmann/json, gtest, LibTorch) are read once per eight sources. It costs an edit more to
# rebuild: configure with -DCMAKE_UNITY_BUILD=OFF for a tight edit-compile loop. The
# ThreadSanitizer build of scripts/test.sh compiles one source at a time, so that every source
# still compiles on its own.
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8
fi
cmake --build "$build_dir" -j"$(nproc)"

# `import morne` in Debian's python3 (docs/python.md): the build's package folder goes on its
# path through a .pth file in the user's site-packages (`cmake --install` installs it instead).
if [ -f "$build_dir/python/morne/__init__.py" ]; then
  site=$(/usr/bin/python3 -m site --user-site)
  mkdir -p "$site"
  echo "$(cd "$build_dir/python" && pwd)" > "$site/morne.pth"
  echo "setup: import morne works in /usr/bin/python3 (through $site/morne.pth)"
fi
