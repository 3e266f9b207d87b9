#!/bin/sh
# SPDX-License-Identifier: MIT
# Turn the CSV of sgrt_bench into a chart of ns per node, one panel per frame
# kind, one group of bars per scene, one bar per implementation.
#
#   ./build/bench/sgrt_bench --csv bench.csv
#   bench/plot.sh bench.csv docs/bench.svg      (or .png)
#
# Needs gnuplot (Debian: gnuplot-nox).
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 RESULTS.csv [OUT.svg|OUT.png]" >&2
    exit 2
fi
csv=$1
out=${2:-docs/bench.svg}
command -v gnuplot >/dev/null 2>&1 || { echo "$0: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
[ -r "$csv" ] || { echo "$0: cannot read $csv" >&2; exit 1; }

case $out in
    *.png) term="pngcairo size 1100,1250 font 'sans,10'" ;;
    *.svg) term="svg size 1100,1250 dynamic font 'sans,10' background '#ffffff'" ;;
    *) echo "$0: output must end in .svg or .png" >&2; exit 2 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Block 0 of the CSV (scene rows) split by frame kind; '%' is awkward in file
# names and gnuplot strings, so "1%" becomes "one".
awk -F, -v dir="$tmp" '
    /^#/ { next }
    /^$/ { if (seen) exit; next }
    !seen { seen = 1; next }      # header line
    { f = ($2 == "1%") ? "one" : $2; print > (dir "/" f ".csv") }
' "$csv"
for f in all one none; do
    [ -s "$tmp/$f.csv" ] || { echo "$0: no '$f' rows in $csv" >&2; exit 1; }
done

compiler=$(sed -n 's/^# compiler : //p' "$csv" | head -n 1)
simd=$(sed -n 's/^# simd     : \(.*\) (sgrt_simd_name.*/\1/p' "$csv" | head -n 1)
machine=$(sed -n 's/^# machine  : \([^;]*\).*/\1/p' "$csv" | head -n 1)

gnuplot <<EOF
set terminal $term
set termoption noenhanced
set output '$out'
set datafile separator ','
set datafile missing ''
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set format y '%g'
set grid ytics mytics lc rgb '#dddddd'
set ylabel 'ns per scene node (log scale)'
set xtics nomirror
set multiplot layout 3,1 title "sgrt_scene_update vs naive scene graph — $compiler, kernel: $simd\n$machine"
array col[8] = [7, 8, 9, 10, 11, 12, 15, 16]
array name[8] = ["sgrt", "sgrt, C reference kernels", "naive", "naive, shuffled heap", \
                 "naive + dirty flag", "naive + dirty, shuffled", "copy floor (memcpy)", \
                 "chain latency (sgrt_node_world_now)"]
array color[8] = ["#1f77b4", "#9ecae1", "#d62728", "#ff9896", "#2ca02c", "#98df8a", \
                  "#7f7f7f", "#bcbd22"]
do for [p in "all one none"] {
    if (p eq "all") { set key outside top center horizontal maxrows 2 } else { unset key }
    set title (p eq "all" ? "everything moved" : \
               p eq "one" ? "1 % of nodes moved (random nodes, fresh each frame)" : "nothing moved")
    plot for [i=1:8] '$tmp/'.p.'.csv' using col[i]:xtic(1) title name[i] lc rgb color[i]
}
unset multiplot
EOF
echo "wrote $out"
