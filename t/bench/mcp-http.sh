#!/bin/sh
# t/bench/mcp-http.sh: mcp-run over Streamable HTTP. One session of
# BENCH_MCP_HTTP_CALLS (1,000) calls to the echo tool of the everything
# server in its streamableHttp mode, made by mcp-run and by the
# official TypeScript SDK's client in one node process
# (t/bench/mcp-sdk-client.mjs with the URL: its
# StreamableHTTPClientTransport); both run the lifecycle, make the calls
# one at a time and end the session with a DELETE; the server is started
# once, on a free port (t/mcp/http-launch.sh), and serves every run.
# Then -j: BENCH_MCP_JOBS_CALLS (100) calls of t/mcp/sdk-server.mjs's
# slow tool, 100 ms each, over HTTP, with -j 8 and with -j 1.
#
# Before any timing each must write exactly the expected records; a
# wrong output or a failing command fails the run. Times are reported,
# never judged.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure),
# BENCH_MCP_RUNS (5), BENCH_MCP_HTTP_CALLS (1000), BENCH_MCP_JOBS_CALLS
# (100).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
runs=${BENCH_MCP_RUNS:-5}
calls=${BENCH_MCP_HTTP_CALLS:-1000}
jcalls=${BENCH_MCP_JOBS_CALLS:-100}
mr=$bin/mcp-run
everything=$top/t/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js
client=$top/t/bench/mcp-sdk-client.mjs
launch=$top/t/mcp/http-launch.sh

fail() {
	printf 'bench: %s\n' "$*" >&2
	exit 1
}

for f in "$mr" "$bench/measure"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
command -v node >/dev/null 2>&1 || fail "node not found (run make deps)"
command -v jq >/dev/null 2>&1 || fail "jq not found (run make deps)"
[ -f "$everything" ] || fail "the everything server is not installed" \
    "(run make deps)"
case $calls$jcalls in
*[!0-9]*) fail "BENCH_MCP_HTTP_CALLS and BENCH_MCP_JOBS_CALLS are numbers" ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
groups=
cleanup() {
	for g in $groups; do
		kill -TERM -- "-$g" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

# serve NAME PATH CMD...: a server on a free port, its URL in $url.
serve() {
	name=$1
	shift
	out=$(sh "$launch" -l "$tmp/$name.log" "$@") ||
		fail "$name: the server did not start"
	url=$(echo "$out" | sed -n 1p)
	groups="$groups $(echo "$out" | sed -n 2p)"
}

serve everything /mcp node "$everything" streamableHttp
ev=$url
serve sdk /mcp node "$top/t/mcp/sdk-server.mjs" --eras legacy --http 0
sdk=$url

# The calls and the records each must write (jq -c . of both).
awk -v n="$calls" 'BEGIN {
	for (k = 1; k <= n; k++)
		printf "{\"server_name\":\"everything\",\"tool_name\":\"echo\"," \
		    "\"arguments\":{\"message\":\"call %d: caf\303\251\"}}\n", k
}' >"$tmp/calls"
awk -v n="$calls" 'BEGIN {
	for (k = 1; k <= n; k++)
		printf "{\"type\":\"tool_result\",\"toolCallId\":\"call-0-%d\"," \
		    "\"toolName\":\"echo\",\"serverName\":\"everything\"," \
		    "\"result\":\"Echo: call %d: caf\303\251\",\"iteration\":0}\n",
		    k, k
}' | jq -c . >"$tmp/want"
awk -v n="$jcalls" 'BEGIN {
	for (k = 1; k <= n; k++)
		printf "{\"server_name\":\"sdk\",\"tool_name\":\"slow\"," \
		    "\"arguments\":{\"seconds\":0.1}}\n"
}' >"$tmp/jcalls"
awk -v n="$jcalls" 'BEGIN {
	for (k = 1; k <= n; k++)
		printf "{\"type\":\"tool_result\",\"toolCallId\":\"call-0-%d\"," \
		    "\"toolName\":\"slow\",\"serverName\":\"sdk\"," \
		    "\"result\":\"slept 0.1 s\",\"iteration\":0}\n", k
}' | jq -c . >"$tmp/jwant"

# check IN WANT WHAT CMD...: CMD, with IN on stdin, must write WANT.
check() {
	in=$1 want=$2 what=$3
	shift 3
	"$@" <"$in" >"$tmp/out" 2>"$tmp/err" ||
		fail "$what exits $?: $(tail -n 3 "$tmp/err")"
	jq -c . "$tmp/out" >"$tmp/out.jq" 2>/dev/null ||
		fail "$what writes what jq cannot read"
	cmp -s "$tmp/out.jq" "$want" ||
		fail "$what: wrong records, first: $(head -n 1 "$tmp/out.jq" |
		    cut -c1-200)"
}

check "$tmp/calls" "$tmp/want" mcp-run "$mr" --server "everything=$ev"
check "$tmp/calls" "$tmp/want" "the SDK client" node "$client" \
    "$tmp/calls" "$ev"
check "$tmp/jcalls" "$tmp/jwant" "mcp-run -j 8" "$mr" -j 8 \
    --server "sdk=$sdk"

: >"$tmp/results"
# measure IN LABEL CMD...: one timed run, appended to the results.
measure() {
	in=$1 label=$2
	shift 2
	line=$("$bench/measure" -n 1 -i "$in" -- "$@" 2>"$tmp/err") ||
		fail "$label failed: $(tail -n 3 "$tmp/err")"
	echo "c $label $line" >>"$tmp/results"
}

echo "bench: $calls echo calls over Streamable HTTP, and $jcalls calls" \
    "of 100 ms with -j 8 and -j 1 ($runs runs each)"
i=0
while [ "$i" -lt "$runs" ]; do
	measure "$tmp/calls" mcp-run "$mr" --server "everything=$ev"
	measure "$tmp/calls" sdk node "$client" "$tmp/calls" "$ev"
	measure "$tmp/jcalls" j8 "$mr" -j 8 --server "sdk=$sdk"
	measure "$tmp/jcalls" j1 "$mr" -j 1 --server "sdk=$sdk"
	i=$((i + 1))
done

cat >"$tmp/report.awk" <<'AWK'
function tm(t) {
	return t < 1 ? sprintf("%8.2f ms", t * 1000) : sprintf("%8.3f s ", t)
}
function row(p, label) {
	printf "  %-40s %s %s %s %7.1f MB\n", label, tm(med["c", p]),
	    tm(min["c", p]), tm(cpu["c", p]), rss["c", p] / 1e6
}
function ratio(what, a, b, target) {
	printf "  %-48s %6.2fx [%5.2fx] {%5.2fx}  %s\n", what,
	    med["c", a] / med["c", b], min["c", a] / min["c", b],
	    cpu["c", a] / cpu["c", b], target
}
{
	kv($0, 3)
	runs["c"] = record("c" SUBSEP $2)
}
END {
	summarize()
	printf "\n  %-40s %11s %11s %11s %10s\n", "", "median", "fastest",
	    "median CPU", "peak RSS"
	row("mcp-run", sprintf("mcp-run, %d calls", calls))
	row("sdk", sprintf("TypeScript SDK client, %d calls", calls))
	row("j8", sprintf("mcp-run -j 8, %d calls of 100 ms", jcalls))
	row("j1", sprintf("mcp-run -j 1, %d calls of 100 ms", jcalls))
	print "\nratios: median wall time [fastest run] {median CPU time}"
	ratio("mcp-run / the SDK client over HTTP:", "mcp-run", "sdk",
	    "target <= 1.0x")
	ratio("mcp-run -j 8 / -j 1:", "j8", "j1", "target <= 0.2x")
}
AWK
awk -v calls="$calls" -v jcalls="$jcalls" -f "$top/t/bench/stats.awk" \
    -f "$tmp/report.awk" "$tmp/results" || fail "the report failed"
