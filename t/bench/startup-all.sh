#!/bin/sh
# t/bench/startup-all.sh: the start-up of every tool. A tool run on a
# single answer, a short thread or one tool call is mostly start-up: the
# dynamic loader mapping and relocating the libraries the binary names,
# then main. This script times, for each tool, --version and one small
# input (below), beside
#
#   floor        loadso: a C program that links nothing but libc
#   llmq-encode  llmq-encode --version: the tool that links least (libc
#                and jansson), the yardstick of the others' --version
#   nosimd       the same tool built --with-simdjson=no (BENCH_SU_NOSIMD,
#                the bin/ folder of such a build; by default obj/nosimd/bin
#                when it is there, the clone .ci/run's nosimd step builds):
#                a fast path must cost a small input nothing
#
# BENCH_SU_RUNS (500) runs each, in rounds of 100 that take turns, so that
# the machine's drift falls on every row alike. Before any timing each
# small input must exit 0, and the two builds must write the same bytes
# for it. Times are reported, never judged; the targets are printed
# beside the ratios: each tool within 1.1x of the build without simdjson,
# and jsonresp-check --version within 1.1x of llmq-encode --version.
#
# The small inputs: jsonresp-check examples/response.json (1.9 KB, the
# built-in schema); llmq-encode a question; llmr-validate that query;
# thread-serialize a five-event thread (t/data); toolcall-parse one
# hermes call; llm-retry a question through cat, checked by true (so sh
# and cat start too); llmstore ls of a store of one message; mcp-run
# --list-servers of examples/servers.json (no server started); llm-loop
# one turn of t/bench/loop-model, which answers in prose.
#
# Environment: LLMKIT_BIN, LLMKIT_BENCH, BENCH_SU_RUNS, BENCH_SU_NOSIMD.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
runs=${BENCH_SU_RUNS:-500}
nosimd=${BENCH_SU_NOSIMD-}
[ -n "$nosimd" ] || [ ! -x "$top/obj/nosimd/bin/llmq-encode" ] ||
	nosimd=$top/obj/nosimd/bin
tools="jsonresp-check llm-loop llm-retry llmq-encode llmr-validate
llmstore mcp-run thread-serialize toolcall-parse"

fail() {
	echo "bench: $*" >&2
	exit 1
}

for f in "$bench/measure" "$bench/loadso" "$bench/loop-model"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
for t in $tools; do
	[ -x "$bin/$t" ] || fail "$bin/$t: not built (run make bench)"
	[ -z "$nosimd" ] || [ -x "$nosimd/$t" ] ||
		fail "BENCH_SU_NOSIMD=$nosimd: no $t there"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# The small inputs, and each tool's arguments for its own (its input on
# stdin: the file small.T, or /dev/null).
"$bin/llmq-encode" -t smoke 'Is the build green?' >"$tmp/query.xml" ||
	fail "llmq-encode cannot write the query"
mkdir "$tmp/model" && echo 'The build is green.' >"$tmp/model/reply" ||
	fail "cannot write the model's reply"
"$bin/llmstore" -d "$tmp/store" put -t smoke -m q1 "$tmp/query.xml" \
    >/dev/null || fail "llmstore cannot make the store"
printf '%s\n' '<tool_call>' \
    '{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}' \
    '</tool_call>' >"$tmp/small.toolcall-parse"
echo 'Is the build green?' >"$tmp/small.llm-retry"
args() {
	case $1 in
	jsonresp-check)	echo "$top/examples/response.json" ;;
	llm-loop)	echo "-q Is-it-green -- $bench/loop-model $tmp/model" ;;
	llm-retry)	echo "-c true -- cat" ;;
	llmq-encode)	echo "-t smoke Is-the-build-green" ;;
	llmr-validate)	echo "-t query $tmp/query.xml" ;;
	llmstore)	echo "-d $tmp/store ls" ;;
	mcp-run)	echo "--list-servers -c $top/examples/servers.json" ;;
	thread-serialize) echo "$top/t/data/thread-serialize/seed.jsonl" ;;
	toolcall-parse)	echo "--format hermes" ;;
	esac
}
input() {
	if [ -f "$tmp/small.$1" ]; then echo "$tmp/small.$1"; else
		echo /dev/null; fi
}

echo "bench: checking the small inputs"
for t in $tools; do
	# shellcheck disable=SC2046
	"$bin/$t" $(args "$t") <"$(input "$t")" >"$tmp/out" 2>"$tmp/err" ||
		fail "$t $(args "$t") exits $?: $(head -n 3 "$tmp/err")"
	[ -s "$tmp/out" ] || [ "$t" = jsonresp-check ] ||
	    [ "$t" = llmr-validate ] || fail "$t: no output"
	[ -n "$nosimd" ] || continue
	# shellcheck disable=SC2046
	"$nosimd/$t" $(args "$t") <"$(input "$t")" >"$tmp/out.nosimd" \
	    2>/dev/null || fail "no simdjson: $t exits $?"
	cmp -s "$tmp/out" "$tmp/out.nosimd" ||
		fail "$t: the build without simdjson writes other bytes"
done

. "$top/t/bench/rounds.inc"
echo "bench: timing start-up, $runs runs each in rounds of $round"
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + round))
	measure floor "$round" -- "$bench/loadso"
	for t in $tools; do
		for b in built nosimd; do
			d=$bin
			[ "$b" = built ] || d=$nosimd
			[ -n "$d" ] || continue
			measure "$t-$b-version" "$round" -- "$d/$t" --version
			# shellcheck disable=SC2046
			measure "$t-$b-small" "$round" -i "$(input "$t")" -- \
			    "$d/$t" $(args "$t")
		done
	done
done

cat >"$tmp/report.awk" <<'AWK'
function ms(t) {
	return sprintf("%7.3f", t * 1000)
}
# a/b as "median [fastest] {CPU}", or "-" when either is missing
function ratio(a, b) {
	if (!(a in n) || !(b in n))
		return sprintf("%-24s", "-")
	return sprintf("%5.2fx [%5.2fx] {%5.2fx}", med[a] / med[b],
	    min[a] / min[b], cpu[a] / cpu[b])
}
function row(label, k) {
	if (!(k in n))
		printf "  %-34s %s\n", label, "not built"
	else
		printf "  %-34s %s ms %s ms %s ms %6.1f MB\n", label, ms(med[k]),
		    ms(min[k]), ms(cpu[k]), rss[k] / 1e6
}
{
	kv($0, 2)
	record($1)
}
END {
	summarize()
	printf "\nstart-up: %d runs each (medians of rounds of %d)\n", runs,
	    round
	printf "  %-34s %10s %10s %10s %9s\n", "", "median", "fastest",
	    "med. CPU", "peak RSS"
	row("loadso (links nothing: the floor)", "floor")
	nt = split(tools, t, " ")
	for (i = 1; i <= nt; i++) {
		row(t[i] " --version", t[i] "-built-version")
		row("  no simdjson", t[i] "-nosimd-version")
		row(t[i] ", small input", t[i] "-built-small")
		row("  no simdjson", t[i] "-nosimd-small")
	}
	print "\nratios: median [fastest] {median CPU}"
	printf "  %-17s %-26s %-26s %-26s %s\n", "", "--version / no simdjson",
	    "small / no simdjson", "--version / llmq-encode's",
	    "--version / floor"
	for (i = 1; i <= nt; i++)
		printf "  %-17s %-26s %-26s %-26s %s\n", t[i],
		    ratio(t[i] "-built-version", t[i] "-nosimd-version"),
		    ratio(t[i] "-built-small", t[i] "-nosimd-small"),
		    ratio(t[i] "-built-version", "llmq-encode-built-version"),
		    ratio(t[i] "-built-version", "floor")
	print "  targets: every tool <= 1.1x the build without simdjson;"
	print "  jsonresp-check --version <= 1.1x llmq-encode --version"
}
AWK
awk -v runs="$runs" -v round="$round" -v tools="$(echo $tools)" \
    -f "$top/t/bench/stats.awk" -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"
