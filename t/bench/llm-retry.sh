#!/bin/sh
# t/bench/llm-retry.sh: the benchmark of llm-retry (issue 6). What it costs
# to put llm-retry around a model client, measured three ways, each beside
# a baseline run in the same loop:
#   call    the overhead of one call: llm-retry -c 'cat >/dev/null' -- cat
#           on a 2 KB prompt, BENCH_RT_CALLS times, against a shell script
#           that starts the same processes (one cat for the model, one
#           sh -c for the check) and writes the answer
#   big     throughput: a 50 MB prompt (random bytes, NULs and all) that
#           cat sends back as the answer, against sh -c 'cat | cat', and
#           against two dd that each hold the whole 50 MB in one buffer,
#           as llm-retry holds the prompt and the answer (the cost of the
#           memory alone: on some machines a fresh page costs more than
#           the copy into it)
#   retry   the cost of a retry: three attempts with t/fake-model (two
#           answers rejected, -d 0) against one attempt that passes, and
#           the fake model alone
# Before any timing the outputs are compared byte for byte (and the prompt
# of the third attempt with the one the manual describes); a wrong output
# or a failing command fails the run. Times are reported, never judged.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure),
# BENCH_RT_CALLS (200), BENCH_RT_BIG_RUNS (5), BENCH_RT_BIG_BYTES
# (50000000), BENCH_RT_RETRY_RUNS (50).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
calls=${BENCH_RT_CALLS:-200}
big_runs=${BENCH_RT_BIG_RUNS:-5}
big_bytes=${BENCH_RT_BIG_BYTES:-50000000}
retry_runs=${BENCH_RT_RETRY_RUNS:-50}
lr=$bin/llm-retry
fake=$top/t/fake-model

fail() {
	echo "bench: $*" >&2
	exit 1
}

for f in "$lr" "$bench/measure"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
[ -x "$fake" ] || fail "$fake: missing or not executable"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# same WHAT GOT WANT: GOT must be WANT byte for byte.
same() {
	cmp -s "$2" "$3" ||
		fail "$1: wrong output ($(cmp "$2" "$3" 2>&1 | head -n 1))"
}

# The inputs. prompt.txt: a question of about 2 KB, ending with one
# newline (the shell baseline keeps exactly one). big.bin: random bytes.
{
	echo "Answer in one JSON object, as the schema below asks."
	i=0
	while [ "$i" -lt 24 ]; do
		printf 'Line %d of the context: the notes, "quoted", with a' "$i"
		printf ' tab\tand unicode \342\200\224 as a prompt has.\n'
		i=$((i + 1))
	done
	echo "What is 2+2?"
} >"$tmp/prompt.txt"
head -c "$big_bytes" /dev/urandom >"$tmp/big.bin" ||
	fail "cannot make a $big_bytes-byte input"
[ "$(wc -c <"$tmp/big.bin" | tr -d ' ')" -eq "$big_bytes" ] ||
	fail "big.bin is not $big_bytes bytes"

# The baseline of one call: the same processes as llm-retry starts (the
# model, one exec of cat, reading the prompt; the check, one sh -c, reading
# the answer), then the answer on stdout, written by the shell itself.
cat >"$tmp/call.sh" <<'EOF'
a=$(cat) || exit 3
sh -c 'cat >/dev/null' <<END || exit 3
$a
END
printf '%s\n' "$a"
EOF

# The fake model's queues: three attempts (two answers rejected), and one
# that passes at once. The check passes an answer that is "ok".
check='grep -qx ok || { echo "Write ok, and nothing else."; exit 1; }'
mkdir "$tmp/q3" "$tmp/q1" || exit 1
printf 'no\n' >"$tmp/q3/reply.1"
printf 'No: 4.\n' >"$tmp/q3/reply.2"
printf 'ok\n' >"$tmp/q3/reply.3"
printf 'ok\n' >"$tmp/q1/reply.1"
printf 'ok\n' >"$tmp/ok"
# The prompt of attempt 3, as llm-retry(1) lays it out.
{
	cat "$tmp/prompt.txt"
	printf '\nYour answer (attempt 1):\n\nno\n\n'
	printf 'It was rejected (attempt 1):\n\nWrite ok, and nothing else.\n'
	printf '\nYour answer (attempt 2):\n\nNo: 4.\n\n'
	printf 'It was rejected (attempt 2):\n\nWrite ok, and nothing else.\n'
} >"$tmp/prompt.3"

# fresh DIR: empty the fake model's records, so that it starts again
# from reply.1.
fresh() {
	rm -f "$1"/calls "$1"/prompt.* "$1"/attempt.* "$1"/time.* "$1"/pid.*
}

# Is what we time right?
"$lr" -c 'cat >/dev/null' -- cat <"$tmp/prompt.txt" >"$tmp/out" ||
	fail "llm-retry -c 'cat >/dev/null' -- cat exits $?"
same "llm-retry, the 2 KB prompt" "$tmp/out" "$tmp/prompt.txt"
sh "$tmp/call.sh" <"$tmp/prompt.txt" >"$tmp/out" ||
	fail "the shell baseline exits $?"
same "the shell baseline, the 2 KB prompt" "$tmp/out" "$tmp/prompt.txt"

"$lr" -c 'cat >/dev/null' -- cat <"$tmp/big.bin" >"$tmp/out" ||
	fail "llm-retry on the $big_bytes-byte prompt exits $?"
same "llm-retry, the $big_bytes-byte prompt" "$tmp/out" "$tmp/big.bin"
sh -c 'cat | cat' <"$tmp/big.bin" >"$tmp/out" || fail "cat | cat exits $?"
same "cat | cat" "$tmp/out" "$tmp/big.bin"
# shellcheck disable=SC2016
dd2='dd bs="$0" iflag=fullblock status=none |
    dd bs="$0" iflag=fullblock status=none'
sh -c "$dd2" "$big_bytes" <"$tmp/big.bin" >"$tmp/out" ||
	fail "dd | dd exits $?"
same "dd | dd" "$tmp/out" "$tmp/big.bin"
rm -f "$tmp/out"

fresh "$tmp/q3"
"$lr" -d 0 -n 3 -c "$check" -- "$fake" "$tmp/q3" <"$tmp/prompt.txt" \
    >"$tmp/out" 2>"$tmp/err" ||
	fail "llm-retry with two rejections exits $?: $(head -n 3 "$tmp/err")"
[ ! -s "$tmp/err" ] ||
	fail "llm-retry with two rejections writes: $(head -n 3 "$tmp/err")"
same "llm-retry with two rejections" "$tmp/out" "$tmp/ok"
[ "$(cat "$tmp/q3/calls")" = 3 ] ||
	fail "llm-retry with two rejections called the model" \
	    "$(cat "$tmp/q3/calls") times, not 3"
same "the prompt of attempt 1" "$tmp/q3/prompt.1" "$tmp/prompt.txt"
same "the prompt of attempt 3" "$tmp/q3/prompt.3" "$tmp/prompt.3"
fresh "$tmp/q1"
"$lr" -d 0 -n 3 -c "$check" -- "$fake" "$tmp/q1" <"$tmp/prompt.txt" \
    >"$tmp/out" || fail "llm-retry with a first answer that passes exits $?"
same "llm-retry with a first answer that passes" "$tmp/out" "$tmp/ok"
[ "$(cat "$tmp/q1/calls")" = 1 ] ||
	fail "llm-retry called the model $(cat "$tmp/q1/calls") times, not 1"

{
	echo "call size bytes=$(wc -c <"$tmp/prompt.txt" | tr -d ' ')"
	echo "big size bytes=$big_bytes"
	echo "retry size bytes=$(wc -c <"$tmp/prompt.txt" | tr -d ' ')"
} >"$tmp/results"

# measure INPUT LABEL FILE CMD...: one timed run with FILE on stdin,
# appended to the results as "INPUT LABEL runs=1 median=... ...".
measure() {
	input=$1 label=$2 file=$3
	shift 3
	line=$("$bench/measure" -n 1 -i "$file" -- "$@") ||
		fail "$label failed on $input"
	echo "$input $label $line" >>"$tmp/results"
}

# The programs take turns, run by run, so that a burst of other work on
# the machine falls on all of them alike rather than on one.
echo "bench: timing one call on a 2 KB prompt ($calls calls each)"
i=0
while [ "$i" -lt "$calls" ]; do
	measure call llm-retry "$tmp/prompt.txt" \
	    "$lr" -c 'cat >/dev/null' -- cat
	measure call shell "$tmp/prompt.txt" sh "$tmp/call.sh"
	i=$((i + 1))
done
echo "bench: timing a $big_bytes-byte prompt and answer ($big_runs runs each)"
i=0
while [ "$i" -lt "$big_runs" ]; do
	measure big llm-retry "$tmp/big.bin" \
	    "$lr" -c 'cat >/dev/null' -- cat
	measure big cat "$tmp/big.bin" sh -c 'cat | cat'
	measure big dd "$tmp/big.bin" sh -c "$dd2" "$big_bytes"
	i=$((i + 1))
done
echo "bench: timing three attempts against one ($retry_runs runs each)"
i=0
while [ "$i" -lt "$retry_runs" ]; do
	fresh "$tmp/q3"
	measure retry three "$tmp/prompt.txt" \
	    "$lr" -d 0 -n 3 -c "$check" -- "$fake" "$tmp/q3"
	fresh "$tmp/q1"
	measure retry one "$tmp/prompt.txt" \
	    "$lr" -d 0 -n 3 -c "$check" -- "$fake" "$tmp/q1"
	fresh "$tmp/q1"
	measure retry model "$tmp/prompt.txt" "$fake" "$tmp/q1"
	i=$((i + 1))
done

# The tables. A ratio is given three ways: of the median wall times, of
# the fastest runs [in brackets], and of the median CPU times {in braces},
# which other work on the machine disturbs least. CPU times include the
# children's.
cat >"$tmp/report.awk" <<'AWK'
function tm(t) {
	return t < 1 ? sprintf("%8.2f ms", t * 1000) : sprintf("%8.3f s ", t)
}
function row(in_, p, label) {
	printf "  %-44s %s %s %s %7.1f MB", label, tm(med[in_, p]),
	    tm(min[in_, p]), tm(cpu[in_, p]), rss[in_, p] / 1e6
	if (in_ == "big")
		printf " %7.1f", bytes[in_] / 1e6 / med[in_, p]
	printf "\n"
}
function header(rate) {
	printf "  %-44s %11s %11s %11s %10s%s\n", "", "median", "fastest",
	    "median CPU", "peak RSS", rate ? "    MB/s" : ""
}
function ratio(what, in_, a, b, target) {
	printf "  %-46s %6.2fx [%5.2fx] {%5.2fx}%s\n", what,
	    med[in_, a] / med[in_, b], min[in_, a] / min[in_, b],
	    cpu[in_, a] / cpu[in_, b], target == "" ? "" : "  " target
}
{
	kv($0, 3)
	if ($2 == "size") {
		bytes[$1] = f["bytes"]
		next
	}
	runs[$1] = record($1 SUBSEP $2)
}
END {
	summarize()
	printf "\none call, a %d-byte prompt, %d calls each\n",
	    bytes["call"], runs["call"]
	header(0)
	row("call", "llm-retry", "llm-retry -c 'cat >/dev/null' -- cat")
	row("call", "shell", "sh: $(cat), sh -c 'cat >/dev/null', printf")
	printf "\na %.1f MB prompt and answer, %d runs each\n",
	    bytes["big"] / 1e6, runs["big"]
	header(1)
	row("big", "llm-retry", "llm-retry -c 'cat >/dev/null' -- cat")
	row("big", "cat", "sh -c 'cat | cat'")
	row("big", "dd", "dd bs=SIZE | dd bs=SIZE (held in memory)")
	printf "\nretries with t/fake-model, -d 0, %d runs each\n",
	    runs["retry"]
	header(0)
	row("retry", "three", "three attempts (two answers rejected)")
	row("retry", "one", "one attempt (the first answer passes)")
	row("retry", "model", "t/fake-model alone, one call")
	print "\nratios: median wall time [fastest run] {median CPU time}"
	ratio("llm-retry / shell, one call:", "call", "llm-retry", "shell",
	    "target <= 1.5x")
	mb = sprintf("%d MB", bytes["big"] / 1e6 + 0.5)
	ratio("llm-retry / dd | dd (held in memory), " mb ":", "big",
	    "llm-retry", "dd", "target <= 1.5x")
	ratio("llm-retry / cat | cat (streamed), " mb ":", "big",
	    "llm-retry", "cat", "")
	printf "  %-46s %6.2fx\n", "peak RSS / prompt size, " mb ":",
	    rss["big", "llm-retry"] / bytes["big"]
	ratio("three attempts / one:", "retry", "three", "one", "")
	printf "  %-46s %8.2f ms [%5.2f ms] {%5.2f ms}\n",
	    "one retry, (three - one) / 2:",
	    (med["retry", "three"] - med["retry", "one"]) / 2 * 1000,
	    (min["retry", "three"] - min["retry", "one"]) / 2 * 1000,
	    (cpu["retry", "three"] - cpu["retry", "one"]) / 2 * 1000
}
AWK
awk -f "$top/t/bench/stats.awk" -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"
