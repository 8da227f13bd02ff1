#!/bin/sh
# Runs thread-serialize (the one on PATH) under valgrind on a few inputs
# that take its main paths: a clean thread, an invalid one, one with
# warnings, JSON diagnostics, standard input and a failed write. Each run
# is "ok" when valgrind found no error or leak and the tool exited with the
# status it should. Prints TAP, the plan last; t/run-tests runs it when
# LLMKIT_VALGRIND=1.
top=$(cd "$(dirname "$0")/.." && pwd) || exit 3
data="$top/t/data/thread-serialize"
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

# check WANT NAME INPUT ARG...: runs thread-serialize ARG... with INPUT on
# stdin, output thrown away, and wants exit status WANT and a quiet
# valgrind. NAME says what the run is.
check() {
	want=$1
	name=$2
	in=$3
	shift 3
	vg "$@" <"$in" >"$tmp/out"
	verdict "$want" "$name"
}

# vg ARG...: thread-serialize ARG... under valgrind; sets got.
vg() {
	valgrind -q --error-exitcode=99 --leak-check=full \
	    --errors-for-leak-kinds=all --log-file="$tmp/log" \
	    thread-serialize "$@" 2>"$tmp/err"
	got=$?
}

# verdict WANT NAME: one TAP line; on failure valgrind's log and the
# tool's stderr follow as comments.
verdict() {
	n=$((n + 1))
	if [ "$got" -eq "$1" ] && [ ! -s "$tmp/log" ]; then
		echo "ok $n - $2 (status $got)"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2 (status $got, want $1)"
		sed 's/^/# /' "$tmp/log" "$tmp/err"
	fi
}

if ! command -v valgrind >/dev/null 2>&1; then
	echo "not ok 1 - valgrind is not installed"
	echo "1..1"
	exit 1
fi
if ! command -v thread-serialize >/dev/null 2>&1; then
	echo "not ok 1 - thread-serialize is not on PATH"
	echo "1..1"
	exit 1
fi

check 0 "the golden thread" /dev/null "$data/all-types.jsonl"
check 0 "an array with -n and a prefix" /dev/null \
    -n --response-prefix 'I will now' "$data/all-types.json"
check 0 "standard input" "$data/seed.jsonl"
check 0 "special characters" /dev/null "$data/special.jsonl"
check 1 "bad events" /dev/null "$data/bad-events.json"
check 1 "bad events, --errors=json" /dev/null --errors=json \
    "$data/bad-events.json"
check 0 "forbidden characters: warnings" /dev/null "$data/forbidden.jsonl"
check 1 "forbidden characters, --strict --errors=json" /dev/null \
    --strict --errors=json "$data/forbidden.jsonl"
printf '[{"type":"message","role":"user","content":"x","iteration":0},]' \
    >"$tmp/syntax.json"
check 1 "invalid JSON" /dev/null "$tmp/syntax.json"
printf '{"type":"message","role":"user","content":"a\377","iteration":0}\n' \
    >"$tmp/utf8.jsonl"
check 1 "invalid UTF-8, --errors=json" /dev/null --errors=json \
    "$tmp/utf8.jsonl"
check 0 "empty input" /dev/null /dev/null
check 3 "a missing file" /dev/null "$tmp/no-such-file"
check 2 "a usage error" /dev/null --errors=xml
vg "$data/all-types.jsonl" >/dev/full
verdict 3 "a failed write"

echo "1..$n"
[ "$failed" -eq 0 ]
