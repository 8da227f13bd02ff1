#!/usr/bin/env bats
# The two ends of seed 000's contract together: a query that llmq-encode
# writes reads back, field for field and byte for byte, through
# llmr-validate -o json; node writes the cases and the expected JSON.

load helper

# roundtrip DIR: every case of DIR through both tools; the differences.
roundtrip() {
	local dir=$1 n=0 bad=0 args
	for a in "$dir"/*.args; do
		n=$((n + 1))
		mapfile -d '' args <"$a"
		if ! llmq-encode "${args[@]}" >"${a%.args}.xml" 2>"${a%.args}.err"; then
			echo "llmq-encode failed on ${a##*/}: $(cat "${a%.args}.err")"
			bad=$((bad + 1))
			continue
		fi
		llmr-validate -o json "${a%.args}.xml" >"${a%.args}.got" 2>&1
		if ! cmp -s "${a%.args}.got" "${a%.args}.json"; then
			echo "${a##*/}: want $(cat "${a%.args}.json")"
			echo "${a##*/}: got  $(cat "${a%.args}.got")"
			bad=$((bad + 1))
		fi
	done
	echo "$n cases, $bad differ"
	[ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
}

@test "a query full of special characters reads back exactly as it went in" {
	llmq-encode -t 'a"b'"'"'c&d' -n 7 -s 'x<y' -s 'é & ü' -k ']]>' -- \
	    $'line one\n  <&>"\'\ttabbed\r\nend ' >q.xml
	run -0 llmr-validate -o json q.xml
	assert_output '{"userMessage":"line one\n  <&>\"'"'"'\ttabbed\r\nend ","topicId":"a\"b'"'"'c&d","messageCount":7,"activeSubjects":["x<y","é & ü"],"recentKeywords":["]]>"]}'
}

@test "the query text of llmr-validate -o text is the message llmq-encode was given" {
	printf 'two\nlines\twith <tags> & "quotes"\n\n' >msg
	llmq-encode -t t <msg >q.xml
	run -0 llmr-validate -o text q.xml
	# llmq-encode drops one final newline of stdin; -o text adds one
	[ "$output" = "$(printf 'two\nlines\twith <tags> & "quotes"\n')" ]
}

@test "300 random queries read back exactly through llmr-validate -o json" {
	node "$TOP/t/oracle/gen-queries.js" 11 300 cases
	run roundtrip cases
	assert_success
	assert_output "300 cases, 0 differ"
}

@test "a batch from --from-json reads back line by line" {
	node "$TOP/t/oracle/gen-queries.js" 12 100 cases
	llmq-encode --from-json cases/batch.jsonl >batch.xml
	[ "$(wc -l <batch.xml)" -eq 100 ]
	split -l 1 -a 3 batch.xml q.
	run -0 llmr-validate -o json q.*
	[ "$output" = "$(cat $(ls cases/*.json | sort -t/ -k2 -n))" ]
}

@test "what llmq-encode writes is well-formed for xmllint and xmlwf" {
	node "$TOP/t/oracle/gen-queries.js" 13 50 cases
	for a in cases/*.args; do
		mapfile -d '' args <"$a"
		llmq-encode "${args[@]}" >"${a%.args}.xml"
	done
	run xmlwf cases/*.xml
	assert_output ""
	run -0 xmllint --noout cases/*.xml
}
