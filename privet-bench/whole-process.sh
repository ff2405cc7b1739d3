#!/usr/bin/env bash
# Whole-process benchmark of issue 15: `privet query` processes (the ./privet launcher) against a
# whole JVM process running the hand-written minimum-hash bounding (c) on the same Parquet file
# (MinHashProcess, with only the DuckDB JDBC jar), interleaved, plus start-up pieces. Prints per
# round wall and CPU (user + system) seconds, then medians and ratios, and the load average.
#
# Usage (repo root, after `mvn -B -q -ntp -pl privet-bench,privet-cli -am -DskipTests install`):
#   privet-bench/whole-process.sh [ROWS=10000000] [ROUNDS=5] [WORKDIR=/tmp/privet-whole]
# DUCKDB_JAR overrides the DuckDB JDBC jar (default: found in MAVEN_REPO or ~/.m2/repository).
set -euo pipefail
one=
if [ "${1:-}" = --one ]; then one="$2"; shift 2; fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rows="${1:-10000000}"; rounds="${2:-5}"; work="${3:-/tmp/privet-whole}"
repo="${MAVEN_REPO:-$HOME/.m2/repository}"
duck="${DUCKDB_JAR:-$(ls "$repo"/org/duckdb/duckdb_jdbc/*/duckdb_jdbc-*.jar | grep -v sources | tail -1)}"
base_cp="$root/privet-bench/target/classes:$duck"
mkdir -p "$work"
data="$work/events-$rows.parquet"
if [ ! -f "$data" ]; then
  java -cp "$root/privet-bench/target/benchmarks.jar" org.privet.bench.engine.MinHashProcess \
    --generate "$rows" "$data"
fi
export PRIVET_HOME="$work/ws-$rows" PRIVET_CACHE_DIR="$work/cache"
if [ ! -d "$PRIVET_HOME" ]; then
  "$root/privet" dataset register --name events --source "$data" --privacy-unit uid \
    --epsilon 1000000 --delta 0.5 >/dev/null
fi
q="SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6, max_groups_contributed = 1, max_rows_per_group = 1) grp, COUNT(*) AS n, SUM(amount, contribution_bounds_per_row => (0, 500)) AS total, AVG(amount, contribution_bounds_per_row => (0, 500)) AS avg FROM events GROUP BY grp"

names=("(c) process" "privet query" "privet query, PRIVET_CDS=off" "JVM+DuckDB start" "privet --version" "privet --version, CDS off" "privet query --explain" "privet query --explain, CDS off")
run() { # index → runs the command once, output discarded
  case "$1" in
    0) java -cp "$base_cp" org.privet.bench.engine.MinHashProcess "$data" ;;
    1) "$root/privet" query --format csv "$q" ;;
    2) PRIVET_CDS=off "$root/privet" query --format csv "$q" ;;
    3) java -cp "$base_cp" org.privet.bench.engine.MinHashProcess --startup ;;
    4) "$root/privet" --version ;;
    5) PRIVET_CDS=off "$root/privet" --version ;;
    6) "$root/privet" query --explain "$q" ;;
    7) PRIVET_CDS=off "$root/privet" query --explain "$q" ;;
  esac >/dev/null 2>&1
}
if [ -n "$one" ]; then run "$one"; exit; fi
declare -A wall cpu
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = -1; r < rounds; r++)); do
  line="round $r:"
  for ((k = 0; k < ${#names[@]}; k++)); do
    i=$(( (r & 1) == 0 ? k : ${#names[@]} - 1 - k ))
    t="$( { /usr/bin/time -f '%e %U %S' "$0" --one "$i" "$rows" "$rounds" "$work"; } 2>&1 >/dev/null | tail -1)"
    read -r w u s <<<"$t"
    c="$(awk "BEGIN {print $u + $s}")"
    line+="  [$i] ${w}s/${c}s"
    if ((r >= 0)); then wall[$i]+="$w "; cpu[$i]+="$c "; fi
  done
  echo "$line"
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "$rounds rounds (+1 warm-up), $rows rows; load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %12s %12s %10s %10s\n' "process" "wall median" "cpu median" "wall/(c)" "cpu/(c)"
w0="$(median <<<"${wall[0]}")"; c0="$(median <<<"${cpu[0]}")"
for ((i = 0; i < ${#names[@]}; i++)); do
  w="$(median <<<"${wall[$i]}")"; c="$(median <<<"${cpu[$i]}")"
  printf '%-34s %10.3f s %10.2f s %10.3f %10.3f\n' "${names[$i]}" "$w" "$c" \
    "$(awk "BEGIN {print $w / $w0}")" "$(awk "BEGIN {print $c / $c0}")"
done
