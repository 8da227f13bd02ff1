#!/bin/sh
# t/bench/llm-loop.sh: the benchmark of llm-loop. The model is
# loop-model (t/bench/loop-model.c), which answers at once with a canned
# reply, so that what is timed is the loop around it; the tool is the
# echo tool of the protocol's "everything" reference server
# (t/mcp/node_modules, make deps).
#
# The loop: BENCH_LOOP_CALLS (20) iterations, each with one call of echo
# (a message of its own: a quote, a backslash, a non-ASCII letter), then
# an answer without a call, run by
#   llm-loop -y -n 21 -c servers.json -t THREAD TASK -- loop-model DIR
# beside the same loop as a shell pipeline, t/mcp/agent-loop.sh
# (thread-serialize | model | toolcall-parse --thread | mcp-run, a new
# mcp-run and so a new server each iteration), and beside mcp-run
# --list-tools: node and the server started, the lifecycle, one
# tools/list, the server stopped. Before any timing both loops must exit
# 0 and leave the very same thread, byte for byte what is expected: the
# task, each answer's message, call and result, and the completion.
# The everything server lives at least 350 ms after
# notifications/initialized (a timer that asks a client with roots for
# them), and llm-loop's 21 iterations take less: its time is the
# server's. What one more iteration costs comes from two longer loops of
# BENCH_LOOP_MORE (100) echo calls and twice as many, (twice - more) /
# more, beside loop-model alone on such a prompt (the model's share).
# BENCH_LOOP_RUNS (5) runs of each, taking turns.
#
# Memory: BENCH_LOOP_LONG (1000) iterations and a half and a quarter as
# many, with --max-prompt BENCH_LOOP_MAX_PROMPT (12K): each answer is a
# call of echo but the last; a prompt that asks for a summary (one with
# the line "Summarise the thread above ...") is answered with a short
# summary. Each run must exit 0 with a thread of as many calls, results
# and messages as iterations, one summary at least, the completion last,
# and nothing on stderr (-q), so no prompt past --max-prompt. Printed as
# the scale reports print (t/bench/scale.inc): the median times of
# measure -n 3 at 1x, 2x and 4x with each one's ratio to the one before
# (about 2 per doubling when linear), llm-loop's peak RSS with the same
# ratios (about 1.0 when flat), the summaries made, and the size of the
# last prompt. The peak RSS is llm-loop's own, its VmHWM as loop-model
# reads it in /proc at each call (measure's ru_maxrss would be node's).
# Times are reported, never judged.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure,
# loop-model), BENCH_LOOP_RUNS (5), BENCH_LOOP_CALLS (20),
# BENCH_LOOP_MORE (100), BENCH_LOOP_LONG (1000; 0 leaves the memory
# runs out),
# BENCH_LOOP_MAX_PROMPT (12K).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
runs=${BENCH_LOOP_RUNS:-5}
calls=${BENCH_LOOP_CALLS:-20}
more=${BENCH_LOOP_MORE:-100}
long=${BENCH_LOOP_LONG:-1000}
maxp=${BENCH_LOOP_MAX_PROMPT:-12K}
loop=$bin/llm-loop
model=$bench/loop-model
agent=$top/t/mcp/agent-loop.sh
everything=$top/t/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js
task='Echo each of my notes, then say you are done.'

# printf, not echo: dash's echo would expand the backslashes of JSON
fail() {
	printf 'bench: %s\n' "$*" >&2
	exit 1
}

for f in "$loop" "$bin/mcp-run" "$bin/toolcall-parse" \
    "$bin/thread-serialize" "$bench/measure" "$model"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
command -v node >/dev/null 2>&1 ||
	fail "node not found (Debian package nodejs): it runs the server"
command -v jq >/dev/null 2>&1 ||
	fail "jq not found (Debian package jq): agent-loop.sh needs it"
[ -f "$everything" ] ||
	fail "the everything server is not installed (run make deps)"
case $runs$calls$more$long in
*[!0-9]*) fail "BENCH_LOOP_RUNS, _CALLS, _MORE and _LONG are numbers" ;;
esac
[ "$runs" -gt 0 ] && [ "$calls" -gt 0 ] && [ "$more" -gt 0 ] ||
	fail "BENCH_LOOP_RUNS, _CALLS and _MORE must be at least 1"
[ "$long" -eq 0 ] || [ "$long" -ge 8 ] ||
	fail "BENCH_LOOP_LONG must be 0 or at least 8"
iters=$((calls + 1))

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

jq -n --arg s "$everything" \
    '{mcpServers: {everything: {command: "node", args: [$s, "stdio"]}}}' \
    >"$tmp/servers.json" || fail "jq cannot write servers.json"

# The model's replies: m/reply.K, a call of echo, for K = 1 to CALLS, and
# the answer m/reply.ITERS; want, the thread both loops must leave.
mkdir "$tmp/m" "$tmp/a" || exit 1
awk -v n="$calls" -v d="$tmp/m" 'BEGIN {
	for (k = 1; k <= n; k++) {
		f = d "/reply." k
		printf "Note %d.\n<tool>\n<server_name>everything" \
		    "</server_name>\n<tool_name>echo</tool_name>\n" \
		    "<arguments><message>note %d: &quot;quoted&quot;," \
		    " C:\\dir, caf\303\251</message></arguments>\n</tool>\n",
		    k, k >f
		close(f)
	}
	printf "All %d notes came back.\n", n >(d "/reply." n + 1)
}' || fail "cannot write the replies"
awk -v n="$calls" -v task="$task" 'BEGIN {
	printf "{\"type\":\"message\",\"role\":\"user\",\"content\":" \
	    "\"%s\",\"iteration\":0}\n", task
	for (k = 1; k <= n; k++) {
		printf "{\"type\":\"message\",\"role\":\"assistant\"," \
		    "\"content\":\"Note %d.\",\"iteration\":%d}\n", k, k
		printf "{\"type\":\"tool_call\",\"toolName\":\"echo\"," \
		    "\"args\":{\"message\":\"note %d: \\\"quoted\\\"," \
		    " C:\\\\dir, caf\303\251\"},\"toolCallId\":\"call-%d-1\"," \
		    "\"iteration\":%d,\"serverName\":\"everything\"}\n",
		    k, k, k
		printf "{\"type\":\"tool_result\",\"toolCallId\":" \
		    "\"call-%d-1\",\"toolName\":\"echo\",\"serverName\":" \
		    "\"everything\",\"result\":\"Echo: note %d: \\\"quoted\\\"," \
		    " C:\\\\dir, caf\303\251\",\"iteration\":%d}\n", k, k, k
	}
	for (k = 0; k < 2; k++)
		printf "{\"type\":\"%s\",%s\"All %d notes came back.\"," \
		    "\"iteration\":%d}\n", k ? "completion" : "message",
		    k ? "\"result\":" : "\"role\":\"assistant\",\"content\":",
		    n, n + 1
}' >"$tmp/want" || fail "cannot write the expected thread"

# Is what we time right? Both loops, then the floor.
"$loop" -y -n "$iters" -c "$tmp/servers.json" -t "$tmp/thread" "$task" \
    -- "$model" "$tmp/m" >"$tmp/out" 2>"$tmp/err" ||
	fail "llm-loop exits $?: $(tail -n 3 "$tmp/err")"
cmp -s "$tmp/thread" "$tmp/want" ||
	fail "llm-loop's thread is not the one expected:" \
	    "$(diff "$tmp/want" "$tmp/thread" | sed -n 2,3p | cut -c1-300)"
[ "$(grep -c ' -> ok (' "$tmp/err")" -eq "$calls" ] ||
	fail "llm-loop does not say $calls calls ran: $(head -n 3 "$tmp/err")"
LLMKIT_BIN=$bin sh "$agent" -n "$iters" -c "$tmp/servers.json" "$tmp/a" \
    "$task" "$model" "$tmp/m" >"$tmp/out" 2>"$tmp/err" ||
	fail "agent-loop.sh exits $?: $(tail -n 3 "$tmp/err")"
cmp -s "$tmp/a/thread.jsonl" "$tmp/want" ||
	fail "agent-loop.sh's thread is not the one expected:" \
	    "$(diff "$tmp/want" "$tmp/a/thread.jsonl" | sed -n 2,3p |
	    cut -c1-300)"
"$bin/mcp-run" --list-tools -c "$tmp/servers.json" >"$tmp/out" \
    2>"$tmp/err" || fail "mcp-run --list-tools exits $?"
grep -q '"name":"echo"' "$tmp/out" ||
	fail "mcp-run --list-tools does not list echo"

# The longer loops: more.N/reply a call, more.N/reply.N+1 the answer.
for n in "$more" $((2 * more)); do
	d=$tmp/more.$n
	mkdir "$d" || exit 1
	printf '%s\n' 'One more.' '<tool>' \
	    '<server_name>everything</server_name>' \
	    '<tool_name>echo</tool_name>' \
	    '<arguments><message>once more</message></arguments>' \
	    '</tool>' >"$d/reply" &&
	    echo 'Done.' >"$d/reply.$((n + 1))" ||
		fail "cannot write the replies"
	"$loop" -y -n $((n + 1)) -c "$tmp/servers.json" -t "$d/thread" \
	    "$task" -- "$model" "$d" >"$tmp/out" 2>"$tmp/err" ||
		fail "$n calls: llm-loop exits $?: $(tail -n 3 "$tmp/err")"
	[ "$(grep -c '^{"type":"tool_result".*"result":"Echo: once more"' \
	    "$d/thread")" -eq "$n" ] && [ "$(tail -n 1 "$d/thread")" = \
	    "{\"type\":\"completion\",\"result\":\"Done.\",\"iteration\":$((n + 1))}" ] ||
		fail "$n calls: the thread has not $n results and the completion"
done
# the model alone is timed on a prompt as long as the longer loop's last
"$loop" --dry-run -c "$tmp/servers.json" -t "$tmp/more.$((2 * more))/thread" \
    "$task" -- "$model" >"$tmp/prompt" 2>"$tmp/err" ||
	fail "llm-loop --dry-run exits $?: $(tail -n 3 "$tmp/err")"
rm -f "$tmp/more.$more/thread" "$tmp/more.$((2 * more))/thread"

echo "size iterations=$iters more=$more" >"$tmp/results"

# measure LABEL CMD...: one timed run, appended to the results as
# "LABEL runs=1 median=... ...". The servers' stderr and llm-loop's call
# lines go to a file, shown when the run fails.
measure() {
	label=$1
	shift
	line=$("$bench/measure" -n 1 -- "$@" 2>"$tmp/err") ||
		fail "$label failed: $(tail -n 3 "$tmp/err")"
	echo "$label $line" >>"$tmp/results"
}

# They take turns, run by run, so that a burst of other work on the
# machine falls on all alike rather than on one. Each llm-loop run has a
# new thread file (an old one would be continued).
echo "bench: timing a loop of $calls echo calls and an answer, and of" \
    "$more and $((2 * more)) ($runs runs each)"
i=0
while [ "$i" -lt "$runs" ]; do
	measure llm-loop "$loop" -y -n "$iters" -c "$tmp/servers.json" \
	    -t "$tmp/thread.$i" "$task" -- "$model" "$tmp/m"
	measure agent-loop env LLMKIT_BIN="$bin" sh "$agent" -n "$iters" \
	    -c "$tmp/servers.json" "$tmp/a" "$task" "$model" "$tmp/m"
	measure floor "$bin/mcp-run" --list-tools -c "$tmp/servers.json"
	for n in "$more" $((2 * more)); do
		measure "more$n" "$loop" -y -n $((n + 1)) \
		    -c "$tmp/servers.json" -t "$tmp/more.$n/thread.$i" "$task" \
		    -- "$model" "$tmp/more.$n"
		rm -f "$tmp/more.$n/thread.$i"
	done
	line=$("$bench/measure" -n 20 -i "$tmp/prompt" -- "$model" \
	    "$tmp/more.$more" 2>"$tmp/err") ||
		fail "loop-model failed: $(tail -n 3 "$tmp/err")"
	echo "model $line" >>"$tmp/results"
	rm -f "$tmp/thread.$i"
	i=$((i + 1))
done

# The table. A ratio is given three ways: of the median wall times, of
# the fastest runs [in brackets], and of the median CPU times {in braces},
# which other work on the machine disturbs least. The CPU times hold the
# server's and the model's (each loop waits for them).
cat >"$tmp/report.awk" <<'AWK'
function tm(t) {
	return t < 1 ? sprintf("%8.2f ms", t * 1000) : sprintf("%8.3f s ", t)
}
function row(p, label) {
	printf "  %-36s %s %s %s %s\n", label, tm(med[p]), tm(min[p]),
	    tm(cpu[p]), tm(med[p] / iters)
}
function ratio(what, a, b, target) {
	printf "  %-44s %6.2fx [%5.2fx] {%5.2fx}%s\n", what,
	    med[a] / med[b], min[a] / min[b], cpu[a] / cpu[b],
	    target == "" ? "" : "  " target
}
{
	kv($0, 2)
	if ($1 == "size") {
		iters = iters0 = f["iterations"]
		more = f["more"]
		next
	}
	record($1)
}
END {
	summarize()
	M = "more" more
	M2 = "more" 2 * more
	printf "\na loop of %d iterations (%d echo calls, then an" \
	    " answer), %d runs each\n", iters, iters - 1, n["llm-loop"]
	printf "  %-36s %11s %11s %11s %11s\n", "", "median", "fastest",
	    "median CPU", "per iter."
	row("llm-loop", "llm-loop -y")
	row("agent-loop", "t/mcp/agent-loop.sh (the pipeline)")
	row("floor", "mcp-run --list-tools")
	print "\nratios: median wall time [fastest run] {median CPU time}"
	ratio("llm-loop / agent-loop.sh:", "llm-loop", "agent-loop",
	    "target <= 0.2x")
	printf "\nlonger loops of llm-loop -y, %d runs each\n", n[M]
	printf "  %-36s %11s %11s %11s %11s\n", "", "median", "fastest",
	    "median CPU", "per iter."
	iters = more + 1
	row(M, sprintf("%d calls, then an answer", more))
	iters = 2 * more + 1
	row(M2, sprintf("%d calls, then an answer", 2 * more))
	printf "\none more iteration: median [fastest] {CPU}\n"
	printf "  %-44s %s [%s] {%s}\n", sprintf("llm-loop, (%d - %d) /" \
	    " %d:", 2 * more, more, more), tm((med[M2] - med[M]) / more),
	    tm((min[M2] - min[M]) / more), tm((cpu[M2] - cpu[M]) / more)
	printf "  %-44s %s [%s] {%s}\n", "of which loop-model, one answer:",
	    tm(med["model"]), tm(min["model"]), tm(cpu["model"])
	a = med["agent-loop"] - med["floor"]
	b = min["agent-loop"] - min["floor"]
	c = cpu["agent-loop"] - cpu["floor"]
	printf "  %-44s %s [%s] {%s}\n", sprintf("agent-loop.sh, (%d iter." \
	    " - list) / %d:", iters0, iters0), tm(a / iters0),
	    tm(b / iters0), tm(c / iters0)
}
AWK
awk -f "$top/t/bench/stats.awk" -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"

[ "$long" -gt 0 ] || exit 0

# The memory runs: DIR/reply a call, DIR/reply.N the answer of iteration
# N, DIR/summary the summary.
sizes="$((long / 4)) $((long / 2)) $long"
echo
echo "bench: timing $(echo "$sizes" | sed 's/ /, /g') iterations" \
    "with --max-prompt $maxp (3 runs each)"
out="time:" mem="llm-loop's peak RSS:" sums="summaries:" last="last prompt:"
prev='' prevkb='' k=1 sep=''
for n in $sizes; do
	d=$tmp/long.$n
	mkdir "$d" || exit 1
	printf '%s\n' 'One more.' '<tool>' \
	    '<server_name>everything</server_name>' \
	    '<tool_name>echo</tool_name>' \
	    '<arguments><message>once more</message></arguments>' \
	    '</tool>' >"$d/reply" &&
	    echo 'Done at last.' >"$d/reply.$n" &&
	    echo 'The user wants echoes; each came back. More remain.' \
	    >"$d/summary" || fail "cannot write the replies"
	# a new thread each run: sh -c removes it, then is llm-loop
	set -- sh -c 'rm -f "$0" && exec "$@"' "$d/thread" "$loop" -q -y \
	    -n "$n" --max-prompt "$maxp" -c "$tmp/servers.json" \
	    -t "$d/thread" "$task" -- "$model" "$d"
	"$@" >"$tmp/out" 2>"$tmp/err" ||
		fail "$n iterations: llm-loop exits $?: $(tail -n 3 "$tmp/err")"
	[ ! -s "$tmp/err" ] ||
		fail "$n iterations: llm-loop says: $(head -n 3 "$tmp/err")"
	got=$(for t in message tool_call tool_result summary completion; do
		grep -c "^{\"type\":\"$t\"" "$d/thread"
	done | tr '\n' ' ')
	set -- $got
	[ "$1" -eq $((n + 1)) ] && [ "$2" -eq $((n - 1)) ] &&
	    [ "$3" -eq $((n - 1)) ] && [ "$4" -gt 0 ] && [ "$5" -eq 1 ] &&
	    [ "$(tail -n 1 "$d/thread")" = \
	    "{\"type\":\"completion\",\"result\":\"Done at last.\",\"iteration\":$n}" ] ||
		fail "$n iterations: messages, calls, results, summaries" \
		    "and completions: $got"
	nsum=$4
	line=$("$bench/measure" -n 3 -- sh -c 'rm -f "$0" && exec "$@"' \
	    "$d/thread" "$loop" -q -y -n "$n" --max-prompt "$maxp" \
	    -c "$tmp/servers.json" -t "$d/thread" "$task" -- "$model" "$d" \
	    2>"$tmp/err") || fail "$n iterations: the timed run failed:" \
	    "$(tail -n 3 "$tmp/err")"
	t=$(printf '%s\n' "$line" | sed -n 's/.*median=\([0-9.]*\).*/\1/p')
	read -r kb bytes <"$d/last" || fail "$n iterations: no $d/last"
	[ -n "$t" ] && [ -n "$kb" ] || fail "no median in: $line"
	if [ -z "$prev" ]; then
		out="$out ${k}x $(printf '%.3f' "$t") s"
		mem="$mem ${k}x $(awk -v kb="$kb" \
		    'BEGIN { printf "%.1f MB", kb * 1024 / 1e6 }')"
	else
		out="$out, ${k}x $(awk -v a="$t" -v b="$prev" \
		    'BEGIN { printf "%.3f s (%.2f)", a, a / b }')"
		mem="$mem, ${k}x $(awk -v a="$kb" -v b="$prevkb" \
		    'BEGIN { printf "%.1f MB (%.2f)", a * 1024 / 1e6, a / b }')"
	fi
	sums="$sums$sep ${k}x $nsum"
	last="$last$sep ${k}x $bytes B"
	prev=$t prevkb=$kb k=$((k * 2)) sep=,
	rm -rf "$d"
done
echo "$out"
echo "$mem"
echo "$sums"
echo "$last"
