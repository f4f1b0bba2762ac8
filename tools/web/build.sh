#!/usr/bin/env bash
# Builds Tilebox's page: the app for wasm32-unknown-unknown, bound to JavaScript by wasm-bindgen,
# with index.html beside it (web/index.html). The last line printed is the folder that holds
# index.html; serve it (`python3 -m http.server -d <folder>`) or open its index.html from the disk.
#
# The compiler: rustup's wasm32 target where it is installed; elsewhere Debian's Rust with the
# standard library's source (packages rustc-web, cargo-web, rust-web-src, lld-19), which builds
# the standard library for wasm32 itself (-Zbuild-std). As root on Debian, missing packages are
# installed. The page's folder is then made by `tilebox-page` (web/src/make_page.rs), built for the
# desktop with the workspace's own toolchain.
#
# `tools/web/build.sh --clippy` lints the page's code for wasm32 instead (`cargo clippy -D
# warnings`, as CI does for the desktop's), by the same compiler (Debian's route also needs
# rust-web-clippy), and builds nothing.
#
# Environment: TILEBOX_WEB_OUT (the page's folder, default target/web of the repository),
# TILEBOX_WEB_TARGET (cargo's target folder for wasm, default ~/.cache/tilebox/wasm-target: never
# the desktop build's, since the two compilers must not share one).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${TILEBOX_WEB_OUT:-$root/target/web}"
target_dir="${TILEBOX_WEB_TARGET:-$HOME/.cache/tilebox/wasm-target}"
say() { echo "build.sh: $*" >&2; }

cd "$root"
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "building with rustup's wasm32 target"
  build=(cargo build --release --locked --target wasm32-unknown-unknown -p tilebox-web --lib)
  clippy=(cargo clippy --locked --target wasm32-unknown-unknown -p tilebox-web --lib -- -D warnings)
  env_for_build=()
else
  need=()
  for package in rustc-web cargo-web rust-web-src lld-19 rust-web-clippy; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || need+=("$package")
  done
  if [ "${#need[@]}" -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      say "installing ${need[*]}"
      apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    else
      say "rustup's wasm32 target is not installed, and Debian's route needs: ${need[*]}"
      say "install them (apt-get install ${need[*]}), or run: rustup target add wasm32-unknown-unknown"
      exit 1
    fi
  fi
  say "building with Debian's Rust and the standard library built from its source"
  build=(cargo build --release --locked --target wasm32-unknown-unknown -p tilebox-web --lib -Zbuild-std=std,panic_abort)
  clippy=(cargo clippy --locked --target wasm32-unknown-unknown -p tilebox-web --lib -Zbuild-std=std,panic_abort -- -D warnings)
  env_for_build=(PATH="/usr/bin:$PATH" RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/lib/llvm-19/bin/wasm-ld)
fi
if [ "${1:-}" = "--clippy" ]; then
  env "${env_for_build[@]}" CARGO_TARGET_DIR="$target_dir" CARGO_INCREMENTAL=0 "${clippy[@]}" >&2
  say "the page's code is clean for wasm32"
  exit 0
fi
env "${env_for_build[@]}" CARGO_TARGET_DIR="$target_dir" CARGO_INCREMENTAL=0 "${build[@]}" >&2
wasm="$target_dir/wasm32-unknown-unknown/release/tilebox_web.wasm"

rm -rf "$out.new"
# The page's folder, made on the desktop by `tilebox-page` (web/src/make_page.rs) with
# wasm-bindgen's library of the version in Cargo.lock.
# In the test profile: `cargo test --workspace` builds the same binary, so CI builds it once.
cargo run --quiet --locked --profile test -p tilebox-web --bin tilebox-page -- "$wasm" "$out.new" >&2
rm -rf "$out"
mv "$out.new" "$out"
say "the page: $(du -sh --apparent-size "$out" | cut -f1) in $out ($(du -h --apparent-size "$out/tilebox_web_bg.wasm" | cut -f1) of WebAssembly)"
echo "$out"
