#!/usr/bin/env bats
# llmr-validate as a user drives it: every option, the seed's examples,
# every MUST rule (error text, line, column, status) and every SHOULD rule
# (warning with -W, silent without, error with --strict), the decoded
# output of -o json and -o text, --find in prose and in a fence, --feedback,
# --print-prompt, JSON diagnostics, several files, malformed XML, invalid
# UTF-8, DTDs, and the statuses of unreadable input and failed writes.

load helper

bats_require_minimum_version 1.5.0

D="$DATA/llmr-validate"
USAGE='usage: llmr-validate [-hqW] [--errors=github|json|text] [--feedback]
                     [--find] [--lines] [-o none|json|junit|report|text]
                     [--strict] [--summary] [-t query|response] [FILE ...]
       llmr-validate --print-prompt'
HINT=' (use --find to read a document inside other text)'
SEED_JSON='{"response":"For college savings, financial advisors often recommend 529 plans. They offer tax advantages and can be used for qualified education expenses. The amount to save depends on factors like current age of children, expected college costs, and your timeframe.","subjects":[{"name":"college-savings","description":"Discussion of saving strategies for children'"'"'s higher education","isNew":true,"keywords":[{"term":"529-plan","confidence":0.95},{"term":"tax-advantages","confidence":0.85},{"term":"education-expenses","confidence":0.9},{"term":"financial-planning","confidence":0.75}]}],"summaryUpdate":"User asked about college savings amounts. Assistant explained 529 plans and mentioned that savings targets depend on children'"'"'s ages and expected costs."}'
QUERY_JSON='{"userMessage":"How much should we save for college?","topicId":"family-planning-2025","messageCount":12,"activeSubjects":["family planning","education costs"],"recentKeywords":["children","university","tuition","savings"]}'

# seed SED-SCRIPT: r.xml, the seed's response edited by sed.
seed() {
	sed "$1" "$D/seed-response.xml" >r.xml
}

# seedq SED-SCRIPT: q.xml, the seed's query edited by sed.
seedq() {
	sed "$1" "$D/seed-query.xml" >q.xml
}

# should FILE WANT: a SHOULD rule broken in FILE: WANT (the diagnostic
# after "FILE:") is a warning with -W, nothing without, an error with
# --strict.
should() {
	run -0 --separate-stderr llmr-validate "$1"
	assert_output ""
	assert_equal "$stderr" ""
	run -0 --separate-stderr llmr-validate -W "$1"
	assert_output ""
	assert_equal "$stderr" "$1:${2/ERR: /warning: }"
	run -1 --separate-stderr llmr-validate --strict "$1"
	assert_output ""
	assert_equal "$stderr" "$1:${2/ERR: /error: }"
}

# ---------------------------------------------------------------- options

@test "-h prints the usage, what each option does and the exit statuses on stdout and exits 0" {
	run -0 --separate-stderr llmr-validate -h
	assert_output "$USAGE

$(help_of llmr-validate)

exit status: 0 valid, 1 invalid, 2 usage, 3 trouble"
	assert_equal "$stderr" ""
}

@test "--help is the same as -h" {
	run -0 --separate-stderr llmr-validate --help
	assert_output "$USAGE

$(help_of llmr-validate)

exit status: 0 valid, 1 invalid, 2 usage, 3 trouble"
	assert_equal "$stderr" ""
}

@test "--version prints the tool, llmkit and the version" {
	run -0 --separate-stderr llmr-validate --version
	assert_output "llmr-validate (llmkit) 0.1.0"
	assert_equal "$stderr" ""
}

@test "an unknown short option is a usage error" {
	run -2 --separate-stderr llmr-validate -x "$D/seed-response.xml"
	assert_output ""
	assert_equal "$stderr" "llmr-validate: invalid option -- 'x'
$USAGE"
}

@test "an unknown long option is a usage error" {
	run -2 --separate-stderr llmr-validate --pretty "$D/seed-response.xml"
	assert_output ""
	assert_equal "$stderr" "llmr-validate: unrecognized option '--pretty'
$USAGE"
}

@test "-t with a value other than query or response is a usage error" {
	run -2 --separate-stderr llmr-validate -t reply "$D/seed-response.xml"
	assert_output ""
	assert_equal "$stderr" "llmr-validate: -t must be query or response, not \"reply\"
$USAGE"
}

@test "-t without a value is a usage error" {
	run -2 --separate-stderr llmr-validate -t
	assert_output ""
	assert_equal "$stderr" "llmr-validate: option requires an argument -- 't'
$USAGE"
}

@test "-o with a value other than none, json, report or text is a usage error" {
	run -2 --separate-stderr llmr-validate -o xml "$D/seed-response.xml"
	assert_output ""
	assert_equal "$stderr" "llmr-validate: -o must be none, json, junit, report or text, not \"xml\"
$USAGE"
}

@test "--errors with a value other than json or text is a usage error" {
	run -2 --separate-stderr llmr-validate --errors=xml "$D/seed-response.xml"
	assert_output ""
	assert_equal "$stderr" "llmr-validate: --errors must be github, json or text, not \"xml\"
$USAGE"
}

@test "--print-prompt with an operand is a usage error" {
	run -2 --separate-stderr llmr-validate --print-prompt "$D/seed-response.xml"
	assert_output ""
	assert_equal "$stderr" "llmr-validate: --print-prompt reads no input
$USAGE"
}

@test "the long options --type, --output, --quiet and --warnings work" {
	seed 's/college-savings/College/'
	run -0 --separate-stderr llmr-validate --type=response --output=json \
	    --warnings r.xml
	assert_output "${SEED_JSON/college-savings/College}"
	assert_equal "$stderr" 'r.xml:4:14: warning: /llmResponse/analysis/subject[1]: name "College" is not lowercase and hyphenated'
	run -0 --separate-stderr llmr-validate --quiet --warnings r.xml
	assert_equal "$stderr" ""
}

# --------------------------------------------------------- seed examples

@test "the seed's example query is valid, without a warning" {
	run -0 --separate-stderr llmr-validate -W --strict "$D/seed-query.xml"
	assert_output ""
	assert_equal "$stderr" ""
}

@test "the seed's example response is valid, without a warning" {
	run -0 --separate-stderr llmr-validate -W --strict "$D/seed-response.xml"
	assert_output ""
	assert_equal "$stderr" ""
}

@test "standard input is read without operands and for -" {
	run -0 --separate-stderr llmr-validate -o json <"$D/seed-response.xml"
	assert_output "$SEED_JSON"
	run -0 --separate-stderr llmr-validate -o json - <"$D/seed-query.xml"
	assert_output "$QUERY_JSON"
	printf '<llmQuery/>' >q.xml
	run -1 --separate-stderr llmr-validate - <q.xml
	assert_equal "$stderr" "<stdin>:1:1: error: /llmQuery: missing <userMessage>
<stdin>:1:1: error: /llmQuery: missing <context>"
}

@test "the seed's schema template breaks two MUST rules, reported in order" {
	run -1 --separate-stderr llmr-validate "$D/seed-schema.xml"
	assert_output ""
	assert_equal "$stderr" "$D/seed-schema.xml:4:70: error: /llmResponse/analysis/subject[1]: isNew \"true|false\" is not \"true\" or \"false\"
$D/seed-schema.xml:5:38: error: /llmResponse/analysis/subject[1]/keyword[1]: confidence \"0.0-1.0\" is not a number"
}

# ------------------------------------------------------ MUST: structure

@test "rejects a root element that is neither <llmResponse> nor <llmQuery>" {
	printf '<reply>\n  <response>x</response>\n</reply>\n' >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_output ""
	assert_equal "$stderr" "r.xml:1:1: error: /reply: root element must be <llmResponse> or <llmQuery>"
}

@test "-t response rejects a query and -t query a response" {
	run -1 --separate-stderr llmr-validate -t response "$D/seed-query.xml"
	assert_equal "$stderr" "$D/seed-query.xml:1:1: error: /llmQuery: root element must be <llmResponse>"
	run -1 --separate-stderr llmr-validate -t query "$D/seed-response.xml"
	assert_equal "$stderr" "$D/seed-response.xml:1:1: error: /llmResponse: root element must be <llmQuery>"
	run -0 --separate-stderr llmr-validate -t query "$D/seed-query.xml"
	assert_equal "$stderr" ""
	run -0 --separate-stderr llmr-validate -t response "$D/seed-response.xml"
	assert_equal "$stderr" ""
}

@test "rejects a response without <response> and <analysis>" {
	printf '<llmResponse>\n</llmResponse>\n' >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_output ""
	assert_equal "$stderr" "r.xml:1:1: error: /llmResponse: missing <response>
r.xml:1:1: error: /llmResponse: missing <analysis>"
}

@test "rejects an <analysis> without <summaryUpdate>" {
	seed '10d'
	run -1 --separate-stderr llmr-validate r.xml
	assert_output ""
	assert_equal "$stderr" "r.xml:3:3: error: /llmResponse/analysis: missing <summaryUpdate>"
}

@test "rejects a query without <userMessage> and one without <context>" {
	seedq '2d'
	run -1 --separate-stderr llmr-validate q.xml
	assert_equal "$stderr" "q.xml:1:1: error: /llmQuery: missing <userMessage>"
	seedq '3,6d'
	run -1 --separate-stderr llmr-validate q.xml
	assert_equal "$stderr" "q.xml:1:1: error: /llmQuery: missing <context>"
}

@test "rejects a second <response>, naming both by their index" {
	seed '2p'
	run -1 --separate-stderr llmr-validate r.xml
	assert_output ""
	assert_equal "$stderr" "r.xml:3:3: error: /llmResponse/response[2]: 2 <response> elements, exactly one allowed"
}

@test "rejects a second <analysis> and a second <summaryUpdate>" {
	seed '10p'
	printf '<llmResponse><response>x</response><analysis><summaryUpdate/></analysis>\n<analysis><summaryUpdate/></analysis></llmResponse>\n' >s.xml
	run -1 --separate-stderr llmr-validate r.xml s.xml
	assert_equal "$stderr" "r.xml:11:5: error: /llmResponse/analysis/summaryUpdate[2]: 2 <summaryUpdate> elements, exactly one allowed
s.xml:2:1: error: /llmResponse/analysis[2]: 2 <analysis> elements, exactly one allowed"
}

@test "rejects a second <activeSubjects> or <recentKeywords>" {
	seedq '4p;5p;5p'
	run -1 --separate-stderr llmr-validate q.xml
	assert_equal "$stderr" "q.xml:5:5: error: /llmQuery/context/activeSubjects[2]: 2 <activeSubjects> elements, at most one allowed
q.xml:7:5: error: /llmQuery/context/recentKeywords[2]: 3 <recentKeywords> elements, at most one allowed"
}

@test "a query's <activeSubjects> and <recentKeywords> may be absent or empty" {
	seedq '4,5d'
	run -0 --separate-stderr llmr-validate -W --strict -o json q.xml
	assert_output '{"userMessage":"How much should we save for college?","topicId":"family-planning-2025","messageCount":12,"activeSubjects":[],"recentKeywords":[]}'
	seedq 's/family planning, education costs//;s/<recentKeywords>.*</<recentKeywords> \t </'
	run -0 --separate-stderr llmr-validate -W --strict -o json q.xml
	assert_output '{"userMessage":"How much should we save for college?","topicId":"family-planning-2025","messageCount":12,"activeSubjects":[],"recentKeywords":[]}'
}

@test "an <analysis> may be empty but for <summaryUpdate>, which may be empty" {
	printf '<llmResponse><response>Hello.</response><analysis><summaryUpdate/></analysis></llmResponse>' >r.xml
	run -0 --separate-stderr llmr-validate -o json r.xml
	assert_output '{"response":"Hello.","subjects":[],"summaryUpdate":""}'
	assert_equal "$stderr" ""
}

# ---------------------------------------------------------- MUST: text

@test "rejects an empty <response>" {
	seed 's|<response>.*</response>|<response></response>|'
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:2:3: error: /llmResponse/response: text is empty"
	seed 's|<response>.*</response>|<response/>|'
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:2:3: error: /llmResponse/response: text is empty"
}

@test "rejects a <response> of white space only" {
	seed 's|<response>.*</response>|<response> \&#9;\&#10; <![CDATA[ ]]></response>|'
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:2:3: error: /llmResponse/response: text is only white space"
}

@test "rejects an empty or blank <userMessage>" {
	seedq 's|<userMessage>.*</userMessage>|<userMessage/>|'
	run -1 --separate-stderr llmr-validate q.xml
	assert_equal "$stderr" "q.xml:2:3: error: /llmQuery/userMessage: text is empty"
	seedq 's|<userMessage>.*</userMessage>|<userMessage>\n\n</userMessage>|'
	run -1 --separate-stderr llmr-validate q.xml
	assert_equal "$stderr" "q.xml:2:3: error: /llmQuery/userMessage: text is only white space"
}

@test "a non-breaking space is text, not white space" {
	seedq 's|<userMessage>.*</userMessage>|<userMessage>\&#160;</userMessage>|'
	run -0 --separate-stderr llmr-validate -o json q.xml
	assert_output --partial "{\"userMessage\":\"$(printf '\302\240')\","
}

@test "rejects a <userMessage> over 10000 characters; 10000 are fine" {
	{ printf '<llmQuery><userMessage>'
	  head -c 10000 /dev/zero | tr '\0' x
	  printf '</userMessage><context topicId="t" messageCount="0"/></llmQuery>'
	} >q.xml
	run -0 --separate-stderr llmr-validate q.xml
	assert_equal "$stderr" ""
	sed 's/<userMessage>/&y/' q.xml >q2.xml
	run -1 --separate-stderr llmr-validate q2.xml
	assert_equal "$stderr" "q2.xml:1:11: error: /llmQuery/userMessage: text is 10001 characters, at most 10000 allowed"
}

@test "counts the characters of <userMessage>, not its bytes" {
	{ printf '<llmQuery><userMessage>'
	  for i in $(seq 1000); do printf 'é中😀&amp;&#233;ab<![CDATA[c]]>de'; done
	  printf '</userMessage><context topicId="t" messageCount="0"/></llmQuery>'
	} >q.xml
	run -0 --separate-stderr llmr-validate q.xml
	assert_equal "$stderr" ""
	sed 's/<userMessage>/&é/' q.xml >q2.xml
	run -1 --separate-stderr llmr-validate q2.xml
	assert_equal "$stderr" "q2.xml:1:11: error: /llmQuery/userMessage: text is 10001 characters, at most 10000 allowed"
}

@test "rejects more than 20 active subjects and more than 50 recent keywords" {
	s20=$(seq -s ', ' 1 20)
	k50=$(seq -s ',' 1 50)
	seedq "s|<activeSubjects>.*<|<activeSubjects>$s20<|;s|<recentKeywords>.*<|<recentKeywords>$k50<|"
	run -0 --separate-stderr llmr-validate q.xml
	assert_equal "$stderr" ""
	seedq "s|<activeSubjects>.*<|<activeSubjects>$s20, 21<|;s|<recentKeywords>.*<|<recentKeywords>$k50,51,52<|"
	run -1 --separate-stderr llmr-validate q.xml
	assert_equal "$stderr" "q.xml:4:5: error: /llmQuery/context/activeSubjects: 21 items, at most 20 allowed
q.xml:5:5: error: /llmQuery/context/recentKeywords: 52 items, at most 50 allowed"
}

# ---------------------------------------------------- MUST: attributes

@test "rejects a <context> without topicId and messageCount" {
	seedq 's|<context .*>|<context>|'
	run -1 --separate-stderr llmr-validate q.xml
	assert_equal "$stderr" "q.xml:3:3: error: /llmQuery/context: missing attribute \"topicId\"
q.xml:3:3: error: /llmQuery/context: missing attribute \"messageCount\""
}

@test "rejects a messageCount that is not a non-negative integer" {
	for bad in -1 +3 1.0 '' ' 12' 12a 0x10 '١٢'; do
		seedq "s|messageCount=\"12\"|messageCount=\"$bad\"|"
		run -1 --separate-stderr llmr-validate q.xml
		assert_equal "$stderr" "q.xml:3:43: error: /llmQuery/context: messageCount \"$bad\" is not a non-negative integer"
	done
}

@test "rejects a messageCount over 2^53 - 1; accepts 0, 007 and 2^53 - 1" {
	for bad in 9007199254740992 9223372036854775808 99999999999999999999999; do
		seedq "s|messageCount=\"12\"|messageCount=\"$bad\"|"
		run -1 --separate-stderr llmr-validate q.xml
		assert_equal "$stderr" "q.xml:3:43: error: /llmQuery/context: messageCount \"$bad\" is too large (at most 9007199254740991)"
	done
	for good in 0:0 007:7 9007199254740991:9007199254740991 0009007199254740991:9007199254740991; do
		seedq "s|messageCount=\"12\"|messageCount=\"${good%%:*}\"|"
		run -0 --separate-stderr llmr-validate -o json q.xml
		assert_output --partial "\"messageCount\":${good##*:},"
	done
}

@test "rejects a <subject> without name, description and isNew" {
	seed 's|<subject .*>|<subject>|'
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:4:5: error: /llmResponse/analysis/subject[1]: missing attribute \"name\"
r.xml:4:5: error: /llmResponse/analysis/subject[1]: missing attribute \"description\"
r.xml:4:5: error: /llmResponse/analysis/subject[1]: missing attribute \"isNew\""
}

@test "rejects an isNew other than exactly true or false" {
	for bad in yes True FALSE 1 '' ' true'; do
		seed "s|isNew=\"true\"|isNew=\"$bad\"|"
		run -1 --separate-stderr llmr-validate r.xml
		assert_equal "$stderr" "r.xml:4:115: error: /llmResponse/analysis/subject[1]: isNew \"$bad\" is not \"true\" or \"false\""
	done
	seed 's|isNew="true"|isNew="false"|'
	run -0 --separate-stderr llmr-validate -o json r.xml
	assert_output "${SEED_JSON/\"isNew\":true/\"isNew\":false}"
}

@test "rejects a <keyword> without term and confidence" {
	seed '6s|<keyword .*/>|<keyword/>|'
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:6:7: error: /llmResponse/analysis/subject[1]/keyword[2]: missing attribute \"term\"
r.xml:6:7: error: /llmResponse/analysis/subject[1]/keyword[2]: missing attribute \"confidence\""
}

@test "rejects a keyword confidence above 1.0" {
	seed '5s|0.95|1.4|'
	run -1 --separate-stderr llmr-validate r.xml
	assert_output ""
	assert_equal "$stderr" "r.xml:5:32: error: /llmResponse/analysis/subject[1]/keyword[1]: confidence \"1.4\" is outside 0.0-1.0"
}

@test "rejects confidences outside 0.0-1.0" {
	for bad in -0.1 1.0000001 2 1e400 -1e-300; do
		seed "5s|0.95|$bad|"
		run -1 --separate-stderr llmr-validate r.xml
		assert_equal "$stderr" "r.xml:5:32: error: /llmResponse/analysis/subject[1]/keyword[1]: confidence \"$bad\" is outside 0.0-1.0"
	done
}

@test "rejects a confidence that is not wholly a JSON number" {
	for bad in 0.5abc '' .5 1. +0.5 ' 0.5' '0.5 ' 01 0x1 nan NaN inf 1e 0,5 '0.5%'; do
		seed "5s|\"0.95\"|\"$bad\"|"
		run -1 --separate-stderr llmr-validate r.xml
		assert_equal "$stderr" "r.xml:5:32: error: /llmResponse/analysis/subject[1]/keyword[1]: confidence \"$bad\" is not a number"
	done
}

@test "accepts every JSON number form of a confidence, written back shortest" {
	seed '5s|0.95|0|;6s|0.85|1|;7s|0.90|-0|;8s|0.75|1E0|'
	run -0 --separate-stderr llmr-validate -o json r.xml
	assert_output --partial '"confidence":0},{"term":"tax-advantages","confidence":1},{"term":"education-expenses","confidence":0},{"term":"financial-planning","confidence":1}]'
	seed '5s|0.95|6.25e-1|;6s|0.85|0.1000|;7s|0.90|100e-2|;8s|0.75|0.3333333333333333333|'
	run -0 --separate-stderr llmr-validate -o json r.xml
	assert_output --partial '"confidence":0.625},{"term":"tax-advantages","confidence":0.1},{"term":"education-expenses","confidence":1},{"term":"financial-planning","confidence":0.3333333333333333}]'
}

@test "an attribute's position is where its name starts, over lines and characters" {
	printf '<llmResponse><response>é</response><analysis><summaryUpdate/>\n<subject name="é-1"\n\tdescription="d"   isNew =\n"no"/></analysis></llmResponse>\n' >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:3:20: error: /llmResponse/analysis/subject[1]: isNew \"no\" is not \"true\" or \"false\""
}

# ------------------------------------------------------- MUST: counting

@test "rejects a fourth <subject>, at the fourth" {
	sed -n '4,9p' "$D/seed-response.xml" >sub.txt
	seed '9r sub.txt
9r sub.txt
9r sub.txt'
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:22:5: error: /llmResponse/analysis/subject[4]: 4 <subject> elements, at most 3 allowed"
	seed '9r sub.txt
9r sub.txt'
	run -0 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" ""
}

@test "rejects an eleventh <keyword>, at the eleventh" {
	seed '5p;5p;5p;5p;5p;5p;5p'
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:15:7: error: /llmResponse/analysis/subject[1]/keyword[11]: 11 <keyword> elements, at most 10 allowed"
	seed '5p;5p;5p;5p;5p;5p'
	run -0 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" ""
}

@test "reports every problem of a document, in document order" {
	cat >r.xml <<-'EOF'
	<llmResponse>
	  <analysis>
	    <subject name="a" isNew="yes">
	      <keyword confidence="2"/>
	      <keyword term="b" confidence="x"/>
	    </subject>
	  </analysis>
	  <response>	</response>
	</llmResponse>
	EOF
	run -1 --separate-stderr llmr-validate r.xml
	assert_output ""
	assert_equal "$stderr" "r.xml:2:3: error: /llmResponse/analysis: missing <summaryUpdate>
r.xml:3:5: error: /llmResponse/analysis/subject[1]: missing attribute \"description\"
r.xml:3:23: error: /llmResponse/analysis/subject[1]: isNew \"yes\" is not \"true\" or \"false\"
r.xml:4:7: error: /llmResponse/analysis/subject[1]/keyword[1]: missing attribute \"term\"
r.xml:4:16: error: /llmResponse/analysis/subject[1]/keyword[1]: confidence \"2\" is outside 0.0-1.0
r.xml:5:25: error: /llmResponse/analysis/subject[1]/keyword[2]: confidence \"x\" is not a number
r.xml:8:3: error: /llmResponse/response: text is only white space"
}

@test "the order of the elements does not matter" {
	cat >r.xml <<-'EOF'
	<llmResponse>
	  <analysis>
	    <summaryUpdate></summaryUpdate>
	    <subject isNew="false" description="d" name="n">
	      <keyword confidence="0.5" term="t"/>
	    </subject>
	  </analysis>
	  <response>Hello.</response>
	</llmResponse>
	EOF
	run -0 --separate-stderr llmr-validate -o json r.xml
	assert_output '{"response":"Hello.","subjects":[{"name":"n","description":"d","isNew":false,"keywords":[{"term":"t","confidence":0.5}]}],"summaryUpdate":""}'
}

# ------------------------------------------------------------- SHOULD

@test "SHOULD: at least one <subject>" {
	seed '4,9d'
	should r.xml "3:3: ERR: /llmResponse/analysis: no <subject>, 1-3 recommended"
}

@test "SHOULD: at least 3 keywords per subject" {
	seed '6,8d'
	should r.xml "4:5: ERR: /llmResponse/analysis/subject[1]: 1 <keyword> element, 3-7 recommended"
	seed '5,8d'
	should r.xml "4:5: ERR: /llmResponse/analysis/subject[1]: 0 <keyword> elements, 3-7 recommended"
}

@test "SHOULD: at most 7 keywords per subject" {
	seed '5p;5p;5p;5p'
	should r.xml "4:5: ERR: /llmResponse/analysis/subject[1]: 8 <keyword> elements, 3-7 recommended"
	seed '5p;5p;5p'
	run -0 --separate-stderr llmr-validate --strict r.xml
	assert_equal "$stderr" ""
}

@test "SHOULD: a lowercase hyphenated subject name" {
	for bad in 'College Savings' college_savings -college college- college--savings '' 'Ünïcødé'; do
		seed "s|name=\"college-savings\"|name=\"$bad\"|"
		should r.xml "4:14: ERR: /llmResponse/analysis/subject[1]: name \"$bad\" is not lowercase and hyphenated"
	done
	seed 's|name="college-savings"|name="a1-2b-c"|'
	run -0 --separate-stderr llmr-validate --strict r.xml
	assert_equal "$stderr" ""
}

@test "SHOULD: a lowercase hyphenated keyword term" {
	seed 's|"529-plan"|"529 Plan"|'
	should r.xml "5:16: ERR: /llmResponse/analysis/subject[1]/keyword[1]: term \"529 Plan\" is not lowercase and hyphenated"
}

@test "SHOULD: a confidence of at least 0.6" {
	seed 's|"0.75"|"0.59"|'
	should r.xml "8:42: ERR: /llmResponse/analysis/subject[1]/keyword[4]: confidence \"0.59\" is below 0.6"
	seed 's|"0.75"|"0.6"|'
	run -0 --separate-stderr llmr-validate --strict r.xml
	assert_equal "$stderr" ""
}

@test "SHOULD: a description of 50 to 200 characters" {
	seed "s|Discussion of saving strategies for children's higher education|Saving.|"
	should r.xml "4:37: ERR: /llmResponse/analysis/subject[1]: description is 7 characters, 50-200 recommended"
	long=$(yes é | head -n 201 | tr -d '\n')
	seed "s|Discussion of saving strategies for children's higher education|$long|"
	should r.xml "4:37: ERR: /llmResponse/analysis/subject[1]: description is 201 characters, 50-200 recommended"
	ok=$(yes é | head -n 200 | tr -d '\n')
	seed "s|Discussion of saving strategies for children's higher education|$ok|"
	run -0 --separate-stderr llmr-validate --strict r.xml
	assert_equal "$stderr" ""
}

@test "SHOULD: a summary of 50 to 300 characters, unless it is empty" {
	seed 's|<summaryUpdate>.*<|<summaryUpdate>Short.<|'
	should r.xml "10:5: ERR: /llmResponse/analysis/summaryUpdate: text is 6 characters, 50-300 recommended"
	long=$(head -c 301 /dev/zero | tr '\0' s)
	seed "s|<summaryUpdate>.*<|<summaryUpdate>$long<|"
	should r.xml "10:5: ERR: /llmResponse/analysis/summaryUpdate: text is 301 characters, 50-300 recommended"
	seed 's|<summaryUpdate>.*</summaryUpdate>|<summaryUpdate>  </summaryUpdate>|'
	run -0 --separate-stderr llmr-validate --strict r.xml
	assert_equal "$stderr" ""
}

@test "SHOULD: a response of 100 to 2000 characters" {
	seed 's|<response>.*<|<response>Short.<|'
	should r.xml "2:3: ERR: /llmResponse/response: text is 6 characters, 100-2000 recommended"
	long=$(head -c 2001 /dev/zero | tr '\0' r)
	seed "s|<response>.*<|<response>$long<|"
	should r.xml "2:3: ERR: /llmResponse/response: text is 2001 characters, 100-2000 recommended"
}

@test "SHOULD: no empty item in a query's lists" {
	seedq 's|family planning, education costs|family planning, , education costs,|'
	run -0 --separate-stderr llmr-validate -W -o json q.xml
	assert_output --partial '"activeSubjects":["family planning","education costs"],'
	assert_equal "$stderr" "q.xml:4:5: warning: /llmQuery/context/activeSubjects: item 2 is empty
q.xml:4:5: warning: /llmQuery/context/activeSubjects: item 4 is empty"
	run -0 --separate-stderr llmr-validate q.xml
	assert_equal "$stderr" ""
	run -1 --separate-stderr llmr-validate --strict q.xml
	assert_equal "$stderr" "q.xml:4:5: error: /llmQuery/context/activeSubjects: item 2 is empty
q.xml:4:5: error: /llmQuery/context/activeSubjects: item 4 is empty"
}

@test "warnings do not make a document invalid, and come in document order with errors" {
	seed 's|"529-plan"|"529 Plan"|;s|isNew="true"|isNew="new"|;s|"0.75"|"0.5"|'
	run -1 --separate-stderr llmr-validate -W -o json r.xml
	assert_output ""
	assert_equal "$stderr" "r.xml:4:115: error: /llmResponse/analysis/subject[1]: isNew \"new\" is not \"true\" or \"false\"
r.xml:5:16: warning: /llmResponse/analysis/subject[1]/keyword[1]: term \"529 Plan\" is not lowercase and hyphenated
r.xml:8:42: warning: /llmResponse/analysis/subject[1]/keyword[4]: confidence \"0.5\" is below 0.6"
}

# ------------------------------------------------- unknown elements

@test "ignores unknown elements and attributes without --strict" {
	seed 's|<response>|<response lang="en">|;9a\
    <mood score="1"><deep>x</deep></mood>
;5s|/>|note="n"/>|'
	run -0 --separate-stderr llmr-validate -W -o json r.xml
	assert_output "$SEED_JSON"
	assert_equal "$stderr" ""
}

@test "--strict rejects unknown elements and attributes, each once" {
	seed 's|<response>|<response lang="en">|;9a\
    <mood score="1"><deep>x</deep></mood><mood/>
;5s|/>|note="n"/>|;1s|>| version="1">|'
	run -1 --separate-stderr llmr-validate --strict r.xml
	assert_output ""
	assert_equal "$stderr" "r.xml:1:14: error: /llmResponse: unknown attribute \"version\"
r.xml:2:13: error: /llmResponse/response: unknown attribute \"lang\"
r.xml:5:50: error: /llmResponse/analysis/subject[1]/keyword[1]: unknown attribute \"note\"
r.xml:10:5: error: /llmResponse/analysis/mood: unknown element
r.xml:10:42: error: /llmResponse/analysis/mood: unknown element"
}

@test "an element inside a text element is ignored with its text, and refused with --strict" {
	seed 's|<response>.*</response>|<response>Save in a <b>529</b> plan.</response>|'
	run -0 --separate-stderr llmr-validate -o text r.xml
	assert_output "Save in a  plan."
	run -1 --separate-stderr llmr-validate --strict r.xml
	assert_equal "$stderr" "r.xml:2:3: error: /llmResponse/response: text is 16 characters, 100-2000 recommended
r.xml:2:23: error: /llmResponse/response/b: unknown element"
}

@test "--strict rejects text where only elements belong" {
	seed 's|<analysis>|<analysis>Note: |;s|<keyword term="529-plan" confidence="0.95" />|& stray|'
	run -0 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" ""
	run -1 --separate-stderr llmr-validate --strict r.xml
	assert_equal "$stderr" "r.xml:3:13: error: /llmResponse/analysis: unexpected text
r.xml:5:53: error: /llmResponse/analysis/subject[1]: unexpected text"
}

# ------------------------------------------------------------ outputs

@test "-o json writes decoded entities, CDATA, unicode and newlines exactly" {
	run -0 --separate-stderr llmr-validate -W --strict -o json "$D/special.xml"
	assert_output "$(cat "$D/special.json")"
	assert_equal "$stderr" ""
	run -0 --separate-stderr llmr-validate -o json "$D/special-query.xml"
	assert_output "$(cat "$D/special-query.json")"
}

@test "-o json lines parse as JSON and hold what xmllint decodes" {
	llmr-validate -o json "$D/special.xml" >out.json
	jq -j .response out.json >got
	xmllint --xpath 'string(/llmResponse/response)' "$D/special.xml" >want
	printf '\n' >>got
	cmp got want
	jq -j .summaryUpdate out.json >got
	xmllint --xpath 'string(//summaryUpdate)' "$D/special.xml" >want
	printf '\n' >>got
	cmp got want
	run jq -c '[.subjects[].keywords[].confidence]' out.json
	assert_output '[1,0.6,0.75,0.9,0.95,0.875]'
}

@test "-o text writes the response text alone, then a newline" {
	llmr-validate -o text "$D/special.xml" >got
	cmp got "$D/special.txt"
	xmllint --xpath 'string(/llmResponse/response)' "$D/special.xml" >want
	cmp got want
}

@test "-o text writes a query's userMessage, untrimmed" {
	llmr-validate -o text "$D/special-query.xml" >got
	cmp got "$D/special-query.txt"
	xmllint --xpath 'string(/llmQuery/userMessage)' "$D/special-query.xml" >want
	cmp got want
}

@test "-o json writes one line per valid document, in operand order" {
	printf '<llmResponse/>' >bad.xml
	run -1 --separate-stderr llmr-validate -o json "$D/seed-response.xml" bad.xml "$D/seed-query.xml"
	assert_output "$SEED_JSON
$QUERY_JSON"
	assert_equal "$stderr" "bad.xml:1:1: error: /llmResponse: missing <response>
bad.xml:1:1: error: /llmResponse: missing <analysis>"
}

@test "-o none writes nothing" {
	run -0 --separate-stderr llmr-validate -o none "$D/seed-response.xml"
	assert_output ""
	assert_equal "$stderr" ""
}

# ------------------------------------------------------ around the root

@test "accepts a byte order mark, an XML declaration, comments and white space around the root" {
	{ printf '\357\273\277<?xml version="1.0" encoding="UTF-8"?>\n<!-- reply -->\n\n'
	  cat "$D/seed-response.xml"
	  printf '<?done?>\n<!-- end -->\n\n'
	} >r.xml
	run -0 --separate-stderr llmr-validate -o json r.xml
	assert_output "$SEED_JSON"
	assert_equal "$stderr" ""
}

@test "a byte order mark takes no column" {
	printf '\357\273\277<llmResponse><response>x</response></llmResponse>' >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:1:1: error: /llmResponse: missing <analysis>"
}

@test "rejects text before the root element" {
	{ printf 'Here is my answer:\n'; cat "$D/seed-response.xml"; } >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:1:1: error: text before the root element$HINT"
	{ printf '\n  ```xml\n'; cat "$D/seed-response.xml"; } >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:2:3: error: text before the root element$HINT"
	{ printf '<?xml version="1.0"?>\n<!-- c -->\nHere: '; cat "$D/seed-response.xml"; } >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:3:1: error: text before the root element$HINT"
}

@test "rejects text after the root element" {
	{ cat "$D/seed-response.xml"; printf '```\nHope this helps.\n'; } >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:13:1: error: text after the root element$HINT"
	{ cat "$D/seed-response.xml" "$D/seed-response.xml"; } >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:13:1: error: text after the root element$HINT"
	{ cat "$D/seed-response.xml"; printf '<!-- ok -->\n<?ok?> &amp;\n'; } >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:14:8: error: text after the root element$HINT"
	{ cat "$D/seed-response.xml"; printf '<!-- a -- b -->\n'; } >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:13:10: error: not well-formed (invalid token)"
}

# --------------------------------------------------------------- --find

@test "--find validates a response in a fenced block of a transcript, at whole-input positions" {
	run -1 --separate-stderr llmr-validate --find "$D/transcript.md"
	assert_output ""
	assert_equal "$stderr" "$D/transcript.md:10:90: error: /llmResponse/analysis/subject[1]: isNew \"maybe\" is not \"true\" or \"false\""'
'"$D/transcript.md:11:32: error: /llmResponse/analysis/subject[1]/keyword[1]: confidence \"1.4\" is outside 0.0-1.0"
}

@test "--find takes a document inside a line of prose, columns counted in characters" {
	printf 'Réponse : <llmResponse><response>Bien.</response><analysis><subject name="a" description="b" isNew="oui"/><summaryUpdate/></analysis></llmResponse> Voilà.\n' >r.md
	run -1 --separate-stderr llmr-validate --find r.md
	assert_equal "$stderr" "r.md:1:94: error: /llmResponse/analysis/subject[1]: isNew \"oui\" is not \"true\" or \"false\""
	printf 'Voilà :\r\n\r\n  <llmResponse>\n</b>' >r.md
	run -1 --separate-stderr llmr-validate --find r.md
	assert_equal "$stderr" "r.md:4:3: error: mismatched tag"
}

@test "--find writes the embedded document's JSON and ignores what follows it" {
	{ printf 'Sure!\n```xml\n'; cat "$D/seed-response.xml"; printf '```\n<llmResponse> & other junk </b>\n'; } >r.md
	run -0 --separate-stderr llmr-validate --find -o json r.md
	assert_output "$SEED_JSON"
	assert_equal "$stderr" ""
}

@test "--find takes the first element, even an empty one in prose" {
	{ printf 'I will answer in <llmResponse/> form:\n'; cat "$D/seed-response.xml"; } >r.md
	run -1 --separate-stderr llmr-validate --find r.md
	assert_equal "$stderr" "r.md:1:18: error: /llmResponse: missing <response>
r.md:1:18: error: /llmResponse: missing <analysis>"
}

@test "--find matches whole names only and keeps nested elements of the same name" {
	{ printf '<llmResponses> <llmQueryX> <llmResponse-x>\n'
	  sed 's|<response>|&<llmResponse>nested</llmResponse>|' "$D/seed-response.xml"; } >r.md
	run -0 --separate-stderr llmr-validate --find -o json r.md
	assert_output "$SEED_JSON"
	run -1 --separate-stderr llmr-validate --find --strict r.md
	assert_equal "$stderr" "r.md:3:13: error: /llmResponse/response/llmResponse: unknown element"
}

@test "--find with -t query skips a response and finds the query" {
	cat "$D/seed-response.xml" "$D/seed-query.xml" >both.txt
	run -0 --separate-stderr llmr-validate --find -t query -o json both.txt
	assert_output "$QUERY_JSON"
	run -0 --separate-stderr llmr-validate --find -o json both.txt
	assert_output "$SEED_JSON"
}

@test "--find reports input without the element" {
	printf 'Sorry, I cannot answer in XML.\n' >r.md
	run -1 --separate-stderr llmr-validate --find r.md
	assert_output ""
	assert_equal "$stderr" "r.md:1:1: error: no <llmResponse> or <llmQuery> element found"
	run -1 --separate-stderr llmr-validate --find -t response "$D/seed-query.xml"
	assert_equal "$stderr" "$D/seed-query.xml:1:1: error: no <llmResponse> element found"
	run -1 --separate-stderr llmr-validate --find -t query /dev/null
	assert_equal "$stderr" "/dev/null:1:1: error: no <llmQuery> element found"
}

@test "--find takes a document that is not embedded, byte order mark and all" {
	{ printf '\357\273\277'; cat "$D/seed-query.xml"; } >q.xml
	run -0 --separate-stderr llmr-validate --find -o json q.xml
	assert_output "$QUERY_JSON"
	printf '\357\273\277<llmQuery></b>' >q.xml
	run -1 --separate-stderr llmr-validate --find q.xml
	assert_equal "$stderr" "q.xml:1:13: error: mismatched tag"
}

# ----------------------------------------------------------- --feedback

@test "--feedback writes the errors and the required format for the model" {
	run -1 --separate-stderr llmr-validate --feedback "$D/seed-schema.xml"
	assert_output "$(cat "$D/seed-schema.feedback")"
	assert_equal "$stderr" "$D/seed-schema.xml:4:70: error: /llmResponse/analysis/subject[1]: isNew \"true|false\" is not \"true\" or \"false\"
$D/seed-schema.xml:5:38: error: /llmResponse/analysis/subject[1]/keyword[1]: confidence \"0.0-1.0\" is not a number"
}

@test "--feedback ends with the system prompt, byte for byte" {
	status=0
	llmr-validate -q --feedback "$D/seed-schema.xml" >fb || status=$?
	[ "$status" -eq 1 ] || fail "status $status"
	n=$(wc -c <"$TOP/data/llm-response-prompt.txt")
	tail -c "$n" fb >tail.txt
	cmp tail.txt "$TOP/data/llm-response-prompt.txt"
}

@test "--feedback writes nothing for a valid document" {
	run -0 --separate-stderr llmr-validate --feedback -W "$D/seed-response.xml"
	assert_output ""
	assert_equal "$stderr" ""
}

@test "--feedback lists errors only, and a well-formedness error too" {
	seed 's|"529-plan"|"529 Plan"|;s|</analysis>|</analyses>|'
	run -1 --separate-stderr llmr-validate -W --feedback r.xml
	assert_line -n 0 "Your reply is not a valid <llmResponse> document. These problems were found in it (line:column: element: problem):"
	assert_line -n 1 "- 11:5: mismatched tag"
	assert_line -n 2 "Write your whole reply again with these problems corrected, in the format below."
	seed 's|"529-plan"|"529 Plan"|;s|"true"|"yes"|'
	run -1 --separate-stderr llmr-validate -W --feedback r.xml
	assert_line -n 1 '- 4:115: /llmResponse/analysis/subject[1]: isNew "yes" is not "true" or "false"'
	assert_line -n 2 "Write your whole reply again with these problems corrected, in the format below."
	run -1 --separate-stderr llmr-validate --strict --feedback r.xml
	assert_line -n 1 '- 4:115: /llmResponse/analysis/subject[1]: isNew "yes" is not "true" or "false"'
	assert_line -n 2 '- 5:16: /llmResponse/analysis/subject[1]/keyword[1]: term "529 Plan" is not lowercase and hyphenated'
}

@test "--feedback for a query asks for the query again, without the response prompt" {
	seedq 's|messageCount="12"|messageCount="many"|'
	run -1 --separate-stderr llmr-validate --feedback q.xml
	assert_output 'Your reply is not a valid <llmQuery> document. These problems were found in it (line:column: element: problem):
- 3:43: /llmQuery/context: messageCount "many" is not a non-negative integer

Write the whole <llmQuery> document again with these problems corrected.'
}

@test "--feedback with --find tells a model that sent no document" {
	printf 'I would rather not.\n' >r.md
	run -1 --separate-stderr llmr-validate --find --feedback r.md
	assert_line -n 0 "Your reply is not a valid <llmResponse> document. These problems were found in it (line:column: element: problem):"
	assert_line -n 1 "- 1:1: no <llmResponse> or <llmQuery> element found"
}

# -------------------------------------------------------- --print-prompt

@test "--print-prompt writes the seed's system prompt byte for byte" {
	llmr-validate --print-prompt >prompt.txt
	cmp prompt.txt "$TOP/data/llm-response-prompt.txt"
	run -0 --separate-stderr llmr-validate --print-prompt </dev/null
	assert_line -n 0 "You are an AI assistant. Always respond using this XML format:"
	assert_equal "$stderr" ""
}

# ---------------------------------------------------- diagnostics forms

@test "--errors=json writes one JSON object per problem" {
	seed 's|"529-plan"|"529 Plan"|;s|isNew="true"|isNew="new"|'
	run -1 --separate-stderr llmr-validate -W --errors=json r.xml
	assert_output ""
	assert_equal "$stderr" '{"file":"r.xml","line":4,"column":115,"severity":"error","rule":"is-new","message":"isNew \"new\" is not \"true\" or \"false\"","path":"/llmResponse/analysis/subject[1]"}
{"file":"r.xml","line":5,"column":16,"severity":"warning","rule":"term-form","message":"term \"529 Plan\" is not lowercase and hyphenated","path":"/llmResponse/analysis/subject[1]/keyword[1]"}'
}

@test "--errors=json names the rule of a well-formedness error, without a path" {
	printf '<llmResponse>\n<response>a</b>' >r.xml
	run -1 --separate-stderr llmr-validate --errors=json r.xml
	assert_equal "$stderr" '{"file":"r.xml","line":2,"column":14,"severity":"error","rule":"xml-syntax","message":"mismatched tag"}'
	run -1 --separate-stderr llmr-validate --errors=text r.xml
	assert_equal "$stderr" 'r.xml:2:14: error: mismatched tag'
}

@test "-q prints no diagnostic; the status still tells" {
	run -1 --separate-stderr llmr-validate -q -W "$D/seed-schema.xml"
	assert_output ""
	assert_equal "$stderr" ""
	run -0 --separate-stderr llmr-validate -q "$D/seed-response.xml"
	assert_equal "$stderr" ""
}

@test "-q still reports a file it cannot read" {
	run -3 --separate-stderr llmr-validate -q nope.xml
	assert_equal "$stderr" "llmr-validate: nope.xml: No such file or directory"
}

@test "quotes a value as a JSON string and cuts a long one" {
	seed 's|isNew="true"|isNew="\&#9;y\&#10;\\"|'
	run -1 --separate-stderr llmr-validate r.xml
	assert_output ""
	assert_equal "$stderr" 'r.xml:4:115: error: /llmResponse/analysis/subject[1]: isNew "\ty\n\\" is not "true" or "false"'
	long=$(yes é | head -n 100 | tr -d '\n')
	seed "s|isNew=\"true\"|isNew=\"$long\"|"
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:4:115: error: /llmResponse/analysis/subject[1]: isNew \"$(yes é | head -n 37 | tr -d '\n')...\" is not \"true\" or \"false\""
}

# ----------------------------------------------------- malformed input

@test "reports malformed XML with expat's message and position, and nothing else" {
	seed 's|</subject>|</subjekt>|;s|isNew="true"|isNew="x"|'
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:9:7: error: mismatched tag"
	printf '<llmResponse>\n  <response>a &nbsp; b</response>' >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:2:15: error: undefined entity"
	head -c 300 "$D/seed-response.xml" >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:3:3: error: unclosed token"
	run -2 xmlwf r.xml
	assert_output "r.xml:3:2: unclosed token"
}

@test "an empty or blank input is not a document" {
	: >e.xml
	printf ' \n\t\n' >b.xml
	run -1 --separate-stderr llmr-validate e.xml b.xml
	assert_equal "$stderr" "e.xml:1:1: error: no element found
b.xml:3:1: error: no element found"
}

@test "agrees with xmllint on what is well-formed" {
	printf '<llmResponse><response>a</response><analysis><summaryUpdate/></analysis></llmResponse>' >0.xml
	printf '<llmResponse><response>a & b</response></llmResponse>' >1.xml
	printf '<llmResponse><response a="1" a="2">x</response></llmResponse>' >2.xml
	printf '<llmResponse><response><![CDATA[x]]</response></llmResponse>' >3.xml
	printf '<llmResponse><response>\001</response></llmResponse>' >4.xml
	printf '<llmResponse><response>&#0;</response></llmResponse>' >5.xml
	printf '<llmResponse><re sponse>x</re></llmResponse>' >6.xml
	printf '<?xml version="1.0"?><?xml version="1.0"?><llmResponse/>' >7.xml
	printf '<llmResponse><response>&#xD800;</response></llmResponse>' >8.xml
	printf '<llmResponse><!-- a -- b --></llmResponse>' >9.xml
	for f in ?.xml; do
		if xmllint --noout "$f" 2>/dev/null; then
			llmr-validate "$f" || fail "$f: xmllint accepts it"
		else
			run -1 --separate-stderr llmr-validate --errors=json "$f"
			[[ "$stderr" == *'"rule":"xml-syntax"'* ||
			    "$stderr" == *'"rule":"bare-ampersand"'* ]] ||
				fail "$f: $stderr"
		fi
	done
}

@test "rejects invalid UTF-8, naming the byte and its offset" {
	seed 's|For college|For c\xe9llege|'
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" "r.xml:2:18: error: invalid UTF-8: byte 0xe9 at byte offset 31"
	printf '\377\376<\000l\000' >u.xml
	run -1 --separate-stderr llmr-validate u.xml
	assert_equal "$stderr" "u.xml:1:1: error: invalid UTF-8: byte 0xff at byte offset 0"
	printf '\357\273\277<llmResponse>\300\200</llmResponse>' >u.xml
	run -1 --separate-stderr llmr-validate u.xml
	assert_equal "$stderr" "u.xml:1:14: error: invalid UTF-8: byte 0xc0 at byte offset 16"
}

@test "reads the text as UTF-8 whatever the XML declaration says" {
	printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<llmResponse><response>caf\351</response></llmResponse>' >l.xml
	run -1 --separate-stderr llmr-validate l.xml
	assert_equal "$stderr" "l.xml:2:27: error: invalid UTF-8: byte 0xe9 at byte offset 70"
}

@test "refuses a DTD at once, so no entity is ever expanded" {
	{ printf '<!DOCTYPE llmResponse SYSTEM "file:///etc/passwd">\n'; cat "$D/seed-response.xml"; } >r.xml
	run -1 --separate-stderr llmr-validate -o json r.xml
	assert_output ""
	assert_equal "$stderr" "r.xml:1:1: error: DTDs are not allowed"
	printf 'Text\n\n  <llmQuery><!DOCTYPE x></llmQuery>' >q.md
	run -1 --separate-stderr llmr-validate --find q.md
	assert_equal "$stderr" "q.md:3:15: error: not well-formed (invalid token)"
}

@test "rejects a billion-laughs document with the DTD error" {
	run -1 --separate-stderr llmr-validate --errors=json "$D/billion-laughs.xml"
	assert_output ""
	assert_equal "$stderr" "{\"file\":\"$D/billion-laughs.xml\",\"line\":2,\"column\":1,\"severity\":\"error\",\"rule\":\"dtd\",\"message\":\"DTDs are not allowed\"}"
}

# ---------------------------------------------- several files, trouble

@test "goes on over several files and exits with the highest status" {
	printf '<llmResponse/>' >bad.xml
	run -1 --separate-stderr llmr-validate "$D/seed-query.xml" bad.xml "$D/seed-response.xml"
	assert_equal "$stderr" "bad.xml:1:1: error: /llmResponse: missing <response>
bad.xml:1:1: error: /llmResponse: missing <analysis>"
	run -3 --separate-stderr llmr-validate bad.xml nope.xml "$D/seed-response.xml"
	assert_equal "$stderr" "bad.xml:1:1: error: /llmResponse: missing <response>
bad.xml:1:1: error: /llmResponse: missing <analysis>
llmr-validate: nope.xml: No such file or directory"
	run -0 --separate-stderr llmr-validate "$D/seed-query.xml" "$D/seed-response.xml"
	assert_equal "$stderr" ""
}

@test "a missing file is trouble: status 3, the others still validated" {
	run -3 --separate-stderr llmr-validate -o json nope.xml "$D/seed-query.xml"
	assert_output "$QUERY_JSON"
	assert_equal "$stderr" "llmr-validate: nope.xml: No such file or directory"
}

@test "a directory is trouble: status 3" {
	run -3 --separate-stderr llmr-validate .
	assert_output ""
	assert_equal "$stderr" "llmr-validate: .: Is a directory"
}

@test "a failed write is trouble: status 3" {
	run -3 --separate-stderr sh -c 'llmr-validate -o json "$1" >/dev/full' sh "$D/seed-response.xml"
	assert_equal "$stderr" "llmr-validate: <stdout>: No space left on device"
	run -3 --separate-stderr sh -c 'llmr-validate --print-prompt >/dev/full'
	assert_equal "$stderr" "llmr-validate: <stdout>: No space left on device"
}

@test "validates many documents with one parser, each on its own" {
	for i in $(seq 200); do
		if [ $((i % 3)) = 0 ]; then
			sed "s|isNew=\"true\"|isNew=\"n$i\"|" "$D/seed-response.xml" >"d$i.xml"
		else
			cp "$D/seed-response.xml" "d$i.xml"
		fi
	done
	run -1 --separate-stderr llmr-validate -o json $(seq -f 'd%g.xml' 200)
	[ "${#lines[@]}" -eq 134 ] || fail "${#lines[@]} lines of JSON"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 66 ] || fail "stderr: $stderr"
	assert_equal "$(printf '%s\n' "$stderr" | tail -1)" 'd198.xml:4:115: error: /llmResponse/analysis/subject[1]: isNew "n198" is not "true" or "false"'
}

@test "a large response is validated in chunks, positions right past 64 KiB" {
	long=$(yes é | head -n 100000 | tr -d '\n')
	{ printf '<llmResponse>\n<response>%s</response>\n' "$long"
	  printf '<analysis><summaryUpdate/><subject name="a" description="b" isNew="X"/></analysis></llmResponse>\n'
	} >big.xml
	run -1 --separate-stderr llmr-validate big.xml
	assert_equal "$stderr" 'big.xml:3:61: error: /llmResponse/analysis/subject[1]: isNew "X" is not "true" or "false"'
}

@test "the manual's first example gives what the manual shows" {
	cd "$D"
	run -1 --separate-stderr llmr-validate -W reply.xml
	assert_output ""
	assert_equal "$stderr" 'reply.xml:2:3: warning: /llmResponse/response: text is 59 characters, 100-2000 recommended
reply.xml:4:5: warning: /llmResponse/analysis/subject[1]: 2 <keyword> elements, 3-7 recommended
reply.xml:4:37: warning: /llmResponse/analysis/subject[1]: description is 38 characters, 50-200 recommended
reply.xml:4:90: error: /llmResponse/analysis/subject[1]: isNew "yes" is not "true" or "false"
reply.xml:5:32: error: /llmResponse/analysis/subject[1]/keyword[1]: confidence "1.4" is outside 0.0-1.0
reply.xml:6:16: warning: /llmResponse/analysis/subject[1]/keyword[2]: term "Deposits" is not lowercase and hyphenated
reply.xml:6:32: warning: /llmResponse/analysis/subject[1]/keyword[2]: confidence "0.5" is below 0.6'
	man=$(mandoc -Tascii "$TOP/man/llmr-validate.1" | col -b)
	while IFS= read -r line; do
		[[ "$man" == *"$line"* ]] || fail "not in the manual: $line"
	done <<<"$stderr"
}

# Hostile input (issue 13)

# deep N: an <llmResponse> whose <response> holds "x" and N elements, each
# in the one before: N + 2 levels in all.
deep() {
	python3 -c 'import sys; n = int(sys.argv[1]); print("<llmResponse><response>x" + "<e>" * n + "</e>" * n + "</response><analysis><summaryUpdate/></analysis></llmResponse>")' "$1"
}

@test "elements nested 4096 deep are accepted, 4097 deep are an error" {
	deep 4094 >ok.xml
	run -0 --separate-stderr llmr-validate -o text ok.xml
	assert_output "x"
	assert_equal "$stderr" ""
	deep 4095 >deep.xml
	run -1 --separate-stderr llmr-validate -o json deep.xml
	assert_output ""
	assert_equal "$stderr" "deep.xml:1:12307: error: element nesting deeper than 4096 levels"
	run -1 --separate-stderr llmr-validate --errors=json --find deep.xml
	assert_equal "$stderr" '{"file":"deep.xml","line":1,"column":12307,"severity":"error","rule":"nesting-depth","message":"element nesting deeper than 4096 levels"}'
}

@test "a document nested 500,000 deep does not spoil the documents after it" {
	deep 500000 >deep.xml
	cp "$D/seed-response.xml" good.xml
	run -1 --separate-stderr llmr-validate deep.xml good.xml
	assert_output ""
	assert_equal "$stderr" "deep.xml:1:12307: error: element nesting deeper than 4096 levels"
	run -1 --separate-stderr llmr-validate -o json deep.xml good.xml deep.xml good.xml
	assert_output "$SEED_JSON
$SEED_JSON"
	assert_equal "$stderr" "deep.xml:1:12307: error: element nesting deeper than 4096 levels
deep.xml:1:12307: error: element nesting deeper than 4096 levels"
	{ echo 'Here it is:'; cat deep.xml; } >deep.md
	{ echo 'Here it is:'; cat good.xml; } >good.md
	run -1 --separate-stderr llmr-validate --find -o json deep.md good.md
	assert_output "$SEED_JSON"
	assert_equal "$stderr" "deep.md:2:12307: error: element nesting deeper than 4096 levels"
}

@test "a messageCount is at most 2^53 - 1, as llmq-encode reads it back" {
	seedq 's|messageCount="12"|messageCount="9007199254740991"|'
	run -0 --separate-stderr bash -c 'llmr-validate -o json q.xml | llmq-encode --context - m'
	assert_output --partial '<context topicId="family-planning-2025" messageCount="9007199254740991">'
	assert_equal "$stderr" ""
	seedq 's|messageCount="12"|messageCount="9007199254740992"|'
	run -1 --separate-stderr llmr-validate -o json q.xml
	assert_output ""
	assert_equal "$stderr" 'q.xml:3:43: error: /llmQuery/context: messageCount "9007199254740992" is too large (at most 9007199254740991)'
	run -1 --separate-stderr llmr-validate -o json --errors=json q.xml
	assert_equal "$stderr" '{"file":"q.xml","line":3,"column":43,"severity":"error","rule":"message-count","message":"messageCount \"9007199254740992\" is too large (at most 9007199254740991)","path":"/llmQuery/context"}'
}

@test "/dev/zero is refused at its first byte, not read for ever" {
	run -1 --separate-stderr timeout 10 llmr-validate /dev/zero
	assert_output ""
	assert_equal "$stderr" "/dev/zero:1:1: error: not well-formed (NUL byte)"
	run -1 --separate-stderr timeout 10 llmr-validate -o json /dev/zero "$D/seed-response.xml"
	assert_output "$SEED_JSON"
	assert_equal "$stderr" "/dev/zero:1:1: error: not well-formed (NUL byte)"
	run -1 --separate-stderr timeout 10 llmr-validate --find -o json /dev/zero "$D/seed-response.xml"
	assert_output "$SEED_JSON"
	assert_equal "$stderr" "/dev/zero:1:1: error: NUL byte before any <llmResponse> or <llmQuery> element"
	run -1 --separate-stderr timeout 10 llmr-validate --find -t query </dev/zero
	assert_output ""
	assert_equal "$stderr" "<stdin>:1:1: error: NUL byte before any <llmQuery> element"
}

@test "an input ends at its first NUL byte: an error there, or after the document --find took" {
	run -0 --separate-stderr bash -c "{ echo 'Here:'; cat '$D/seed-response.xml'; cat /dev/zero; } | timeout 10 llmr-validate --find -o json"
	assert_output "$SEED_JSON"
	assert_equal "$stderr" ""
	run -1 --separate-stderr bash -c "{ cat '$D/seed-response.xml'; cat /dev/zero; } | timeout 10 llmr-validate -o json"
	assert_output ""
	assert_equal "$stderr" "<stdin>:13:1: error: text after the root element$HINT"
	{ printf 'Sure:\n\nab\0'; cat "$D/seed-response.xml"; } >nul.md
	run -1 --separate-stderr llmr-validate --errors=json --find nul.md
	assert_output ""
	assert_equal "$stderr" '{"file":"nul.md","line":3,"column":3,"severity":"error","rule":"not-found","message":"NUL byte before any <llmResponse> or <llmQuery> element"}'
}

# One house (issue 14)

@test "stdout to a full disk: stops at once, status 3, the next operand not read" {
	mkfifo fifo
	# a FIFO nobody writes to: reading it would hang until the timeout
	run -3 --separate-stderr timeout 10 sh -c 'llmr-validate -o json "$1" fifo >/dev/full' sh "$D/seed-response.xml"
	assert_output ""
	assert_equal "$stderr" "llmr-validate: <stdout>: No space left on device"
}

@test "an unreadable operand between two good ones: both read, status 3" {
	run -3 --separate-stderr llmr-validate -o json "$D/seed-response.xml" nope.xml "$D/seed-query.xml"
	assert_output "$SEED_JSON
$QUERY_JSON"
	assert_equal "$stderr" "llmr-validate: nope.xml: No such file or directory"
}

@test "a fenced answer is refused with the hint to use --find, which reads it" {
	{ printf '```xml\n'; cat "$D/seed-response.xml"; printf '```\n'; } >r.md
	run -1 --separate-stderr llmr-validate r.md
	assert_output ""
	assert_equal "$stderr" "r.md:1:1: error: text before the root element (use --find to read a document inside other text)"
	run -0 --separate-stderr llmr-validate --find -o json r.md
	assert_output "$SEED_JSON"
	assert_equal "$stderr" ""
}

@test "prose after the answer gets the hint too" {
	{ cat "$D/seed-response.xml"; printf 'Hope this helps!\n'; } >r.md
	run -1 --separate-stderr llmr-validate --errors=json r.md
	assert_equal "$stderr" '{"file":"r.md","line":13,"column":1,"severity":"error","rule":"outside-root","message":"text after the root element (use --find to read a document inside other text)"}'
}

@test "--feedback tells the model of text around its answer without the hint" {
	{ printf 'Sure!\n'; cat "$D/seed-response.xml"; } >r.md
	llmr-validate --feedback r.md >fb 2>err || status=$?
	assert_equal "$status" 1
	assert_equal "$(sed -n 2p fb)" "- 1:1: text before the root element"
	assert_equal "$(cat err)" "r.md:1:1: error: text before the root element"
}

@test "reports a bare & as toolcall-parse does, at the &" {
	seed 's|529 plans|529 plans \& more|'
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" 'r.xml:2:79: error: bare "&" (write &amp;)'
	run -1 --separate-stderr llmr-validate --errors=json r.xml
	assert_equal "$stderr" '{"file":"r.xml","line":2,"column":79,"severity":"error","rule":"bare-ampersand","message":"bare \"&\" (write &amp;)"}'
	seed 's|529 plans|529 plans \&amp; more|'
	run -0 --separate-stderr llmr-validate r.xml
}

@test "--errors=json gives the element as path and leaves it out of the message" {
	seed 's|isNew="true"|isNew="yes"|'
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" 'r.xml:4:115: error: /llmResponse/analysis/subject[1]: isNew "yes" is not "true" or "false"'
	run -1 --separate-stderr llmr-validate --errors=json r.xml
	assert_equal "$stderr" '{"file":"r.xml","line":4,"column":115,"severity":"error","rule":"is-new","message":"isNew \"yes\" is not \"true\" or \"false\"","path":"/llmResponse/analysis/subject[1]"}'
}

@test "positions count CR and CR LF line ends as expat does" {
	tr '\n' '\r' <"$D/seed-response.xml" | sed 's|isNew="true"|isNew="yes"|' >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" 'r.xml:4:115: error: /llmResponse/analysis/subject[1]: isNew "yes" is not "true" or "false"'
	sed 's|$|\r|' "$D/seed-response.xml" | sed 's|isNew="true"|isNew="yes"|' >r.xml
	run -1 --separate-stderr llmr-validate r.xml
	assert_equal "$stderr" 'r.xml:4:115: error: /llmResponse/analysis/subject[1]: isNew "yes" is not "true" or "false"'
}

@test "--lines reads a JSON string a line and reports each problem where its text is written" {
	run -1 --separate-stderr llmr-validate --lines "$TOP/examples/replies.jsonl"
	assert_output ""
	assert_equal "$stderr" "$TOP/examples/replies.jsonl:2:212: error: /llmResponse/analysis/subject[1]: isNew \"yes\" is not \"true\" or \"false\"
$TOP/examples/replies.jsonl:2:261: error: /llmResponse/analysis/subject[1]/keyword[1]: confidence \"1.4\" is outside 0.0-1.0"
}

@test "--lines places a problem past escapes, CR LF and a surrogate pair, and skips blank lines" {
	printf '%s\n' '"<llmResponse>\n<response>\u00e9 & B</response></llmResponse>"' '' \
	    '"<llmQuery>\r\n<x>\ud83d\ude00</llmQuery>"' >l.jsonl
	run -1 --separate-stderr llmr-validate --lines l.jsonl
	assert_output ""
	assert_equal "$stderr" 'l.jsonl:1:34: error: bare "&" (write &amp;)
l.jsonl:3:33: error: mismatched tag'
}

@test "-o report writes one record a line, valid or not, in the shape jsonresp-check writes" {
	printf '%s\n' '"<llmResponse>\n<response>\u00e9 & B</response></llmResponse>"' '' \
	    "$(jq -Rs . "$D/seed-response.xml")" >l.jsonl
	run -1 --separate-stderr llmr-validate -q --lines -o report l.jsonl
	assert_output '{"file":"l.jsonl","line":1,"valid":false,"status":1,"errors":[{"file":"l.jsonl","line":1,"column":34,"severity":"error","rule":"bare-ampersand","message":"bare \"&\" (write &amp;)"}]}
{"file":"l.jsonl","line":3,"valid":true,"status":0,"errors":[]}'
	assert_equal "$stderr" ""
}

@test "-o report of a file has no line, and -W's warnings are in its errors" {
	run -1 --separate-stderr llmr-validate -q -W -o report "$D/seed-response.xml" "$TOP/examples/bad-reply.xml"
	assert_equal "${lines[0]}" "{\"file\":\"$D/seed-response.xml\",\"valid\":true,\"status\":0,\"errors\":[]}"
	assert_equal "$(printf '%s\n' "${lines[1]}" | jq -c '[.file == "'"$TOP"'/examples/bad-reply.xml", .valid, .status, [.errors[] | "\(.line):\(.column):\(.severity)"]]')" \
	    '[true,false,1,["2:3:warning","4:5:warning","4:37:warning","4:90:error","5:32:error","6:16:warning","6:32:warning"]]'
	assert_equal "${#lines[@]}" 2
}

@test "a line that is not one JSON string is invalid, and says what it is" {
	printf '%s\n' '42' '{"reply":"<llmQuery/>"}' '"a" x' '[1' >l.jsonl
	run -1 --separate-stderr llmr-validate --lines l.jsonl
	assert_output ""
	assert_equal "$stderr" "l.jsonl:1:1: error: expected a JSON string that holds the text, found a number
l.jsonl:2:1: error: expected a JSON string that holds the text, found an object
l.jsonl:3:5: error: invalid JSON: text after the string
l.jsonl:4:3: error: invalid JSON: ']' expected near end of file"
	run -1 --separate-stderr llmr-validate -q --lines -o report l.jsonl
	assert_equal "${lines[0]}" '{"file":"l.jsonl","line":1,"valid":false,"status":1,"errors":[{"file":"l.jsonl","line":1,"column":1,"severity":"error","rule":"line-type","message":"expected a JSON string that holds the text, found a number"}]}'
	assert_equal "${lines[2]}" '{"file":"l.jsonl","line":3,"valid":false,"status":1,"errors":[{"file":"l.jsonl","line":3,"column":5,"severity":"error","rule":"json-syntax","message":"invalid JSON: text after the string"}]}'
	assert_equal "${#lines[@]}" 4
}

@test "--summary counts the documents: a sentence, or a JSON object with -o report" {
	run -1 --separate-stderr llmr-validate -q --lines --summary "$TOP/examples/replies.jsonl"
	assert_output "2 documents: 1 valid, 1 invalid"
	run -1 --separate-stderr llmr-validate -q --lines -o report --summary "$TOP/examples/replies.jsonl"
	assert_equal "${lines[2]}" '{"documents":2,"valid":1,"invalid":1}'
	run -0 --separate-stderr llmr-validate --summary "$D/seed-response.xml"
	assert_output "1 documents: 1 valid, 0 invalid"
}

@test "-o json and -o text go with --lines, a valid line each" {
	run -1 --separate-stderr llmr-validate -q --lines -o text "$TOP/examples/replies.jsonl"
	assert_output "$(llmr-validate -o text "$TOP/examples/reply.xml")"
}

@test "--feedback cannot go with --lines, -o junit, -o report or --summary" {
	for o in --lines '-o junit' '-o report' --summary; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr llmr-validate --feedback $o
		assert_output ""
		assert_equal "$stderr" "llmr-validate: --feedback cannot go with --lines, -o junit, -o report or --summary: it is for one document, and alone on standard output
$USAGE"
	done
}

# A NUL byte in --lines input, offsets in the input (issue 25)

# nul_resp TEXT: a --lines line that holds a valid response whose text
# is TEXT.
nul_resp() {
	printf '"<llmResponse><response>%s</response><analysis><subject name=\\"greeting\\" description=\\"A hello.\\" isNew=\\"true\\"><keyword term=\\"hello\\" confidence=\\"0.9\\"/></subject><summaryUpdate>Said hi.</summaryUpdate></analysis></llmResponse>"\n' "$1"
}

@test "--lines: a line with a NUL byte is refused and every line after it is read, with --summary and -o report" {
	{ nul_resp A; printf '"ab\0c"\n'; nul_resp B; nul_resp C; } >nul.jsonl
	run -1 --separate-stderr llmr-validate --lines --summary <nul.jsonl
	assert_output "4 documents: 3 valid, 1 invalid"
	assert_equal "$stderr" "<stdin>:2:4: error: invalid JSON: NUL byte"
	run -1 --separate-stderr llmr-validate --lines -o report --summary <nul.jsonl
	assert_output '{"file":"<stdin>","line":1,"valid":true,"status":0,"errors":[]}
{"file":"<stdin>","line":2,"valid":false,"status":1,"errors":[{"file":"<stdin>","line":2,"column":4,"severity":"error","rule":"json-syntax","message":"invalid JSON: NUL byte"}]}
{"file":"<stdin>","line":3,"valid":true,"status":0,"errors":[]}
{"file":"<stdin>","line":4,"valid":true,"status":0,"errors":[]}
{"documents":4,"valid":3,"invalid":1}'
	assert_equal "$stderr" "<stdin>:2:4: error: invalid JSON: NUL byte"
	run -1 --separate-stderr llmr-validate --lines -o text <nul.jsonl
	assert_output "A
B
C"
}

@test "--lines: a NUL at a line's start, at its end, in the string and out, two lines running and a last line without LF are each one error" {
	{
		nul_resp A
		printf '\0"<llmResponse/>"\n'
		printf '"<llmResponse/>"\0\n'
		printf '"<llmResponse/>" \0 x\n'
		printf '"<llm\0Response/>"\n'
		printf '\0\n\0\0"x"\n'
		nul_resp B
		printf '"a\0'
	} >l.jsonl
	run -1 --separate-stderr llmr-validate --lines -o text --summary l.jsonl
	assert_output "A
B
9 documents: 2 valid, 7 invalid"
	assert_equal "$stderr" "l.jsonl:2:1: error: invalid JSON: NUL byte
l.jsonl:3:17: error: invalid JSON: NUL byte
l.jsonl:4:18: error: invalid JSON: NUL byte
l.jsonl:5:6: error: invalid JSON: NUL byte
l.jsonl:6:1: error: invalid JSON: NUL byte
l.jsonl:7:1: error: invalid JSON: NUL byte
l.jsonl:9:3: error: invalid JSON: NUL byte"
	run -1 --separate-stderr llmr-validate -q --lines -o report l.jsonl
	assert_equal "$(printf '%s\n' "$output" | jq -c '[.line, .valid, [.errors[] | .column]]' | tr '\n' ' ')" \
	    '[1,true,[]] [2,false,[1]] [3,false,[17]] [4,false,[18]] [5,false,[6]] [6,false,[1]] [7,false,[1]] [8,true,[]] [9,false,[3]] '
}

@test "--lines: a NUL line longer than 64 KiB is refused at its NUL, and the line after it is read" {
	{
		printf '"'
		head -c 70000 /dev/zero | tr '\0' x
		printf '\0'
		head -c 35000 /dev/zero
		printf '"z\\'
		head -c 35000 /dev/zero | tr '\0' y
		printf '"\n'
		nul_resp A
	} >long.jsonl
	run -1 --separate-stderr llmr-validate --lines -o text long.jsonl
	assert_output "A"
	assert_equal "$stderr" "long.jsonl:1:70002: error: invalid JSON: NUL byte"
}

@test "--lines: a line of 100 MB of NUL bytes is skipped in little memory, and the line after it read" {
	nul_resp A >a.jsonl
	read -r st kb < <(peak sh -c '{ head -c 100M /dev/zero; echo; cat a.jsonl; } | llmr-validate --lines -o text')
	assert_equal "$st" 1
	assert_equal "$(cat out)" "A"
	assert_equal "$(cat err)" "<stdin>:1:1: error: invalid JSON: NUL byte"
	(( kb < 60000 )) || fail "peak memory $kb KiB for a NUL line of 100 MB"
}

@test "--lines /dev/zero: line 1 is refused at once, and its endless rest read on in constant memory" {
	run -124 --separate-stderr timeout 1 llmr-validate --lines -o report /dev/zero
	assert_output '{"file":"/dev/zero","line":1,"valid":false,"status":1,"errors":[{"file":"/dev/zero","line":1,"column":1,"severity":"error","rule":"json-syntax","message":"invalid JSON: NUL byte"}]}'
	assert_equal "$stderr" "/dev/zero:1:1: error: invalid JSON: NUL byte"
}

@test "invalid UTF-8 is named by its offset in the input, in a file and with --lines alike" {
	printf '<llmResponse>\n<response>\377' >u.xml
	run -1 --separate-stderr llmr-validate u.xml
	assert_equal "$stderr" "u.xml:2:11: error: invalid UTF-8: byte 0xff at byte offset 24"
	printf '"<llmResponse/>"\n"<llmResponse>\\n<response>\377"\n' >u.jsonl
	run -1 --separate-stderr llmr-validate -q --lines -o report u.jsonl
	assert_equal "${lines[1]}" '{"file":"u.jsonl","line":2,"valid":false,"status":1,"errors":[{"file":"u.jsonl","line":2,"column":27,"severity":"error","rule":"utf8","message":"invalid UTF-8: byte 0xff at byte offset 43"}]}'
	# a byte order mark counts, on line 1 of a file as of --lines
	run -1 --separate-stderr llmr-validate < <(printf '\357\273\277<llmResponse>\n<response>\377')
	assert_equal "$stderr" "<stdin>:2:11: error: invalid UTF-8: byte 0xff at byte offset 27"
	run -1 --separate-stderr llmr-validate --lines < <(printf '\357\273\277"\377"\n"\300\200"\n')
	assert_equal "$stderr" "<stdin>:1:2: error: invalid UTF-8: byte 0xff at byte offset 4
<stdin>:2:2: error: invalid UTF-8: byte 0xc0 at byte offset 8"
}
