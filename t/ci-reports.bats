#!/usr/bin/env bats
# Reports for CI from the checkers' shared code: --errors=github (every
# tool, through the skeleton) writes GitHub Actions workflow commands,
# escaped as GitHub documents; -o junit (jsonresp-check, llmr-validate,
# toolcall-parse) writes one JUnit XML report a run, which every test
# here also checks against t/data/junit.xsd with xmllint.

load helper

XSD="$DATA/junit.xsd"

# junit_valid FILE: FILE is a JUnit report of the shape Jenkins and
# GitLab read, by xmllint and the schema.
junit_valid() {
	run xmllint --noout --schema "$XSD" "$1"
	assert_success
	assert_output "$1 validates"
}

# examples NAME...: copies of the examples named, here, so that the
# names in the reports are short.
examples() {
	local f
	for f in "$@"; do
		cp "$TOP/examples/$f" . || return 1
	done
}

# ------------------------------------------------------------ --errors=github

@test "--errors=github: an error and a warning each as a workflow command" {
	examples responses.jsonl
	run -5 --separate-stderr jsonresp-check --errors=github --lines responses.jsonl
	assert_output ""
	assert_equal "$stderr" '::error file=responses.jsonl,line=2,col=210,title=schema::/content/suggestions/0: expected object, found string "Tell me more"
::error file=responses.jsonl,line=2,col=225,title=schema::/content/suggestions/1: missing required property "text"
::error file=responses.jsonl,line=2,col=234,title=schema::/content/suggestions/1/label: unexpected property "label"
::warning file=responses.jsonl,line=3,col=61,title=danger-level::danger_level is "emergency": show crisis resources, block the conversation (status 5)'
}

@test "--errors=github: % and a newline escaped in the message, , and : in the file name" {
	echo '{"additionalProperties": false, "properties": {"n": {"type": "integer"}}}' >s.json
	printf '{"50%%\\nof": 1, "n": "x"}\n' >'a,b:c.json'
	run -1 --separate-stderr jsonresp-check --schema s.json --errors=github 'a,b:c.json'
	assert_output ""
	assert_equal "$stderr" '::error file=a%2Cb%3Ac.json,line=1,col=13,title=schema::/50%25%0Aof: unexpected property "50%25\nof"
::error file=a%2Cb%3Ac.json,line=1,col=21,title=schema::/n: expected integer, found string "x"'
	# the line form, for comparison: the pointer's newline shown as \n
	run -1 --separate-stderr jsonresp-check --schema s.json 'a,b:c.json'
	assert_equal "$stderr" 'a,b:c.json:1:13: error: /50%\nof: unexpected property "50%\nof"
a,b:c.json:1:21: error: /n: expected integer, found string "x"'
}

@test "--errors=github: a file name with %, CR and a newline, and a control character" {
	name=$(printf 'x%%y\r\nz\033.json')
	echo '[' >"$name"
	run -1 --separate-stderr jsonresp-check --errors=github "$name"
	assert_equal "$stderr" '::error file=x%25y%0D%0Az\u001b.json,line=1,col=2,title=truncated::truncated: the JSON document ends before it is complete'
}

@test "--errors=github: llmr-validate's warnings are ::warning, its errors ::error" {
	examples bad-reply.xml reply.xml
	run -1 --separate-stderr llmr-validate -W --errors=github reply.xml bad-reply.xml
	assert_output ""
	assert_equal "$stderr" '::warning file=bad-reply.xml,line=2,col=3,title=response-length::/llmResponse/response: text is 59 characters, 100-2000 recommended
::warning file=bad-reply.xml,line=4,col=5,title=keyword-range::/llmResponse/analysis/subject[1]: 2 <keyword> elements, 3-7 recommended
::warning file=bad-reply.xml,line=4,col=37,title=description-length::/llmResponse/analysis/subject[1]: description is 38 characters, 50-200 recommended
::error file=bad-reply.xml,line=4,col=90,title=is-new::/llmResponse/analysis/subject[1]: isNew "yes" is not "true" or "false"
::error file=bad-reply.xml,line=5,col=32,title=confidence::/llmResponse/analysis/subject[1]/keyword[1]: confidence "1.4" is outside 0.0-1.0
::warning file=bad-reply.xml,line=6,col=16,title=term-form::/llmResponse/analysis/subject[1]/keyword[2]: term "Deposits" is not lowercase and hyphenated
::warning file=bad-reply.xml,line=6,col=32,title=confidence-low::/llmResponse/analysis/subject[1]/keyword[2]: confidence "0.5" is below 0.6'
}

@test "--errors=github: toolcall-parse's malformed calls, its calls still on standard output" {
	examples bad-calls.txt
	run -1 --separate-stderr toolcall-parse --errors=github bad-calls.txt
	assert_output "$(toolcall-parse bad-calls.txt 2>/dev/null)"
	assert_equal "$stderr" '::error file=bad-calls.txt,line=17,col=23,title=xml::malformed tool call: mismatched tag
::error file=bad-calls.txt,line=23,col=1,title=truncated::truncated tool call: input ended before </tool>'
}

@test "--errors=github: the other tools through the skeleton, standard input as <stdin>" {
	examples broken.jsonl
	run -1 --separate-stderr thread-serialize --errors=github broken.jsonl
	assert_output ""
	assert_equal "$stderr" '::error file=broken.jsonl,line=2,col=1,title=missing-field::event 1: missing "args" (an object)
::error file=broken.jsonl,line=3,col=105,title=field-type::event 2: "iteration" must be a number, found a string'
	run -1 --separate-stderr llmq-encode --from-json --errors=github <<<'{"userMessage":"","context":{"topicId":"t"}}'
	assert_output ""
	assert_equal "$stderr" '::error file=<stdin>,line=1,col=16,title=empty-message::"userMessage" is empty'
}

@test "--errors=github: -q silences it; what is not about the input keeps its form" {
	examples responses.jsonl
	run -5 --separate-stderr jsonresp-check -q --errors=github --lines responses.jsonl
	assert_equal "$stderr" ""
	run -3 --separate-stderr jsonresp-check --errors=github missing.json
	assert_equal "$stderr" "jsonresp-check: missing.json: No such file or directory"
}

@test "--errors=github, json or text: the last one given counts" {
	echo '[' >a.json
	run -1 --separate-stderr jsonresp-check --errors=github --errors=text a.json
	assert_equal "$stderr" "a.json:1:2: error: truncated: the JSON document ends before it is complete"
	run -1 --separate-stderr jsonresp-check --errors=json --errors=github a.json
	assert_equal "$stderr" "::error file=a.json,line=1,col=2,title=truncated::truncated: the JSON document ends before it is complete"
}

# ------------------------------------------------------------ -o junit

@test "-o junit: valid documents only, a testcase each and no failure" {
	examples response.json
	cp response.json again.json
	run -0 --separate-stderr jsonresp-check -o junit response.json again.json
	assert_equal "$stderr" ""
	assert_output '<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jsonresp-check" tests="2" failures="0" errors="0">
  <testsuite name="jsonresp-check" tests="2" failures="0" errors="0" skipped="0">
    <testcase name="response.json" classname="jsonresp-check"/>
    <testcase name="again.json" classname="jsonresp-check"/>
  </testsuite>
</testsuites>'
	echo "$output" >report.xml
	junit_valid report.xml
}

@test "-o junit: an invalid document holds a failure with its errors; the diagnostics still on standard error" {
	echo '{"required": ["name"], "properties": {"n": {"type": "integer"}}}' >s.json
	echo '{"n": "1 < 2 & \"so\" '\''on'\''"}' >bad.json
	run -1 --separate-stderr jsonresp-check --schema s.json -o junit bad.json
	assert_output '<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jsonresp-check" tests="1" failures="1" errors="0">
  <testsuite name="jsonresp-check" tests="1" failures="1" errors="0" skipped="0">
    <testcase name="bad.json" classname="jsonresp-check">
      <failure message="missing required property &quot;name&quot;" type="schema">bad.json:1:1: error: missing required property "name"
bad.json:1:7: error: /n: expected integer, found string "1 &lt; 2 &amp; \"so\" '\''on'\''"
</failure>
    </testcase>
  </testsuite>
</testsuites>'
	assert_equal "$stderr" 'bad.json:1:1: error: missing required property "name"
bad.json:1:7: error: /n: expected integer, found string "1 < 2 & \"so\" '\''on'\''"'
	echo "$output" >report.xml
	junit_valid report.xml
	# the failure's text is the errors as the line form writes them
	run xmllint --xpath 'string(//failure)' report.xml
	assert_output "$(jsonresp-check --schema s.json bad.json 2>&1)"
}

@test "-o junit --lines: a testcase a line, named FILE:LINE; a warning in system-err" {
	examples responses.jsonl
	run -5 --separate-stderr jsonresp-check -q -o junit --lines responses.jsonl
	assert_equal "$stderr" ""
	assert_output '<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jsonresp-check" tests="3" failures="1" errors="0">
  <testsuite name="jsonresp-check" tests="3" failures="1" errors="0" skipped="0">
    <testcase name="responses.jsonl:1" classname="jsonresp-check"/>
    <testcase name="responses.jsonl:2" classname="jsonresp-check">
      <failure message="/content/suggestions/0: expected object, found string &quot;Tell me more&quot;" type="schema">responses.jsonl:2:210: error: /content/suggestions/0: expected object, found string "Tell me more"
responses.jsonl:2:225: error: /content/suggestions/1: missing required property "text"
responses.jsonl:2:234: error: /content/suggestions/1/label: unexpected property "label"
</failure>
    </testcase>
    <testcase name="responses.jsonl:3" classname="jsonresp-check">
      <system-err>responses.jsonl:3:61: warning: danger_level is "emergency": show crisis resources, block the conversation (status 5)
</system-err>
    </testcase>
  </testsuite>
</testsuites>'
	echo "$output" >report.xml
	junit_valid report.xml
}

@test "-o junit: valid and invalid files and lines of several operands in one testsuite" {
	examples responses.jsonl
	printf '\n{"type": "response"}\n\n' >more.jsonl
	run -5 --separate-stderr jsonresp-check -q -o junit --lines responses.jsonl more.jsonl
	echo "$output" >report.xml
	junit_valid report.xml
	run xmllint --xpath 'concat(//testsuite/@tests, " ", //testsuite/@failures, " ", count(//testcase), " ", count(//failure))' report.xml
	assert_output "4 2 4 2"
	run xmllint --xpath '//testcase[failure]/@name' report.xml
	assert_output ' name="responses.jsonl:2"
 name="more.jsonl:2"'
}

@test "-o junit: llmr-validate, its warnings with -W in system-err" {
	examples bad-reply.xml reply.xml
	run -1 --separate-stderr llmr-validate -q -W -o junit reply.xml bad-reply.xml
	assert_output '<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="llmr-validate" tests="2" failures="1" errors="0">
  <testsuite name="llmr-validate" tests="2" failures="1" errors="0" skipped="0">
    <testcase name="reply.xml" classname="llmr-validate"/>
    <testcase name="bad-reply.xml" classname="llmr-validate">
      <failure message="/llmResponse/analysis/subject[1]: isNew &quot;yes&quot; is not &quot;true&quot; or &quot;false&quot;" type="is-new">bad-reply.xml:4:90: error: /llmResponse/analysis/subject[1]: isNew "yes" is not "true" or "false"
bad-reply.xml:5:32: error: /llmResponse/analysis/subject[1]/keyword[1]: confidence "1.4" is outside 0.0-1.0
</failure>
      <system-err>bad-reply.xml:2:3: warning: /llmResponse/response: text is 59 characters, 100-2000 recommended
bad-reply.xml:4:5: warning: /llmResponse/analysis/subject[1]: 2 &lt;keyword&gt; elements, 3-7 recommended
bad-reply.xml:4:37: warning: /llmResponse/analysis/subject[1]: description is 38 characters, 50-200 recommended
bad-reply.xml:6:16: warning: /llmResponse/analysis/subject[1]/keyword[2]: term "Deposits" is not lowercase and hyphenated
bad-reply.xml:6:32: warning: /llmResponse/analysis/subject[1]/keyword[2]: confidence "0.5" is below 0.6
</system-err>
    </testcase>
  </testsuite>
</testsuites>'
	echo "$output" >report.xml
	junit_valid report.xml
}

@test "-o junit --lines: llmr-validate, a line that is no JSON string a failure" {
	examples replies.jsonl
	echo '{"not": "a string"}' >>replies.jsonl
	run -1 --separate-stderr llmr-validate -q -o junit --lines replies.jsonl
	echo "$output" >report.xml
	junit_valid report.xml
	run xmllint --xpath 'concat(//testsuite/@tests, " ", //testsuite/@failures)' report.xml
	assert_output "$(($(wc -l <replies.jsonl))) 2"
	run xmllint --xpath 'string(//testcase[last()]/failure/@type)' report.xml
	assert_output "line-type"
}

@test "-o junit --lines: toolcall-parse, the calls left out" {
	examples outputs.jsonl
	run -1 --separate-stderr toolcall-parse -q -o junit --lines outputs.jsonl
	assert_output '<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="toolcall-parse" tests="3" failures="1" errors="0">
  <testsuite name="toolcall-parse" tests="3" failures="1" errors="0" skipped="0">
    <testcase name="outputs.jsonl:1" classname="toolcall-parse"/>
    <testcase name="outputs.jsonl:2" classname="toolcall-parse">
      <failure message="malformed tool call: mismatched tag" type="xml">outputs.jsonl:2:308: error: malformed tool call: mismatched tag
outputs.jsonl:2:372: error: truncated tool call: input ended before &lt;/tool&gt;
</failure>
    </testcase>
    <testcase name="outputs.jsonl:3" classname="toolcall-parse"/>
  </testsuite>
</testsuites>'
	echo "$output" >report.xml
	junit_valid report.xml
}

@test "-o junit: toolcall-parse on whole files, a testcase each" {
	examples bad-calls.txt model-output.txt
	run -1 --separate-stderr toolcall-parse -o junit model-output.txt bad-calls.txt
	assert_equal "$stderr" "$(toolcall-parse bad-calls.txt 2>&1 >/dev/null)"
	echo "$output" >report.xml
	junit_valid report.xml
	run xmllint --xpath 'concat(count(//testcase), " ", //testcase[1]/@name, " ", //testcase[failure]/@name, " ", count(//failure))' report.xml
	assert_output "2 model-output.txt bad-calls.txt 1"
}

@test "-o junit: no document at all is an empty testsuite" {
	run -0 --separate-stderr jsonresp-check -o junit --lines </dev/null
	assert_output '<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jsonresp-check" tests="0" failures="0" errors="0">
  <testsuite name="jsonresp-check" tests="0" failures="0" errors="0" skipped="0">
  </testsuite>
</testsuites>'
	echo "$output" >report.xml
	junit_valid report.xml
}

@test "-o junit: file names with XML's special characters, controls and bytes that are not UTF-8" {
	echo '{}' >"q&<>\"'$(printf '\033')x.json"
	printf '[' >"$(printf 'bad\377').json"
	echo '{}' >s.json
	run -1 --separate-stderr jsonresp-check -q -o junit --schema s.json q* bad*.json
	assert_output '<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jsonresp-check" tests="2" failures="1" errors="0">
  <testsuite name="jsonresp-check" tests="2" failures="1" errors="0" skipped="0">
    <testcase name="q&amp;&lt;&gt;&quot;&apos;\u001bx.json" classname="jsonresp-check"/>
    <testcase name="bad�.json" classname="jsonresp-check">
      <failure message="truncated: the JSON document ends before it is complete" type="truncated">bad�.json:1:2: error: truncated: the JSON document ends before it is complete
</failure>
    </testcase>
  </testsuite>
</testsuites>'
	echo "$output" >report.xml
	junit_valid report.xml
}

@test "-o junit: a file that cannot be read has no testcase; status 3" {
	examples response.json
	run -3 --separate-stderr jsonresp-check -o junit response.json missing.json
	assert_equal "$stderr" "jsonresp-check: missing.json: No such file or directory"
	assert_output '<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jsonresp-check" tests="1" failures="0" errors="0">
  <testsuite name="jsonresp-check" tests="1" failures="0" errors="0" skipped="0">
    <testcase name="response.json" classname="jsonresp-check"/>
  </testsuite>
</testsuites>'
}

@test "-o junit: no temporary file can be made: status 3, nothing written" {
	examples response.json
	for t in jsonresp-check llmr-validate toolcall-parse; do
		run -3 --separate-stderr env TMPDIR="$PWD/none" $t -o junit response.json
		assert_output ""
		assert_equal "$stderr" "$t: -o junit: cannot make a temporary file in $PWD/none: No such file or directory"
	done
}

@test "-o junit: the temporary file past ulimit -f: status 3, no report" {
	examples responses.jsonl
	for i in $(seq 600); do sed -n 2p responses.jsonl; done >big.jsonl
	run -3 --separate-stderr bash -c 'ulimit -f 16; exec jsonresp-check -q -o junit --lines big.jsonl'
	assert_output ""
	assert_equal "$stderr" "jsonresp-check: -o junit: temporary file: File too large"
}

@test "-o junit: a failed standard output is status 3" {
	examples response.json
	run -3 --separate-stderr bash -c 'jsonresp-check -o junit response.json >/dev/full' 
	assert_equal "$stderr" "jsonresp-check: <stdout>: No space left on device"
}

@test "-o junit cannot go with --summary: the report holds the counts" {
	for t in jsonresp-check llmr-validate toolcall-parse; do
		run -2 --separate-stderr $t -o junit --summary
		assert_output ""
		assert_equal "${stderr%%$'\n'*}" "$t: --summary cannot go with -o junit: the report holds the counts"
		# the usage, as -h begins
		assert_equal "${stderr#*$'\n'}" "$($t -h | sed '/^$/,$d')"
	done
}

@test "-o junit cannot go with toolcall-parse's --events or --thread" {
	run -2 --separate-stderr toolcall-parse -o junit --events
	assert_equal "${stderr%%$'\n'*}" "toolcall-parse: -o junit cannot go with --events: the report is all it writes"
	run -2 --separate-stderr toolcall-parse -o junit --thread
	assert_equal "${stderr%%$'\n'*}" "toolcall-parse: -o junit cannot go with --thread: the report is all it writes"
}

@test "-o junit --lines: memory does not grow with the report" {
	# 200,000 invalid lines, a report of about 100 MB
	long=$(printf '%0150d' 0)
	yes "{\"type\": \"$long\"}" | head -n 200000 >many.jsonl
	# AddressSanitizer keeps 256 MB of freed blocks in its quarantine
	# (460 MB at the peak, 15 MB with a quarantine of 1 MB): not ours
	read -r st kib < <(peak env \
	    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1" \
	    jsonresp-check -q -o junit --lines many.jsonl)
	[ "$st" = 1 ]
	[ "$(grep -c '^    <testcase name="many.jsonl:[0-9]*" classname="jsonresp-check">$' out)" = 200000 ]
	[ "$(head -n 2 out | tail -n 1)" = '<testsuites name="jsonresp-check" tests="200000" failures="200000" errors="0">' ]
	[ "$(tail -n 1 out)" = '</testsuites>' ]
	(( kib < $(held 60000) )) || fail "peak memory $kib KiB for a report of $(wc -c <out) bytes"
}
