#!/usr/bin/env bats
# llm-retry as a user drives it, with t/fake-model standing in for the
# model's client (and, on a queue of its own, for the check): usage and
# every usage error, an answer accepted at once, rejected answers fed back
# in the documented layout, the final failure, --emit-last, failed model
# runs (exit status, signal, no answer, -t), --pass, a model that cannot be
# run, -p, any bytes and 5 MB prompts and answers without pipe deadlock,
# the delay between attempts, signals and the processes left afterwards,
# -v, a full disk, and the real checkers jsonresp-check and llmr-validate.

load helper

bats_require_minimum_version 1.5.0

FAKE="$TOP/t/fake-model"
EX="$TOP/examples"
# The usage as cmd/llm-retry.c prints it (the other tests take it from -h:
# the lines before the first blank one).
USAGE='usage: llm-retry [-hv] -c CHECK [-n ATTEMPTS] [-p FILE] [-T SECONDS]
                 [-w SECONDS] [--emit-last] [--max-size BYTES]
                 [--pass STATUSES]
                 -- MODEL-COMMAND [ARG ...]'
STATUSES="exit status: 0 accepted, 1 no answer accepted, 2 usage, 3 trouble; or the check's status listed in --pass"
# The check most tests use: fake-model on the queue in c/, so that
# c/prompt.N is the answer the check was given, c/reply.N its feedback and
# c/status.N its exit status.
CHECK="'$FAKE' c"
# How long a run may take where the manual says "at once" or "promptly".
QUICK=5
# "no answer accepted in N attempts" with N = 1: in the singular.
ONE='1 attempt'

# Each test: its own directory, with the model's queue in m/ and the
# check's in c/.
setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	mkdir m c
}

# answer N TEXT: the model's reply to call N, exactly the bytes of TEXT.
answer() {
	printf '%s' "$2" >"m/reply.$1"
}

# verdict N STATUS [FEEDBACK]: the check's call N writes FEEDBACK (exact
# bytes, none when omitted) on stdout and exits with STATUS.
verdict() {
	printf '%s' "${3-}" >"c/reply.$1"
	echo "$2" >"c/status.$1"
}

# retry ARG...: runs llm-retry (killed after 20 s, status 124, should it
# hang) with stdout in out and stderr in err; the status in $status and the
# seconds it took in $elapsed. Standard input is the caller's.
retry() {
	local t0=$EPOCHREALTIME
	timeout 20 llm-retry "$@" >out 2>err && status=0 || status=$?
	elapsed=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
}

# same FILE TEXT: FILE holds exactly the bytes of TEXT.
same() {
	printf '%s' "$2" >"$1.expected"
	cmp -s "$1.expected" "$1" ||
	    fail "$(printf '%s is not as expected\n-- expected (cat -A):\n%s\n-- actual (cat -A):\n%s' \
	    "$1" "$(cat -A "$1.expected")" "$(head -c 3000 "$1" | cat -A)")"
}

# same_file FILE EXPECTED-FILE: the two files are byte for byte equal.
same_file() {
	cmp -s "$2" "$1" ||
	    fail "$(printf '%s differs from %s: %s\n-- expected (%s bytes, cat -A):\n%s\n-- actual (%s bytes, cat -A):\n%s' \
	    "$1" "$2" "$(cmp "$2" "$1" 2>&1)" "$(wc -c <"$2")" "$(head -c 400 "$2" | cat -A)" \
	    "$(wc -c <"$1")" "$(head -c 400 "$1" | cat -A)")"
}

# status_is N: the last retry ended with status N.
status_is() {
	[ "$status" -eq "$1" ] ||
	    fail "$(printf 'status %s, expected %s; stderr was:\n%s' "$status" "$1" "$(head -c 3000 err)")"
}

# below SECONDS: the last retry took less than SECONDS.
below() {
	awk -v e="$elapsed" -v s="$1" 'BEGIN { exit !(e < s) }' ||
	    fail "llm-retry took $elapsed s, expected less than $1 s"
}

# usage_error MESSAGE ARG...: llm-retry ARG... is a usage error: status 2,
# nothing on stdout, "llm-retry: MESSAGE" and the usage lines on stderr,
# and no model call.
usage_error() {
	local msg=$1
	shift
	retry "$@" </dev/null
	status_is 2
	same out ''
	same err "llm-retry: $msg
$(llm-retry -h | sed '/^$/,$d')
"
	[ ! -e m/calls ] || fail "the model was called"
}

# ends_nl FILE: prints a newline unless FILE is empty or ends with one.
ends_nl() {
	[ ! -s "$1" ] || [ "$(tail -c 1 "$1" | od -An -tx1 | tr -d ' ')" = 0a ] ||
	    printf '\n'
}

# block J ANSWER-FILE FEEDBACK-FILE: what the rejection of attempt J adds
# to the prompts after it, as the manual lays it out (after a text that ends
# with a newline).
block() {
	printf '\nYour answer (attempt %s):\n\n' "$1"
	cat "$2"
	ends_nl "$2"
	printf '\nIt was rejected (attempt %s):\n\n' "$1"
	if [ -s "$3" ]; then
		cat "$3"
		ends_nl "$3"
	else
		printf '(the check gave no reason)\n'
	fi
}

# no_group PGID: no live process is left in process group PGID (zombies,
# which only wait for init to reap them, are not counted); waits up to 3 s
# for processes that were already sent SIGKILL to go.
no_group() {
	local i left
	for i in $(seq 30); do
		left=$(ps -e -o pid=,pgid=,stat=,args= |
		    awk -v g="$1" '($1 == g || $2 == g) && $3 !~ /^Z/')
		[ -n "$left" ] || return 0
		sleep 0.1
	done
	fail "still running in process group $1: $left"
}

# no_process PID: process PID is gone (or a zombie), within 3 s.
no_process() {
	local i st
	for i in $(seq 30); do
		st=$(ps -o stat= -p "$1") || return 0
		case $st in Z*) return 0 ;; esac
		sleep 0.1
	done
	fail "process $1 is still running: $(ps -o pid=,args= -p "$1")"
}

# nothing_left: no process is left whose command line names this test's
# directory (the signal tests name it in every command they start), within
# 3 s; zombies are not counted.
nothing_left() {
	local i left
	for i in $(seq 30); do
		left=$(ps -e -o pid=,stat=,args= |
		    T=$BATS_TEST_TMPDIR awk 'index($0, ENVIRON["T"]) && $2 !~ /^Z/')
		[ -n "$left" ] || return 0
		sleep 0.1
	done
	fail "still running: $left"
}

# wait_for FILE: waits up to 10 s for FILE to exist.
wait_for() {
	local i
	for i in $(seq 100); do
		[ ! -e "$1" ] || return 0
		sleep 0.1
	done
	fail "$1 did not appear"
}

# leads_group PID: PID is the leader of a process group of its own.
leads_group() {
	local g
	g=$(ps -o pgid= -p "$1" | tr -d ' ')
	[ "$g" = "$1" ] || fail "process $1 is in process group $g, not its own"
}

# pgid_of PID: the process group of PID.
pgid_of() {
	ps -o pgid= -p "$1" | tr -d ' '
}

# time_gap A B: seconds between the model's calls A and B.
time_gap() {
	awk 'NR == FNR { a = $1; next } { printf "%.3f\n", $1 - a }' "m/time.$1" "m/time.$2"
}

# at_least X Y / less_than X Y: numeric comparisons that fail the test.
at_least() {
	awk -v x="$1" -v y="$2" 'BEGIN { exit !(x >= y) }' || fail "$1 is less than $2"
}
less_than() {
	awk -v x="$1" -v y="$2" 'BEGIN { exit !(x < y) }' || fail "$1 is not less than $2"
}

# background_retry ARG...: starts llm-retry ARG... in the
# background (stdin from prompt, stdout in out, stderr in err) with SIGINT
# and SIGQUIT at their default (a background job of a script starts with
# them ignored); sets $pid.
background_retry() {
	printf 'Q\n' >prompt
	env --default-signal=INT,QUIT llm-retry "$@" <prompt >out 2>err &
	pid=$!
}

# stop SIGNAL: sends SIGNAL to llm-retry ($pid), waits for it, and sets
# $status and $elapsed (seconds from the signal to its end).
stop() {
	local t0=$EPOCHREALTIME
	kill -"$1" "$pid"
	wait "$pid" && status=0 || status=$?
	elapsed=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
}

# dies_of_it_in_model SIGNAL STATUS: SIGNAL while the model runs ends
# llm-retry with STATUS, quickly, and leaves nothing of the model running.
dies_of_it_in_model() {
	answer 1 'A1'
	echo 30 >m/sleep.1
	background_retry -c "'$FAKE' '$PWD/c'" -- "$FAKE" "$PWD/m"
	wait_for m/pid.1
	stop "$1"
	status_is "$2"
	nothing_left
	below "$QUICK"
	no_group "$(cat m/pid.1)"
}

# ----------------------------------------------------------------- usage

@test "-h prints the usage and the exit statuses on stdout and exits 0" {
	retry -h
	status_is 0
	same out "$USAGE

$(help_of llm-retry)

$STATUSES
"
	same err ''
	retry --help
	status_is 0
	same out "$USAGE

$(help_of llm-retry)

$STATUSES
"
}

@test "--version prints the tool, llmkit and the version" {
	retry --version
	status_is 0
	same out 'llm-retry (llmkit) 0.1.0
'
	same err ''
}

@test "without -c it is a usage error" {
	usage_error '-c CHECK is required' -- "$FAKE" m
	usage_error '-c CHECK is required' -n 2 "$FAKE" m
}

@test "without a model command it is a usage error" {
	usage_error 'no model command given' -c 'exit 0'
	usage_error 'no model command given' -c 'exit 0' --
	usage_error 'no model command given' --check='exit 0' -n 2 --
}

@test "-n must be a whole number from 1 to 1000" {
	local v
	for v in 0 1001 -1 x 2.5 3x '' 99999999999999999999; do
		usage_error "-n must be a whole number from 1 to 1000, not \"$v\"" \
		    -c 'exit 0' -n "$v" -- "$FAKE" m
	done
	usage_error '-n must be a whole number from 1 to 1000, not "0"' \
	    -c 'exit 0' --attempts=0 -- "$FAKE" m
}

@test "-d must be a number of seconds from 0 to 86400" {
	local v
	for v in -1 -0.5 86400.5 86401 x '' 1s nan inf; do
		usage_error "-d must be a number of seconds from 0 to 86400, not \"$v\"" \
		    -c 'exit 0' -d "$v" -- "$FAKE" m
	done
	usage_error '-w must be a number of seconds from 0 to 86400, not "x"' \
	    -c 'exit 0' --delay=x -- "$FAKE" m
}

@test "-t must be a number of seconds above 0 and at most 86400" {
	local v
	for v in 0 0.0 -1 86400.5 86401 x '' 5s nan inf; do
		usage_error "-t must be a number of seconds above 0, at most 86400, not \"$v\"" \
		    -c 'exit 0' -t "$v" -- "$FAKE" m
	done
	usage_error '-T must be a number of seconds above 0, at most 86400, not "0"' \
	    -c 'exit 0' --timeout=0 -- "$FAKE" m
}

@test "--pass must list exit statuses 0 or 2 to 255, and never 1" {
	usage_error '--pass cannot list 1, the status of a rejected answer' \
	    -c 'exit 0' --pass 1 -- "$FAKE" m
	usage_error '--pass cannot list 1, the status of a rejected answer' \
	    -c 'exit 0' --pass=4,1,5 -- "$FAKE" m
	usage_error '--pass must list exit statuses from 2 to 255, not "256"' \
	    -c 'exit 0' --pass 256 -- "$FAKE" m
	usage_error '--pass must list exit statuses from 2 to 255, not "x"' \
	    -c 'exit 0' --pass 4,x -- "$FAKE" m
	usage_error '--pass must list exit statuses from 2 to 255, not "-4"' \
	    -c 'exit 0' --pass -4 -- "$FAKE" m
	usage_error '--pass must list exit statuses from 2 to 255, not ""' \
	    -c 'exit 0' --pass '' -- "$FAKE" m
	usage_error '--pass must list exit statuses from 2 to 255, not ""' \
	    -c 'exit 0' --pass 4,,5 -- "$FAKE" m
}

@test "unknown options and missing option arguments are usage errors" {
	usage_error "invalid option -- 'x'" -x -c 'exit 0' -- "$FAKE" m
	usage_error "unrecognized option '--retries=3'" --retries=3 -c 'exit 0' -- "$FAKE" m
	usage_error "option requires an argument -- 'c'" -c
	usage_error "option '--check' requires an argument" --check
}

@test "the limits of -n, -d, -t and --pass are accepted" {
	retry -c 'exit 0' -n 1000 -d 86400 -t 86400 --pass 0,2,255 -- printf ok </dev/null
	status_is 0
	same out 'ok'
	same err ''
	retry -c 'exit 0' -n 1 -d 0 -- printf ok </dev/null
	status_is 0
	same out 'ok'
}

@test "options end at the model command, whose arguments are passed as they are, without a shell" {
	retry -c 'exit 0' printf '%s|' -n 'a b' '$HOME' '*' </dev/null
	status_is 0
	same out '-n|a b|$HOME|*|'
	same err ''
	retry -c 'exit 0' -- printf '%s|' -- -v </dev/null
	status_is 0
	same out '--|-v|'
}

# -------------------------------------------------------------- the loop

@test "an answer accepted at once is written byte for byte after one model call" {
	printf 'What is 2+2?\nAnswer in JSON.\n' >prompt
	answer 1 $'{"answer": 4}\n\t'
	verdict 1 0
	retry -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same out $'{"answer": 4}\n\t'
	same err ''
	same m/calls $'1\n'
	same_file m/prompt.1 prompt
	same c/prompt.1 $'{"answer": 4}\n\t'
	same c/calls $'1\n'
}

@test "a rejected answer goes back to the model with the check's feedback, and the next is accepted" {
	printf 'Q\n' >prompt
	answer 1 'A1'
	verdict 1 1 $'F1\n'
	answer 2 $'A2\n'
	verdict 2 0
	retry -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same out $'A2\n'
	same err ''
	same m/prompt.1 $'Q\n'
	same m/prompt.2 $'Q\n\nYour answer (attempt 1):\n\nA1\n\nIt was rejected (attempt 1):\n\nF1\n'
	same c/prompt.1 'A1'
	same c/prompt.2 $'A2\n'
}

@test "the model and the check see LLM_RETRY_ATTEMPT 1 then 2" {
	printf 'Q\n' >prompt
	answer 1 'A1'
	verdict 1 1 $'F1\n'
	answer 2 'A2'
	verdict 2 0
	LLM_RETRY_ATTEMPT=7 retry -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same m/attempt.1 $'1\n'
	same m/attempt.2 $'2\n'
	same c/attempt.1 $'1\n'
	same c/attempt.2 $'2\n'
}

@test "LLM_RETRY_ATTEMPTS holds the number of attempts for both commands" {
	LLM_RETRY_ATTEMPTS=9 retry -n 2 -d 0 \
	    -c 'cat >/dev/null; echo "check $LLM_RETRY_ATTEMPT/$LLM_RETRY_ATTEMPTS" >>seen; exit 1' \
	    -- sh -c 'echo "model $LLM_RETRY_ATTEMPT/$LLM_RETRY_ATTEMPTS" >>seen; echo no' </dev/null
	status_is 1
	same seen $'model 1/2\ncheck 1/2\nmodel 2/2\ncheck 2/2\n'
}

@test "the stderr of the model and of the check passes through; beside feedback on stdout, neither enters a prompt" {
	printf 'Q\n' >prompt
	answer 1 'A1'
	printf 'model: thinking\n' >m/stderr.1
	verdict 1 1 $'F1\n'
	printf 'check: a warning\n' >c/stderr.1
	answer 2 'A2'
	verdict 2 0
	retry -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same out 'A2'
	same err $'model: thinking\ncheck: a warning\n'
	same m/prompt.2 $'Q\n\nYour answer (attempt 1):\n\nA1\n\nIt was rejected (attempt 1):\n\nF1\n'
}

@test "three rejected answers: status 1, nothing on stdout, the last feedback on stderr" {
	printf 'Q\n' >prompt
	answer 1 'A1'
	verdict 1 1 $'F1\n'
	answer 2 $'A2\n'
	verdict 2 1 'F2'
	answer 3 'A3'
	verdict 3 1 'F3'
	retry -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 1
	same out ''
	same err $'llm-retry: no answer accepted in 3 attempts; the last check said:\nF3\n'
	same m/calls $'3\n'
	same m/prompt.1 $'Q\n'
	same m/prompt.2 $'Q\n\nYour answer (attempt 1):\n\nA1\n\nIt was rejected (attempt 1):\n\nF1\n'
	same m/prompt.3 $'Q\n\nYour answer (attempt 1):\n\nA1\n\nIt was rejected (attempt 1):\n\nF1\n\nYour answer (attempt 2):\n\nA2\n\nIt was rejected (attempt 2):\n\nF2\n'
}

@test "-n 1 makes one attempt and no retry" {
	printf 'Q\n' >prompt
	answer 1 'A1'
	verdict 1 1 $'F1\nsecond line\n'
	retry -n 1 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 1
	same out ''
	same err "llm-retry: no answer accepted in $ONE; the last check said:"$'\nF1\nsecond line\n'
	same m/calls $'1\n'
}

@test "-n 5 makes five attempts, the fifth prompt holding the four rejections in order" {
	local j
	printf 'Q\n' >prompt
	cp prompt want
	for j in 1 2 3 4 5; do
		answer "$j" "answer $j"
		verdict "$j" 1 "feedback $j"
	done
	for j in 1 2 3 4; do
		printf '\nYour answer (attempt %d):\n\nanswer %d\n\nIt was rejected (attempt %d):\n\nfeedback %d\n' \
		    "$j" "$j" "$j" "$j" >>want
	done
	retry -n 5 -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 1
	same out ''
	same err $'llm-retry: no answer accepted in 5 attempts; the last check said:\nfeedback 5\n'
	same m/calls $'5\n'
	same_file m/prompt.5 want
	same m/attempt.5 $'5\n'
	same c/attempt.5 $'5\n'
}

@test "--emit-last writes the last rejected answer, byte for byte, and still exits 1" {
	printf 'Q\n' >prompt
	answer 1 'A1'
	verdict 1 1 $'F1\n'
	answer 2 'A2'
	verdict 2 1 $'F2\n'
	answer 3 $'A3\n\n'
	verdict 3 1 $'F3\n'
	retry --emit-last -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 1
	same out $'A3\n\n'
	same err $'llm-retry: no answer accepted in 3 attempts; the last check said:\nF3\n'
}

@test "--emit-last writes the last answer that reached the check, not a failed model run's output" {
	printf 'Q\n' >prompt
	answer 1 'A1'
	verdict 1 1 $'F1\n'
	answer 2 'half an answer'
	echo 7 >m/status.2
	retry --emit-last -n 2 -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 1
	same out 'A1'
	same err $'llm-retry: attempt 2: the model command exited with status 7\nllm-retry: no answer accepted in 2 attempts; the last check said:\nF1\n'
}

@test "when no answer reached the check, stderr says so without feedback and --emit-last writes nothing" {
	printf 'Q\n' >prompt
	answer 1 'x'
	echo 7 >m/status.1
	answer 2 ''
	answer 3 $' \n'
	retry --emit-last -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 1
	same out ''
	same err 'llm-retry: attempt 1: the model command exited with status 7
llm-retry: attempt 2: the model command wrote no answer
llm-retry: attempt 3: the model command wrote no answer
llm-retry: no answer accepted in 3 attempts
'
	[ ! -e c/calls ] || fail "the check was run"
}

@test "empty feedback: the prompt says the check gave no reason, stderr that it gave no feedback" {
	printf 'Q\n' >prompt
	answer 1 'A1'
	verdict 1 1
	answer 2 'A2'
	verdict 2 1
	retry -n 2 -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 1
	same out ''
	same err $'llm-retry: no answer accepted in 2 attempts; the check gave no feedback\n'
	same m/prompt.2 $'Q\n\nYour answer (attempt 1):\n\nA1\n\nIt was rejected (attempt 1):\n\n(the check gave no reason)\n'
}

@test "a prompt without a final newline gets one before the first rejection" {
	printf 'Q' >prompt
	answer 1 $'A1\n'
	verdict 1 1 $'F1\n'
	answer 2 'A2'
	verdict 2 0
	retry -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same out 'A2'
	same m/prompt.1 'Q'
	same m/prompt.2 $'Q\n\nYour answer (attempt 1):\n\nA1\n\nIt was rejected (attempt 1):\n\nF1\n'
}

@test "an empty prompt is passed as it is, and the next prompt starts with the blank line" {
	answer 1 'A1'
	verdict 1 1 $'F1\n'
	answer 2 'A2'
	verdict 2 0
	retry -d 0 -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 0
	same out 'A2'
	same m/prompt.1 ''
	same m/prompt.2 $'\nYour answer (attempt 1):\n\nA1\n\nIt was rejected (attempt 1):\n\nF1\n'
}

@test "prompts, answers and feedback may hold NUL bytes and invalid UTF-8" {
	printf 'Q\000q\377\n' >prompt
	printf 'A\000\376' >m/reply.1
	verdict 1 1
	printf 'F\000\n' >c/reply.1
	printf 'A2\000' >m/reply.2
	verdict 2 0
	printf 'Q\000q\377\n\nYour answer (attempt 1):\n\nA\000\376\n\nIt was rejected (attempt 1):\n\nF\000\n' >want
	retry -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same_file m/prompt.1 prompt
	same_file m/prompt.2 want
	same_file c/prompt.1 m/reply.1
	same_file out m/reply.2
}

@test "a check status other than 0 and 1 at attempt 2 stops at once with status 3" {
	printf 'Q\n' >prompt
	answer 1 'A1'
	verdict 1 1 $'F1\n'
	answer 2 'A2'
	verdict 2 2 'broken'
	answer 3 'A3'
	verdict 3 0
	retry -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 3
	same out ''
	same err $'llm-retry: attempt 2: the check exited with status 2\n'
	same m/calls $'2\n'
}

# --------------------------------------------------- failed model runs

@test "a model that exits non-zero is a failed attempt: its stderr passes, the prompt stays the same" {
	printf 'Q\n' >prompt
	answer 1 'partial'
	printf 'model: rate limit reached\n' >m/stderr.1
	echo 7 >m/status.1
	answer 2 $'A2\n'
	verdict 1 0
	retry -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same out $'A2\n'
	same err $'model: rate limit reached\nllm-retry: attempt 1: the model command exited with status 7\n'
	same_file m/prompt.1 prompt
	same_file m/prompt.2 m/prompt.1
	same m/attempt.2 $'2\n'
	same c/calls $'1\n'
	same c/prompt.1 $'A2\n'
}

@test "a model killed by a signal is a failed attempt, and the prompt stays the same" {
	printf 'Q\n' >prompt
	answer 1 'A1'
	answer 2 'A2'
	verdict 1 0
	retry -d 0 -c "$CHECK" -- sh -c '"$0" "$1" || exit; [ "$LLM_RETRY_ATTEMPT" != 1 ] || kill -KILL $$' "$FAKE" m <prompt
	status_is 0
	same out 'A2'
	same err $'llm-retry: attempt 1: the model command was killed by signal 9\n'
	same_file m/prompt.2 m/prompt.1
	same c/calls $'1\n'
}

@test "a model that writes nothing, or only spaces, tabs, CRs and LFs, is a failed attempt" {
	printf 'Q\n' >prompt
	answer 1 ''
	answer 2 $' \t\r\n\n '
	answer 3 'A3'
	verdict 1 0
	retry -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same out 'A3'
	same err 'llm-retry: attempt 1: the model command wrote no answer
llm-retry: attempt 2: the model command wrote no answer
'
	same_file m/prompt.2 prompt
	same_file m/prompt.3 prompt
	same c/calls $'1\n'
	same c/prompt.1 'A3'
}

@test "an answer of other white space (form feed, vertical tab) goes to the check" {
	answer 1 $'\f\v'
	verdict 1 0
	retry -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 0
	same out $'\f\v'
	same err ''
}

@test "-t: a model that runs too long is stopped, the attempt fails, and the next is made at once" {
	printf 'Q\n' >prompt
	answer 1 'late'
	echo 30 >m/sleep.1
	answer 2 $'A2\n'
	verdict 1 0
	retry -t 0.50 -d 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same out $'A2\n'
	same err $'llm-retry: attempt 1: the model command timed out after 0.5 s\n'
	same_file m/prompt.2 m/prompt.1
	below "$QUICK"
	# time.N is taken a moment after the model starts, that moment
	# longer for the first on a loaded machine: the gap is the limit,
	# give or take it
	at_least "$(time_gap 1 2)" 0.4
	no_group "$(cat m/pid.1)"
}

@test "-t: a model that ignores SIGTERM is killed a second later" {
	answer 1 'late'
	echo 30 >m/sleep.1
	retry -n 1 -t 0.3 -c "$CHECK" -- sh -c 'trap "" TERM; exec "$0" "$1"' "$FAKE" m </dev/null
	status_is 1
	same out ''
	same err $'llm-retry: attempt 1: the model command timed out after 0.3 s\n'"llm-retry: no answer accepted in $ONE"$'\n'
	at_least "$elapsed" 1.25
	below "$QUICK"
	no_group "$(cat m/pid.1)"
}

@test "-t limits the model, not the check" {
	retry -t 0.2 -c 'cat >/dev/null; sleep 0.6; exit 0' -- printf ok </dev/null
	status_is 0
	same out 'ok'
	same err ''
}

# ---------------------------------------------------------------- --pass

@test "--pass 4,5: a listed check status accepts the answer and becomes the exit status" {
	answer 1 $'A1\n'
	retry --pass 4,5 -c 'cat >/dev/null; exit 4' -- "$FAKE" m </dev/null
	status_is 4
	same out $'A1\n'
	same err ''
	rm -r m && mkdir m
	answer 1 $'A1\n'
	retry --pass=5 -c 'exit 5' -- "$FAKE" m </dev/null
	status_is 5
	same out $'A1\n'
}

@test "a check status not listed in --pass stops at once: status 3, nothing on stdout, no retry" {
	answer 1 'A1'
	retry -d 30 -c 'cat >/dev/null; exit 4' -- "$FAKE" m </dev/null
	status_is 3
	same out ''
	same err $'llm-retry: attempt 1: the check exited with status 4\n'
	same m/calls $'1\n'
	below "$QUICK"
	rm -r m && mkdir m
	answer 1 'A1'
	retry --pass 4 -d 30 -c 'exit 5' -- "$FAKE" m </dev/null
	status_is 3
	same out ''
	same err $'llm-retry: attempt 1: the check exited with status 5\n'
}

@test "a check killed by a signal stops at once: status 3" {
	answer 1 'A1'
	retry -d 30 -c 'kill -TERM $$' -- "$FAKE" m </dev/null
	status_is 3
	same out ''
	same err $'llm-retry: attempt 1: the check was killed by signal 15\n'
	same m/calls $'1\n'
	below "$QUICK"
}

@test "a status 1 of the check is a rejection even when --pass lists other statuses" {
	answer 1 'A1'
	verdict 1 1 'F1'
	retry -n 1 --pass 0,4,5 -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 1
	same out ''
	same err "llm-retry: no answer accepted in $ONE; the last check said:"$'\nF1\n'
}

# ------------------------------------------- commands that cannot be run

@test "a model command that does not exist stops at once with status 3, without retry or delay" {
	retry -d 30 -c "$CHECK" -- no-such-model-llmkit m </dev/null
	status_is 3
	same out ''
	same err $'llm-retry: no-such-model-llmkit: No such file or directory\n'
	below "$QUICK"
	[ ! -e c/calls ] || fail "the check was run"
	retry -d 30 -c "$CHECK" -- ./no/such/model </dev/null
	status_is 3
	same err $'llm-retry: ./no/such/model: No such file or directory\n'
	below "$QUICK"
}

@test "a model command that is not executable stops at once with status 3" {
	printf 'echo hi\n' >model
	chmod 644 model
	retry -d 30 -c "$CHECK" -- ./model </dev/null
	status_is 3
	same out ''
	same err $'llm-retry: ./model: Permission denied\n'
	below "$QUICK"
}

# -------------------------------------------------------------------- -p

@test "-p FILE reads the prompt from FILE, not from stdin" {
	printf 'from the file\n' >p.txt
	answer 1 'A1'
	verdict 1 0
	retry -p p.txt -c "$CHECK" -- "$FAKE" m <<<'from stdin'
	status_is 0
	same out 'A1'
	same_file m/prompt.1 p.txt
	rm -r m && mkdir m
	answer 1 'A1'
	retry --prompt=p.txt -c 'exit 0' -- "$FAKE" m </dev/null
	status_is 0
	same_file m/prompt.1 p.txt
}

@test "-p - reads the prompt from stdin" {
	printf 'from stdin\n' >prompt
	answer 1 'A1'
	retry -p - -c 'exit 0' -- "$FAKE" m <prompt
	status_is 0
	same out 'A1'
	same_file m/prompt.1 prompt
}

@test "-p with a file that cannot be read: status 3, the file's error, no model call" {
	retry -p nope.txt -c 'exit 0' -- "$FAKE" m </dev/null
	status_is 3
	same out ''
	same err $'llm-retry: nope.txt: No such file or directory\n'
	[ ! -e m/calls ] || fail "the model was called"
	mkdir d
	retry -p d -c 'exit 0' -- "$FAKE" m </dev/null
	status_is 3
	same out ''
	same err $'llm-retry: d: Is a directory\n'
	[ ! -e m/calls ] || fail "the model was called"
}

# ------------------------------------------------------- size and pipes

@test "a 5 MB answer and a 5 MB prompt of random bytes pass through intact" {
	head -c 5000000 /dev/urandom >big.prompt
	head -c 5000000 /dev/urandom >m/reply.1
	verdict 1 0
	retry -c "$CHECK" -- "$FAKE" m <big.prompt
	status_is 0
	same err ''
	same_file m/prompt.1 big.prompt
	same_file c/prompt.1 m/reply.1
	same_file out m/reply.1
}

@test "a model that writes 5 MB before it reads its 5 MB prompt does not deadlock" {
	head -c 5000000 /dev/urandom >big.prompt
	head -c 5000000 /dev/urandom >big.answer
	retry -c 'cat >got.answer' -- sh -c 'cat "$1" && cat >"$2"' sh big.answer got.prompt <big.prompt
	status_is 0
	same err ''
	same_file got.prompt big.prompt
	same_file got.answer big.answer
	same_file out big.answer
}

@test "a check that writes 5 MB of feedback before it reads its 5 MB answer does not deadlock" {
	head -c 5000000 /dev/urandom >big.answer
	head -c 5000000 /dev/urandom >big.feedback
	{ printf 'llm-retry: no answer accepted in %s; the last check said:\n' "$ONE"
	  cat big.feedback
	  ends_nl big.feedback; } >want.err
	retry -n 1 -c 'cat big.feedback && cat >got.answer; exit 1' -- cat big.answer </dev/null
	status_is 1
	same out ''
	same_file err want.err
	same_file got.answer big.answer
}

@test "a check that reads none of its 5 MB answer still accepts it" {
	head -c 5000000 /dev/urandom >big.answer
	retry -c 'exit 0' -- cat big.answer </dev/null
	status_is 0
	same err ''
	same_file out big.answer
}

@test "a model that reads none of its 5 MB prompt is not an error" {
	head -c 5000000 /dev/urandom >big.prompt
	retry -c 'exit 0' -- printf ok <big.prompt
	status_is 0
	same out 'ok'
	same err ''
}

@test "llm-retry | head -c 1: the closed pipe is a failed write, status 3" {
	head -c 5000000 /dev/urandom >big.answer
	llm-retry -c 'exit 0' -- cat big.answer </dev/null 2>err | head -c 1 >first
	status=${PIPESTATUS[0]}
	status_is 3
	same err $'llm-retry: <stdout>: Broken pipe\n'
	same_file first <(head -c 1 big.answer)
}

# ------------------------------------------------------------- the delay

@test "-d 0.5: the second call comes at least 0.5 s after the first" {
	answer 1 'A1'
	verdict 1 1 'F1'
	answer 2 'A2'
	verdict 2 0
	retry -d 0.5 -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 0
	at_least "$(time_gap 1 2)" 0.5
	less_than "$(time_gap 1 2)" 3
}

@test "the delay is 0.5 s by default, and follows failed model runs too" {
	answer 1 'A1'
	echo 7 >m/status.1
	answer 2 'A2'
	verdict 1 1 'F2'
	answer 3 'A3'
	verdict 2 0
	retry -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 0
	same out 'A3'
	at_least "$(time_gap 1 2)" 0.5
	at_least "$(time_gap 2 3)" 0.5
}

@test "-d 0: no wait between attempts" {
	# (a lean model and check, so that a loaded machine does not blur the
	# measure)
	retry -d 0 -c '[ "$LLM_RETRY_ATTEMPT" = 2 ]' -- sh -c 'date +%s.%N >>times; echo A' </dev/null
	status_is 0
	[ "$(wc -l <times)" -eq 2 ] || fail "$(cat times)"
	less_than "$(awk 'NR == 1 { a = $1 } NR == 2 { print $1 - a }' times)" 0.4
}

@test "no delay after the last attempt" {
	answer 1 'A1'
	verdict 1 1 'F1'
	retry -n 1 -d 30 -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 1
	same err "llm-retry: no answer accepted in $ONE; the last check said:"$'\nF1\n'
	below "$QUICK"
}

# --------------------------------------------------------------- signals

@test "SIGTERM while the model runs: the model's process group ends, llm-retry dies of SIGTERM" {
	answer 1 'A1'
	echo 30 >m/sleep.1
	background_retry -c "'$FAKE' '$PWD/c'" -- "$FAKE" "$PWD/m"
	wait_for m/pid.1
	leads_group "$(cat m/pid.1)"
	stop TERM
	status_is 143
	nothing_left
	below "$QUICK"
	same out ''
	no_group "$(cat m/pid.1)"
	[ ! -e c/calls ] || fail "the check was run"
}

@test "SIGINT while the model runs: llm-retry dies of SIGINT, leaving nothing running" {
	dies_of_it_in_model INT 130
}

@test "SIGHUP while the model runs: llm-retry dies of SIGHUP, leaving nothing running" {
	dies_of_it_in_model HUP 129
}

@test "SIGTERM to a model that ignores it: SIGKILL follows and llm-retry dies of SIGTERM" {
	answer 1 'A1'
	echo 30 >m/sleep.1
	background_retry -c "'$FAKE' '$PWD/c'" -- sh -c 'trap "" TERM; exec "$0" "$1"' "$FAKE" "$PWD/m"
	wait_for m/pid.1
	stop TERM
	status_is 143
	nothing_left
	below "$QUICK"
	no_group "$(cat m/pid.1)"
}

@test "SIGTERM while the check runs: the check's process group ends, llm-retry dies of SIGTERM" {
	answer 1 'A1'
	verdict 1 0
	echo 30 >c/sleep.1
	background_retry -c "'$FAKE' '$PWD/c'" -- "$FAKE" "$PWD/m"
	wait_for c/pid.1
	# (the check runs under sh -c, so c/pid.1 is not always the leader)
	g=$(pgid_of "$(cat c/pid.1)")
	[ -n "$g" ] && [ "$g" != "$(pgid_of "$pid")" ] ||
	    fail "the check is not in a process group of its own"
	stop TERM
	status_is 143
	nothing_left
	below "$QUICK"
	same out ''
	no_group "$g"
}

@test "SIGTERM during the delay between attempts ends llm-retry at once" {
	answer 1 'A1'
	verdict 1 1 'F1'
	answer 2 'A2'
	background_retry -d 30 -c "'$FAKE' '$PWD/c'" -- "$FAKE" "$PWD/m"
	wait_for c/pid.1
	no_process "$(cat c/pid.1)"
	sleep 0.3
	stop TERM
	status_is 143
	nothing_left
	below "$QUICK"
	same m/calls $'1\n'
	no_group "$(cat m/pid.1)"
}

@test "SIGINT during the delay between attempts ends llm-retry at once" {
	answer 1 'A1'
	verdict 1 1 'F1'
	answer 2 'A2'
	background_retry -d 30 -c "'$FAKE' '$PWD/c'" -- "$FAKE" "$PWD/m"
	wait_for c/pid.1
	no_process "$(cat c/pid.1)"
	sleep 0.3
	stop INT
	status_is 130
	nothing_left
	below "$QUICK"
	same m/calls $'1\n'
}

@test "a process the model left running in the background is killed when the model exits" {
	retry -c 'exit 0' -- sh -c 'sleep 30 >/dev/null 2>&1 </dev/null & echo $! >bg; echo answer' </dev/null
	status_is 0
	same out $'answer\n'
	no_process "$(cat bg)"
}

@test "a background process holding the model's stdout does not keep llm-retry waiting" {
	retry -c 'exit 0' -- sh -c 'sleep 30 & echo $! >bg; echo answer' </dev/null
	status_is 0
	same out $'answer\n'
	below "$QUICK"
	no_process "$(cat bg)"
}

# -------------------------------------------------------------------- -v

@test "-v writes one line per command run, with its status and seconds" {
	local s='[0-9]+\.[0-9]{2} s'
	answer 1 'A1'
	verdict 1 1 'F1'
	answer 2 'A2'
	verdict 2 0
	retry -v -d 0 -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 0
	same out 'A2'
	[[ $(cat err) =~ ^"llm-retry: attempt 1: model status 0, "$s$'\n'"llm-retry: attempt 1: check status 1, "$s$'\n'"llm-retry: attempt 2: model status 0, "$s$'\n'"llm-retry: attempt 2: check status 0, "$s$ ]] ||
	    fail "stderr: $(cat err)"
	same_file <(tail -c 1 err) <(printf '\n')
}

@test "-v measures the seconds a command took" {
	answer 1 'A1'
	echo 0.4 >m/sleep.1
	retry -v -c 'exit 0' -- "$FAKE" m </dev/null
	status_is 0
	[ "$(wc -l <err)" -eq 2 ] || fail "stderr: $(cat err)"
	local secs
	secs=$(sed -En '1s/^llm-retry: attempt 1: model status 0, ([0-9]+\.[0-9]{2}) s$/\1/p' err)
	[ -n "$secs" ] || fail "stderr: $(cat err)"
	at_least "$secs" 0.4
	less_than "$secs" 3
}

@test "-v reports a model that failed, was killed or timed out" {
	local s='[0-9]+\.[0-9]{2} s'
	answer 1 'A1'
	echo 7 >m/status.1
	answer 2 'A2'
	answer 3 'A3'
	echo 30 >m/sleep.3
	retry -v -d 0 -t 0.3 -c "$CHECK" -- sh -c '"$0" "$1" || exit; [ "$LLM_RETRY_ATTEMPT" != 2 ] || kill -KILL $$' "$FAKE" m </dev/null
	status_is 1
	[[ $(cat err) =~ ^"llm-retry: attempt 1: model status 7, "$s$'\n'"llm-retry: attempt 1: the model command exited with status 7"$'\n'"llm-retry: attempt 2: model killed by signal 9, "$s$'\n'"llm-retry: attempt 2: the model command was killed by signal 9"$'\n'"llm-retry: attempt 3: model timed out, "$s$'\n'"llm-retry: attempt 3: the model command timed out after 0.3 s"$'\n'"llm-retry: no answer accepted in 3 attempts"$ ]] ||
	    fail "stderr: $(cat err)"
}

# ------------------------------------------------------------ write errors

@test "a full disk on stdout: status 3 and the error" {
	answer 1 'A1'
	timeout 20 llm-retry -c 'exit 0' -- "$FAKE" m </dev/null >/dev/full 2>err && status=0 || status=$?
	status_is 3
	same err $'llm-retry: <stdout>: No space left on device\n'
}

# --------------------------------------------------------- real checkers

@test "with jsonresp-check --feedback, the model gets jsonresp-check's feedback and corrects itself" {
	printf 'Answer in the JSON format.\n' >prompt
	cp "$EX/bad-response.json" m/reply.1
	cp "$EX/response.json" m/reply.2
	jsonresp-check -q --feedback "$EX/bad-response.json" >feedback && st=0 || st=$?
	[ "$st" -eq 1 ] || fail "jsonresp-check: status $st"
	[ -s feedback ] || fail "jsonresp-check wrote no feedback"
	{ cat prompt; block 1 m/reply.1 feedback; } >want
	retry -d 0 -c 'jsonresp-check -q --feedback' -- "$FAKE" m <prompt
	status_is 0
	same err ''
	same_file out "$EX/response.json"
	same_file m/prompt.2 want
	grep -qxF "$(cat feedback)" m/prompt.2 || fail "the feedback line is not in the prompt"
}

@test "with llmr-validate --feedback, the model gets its feedback and the diagnostics pass through" {
	printf 'Answer in the XML format.\n' >prompt
	cp "$EX/bad-reply.xml" m/reply.1
	cp "$EX/reply.xml" m/reply.2
	llmr-validate --feedback <"$EX/bad-reply.xml" >feedback 2>want.err && st=0 || st=$?
	[ "$st" -eq 1 ] || fail "llmr-validate: status $st"
	[ -s feedback ] || fail "llmr-validate wrote no feedback"
	{ cat prompt; block 1 m/reply.1 feedback; } >want
	retry -d 0 -c 'llmr-validate --feedback' -- "$FAKE" m <prompt
	status_is 0
	same_file err want.err
	same_file out "$EX/reply.xml"
	same_file m/prompt.2 want
}

@test "a user's own script as the check" {
	cat >digits <<'EOF'
#!/bin/sh
# accepts an answer of digits on one line
answer=$(cat)
case $answer in
'' | *[!0-9]*)
	echo "Answer with digits only, not \"$answer\"."
	exit 1 ;;
esac
EOF
	chmod +x digits
	printf 'How many legs has a spider?\n' >prompt
	answer 1 $'eight\n'
	answer 2 $'8\n'
	retry -d 0 -c ./digits -- "$FAKE" m <prompt
	status_is 0
	same out $'8\n'
	same err ''
	same m/prompt.2 $'How many legs has a spider?\n\nYour answer (attempt 1):\n\neight\n\nIt was rejected (attempt 1):\n\nAnswer with digits only, not "eight".\n'
}

@test "--pass 4,5 with jsonresp-check: an emergency response is accepted with status 5" {
	sed -n 3p "$EX/responses.jsonl" >m/reply.1
	retry --pass 4,5 -c 'jsonresp-check -q --feedback' -- "$FAKE" m </dev/null
	status_is 5
	same err ''
	same_file out m/reply.1
	rm -r m && mkdir m
	sed -n 3p "$EX/responses.jsonl" >m/reply.1
	retry -c 'jsonresp-check -q --feedback' -- "$FAKE" m </dev/null
	status_is 3
	same out ''
	same err $'llm-retry: attempt 1: the check exited with status 5\n'
}

# Hostile input (issue 13)

# bytes N: N bytes of "x" on stdout.
bytes() {
	head -c "$1" /dev/zero | tr '\0' x
}

@test "--max-size: an answer of exactly the limit is accepted whole" {
	bytes 1024 >m/reply.1
	verdict 1 0
	retry --max-size 1K -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 0
	same err ''
	same_file out m/reply.1
	same_file c/prompt.1 m/reply.1
}

@test "--max-size: an answer one byte longer is a failed attempt, and the next gets the same prompt" {
	printf 'Q\n' >prompt
	bytes 1025 >m/reply.1
	answer 2 'A2'
	verdict 1 0
	retry -d 0 --max-size 1024 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same out 'A2'
	same err $'llm-retry: attempt 1: the model command\'s answer is larger than --max-size (1024 bytes)\n'
	same_file m/prompt.2 m/prompt.1
	same c/calls $'1\n'
}

@test "--max-size: a model that writes without end is stopped, and nothing is left running" {
	retry -n 2 -d 0 --max-size 1M -c 'exit 0' -- sh -c 'echo $$ >>pids; exec cat /dev/zero' </dev/null
	status_is 1
	same out ''
	same err 'llm-retry: attempt 1: the model command'"'"'s answer is larger than --max-size (1048576 bytes)
llm-retry: attempt 2: the model command'"'"'s answer is larger than --max-size (1048576 bytes)
llm-retry: no answer accepted in 2 attempts
'
	below "$QUICK"
	for p in $(cat pids); do no_group "$p"; done
}

@test "--max-size: a model that writes without end and ignores SIGTERM and SIGPIPE is killed" {
	retry -n 1 --max-size 1000 -v -c 'exit 0' -- \
	    sh -c 'echo $$ >pid; trap "" TERM PIPE; while :; do echo x; done 2>/dev/null' </dev/null
	status_is 1
	same out ''
	[[ "$(sed -n 1p err)" =~ ^'llm-retry: attempt 1: model stopped, output larger than --max-size, '[0-9]+\.[0-9]{2}' s'$ ]] ||
	    fail "$(cat err)"
	[ "$(sed 1d err)" = "llm-retry: attempt 1: the model command's answer is larger than --max-size (1000 bytes)
llm-retry: no answer accepted in $ONE" ] || fail "$(cat err)"
	below "$QUICK"
	no_group "$(cat pid)"
}

@test "--max-size: the default is 64M, and the model's endless answer stops there" {
	retry -n 1 -c 'exit 0' -- cat /dev/zero </dev/null
	status_is 1
	same err "llm-retry: attempt 1: the model command's answer is larger than --max-size (67108864 bytes)
llm-retry: no answer accepted in $ONE
"
}

@test "--max-size: a prompt of exactly the limit is given whole" {
	bytes 2048 >prompt
	answer 1 'A1'
	verdict 1 0
	retry --max-size 2K -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same err ''
	same_file m/prompt.1 prompt
}

@test "--max-size: a prompt one byte longer is trouble, status 3, and the model is not run" {
	bytes 2049 >prompt
	answer 1 'A1'
	retry --max-size 2K -c "$CHECK" -- "$FAKE" m <prompt
	status_is 3
	same out ''
	same err $'llm-retry: <stdin>: the prompt is larger than --max-size (2048 bytes)\n'
	[ ! -e m/calls ] || fail "the model was called"
	retry --max-size 2K -p prompt -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 3
	same err $'llm-retry: prompt: the prompt is larger than --max-size (2048 bytes)\n'
	[ ! -e m/calls ] || fail "the model was called"
}

@test "-p /dev/zero stops at the default limit: status 3" {
	retry -p /dev/zero -c 'exit 0' -- "$FAKE" m
	status_is 3
	same out ''
	same err $'llm-retry: /dev/zero: the prompt is larger than --max-size (67108864 bytes)\n'
	[ ! -e m/calls ] || fail "the model was called"
}

@test "--max-size: feedback longer than the limit is the check's failure, status 3" {
	answer 1 'A1'
	bytes 1025 >c/reply.1
	echo 1 >c/status.1
	retry --max-size 1K -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 3
	same out ''
	same err $'llm-retry: attempt 1: the check\'s feedback is larger than --max-size (1024 bytes)\n'
	same m/calls $'1\n'
}

@test "--max-size takes bytes with K, M or G, and refuses anything else" {
	for bad in 0 0K '' x 1k 1T -1 1.5M 18446744073709551616 17179869184G; do
		rm -f m/calls
		usage_error "--max-size must be a positive size in bytes (K, M, G allowed), not \"$bad\"" \
		    --max-size "$bad" -c 'exit 0' -- "$FAKE" m
	done
}

@test "SIGUSR1 while the model runs: llm-retry dies of SIGUSR1, leaving nothing running" {
	dies_of_it_in_model USR1 138
	same out ''
}

@test "SIGALRM while the model runs: llm-retry dies of SIGALRM, leaving nothing running" {
	dies_of_it_in_model ALRM 142
}

@test "SIGUSR2, SIGVTALRM, SIGPROF, SIGXCPU and SIGPIPE are sent on too" {
	local sig n
	for sig in USR2:140 VTALRM:154 PROF:155 XCPU:152 PIPE:141; do
		n=${sig#*:}
		sig=${sig%:*}
		rm -rf m c && mkdir m c
		answer 1 'A1'
		echo 30 >m/sleep.1
		background_retry -c "'$FAKE' '$PWD/c'" -- "$FAKE" "$PWD/m"
		wait_for m/pid.1
		stop "$sig"
		[ "$status" -eq "$n" ] || fail "SIG$sig: status $status, expected $n"
		nothing_left
		no_group "$(cat m/pid.1)"
	done
}

@test "SIGUSR1 while the check runs: the check's process group ends, llm-retry dies of SIGUSR1" {
	answer 1 'A1'
	verdict 1 0
	echo 30 >c/sleep.1
	background_retry -c "'$FAKE' '$PWD/c'" -- "$FAKE" "$PWD/m"
	wait_for c/pid.1
	g=$(pgid_of "$(cat c/pid.1)")
	stop USR1
	status_is 138
	nothing_left
	same out ''
	no_group "$g"
}

@test "SIGALRM during the delay between attempts ends llm-retry at once" {
	answer 1 'A1'
	verdict 1 1 'F1'
	answer 2 'A2'
	background_retry -d 30 -c "'$FAKE' '$PWD/c'" -- "$FAKE" "$PWD/m"
	wait_for c/pid.1
	no_process "$(cat c/pid.1)"
	sleep 0.3
	stop ALRM
	status_is 142
	nothing_left
	below "$QUICK"
	same m/calls $'1\n'
}

@test "a signal ignored when llm-retry starts stays ignored, for it and for the model" {
	answer 1 'A1'
	verdict 1 0
	printf 'Q\n' >prompt
	# the model sends SIGUSR1 to llm-retry and to itself
	env --ignore-signal=USR1 llm-retry -c "'$FAKE' '$PWD/c'" -- \
	    sh -c 'kill -USR1 $PPID $$; exec "$0" "$1"' "$FAKE" "$PWD/m" <prompt >out 2>err &&
	    status=0 || status=$?
	status_is 0
	same out 'A1'
	same err ''
}

@test "--max-size: the prompt of a retry may grow to the limit, and no further" {
	printf 'Q\n' >prompt
	queue() {
		rm -rf m c && mkdir m c
		answer 1 'A1'
		verdict 1 1 $'F1\n'
		answer 2 'A2'
		verdict 2 0
	}
	queue
	retry -d 0 --max-size 66 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same out 'A2'
	same err ''
	[ "$(wc -c <m/prompt.2)" -eq 66 ] || fail "the second prompt is not 66 bytes"
	queue
	retry -d 0 --max-size 65 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 1
	same out ''
	same err "llm-retry: attempt 1: the prompt of attempt 2 would be larger than --max-size (65 bytes)
llm-retry: no answer accepted in $ONE; the last check said:
F1
"
	same m/calls $'1\n'
}

# One house (issue 14)

@test "a check that writes nothing on stdout: its stderr is the feedback, and still reaches ours" {
	printf 'Q\n' >prompt
	answer 1 'A1'
	verdict 1 1
	printf '<stdin>:1:1: error: expected an object\n' >c/stderr.1
	answer 2 'A2'
	verdict 2 0
	retry -w 0 -c "$CHECK" -- "$FAKE" m <prompt
	status_is 0
	same out 'A2'
	same err $'<stdin>:1:1: error: expected an object\n'
	same m/prompt.2 $'Q\n\nYour answer (attempt 1):\n\nA1\n\nIt was rejected (attempt 1):\n\n<stdin>:1:1: error: expected an object\n'
}

@test "a check's stderr without a final newline gets one in the prompt" {
	answer 1 'A1'
	verdict 1 1
	printf 'no object' >c/stderr.1
	answer 2 'A2'
	verdict 2 0
	retry -w 0 -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 0
	same err 'no object'
	same m/prompt.2 $'\nYour answer (attempt 1):\n\nA1\n\nIt was rejected (attempt 1):\n\nno object\n'
}

@test "when no answer is accepted, the last check's stderr is what it said" {
	answer 1 'A1'
	verdict 1 1
	printf 'not JSON\n' >c/stderr.1
	retry -n 1 -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 1
	same out ''
	same err $'not JSON\nllm-retry: no answer accepted in 1 attempt; the last check said:\nnot JSON\n'
}

@test "a check that writes on stdout and stderr: stdout alone is the feedback" {
	answer 1 'A1'
	verdict 1 1 $'F1\n'
	printf 'E1\n' >c/stderr.1
	answer 2 'A2'
	verdict 2 0
	retry -w 0 -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 0
	same err $'E1\n'
	same m/prompt.2 $'\nYour answer (attempt 1):\n\nA1\n\nIt was rejected (attempt 1):\n\nF1\n'
}

@test "a check that writes nothing at all: the prompt still says it gave no reason" {
	answer 1 'A1'
	verdict 1 1
	answer 2 'A2'
	verdict 2 0
	retry -w 0 -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 0
	same err ''
	same m/prompt.2 $'\nYour answer (attempt 1):\n\nA1\n\nIt was rejected (attempt 1):\n\n(the check gave no reason)\n'
}

@test "a check's stderr longer than --max-size, as its feedback, is trouble; it still reaches ours whole" {
	answer 1 'A1'
	verdict 1 1
	printf 'eleven bytes\n' >c/stderr.1
	retry --max-size 10 -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 3
	same out ''
	same err $'eleven bytes\nllm-retry: attempt 1: the check\'s standard error, its feedback, is larger than --max-size (10 bytes)\n'
	[ "$(cat m/calls)" = 1 ] || fail "the model was called again"
}

@test "a check's stderr longer than --max-size is no trouble when it is not the feedback" {
	answer 1 'A1'
	verdict 1 1 $'F1\n'
	printf 'eleven bytes\n' >c/stderr.1
	retry -n 1 --max-size 10 -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 1
	same out ''
	same err $'eleven bytes\nllm-retry: no answer accepted in 1 attempt; the last check said:\nF1\n'
	rm -r m c && mkdir m c
	answer 1 'A1'
	verdict 1 0
	printf 'eleven bytes\n' >c/stderr.1
	retry --max-size 10 -c "$CHECK" -- "$FAKE" m </dev/null
	status_is 0
	same out 'A1'
	same err $'eleven bytes\n'
}

@test "-T and --timeout limit the model; -t is the same, its old spelling" {
	local opt
	for opt in -T --timeout -t; do
		rm -rf m c && mkdir m c
		answer 1 'late'
		echo 30 >m/sleep.1
		answer 2 'A2'
		verdict 1 0
		retry "$opt" 0.5 -w 0 -c "$CHECK" -- "$FAKE" m </dev/null
		status_is 0
		same out 'A2'
		same err $'llm-retry: attempt 1: the model command timed out after 0.5 s\n'
	done
}

@test "-T, --timeout and -t: a bad number is a usage error naming the letter given" {
	usage_error '-T must be a number of seconds above 0, at most 86400, not "0"' \
	    -c 'exit 0' -T 0 -- "$FAKE" m
	usage_error '-T must be a number of seconds above 0, at most 86400, not "x"' \
	    -c 'exit 0' --timeout x -- "$FAKE" m
	usage_error '-t must be a number of seconds above 0, at most 86400, not "x"' \
	    -c 'exit 0' -t x -- "$FAKE" m
}

@test "-w and --delay wait between attempts; -d is the same, its old spelling" {
	local opt
	for opt in -w --delay -d; do
		rm -rf m c && mkdir m c
		answer 1 'A1'
		verdict 1 1 'F1'
		answer 2 'A2'
		verdict 2 0
		retry "$opt" 0.5 -c "$CHECK" -- "$FAKE" m </dev/null
		status_is 0
		same out 'A2'
		at_least "$(time_gap 1 2)" 0.5
	done
}

@test "-w, --delay and -d: a bad number is a usage error naming the letter given" {
	usage_error '-w must be a number of seconds from 0 to 86400, not "-1"' \
	    -c 'exit 0' -w -1 -- "$FAKE" m
	usage_error '-w must be a number of seconds from 0 to 86400, not "1s"' \
	    -c 'exit 0' --delay=1s -- "$FAKE" m
	usage_error '-d must be a number of seconds from 0 to 86400, not "1s"' \
	    -c 'exit 0' -d 1s -- "$FAKE" m
}

# ------------------------------------------------ a closed standard output

# CLOSE_READER: the reader of a pipe that lets go of it at once and then
# makes the file "closed", which the commands below wait for: whatever
# llm-retry writes afterwards goes to a pipe without a reader.
CLOSE_READER='exec 0<&-; touch closed'
# LEAVES: a command line for sh -c that leaves a process naming this
# test's directory running in its group, waits for "closed", copies its
# input away and writes $1; nothing_left finds the process if it is not
# stopped.
LEAVES='sh -c "sleep 300; :" "$PWD/left" & until [ -e closed ]; do sleep 0.05; done; cat >/dev/null; printf "%s" "$1"'

@test "an answer for a reader that has gone: status 3, the message, and nothing of the model or the check left" {
	{ llm-retry -c "sh -c '$LEAVES' check ''" -- sh -c "$LEAVES" model A1 \
	    </dev/null 2>err && echo 0 >st || echo $? >st; } |
	    sh -c "$CLOSE_READER"
	status=$(cat st)
	status_is 3
	same err $'llm-retry: <stdout>: Broken pipe\n'
	nothing_left
}

@test "--emit-last for a reader that has gone: status 3 after the final failure" {
	{ llm-retry -n 1 --emit-last -c "sh -c '$LEAVES' check F1; exit 1" -- \
	    sh -c "$LEAVES" model A1 </dev/null 2>err && echo 0 >st ||
	    echo $? >st; } |
	    sh -c "$CLOSE_READER"
	status=$(cat st)
	status_is 3
	same err $'llm-retry: no answer accepted in 1 attempt; the last check said:\nF1\nllm-retry: <stdout>: Broken pipe\n'
	nothing_left
}

@test "SIGPIPE from another process during the delay ends llm-retry by it, leaving nothing running" {
	answer 1 'A1'
	verdict 1 1 'F1'
	answer 2 'A2'
	background_retry -w 30 -c "'$FAKE' '$PWD/c'" -- "$FAKE" "$PWD/m"
	wait_for c/status.1
	wait_for c/pid.1
	stop PIPE
	status_is 141
	same out ''
	nothing_left
	[ ! -e m/pid.2 ] || fail "the model was called again"
}
