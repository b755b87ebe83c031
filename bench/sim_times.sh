#!/usr/bin/env bash
# A student's kernel on the CPU simulator: `pplab run --backend cpu --check` of each chapter
# listing (as `pplab listing` writes it), the whole command timed, at a classroom size (cold:
# compiled into an empty cache; warm: the compiled kernel cached) and at n = 65536, block 256
# (warm). Not a test: bench/NOTES.md records what it printed.
#
#   bench/sim_times.sh [PPLAB] [RUNS]      # default build/ci/app/pplab, 3 runs (the median)
set -euo pipefail
pplab=${1:-build/ci/app/pplab}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seconds of one command, its output thrown away; exit 0 or 1 (same as the chapter's or not)
# is a run, anything else is said.
seconds() {
  local start end code=0
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || code=$?
  end=$(date +%s.%N)
  [ "$code" -le 1 ] || echo "exit $code: $*" >&2
  printf "%.3f\n" "$(echo "$end - $start" | bc)"
}
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# algorithm, classroom n and block (single-block scans hold n in one block)
cases="reduce-naive 256 64
reduce-tree 256 64
reduce-coarsened 256 64
reduce-shuffle 256 64
reduce-full 256 64
reduce-atomic 256 64
scan-blelloch 64 64
scan-hillis-steele 64 64
scan-multiblock 256 64
hist-global 256 64
hist-privatised 256 64
hist-per-warp 256 64"

printf '%-20s %14s %14s %16s\n' algorithm "cold n/block" "warm" "warm 65536/256"
while read -r algo n block; do
  bins=()
  case $algo in hist-*) bins=(--bins 16) ;; esac
  small=(--algo "$algo" --n "$n" --block "$block" "${bins[@]}" --backend cpu --check)
  "$pplab" listing --algo "$algo" --block "$block" "${bins[@]}" --out "$work/$algo.cu" >/dev/null
  cold=$(for _ in $(seq "$runs"); do
    rm -rf "$work/cache"
    XDG_CACHE_HOME="$work/cache" seconds "$pplab" run --kernel "$work/$algo.cu" "${small[@]}"
  done | median)
  warm=$(for _ in $(seq "$runs"); do
    XDG_CACHE_HOME="$work/cache" seconds "$pplab" run --kernel "$work/$algo.cu" "${small[@]}"
  done | median)
  large="-"
  if [ "$algo" != scan-blelloch ] && [ "$algo" != scan-hillis-steele ]; then
    "$pplab" listing --algo "$algo" --block 256 "${bins[@]}" --out "$work/$algo-256.cu" >/dev/null
    big=(--algo "$algo" --n 65536 --block 256 "${bins[@]}" --backend cpu --check)
    XDG_CACHE_HOME="$work/cache" seconds "$pplab" run --kernel "$work/$algo-256.cu" "${big[@]}" >/dev/null
    large=$(for _ in $(seq "$runs"); do
      XDG_CACHE_HOME="$work/cache" seconds "$pplab" run --kernel "$work/$algo-256.cu" "${big[@]}"
    done | median)
  fi
  [ "$large" = - ] || large="$large s"
  printf '%-20s %14s %14s %16s\n' "$algo" "$cold s" "$warm s" "$large"
done <<<"$cases"
