#!/usr/bin/env bats
# The judge of exactness: thread-serialize must write, byte for byte, what
# the JavaScript reference (t/oracle/reference.js, run by node) writes for
# the same input, on random threads from t/oracle/gen.js. ORACLE_SEED
# picks other threads; a failure names the seed and the case. A thread
# whose summaries fold events is compared with --keep-summarized, which
# writes what the seed's reference writes, and, folded by default, with
# the fold of reference.js, written from the rule of the man page.

load helper

GEN="$TOP/t/oracle/gen.js"
SEED=${ORACLE_SEED:-1}

# Shows where two files first differ, as JSON strings (controls visible).
show='const fs = require("fs");
const [, f, g] = process.argv, a = fs.readFileSync(f), b = fs.readFileSync(g);
let i = 0;
while (i < a.length && i < b.length && a[i] === b[i]) i++;
const line = a.subarray(0, i).toString().split("\n").length, s = Math.max(0, i - 100);
console.log(`${f.replace(/.*\//, "")}: first difference at byte ${i}, line ${line}`);
console.log("  reference:        " + JSON.stringify(a.subarray(s, i + 60).toString()));
console.log("  thread-serialize: " + JSON.stringify(b.subarray(s, i + 60).toString()));'

# Both sets of cases are made once for the whole file.
setup_file() {
	node "$GEN" -s "${ORACLE_SEED:-1}" -n 600 -m mixed \
	    "$BATS_FILE_TMPDIR/mixed" || return 1
	node "$GEN" -s "${ORACLE_SEED:-1}-lines" -n 200 \
	    -m lines "$BATS_FILE_TMPDIR/lines" || return 1
	node "$GEN" -s "${ORACLE_SEED:-1}-fold" -n 300 \
	    -m fold "$BATS_FILE_TMPDIR/fold" || return 1
}

# check_cases DIR SEED MODE COUNT: runs thread-serialize on each of the
# COUNT cases in DIR, as a user would (the file after --, or stdin; with
# --keep-summarized where the case has a .keep, and then again without it
# where it has a .folded), and fails unless every status is 0 and every
# stdout and stderr is what the reference expects; then it shows the
# first cases that differ.
check_cases() {
	local dir=$1 seed=$2 mode=$3 count=$4 got=$BATS_TEST_TMPDIR/got
	local f b p n=0 rc statuses='' differ
	local -a opt keep in

	mkdir "$got"
	cd "$dir"
	for f in case-*.json; do
		b=${f%.json}
		opt=()
		if [ -e "$b.args" ]; then
			IFS= read -r -d '' p <"$b.args" || true
			opt=(--response-prefix "$p")
		fi
		[ -e "$b.stdin" ] && in=(-) || in=(-- "$f")
		keep=()
		[ -e "$b.keep" ] && keep=(--keep-summarized)
		thread-serialize "${keep[@]}" "${opt[@]}" "${in[@]}" <"$f" \
		    >"$got/$b.expected" 2>"$got/$b.warn" && rc=0 || rc=$?
		[ "$rc" -eq 0 ] || statuses+="$b.json: exit status $rc"$'\n'
		if [ -e "$b.folded" ]; then
			thread-serialize "${opt[@]}" "${in[@]}" <"$f" \
			    >"$got/$b.folded" 2>"$got/$b.fwarn" && rc=0 || rc=$?
			[ "$rc" -eq 0 ] ||
			    statuses+="$b.json, folded: exit status $rc"$'\n'
			cmp -s "$got/$b.fwarn" "$got/$b.warn" ||
			    statuses+="$b.json, folded: other warnings"$'\n'
			rm "$got/$b.fwarn"
		fi
		n=$((n + 1))
	done
	[ "$n" -eq "$count" ] || fail "found $n cases in $dir, not $count"

	differ=$(diff -rq -x '*.json' -x '*.args' -x '*.stdin' -x '*.keep' -x stats \
	    "$dir" "$got" | sed -n 's|^Files .*/\(case-[0-9]*\.[a-z]*\) and .* differ$|\1|p')
	[ -z "$statuses" ] && [ -z "$differ" ] && return 0

	echo "seed $seed: make the cases again with"
	echo "  node t/oracle/gen.js -s '$seed' -n $count -m $mode DIR"
	printf '%s' "$statuses" | head -n 10
	echo "$differ" | head -n 5 | while read -r f; do
		[ -n "$f" ] || continue
		node -e "$show" "$dir/$f" "$got/$f"
	done
	fail "$(echo "$differ" | grep -c .) outputs and $(printf '%s' \
	    "$statuses" | grep -c .) statuses of $n cases differ from the reference"
}

@test "matches the JavaScript reference on 600 random threads" {
	check_cases "$BATS_FILE_TMPDIR/mixed" "$SEED" mixed 600
}

@test "matches the JavaScript reference on 200 random threads of JSON lines" {
	check_cases "$BATS_FILE_TMPDIR/lines" "$SEED-lines" lines 200
}

@test "matches the reference's fold on 300 random threads with summaries" {
	check_cases "$BATS_FILE_TMPDIR/fold" "$SEED-fold" fold 300
	# most of them fold, and move a summary up, in both input forms
	grep -q '^doc-array [1-9]' "$BATS_FILE_TMPDIR/fold/stats"
	grep -q '^doc-lines [1-9]' "$BATS_FILE_TMPDIR/fold/stats"
	[ "$(sed -n 's/^fold-moved //p' "$BATS_FILE_TMPDIR/fold/stats")" -gt 100 ]
	[ "$(ls "$BATS_FILE_TMPDIR/fold" | grep -c '\.folded$')" -gt 150 ]
}

@test "the fold of reference.js is the rule of the man page on small threads" {
	# its own oracle: the examples of t/thread-serialize.bats, by hand
	printf '%s\n' '{"type":"message","role":"user","content":"go","iteration":0}' \
	    '{"type":"message","role":"assistant","content":"one","iteration":1}' \
	    '{"type":"summary","summary":"S1","summarizedIterations":[1],"iteration":2}' \
	    '{"type":"message","role":"user","content":"mid","iteration":0}' \
	    '{"type":"summary","summary":"S2","summarizedIterations":[2],"iteration":3}' \
	    '{"type":"message","role":"assistant","content":"after","iteration":2}' >in.jsonl
	run -0 node "$TOP/t/oracle/reference.js" --fold in.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">go</event>
  <event type="summary" id="1" iteration="3" summarizedIterations="2">S2</event>
  <event type="human" id="2" iteration="0">mid</event>
  <event type="ai" id="3" iteration="2">after</event>
</thread>'
	run -0 thread-serialize in.jsonl
	assert_output "$(node "$TOP/t/oracle/reference.js" --fold in.jsonl)"
}

@test "the reference's documents, without the prefix, are well-formed XML" {
	# each document ends at its first line "</thread>": text cannot hold
	# one, since '<' is always escaped
	for set in mixed lines; do
		mkdir -p "xml/$set"
		awk -v dir="xml/$set" 'FNR == 1 { out = FILENAME;
		    sub(/.*\//, "", out); sub(/\.expected$/, ".xml", out);
		    out = dir "/" out; done = 0 }
		    !done { print > out }
		    /^<\/thread>$/ && !done { done = 1; close(out) }' \
		    "$BATS_FILE_TMPDIR/$set"/case-*.expected
	done
	[ "$(ls xml/mixed xml/lines | grep -c '\.xml$')" -eq 800 ]
	run xmllint --noout xml/*/*.xml
	assert_success
	assert_output ""
	run xmlwf xml/*/*.xml
	assert_success
	assert_output ""
}

@test "the random threads hold every event type and every textual form" {
	for set in mixed lines; do
		for what in cases event-message event-tool_call \
		    event-tool_result event-error event-human_input_requested \
		    event-human_input_received event-completion event-summary \
		    event-unknown role-user role-assistant role-system role-other \
		    call-without-id result-earlier-call result-later-call \
		    result-overridden result-unmatched result-array result-object \
		    bom prefix prefix-empty key-integer-like extra-field \
		    escape-b escape-f escape-n escape-r escape-t escape-slash \
		    escape-u escape-surrogate-pair raw-2-byte raw-3-byte \
		    raw-4-byte c0-control number-fixed number-small number-bigint \
		    number-decimal number-bits number-pow2; do
			grep -q "^$what [1-9]" "$BATS_FILE_TMPDIR/$set/stats" ||
			    fail "$set: no $what in the generated cases"
		done
	done
	grep -q '^doc-array [1-9]' "$BATS_FILE_TMPDIR/mixed/stats"
	grep -q '^doc-lines [1-9]' "$BATS_FILE_TMPDIR/mixed/stats"
	grep -q '^crlf [1-9]' "$BATS_FILE_TMPDIR/lines/stats"
	grep -q '^empty-thread-array [1-9]' "$BATS_FILE_TMPDIR/mixed/stats"
	grep -q '^empty-thread-no-array [1-9]' "$BATS_FILE_TMPDIR/mixed/stats"
	run grep '^doc-array' "$BATS_FILE_TMPDIR/lines/stats"
	assert_failure
	[ "$(cat "$BATS_FILE_TMPDIR"/*/case-*.warn | wc -l)" -gt 100 ]
}

@test "the same seed makes the same cases, another seed other ones" {
	node "$GEN" -s "$SEED" -n 40 -m mixed a
	node "$GEN" -s "$SEED" -n 40 -m mixed b
	node "$GEN" -s "$SEED-other" -n 40 -m mixed c
	diff -r a b
	run diff -rq a c
	assert_failure
	run diff -r -x stats -x 'case-0[4-9]*' -x 'case-[1-9]*' a \
	    "$BATS_FILE_TMPDIR/mixed"
	assert_success
}
