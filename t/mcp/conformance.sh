#!/bin/sh
# conformance.sh [-c COMMAND] [-o DIR] SCENARIO [ARG ...]: runs one client
# scenario of the official MCP conformance suite
# (@modelcontextprotocol/conformance, pinned in package.json) with
# COMMAND as the client under test, by default conformance-client.sh
# (mcp-run); more ARGs go to the suite's "client" command (--verbose,
# --timeout MS). The suite starts the scenario's server on a free port,
# runs COMMAND with the server's URL appended and MCP_CONFORMANCE_SCENARIO
# set to SCENARIO, checks what the server saw, writes the checks on
# standard error ("Passed: 1/1, 0 failed, 0 warnings", "OVERALL: PASSED")
# and the results to DIR/SCENARIO-TIME/ (checks.json, stdout.txt,
# stderr.txt) when -o is given. COMMAND is split at spaces and run by
# sh -c: no path in it may hold a space.
#
# Exit status: the suite's: 0 when every check passed and the client
# exited 0; 1 otherwise (a failed check, a warning, a client that failed
# or ran longer than --timeout, default 30000 ms, an unknown scenario).
set -u
here=$(cd "$(dirname "$0")" && pwd)
suite=$here/node_modules/@modelcontextprotocol/conformance/dist/index.js
command=$here/conformance-client.sh
out=

usage() {
	echo "conformance.sh: $1" >&2
	echo 'usage: conformance.sh [-c COMMAND] [-o DIR] SCENARIO [ARG ...]' >&2
	exit 2
}

while getopts c:o: opt; do
	case $opt in
	c) command=$OPTARG ;;
	o) out=$OPTARG ;;
	*) usage 'unknown option' ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage 'a scenario expected'
scenario=$1
shift
if [ ! -f "$suite" ]; then
	echo "conformance.sh: $suite: not installed: run make deps" >&2
	exit 1
fi

hook=
if ! node -e 'process.exit(require("fs").globSync ? 0 : 1)'; then
	hook="--import=data:text/javascript,import{register}from'node:module';"
	hook="${hook}register('file://$here/conformance-node20.mjs')"
fi
exec node ${hook:+"$hook"} "$suite" client --command "$command" \
    --scenario "$scenario" ${out:+-o "$out"} "$@"
