#!/bin/sh
# t/bench/mcp-run.sh: the benchmark of mcp-run (issue 18). One session of
# BENCH_MCP_CALLS (1,000) tools/call requests to the echo tool of the
# protocol's "everything" reference server (t/mcp/node_modules, make deps),
# made by mcp-run from toolcall-parse's plain records, beside the same
# calls made by the protocol's official TypeScript client SDK in one node
# process (t/bench/mcp-sdk-client.mjs: the v1 Client and
# StdioClientTransport). Both start the server, run its lifecycle, make
# the calls one at a time, close it and wait for it: the start-up is in
# both times. Two longer sessions, of BENCH_MCP_LONG_CALLS (10,000; 0
# leaves them out) and twice as many, give the time one more call costs,
# (twice - long) / long. Not from the short session: the everything
# server lives at least 350 ms after notifications/initialized (a timer
# that asks a client with roots for them), and a short session may end on
# that timer rather than on its calls.
#
# Before any timing both must write exactly the expected records (the
# tool_result of each call, in order, "Echo: " and its message), compared
# as jq -c . reads them; a wrong output or a failing command fails the
# run. Times are reported, never judged.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure),
# BENCH_MCP_RUNS (5), BENCH_MCP_CALLS (1000), BENCH_MCP_LONG_CALLS (10000).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
runs=${BENCH_MCP_RUNS:-5}
short=${BENCH_MCP_CALLS:-1000}
long=${BENCH_MCP_LONG_CALLS:-10000}
mr=$bin/mcp-run
everything=$top/t/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js
client=$top/t/bench/mcp-sdk-client.mjs

# printf, not echo: dash's echo would expand the backslashes of JSON
fail() {
	printf 'bench: %s\n' "$*" >&2
	exit 1
}

for f in "$mr" "$bench/measure"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
command -v node >/dev/null 2>&1 ||
	fail "node not found (Debian package nodejs): it runs the servers"
command -v jq >/dev/null 2>&1 ||
	fail "jq not found (Debian package jq): it compares the records"
[ -f "$everything" ] ||
	fail "the everything server is not installed (run make deps)"
case $short$long in
*[!0-9]*) fail "BENCH_MCP_CALLS and BENCH_MCP_LONG_CALLS are numbers" ;;
esac
[ "$short" -gt 0 ] || fail "BENCH_MCP_CALLS must be at least 1"
[ "$long" -eq 0 ] || [ "$long" -gt "$short" ] ||
	fail "BENCH_MCP_LONG_CALLS must be 0 or more than BENCH_MCP_CALLS"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

jq -n --arg s "$everything" \
    '{mcpServers: {everything: {command: "node", args: [$s, "stdio"]}}}' \
    >"$tmp/servers.json" || fail "jq cannot write servers.json"

# calls.N: N calls of echo, each with a message of its own (a quote, a
# backslash, a tab and a non-ASCII letter in each); want.N: the records
# mcp-run and the SDK client must write for them, as jq -c . writes them.
sizes=$short
[ "$long" -eq 0 ] || sizes="$short $long $((2 * long))"
for n in $sizes; do
	awk -v n="$n" 'BEGIN {
		for (k = 1; k <= n; k++)
			printf "{\"server_name\":\"everything\",\"tool_name\":" \
			    "\"echo\",\"arguments\":{\"message\":\"call %d of" \
			    " %d: \\\"quoted\\\", C:\\\\dir,\\tcaf\303\251\"}}\n",
			    k, n
	}' >"$tmp/calls.$n" || fail "cannot write calls.$n"
	awk -v n="$n" 'BEGIN {
		for (k = 1; k <= n; k++)
			printf "{\"type\":\"tool_result\",\"toolCallId\":" \
			    "\"call-0-%d\",\"toolName\":\"echo\",\"serverName\":" \
			    "\"everything\",\"result\":\"Echo: call %d of %d:" \
			    " \\\"quoted\\\", C:\\\\dir,\\tcaf\303\251\"," \
			    "\"iteration\":0}\n", k, k, n
	}' | jq -c . >"$tmp/want.$n" || fail "cannot write want.$n"
done

# check N WHAT CMD...: CMD, with calls.N on stdin, must exit 0 and write
# want.N (as jq -c . reads both).
check() {
	n=$1 what=$2
	shift 2
	"$@" <"$tmp/calls.$n" >"$tmp/out" 2>"$tmp/err" ||
		fail "$what, $n calls, exits $?: $(tail -n 3 "$tmp/err")"
	jq -c . "$tmp/out" >"$tmp/out.jq" 2>"$tmp/err" ||
		fail "$what, $n calls, writes what jq cannot read:" \
		    "$(head -n 1 "$tmp/err")"
	[ "$(wc -l <"$tmp/out.jq" | tr -d ' ')" -eq "$n" ] ||
		fail "$what writes $(wc -l <"$tmp/out.jq" | tr -d ' ')" \
		    "records for $n calls"
	if ! cmp -s "$tmp/out.jq" "$tmp/want.$n"; then
		l=$(cmp "$tmp/out.jq" "$tmp/want.$n" 2>&1 |
		    sed -n 's/.*line \([0-9]*\).*/\1/p')
		fail "$what, $n calls: wrong record $l:" \
		    "$(sed -n "${l}p" "$tmp/out.jq" | cut -c1-300), not" \
		    "$(sed -n "${l}p" "$tmp/want.$n" | cut -c1-300)"
	fi
}

# Is what we time right?
for n in $sizes; do
	check "$n" "mcp-run" "$mr" -c "$tmp/servers.json"
	check "$n" "the SDK client" node "$client" /dev/stdin \
	    node "$everything" stdio
done
rm -f "$tmp/out" "$tmp/out.jq"

for n in $sizes; do
	echo "c$n size calls=$n"
done >"$tmp/results"

# measure N LABEL CMD...: one timed run with calls.N on stdin, appended to
# the results as "cN LABEL runs=1 median=... ...". The server's stderr
# (the everything server says it is starting) goes to a file, shown when
# the run fails.
measure() {
	n=$1 label=$2
	shift 2
	line=$("$bench/measure" -n 1 -i "$tmp/calls.$n" -- "$@" \
	    2>"$tmp/err") ||
		fail "$label failed on $n calls: $(tail -n 3 "$tmp/err")"
	echo "c$n $label $line" >>"$tmp/results"
}

# The two take turns, run by run, so that a burst of other work on the
# machine falls on both alike rather than on one.
echo "bench: timing sessions of $(echo "$sizes" | sed 's/ /, /g')" \
    "echo calls ($runs runs each)"
i=0
while [ "$i" -lt "$runs" ]; do
	for n in $sizes; do
		measure "$n" mcp-run "$mr" -c "$tmp/servers.json"
		measure "$n" sdk node "$client" /dev/stdin \
		    node "$everything" stdio
	done
	i=$((i + 1))
done

# The tables. A ratio is given three ways: of the median wall times, of
# the fastest runs [in brackets], and of the median CPU times {in braces},
# which other work on the machine disturbs least. The CPU times hold the
# server's (each waits for it).
cat >"$tmp/report.awk" <<'AWK'
function tm(t) {
	return t < 1 ? sprintf("%8.2f ms", t * 1000) : sprintf("%8.3f s ", t)
}
function row(c, p, label) {
	printf "  %-34s %s %s %s %7.1f MB %8.3f ms\n", label, tm(med[c, p]),
	    tm(min[c, p]), tm(cpu[c, p]), rss[c, p] / 1e6,
	    med[c, p] / calls[c] * 1000
}
function ratio(what, c, a, b, target) {
	printf "  %-50s %6.2fx [%5.2fx] {%5.2fx}%s\n", what,
	    med[c, a] / med[c, b], min[c, a] / min[c, b],
	    cpu[c, a] / cpu[c, b], target == "" ? "" : "  " target
}
function marginal(p, label) {
	printf "  %-50s %8.3f ms [%6.3f ms] {%6.3f ms}\n", label,
	    (med[L2, p] - med[L, p]) / (calls[L2] - calls[L]) * 1000,
	    (min[L2, p] - min[L, p]) / (calls[L2] - calls[L]) * 1000,
	    (cpu[L2, p] - cpu[L, p]) / (calls[L2] - calls[L]) * 1000
}
{
	kv($0, 3)
	if ($2 == "size") {
		calls[$1] = f["calls"]
		next
	}
	runs[$1] = record($1 SUBSEP $2)
}
END {
	summarize()
	S = "c" short
	L = "c" long
	L2 = "c" 2 * long
	nsize = long > 0 ? 3 : 1
	for (k = 1; k <= nsize; k++) {
		c = k == 1 ? S : k == 2 ? L : L2
		printf "\none session of %d echo calls to the everything" \
		    " server, %d runs each\n", calls[c], runs[c]
		printf "  %-34s %11s %11s %11s %10s %11s\n", "", "median",
		    "fastest", "median CPU", "peak RSS", "per call"
		row(c, "mcp-run", "mcp-run -c servers.json")
		row(c, "sdk", "TypeScript SDK client (node)")
	}
	print "\nratios: median wall time [fastest run] {median CPU time}"
	ratio(sprintf("mcp-run / the TypeScript SDK, %d calls:", calls[S]),
	    S, "mcp-run", "sdk", "target <= 1.2x")
	if (nsize == 3) {
		ratio(sprintf("mcp-run / the TypeScript SDK, %d calls:",
		    calls[L]), L, "mcp-run", "sdk", "")
		ratio(sprintf("mcp-run / the TypeScript SDK, %d calls:",
		    calls[L2]), L2, "mcp-run", "sdk", "")
		printf "\none more call, (%d calls - %d calls) / %d:" \
		    " median [fastest] {CPU}\n", calls[L2], calls[L],
		    calls[L2] - calls[L]
		marginal("mcp-run", "mcp-run:")
		marginal("sdk", "the TypeScript SDK client:")
	}
}
AWK
awk -v short="$short" -v long="$long" -f "$top/t/bench/stats.awk" \
    -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"
