#!/bin/sh
# t/bench/jsonresp-lines.sh: the memory and time of jsonresp-check --lines
# on a large input (issue 14). It writes about 100 MB of short valid
# responses, one per line (about 200 bytes each), checks that
# jsonresp-check accepts every line silently and that jansson-parse reads
# them all, then times, taking turns run by run:
#   jsonresp-check --lines FILE   which reads a line at a time, so that its
#                                 peak RSS is bounded by the longest line,
#                                 not by the input
#   jansson-parse FILE            the floor of t/bench/jsonresp-check.sh:
#                                 the file read whole, one json_loadb per
#                                 line, nothing else
# and, when BENCH_JL_BEFORE names another jsonresp-check (an older build,
# say), that one too, so that a change can be measured against it in the
# same run. It prints the peak RSS of jsonresp-check (target under 20 MB)
# and its time over jansson-parse's. Times are reported, never judged; a
# failing command or a wrong verdict fails the run.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure and
# jansson-parse), BENCH_JL_MB (100, the size of the input in MB),
# BENCH_JL_RUNS (3), BENCH_JL_BEFORE.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
mb=${BENCH_JL_MB:-100}
runs=${BENCH_JL_RUNS:-3}
before=${BENCH_JL_BEFORE:-}
jr=$bin/jsonresp-check

fail() {
	echo "bench: $*" >&2
	exit 1
}

for f in "$jr" "$bench/measure" "$bench/jansson-parse" ${before:+"$before"}; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# About 203 bytes a line: the seed's minimal response, numbered.
echo "bench: writing $mb MB of short responses, one per line"
nlines=$((mb * 1000000 / 210))
awk -v n="$nlines" 'BEGIN {
	for (i = 0; i < n; i++)
		printf "{\"type\":\"response\",\"safety\":{\"is_safe\":true," \
		    "\"danger_level\":null,\"detected_concerns\":[]," \
		    "\"requires_intervention\":false},\"content\":" \
		    "{\"text_blocks\":[{\"type\":\"text\",\"content\":" \
		    "\"hi %d\"}]},\"metadata\":{\"model\":\"m\"}}\n", i
}' >"$tmp/lines.jsonl" || fail "cannot write the input"

# Is what we time right? Every line valid and silent; all of them read.
for j in "$jr" ${before:+"$before"}; do
	"$j" --lines "$tmp/lines.jsonl" 2>"$tmp/err" ||
		fail "$j --lines rejects a line: $(head -n 3 "$tmp/err")"
	[ ! -s "$tmp/err" ] ||
		fail "$j --lines warns: $(head -n 3 "$tmp/err")"
done
got=$("$bench/jansson-parse" "$tmp/lines.jsonl") ||
	fail "jansson-parse cannot read the input"
[ "$got" = "$nlines documents" ] ||
	fail "jansson-parse read \"$got\", not $nlines documents"
echo "size lines=$nlines bytes=$(wc -c <"$tmp/lines.jsonl" | tr -d ' ')" \
    >"$tmp/results"

# measure LABEL CMD...: one timed run, appended to the results.
measure() {
	label=$1
	shift
	line=$("$bench/measure" -n 1 -- "$@") || fail "$label failed"
	echo "$label $line" >>"$tmp/results"
}

echo "bench: timing $nlines lines ($runs runs each)"
i=0
while [ "$i" -lt "$runs" ]; do
	measure jr "$jr" --lines "$tmp/lines.jsonl"
	measure jansson "$bench/jansson-parse" "$tmp/lines.jsonl"
	[ -z "$before" ] ||
		measure before "$before" --lines "$tmp/lines.jsonl"
	i=$((i + 1))
done

# The table, and the ratios: of the median wall times, of the fastest
# runs [in brackets], and of the median CPU times {in braces}.
cat >"$tmp/report.awk" <<'AWK'
function tm(t) {
	return t < 1 ? sprintf("%8.2f ms", t * 1000) : sprintf("%8.3f s ", t)
}
function row(label, k) {
	if (!(k in med))
		return
	printf "  %-32s %s %s %s %8.1f MB\n", label, tm(med[k]), tm(min[k]),
	    tm(cpu[k]), rss[k] / 1e6
}
function ratio(what, a, b, target) {
	if (!(a in med) || !(b in med))
		return
	printf "  %-44s %7.2fx [%6.2fx] {%6.2fx}  %s\n", what,
	    med[a] / med[b], min[a] / min[b], cpu[a] / cpu[b], target
}
{
	kv($0, 2)
	if ($1 == "size") {
		nl = f["lines"]; bytes = f["bytes"]
		next
	}
	record($1)
}
END {
	summarize()
	printf "\n%d responses as JSON lines, %.1f MB\n", nl, bytes / 1e6
	printf "  %-32s %11s %11s %11s %11s\n", "", "median", "fastest",
	    "median CPU", "peak RSS"
	row("jsonresp-check --lines", "jr")
	row("jansson-parse (json_loadb/line)", "jansson")
	row("BENCH_JL_BEFORE --lines", "before")
	print "\nratios: median wall time [fastest run] {median CPU time}"
	ratio("jsonresp-check --lines / jansson parse:", "jr", "jansson",
	    "reported")
	ratio("BENCH_JL_BEFORE --lines / jansson parse:", "before",
	    "jansson", "reported")
	ratio("jsonresp-check / BENCH_JL_BEFORE:", "jr", "before",
	    "target <= 1x")
	printf "  %-44s %7.1f MB  target < 20 MB\n",
	    "jsonresp-check --lines peak RSS:", rss["jr"] / 1e6
	if ("before" in med)
		printf "  %-44s %7.1f MB\n", "BENCH_JL_BEFORE --lines peak RSS:",
		    rss["before"] / 1e6
}
AWK
awk -f "$top/t/bench/stats.awk" -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"
