#!/bin/sh
# `gtastream img add` on a large version 2 archive against copying the archive (PERFORMANCE.md,
# "IMG archives: editing"). Linux, GNU coreutils and /usr/bin/time.
#
#   benches/img_add.sh [RUNS] [DIR]
#
# Makes DIR (default target/bench-img; never commit it): `big.img`, 128 entries of 2 MiB
# (256 MiB), `small.img`, one 1 MiB entry, and `added.dat`, 1 MiB. The first `img add` appends
# `added.dat`; every later one replaces it in its place, so each run writes the same archive.
# Then RUNS pairs (default 11), in turn: A = `gtastream img add big.img added.dat`,
# B = `cp big.img copy.img && sync`. Prints each pair's wall times and A/B, the median ratio,
# and the peak resident memory of `img add` on the 1 MiB and the 256 MiB archive.
# GTASTREAM names the binary (default target/release/gtastream: `cargo build --release -p
# gtastream-cli` first).
set -eu

runs=${1:-11}
dir=${2:-target/bench-img}
bin=$(realpath "${GTASTREAM:-target/release/gtastream}")
mkdir -p "$dir"
cd "$dir"

if [ ! -f big.img ]; then
    mkdir -p entries
    i=0
    while [ $i -lt 128 ]; do
        head -c 2097152 /dev/urandom >"entries/e$(printf %03d $i).dat"
        i=$((i + 1))
    done
    head -c 1048576 /dev/urandom >added.dat
    "$bin" img new big.img entries/*.dat >/dev/null
    "$bin" img new small.img added.dat >/dev/null
    rm -r entries
fi

# Wall seconds of a command, its output dropped.
wall() {
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    echo "$start $end" | awk '{ printf "%.4f", ($2 - $1) / 1e9 }'
}

# Warm-up: the archive in the page cache, `added.dat` in it.
"$bin" img add big.img added.dat >/dev/null 2>&1
cp big.img copy.img && sync

ratios=""
n=0
while [ $n -lt "$runs" ]; do
    a=$(wall "$bin" img add big.img added.dat)
    b=$(wall sh -c 'cp big.img copy.img && sync')
    r=$(echo "$a $b" | awk '{ printf "%.3f", $1 / $2 }')
    echo "pair $n: img add ${a} s, cp + sync ${b} s, ratio $r"
    ratios="$ratios $r"
    n=$((n + 1))
done
echo "$ratios" | tr ' ' '\n' | grep . | sort -n |
    awk '{ v[NR] = $1 } END { printf "median ratio A/B over %d pairs: %.3f\n", NR, v[int((NR + 1) / 2)] }'

for archive in small.img big.img; do
    peak=$(/usr/bin/time -v "$bin" img add "$archive" added.dat 2>&1 >/dev/null |
        awk -F': ' '/Maximum resident/ { print $2 }')
    echo "peak resident memory, img add on $archive: $peak KiB"
done
rm -f copy.img
