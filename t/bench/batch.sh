#!/bin/sh
# t/bench/batch.sh: jsonresp-check as a map step over 1,000,000 JSON lines
# on this machine's cores (issue 19, llmkit(7) "Batch and cluster runs").
# The lines, of gen-batch.awk (of every ten, seven valid, two invalid, one
# critical), are made once and kept in the bench data directory, with the
# same lines cut into files of 10,000 for xargs. Taking turns run by run,
# it times:
#   one process        jsonresp-check -q -o report --lines <lines.jsonl,
#                      the baseline
#   xargs -P CORES     the files, one process each, CORES at a time, each
#                      writing its records to a file of its own
#   parallel --pipe    GNU parallel --pipe --block BLOCK --keep-order over
#                      standard input, CORES jobs at a time
# and prints each one's times, its speed-up over one process and that
# speed-up per core. Before any timing, the verdicts of each runner are
# compared with one process's, byte for byte, once the runner's order is
# undone (xargs's files put back in order) and the places are those of the
# whole file (each file or block is an input of its own, its lines
# counted from 1); a difference fails the run. Times are reported, never
# judged.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure),
# LLMKIT_BENCH_DATA (where the lines are kept, default
# $LLMKIT_BENCH/data), BENCH_BATCH_LINES (1000000), BENCH_BATCH_RUNS (3),
# BENCH_BATCH_BLOCK (10M), BENCH_BATCH_JOBS (the cores, nproc).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
data=${LLMKIT_BENCH_DATA:-$bench/data}
nlines=${BENCH_BATCH_LINES:-1000000}
runs=${BENCH_BATCH_RUNS:-3}
block=${BENCH_BATCH_BLOCK:-10M}
jobs=${BENCH_BATCH_JOBS:-$(nproc)}
gen=$top/t/bench/gen-batch.awk
jr=$bin/jsonresp-check
d=$data/batch

fail() {
	echo "bench: $*" >&2
	exit 1
}

for f in "$jr" "$bench/measure"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
for c in jq parallel perl xargs split; do
	command -v "$c" >/dev/null 2>&1 ||
		fail "$c not found (sh tools/deps installs it)"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
# parallel keeps its files under HOME: not the user's
export HOME="$tmp"
export PATH="$bin:$PATH"

# data/batch: lines.jsonl, and parts/x000 ... its lines 10,000 a file;
# made again when gen-batch.awk or this script is newer than .done, or
# for another number of lines.
if [ ! -f "$d/.done" ] || [ "$(cat "$d/.done")" != "$nlines" ] ||
    [ -n "$(find "$gen" "$0" -newer "$d/.done" 2>/dev/null)" ]; then
	echo "bench: generating $d ($nlines lines)"
	rm -rf "$d"
	mkdir -p "$d/parts" || fail "cannot make $d"
	awk -v n="$nlines" -f "$gen" >"$d/lines.jsonl" ||
		fail "gen-batch.awk failed"
	(cd "$d/parts" && split -l 10000 -d -a 3 ../lines.jsonl x) ||
		fail "cannot split the lines"
	echo "$nlines" >"$d/.done"
fi
nparts=$(find "$d/parts" -name 'x*' | wc -l | tr -d ' ')

# The runners, as scripts that exit 0 when the runner did: jsonresp-check
# exits 4 (a critical line, in every file and block beside invalid ones),
# xargs 123 (a process exited 1 to 125), parallel the number of its jobs
# (every one of them failed), at most 101.
mkdir "$tmp/out" || exit 1
cat >"$tmp/one" <<EOF
jsonresp-check -q -o report --lines <"$d/lines.jsonl" >"\$1"
test \$? -eq 4
EOF
cat >"$tmp/xargs" <<EOF
rm -f "$tmp"/out/x*
find "$d/parts" -name 'x*' | xargs -P $jobs -n 1 sh -c \\
    'jsonresp-check -q -o report --lines "\$1" >"$tmp/out/\${1##*/}"' sh
test \$? -eq 123
EOF
cat >"$tmp/parallel" <<EOF
parallel -j $jobs --pipe --block $block --keep-order \\
    jsonresp-check -q -o report --lines <"$d/lines.jsonl" >"\$1"
s=\$?
test "\$s" -ge 1 && test "\$s" -le 101
EOF

# Is what we time right? The records of each runner are those of one
# process: files and lines made those of the one input, xargs's outputs
# taken in the order of the files.
norm() {
	perl -pe 's/^\{"file":"[^"]*","line":\d+,/{"file":"<stdin>","line":$.,/;
	    s/\{"file":"[^"]*","line":\d+,"column"/{"file":"<stdin>","line":$.,"column"/g'
}
sh "$tmp/one" "$tmp/one.jsonl" || fail "one process failed"
[ "$(wc -l <"$tmp/one.jsonl" | tr -d ' ')" = "$nlines" ] ||
	fail "one process wrote $(wc -l <"$tmp/one.jsonl") records, not $nlines"
norm <"$tmp/one.jsonl" >"$tmp/one.norm"
cmp -s "$tmp/one.jsonl" "$tmp/one.norm" ||
	fail "one process's records are not numbered 1 to $nlines"
sh "$tmp/xargs" || fail "xargs failed"
cat "$tmp"/out/x* | norm >"$tmp/xargs.norm"
cmp "$tmp/one.jsonl" "$tmp/xargs.norm" >&2 ||
	fail "xargs -P $jobs: the verdicts differ from one process's"
sh "$tmp/parallel" "$tmp/parallel.jsonl" || fail "parallel failed"
norm <"$tmp/parallel.jsonl" >"$tmp/parallel.norm"
cmp "$tmp/one.jsonl" "$tmp/parallel.norm" >&2 ||
	fail "parallel --pipe: the verdicts differ from one process's"
nblocks=$(grep -c '^{"file":"<stdin>","line":1,' "$tmp/parallel.jsonl")
rm -f "$tmp"/*.norm "$tmp/parallel.jsonl" "$tmp"/out/x*
{
	echo "size lines=$nlines bytes=$(wc -c <"$d/lines.jsonl" | tr -d ' ')"
	echo "setup jobs=$jobs parts=$nparts blocks=$nblocks"
	echo "agree records=$(wc -l <"$tmp/one.jsonl" | tr -d ' ')"
	jq -r .status "$tmp/one.jsonl" | sort | uniq -c |
	    awk '{ printf "status s%s=%s\n", $2, $1 }'
} >"$tmp/results"

# measure LABEL SCRIPT: one timed run, appended to the results.
measure() {
	label=$1
	line=$("$bench/measure" -n 1 -- sh "$2" /dev/null) ||
		fail "$label failed"
	echo "$label $line" >>"$tmp/results"
}

echo "bench: timing $nlines lines, $jobs jobs ($runs runs each)"
i=0
while [ "$i" -lt "$runs" ]; do
	measure one "$tmp/one"
	measure xargs "$tmp/xargs"
	measure parallel "$tmp/parallel"
	i=$((i + 1))
done

# The table, and the speed-ups: of the median wall times, of the fastest
# runs [in brackets]; per core, the median's over the jobs.
cat >"$tmp/report.awk" <<'AWK'
function row(label, k) {
	printf "  %-34s %9.3f s %9.3f s %9.3f s %8.1f MB\n", label, med[k],
	    min[k], cpu[k], rss[k] / 1e6
}
function speedup(label, k) {
	printf "  %-34s %7.2fx [%6.2fx]  %6.2fx per core\n", label,
	    med["one"] / med[k], min["one"] / min[k],
	    med["one"] / med[k] / jobs
}
{
	kv($0, 2)
	if ($1 == "size") {
		nl = f["lines"]; bytes = f["bytes"]
	} else if ($1 == "setup") {
		jobs = f["jobs"]; parts = f["parts"]; blocks = f["blocks"]
	} else if ($1 == "agree") {
		agree = f["records"]
	} else if ($1 == "status") {
		st = st sprintf(", %d of status %s", f[$2 == "" ? "" : \
		    substr($2, 1, index($2, "=") - 1)], \
		    substr($2, 2, index($2, "=") - 2))
	} else
		record($1)
}
END {
	summarize()
	printf "\n%d responses as JSON lines, %.1f MB; %d jobs at once\n",
	    nl, bytes / 1e6, jobs
	printf "  %-34s %11s %11s %11s %11s\n", "", "median", "fastest",
	    "median CPU", "peak RSS"
	row("one process", "one")
	row(sprintf("xargs -P %d (%d files)", jobs, parts), "xargs")
	row(sprintf("parallel --pipe (%d blocks)", blocks), "parallel")
	print "\nspeed-up over one process: median wall time [fastest run]"
	speedup("xargs -P:", "xargs")
	speedup("parallel --pipe --keep-order:", "parallel")
	printf "\nverdicts: %d records%s; xargs and parallel agree with one " \
	    "process byte for byte, once put in order\n", agree, st
}
AWK
awk -f "$top/t/bench/stats.awk" -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"
