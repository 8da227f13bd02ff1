#!/bin/sh
# t/bench/llmstore.sh: the benchmark of llmstore (issue 7). It generates
# 10,000 valid responses (gen-store.js: half about 10 KB, kept as blobs,
# half under 1 KB, kept inline; 1-3 subjects of 3-7 keywords each and a
# summaryUpdate), times `llmstore put --batch` of them all into a new
# store beside `llmr-validate` over the same files in the same run, then
# `llmstore context` and `llmstore keywords` on the topic of 10,000
# messages so made. Before anything is reported the run checks the store:
# put printed one "HASH  FILE" line per file in order, ls lists every
# message, half of them as blobs, fsck is clean, and context prints
# exactly what gen-store.js computed (20 subjects, 50 keywords, in recent
# order). Times are reported, never judged; a failing command or a wrong
# output fails the run.
#
# Environment: LLMKIT_BIN, LLMKIT_BENCH (measure), LLMKIT_BENCH_DATA
# (default $LLMKIT_BENCH/data), BENCH_ST_FILES (10000, the responses),
# BENCH_ST_RUNS (3, the put and validate runs), BENCH_ST_CTX_RUNS (100,
# the context and keywords runs).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
data=${LLMKIT_BENCH_DATA:-$bench/data}
nfiles=${BENCH_ST_FILES:-10000}
runs=${BENCH_ST_RUNS:-3}
ctx_runs=${BENCH_ST_CTX_RUNS:-100}
gen=$top/t/bench/gen-store.js
st=$bin/llmstore
lv=$bin/llmr-validate
d=$data/store-$nfiles

fail() {
	echo "bench: $*" >&2
	exit 1
}

for f in "$st" "$lv" "$bench/measure"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
command -v node >/dev/null 2>&1 ||
	fail "node not found (Debian package nodejs): it writes the inputs"
case $nfiles in
'' | *[!0-9]* | 0*) fail "BENCH_ST_FILES must be a whole number from 1" ;;
esac
[ "$nfiles" -ge 100 ] ||
	fail "BENCH_ST_FILES must be at least 100 (context keeps 20 subjects and 50 keywords)"
for v in "$runs" "$ctx_runs"; do
	case $v in
	'' | *[!0-9]* | 0*) fail "BENCH_ST_RUNS and BENCH_ST_CTX_RUNS must be whole numbers from 1" ;;
	esac
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
unset LLMSTORE LLMSTORE_NOW

# data/store-N: r00000.xml ... context.json counts; made again when
# gen-store.js or this script is newer than .done.
if [ ! -f "$d/.done" ] ||
    [ -n "$(find "$gen" "$0" -newer "$d/.done" 2>/dev/null)" ]; then
	echo "bench: generating $d"
	rm -rf "$d"
	node "$gen" "$d" "$nfiles" 1 || fail "gen-store.js failed"
	: >"$d/.done"
fi
cd "$d" || exit 1
files=$(ls r*.xml) || exit 1
[ "$(echo "$files" | wc -l)" -eq "$nfiles" ] || fail "$d: not $nfiles responses"
read -r _ n_files _ n_blobs _ n_subjects _ n_keywords <counts ||
	fail "$d/counts: cannot read it"
[ "$n_files" = "$nfiles" ] || fail "$d/counts: says $n_files files"

# What we time must be right: every document valid, as llmr-validate says.
# shellcheck disable=SC2086
"$lv" $files 2>"$tmp/err" ||
	fail "llmr-validate rejects a generated response: $(head -n 3 "$tmp/err")"

# check STORE: the store that the first put made holds what it must.
check() {
	s=$1
	[ ! -s "$tmp/put.err" ] ||
		fail "put --batch said something: $(head -n 3 "$tmp/put.err")"
	echo "$files" | sed 's/^/HASH  /' >"$tmp/put.want"
	sed -E 's/^[0-9a-f]{64}  /HASH  /' "$tmp/put.out" >"$tmp/put.got"
	cmp -s "$tmp/put.want" "$tmp/put.got" ||
		fail "put --batch did not print one \"HASH  FILE\" line per file, in order: $(diff "$tmp/put.want" "$tmp/put.got" | head -n 5)"
	"$st" -d "$s" ls >"$tmp/ls.out" 2>"$tmp/err" ||
		fail "ls failed: $(head -n 3 "$tmp/err")"
	[ "$(wc -l <"$tmp/ls.out")" -eq "$nfiles" ] ||
		fail "ls listed $(wc -l <"$tmp/ls.out") attachments, not $nfiles"
	# the hashes ls gives are those put printed, in the same order
	sed -E 's/^([0-9a-f]{64})  r([0-9]{5})\.xml$/\1 r\2/' "$tmp/put.out" \
	    >"$tmp/hashes.put"
	sed -E 's/.*"messageId":"(r[0-9]{5})".*"hash":"([0-9a-f]{64})"}$/\2 \1/' \
	    "$tmp/ls.out" >"$tmp/hashes.ls"
	cmp -s "$tmp/hashes.put" "$tmp/hashes.ls" ||
		fail "ls does not list the hashes put printed, in order: $(diff "$tmp/hashes.put" "$tmp/hashes.ls" | head -n 5)"
	got=$(grep -c '"xmlBlob":"' "$tmp/ls.out")
	[ "$got" -eq "$n_blobs" ] || fail "ls shows $got blobs, not $n_blobs"
	"$st" -d "$s" fsck 2>"$tmp/err" ||
		fail "fsck is not clean: $(head -n 3 "$tmp/err")"
	[ ! -s "$tmp/err" ] || fail "fsck said: $(head -n 3 "$tmp/err")"
	"$st" -d "$s" context bench >"$tmp/context.out" ||
		fail "context failed"
	cmp -s context.json "$tmp/context.out" ||
		fail "context printed $(cat "$tmp/context.out"), not $(cat context.json)"
	got=$("$st" -d "$s" keywords bench | wc -l)
	[ "$got" -eq "$n_keywords" ] ||
		fail "keywords printed $got lines, not $n_keywords"
	# shellcheck disable=SC2016
	"$st" -d "$s" keywords bench | head -n 50 |
	    sed -E 's/^\{"\$type\$":"Keyword","topicId":"bench","term":"([^"]*)".*/\1/' |
	    tr '\n' ',' >"$tmp/kw.got"
	sed -E 's/.*"recentKeywords":\[(.*)\]\}$/\1/; s/"//g' context.json |
	    sed 's/$/,/' | tr -d '\n' >"$tmp/kw.want"
	cmp -s "$tmp/kw.want" "$tmp/kw.got" ||
		fail "keywords does not start with the context's 50 terms"
	got=$("$st" -d "$s" subjects bench | wc -l)
	[ "$got" -eq "$n_subjects" ] ||
		fail "subjects printed $got lines, not $n_subjects"
}

bytes=$(cat r*.xml | wc -c)
: >"$tmp/results"
# measure LABEL CMD...: one timed run, appended to the results as
# "LABEL runs=1 median=... min=... cpu=... maxrss_kb=...". measure
# fails when the command does not exit 0.
measure() {
	label=$1
	shift
	line=$("$bench/measure" -n 1 -- "$@") || fail "$label failed"
	echo "$label $line" >>"$tmp/results"
}
echo "bench: timing put --batch and llmr-validate of $nfiles responses" \
    "($runs runs each)"
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	# a new store each run; put's output goes to a file, to be checked
	rm -f "$tmp/s.db" "$tmp/s.db-wal" "$tmp/s.db-shm"
	# shellcheck disable=SC2016,SC2086
	measure put sh -c 'out=$1 err=$2; shift 2; exec "$@" >"$out" 2>"$err"' \
	    sh "$tmp/put.out" "$tmp/put.err" "$st" -d "$tmp/s.db" put --batch \
	    -t bench $files
	if [ "$i" -eq 1 ]; then
		check "$tmp/s.db"
		store_bytes=$(wc -c <"$tmp/s.db")
		mv "$tmp/s.db" "$tmp/ctx.db"
		rm -f "$tmp/s.db-wal" "$tmp/s.db-shm"
	fi
	# shellcheck disable=SC2086
	measure validate "$lv" $files
done
rm -f "$tmp/s.db" "$tmp/s.db-wal" "$tmp/s.db-shm"

echo "bench: timing context and keywords on $nfiles messages" \
    "($ctx_runs runs each)"
line=$("$bench/measure" -n "$ctx_runs" -- "$st" -d "$tmp/ctx.db" context bench) ||
	fail "context failed"
echo "context $line" >>"$tmp/results"
line=$("$bench/measure" -n "$ctx_runs" -- "$st" -d "$tmp/ctx.db" keywords bench) ||
	fail "keywords failed"
echo "keywords $line" >>"$tmp/results"
# the floor: a process that loads the same libraries and does nothing
line=$("$bench/measure" -n "$ctx_runs" -- "$st" --version) ||
	fail "llmstore --version failed"
echo "version $line" >>"$tmp/results"

cat >"$tmp/report.awk" <<'AWK'
function tm(t) {
	return t < 1 ? sprintf("%8.2f ms", t * 1000) : sprintf("%8.3f s ", t)
}
function row(label, k) {
	printf "  %-34s %s %s %s %7.1f MB\n", label, tm(med[k]), tm(min[k]),
	    tm(cpu[k]), rss[k] / 1e6
}
{
	kv($0, 2)
	record($1)
}
END {
	summarize()
	hdr = sprintf("  %-34s %11s %11s %11s %10s", "", "median", "fastest",
	    "median CPU", "peak RSS")
	printf "\n%d responses (%d over 1,024 bytes), %.1f MB, %d runs each\n",
	    nf, nb, bytes / 1e6, n["put"]
	print hdr
	row("llmstore put --batch (new store)", "put")
	row("llmr-validate", "validate")
	printf "  store: %.1f MB for %.1f MB of XML\n", sbytes / 1e6, bytes / 1e6
	printf "\nthe topic of %d messages, %d runs each\n", nf, runs_ctx
	print hdr
	row("llmstore context", "context")
	row("llmstore keywords", "keywords")
	row("llmstore --version (the floor)", "version")
	print "\nratios: median wall time [fastest run] {median CPU time}"
	printf "  %-44s %6.2fx [%5.2fx] {%5.2fx}  target <= 3x\n",
	    "put --batch / llmr-validate:", med["put"] / med["validate"],
	    min["put"] / min["validate"], cpu["put"] / cpu["validate"]
	printf "  %-44s %8.3f ms (CPU %.3f ms)  reported\n",
	    "put --batch per response:", med["put"] * 1000 / nf,
	    cpu["put"] * 1000 / nf
	printf "  %-44s %8.2f ms [%.2f ms] {%.2f ms}  target < 10 ms\n",
	    "context, median of " runs_ctx " runs:", med["context"] * 1000,
	    min["context"] * 1000, cpu["context"] * 1000
	printf "  %-44s %8.2f ms [%.2f ms] {%.2f ms}  reported\n",
	    "keywords, median of " runs_ctx " runs:", med["keywords"] * 1000,
	    min["keywords"] * 1000, cpu["keywords"] * 1000
	printf "  %-44s %8.2f ms [%.2f ms] {%.2f ms}  reported\n",
	    "context less the floor:", (med["context"] - med["version"]) * 1000,
	    (min["context"] - min["version"]) * 1000,
	    (cpu["context"] - cpu["version"]) * 1000
}
AWK
awk -v nf="$nfiles" -v nb="$n_blobs" -v bytes="$bytes" \
    -v sbytes="$store_bytes" -v runs_ctx="$ctx_runs" \
    -f "$top/t/bench/stats.awk" -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"
