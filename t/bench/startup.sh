#!/bin/sh
# t/bench/startup.sh: what simdjson costs toolcall-parse at start, and
# what it gains it on a large input. simdjson is C++: a process that
# links it loads libstdc++ and libsimdjson before main. toolcall-parse
# loads its reader (tcsimd.so, configure --with-simdjson) only once 16
# KiB of JSON text have come (lib/json/jsimd.c); this script
# measures that choice against the others:
#
#   floor        loadso: a C program that links nothing but libc
#   load         loadso tcsimd.so: the floor and the loading of the
#                reader with libstdc++ and libsimdjson, alone
#   tp           toolcall-parse as built: the reader loaded when it pays
#   linked       toolcall-parse-linked: the same code with the reader
#                linked in (make bench builds it), as it was before: the
#                C++ libraries loaded at every start, simdjson used from
#                the first byte
#   jansson      toolcall-parse copied alone into a folder without
#                tcsimd.so: never a reader, jansson reads everything, as
#                a build --with-simdjson=no does
#
# each on --version and on one small hermes call (about 300 bytes on
# stdin), BENCH_SU_RUNS (500) runs each, in rounds of 100 taking turns;
# and on a 17 MB stream of 1,650 hermes calls (gen-toolcalls.js),
# BENCH_SU_BIG_RUNS (5) runs each, taking turns. Before any timing the
# three toolcall-parse must write the same bytes for the stream, the
# calls gen-toolcalls.js expects, and the same call for the small input.
# Times are reported, never judged.
#
# A build without simdjson has no tcsimd.so and no toolcall-parse-linked:
# its rows say "not built" and its --version and small call are the
# jansson rows. BENCH_SU_NOSIMD, the bin/ folder of a build configured
# --with-simdjson=no, adds its toolcall-parse as a row of its own.
#
# Environment: LLMKIT_BIN, LLMKIT_BENCH, LLMKIT_BENCH_DATA (where the
# stream is kept, default $LLMKIT_BENCH/data), BENCH_SU_RUNS,
# BENCH_SU_BIG_RUNS, BENCH_SU_NOSIMD.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
data=${LLMKIT_BENCH_DATA:-$bench/data}
runs=${BENCH_SU_RUNS:-500}
big_runs=${BENCH_SU_BIG_RUNS:-5}
nosimd=${BENCH_SU_NOSIMD:-}
gen=$top/t/bench/gen-toolcalls.js
d=$data/startup

fail() {
	echo "bench: $*" >&2
	exit 1
}

for f in "$bin/toolcall-parse" "$bench/measure" "$bench/loadso"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
so=$bin/tcsimd.so
linked=$bench/toolcall-parse-linked
[ -f "$so" ] || so=
[ -x "$linked" ] || linked=
[ -z "$nosimd" ] || [ -x "$nosimd/toolcall-parse" ] ||
	fail "BENCH_SU_NOSIMD=$nosimd: no toolcall-parse there"
command -v node >/dev/null 2>&1 ||
	fail "node not found (Debian package nodejs): it writes the input"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# data/startup: hermes.txt (17 MB) and hermes.jsonl, what toolcall-parse
# must write for it; made again when gen-toolcalls.js or this script is
# newer than .done. The generator writes every dialect: only hermes is
# kept.
if [ ! -f "$d/.done" ] ||
    [ -n "$(find "$gen" "$0" -newer "$d/.done" 2>/dev/null)" ]; then
	echo "bench: generating $d"
	rm -rf "$d"
	node "$gen" --seed 1 --size 16500000 --calls 1650 --big 1000 \
	    "$d" || fail "gen-toolcalls.js failed"
	find "$d" -type f ! -name 'hermes.*' -exec rm -f {} + ||
		fail "cannot clean $d"
	touch "$d/.done"
fi
big=$d/hermes.txt
small=$tmp/small.txt
printf '%s\n' 'I will look the weather up.' '<tool_call>' \
    '{"name": "get_weather", "arguments": {"city": "Paris", "units":' \
    ' "metric", "days": 3, "hourly": false, "fields": ["temp", "rain",' \
    ' "wind"], "note": "caf\u00e9 \"terrace\" hours"}}' '</tool_call>' \
    'Then I will answer.' >"$small"

# toolcall-parse without a reader: alone in a folder (a reader installed
# in LLMKIT_PKGLIBDIR would still be found: warn, the rows are not that)
mkdir "$tmp/alone" && cp "$bin/toolcall-parse" "$tmp/alone/" ||
	fail "cannot copy toolcall-parse"
alone=$tmp/alone/toolcall-parse
for f in /usr/lib/llmkit /usr/local/lib/llmkit \
    "$(sed -n 's/^PKGLIBDIR = //p' "$top/config.mk" 2>/dev/null)"; do
	[ ! -f "$f/tcsimd.so" ] ||
		echo "bench: WARNING: $f/tcsimd.so is installed: the jansson" \
		    "rows may load it"
done

# progs: each toolcall-parse measured, as "KEY PATH"
progs="tp $bin/toolcall-parse
jansson $alone"
[ -z "$linked" ] || progs="$progs
linked $linked"
[ -z "$nosimd" ] || progs="$progs
nosimd $nosimd/toolcall-parse"

echo "bench: checking the outputs"
want=$(wc -l <"$d/hermes.jsonl")
echo "$progs" | while read -r k p; do
	"$p" --format hermes "$big" >"$tmp/$k.big" 2>"$tmp/err" ||
		fail "$k: --format hermes on the stream exits $?:" \
		    "$(head -n 3 "$tmp/err")"
	[ ! -s "$tmp/err" ] || fail "$k: $(head -n 3 "$tmp/err")"
	cmp -s "$tmp/$k.big" "$d/hermes.jsonl" ||
		fail "$k: not the calls of hermes.jsonl ($want lines)"
	"$p" --format hermes <"$small" >"$tmp/$k.small" 2>"$tmp/err" ||
		fail "$k: --format hermes on the small call exits $?"
	cmp -s "$tmp/$k.small" "$tmp/tp.small" ||
		fail "$k: the small call differs: $(cat "$tmp/$k.small")"
done || exit 1
[ "$(wc -l <"$tmp/tp.small")" -eq 1 ] ||
	fail "the small call: $(cat "$tmp/tp.small")"
[ -z "$so" ] || "$bench/loadso" "$so" || fail "loadso $so failed"

. "$top/t/bench/rounds.inc"
echo "bench: timing start-up, $runs runs each in rounds of $round"
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + round))
	measure floor "$round" -- "$bench/loadso"
	[ -z "$so" ] || measure load "$round" -- "$bench/loadso" "$so"
	echo "$progs" | while read -r k p; do
		measure "$k-version" "$round" -- "$p" --version
		measure "$k-small" "$round" -i "$small" -- "$p" --format hermes
	done || exit 1
done
echo "bench: timing the 17 MB hermes stream, $big_runs runs each"
i=0
while [ "$i" -lt "$big_runs" ]; do
	i=$((i + 1))
	echo "$progs" | while read -r k p; do
		measure "$k-big" 1 -- "$p" --format hermes "$big"
	done || exit 1
done

cat >"$tmp/report.awk" <<'AWK'
function tm(t) {
	return t < 1 ? sprintf("%8.3f ms", t * 1000) : sprintf("%8.3f s ", t)
}
function row(label, k) {
	if (!(k in n))
		printf "  %-40s %s\n", label, "not built"
	else
		printf "  %-40s %s %s %s %7.1f MB\n", label, tm(med[k]),
		    tm(min[k]), tm(cpu[k]), rss[k] / 1e6
}
# the extra time of a over b, in ms: median [fastest] {CPU}
function more(label, a, b, note) {
	if (!(a in n) || !(b in n))
		return
	printf "  %-46s %6.3f ms [%6.3f ms] {%6.3f ms}  %s\n", label,
	    (med[a] - med[b]) * 1000, (min[a] - min[b]) * 1000,
	    (cpu[a] - cpu[b]) * 1000, note
}
function ratio(label, a, b, note) {
	if (!(a in n) || !(b in n))
		return
	printf "  %-46s %6.2fx [%5.2fx] {%5.2fx}  %s\n", label,
	    med[a] / med[b], min[a] / min[b], cpu[a] / cpu[b], note
}
{
	kv($0, 2)
	# a round of start-ups counts as one run of its median
	record($1)
}
END {
	summarize()
	hdr = sprintf("  %-40s %11s %11s %11s %10s", "", "median", "fastest",
	    "median CPU", "peak RSS")
	printf "\nstart-up: %d runs each (medians of rounds of %d)\n", runs,
	    round
	print hdr
	row("loadso (links nothing: the floor)", "floor")
	row("loadso tcsimd.so (the reader alone)", "load")
	row("toolcall-parse --version", "tp-version")
	row("toolcall-parse-linked --version", "linked-version")
	row("no simdjson: --version", "nosimd-version")
	row("toolcall-parse, one small hermes call", "tp-small")
	row("toolcall-parse-linked, the same", "linked-small")
	row("toolcall-parse alone (jansson), the same", "jansson-small")
	row("no simdjson: the same", "nosimd-small")
	printf "\nthe hermes stream: %.1f MB, %d calls, %d runs each\n",
	    bytes / 1e6, calls, n["tp-big"]
	print hdr
	row("toolcall-parse (loads the reader)", "tp-big")
	row("toolcall-parse-linked", "linked-big")
	row("toolcall-parse alone (jansson)", "jansson-big")
	row("no simdjson", "nosimd-big")
	print "\nstart-up cost: median wall time [fastest run] {median CPU time}"
	more("loading the reader (loadso, less the floor):", "load", "floor",
	    "reported")
	more("--version, linked less as built:", "linked-version",
	    "tp-version", "target < 0.5 ms")
	more("a small call, linked less as built:", "linked-small",
	    "tp-small", "target < 0.5 ms")
	more("a small call, as built less jansson alone:", "tp-small",
	    "jansson-small", "reported (about 0)")
	more("a small call, as built less no simdjson:", "tp-small",
	    "nosimd-small", "reported (about 0)")
	more("--version less the floor:", "tp-version", "floor", "reported")
	print "\nthe stream: median wall time [fastest run] {median CPU time}"
	ratio("jansson alone / as built:", "jansson-big", "tp-big",
	    "reported (what simdjson gains)")
	ratio("as built / linked:", "tp-big", "linked-big",
	    "target <= 1.05x")
	ratio("no simdjson / as built:", "nosimd-big", "tp-big", "reported")
	if (("load" in n) && ("jansson-big" in n) &&
	    cpu["jansson-big"] > cpu["tp-big"]) {
		# jansson's extra time per byte over simdjson's: the bytes
		# whose reading by jansson costs what the loading does
		per = (cpu["jansson-big"] - cpu["tp-big"]) / bytes
		printf "  %-46s %6.0f KB  reported (the threshold is 16 KiB)\n",
		    "break-even (load CPU / jansson's extra CPU a byte):",
		    (cpu["load"] - cpu["floor"]) / per / 1e3
	}
}
AWK
bytes=$(wc -c <"$big" | tr -d ' ')
awk -v runs="$runs" -v round="$round" -v bytes="$bytes" -v calls="$want" \
    -f "$top/t/bench/stats.awk" -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"
