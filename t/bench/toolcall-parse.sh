#!/bin/sh
# t/bench/toolcall-parse.sh: the benchmark of toolcall-parse (issue 4). It
# generates a 10 MB model output with 1,000 calls, the same calls as JSON
# lines and one call with a 10 MB CDATA body; checks that toolcall-parse
# writes exactly the expected calls (and, with --events, the calls and the
# prose); then times it beside expat with empty handlers over the same
# bytes and jq -c . over the JSON lines, and prints the ratios the issue
# asks for. Times are reported, never judged; a failing command or a wrong
# output fails the run.
#
# With the definitions of the calls' tools (tools.json, issue 16) it also
# times toolcall-parse --tools, which types the arguments by their schemas
# and validates them, beside toolcall-parse without it; every call must
# come out, to the same tools. A toolcall-parse that does not know
# --tools gets the row "--tools: not available in this build".
#
# The same calls, with the same prose around them, in each dialect of open
# models (issue 17: qwen3, invoke, glm, hermes; issue 26: harmony,
# deepseek, mistral, llama3, kimi, pythonic): toolcall-parse --format D
# over D's stream is timed beside toolcall-parse over the <tool> stream,
# and --format auto beside --format D over the same stream. Each dialect
# must give exactly the records the generator expects, with --format D and
# with --format auto, and, with --tools, the records typed by the schemas.
# A toolcall-parse that does not know --format gets the row "--format: not
# available in this build".
#
# Reasoning (issue 26): the same 10 MB output, which holds none, read
# with the reasoning markers looked for but the calls written at once
# (--begins-in-reasoning no) beside not looking for them at all
# (--reasoning calls): the cost of the detection alone, target 5%. The
# default (auto) also holds every call to the end of such an output, as
# a lone </think> could still come; its row shows that cost too. Each
# must write exactly the expected calls.
#
# A server's stream (--format openai): the prose and calls of hermes.txt,
# up to 10 MB of an OpenAI Chat Completions stream of them in pieces of
# 48 characters (gen-openai-stream.js), timed beside --format hermes over
# the same answer in hermes markup; both must write the same records.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure and
# expat-empty), LLMKIT_BENCH_DATA (where the inputs are kept and reused,
# default $LLMKIT_BENCH/data), BENCH_TC_RUNS (5), BENCH_TC_BIG_RUNS (5).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
data=${LLMKIT_BENCH_DATA:-$bench/data}
runs=${BENCH_TC_RUNS:-5}
big_runs=${BENCH_TC_BIG_RUNS:-5}
gen=$top/t/bench/gen-toolcalls.js
tp=$bin/toolcall-parse
d=$data/toolcalls

fail() {
	echo "bench: $*" >&2
	exit 1
}

for f in "$tp" "$bench/measure" "$bench/expat-empty"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
command -v jq >/dev/null 2>&1 ||
	fail "jq not found (Debian package jq): it is the JSON baseline"
command -v node >/dev/null 2>&1 ||
	fail "node not found (Debian package nodejs): it writes the inputs"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# data/toolcalls: model.txt, calls.jsonl, prose.txt, big.txt, big.jsonl,
# tools.json, and D.txt and D.jsonl for each dialect D;
# made again when gen-toolcalls.js or this script is newer than .done.
if [ ! -f "$d/.done" ] ||
    [ -n "$(find "$gen" "$0" -newer "$d/.done" 2>/dev/null)" ]; then
	echo "bench: generating $d"
	rm -rf "$d"
	node "$gen" --seed 1 --size 10000000 --calls 1000 --big 10000000 \
	    "$d" || fail "gen-toolcalls.js failed"
	: >"$d/.done"
fi

# first_diff A B: the first line where A and B differ, both cut short.
first_diff() {
	n=$(cmp "$1" "$2" 2>&1 | sed -n 's/.*line \([0-9]*\).*/\1/p')
	[ -n "$n" ] || { cmp "$1" "$2" 2>&1; return; }
	echo "line $n:"
	printf '  %s: ' "${1##*/}"
	sed -n "${n}p" "$1" | cut -c1-300
	printf '  %s: ' "${2##*/}"
	sed -n "${n}p" "$2" | cut -c1-300
}

# expect WHAT GOT WANT: GOT must be WANT byte for byte. When it is not,
# say whether jq -c . still finds the same values (a difference of form,
# not of content); either way it is a wrong output.
expect() {
	cmp -s "$2" "$3" && return 0
	{
		# printf, not echo: dash's echo would expand the \n of JSON
		printf 'bench: %s: wrong output, %s\n' "$1" \
		    "$(first_diff "$2" "$3")"
		if jq -c . "$2" >"$tmp/a.jq" 2>/dev/null &&
		    jq -c . "$3" >"$tmp/b.jq" 2>/dev/null &&
		    cmp -s "$tmp/a.jq" "$tmp/b.jq"; then
			echo "bench: (jq -c . reads the same values from both)"
		else
			echo "bench: (jq -c . reads different values)"
		fi
	} >&2
	exit 1
}

# Is what we time right? The baseline must take the same bytes as
# well-formed XML, and toolcall-parse must write the calls the generator
# wrote, with no diagnostic, in both modes and on the big call.
"$bench/expat-empty" "$d/model.txt" ||
	fail "expat-empty rejects model.txt: the baseline would not read it all"
"$bench/expat-empty" "$d/big.txt" || fail "expat-empty rejects big.txt"

"$tp" "$d/model.txt" >"$tmp/calls.out" 2>"$tmp/err" ||
	fail "toolcall-parse model.txt exits $?: $(head -n 3 "$tmp/err")"
[ ! -s "$tmp/err" ] ||
	fail "toolcall-parse model.txt writes diagnostics: $(head -n 3 "$tmp/err")"
expect "toolcall-parse model.txt" "$tmp/calls.out" "$d/calls.jsonl"

"$tp" --events "$d/model.txt" >"$tmp/events.out" 2>"$tmp/err" ||
	fail "toolcall-parse --events model.txt exits $?: $(head -n 3 "$tmp/err")"
[ ! -s "$tmp/err" ] ||
	fail "toolcall-parse --events writes diagnostics: $(head -n 3 "$tmp/err")"
grep -v '^{"type":"text",' "$tmp/events.out" |
    sed 's/^{"type":"tool_call",/{/' >"$tmp/events.calls"
expect "toolcall-parse --events model.txt, its tool_call events" \
    "$tmp/events.calls" "$d/calls.jsonl"
jq -j 'select(.type == "text") | .text' "$tmp/events.out" \
    >"$tmp/events.text" || fail "jq cannot read the --events output"
expect "toolcall-parse --events model.txt, its text events" \
    "$tmp/events.text" "$d/prose.txt"
rm -f "$tmp/events.out" "$tmp/events.calls" "$tmp/events.text"

"$tp" "$d/big.txt" >"$tmp/big.out" 2>"$tmp/err" ||
	fail "toolcall-parse big.txt exits $?: $(head -n 3 "$tmp/err")"
expect "toolcall-parse big.txt (one 10 MB CDATA body)" "$tmp/big.out" \
    "$d/big.jsonl"
rm -f "$tmp/calls.out" "$tmp/big.out"

# reasoning: the same calls with the markers looked for, or not
reasoning=1
"$tp" --reasoning calls "$d/model.txt" >"$tmp/r.out" 2>"$tmp/err"
st=$?
if [ "$st" -eq 2 ] && grep -q "option.*--reasoning" "$tmp/err"; then
	reasoning=0
	echo "bench: --reasoning: not available in this build"
else
	[ "$st" -eq 0 ] || fail "toolcall-parse --reasoning calls model.txt" \
	    "exits $st: $(head -n 3 "$tmp/err")"
	expect "toolcall-parse --reasoning calls model.txt" "$tmp/r.out" \
	    "$d/calls.jsonl"
	"$tp" --begins-in-reasoning no "$d/model.txt" >"$tmp/r.out" \
	    2>"$tmp/err" || fail "toolcall-parse --begins-in-reasoning no" \
	    "model.txt exits $?: $(head -n 3 "$tmp/err")"
	expect "toolcall-parse --begins-in-reasoning no model.txt" \
	    "$tmp/r.out" "$d/calls.jsonl"
fi
rm -f "$tmp/r.out"

# --tools: the same calls, to the same tools, in the same order; the
# values may be typed otherwise, so only the count and the names are
# compared. A build without the option says so, and the rest goes on.
tools=1
"$tp" --tools "$d/tools.json" "$d/model.txt" >"$tmp/tools.out" \
    2>"$tmp/err"
st=$?
if [ "$st" -eq 2 ] && grep -q "option.*--tools" "$tmp/err"; then
	tools=0
	echo "bench: --tools: not available in this build"
else
	[ "$st" -eq 0 ] || fail "toolcall-parse --tools model.txt exits" \
	    "$st: $(head -n 3 "$tmp/err")"
	jq -r .tool_name "$tmp/tools.out" >"$tmp/tools.names" ||
		fail "jq cannot read the output of toolcall-parse --tools"
	jq -r .tool_name "$d/calls.jsonl" >"$tmp/calls.names" ||
		fail "jq cannot read calls.jsonl"
	cmp -s "$tmp/tools.names" "$tmp/calls.names" ||
		fail "toolcall-parse --tools model.txt writes" \
		    "$(wc -l <"$tmp/tools.names" | tr -d ' ') calls, not" \
		    "$(wc -l <"$tmp/calls.names" | tr -d ' ') to the same" \
		    "tools: $(first_diff "$tmp/tools.names" \
		    "$tmp/calls.names"); $(head -n 3 "$tmp/err")"
fi
rm -f "$tmp/tools.out" "$tmp/tools.names" "$tmp/calls.names"

# The dialects: D.jsonl holds the calls of calls.jsonl, to the same tools
# in the same order, with "local" for their server (no dialect names one),
# and their arguments as D carries them: the raw-text dialects (qwen3,
# invoke, glm) carry no types, so every value is the string written, a
# repeated key an array of them; hermes and the later dialects carry JSON
# (pythonic Python literals of the same types) typed by the tools' schemas. toolcall-parse --format D and --format auto must write D.jsonl
# byte for byte, and with --tools tools.json every dialect must write
# hermes.jsonl: its raw values typed by the schemas.
dialects="qwen3 invoke glm hermes harmony deepseek mistral llama3 kimi
pythonic"
formats=1
jq -r .tool_name "$d/calls.jsonl" >"$tmp/calls.names" ||
	fail "jq cannot read calls.jsonl"
"$tp" --format qwen3 "$d/qwen3.txt" >/dev/null 2>"$tmp/err"
st=$?
if [ "$st" -eq 2 ] && grep -q "option.*--format" "$tmp/err"; then
	formats=0
	echo "bench: --format: not available in this build"
fi
for D in $dialects; do
	[ "$formats" -eq 1 ] || break
	jq -r .tool_name "$d/$D.jsonl" >"$tmp/names" ||
		fail "jq cannot read $D.jsonl"
	cmp -s "$tmp/names" "$tmp/calls.names" ||
		fail "$D.jsonl does not hold the calls of calls.jsonl:" \
		    "$(first_diff "$tmp/names" "$tmp/calls.names")"
	for f in "$D" auto; do
		"$tp" --format "$f" "$d/$D.txt" >"$tmp/d.out" 2>"$tmp/err" ||
			fail "toolcall-parse --format $f $D.txt exits $?:" \
			    "$(head -n 3 "$tmp/err")"
		[ ! -s "$tmp/err" ] ||
			fail "toolcall-parse --format $f $D.txt writes" \
			    "diagnostics: $(head -n 3 "$tmp/err")"
		expect "toolcall-parse --format $f $D.txt" "$tmp/d.out" \
		    "$d/$D.jsonl"
	done
	[ "$tools" -eq 1 ] || continue
	"$tp" --tools "$d/tools.json" --format "$D" "$d/$D.txt" \
	    >"$tmp/d.out" 2>"$tmp/err" ||
		fail "toolcall-parse --tools tools.json --format $D $D.txt" \
		    "exits $?: $(head -n 3 "$tmp/err")"
	expect "toolcall-parse --tools tools.json --format $D $D.txt" \
	    "$tmp/d.out" "$d/hermes.jsonl"
done
rm -f "$tmp/d.out" "$tmp/names" "$tmp/calls.names"

# --format openai: openai.sse and openai-hermes.txt, made again with the
# rest, or when gen-openai-stream.js is newer than they are.
openai=0
st=2
[ "$formats" -eq 0 ] || {
	"$tp" --format openai /dev/null >/dev/null 2>"$tmp/err"
	st=$?
}
if [ "$st" -ne 2 ]; then
	openai=1
	og=$top/t/bench/gen-openai-stream.js
	if [ ! -f "$d/.done-openai" ] ||
	    [ -n "$(find "$og" "$d/.done" -newer "$d/.done-openai" \
	    2>/dev/null)" ]; then
		echo "bench: generating $d/openai.sse"
		"$tp" --format hermes --events "$d/hermes.txt" |
		    node "$og" 10000000 48 "$d" ||
			fail "gen-openai-stream.js failed"
		: >"$d/.done-openai"
	fi
	"$tp" --format hermes "$d/openai-hermes.txt" >"$tmp/oh.out" \
	    2>"$tmp/err" || fail "toolcall-parse --format hermes" \
	    "openai-hermes.txt exits $?: $(head -n 3 "$tmp/err")"
	"$tp" --format openai "$d/openai.sse" >"$tmp/o.out" 2>"$tmp/err" ||
		fail "toolcall-parse --format openai openai.sse exits $?:" \
		    "$(head -n 3 "$tmp/err")"
	[ ! -s "$tmp/err" ] || fail "toolcall-parse --format openai" \
	    "openai.sse writes diagnostics: $(head -n 3 "$tmp/err")"
	expect "toolcall-parse --format openai openai.sse" "$tmp/o.out" \
	    "$tmp/oh.out"
	ocalls=$(wc -l <"$tmp/o.out" | tr -d ' ')
	rm -f "$tmp/o.out" "$tmp/oh.out"
else
	echo "bench: --format openai: not available in this build"
fi

{
	echo "model size bytes=$(wc -c <"$d/model.txt" | tr -d ' ')" \
	    "calls=$(wc -l <"$d/calls.jsonl" | tr -d ' ')" \
	    "jsonl=$(wc -c <"$d/calls.jsonl" | tr -d ' ')"
	echo "big size bytes=$(wc -c <"$d/big.txt" | tr -d ' ') calls=1 jsonl=0"
	for D in $dialects; do
		echo "$D size bytes=$(wc -c <"$d/$D.txt" | tr -d ' ')" \
		    "calls=$(wc -l <"$d/$D.jsonl" | tr -d ' ') jsonl=0"
	done
	[ "$openai" -eq 0 ] || {
		echo "openai size bytes=$(wc -c <"$d/openai.sse" | tr -d ' ')" \
		    "calls=$ocalls jsonl=0"
		echo "openaih size" \
		    "bytes=$(wc -c <"$d/openai-hermes.txt" | tr -d ' ')" \
		    "calls=$ocalls jsonl=0"
	}
} >"$tmp/results"

# measure INPUT LABEL CMD...: one timed run, appended to the results as
# "INPUT LABEL runs=1 median=... min=... cpu=... maxrss_kb=...".
measure() {
	input=$1 label=$2
	shift 2
	line=$("$bench/measure" -n 1 -- "$@") ||
		fail "$label failed on $input"
	echo "$input $label $line" >>"$tmp/results"
}

# The programs take turns, run by run, so that a burst of other work on
# the machine falls on all of them alike rather than on one.
echo "bench: timing the 10 MB model output ($runs runs each)"
i=0
while [ "$i" -lt "$runs" ]; do
	measure model toolcall-parse "$tp" "$d/model.txt"
	measure model events "$tp" --events "$d/model.txt"
	measure model expat "$bench/expat-empty" "$d/model.txt"
	[ "$tools" -eq 0 ] ||
		measure model tools "$tp" --tools "$d/tools.json" "$d/model.txt"
	measure model jq jq -c . "$d/calls.jsonl"
	if [ "$reasoning" -eq 1 ]; then
		measure model rcalls "$tp" --reasoning calls "$d/model.txt"
		measure model rno "$tp" --begins-in-reasoning no "$d/model.txt"
	fi
	for D in $dialects; do
		[ "$formats" -eq 1 ] || break
		measure "$D" format "$tp" --format "$D" "$d/$D.txt"
		measure "$D" auto "$tp" --format auto "$d/$D.txt"
	done
	if [ "$openai" -eq 1 ]; then
		measure openai format "$tp" --format openai "$d/openai.sse"
		measure openai thread "$tp" --format openai --thread \
		    "$d/openai.sse"
		measure openaih format "$tp" --format hermes \
		    "$d/openai-hermes.txt"
	fi
	i=$((i + 1))
done
echo "bench: timing one 10 MB CDATA call ($big_runs runs each)"
i=0
while [ "$i" -lt "$big_runs" ]; do
	measure big toolcall-parse "$tp" "$d/big.txt"
	measure big expat "$bench/expat-empty" "$d/big.txt"
	i=$((i + 1))
done

# The tables. A ratio is given three ways: of the median wall times, of
# the fastest runs [in brackets], and of the median CPU times {in braces},
# which other work on the machine disturbs least.
cat >"$tmp/report.awk" <<'AWK'
function tm(t) {
	return t < 1 ? sprintf("%8.2f ms", t * 1000) : sprintf("%8.3f s ", t)
}
function ratio(what, in_, a, b, target) {
	xratio(what, in_, a, in_, b, target)
}
# A over B, each of its own input
function xratio(what, ia, a, ib, b, target) {
	printf "  %-60s %6.2fx [%5.2fx] {%5.2fx}%s\n", what,
	    med[ia, a] / med[ib, b], min[ia, a] / min[ib, b],
	    cpu[ia, a] / cpu[ib, b], target == "" ? "" : "  " target
}
# A over B, each per byte of its own input
function bratio(what, ia, a, ib, b, target) {
	printf "  %-60s %6.2fx [%5.2fx] {%5.2fx}%s\n", what,
	    med[ia, a] / bytes[ia] / (med[ib, b] / bytes[ib]),
	    min[ia, a] / bytes[ia] / (min[ib, b] / bytes[ib]),
	    cpu[ia, a] / bytes[ia] / (cpu[ib, b] / bytes[ib]),
	    target == "" ? "" : "  " target
}
{
	kv($0, 3)
	if ($2 == "size") {
		bytes[$1] = f["bytes"]
		calls[$1] = f["calls"]
		jsonl[$1] = f["jsonl"]
		next
	}
	runs[$1] = record($1 SUBSEP $2)
}
END {
	summarize()
	name["toolcall-parse"] = "toolcall-parse"
	name["events"] = "toolcall-parse --events"
	name["expat"] = "expat empty handlers"
	name["jq"] = "jq -c . (JSON lines)"
	name["tools"] = "toolcall-parse --tools"
	name["rcalls"] = "  --reasoning calls"
	name["rno"] = "  --begins-in-reasoning no"
	split("model big", input, " ")
	list["model"] = "toolcall-parse " (reasoning ? "rno rcalls " : "") \
	    "events " (tools ? "tools " : "") "expat jq"
	list["big"] = "toolcall-parse expat"
	for (k = 1; k <= 2; k++) {
		in_ = input[k]
		if (in_ == "model")
			printf "\nmodel output: %d calls, %.2f MB (as JSON lines" \
			    " %.2f MB), %d runs each\n", calls[in_],
			    bytes[in_] / 1e6, jsonl[in_] / 1e6, runs[in_]
		else
			printf "\none call with a CDATA body, %.2f MB, %d runs" \
			    " each\n", bytes[in_] / 1e6, runs[in_]
		printf "  %-24s %11s %11s %11s %10s %7s\n", "", "median",
		    "fastest", "median CPU", "peak RSS", "MB/s"
		nprog = split(list[in_], prog, " ")
		for (j = 1; j <= nprog; j++) {
			p = prog[j]
			b = p == "jq" ? jsonl[in_] : bytes[in_]
			printf "  %-24s %s %s %s %7.1f MB %7.1f\n", name[p],
			    tm(med[in_, p]), tm(min[in_, p]), tm(cpu[in_, p]),
			    rss[in_, p] / 1e6, b / 1e6 / med[in_, p]
		}
	}
	nd = split(dialects, dl, " ")
	if (formats) {
		printf "\nthe same calls in the dialects of open models, %d runs" \
		    " each\n", runs[dl[1]]
		printf "  %-24s %11s %11s %11s %10s %7s\n", "", "median",
		    "fastest", "median CPU", "peak RSS", "MB/s"
	}
	for (k = 1; formats && k <= nd; k++) {
		D = dl[k]
		printf "  %s: %d calls, %.2f MB\n", D, calls[D], bytes[D] / 1e6
		split("format auto", fl, " ")
		for (j = 1; j <= 2; j++) {
			p = fl[j]
			printf "  %-24s %s %s %s %7.1f MB %7.1f\n",
			    "  --format " (p == "auto" ? "auto" : D),
			    tm(med[D, p]), tm(min[D, p]), tm(cpu[D, p]),
			    rss[D, p] / 1e6, bytes[D] / 1e6 / med[D, p]
		}
	}
	if (openai) {
		printf "\nan OpenAI Chat Completions stream, %d calls, %.2f MB," \
		    " and the same answer in hermes markup, %.2f MB, %d runs" \
		    " each\n", calls["openai"], bytes["openai"] / 1e6,
		    bytes["openaih"] / 1e6, runs["openai"]
		printf "  %-24s %11s %11s %11s %10s %7s\n", "", "median",
		    "fastest", "median CPU", "peak RSS", "MB/s"
		split("openai format;openai thread;openaih format", ol, ";")
		name["openai format"] = "--format openai"
		name["openai thread"] = "--format openai --thread"
		name["openaih format"] = "--format hermes"
		for (j = 1; j <= 3; j++) {
			split(ol[j], w, " ")
			printf "  %-24s %s %s %s %7.1f MB %7.1f\n", name[ol[j]],
			    tm(med[w[1], w[2]]), tm(min[w[1], w[2]]),
			    tm(cpu[w[1], w[2]]), rss[w[1], w[2]] / 1e6,
			    bytes[w[1]] / 1e6 / med[w[1], w[2]]
		}
	}
	m = "model"
	print "\nratios: median wall time [fastest run] {median CPU time}"
	ratio(sprintf("toolcall-parse / expat empty handlers (%d MB, %d calls):",
	    bytes[m] / 1e6 + 0.5, calls[m]), m, "toolcall-parse", "expat",
	    "target <= 1.3x")
	if (tools)
		ratio("toolcall-parse --tools / toolcall-parse without it:",
		    m, "tools", "toolcall-parse", "target <= 1.3x")
	else
		printf "  %-60s %s\n", "toolcall-parse --tools / toolcall-parse" \
		    " without it:", "--tools: not available in this build"
	ratio("toolcall-parse / jq -c . over the same calls as JSON lines:",
	    m, "toolcall-parse", "jq", "target <= 0.4x")
	printf "  %-60s %6.2fx                    target < 3x\n",
	    sprintf("peak RSS / input, one %d MB CDATA call:",
	    bytes["big"] / 1e6 + 0.5), rss["big", "toolcall-parse"] / bytes["big"]
	if (!formats)
		printf "  %-60s %s\n", "--format DIALECT / <tool> format:",
		    "--format: not available in this build"
	for (k = 1; formats && k <= nd; k++) {
		D = dl[k]
		xratio(sprintf("--format %s / <tool> format, the same calls:", D),
		    D, "format", m, "toolcall-parse", "target <= 1.5x")
		ratio(sprintf("--format auto / --format %s, %s's stream:", D, D),
		    D, "auto", "format", "target <= 1.1x")
	}
	if (openai) {
		xratio("--format openai / --format hermes, the same answer:",
		    "openai", "format", "openaih", "format", "")
		bratio("  the same, per MB of input:", "openai", "format",
		    "openaih", "format", "target <= 3x")
	}
	else
		printf "  %-60s %s\n", "--format openai / --format hermes:",
		    "--format openai: not available in this build"
	ratio("toolcall-parse --events / default mode:", m, "events",
	    "toolcall-parse", "")
	if (reasoning) {
		ratio("reasoning looked for / not (--begins-in-reasoning no" \
		    " / calls):", m, "rno", "rcalls", "target <= 1.05x")
		ratio("default, calls held to the end / --reasoning calls:",
		    m, "toolcall-parse", "rcalls", "")
	} else
		printf "  %-60s %s\n", "reasoning looked for / not:",
		    "--reasoning: not available in this build"
	ratio("toolcall-parse / expat empty handlers, one big call:", "big",
	    "toolcall-parse", "expat", "")
}
AWK
awk -v tools="$tools" -v formats="$formats" -v dialects="$dialects" \
    -v reasoning="$reasoning" -v openai="$openai" -f "$top/t/bench/stats.awk" \
    -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"
