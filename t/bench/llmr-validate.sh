#!/bin/sh
# t/bench/llmr-validate.sh: the benchmark of llmr-validate. It generates
# 10,000 valid responses of about 10 KB and validates them all in one
# call, beside expat's own xmlwf over the same files in the same run (the
# floor for an expat-based checker); then 1 MB and 4 MB responses, to
# show that time grows linearly and memory stays within 3x of the input.
#
# Environment: LLMKIT_BIN, LLMKIT_BENCH (measure), LLMKIT_BENCH_DATA
# (default $LLMKIT_BENCH/data), BENCH_MANY_RUNS (5), BENCH_BIG_RUNS (5).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
data=${LLMKIT_BENCH_DATA:-$bench/data}
many_runs=${BENCH_MANY_RUNS:-5}
big_runs=${BENCH_BIG_RUNS:-5}
gen=$top/t/bench/gen-responses.js
lv=$bin/llmr-validate

fail() {
	echo "bench: $*" >&2
	exit 1
}

for f in "$lv" "$bench/measure"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
command -v xmlwf >/dev/null 2>&1 || fail "xmlwf not found (Debian package expat)"
command -v node >/dev/null 2>&1 || fail "node not found: it writes the inputs"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# gen DIR COUNT BYTES SEED: data/DIR, made again when the generator or
# this script is newer.
gen() {
	if [ -f "$data/$1/.done" ] &&
	    [ -z "$(find "$gen" "$0" -newer "$data/$1/.done" 2>/dev/null)" ]; then
		return 0
	fi
	echo "bench: generating $data/$1"
	rm -rf "$data/$1"
	node "$gen" "$data/$1" "$2" "$3" "$4" || fail "gen-responses.js $* failed"
	: >"$data/$1/.done"
}
gen responses 10000 10000 1
gen big1 1 1000000 2
gen big4 1 4000000 3

# What we time must be right: every document valid, as xmlwf agrees.
(cd "$data/responses" && "$lv" r*.xml) || fail "llmr-validate rejects a generated response"
(cd "$data/responses" && xmlwf r*.xml >"$tmp/xmlwf.out") || fail "xmlwf failed"
[ ! -s "$tmp/xmlwf.out" ] || fail "xmlwf rejects a generated response"
"$lv" "$data/big1/one.xml" "$data/big4/one.xml" || fail "llmr-validate rejects a big response"

: >"$tmp/results"
measure() {
	label=$1
	shift
	line=$("$bench/measure" -n 1 -- "$@") || fail "$label failed"
	echo "$label $line" >>"$tmp/results"
}
echo "bench: timing 10,000 responses ($many_runs runs each)"
cd "$data/responses" || exit 1
i=0
while [ "$i" -lt "$many_runs" ]; do
	# shellcheck disable=SC2046
	measure llmr-validate "$lv" $(ls r*.xml)
	# shellcheck disable=SC2046
	measure xmlwf xmlwf $(ls r*.xml)
	i=$((i + 1))
done
echo "bench: timing 1 MB and 4 MB responses ($big_runs runs each)"
i=0
while [ "$i" -lt "$big_runs" ]; do
	measure big1 "$lv" "$data/big1/one.xml"
	measure big4 "$lv" "$data/big4/one.xml"
	measure big4-xmlwf xmlwf "$data/big4/one.xml"
	i=$((i + 1))
done
bytes_many=$(cat r*.xml | wc -c)
bytes1=$(wc -c <"$data/big1/one.xml")
bytes4=$(wc -c <"$data/big4/one.xml")

cat >"$tmp/report.awk" <<'AWK'
{
	kv($0, 2)
	record($1)
}
END {
	summarize()
	printf "\n10,000 responses, %.1f MB, %d runs each\n", bm / 1e6, n["xmlwf"]
	printf "  %-16s %10s %10s %11s %9s\n", "", "median", "fastest", "median CPU", "peak RSS"
	split("llmr-validate xmlwf", p, " ")
	for (j = 1; j <= 2; j++)
		printf "  %-16s %8.3f s %8.3f s %9.3f s %6.1f MB\n", p[j],
		    med[p[j]], min[p[j]], cpu[p[j]], rss[p[j]] / 1e6
	printf "\nbig responses, %d runs each\n", n["big1"]
	printf "  %-22s %8.2f ms  peak RSS %6.1f MB\n", "llmr-validate 1 MB",
	    med["big1"] * 1000, rss["big1"] / 1e6
	printf "  %-22s %8.2f ms  peak RSS %6.1f MB\n", "llmr-validate 4 MB",
	    med["big4"] * 1000, rss["big4"] / 1e6
	printf "  %-22s %8.2f ms  peak RSS %6.1f MB\n", "xmlwf 4 MB",
	    med["big4-xmlwf"] * 1000, rss["big4-xmlwf"] / 1e6
	print "\nratios: median wall time [fastest run] {median CPU time}"
	printf "  %-44s %6.2fx [%5.2fx] {%5.2fx}  target <= 1.5x\n",
	    "llmr-validate / xmlwf, 10,000 files:", med["llmr-validate"] / med["xmlwf"],
	    min["llmr-validate"] / min["xmlwf"], cpu["llmr-validate"] / cpu["xmlwf"]
	printf "  %-44s %8.3f ms (CPU %.3f ms)  target < 10 ms\n",
	    "llmr-validate per 10 KB document:", med["llmr-validate"] / 10,
	    cpu["llmr-validate"] / 10
	printf "  %-44s %6.2fx for %.2fx the bytes  linear: about equal\n",
	    "llmr-validate 4 MB / 1 MB time:", med["big4"] / med["big1"], b4 / b1
	printf "  %-44s %6.2fx  target <= 3x\n",
	    "llmr-validate peak RSS / input, 4 MB:", rss["big4"] / b4
}
AWK
awk -v bm="$bytes_many" -v b1="$bytes1" -v b4="$bytes4" \
    -f "$top/t/bench/stats.awk" -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"
