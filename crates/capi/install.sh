#!/usr/bin/env bash
# Installs hone for C, C++ and Fortran programs under PREFIX:
#   PREFIX/lib/libhone.so, PREFIX/include/hone.h,
#   PREFIX/lib/pkgconfig/hone.pc, PREFIX/lib/cmake/hone/honeConfig.cmake
# usage: crates/capi/install.sh PREFIX [--profile release|debug] [--no-build] [--lib FILE]
# Then: cc app.c $(PKG_CONFIG_PATH=PREFIX/lib/pkgconfig pkg-config --cflags --libs hone)
#   or, in CMake: find_package(hone) with CMAKE_PREFIX_PATH=PREFIX, target hone::hone.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
prefix="${1:?usage: install.sh PREFIX [--profile release|debug] [--no-build] [--lib FILE]}"
shift
profile=release
build=1
lib=""
while [ $# -gt 0 ]; do
    case "$1" in
        --profile) profile="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        --lib) lib="$2"; build=0; shift 2 ;;
        *) echo "install.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
if [ "$build" = 1 ]; then
    flag=()
    [ "$profile" = release ] && flag=(--release)
    (cd "$root" && cargo build "${flag[@]}" -p hone-capi)
fi
if [ -z "$lib" ]; then
    lib="${CARGO_TARGET_DIR:-$root/target}/$profile/libhone.so"
fi
[ -e "$lib" ] || { echo "install.sh: $lib not found (build hone-capi first)" >&2; exit 2; }
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -1)"
mkdir -p "$prefix/lib/pkgconfig" "$prefix/include" "$prefix/lib/cmake/hone"
prefix="$(cd "$prefix" && pwd)"
cp "$lib" "$prefix/lib/libhone.so"
cp "$here/include/hone.h" "$prefix/include/hone.h"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" "$here/hone.pc.in" >"$prefix/lib/pkgconfig/hone.pc"
cp "$here/cmake/honeConfig.cmake" "$prefix/lib/cmake/hone/honeConfig.cmake"
echo "installed hone $version under $prefix"
