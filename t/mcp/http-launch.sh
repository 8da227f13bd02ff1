#!/bin/sh
# http-launch.sh [-l LOG] PATH COMMAND [ARG ...]: starts COMMAND, a
# Node.js HTTP server, in a session of its own with PORT=0 (the reference
# servers' port) and listen-hook.mjs loaded, waits until it listens, and
# prints the URL of its MCP endpoint (the listening address and PATH, as
# http://127.0.0.1:41234/mcp) on the first line and the id of its process
# group on the second, then returns, leaving the server running: kill
# -- -PGID stops the server and whatever it started. The server's
# standard output and error go to LOG (default /dev/null); its standard
# input is /dev/null. sdk-server.mjs --http 0 and any server that takes
# its port from PORT are started this way.
#
# Exit status: 0 when the server listens; 1 when it ends before it
# listens or has not listened after LLMKIT_LISTEN_WAIT seconds (default
# 30; it is then stopped), with the last lines of LOG on standard error;
# 2 for a usage error.
set -u
here=$(cd "$(dirname "$0")" && pwd)

usage() {
	echo "http-launch.sh: $1" >&2
	echo 'usage: http-launch.sh [-l LOG] PATH COMMAND [ARG ...]' >&2
	exit 2
}

log=/dev/null
if [ "${1:-}" = -l ]; then
	[ $# -ge 2 ] || usage '-l: a log file expected'
	log=$2
	shift 2
fi
[ $# -ge 2 ] || usage 'a path and a command expected'
case $1 in
/*) path=$1 ;;
*) usage "$1: the path begins with /" ;;
esac
shift

dir=$(mktemp -d "${TMPDIR:-/tmp}/http-launch.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
: >"$log" || exit 1

# setsid makes the server the leader of a new session and process group
# (a background job of a shell without job control is no group leader, so
# setsid does not fork: $! is the leader's pid).
hook="--import=$here/listen-hook.mjs"
PORT=0 LLMKIT_LISTEN_FILE=$dir/url \
    NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }$hook" \
    setsid "$@" </dev/null >>"$log" 2>&1 &
pid=$!

tail_log() {
	[ "$log" = /dev/null ] || tail -n 5 "$log" >&2
}

# Polls rather than sleeps a guessed time: the file appears when the
# socket listens, and a server that fails ends first.
ticks=$((${LLMKIT_LISTEN_WAIT:-30} * 20))
while [ ! -f "$dir/url" ]; do
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"
		echo "http-launch.sh: $1: ended with status $? before" \
		    "listening" >&2
		tail_log
		exit 1
	fi
	if [ "$ticks" -le 0 ]; then
		# dash's kill takes no "--"; -PID is the group
		kill -KILL "-$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		echo "http-launch.sh: $1: not listening after" \
		    "${LLMKIT_LISTEN_WAIT:-30} s" >&2
		tail_log
		exit 1
	fi
	ticks=$((ticks - 1))
	sleep 0.05
done
printf '%s%s\n%s\n' "$(cat "$dir/url")" "$path" "$pid"
