#!/bin/sh
# agent-loop.sh [-f FORMAT] [-n MAX] -c SERVERS DIR TASK MODEL [ARG ...]:
# the agent loop as a pipeline of the kit's filters. The tool for it is
# llm-loop(1), which runs the same loop in one process, its servers kept
# for the whole run; this is the pipeline form, kept as the test that the
# filters make the loop together (t/mcp-loop.bats) and as the baseline of
# llm-loop's benchmark (t/bench/llm-loop.sh), which wants the same thread
# from both. The model is any command that reads a prompt on stdin and
# writes its answer on stdout; the tools are those of the MCP servers that
# SERVERS (mcp-run's configuration) names, run by mcp-run.
#
# Once: mcp-run --list-tools writes DIR/tools.json, toolcall-parse
# --print-prompt the system prompt DIR/system.txt (for a real client, as
# in: agent-loop.sh ... some-llm-cli --system DIR/system.txt), and the task
# is the first event of DIR/thread.jsonl, a message of the user. Then each
# iteration N, from 1 to MAX (default 5):
#
#   thread-serialize thread.jsonl >prompt.N
#   MODEL <prompt.N | tee reply.N |
#       toolcall-parse --thread --iteration N --tools tools.json |
#       tee -a thread.jsonl calls.N | mcp-run -u -c SERVERS >results.N
#   cat results.N >>thread.jsonl
#
# so the calls run as the model writes them, and the thread gets the
# iteration's words and calls (the assistant's message events, and the
# errors of the calls toolcall-parse refused), then their results and
# errors: always in the same order, so that the same answers give the
# same prompts. A reply without a call, good or refused, ends the loop:
# it is added to the thread as its completion too, and the status is 0.
# -f FORMAT reads the calls in that dialect (toolcall-parse --format).
#
# DIR, which must exist, keeps every file named above, and status, the
# exit statuses of the last iteration's three programs. The tools are
# those in $LLMKIT_BIN, else on PATH. A call that fails, or a call the
# model got wrong, is only an event of the thread; the status is 1 when
# MAX iterations end without a completion, 2 for a usage error, and 3
# when a step fails (the model, or a tool's trouble), with a message.

usage() {
	echo 'usage: agent-loop.sh [-f FORMAT] [-n MAX] -c SERVERS DIR TASK' \
	    'MODEL [ARG ...]' >&2
	exit 2
}

fail() {
	printf 'agent-loop.sh: %s\n' "$*" >&2
	exit 3
}

format=tool
max=5
servers=
while getopts c:f:n: opt; do
	case $opt in
	c) servers=$OPTARG ;;
	f) format=$OPTARG ;;
	n) max=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ -z "$servers" ] || [ $# -lt 3 ]; then
	usage
fi
case $max in
'' | *[!0-9]*) usage ;;
esac
d=$1 task=$2
shift 2
[ -d "$d" ] || fail "$d: not a directory"
if [ -n "${LLMKIT_BIN-}" ]; then
	PATH=$(cd "$LLMKIT_BIN" && pwd):$PATH || exit 3
fi

mcp-run --list-tools -c "$servers" >"$d/tools.json" ||
	fail "mcp-run --list-tools failed"
toolcall-parse --print-prompt --tools "$d/tools.json" >"$d/system.txt" ||
	fail "toolcall-parse --print-prompt failed"
jq -cn --arg task "$task" \
    '{type: "message", role: "user", content: $task, iteration: 0}' \
    >"$d/thread.jsonl" || fail "jq cannot write the task"

i=1
while [ "$i" -le "$max" ]; do
	thread-serialize "$d/thread.jsonl" >"$d/prompt.$i" ||
		fail "iteration $i: thread-serialize failed"
	rm -f "$d/calls.$i" "$d/status"
	# Each status is a line of $d/status: sh has no PIPESTATUS.
	{ "$@" <"$d/prompt.$i"; echo "model $?" >>"$d/status"; } |
	    tee "$d/reply.$i" |
	    { toolcall-parse --thread --iteration "$i" --format "$format" \
	    --tools "$d/tools.json"; echo "parse $?" >>"$d/status"; } |
	    tee -a "$d/thread.jsonl" "$d/calls.$i" |
	    { mcp-run -u -c "$servers"; echo "run $?" >>"$d/status"; } \
	    >"$d/results.$i"
	# model 0; toolcall-parse 0 or 1 (a bad call, in the thread as an
	# error); mcp-run 0 or 1 (a failed call, in the thread as an error)
	while read -r who st; do
		case $who:$st in
		model:0 | parse:[01] | run:[01]) ;;
		model:*) fail "iteration $i: the model exits $st" ;;
		parse:*) fail "iteration $i: toolcall-parse exits $st" ;;
		run:*) fail "iteration $i: mcp-run exits $st" ;;
		esac
	done <"$d/status"
	cat "$d/results.$i" >>"$d/thread.jsonl" || exit 3
	# message events alone: the model called nothing
	if ! grep -q -e '^{"type":"tool_call"' -e '^{"type":"error"' \
	    "$d/calls.$i"; then
		jq -Rsc --argjson i "$i" \
		    '{type: "completion", result: rtrimstr("\n"), iteration: $i}' \
		    "$d/reply.$i" >>"$d/thread.jsonl" ||
			fail "jq cannot write the completion"
		exit 0
	fi
	i=$((i + 1))
done
printf 'agent-loop.sh: no completion after %s iterations\n' "$max" >&2
exit 1
