#!/usr/bin/env bats
# Every tool under a file size limit (ulimit -f): a write past the limit
# is a write error like a full disk, status 3 and "TOOL: <stdout>: File
# too large", not death by SIGXFSZ (status 153). ulimit -f counts blocks
# of 1024 bytes; each output here is larger than the limit.

load helper

bats_require_minimum_version 1.5.0

EX="$TOP/examples"

# limited BLOCKS COMMAND...: runs COMMAND with its stdout in out under
# ulimit -f BLOCKS (the limit is set in the shell that then becomes the
# tool, so that only the tool runs under it).
limited() {
	local blocks=$1
	shift
	run --separate-stderr bash -c 'ulimit -f "$0"; exec "$@" >out' "$blocks" "$@"
}

# Hostile input (issue 13)

@test "jsonresp-check: a file size limit is a write error, status 3" {
	limited 1 jsonresp-check --print-prompt
	[ "$status" -eq 3 ]
	[ "$stderr" = "jsonresp-check: <stdout>: File too large" ]
	[ "$(wc -c <out)" -eq 1024 ]
}

@test "llm-retry: a file size limit is a write error, status 3" {
	head -c 3000 /dev/zero | tr '\0' x >answer
	limited 1 llm-retry -c 'exit 0' -- cat answer </dev/null
	[ "$status" -eq 3 ]
	[ "$stderr" = "llm-retry: <stdout>: File too large" ]
	[ "$(wc -c <out)" -eq 1024 ]
}

@test "llm-retry: the model and the check still die of SIGXFSZ, as they would alone" {
	run --separate-stderr llm-retry -n 1 -c 'exit 0' -- sh -c 'kill -XFSZ $$' </dev/null
	[ "$status" -eq 1 ]
	[ "$stderr" = "llm-retry: attempt 1: the model command was killed by signal 25
llm-retry: no answer accepted in 1 attempt" ]
}

@test "llmq-encode: a file size limit is a write error, status 3" {
	limited 1 llmq-encode -t demo "$(head -c 3000 /dev/zero | tr '\0' x)"
	[ "$status" -eq 3 ]
	[ "$stderr" = "llmq-encode: <stdout>: File too large" ]
	[ "$(wc -c <out)" -eq 1024 ]
}

@test "llmr-validate: a file size limit is a write error, status 3" {
	limited 1 llmr-validate -o json "$EX/reply.xml" "$EX/reply.xml"
	[ "$status" -eq 3 ]
	[ "$stderr" = "llmr-validate: <stdout>: File too large" ]
	[ "$(wc -c <out)" -eq 1024 ]
}

@test "llmstore: a file size limit is a write error, status 3" {
	# (SQLite needs room for its own files: a limit of 64 KiB, and a
	# message larger than that)
	python3 -c '
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r"<response>.*?</response>",
    "<response>" + "word " * 16000 + "</response>", s, flags=re.S)
open("big.xml", "w").write(s)' "$EX/reply.xml"
	run -0 llmstore -d db put -t t -m m1 big.xml
	limited 64 llmstore -d db cat -m m1
	[ "$status" -eq 3 ]
	[ "$stderr" = "llmstore: <stdout>: File too large" ]
	[ "$(wc -c <out)" -eq 65536 ]
}

@test "thread-serialize: a file size limit is a write error, status 3" {
	# kept whole, the thread is more than the 1 KB the limit allows
	limited 1 thread-serialize --keep-summarized "$EX/thread.jsonl"
	[ "$status" -eq 3 ]
	[ "$stderr" = "$EX/thread.jsonl:2:9: warning: event 1: unknown type \"plan\", skipped
$EX/thread.jsonl:4:54: warning: event 3: replaced 2 characters that XML 1.0 forbids (first U+001B in \"result\") with U+FFFD
thread-serialize: <stdout>: File too large" ]
	[ "$(wc -c <out)" -eq 1024 ]
}

@test "toolcall-parse: a file size limit is a write error, status 3" {
	printf '<tool><tool_name>w</tool_name><arguments><c>%s</c></arguments></tool>\n' \
	    "$(head -c 3000 /dev/zero | tr '\0' x)" >call.txt
	limited 1 toolcall-parse call.txt
	[ "$status" -eq 3 ]
	[ "$stderr" = "toolcall-parse: <stdout>: File too large" ]
	[ "$(wc -c <out)" -eq 1024 ]
}
