#!/usr/bin/env bats
# llmq-encode as a user drives it: every option, the seed's example byte
# for byte, escaping, the message from operands and standard input, lists,
# counts, --context with its overrides, --from-json batches, every
# diagnostic with its exit status, the contract's limits at and past each
# maximum, well-formed output (xmllint, xmlwf) and write errors.

load helper

bats_require_minimum_version 1.5.0

D="$DATA/llmq-encode"
USAGE='usage: llmq-encode [-hu] [-t TOPIC] [-n COUNT] [-s SUBJECT] [-k KEYWORD]
                   [--subjects LIST] [--keywords LIST] [--context FILE]
                   [--errors=github|json|text] [MESSAGE ...]
       llmq-encode --from-json [-hu] [--errors=github|json|text] [FILE ...]'
STATUSES='exit status: 0 written, 1 invalid input, 2 usage, 3 trouble'

# doc MESSAGE TOPIC COUNT SUBJECTS KEYWORDS: the document in the seed's
# layout, the arguments already escaped, with its final newline.
doc() {
	printf '<llmQuery>\n  <userMessage>%s</userMessage>\n' "$1"
	printf '  <context topicId="%s" messageCount="%s">\n' "$2" "$3"
	printf '    <activeSubjects>%s</activeSubjects>\n' "$4"
	printf '    <recentKeywords>%s</recentKeywords>\n' "$5"
	printf '  </context>\n</llmQuery>\n'
}

# line MESSAGE TOPIC COUNT SUBJECTS KEYWORDS: the same on one line.
line() {
	printf '<llmQuery><userMessage>%s</userMessage>' "$1"
	printf '<context topicId="%s" messageCount="%s">' "$2" "$3"
	printf '<activeSubjects>%s</activeSubjects>' "$4"
	printf '<recentKeywords>%s</recentKeywords>' "$5"
	printf '</context></llmQuery>\n'
}

# repeat N TEXT: TEXT N times, no newline. One expansion, not a loop:
# bats traces every command a test runs, which makes a loop slow.
repeat() {
	local s
	printf -v s '%*s' "$1" ''
	printf '%s' "${s// /"$2"}"
}

# items N PREFIX SEP: PREFIX1 SEP PREFIX2 ... PREFIXN.
items() {
	local i
	for ((i = 1; i <= $1; i++)); do
		((i > 1)) && printf '%s' "$3"
		printf '%s%d' "$2" "$i"
	done
}

# well_formed FILE: xmllint and xmlwf both accept FILE.
well_formed() {
	xmllint --noout "$1" || fail "xmllint refuses $1"
	run -0 xmlwf "$1"
	assert_output ""
}

# ---------------------------------------------------------------- options

@test "-h prints the usage, what each option does and the exit statuses on stdout and exits 0" {
	run -0 --separate-stderr llmq-encode -h
	assert_output "$USAGE

$(help_of llmq-encode)

$STATUSES"
	assert_equal "$stderr" ""
}

@test "--help is the same as -h" {
	run -0 --separate-stderr llmq-encode --help
	assert_output "$USAGE

$(help_of llmq-encode)

$STATUSES"
	assert_equal "$stderr" ""
}

@test "--version prints the tool, llmkit and the version" {
	run -0 --separate-stderr llmq-encode --version
	assert_output "llmq-encode (llmkit) 0.1.0"
	assert_equal "$stderr" ""
}

@test "an unknown short option is a usage error" {
	run -2 --separate-stderr llmq-encode -x -t t m
	assert_output ""
	assert_equal "$stderr" "llmq-encode: invalid option -- 'x'
$USAGE"
}

@test "an unknown long option is a usage error" {
	run -2 --separate-stderr llmq-encode --pretty -t t m
	assert_output ""
	assert_equal "$stderr" "llmq-encode: unrecognized option '--pretty'
$USAGE"
}

@test "-t without its argument is a usage error" {
	run -2 --separate-stderr llmq-encode -t
	assert_output ""
	assert_equal "$stderr" "llmq-encode: option requires an argument -- 't'
$USAGE"
}

@test "--context without its argument is a usage error" {
	run -2 --separate-stderr llmq-encode --context
	assert_output ""
	assert_equal "$stderr" "llmq-encode: option '--context' requires an argument
$USAGE"
}

@test "a usage error wins over bad option values: nothing else is reported" {
	run -2 --separate-stderr llmq-encode -s '' -n x --bogus m
	assert_output ""
	assert_equal "$stderr" "llmq-encode: unrecognized option '--bogus'
$USAGE"
}

@test "--errors with a value other than json or text is a usage error" {
	run -2 --separate-stderr llmq-encode --errors=xml -t t m
	assert_output ""
	assert_equal "$stderr" "llmq-encode: --errors must be github, json or text, not \"xml\"
$USAGE"
}

@test "--from-json with an option that gives part of a query is a usage error" {
	for opt in '-t x' '-n 1' '-s x' '-k x' '--subjects=x' '--keywords=x' '--context=c.json'; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr llmq-encode --from-json $opt </dev/null
		assert_output ""
		assert_equal "$stderr" "llmq-encode: --from-json takes the whole query from its input: no -t, -n, -s, -k, --subjects, --keywords or --context
$USAGE"
	done
}

@test "--context - with the message on standard input is a usage error" {
	run -2 --separate-stderr llmq-encode --context - <"$D/context.json"
	assert_output ""
	assert_equal "$stderr" "llmq-encode: --context - reads standard input: give the message as operands
$USAGE"
}

# ------------------------------------------------------------ the document

@test "the seed's example, byte for byte, with a final newline" {
	llmq-encode -t family-planning-2025 -n 12 -s 'family planning' -s 'education costs' -k children -k university -k tuition -k savings 'How much should we save for college?' >out
	cmp out "$D/seed.xml"
	well_formed out
}

@test "the long options give the same document" {
	llmq-encode --topic=family-planning-2025 --count=12 --subject='family planning' --subject 'education costs' --keyword=children --keyword university --keyword tuition --keyword savings 'How much should we save for college?' >out
	cmp out "$D/seed.xml"
}

@test "--subjects and --keywords split on commas and trim the items" {
	llmq-encode -t family-planning-2025 -n 12 --subjects 'family planning,education costs' --keywords ' children , university,tuition,	savings ' 'How much should we save for college?' >out
	cmp out "$D/seed.xml"
}

@test "-s and --subjects add up in command-line order" {
	llmq-encode -t t -s a --subjects 'b, c' -s d --keywords x -k y --keywords 'z' m >out
	doc m t 0 'a, b, c, d' 'x, y, z' | cmp - out
}

@test "without lists or a count: both list elements empty, the count 0" {
	run -0 --separate-stderr llmq-encode -t demo 'What is 2+2?'
	assert_output "$(doc 'What is 2+2?' demo 0 '' '')"
	assert_equal "$stderr" ""
}

@test "all five special characters are escaped in the message, the topic and the items" {
	llmq-encode -t "t&<>\"'" -s "s&<>\"'" -k "k&<>\"'" "m&<>\"'" >out
	doc 'm&amp;&lt;&gt;&quot;&apos;' 't&amp;&lt;&gt;&quot;&apos;' 0 's&amp;&lt;&gt;&quot;&apos;' 'k&amp;&lt;&gt;&quot;&apos;' | cmp - out
	well_formed out
}

@test "entities in the input are escaped again, not passed through" {
	llmq-encode -t '&amp;' '&lt;tag&gt; &#10;' >out
	doc '&amp;lt;tag&amp;gt; &amp;#10;' '&amp;amp;' 0 '' '' | cmp - out
}

@test "non-ASCII and astral characters are written as they are" {
	llmq-encode -t 'caf'$'\u00e9' -s $'\u5b66\u8d39' -k $'\U0001F393' 'Save for '$'\U0001F600'' and '$'\u00e9''tudes?' >out
	doc 'Save for '$'\U0001F600'' and '$'\u00e9''tudes?' 'caf'$'\u00e9' 0 $'\u5b66\u8d39' $'\U0001F393' | cmp - out
	well_formed out
}

@test "the message's own newlines, tabs and spaces are kept" {
	llmq-encode -t t $'  two\n\nlines\tand  spaces  ' >out
	doc $'  two\n\nlines\tand  spaces  ' t 0 '' '' | cmp - out
	well_formed out
}

@test "a carriage return in the message is written as &#13;" {
	llmq-encode -t t $'a\r\nb\rc' >out
	doc $'a&#13;\nb&#13;c' t 0 '' '' | cmp - out
}

@test "tab, newline and carriage return in the topic are written as references" {
	llmq-encode -t $'a\tb\nc\rd' m >out
	doc m 'a&#9;b&#10;c&#13;d' 0 '' '' | cmp - out
	well_formed out
}

@test "xmllint reads back the message, topic and items that went in" {
	msg=$'<a href="x">&amp;</a>\r\n\ttab \'q\' \U0001F600'
	llmq-encode -t $'t\t"x"\ny' -s 's&1' -k 'k<2' "$msg" >out
	run -0 xmllint --xpath 'string(/llmQuery/userMessage)' out
	assert_output "$msg"
	run -0 xmllint --xpath 'string(/llmQuery/context/@topicId)' out
	assert_output $'t\t"x"\ny'
	run -0 xmllint --xpath 'string(//activeSubjects)' out
	assert_output 's&1'
	run -0 xmllint --xpath 'string(//recentKeywords)' out
	assert_output 'k<2'
}

@test "a topic is written as given, not trimmed" {
	llmq-encode -t ' t ' m >out
	doc m ' t ' 0 '' '' | cmp - out
}

@test "the count may have leading zeros and goes up to 2^53 - 1" {
	llmq-encode -t t -n 007 m >out
	doc m t 7 '' '' | cmp - out
	llmq-encode -t t -n 9007199254740991 m >out
	doc m t 9007199254740991 '' '' | cmp - out
}

@test "the last -t and the last -n count" {
	llmq-encode -t a -t b -n 1 -n 2 m >out
	doc m b 2 '' '' | cmp - out
}

# ---------------------------------------------------------- the message

@test "the operands are joined by single spaces" {
	llmq-encode -t t How much  'should  we' save? >out
	doc 'How much should  we save?' t 0 '' '' | cmp - out
}

@test "-- lets a message start with a dash" {
	llmq-encode -t t -- -5 degrees >out
	doc '-5 degrees' t 0 '' '' | cmp - out
}

@test "standard input is the message when there are no operands, one final newline removed" {
	echo 'How much should we save for college?' | llmq-encode -t family-planning-2025 -n 12 -s 'family planning' -s 'education costs' --keywords children,university,tuition,savings >out
	cmp out "$D/seed.xml"
}

@test "the operand - alone reads standard input" {
	printf 'from stdin' | llmq-encode -t t - >out
	doc 'from stdin' t 0 '' '' | cmp - out
}

@test "- among other operands is a word of the message" {
	llmq-encode -t t a - b </dev/null >out
	doc 'a - b' t 0 '' '' | cmp - out
}

@test "standard input without a final newline is taken whole" {
	printf 'no newline' | llmq-encode -t t >out
	doc 'no newline' t 0 '' '' | cmp - out
}

@test "only one final newline is removed" {
	printf 'two\n\n' | llmq-encode -t t >out
	doc $'two\n' t 0 '' '' | cmp - out
}

@test "a final CR LF is one newline, removed whole" {
	printf 'dos\r\n' | llmq-encode -t t >out
	doc 'dos' t 0 '' '' | cmp - out
	printf 'dos\r\n\r\n' | llmq-encode -t t >out
	doc $'dos&#13;\n' t 0 '' '' | cmp - out
}

@test "a byte order mark at the start of standard input is skipped" {
	printf '\357\273\277with BOM\n' | llmq-encode -t t >out
	doc 'with BOM' t 0 '' '' | cmp - out
}

@test "standard input is otherwise kept exactly: leading space and inner lines" {
	printf '  first\n\n  third  \n' | llmq-encode -t t >out
	doc $'  first\n\n  third  ' t 0 '' '' | cmp - out
}

# --------------------------------------------------------------- errors

@test "an empty message is an error" {
	run -1 --separate-stderr llmq-encode -t t ''
	assert_output ""
	assert_equal "$stderr" "llmq-encode: the message is empty"
}

@test "a message of white space only is an error, Unicode white space included" {
	run -1 --separate-stderr llmq-encode -t t $' \t\n\u00a0\u3000'
	assert_output ""
	assert_equal "$stderr" "llmq-encode: the message is white space only"
}

@test "an empty standard input is an empty message" {
	run -1 --separate-stderr llmq-encode -t t </dev/null
	assert_output ""
	assert_equal "$stderr" "<stdin>:1:1: error: the message is empty"
}

@test "a lone newline on standard input is an empty message" {
	run -1 --separate-stderr llmq-encode -t t <<<''
	assert_output ""
	assert_equal "$stderr" "<stdin>:1:1: error: the message is empty"
}

@test "white space only on standard input is an error" {
	run -1 --separate-stderr llmq-encode -t t < <(printf ' \n\t\n')
	assert_output ""
	assert_equal "$stderr" "<stdin>:1:1: error: the message is white space only"
}

@test "no topic is an error" {
	run -1 --separate-stderr llmq-encode m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: no topic: give -t TOPIC, or a "topicId" in the --context file'
}

@test "an empty topic is an error" {
	run -1 --separate-stderr llmq-encode -t '' m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: -t "" is empty'
}

@test "a topic of white space only is an error" {
	run -1 --separate-stderr llmq-encode -t $' \t' m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: -t " \t" is white space only'
}

@test "an empty -s is an error" {
	run -1 --separate-stderr llmq-encode -t t -s '' m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: -s "" is empty'
}

@test "a -k of white space only is an error" {
	run -1 --separate-stderr llmq-encode -t t -k '  ' m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: -k "  " is white space only'
}

@test "a -s with a comma is an error" {
	run -1 --separate-stderr llmq-encode -t t -s 'family planning, education' m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: -s "family planning, education" contains a comma'
}

@test "a -k with a comma is an error" {
	run -1 --separate-stderr llmq-encode -t t -k '529,plan' m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: -k "529,plan" contains a comma'
}

@test "an empty item in --subjects is an error, counted from 1" {
	run -1 --separate-stderr llmq-encode -t t --subjects 'a,,b' m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: item 2 of --subjects "a,,b" is empty'
}

@test "a trailing comma in --keywords is an empty item" {
	run -1 --separate-stderr llmq-encode -t t --keywords 'a, b, ' m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: item 3 of --keywords "a, b, " is empty'
}

@test "an empty --subjects sets no subjects" {
	llmq-encode -t t --subjects '' --keywords ' ' m >out
	doc m t 0 '' '' | cmp - out
}

@test "a count that is not a non-negative decimal integer is an error" {
	for n in abc +1 -1 ' 1' '1 ' '' 1e3 1.0 0x10 12abc; do
		run -1 --separate-stderr llmq-encode -t t -n "$n" m
		assert_output ""
		assert_equal "$stderr" "llmq-encode: -n \"$n\" is not a non-negative integer"
	done
}

@test "a count over 2^53 - 1 is an error, overflow included" {
	for n in 9007199254740992 18446744073709551615 18446744073709551616 99999999999999999999999; do
		run -1 --separate-stderr llmq-encode -t t -n "$n" m
		assert_output ""
		assert_equal "$stderr" "llmq-encode: -n \"$n\" is more than 9007199254740991"
	done
}

@test "every problem is reported, one line each, and nothing is written" {
	run -1 --separate-stderr llmq-encode -n 1e3 -s 'a, b' -k '' ''
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: -n "1e3" is not a non-negative integer
llmq-encode: -s "a, b" contains a comma
llmq-encode: -k "" is empty
llmq-encode: the message is empty
llmq-encode: no topic: give -t TOPIC, or a "topicId" in the --context file'
}

# --------------------------------------------------------------- limits

@test "a message of 10000 characters (2 bytes each) is accepted" {
	msg=$(repeat 10000 $'\u00e9')
	llmq-encode -t t "$msg" >out
	doc "$msg" t 0 '' '' | cmp - out
}

@test "a message of 10000 astral characters (4 bytes each) is accepted" {
	msg=$(repeat 10000 $'\U0001F600')
	printf '%s' "$msg" | llmq-encode -t t >out
	doc "$msg" t 0 '' '' | cmp - out
}

@test "a message of 10001 characters is an error" {
	run -1 --separate-stderr llmq-encode -t t "$(repeat 10001 $'\u00e9')"
	assert_output ""
	assert_equal "$stderr" "llmq-encode: the message is 10001 characters long, more than 10000"
}

@test "a message of 10001 characters on standard input is reported at the first one too many" {
	{ printf 'ab\n'; repeat 9998 $'\U0001F600'; } >in.txt
	run -1 --separate-stderr llmq-encode -t t <in.txt
	assert_output ""
	assert_equal "$stderr" "<stdin>:2:9998: error: the message is 10001 characters long, more than 10000"
}

@test "10000 characters and the final newline that is removed are accepted" {
	{ repeat 10000 x; echo; } | llmq-encode -t t >out
	doc "$(repeat 10000 x)" t 0 '' '' | cmp - out
}

@test "20 subjects are accepted, from -s and --subjects together" {
	args=()
	for i in $(seq 1 10); do args+=(-s "s$i"); done
	llmq-encode -t t "${args[@]}" --subjects "$(items 10 s ',' | sed 's/s\([0-9]*\)/t\1/g')" m >out
	doc m t 0 "$(items 10 s ', '), $(items 10 t ', ')" '' | cmp - out
}

@test "21 subjects are an error" {
	run -1 --separate-stderr llmq-encode -t t --subjects "$(items 20 s ,)" -s s21 m
	assert_output ""
	assert_equal "$stderr" "llmq-encode: too many subjects: 21, at most 20"
}

@test "50 keywords are accepted" {
	llmq-encode -t t --keywords "$(items 50 k ,)" m >out
	doc m t 0 '' "$(items 50 k ', ')" | cmp - out
}

@test "51 keywords are an error" {
	args=()
	for i in $(seq 1 51); do args+=(-k "k$i"); done
	run -1 --separate-stderr llmq-encode -t t "${args[@]}" m
	assert_output ""
	assert_equal "$stderr" "llmq-encode: too many keywords: 51, at most 50"
}

# ---------------------------------------------------------------- text

@test "invalid UTF-8 on standard input is reported with its line, column and byte offset" {
	printf 'line one\nli\377ne\n' >in.txt
	run -1 --separate-stderr llmq-encode -t t <in.txt
	assert_output ""
	assert_equal "$stderr" "<stdin>:2:3: error: invalid UTF-8: byte 0xff at byte offset 11"
}

@test "invalid UTF-8 after a byte order mark: the mark takes no column but counts in the offset" {
	printf '\357\273\277ab\300\257' >in.txt
	run -1 --separate-stderr llmq-encode -t t <in.txt
	assert_equal "$stderr" "<stdin>:1:3: error: invalid UTF-8: byte 0xc0 at byte offset 5"
}

@test "invalid UTF-8 in an operand names the argument" {
	run -1 --separate-stderr llmq-encode -t t 'fine' "$(printf 'b\355\240\200d')"
	assert_output ""
	assert_equal "$stderr" "llmq-encode: the message (argument 4) is not valid UTF-8: byte 0xed at byte offset 1"
}

@test "invalid UTF-8 in -t names the argument" {
	run -1 --separate-stderr llmq-encode -t "$(printf 't\377')" m
	assert_output ""
	assert_equal "$stderr" "llmq-encode: -t (argument 2) is not valid UTF-8: byte 0xff at byte offset 1"
}

@test "invalid UTF-8 in -s and --keywords names each argument, attached values too" {
	run -1 --separate-stderr llmq-encode -t t -s"$(printf '\377')" --keywords="$(printf 'a,\376')" m
	assert_output ""
	assert_equal "$stderr" "llmq-encode: -s (argument 3) is not valid UTF-8: byte 0xff at byte offset 0
llmq-encode: --keywords (argument 4) is not valid UTF-8: byte 0xfe at byte offset 2"
}

@test "a control character on standard input is an error at its place" {
	printf 'ok\n\033[1mbold' >in.txt
	run -1 --separate-stderr llmq-encode -t t <in.txt
	assert_output ""
	assert_equal "$stderr" "<stdin>:2:1: error: the message holds U+001B, a character XML 1.0 forbids"
}

@test "U+FFFE and U+FFFF are errors too" {
	run -1 --separate-stderr llmq-encode -t t $'a\uFFFE'
	assert_equal "$stderr" "llmq-encode: the message (argument 3) holds U+FFFE, a character XML 1.0 forbids"
	printf 'x\357\277\277' >in.txt
	run -1 --separate-stderr llmq-encode -t t <in.txt
	assert_output ""
	assert_equal "$stderr" "<stdin>:1:2: error: the message holds U+FFFF, a character XML 1.0 forbids"
}

@test "a control character in the topic or an item is an error, the value quoted; the options first, then the topic" {
	run -1 --separate-stderr llmq-encode -t $'a\x01' -s $'b\x7f\x08' m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: -s "b\u007f\b" holds U+0008, a character XML 1.0 forbids
llmq-encode: -t "a\u0001" holds U+0001, a character XML 1.0 forbids'
}

@test "a long value is quoted cut short" {
	run -1 --separate-stderr llmq-encode -t t -s "$(repeat 30 'abc,')" m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: -s "abc,abc,abc,abc,abc,abc,abc,abc,abc,abc,abc,abc,abc,abc,abc,abc,abc,abc,ab..." contains a comma'
}

@test "--errors=json writes problems of standard input as JSON lines" {
	run -1 --separate-stderr llmq-encode --errors=json -t t </dev/null
	assert_output ""
	assert_equal "$stderr" '{"file":"<stdin>","line":1,"column":1,"severity":"error","rule":"empty-message","message":"the message is empty"}'
}

@test "--errors=text is the default form, and the last --errors counts" {
	run -1 --separate-stderr llmq-encode --errors=json --errors=text -t t </dev/null
	assert_output ""
	assert_equal "$stderr" "<stdin>:1:1: error: the message is empty"
}

@test "--errors=json leaves messages about the command line in text" {
	run -1 --separate-stderr llmq-encode --errors=json -s '' m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: -s "" is empty
llmq-encode: no topic: give -t TOPIC, or a "topicId" in the --context file'
}

# -------------------------------------------------------------- --context

@test "--context gives the topic, count and lists" {
	llmq-encode --context "$D/context.json" 'How much should we save for college?' >out
	cmp out "$D/seed.xml"
}

@test "the options override the context member by member" {
	llmq-encode --context "$D/context.json" -t other -n 13 -s new --keywords 'x, y' m >out
	doc m other 13 new 'x, y' | cmp - out
	llmq-encode --context "$D/context.json" -k only m >out
	doc m family-planning-2025 12 'family planning, education costs' only | cmp - out
}

@test "an empty --subjects empties the context's subjects" {
	llmq-encode --context "$D/context.json" --subjects '' m >out
	doc m family-planning-2025 12 '' 'children, university, tuition, savings' | cmp - out
}

@test "every member of the context is optional; unknown members are ignored" {
	printf '{"messageCount": 4, "summary": {"v": 2}, "x": null}' >ctx.json
	llmq-encode --context ctx.json -t t m >out
	doc m t 4 '' '' | cmp - out
	printf '{}' >ctx.json
	llmq-encode --context ctx.json -t t m >out
	doc m t 0 '' '' | cmp - out
}

@test "a context count in any JSON notation of an integer is accepted" {
	for n in 12 12.0 1.2e1 120e-1; do
		printf '{"topicId": "t", "messageCount": %s}' "$n" >ctx.json
		llmq-encode --context ctx.json m >out
		doc m t 12 '' '' | cmp - out
	done
	printf '{"topicId": "t", "messageCount": -0}' >ctx.json
	llmq-encode --context ctx.json m >out
	doc m t 0 '' '' | cmp - out
}

@test "context items are trimmed and escaped" {
	printf '{"topicId": "a&b", "activeSubjects": [" x<y ", "\\u00a0z"]}' >ctx.json
	llmq-encode --context ctx.json m >out
	doc m 'a&amp;b' 0 'x&lt;y, z' '' | cmp - out
}

@test "a context with a byte order mark and white space around it is read" {
	printf '\357\273\277\n  {"topicId": "t"}\n\n' >ctx.json
	llmq-encode --context ctx.json m >out
	doc m t 0 '' '' | cmp - out
}

@test "the last --context counts" {
	printf '{"topicId": "first"}' >a.json
	printf '{"topicId": "second"}' >b.json
	llmq-encode --context a.json --context b.json m >out
	doc m second 0 '' '' | cmp - out
}

@test "--context - reads the context from standard input" {
	llmq-encode --context - 'How much should we save for college?' <"$D/context.json" >out
	cmp out "$D/seed.xml"
}

@test "a context without a topicId and no -t: no topic" {
	printf '{"messageCount": 1}' >ctx.json
	run -1 --separate-stderr llmq-encode --context ctx.json m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: no topic: give -t TOPIC, or a "topicId" in the --context file'
}

@test "context errors are reported at their values" {
	cat >ctx.json <<-'EOF'
	{"topicId": 5,
	 "messageCount": 1.5,
	 "activeSubjects": ["a", "", " ", "b,c", 3, "\u0007"],
	 "recentKeywords": {}}
	EOF
	run -1 --separate-stderr llmq-encode --context ctx.json m
	assert_output ""
	assert_equal "$stderr" 'ctx.json:1:13: error: "topicId" must be a string, found a number
ctx.json:2:18: error: "messageCount" 1.5 is not a non-negative integer
ctx.json:3:26: error: "activeSubjects" item at index 1 is empty
ctx.json:3:30: error: "activeSubjects" item at index 2 is white space only
ctx.json:3:35: error: "activeSubjects" item at index 3 contains a comma
ctx.json:3:42: error: "activeSubjects" item at index 4 must be a string, found a number
ctx.json:3:45: error: "activeSubjects" item at index 5 holds U+0007, a character XML 1.0 forbids
ctx.json:4:20: error: "recentKeywords" must be an array, found an object'
}

@test "context errors with --errors=json carry the rule and the JSON Pointer" {
	printf '{"topicId": "", "messageCount": -2, "recentKeywords": ["a", null]}' >ctx.json
	run -1 --separate-stderr llmq-encode --errors=json --context ctx.json -t t m
	assert_output ""
	assert_equal "$stderr" '{"file":"ctx.json","line":1,"column":33,"severity":"error","rule":"bad-count","message":"\"messageCount\" -2 is not a non-negative integer","path":"/messageCount"}
{"file":"ctx.json","line":1,"column":61,"severity":"error","rule":"field-type","message":"\"recentKeywords\" item at index 1 must be a string, found null","path":"/recentKeywords/1"}
{"file":"ctx.json","line":1,"column":13,"severity":"error","rule":"empty-topic","message":"\"topicId\" is empty","path":"/topicId"}'
}

@test "the context is checked in full, even where options override it" {
	printf '{"topicId": " ", "messageCount": 9007199254740992, "activeSubjects": [%s]}' "$(items 21 '"s' '", ' | sed 's/$/"/')" >ctx.json
	run -1 --separate-stderr llmq-encode --context ctx.json -t t -n 1 -s s m
	assert_output ""
	assert_equal "$stderr" 'ctx.json:1:34: error: "messageCount" 9007199254740992 is more than 9007199254740991
ctx.json:1:13: error: "topicId" is white space only
ctx.json:1:70: error: too many subjects in "activeSubjects": 21, at most 20'
}

@test "a context of 51 keywords is an error; 50 are accepted" {
	printf '{"topicId": "t", "recentKeywords": [%s]}' "$(items 50 '"k' '", ' | sed 's/$/"/')" >ctx.json
	llmq-encode --context ctx.json m >out
	doc m t 0 '' "$(items 50 k ', ')" | cmp - out
	printf '{"topicId": "t", "recentKeywords": [%s]}' "$(items 51 '"k' '", ' | sed 's/$/"/')" >ctx.json
	run -1 --separate-stderr llmq-encode --context ctx.json m
	assert_output ""
	assert_equal "$stderr" 'ctx.json:1:36: error: too many keywords in "recentKeywords": 51, at most 50'
}

@test "a context that is not an object is an error" {
	printf '["t"]' >ctx.json
	run -1 --separate-stderr llmq-encode --context ctx.json -t t m
	assert_output ""
	assert_equal "$stderr" "ctx.json:1:1: error: expected an object, found an array"
}

@test "a context that is not JSON is an error at the token" {
	printf '{"topicId": "t",\n "messageCount": 1,}' >ctx.json
	run -1 --separate-stderr llmq-encode --context ctx.json m
	assert_output ""
	assert_equal "$stderr" "ctx.json:2:20: error: invalid JSON: string or '}' expected near '}'"
}

@test "text after the context object is an error" {
	printf '{"topicId": "t"}\n{"topicId": "u"}\n' >ctx.json
	run -1 --separate-stderr llmq-encode --context ctx.json m
	assert_output ""
	assert_equal "$stderr" "ctx.json:2:1: error: invalid JSON: text after the context object"
}

@test "an empty context file is an error" {
	: >ctx.json
	run -1 --separate-stderr llmq-encode --context ctx.json -t t m
	assert_output ""
	assert_equal "$stderr" "ctx.json:1:1: error: invalid JSON: unexpected token near end of file"
}

@test "invalid UTF-8 in the context is reported at its byte" {
	printf '{"topicId":\n "a\377"}' >ctx.json
	run -1 --separate-stderr llmq-encode --context ctx.json m
	assert_output ""
	assert_equal "$stderr" "ctx.json:2:4: error: invalid UTF-8: byte 0xff at byte offset 15"
}

@test "a missing context file is trouble: status 3" {
	run -3 --separate-stderr llmq-encode --context no-such.json -t t m
	assert_output ""
	assert_equal "$stderr" "llmq-encode: no-such.json: No such file or directory"
}

@test "a context directory is trouble: status 3, and other problems are still reported" {
	mkdir ctx
	run -3 --separate-stderr llmq-encode --context ctx -t t ''
	assert_output ""
	assert_equal "$stderr" "llmq-encode: the message is empty
llmq-encode: ctx: Is a directory"
}

# ------------------------------------------------------------ --from-json

@test "--from-json writes one line per good line and reports the bad ones" {
	cp "$D/batch.jsonl" .
	run -1 --separate-stderr llmq-encode --from-json batch.jsonl
	assert_output "$(cat "$D/batch.xml")"
	assert_equal "$stderr" "$(cat "$D/batch.err")"
}

@test "--from-json output is exact, line by line, each well-formed" {
	llmq-encode --from-json "$D/batch.jsonl" >out 2>/dev/null || true
	cmp out "$D/batch.xml"
	run -0 awk 'END { print NR }' out
	assert_output 3
	while IFS= read -r l; do
		printf '%s\n' "$l" >one.xml
		well_formed one.xml
	done <out
}

@test "--from-json writes the seed's query on one line" {
	head -n 1 "$D/batch.jsonl" | llmq-encode --from-json >out
	line 'How much should we save for college?' family-planning-2025 12 'family planning, education costs' 'children, university, tuition, savings' | cmp - out
	tr -d '\n' <"$D/seed.xml" | sed 's/>  *</></g' | cat - <(echo) | cmp - out
}

@test "--from-json writes tab, newline and carriage return as references" {
	printf '%s\n' '{"userMessage": "a\tb\nc\r\nd", "context": {"topicId": "t\n", "activeSubjects": ["x\ty"]}}' | llmq-encode --from-json >out
	line 'a&#9;b&#10;c&#13;&#10;d' 't&#10;' 0 'x&#9;y' '' | cmp - out
	run -1 grep -c $'\t' out
	assert_output 0
}

@test "--from-json keeps the message exactly, final newline included" {
	printf '%s\n' '{"userMessage": "  m\n", "context": {"topicId": "t"}}' | llmq-encode --from-json >out
	line '  m&#10;' t 0 '' '' | cmp - out
}

@test "--from-json reads standard input, - and several files in turn" {
	printf '%s\n' '{"userMessage": "1", "context": {"topicId": "t"}}' >a.jsonl
	printf '%s\n' '{"userMessage": "2", "context": {"topicId": "t"}}' >b.jsonl
	llmq-encode --from-json a.jsonl - b.jsonl <a.jsonl >out
	{ line 1 t 0 '' ''; line 1 t 0 '' ''; line 2 t 0 '' ''; } | cmp - out
	llmq-encode --from-json <b.jsonl >out
	line 2 t 0 '' '' | cmp - out
}

@test "--from-json skips blank lines and reads a last line without a newline" {
	printf '\n  \n{"userMessage": "m", "context": {"topicId": "t"}}\r\n\n{"userMessage": "n", "context": {"topicId": "t"}}' >in.jsonl
	run -0 --separate-stderr llmq-encode --from-json in.jsonl
	assert_output "$(line m t 0 '' ''; line n t 0 '' '')"
	assert_equal "$stderr" ""
}

@test "--from-json skips a byte order mark at the start of a file" {
	printf '\357\273\277{"userMessage": "m", "context": {"topicId": "t", "messageCount": 1}}\n{"userMessage": 1, "context": {"topicId": "t"}}\n' >in.jsonl
	run -1 --separate-stderr llmq-encode --from-json in.jsonl
	assert_output "$(line m t 1 '' '')"
	assert_equal "$stderr" 'in.jsonl:2:17: error: "userMessage" must be a string, found a number'
}

@test "--from-json: an empty input writes nothing and succeeds" {
	run -0 --separate-stderr llmq-encode --from-json </dev/null
	assert_output ""
	assert_equal "$stderr" ""
}

@test "--from-json reports invalid UTF-8 with its offset in the file" {
	printf '%s\n' '{"userMessage": "m", "context": {"topicId": "t"}}' >in.jsonl
	printf '{"userMessage": "a\377"}\n' >>in.jsonl
	run -1 --separate-stderr llmq-encode --from-json in.jsonl
	assert_output "$(line m t 0 '' '')"
	assert_equal "$stderr" "in.jsonl:2:19: error: invalid UTF-8: byte 0xff at byte offset 68"
}

@test "--from-json: a value may not span lines" {
	printf '{"userMessage": "m",\n "context": {"topicId": "t"}}\n' >in.jsonl
	run -1 --separate-stderr llmq-encode --from-json in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:1:21: error: invalid JSON: string or '}' expected near end of line
in.jsonl:2:11: error: invalid JSON: text after the object on the line"
}

@test "--from-json checks the contract's limits and characters on each line" {
	{
		printf '{"userMessage": "%s", "context": {"topicId": "t"}}\n' "$(repeat 10000 $'\U0001F600')"
		printf '{"userMessage": "%s", "context": {"topicId": "t"}}\n' "$(repeat 10001 $'\u00e9')"
		printf '{"userMessage": "m\\u0000", "context": {"topicId": "t", "activeSubjects": [%s]}}\n' "$(items 21 '"s' '", ' | sed 's/$/"/')"
	} >in.jsonl
	run -1 --separate-stderr llmq-encode --from-json in.jsonl
	assert_output "$(line "$(repeat 10000 $'\U0001F600')" t 0 '' '')"
	assert_equal "$stderr" 'in.jsonl:2:17: error: "userMessage" is 10001 characters long, more than 10000
in.jsonl:3:17: error: "userMessage" holds U+0000, a character XML 1.0 forbids
in.jsonl:3:74: error: too many subjects in "activeSubjects": 21, at most 20'
}

@test "--from-json --errors=json: the JSON Pointer is in the line's object" {
	printf '%s\n' '{"userMessage": "m", "context": {"topicId": "t", "messageCount": "3"}}' >in.jsonl
	run -1 --separate-stderr llmq-encode --from-json --errors=json in.jsonl
	assert_output ""
	assert_equal "$stderr" '{"file":"in.jsonl","line":1,"column":66,"severity":"error","rule":"field-type","message":"\"messageCount\" must be a number, found a string","path":"/context/messageCount"}'
}

@test "--from-json: a missing file is trouble, and the other files are still read" {
	printf '%s\n' '{"userMessage": "m", "context": {"topicId": "t"}}' >a.jsonl
	run -3 --separate-stderr llmq-encode --from-json no-such.jsonl a.jsonl
	assert_output "$(line m t 0 '' '')"
	assert_equal "$stderr" "llmq-encode: no-such.jsonl: No such file or directory"
}

@test "--from-json: a directory is trouble: status 3" {
	mkdir d
	run -3 --separate-stderr llmq-encode --from-json d
	assert_output ""
	assert_equal "$stderr" "llmq-encode: d: Is a directory"
}

@test "--from-json -u writes each query while the input is still open" {
	mkfifo fifo
	coproc ENC { llmq-encode --from-json -u <fifo; }
	# bash clears ENC_PID once the coprocess has ended: keep it now
	pid=$ENC_PID
	exec {w}>fifo
	printf '%s\n' '{"userMessage": "live", "context": {"topicId": "t"}}' >&"$w"
	IFS= read -r -t 20 got <&"${ENC[0]}" || got=TIMEOUT
	exec {w}>&-
	wait "$pid"
	assert_equal "$got" "$(line live t 0 '' '')"
}

@test "--unbuffered gives the same output as without it" {
	llmq-encode --from-json --unbuffered "$D/batch.jsonl" >out 2>/dev/null || true
	cmp out "$D/batch.xml"
}

# ---------------------------------------------------------------- output

@test "a failed write is trouble: status 3" {
	run -3 --separate-stderr bash -c 'llmq-encode -t t m >/dev/full'
	assert_output ""
	assert_equal "$stderr" "llmq-encode: <stdout>: No space left on device"
}

@test "a failed write with --from-json is trouble: status 3" {
	cp "$D/batch.jsonl" .
	run -3 --separate-stderr bash -c 'llmq-encode --from-json batch.jsonl >/dev/full'
	assert_output ""
	assert_equal "$stderr" "$(cat "$D/batch.err")
llmq-encode: <stdout>: No space left on device"
}

@test "a failed write with -u stops the batch at once" {
	for i in 1 2 3; do
		printf '%s\n' '{"userMessage": "m", "context": {"topicId": ""}}' '{"userMessage": "m", "context": {"topicId": "t"}}'
	done >in.jsonl
	run -3 --separate-stderr bash -c 'llmq-encode --from-json -u in.jsonl >/dev/full'
	assert_output ""
	assert_equal "$stderr" 'in.jsonl:1:45: error: "topicId" is empty
llmq-encode: <stdout>: No space left on device'
}

@test "output to a closed pipe ends quietly" {
	run -0 bash -c 'for i in $(seq 1 20000); do echo "{\"userMessage\": \"m$i\", \"context\": {\"topicId\": \"t\"}}"; done | llmq-encode --from-json | head -n 1'
	assert_output "$(line m1 t 0 '' '')"
}

# --------------------------------------------------------- the manual's examples

@test "EXAMPLES: a message of several lines from a here-document" {
	run -0 --separate-stderr llmq-encode -t code-review <<'EOF'
Is `a < b && b > c` the same as "c < b > a"?
Be brief.
EOF
	assert_output "$(doc 'Is `a &lt; b &amp;&amp; b &gt; c` the same as &quot;c &lt; b &gt; a&quot;?
Be brief.' code-review 0 '' '')"
}

@test "EXAMPLES: the context file with -n and an empty --keywords" {
	cat >ctx.json <<'EOF'
{"topicId": "family-planning-2025", "messageCount": 12,
 "activeSubjects": ["family planning", "education costs"],
 "recentKeywords": ["children", "university", "tuition"]}
EOF
	run -0 --separate-stderr llmq-encode --context ctx.json -n 13 --keywords '' 'And for twins?'
	assert_output "$(doc 'And for twins?' family-planning-2025 13 'family planning, education costs' '')"
}

@test "EXAMPLES: a batch made with jq" {
	printf '%s\n' '{"q": "What is 2+2?"}' '{"q": "And 3+3?"}' |
	    jq -c '{userMessage: .q, context: {topicId: "arith"}}' |
	    llmq-encode --from-json >queries.txt
	{ line 'What is 2+2?' arith 0 '' ''; line 'And 3+3?' arith 0 '' ''; } | cmp - queries.txt
}

@test "EXAMPLES: a bad line in a batch" {
	run -1 --separate-stderr llmq-encode --from-json < <(printf '%s\n' '{"userMessage": "", "context": {"topicId": "t"}}' '{"userMessage": "ok", "context": {"topicId": "t"}}')
	assert_output "$(line ok t 0 '' '')"
	assert_equal "$stderr" '<stdin>:1:17: error: "userMessage" is empty'
}

@test "EXAMPLES: well-formed, as xmllint says" {
	run -0 bash -c "llmq-encode -t demo 'x < y & \"z\"' | xmllint --noout - && echo ok"
	assert_output ok
}

# Hostile input (issue 13)

@test "the count is at most 2^53 - 1 with -n and in --context, the limit of llmr-validate" {
	run -0 --separate-stderr bash -c 'llmq-encode -t t -n 9007199254740991 m | llmr-validate -o json'
	assert_output '{"userMessage":"m","topicId":"t","messageCount":9007199254740991,"activeSubjects":[],"recentKeywords":[]}'
	run -1 --separate-stderr llmq-encode -t t -n 9007199254740992 m
	assert_output ""
	assert_equal "$stderr" 'llmq-encode: -n "9007199254740992" is more than 9007199254740991'
	printf '{"topicId": "t", "messageCount": 9007199254740991}' >ctx.json
	run -0 --separate-stderr bash -c 'llmq-encode --context ctx.json m | llmr-validate -o json'
	assert_output '{"userMessage":"m","topicId":"t","messageCount":9007199254740991,"activeSubjects":[],"recentKeywords":[]}'
	printf '{"topicId": "t", "messageCount": 9007199254740992}' >ctx.json
	run -1 --separate-stderr llmq-encode --context ctx.json m
	assert_output ""
	assert_equal "$stderr" 'ctx.json:1:34: error: "messageCount" 9007199254740992 is more than 9007199254740991'
}

@test "a key given twice in a --context file is an error with both places: status 1" {
	printf '{"topicId":"t",\n "topicId":"u"}\n' >ctx.json
	run -1 --separate-stderr llmq-encode --context ctx.json hi
	assert_output ""
	assert_equal "$stderr" 'ctx.json:2:2: error: duplicate key "topicId", first at line 1, column 2'
}

@test "a key given twice in a --from-json line: that line fails, the others are written" {
	printf '%s\n' '{"userMessage":"a","context":{"topicId":"t"}}' \
	    '  {"userMessage":"a","context":{"topicId":"t","topicId":"u"}}' \
	    '{"userMessage":"x","userMessage":"b","context":{"topicId":"t"}}' >in.jsonl
	run -1 --separate-stderr llmq-encode --from-json --errors=json in.jsonl
	assert_output "$(line a t 0 '' '')"
	assert_equal "$stderr" '{"file":"in.jsonl","line":2,"column":47,"severity":"error","rule":"duplicate-key","message":"duplicate key \"topicId\", first at line 2, column 33"}
{"file":"in.jsonl","line":3,"column":20,"severity":"error","rule":"duplicate-key","message":"duplicate key \"userMessage\", first at line 3, column 2"}'
}

@test "a --context file name that is not UTF-8 or holds controls: valid JSON, escaped text" {
	printf '{"topicId":5}' >$'c\x1b\xfe.json'
	run -1 --separate-stderr llmq-encode --errors=json --context $'c\x1b\xfe.json' hi
	assert_equal "$stderr" '{"file":"c\u001b�.json","line":1,"column":12,"severity":"error","rule":"field-type","message":"\"topicId\" must be a string, found a number","path":"/topicId"}'
	run -1 --separate-stderr llmq-encode --context $'c\x1b\xfe.json' hi
	assert_equal "$stderr" 'c\u001b�.json:1:12: error: "topicId" must be a string, found a number'
}

@test "/dev/zero as the message or the --context file is refused at its first byte" {
	run -1 --separate-stderr timeout 10 llmq-encode -t t </dev/zero
	assert_output ""
	assert_equal "$stderr" "<stdin>:1:1: error: the message holds U+0000, a character XML 1.0 forbids"
	run -1 --separate-stderr timeout 10 llmq-encode --context /dev/zero hi
	assert_output ""
	assert_equal "$stderr" "/dev/zero:1:1: error: invalid JSON: NUL byte"
}

# One house (issue 14)

@test "--from-json -u with stdout on /dev/full stops at once: the next file is not opened" {
	printf '%s\n' '{"userMessage": "m", "context": {"topicId": "t"}}' \
	    '{"userMessage": "", "context": {"topicId": "t"}}' >a.jsonl
	mkfifo fifo
	run -3 --separate-stderr timeout 20 bash -c 'llmq-encode --from-json -u a.jsonl fifo >/dev/full'
	assert_output ""
	assert_equal "$stderr" "llmq-encode: <stdout>: No space left on device"
}

@test "--from-json with stdout on /dev/full stops when the output fails: the next file is not read" {
	for i in $(seq 1 100); do
		printf '%s\n' '{"userMessage": "m", "context": {"topicId": "t"}}'
	done >a.jsonl
	printf '%s\n' '{"userMessage": "", "context": {"topicId": "t"}}' >b.jsonl
	run -3 --separate-stderr bash -c 'llmq-encode --from-json a.jsonl b.jsonl >/dev/full'
	assert_output ""
	assert_equal "$stderr" "llmq-encode: <stdout>: No space left on device"
}

@test "--from-json: an unreadable file between two good ones is reported, both good ones are read: status 3" {
	printf '%s\n' '{"userMessage": "a", "context": {"topicId": "t"}}' >a.jsonl
	printf '%s\n' '{"userMessage": "b", "context": {"topicId": "t"}}' >b.jsonl
	run -3 --separate-stderr llmq-encode --from-json a.jsonl no-such.jsonl b.jsonl
	assert_output "$(line a t 0 '' ''; line b t 0 '' '')"
	assert_equal "$stderr" "llmq-encode: no-such.jsonl: No such file or directory"
}

@test "without --from-json the operands are words of the message, not files" {
	run -0 --separate-stderr llmq-encode -t t no-such.jsonl
	assert_output "$(doc no-such.jsonl t 0 '' '')"
	assert_equal "$stderr" ""
}

# A NUL byte in --from-json input (issue 25)

# nul_q TEXT: a --from-json line whose message is TEXT, topic t.
nul_q() {
	printf '{"userMessage":"%s","context":{"topicId":"t"}}\n' "$1"
}

@test "--from-json: a line with a NUL byte is refused and every line after it is read" {
	{
		nul_q a
		printf '{"userMessage":\0"b"}\n'
		printf '\0'
		nul_q x
		nul_q c | tr -d '\n'
		printf '\0\n\0\n\0\0\n'
		nul_q d
		printf '{"userMessage":"e\0'
	} >in.jsonl
	run -1 --separate-stderr llmq-encode --from-json in.jsonl
	assert_output "$(line a t 0 '' ''; line d t 0 '' '')"
	assert_equal "$stderr" "in.jsonl:2:16: error: invalid JSON: NUL byte
in.jsonl:3:1: error: invalid JSON: NUL byte
in.jsonl:4:46: error: invalid JSON: NUL byte
in.jsonl:5:1: error: invalid JSON: NUL byte
in.jsonl:6:1: error: invalid JSON: NUL byte
in.jsonl:8:18: error: invalid JSON: NUL byte"
}

@test "--from-json: a NUL line longer than 64 KiB is skipped to its end, and offsets after it count every byte of it" {
	{
		printf '{"userMessage":"'
		head -c 70000 /dev/zero | tr '\0' x
		printf '\0'
		head -c 70000 /dev/zero
		printf '"}\n'
		printf '{"userMessage":"b\\n\377","context":{"topicId":"t"}}\n'
	} >in.jsonl
	run -1 --separate-stderr llmq-encode --from-json in.jsonl
	assert_output ""
	assert_equal "$stderr" "in.jsonl:1:70017: error: invalid JSON: NUL byte
in.jsonl:2:20: error: invalid UTF-8: byte 0xff at byte offset 140039"
}

@test "--from-json: a line of 100 MB of NUL bytes is skipped in little memory, and the line after it read" {
	nul_q a >a.jsonl
	read -r st kb < <(peak sh -c '{ head -c 100M /dev/zero; echo; cat a.jsonl; } | llmq-encode --from-json')
	assert_equal "$st" 1
	assert_equal "$(cat out)" "$(line a t 0 '' '')"
	assert_equal "$(cat err)" "<stdin>:1:1: error: invalid JSON: NUL byte"
	(( kb < 60000 )) || fail "peak memory $kb KiB for a NUL line of 100 MB"
}

@test "--from-json /dev/zero: line 1 is refused at once, and its endless rest read on in constant memory" {
	run -124 --separate-stderr timeout 1 llmq-encode --from-json /dev/zero
	assert_output ""
	assert_equal "$stderr" "/dev/zero:1:1: error: invalid JSON: NUL byte"
}
