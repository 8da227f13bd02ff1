#!/bin/sh
# t/bench/scale-mcp.sh: how mcp-run's time and memory grow with what its
# servers send and with its configuration. Each case is made at 1x, 2x,
# 4x and 8x its size, checked (status, output, diagnostics), and timed
# with measure -n 3; a line per case gives the median times and, in
# parentheses, each one over the one before it: about 2 when the time is
# linear, about 4 when it is quadratic. A second line gives the peak
# resident memory of the run (mcp-run's: the server is sh and cat) and
# its ratio to the size of the case.
#   result     one call whose result is a text of N bytes, in one line
#              (N = 25 MB at 1x, under --max-line 1G; before, 25/50/100
#              MB took 1.5/4.3/23.5 s with a peak RSS of about 4x the
#              result)
#   stderr     one call during which the server writes N bytes on its
#              standard error without a newline (N = 25 MB at 1x; before,
#              100 MB took 20 s and as much memory)
#   config     --list-servers of a configuration of N servers (N = 10,000
#              at 1x; before, 80,000 took 41 s)
#   forms      --list-servers of N servers in VS Code's form, each with
#              a comment, a trailing comma and ${...} in its arguments,
#              and one whose "env" and envFile set N variables each, half
#              of them twice (N = 10,000 at 1x)
# Times and memory are reported, never judged.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
scale_tool=mcp-run
. "$top/t/bench/scale.inc"
mr=$bin/mcp-run

call='{"server_name":"b","tool_name":"t","arguments":{}}'
printf '%s\n' "$call" >"$tmp/call.jsonl"
# the server's answer to the probe, which --protocol 2026-07-28 sends too
printf '%s%s\n' '{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":' \
    '["2026-07-28"],"capabilities":{"tools":{}}}}' >"$tmp/probe.json"

# gen CASE N FILE: what the server of CASE sends at size N: the result
# line; N bytes for its standard error, and FILE.answer; or the
# configuration.
gen() {
	python3 - "$1" "$2" "$3" <<'PY' || fail "cannot generate $1 at $2"
import json, sys
case, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(out, "w") as f:
    if case == "result":
        f.write('{"jsonrpc":"2.0","id":2,"result":{"content":'
                '[{"type":"text","text":"' + "x" * n + '"}]}}\n')
    elif case == "stderr":
        f.write("e" * n)
        with open(out + ".answer", "w") as a:
            a.write('{"jsonrpc":"2.0","id":2,"result":{"content":'
                    '[{"type":"text","text":"done"}]}}\n')
    elif case == "config":
        json.dump({"mcpServers": {"s%d" % i: {"command": "x",
                   "args": ["--stdio"]} for i in range(n)}}, f)
    else:
        with open(out + ".env", "w") as e:
            for i in range(n):
                e.write("export V%d=\"file %d\" # a comment\n" % (i % (n // 2 or 1), i))
        f.write("// servers\n{\"servers\": {\n")
        for i in range(n):
            f.write('  /* %d */ "s%d": {"type": "stdio", "command": "x",\n'
                    '    "args": ["${HOME}/a", "${UNSET_VAR:-d}",],},\n' % (i, i))
        f.write('  "big": {"command": "x", "envFile": "%s.env",\n'
                '    "env": {%s}},\n}}\n' % (out, ", ".join(
                '"V%d": "${HOME}"' % i for i in range(n))))
PY
}

# server CASE FILE: the --server of CASE (split at blanks, so ${IFS} in
# its script): it answers the probe, reads the call and answers with
# FILE, or (stderr) writes FILE on its standard error and answers with
# FILE.answer.
server() {
	p="read\${IFS}l;cat\${IFS}\"\$1\";read\${IFS}l"
	case $1 in
	result)
		echo "b=sh -c $p;cat\${IFS}\"\$0\";cat>/dev/null $2 $tmp/probe.json"
		;;
	stderr)
		echo "b=sh -c $p;cat\${IFS}\"\$0\">&2;cat\${IFS}\"\$0.answer\";cat>/dev/null $2 $tmp/probe.json"
		;;
	esac
}

# run CASE N FILE [PROGRAM...]: CASE at size N, run by PROGRAM (none,
# or measure and its options).
run() {
	c=$1 n=$2 f=$3
	shift 3
	if [ "$c" = config ] || [ "$c" = forms ]; then
		"$@" "$mr" --list-servers -c "$f"
	else
		"$@" "$mr" --max-line 1G --protocol 2026-07-28 \
		    --server "$(server "$c" "$f")" "$tmp/call.jsonl"
	fi
}

# check CASE N FILE: the run's status, output and diagnostics are right.
check() {
	run "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	case $1 in
	result)
		[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] &&
		    [ "$(wc -c <"$tmp/out")" -eq $(($2 + 105)) ] &&
		    [ "$(head -c 94 "$tmp/out")" = \
		    '{"type":"tool_result","toolCallId":"call-0-1","toolName":"t","serverName":"b","result":"xxxxxx' ] &&
		    [ "$(tail -c 18 "$tmp/out")" = 'x","iteration":0}' ] ||
		    fail "result $2: status $st, $(head -c 200 "$tmp/err")"
		;;
	stderr)
		cut=$(($2 - 4096))
		[ "$st" -eq 0 ] && [ "$(cat "$tmp/out")" = \
		    '{"type":"tool_result","toolCallId":"call-0-1","toolName":"t","serverName":"b","result":"done","iteration":0}' ] &&
		    [ "$(wc -c <"$tmp/err")" -eq $((4121 + ${#cut})) ] &&
		    [ "$(head -c 4099 "$tmp/err" | tr -d e)" = 'b: ' ] &&
		    [ "$(tail -c $((22 + ${#cut})) "$tmp/err")" = \
		    "... ($cut more bytes cut)" ] ||
		    fail "stderr $2: status $st, $(tail -c 200 "$tmp/err")"
		;;
	forms)
		[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] &&
		    [ "$(wc -l <"$tmp/out")" -eq $(($2 + 1)) ] &&
		    [ "$(head -n 1 "$tmp/out")" = big ] ||
		    fail "forms $2: status $st, $(head -c 200 "$tmp/err")"
		;;
	config)
		[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] &&
		    [ "$(wc -l <"$tmp/out")" -eq "$2" ] &&
		    [ "$(head -n 1 "$tmp/out")" = s0 ] ||
		    fail "config $2: status $st, $(head -c 200 "$tmp/err")"
		;;
	esac
}

# scale CASE BASE: the case at BASE, 2, 4 and 8 times BASE.
scale() {
	c=$1 base=$2
	out="$c:" mem="$c peak RSS:" prev=
	for k in 1 2 4 8; do
		n=$((base * k))
		f=$tmp/$c-$k
		gen "$c" "$n" "$f"
		check "$c" "$n" "$f"
		line=$(run "$c" "$n" "$f" "$bench/measure" -n 3 -- \
		    2>/dev/null) || fail "$c $n: the timed run failed"
		scale_time "$k" "$line"
		kb=$(printf '%s\n' "$line" |
		    sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p')
		[ -n "$kb" ] || fail "$c $n: no maxrss_kb in: $line"
		mem="$mem$(awk -v kb="$kb" -v n="$n" -v k="$k" -v c="$c" \
		    'BEGIN { printf "%s %dx %.1f MB", (k > 1 ? "," : ""), k,
		    kb * 1024 / 1e6; if (c != "config" && c != "forms")
		    printf " (%.2f of %.0f MB)", kb * 1024 / n, n / 1e6 }')"
		rm -f "$f" "$f.answer" "$f.env"
	done
	echo "$out"
	echo "$mem"
}

scale result 25000000
scale stderr 25000000
scale config 10000
scale forms 10000
