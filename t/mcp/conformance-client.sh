#!/bin/sh
# conformance-client.sh [-n] URL: mcp-run as the client under test of the
# official MCP conformance suite's client scenarios (conformance.sh runs
# it; the suite appends the URL of the scenario's server and names the
# scenario in MCP_CONFORMANCE_SCENARIO). For each scenario it has mcp-run
# do what the scenario's server waits for, over Streamable HTTP, the
# server declared on the command line as "conformance":
#   initialize   mcp-run --list-tools (initialize, then tools/list, which
#                the server answers with no tools)
#   tools_call   the call add_numbers {"a":5,"b":3}, whose result must be
#                "The sum of 5 and 3 is 8"
#   elicitation-sep1034-client-defaults   the call
#                test_client_elicitation_defaults {} with --elicit
#                defaults: the server asks elicitation/create (on the GET
#                stream) and mcp-run accepts with the schema's defaults;
#                the result must begin "Elicitation completed: "
#   sse-retry    the call test_reconnection {}: the server closes the
#                call's SSE stream after its priming event, mcp-run
#                resumes it with a GET (Last-Event-ID) after the stream's
#                retry (500 ms), and the result must be "Reconnection test
#                completed successfully"
# mcp-run's output goes to standard output, its diagnostics to standard
# error (the suite keeps both). With -n, the command is written instead
# of run, as a shell would take it.
#
# mcp-run is $LLMKIT_BIN/mcp-run, by default the worktree's bin/mcp-run.
# Exit status: mcp-run's, or 1 when its result is not the one expected;
# 2 for a usage error (no URL, or a scenario it does not know).
set -u
here=$(cd "$(dirname "$0")" && pwd)
mcp_run=${LLMKIT_BIN:-$here/../../bin}/mcp-run

usage() {
	echo "conformance-client.sh: $1" >&2
	echo 'usage: conformance-client.sh [-n] URL' >&2
	exit 2
}

dry=false
if [ "${1:-}" = -n ]; then
	dry=true
	shift
fi
[ $# -eq 1 ] || usage 'a URL expected'
url=$1

call() {
	printf '{"server_name":"conformance","tool_name":"%s","arguments":%s}' \
	    "$1" "$2"
}

scenario=${MCP_CONFORMANCE_SCENARIO:-}
opts=
input=
expect=
case $scenario in
initialize)
	opts=--list-tools ;;
tools_call)
	input=$(call add_numbers '{"a":5,"b":3}')
	expect='"The sum of 5 and 3 is 8"' ;;
elicitation-sep1034-client-defaults)
	opts='--elicit defaults'
	input=$(call test_client_elicitation_defaults '{}')
	expect='"Elicitation completed: ' ;;
sse-retry)
	input=$(call test_reconnection '{}')
	expect='"Reconnection test completed successfully"' ;;
'')
	usage 'MCP_CONFORMANCE_SCENARIO is not set' ;;
*)
	usage "$scenario: not a scenario mcp-run takes part in" ;;
esac

if $dry; then
	if [ -n "$input" ]; then
		printf "echo '%s' |\n    " "$input"
	fi
	echo "mcp-run${opts:+ $opts} --server 'conformance=$url'"
	exit 0
fi

out=$(mktemp "${TMPDIR:-/tmp}/conformance-client.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
if [ -n "$input" ]; then
	# shellcheck disable=SC2086
	echo "$input" | "$mcp_run" $opts --server "conformance=$url" >"$out"
else
	# shellcheck disable=SC2086
	"$mcp_run" $opts --server "conformance=$url" </dev/null >"$out"
fi
status=$?
cat "$out"
[ "$status" -eq 0 ] || exit "$status"
if [ -n "$expect" ] && ! grep -qF "$expect" "$out"; then
	echo "conformance-client.sh: $scenario: the result is not $expect..." >&2
	exit 1
fi
exit 0
