#!/usr/bin/env bats
# llmstore as a user drives it: the usage and its errors, put of queries
# and responses (hashes, inline and blob storage at the 1024-byte limit,
# shared blobs, rejection, idempotence, conflicts, --batch), ls, cat and rm,
# what a response's analysis becomes (keywords, subjects and their time
# ranges, isNew warnings, summary versions), context and its limits and
# llmq-encode reading it, archive, trace, prompt templates, fsck on a clean
# and on a damaged store, export and import, and the store files it must
# refuse. The clock is fixed with LLMSTORE_NOW so that every output is exact.

load helper

bats_require_minimum_version 1.5.0

D="$DATA/llmstore"
USAGE='usage: llmstore [-d PATH] put [-q] [--errors=github|json|text] -t TOPIC
                              -m MESSAGE [FILE]
       llmstore [-d PATH] put [-q] [--errors=github|json|text] --batch
                              -t TOPIC FILE ...
       llmstore [-d PATH] ls [-t TOPIC] [-m MESSAGE]
                             [--format llm-query|llm-response]
       llmstore [-d PATH] cat HASH | -m MESSAGE
       llmstore [-d PATH] rm -m MESSAGE
       llmstore [-d PATH] context TOPIC
       llmstore [-d PATH] summary TOPIC [--revision N]
       llmstore [-d PATH] keywords TOPIC
       llmstore [-d PATH] subjects TOPIC
       llmstore [-d PATH] archive [--undo] TOPIC SUBJECT
       llmstore [-d PATH] trace TERM [-t TOPIC]
       llmstore [-d PATH] prompt set -M MODEL [--xml-schema-version N] [FILE]
       llmstore [-d PATH] prompt get -M MODEL [--revision N]
       llmstore [-d PATH] prompt ls [-M MODEL]
       llmstore [-d PATH] fsck
       llmstore [-d PATH] export
       llmstore [-d PATH] import [FILE]'
STATUSES='exit status: 0 done, 1 rejected or not found, 2 usage, 3 trouble'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	S="$BATS_TEST_TMPDIR/s.db"
	unset LLMSTORE LLMSTORE_NOW
}

# st ARG...: llmstore on the test's store.
st() {
	llmstore -d "$S" "$@"
}

# at NOW ARG...: the same with the clock at NOW.
at() {
	local now=$1
	shift
	LLMSTORE_NOW=$now llmstore -d "$S" "$@"
}

# usage_of [CMD [SUB]]: the usage that llmstore prints for a usage error
# in CMD (SUB, for prompt): the lines of $USAGE for it, or all of them.
usage_of() {
	awk -v c="${1-}" -v s="${2-}" '
	/llmstore \[-d PATH\] / {
		sub(/^(usage: |       )llmstore \[-d PATH\] /, "")
		split($0, w, " ")
		on = c == "" || (w[1] == c && (s == "" || w[2] == s))
		if (on)
			printf "%sllmstore [-d PATH] %s\n", n++ ? "       " : "usage: ", $0
		next
	}
	on' <<<"$USAGE"
}

# usage_error MESSAGE ARG...: llmstore ARG... is a usage error with MESSAGE
# and the usage of the command it names (all of it for none or an unknown
# one).
usage_error() {
	local msg=$1 cmd sub
	shift
	run -2 --separate-stderr llmstore "$@"
	assert_output ""
	set -- "$@" '' ''
	[ "$1" = -d ] && shift 2
	cmd=$1 sub=$2
	case $cmd in
	put | ls | cat | rm | context | summary | keywords | subjects | archive | trace | fsck | export | import) sub= ;;
	prompt) case $sub in set | get | ls) ;; *) sub= ;; esac ;;
	*) cmd='' sub='' ;;
	esac
	assert_equal "$stderr" "llmstore: $msg
$(usage_of "$cmd" "$sub")"
}

# repeat N TEXT: TEXT N times, no newline.
repeat() {
	local s
	printf -v s '%*s' "$1" ''
	printf '%s' "${s// /$2}"
}

# resp TEXT SUMMARY [SUBJECT ...]: an <llmResponse>, each SUBJECT given as
# "name|description|isNew|term:confidence,term:confidence,...", the
# values already escaped for XML.
resp() {
	local text=$1 sum=$2 s name desc isnew kws kw
	local -a list
	shift 2
	printf '<llmResponse>\n  <response>%s</response>\n  <analysis>\n' "$text"
	for s; do
		IFS='|' read -r name desc isnew kws <<<"$s"
		printf '    <subject name="%s" description="%s" isNew="%s">\n' \
		    "$name" "$desc" "$isnew"
		IFS=',' read -ra list <<<"$kws"
		for kw in "${list[@]}"; do
			printf '      <keyword term="%s" confidence="%s"/>\n' \
			    "${kw%:*}" "${kw##*:}"
		done
		printf '    </subject>\n'
	done
	printf '    <summaryUpdate>%s</summaryUpdate>\n' "$sum"
	printf '  </analysis>\n</llmResponse>\n'
}

# query MESSAGE: an <llmQuery> for MESSAGE.
query() {
	printf '<llmQuery>\n  <userMessage>%s</userMessage>\n' "$1"
	printf '  <context topicId="t" messageCount="0"></context>\n</llmQuery>\n'
}

# sized N: a valid response of exactly N bytes (N >= 200) on stdout.
sized() {
	local base
	base=$(resp x 'Sized.' 'big|a large answer|true|big-term:0.9' | wc -c)
	resp "$(repeat $(($1 - base + 1)) x)" 'Sized.' \
	    'big|a large answer|true|big-term:0.9'
}

# sha FILE: the lower-case hex SHA-256 of FILE's bytes.
sha() {
	sha256sum <"$1" | cut -c1-64
}

# att TOPIC MESSAGE FILE FORMAT NOW: the attachment's JSON line, built with
# jq, its hash computed with sha256sum as the spec defines it.
att() {
	local size body h
	size=$(wc -c <"$3")
	if ((size > 1024)); then
		body=$(jq -cn --arg t "$1" --arg m "$2" --arg b "$(sha "$3")" \
		    --arg f "$4" --argjson c "$5" --argjson s "$size" \
		    '{"$type$":"XMLMessageAttachment",topicId:$t,messageId:$m,xmlBlob:$b,format:$f,version:1,createdAt:$c,size:$s}')
	else
		body=$(jq -cn --arg t "$1" --arg m "$2" --rawfile x "$3" \
		    --arg f "$4" --argjson c "$5" --argjson s "$size" \
		    '{"$type$":"XMLMessageAttachment",topicId:$t,messageId:$m,xmlContent:$x,format:$f,version:1,createdAt:$c,size:$s}')
	fi
	h=$(printf '%s' "$body" | sha256sum | cut -c1-64)
	printf '%s,"hash":"%s"}\n' "${body%\}}" "$h"
}

# hash_of TOPIC MESSAGE FILE FORMAT NOW: the hash of that attachment.
hash_of() {
	att "$@" | sed 's/.*,"hash":"\([0-9a-f]*\)"}$/\1/'
}

# line_hash: the hash that each JSON line on stdin should carry.
line_hash() {
	sed 's/,"hash":"[0-9a-f]*"}$/}/' | tr -d '\n' | sha256sum | cut -c1-64
}

# four: the store of the ingestion tests: four responses in topic t (m1 at
# 1000: a; m2 at 2000: a, b; m3 at 3000: b; m4 at 4000: a) and a query q1
# at 2500 between m2 and m3. Sets H1 to H4 and HQ to the hashes that put
# printed (the tests of put check those against sha256sum).
four() {
	resp 'One.' '  One.  ' 'a|first a|true|x:0.9,y:0.80' >m1.xml
	resp 'Two.' 'Two.' 'a|second a|false|x:0.5' 'b|second b|true|x:1e0,z:0.75' >m2.xml
	query 'And then?' >q1.xml
	resp 'Three.' '' 'b|third b|false|z:0.6' >m3.xml
	resp 'Four.' 'Four.' 'a|fourth a|false|y:0.7' >m4.xml
	H1=$(at 1000 put -t t -m m1 m1.xml)
	H2=$(at 2000 put -t t -m m2 m2.xml)
	HQ=$(at 2500 put -t t -m q1 q1.xml)
	H3=$(at 3000 put -t t -m m3 m3.xml)
	H4=$(at 4000 put -t t -m m4 m4.xml)
	[ ${#H1} -eq 64 ] && [ ${#H2} -eq 64 ] && [ ${#HQ} -eq 64 ] &&
	    [ ${#H3} -eq 64 ] && [ ${#H4} -eq 64 ]
}

# --------------------------------------------------------------- the usage

@test "-h and --help print the usage and the exit statuses on stdout and exit 0" {
	run -0 --separate-stderr llmstore -h
	assert_output "$USAGE

$(help_of llmstore)

$STATUSES"
	assert_equal "$stderr" ""
	run -0 --separate-stderr llmstore --help
	assert_output "$USAGE

$(help_of llmstore)

$STATUSES"
	assert_equal "$stderr" ""
}

@test "--version prints the tool, llmkit and the version" {
	run -0 --separate-stderr llmstore --version
	assert_output --regexp '^llmstore \(llmkit\) [0-9]+\.[0-9]+\.[0-9]+$'
	assert_equal "$stderr" ""
	assert_output "$(llmq-encode --version | sed 's/llmq-encode/llmstore/')"
}

@test "no command and an unknown command are usage errors" {
	usage_error 'no command given'
	usage_error 'no command given' -d "$S"
	usage_error 'unknown command "x"' x
	usage_error 'unknown command "PUT"' -d "$S" PUT
	[ ! -e "$S" ]
}

@test "put without -t or -m, with -m and --batch, or with an empty -t, -m or -M is a usage error" {
	cp "$D/reply.xml" .
	usage_error 'put needs -t TOPIC and -m MESSAGE' -d "$S" put -m m reply.xml
	usage_error 'put needs -t TOPIC and -m MESSAGE' -d "$S" put -t t reply.xml
	usage_error 'put needs -t TOPIC and -m MESSAGE' -d "$S" put reply.xml
	usage_error 'put --batch takes the message ids from the file names, not -m' \
	    -d "$S" put --batch -t t -m m reply.xml
	usage_error '-t must not be empty' -d "$S" put -t '' -m m reply.xml
	usage_error '-m must not be empty' -d "$S" put -t t -m '' reply.xml
	usage_error '-M must not be empty' -d "$S" prompt set -M '' reply.xml
	[ ! -e "$S" ]
}

@test "a --revision that is not a whole number from 1 is a usage error" {
	for n in x 0 -1 1.5 '' 1x; do
		usage_error "--revision must be a whole number from 1, not \"$n\"" \
		    -d "$S" summary --revision "$n" t
		usage_error "--revision must be a whole number from 1, not \"$n\"" \
		    -d "$S" prompt get -M m --revision "$n"
	done
}

@test "wrong operand counts are usage errors" {
	usage_error 'context takes one TOPIC' -d "$S" context
	usage_error 'context takes one TOPIC' -d "$S" context a b
	[ ! -e "$S" ]
}

@test "-d may be given among the command's options" {
	cp "$D/reply.xml" .
	run -0 env LLMSTORE_NOW=1 llmstore put -t t -d "$S" -m m reply.xml
	assert_output "$(hash_of t m reply.xml llm-response 1)"
	run -0 llmstore context -d "$S" t
	assert_output --partial '"messageCount":1,'
	[ -e "$S" ]
	[ ! -e llmstore.db ]
}

@test "without -d the store is \$LLMSTORE, else ./llmstore.db" {
	cp "$D/reply.xml" .
	LLMSTORE=env.db LLMSTORE_NOW=5 llmstore put -t t -m m reply.xml >/dev/null
	[ -e env.db ]
	[ ! -e llmstore.db ]
	LLMSTORE_NOW=5 llmstore put -t t -m m reply.xml >/dev/null
	[ -e llmstore.db ]
	cmp <(LLMSTORE=env.db llmstore ls) <(llmstore ls)
	run -0 llmstore ls
	assert_output "$(att t m reply.xml llm-response 5)"
	# -d wins over $LLMSTORE
	LLMSTORE=env.db LLMSTORE_NOW=6 llmstore -d "$S" put -t t -m m reply.xml >/dev/null
	run -0 st ls
	assert_output "$(att t m reply.xml llm-response 6)"
}

@test "a new store is SQLite in WAL mode with llmstore's application id and schema 1" {
	cp "$D/reply.xml" .
	st put -t t -m m reply.xml >/dev/null
	run -0 sqlite3 "$S" 'pragma application_id; pragma user_version; pragma journal_mode; pragma page_size;'
	assert_output '1280068947
1
wal
32768'
	# some 700 KB, as the manual says
	local size
	size=$(stat -c %s "$S")
	((size > 600000 && size < 800000))
}

# --------------------------------------------------------------------- put

@test "put of a response prints the hash of its ls line" {
	cp "$D/reply.xml" .
	run -0 --separate-stderr at 1728234567890 put -t family-planning-2025 -m msg-abc123 reply.xml
	want=$(att family-planning-2025 msg-abc123 reply.xml llm-response 1728234567890)
	assert_output "$(printf '%s\n' "$want" | line_hash)"
	assert_equal "$stderr" ""
	h=$output
	run -0 st ls
	assert_output "$want"
	assert_equal "$(printf '%s\n' "$output" | line_hash)" "$h"
	[[ $output == *',"size":'$(wc -c <reply.xml)',"hash":"'$h'"}' ]]
}

@test "put of a query stores it as llm-query and ingests nothing" {
	cp "$D/query.xml" .
	run -0 --separate-stderr at 42 put -t family-planning-2025 -m q1 query.xml
	want=$(att family-planning-2025 q1 query.xml llm-query 42)
	assert_output "$(printf '%s\n' "$want" | line_hash)"
	assert_equal "$stderr" ""
	run -0 st ls
	assert_output "$want"
	run -0 st keywords family-planning-2025
	assert_output ""
	run -0 st subjects family-planning-2025
	assert_output ""
	run -1 --separate-stderr st summary family-planning-2025
	assert_equal "$stderr" 'llmstore: no summary of topic "family-planning-2025"'
}

@test "put reads standard input when no file is given" {
	run -0 at 7 put -t t -m m <"$D/reply.xml"
	cp "$D/reply.xml" .
	assert_output "$(hash_of t m reply.xml llm-response 7)"
	st cat -m m | cmp - reply.xml
}

@test "1024 bytes of XML are stored inline, 1025 bytes in a blob" {
	sized 1024 >inline.xml
	sized 1025 >blob.xml
	[ "$(wc -c <inline.xml)" -eq 1024 ]
	[ "$(wc -c <blob.xml)" -eq 1025 ]
	at 10 put -t t -m in inline.xml >/dev/null
	at 11 put -t t -m bl blob.xml >/dev/null
	run -0 st ls
	assert_output "$(att t in inline.xml llm-response 10)
$(att t bl blob.xml llm-response 11)"
	[[ ${lines[0]} == *'"xmlContent":"<llmResponse>'* ]]
	[[ ${lines[1]} == *'"xmlBlob":"'$(sha blob.xml)'"'* ]]
	run -0 sqlite3 "$S" "select hash, size, xml_content is null, xml_blob from attachment order by id; select hash, size, length(data) from blob;"
	assert_output "$(hash_of t in inline.xml llm-response 10)|1024|0|
$(hash_of t bl blob.xml llm-response 11)|1025|1|$(sha blob.xml)
$(sha blob.xml)|1025|1025"
}

@test "the size is the UTF-8 byte length, not the character count" {
	local b n t
	b=$(resp x 'S.' 's|d|true|k:1' | wc -c)
	# a response text of n bytes, most of them in two-byte characters
	n=$((1025 - b))
	t=$(repeat $((n / 2)) é)
	((n % 2)) && t="x$t"
	resp "$t" 'S.' 's|d|true|k:1' >a.xml
	resp "x$t" 'S.' 's|d|true|k:1' >b.xml
	[ "$(wc -c <a.xml)" -eq 1024 ]
	[ "$(wc -c <b.xml)" -eq 1025 ]
	[ "$(jq -Rs length <a.xml)" -lt 700 ]
	at 1 put -t t -m a a.xml >/dev/null
	at 1 put -t t -m b b.xml >/dev/null
	run -0 st ls
	assert_output "$(att t a a.xml llm-response 1)
$(att t b b.xml llm-response 1)"
	[[ ${lines[0]} == *'"xmlContent":'* ]]
	[[ ${lines[1]} == *'"xmlBlob":'* ]]
}

@test "two identical large documents share one blob" {
	sized 3000 >big.xml
	at 1 put -t t -m one big.xml >/dev/null
	at 2 put -t u -m two big.xml >/dev/null
	run -0 sqlite3 "$S" 'select count(*) from blob; select count(*) from attachment;'
	assert_output '1
2'
	run -0 st ls
	assert_output "$(att t one big.xml llm-response 1)
$(att u two big.xml llm-response 2)"
}

@test "an invalid document is rejected with llmr-validate's diagnostics and nothing is stored" {
	cp "$D/bad.xml" "$D/reply.xml" .
	st put -t t -m ok reply.xml >/dev/null
	run -1 --separate-stderr st put -t t -m bad bad.xml
	assert_output ""
	assert_equal "$stderr" "$(cat "$D/bad.err")"
	run -1 --separate-stderr llmr-validate bad.xml
	assert_equal "$stderr" "$(cat "$D/bad.err")"
	run -0 sqlite3 "$S" 'select count(*) from attachment; select count(*) from keyword; select count(*) from subject; select count(*) from summary;'
	assert_output '1
4
1
1'
}

@test "an invalid document on standard input is reported as <stdin>" {
	run -1 --separate-stderr st put -t t -m bad <"$D/bad.xml"
	assert_output ""
	assert_equal "$stderr" "$(sed 's/^bad\.xml:/<stdin>:/' "$D/bad.err")"
}

@test "put -q silences the diagnostics but not the status" {
	cp "$D/bad.xml" .
	run -1 --separate-stderr st put -q -t t -m bad bad.xml
	assert_output ""
	assert_equal "$stderr" ""
	run -0 st ls
	assert_output ""
}

@test "malformed XML and an unknown root are rejected as llmr-validate rejects them" {
	printf '<llmResponse><response>x</response>\n' >broken.xml
	printf '<other/>\n' >other.xml
	for f in broken.xml other.xml; do
		run -1 --separate-stderr llmr-validate "$f"
		want=$stderr
		[ -n "$want" ]
		run -1 --separate-stderr st put -t t -m "$f" "$f"
		assert_output ""
		assert_equal "$stderr" "$want"
	done
	run -0 st ls
	assert_output ""
}

@test "a file that cannot be read is trouble: status 3" {
	run -3 --separate-stderr st put -t t -m m nope.xml
	assert_output ""
	assert_equal "$stderr" 'llmstore: nope.xml: No such file or directory'
}

@test "a repeated put changes nothing and prints the same hash" {
	cp "$D/reply.xml" .
	run -0 at 1000 put -t t -m m reply.xml
	h=$output
	run -0 --separate-stderr at 2000 put -t t -m m reply.xml
	assert_output "$h"
	assert_equal "$stderr" ""
	run -0 st ls
	assert_output "$(att t m reply.xml llm-response 1000)"
	run -0 st keywords t
	assert_line --index 0 '{"$type$":"Keyword","topicId":"t","term":"529-plan","frequency":1,"subjects":["college-savings"],"score":0.95,"createdAt":1000,"lastSeen":1000,"sourceXmlHash":"'"$h"'"}'
	run -0 st subjects t
	assert_output '{"$type$":"Subject","id":"college-savings","topic":"t","description":"Discussion of saving strategies for children'"'"'s higher education","keywords":["529-plan","tax-advantages","education-expenses","financial-planning"],"timeRanges":[{"start":1000,"end":1000}],"messageCount":1,"createdAt":1000,"lastSeenAt":1000,"archived":false,"sourceXmlHash":"'"$h"'"}'
	run -0 st context t
	assert_output '{"topicId":"t","messageCount":1,"activeSubjects":["college-savings"],"recentKeywords":["529-plan","tax-advantages","education-expenses","financial-planning"]}'
}

@test "a message id already stored with other content is a conflict: status 1" {
	cp "$D/reply.xml" "$D/query.xml" .
	run -0 at 1 put -t t -m m reply.xml
	h=$output
	run -1 --separate-stderr at 2 put -t t -m m query.xml
	assert_output ""
	assert_equal "$stderr" "llmstore: message \"m\" is already stored (attachment $h)"
	# the same bytes under another topic conflict too
	run -1 --separate-stderr at 2 put -t other -m m reply.xml
	assert_equal "$stderr" "llmstore: message \"m\" is already stored (attachment $h)"
	# one byte more conflicts
	{ cat reply.xml; echo; } >reply2.xml
	run -1 --separate-stderr at 2 put -t t -m m reply2.xml
	assert_equal "$stderr" "llmstore: message \"m\" is already stored (attachment $h)"
	run -0 st ls
	assert_output "$(att t m reply.xml llm-response 1)"
}

# ----------------------------------------------------------------- --batch

@test "put --batch takes the ids from the file names and prints HASH  FILE" {
	mkdir in
	cp "$D/reply.xml" in/r1.xml
	cp "$D/query.xml" in/q1.xml
	resp 'Other.' '' 's|d|true|k:0.5' >in/notes
	resp 'Dots.' '' 's|d|false|k:0.5' >in/a.xml.xml
	run -0 --separate-stderr at 9 put --batch -t t in/q1.xml in/r1.xml in/notes in/a.xml.xml
	assert_equal "$stderr" ""
	assert_output "$(hash_of t q1 in/q1.xml llm-query 9)  in/q1.xml
$(hash_of t r1 in/r1.xml llm-response 9)  in/r1.xml
$(hash_of t notes in/notes llm-response 9)  in/notes
$(hash_of t a.xml in/a.xml.xml llm-response 9)  in/a.xml.xml"
	run -0 st ls
	assert_output "$(att t q1 in/q1.xml llm-query 9)
$(att t r1 in/r1.xml llm-response 9)
$(att t notes in/notes llm-response 9)
$(att t a.xml in/a.xml.xml llm-response 9)"
}

@test "put --batch stores nothing when one file is invalid, and reports every problem" {
	cp "$D/reply.xml" "$D/bad.xml" .
	cp bad.xml bad2.xml
	run -1 --separate-stderr st put --batch -t t reply.xml bad.xml bad2.xml
	assert_output ""
	assert_equal "$stderr" "$(cat "$D/bad.err"; sed 's/^bad\.xml/bad2.xml/' "$D/bad.err")"
	run -0 sqlite3 "$S" 'select count(*) from attachment; select count(*) from keyword; select count(*) from subject; select count(*) from summary; select count(*) from blob;'
	assert_output '0
0
0
0
0'
}

@test "put --batch stores nothing when one file conflicts with the store" {
	cp "$D/reply.xml" "$D/query.xml" .
	run -0 at 1 put -t t -m query reply.xml
	h=$output
	resp 'New.' 'New.' 'n|d|true|nk:0.5' >new.xml
	run -1 --separate-stderr at 2 put --batch -t t new.xml query.xml
	assert_output ""
	assert_equal "$stderr" "llmstore: message \"query\" is already stored (attachment $h)"
	run -0 st ls
	assert_output "$(att t query reply.xml llm-response 1)"
	run -0 st keywords t
	refute_output --partial nk
}

@test "put --batch of two files with one id: the same bytes pass, others conflict" {
	mkdir a b c
	cp "$D/reply.xml" a/m.xml
	cp "$D/reply.xml" b/m.xml
	cp "$D/query.xml" c/m.xml
	h=$(hash_of t m a/m.xml llm-response 3)
	run -1 --separate-stderr at 3 put --batch -t t a/m.xml c/m.xml
	assert_output ""
	assert_equal "$stderr" "llmstore: message \"m\" is already stored (attachment $h)"
	run -0 st ls
	assert_output ""
	run -0 --separate-stderr at 3 put --batch -t t a/m.xml b/m.xml
	assert_output "$h  a/m.xml
$h  b/m.xml"
	run -0 st ls
	assert_output "$(att t m a/m.xml llm-response 3)"
	run -0 st subjects t
	assert_output --partial '"messageCount":1,'
}

@test "put --batch without a file is a usage error" {
	usage_error 'put takes one FILE or more with --batch' -d "$S" put --batch -t t
	[ ! -e "$S" ]
}

# ---------------------------------------------------------------------- ls

@test "ls lists the attachments oldest first, filtered by -t, -m and --format" {
	cp "$D/reply.xml" "$D/query.xml" .
	at 3 put -t b -m r2 reply.xml >/dev/null
	at 1 put -t a -m q1 query.xml >/dev/null
	at 2 put -t a -m r1 reply.xml >/dev/null
	A=$(att b r2 reply.xml llm-response 3)
	B=$(att a q1 query.xml llm-query 1)
	C=$(att a r1 reply.xml llm-response 2)
	run -0 st ls
	assert_output "$A
$B
$C"
	run -0 st ls -t a
	assert_output "$B
$C"
	run -0 st ls -m r2
	assert_output "$A"
	run -0 st ls --format llm-query
	assert_output "$B"
	run -0 st ls --format llm-response -t a
	assert_output "$C"
	run -0 --separate-stderr st ls -t b --format llm-query
	assert_output ""
	assert_equal "$stderr" ""
	run -0 st ls -t nothing
	assert_output ""
	run -0 st ls -m nothing
	assert_output ""
}

@test "ls --format takes llm-query or llm-response only" {
	usage_error '--format must be llm-query or llm-response, not "x"' -d "$S" ls --format x
	usage_error '--format must be llm-query or llm-response, not "query"' -d "$S" ls --format query
}

@test "ls of an empty store prints nothing" {
	cp "$D/reply.xml" .
	st put -t t -m m reply.xml >/dev/null
	st rm -m m
	run -0 --separate-stderr st ls
	assert_output ""
	assert_equal "$stderr" ""
}

@test "each ls line's hash is the SHA-256 of the line without it" {
	sized 2000 >big.xml
	cp "$D/reply.xml" "$D/query.xml" .
	st put -t t -m a reply.xml >/dev/null
	st put -t t -m b query.xml >/dev/null
	st put -t t -m c big.xml >/dev/null
	st ls >ls.out
	[ "$(wc -l <ls.out)" -eq 3 ]
	while IFS= read -r l; do
		h=$(printf '%s\n' "$l" | line_hash)
		[[ $l == *',"hash":"'$h'"}' ]] || fail "bad hash in $l"
	done <ls.out
}

# --------------------------------------------------------------------- cat

@test "cat by message, attachment hash and blob hash gives the bytes back" {
	printf '<llmResponse>\r\n  <response>Grüße, naïve café ✓ — 𝄞 &amp; &lt;tags&gt;</response>\r\n  <analysis>\r\n    <subject name="café" description="ünïcode" isNew="true">\r\n      <keyword term="naïve" confidence="0.5"/>\r\n    </subject>\r\n    <summaryUpdate/>\r\n  </analysis>\r\n</llmResponse>\r\n' >crlf.xml
	sized 1500 >big.xml
	printf '  <!-- lead -->\n' >>big.xml
	run -0 at 5 put -t t -m crlf crlf.xml
	hc=$output
	run -0 at 5 put -t t -m big big.xml
	hb=$output
	st cat -m crlf >out
	cmp out crlf.xml
	st cat "$hc" >out
	cmp out crlf.xml
	st cat -m big >out
	cmp out big.xml
	st cat "$hb" >out
	cmp out big.xml
	st cat "$(sha big.xml)" >out
	cmp out big.xml
	run -0 st ls -m crlf
	assert_output "$(att t crlf crlf.xml llm-response 5)"
	[[ $output == *'\r\n'* ]]
}

@test "cat of something not there: status 1" {
	cp "$D/reply.xml" .
	st put -t t -m m reply.xml >/dev/null
	z=$(printf '%064d' 0)
	run -1 --separate-stderr st cat "$z"
	assert_output ""
	assert_equal "$stderr" "llmstore: no attachment $z"
	run -1 --separate-stderr st cat -m nope
	assert_output ""
	assert_equal "$stderr" 'llmstore: no message "nope"'
}

# ---------------------------------------------------------------------- rm

@test "rm deletes the attachment and its blob only when no other uses it; keywords stay" {
	sized 3000 >big.xml
	cp "$D/reply.xml" .
	at 1 put -t t -m one big.xml >/dev/null
	at 2 put -t t -m two big.xml >/dev/null
	at 3 put -t t -m r reply.xml >/dev/null
	st keywords t >kw.before
	st subjects t >subj.before
	run -0 --separate-stderr st rm -m one
	assert_output ""
	assert_equal "$stderr" ""
	run -0 sqlite3 "$S" 'select count(*) from blob; select count(*) from attachment;'
	assert_output '1
2'
	st cat "$(sha big.xml)" | cmp - big.xml
	st rm -m two
	run -0 sqlite3 "$S" 'select count(*) from blob; select count(*) from attachment;'
	assert_output '0
1'
	st rm -m r
	run -0 st ls
	assert_output ""
	st keywords t | cmp - kw.before
	st subjects t | cmp - subj.before
	run -0 st context t
	assert_output '{"topicId":"t","messageCount":0,"activeSubjects":["college-savings","big"],"recentKeywords":["529-plan","tax-advantages","education-expenses","financial-planning","big-term"]}'
}

@test "rm of a message not there: status 1" {
	cp "$D/reply.xml" .
	st put -t t -m m reply.xml >/dev/null
	run -1 --separate-stderr st rm -m nope
	assert_output ""
	assert_equal "$stderr" 'llmstore: no message "nope"'
	st rm -m m
	run -1 --separate-stderr st rm -m m
	assert_equal "$stderr" 'llmstore: no message "m"'
}

@test "a message id freed by rm may be put again" {
	cp "$D/reply.xml" "$D/query.xml" .
	at 1 put -t t -m m reply.xml >/dev/null
	st rm -m m
	run -0 at 2 put -t t -m m query.xml
	assert_output "$(hash_of t m query.xml llm-query 2)"
}

# rm_last: topic t holds m1 (at 1000) and m2 (at 2000), both about subject
# a; m2, the latest attachment, is then removed.
rm_last() {
	resp 'One.' 'One.' 'a|first a|true|x:0.5' >m1.xml
	resp 'Two.' 'Two.' 'a|second a|false|x:0.5,y:0.5' >m2.xml
	at 1000 put -t t -m m1 m1.xml >/dev/null
	at 2000 put -t t -m m2 m2.xml >/dev/null
	st rm -m m2
}

@test "the place of an attachment removed by rm is never taken again" {
	rm_last
	run -0 --separate-stderr at 3000 put -t t -m m3 m2.xml
	assert_equal "$stderr" ""
	run -0 st export
	assert_line "$(att t m3 m2.xml llm-response 3000 | sed 's/}$/,"seq":3}/')"
	# m3 is a response of its own for a: counted, and a new time range
	# (m1, the response before it in the store, did not end with a)
	run -0 st subjects t
	assert_output '{"$type$":"Subject","id":"a","topic":"t","description":"second a","keywords":["x","y"],"timeRanges":[{"start":1000,"end":2000},{"start":3000,"end":3000}],"messageCount":3,"createdAt":1000,"lastSeenAt":3000,"archived":false,"sourceXmlHash":"'"$(st ls -m m1 | jq -r .hash)"'"}'
}

@test "import keeps the places of removed attachments from being taken" {
	rm_last
	st export >e.jsonl
	llmstore -d new.db import e.jsonl
	LLMSTORE_NOW=3000 llmstore -d new.db put -t t -m m3 m2.xml >/dev/null
	run -0 llmstore -d new.db export
	assert_line "$(att t m3 m2.xml llm-response 3000 | sed 's/}$/,"seq":3}/')"
	at 3000 put -t t -m m3 m2.xml >/dev/null
	st export | cmp - <(llmstore -d new.db export)
}

@test "put --batch leaves the store and the warnings as the same puts one by one" {
	resp 'One.' 'One.' 'a|first a|true|x:0.9,y:0.8' 'b|first b|true|y:0.1' >r1.xml
	resp 'Two.' 'Two.' 'a|second a|false|x:0.5' 'a|again a|true|z:0.3,x:0.2' >r2.xml
	resp 'Three.' ' ' 'b|third b|true|x:1,w:0.4' >r3.xml
	query 'And?' >q4.xml
	resp 'Five.' 'Five.' 'a|fifth a|false|w:0.7' 'c|new c|false|y:0.6,y:0.5' >r5.xml
	resp 'Six.' 'Six.' 'c|six c|false|y:0.25' 'a|six a|false|v:0.5' >r6.xml
	sized 3000 >r7.xml
	set -- r1.xml r2.xml r3.xml q4.xml r5.xml r6.xml r7.xml
	run -0 --separate-stderr at 5000 put --batch -t t "$@"
	local batch_err=$stderr f
	for f; do
		LLMSTORE_NOW=5000 llmstore -d one.db put -t t -m "${f%.xml}" "$f"
	done >/dev/null 2>one.err
	assert_equal "$batch_err" "$(cat one.err)"
	# (a twice in r2: the second is not a new subject, whatever isNew says)
	assert_equal "$batch_err" 'r3.xml:4:5: warning: subject "b" is marked isNew="true" but the topic has it already
r5.xml:7:5: warning: subject "c" is marked isNew="false" but the topic has no such subject'
	st export >batch.jsonl
	llmstore -d one.db export | cmp - batch.jsonl
	run -0 st subjects t
	assert_line --index 0 '{"$type$":"Subject","id":"big","topic":"t","description":"a large answer","keywords":["big-term"],"timeRanges":[{"start":5000,"end":5000}],"messageCount":1,"createdAt":5000,"lastSeenAt":5000,"archived":false,"sourceXmlHash":"'"$(st ls -m r7 | jq -r .hash)"'"}'
	run -0 st keywords t
	assert_line '{"$type$":"Keyword","topicId":"t","term":"y","frequency":5,"subjects":["a","b","c"],"score":0.25,"createdAt":5000,"lastSeen":5000,"sourceXmlHash":"'"$(st ls -m r1 | jq -r .hash)"'"}'
}

@test "put --batch of many responses leaves the store as smaller batches of them" {
	local i j k
	# 120 responses of 3 subjects with 4 keywords each out of 7 subjects
	# and 23 keywords: 1440 subject-keyword pairs met, far fewer made
	for ((i = 0; i < 120; i++)); do
		set --
		for ((j = 0; j < 3; j++)); do
			k=$(((i * 5 + j * 3) % 23))
			set -- "$@" "s$(((i + j * 2) % 7))|d$i|true|k$k:0.5,k$(((k + 1) % 23)):0.25,k$(((k + 7) % 23)):1,k$(((i * j) % 23)):0.75"
		done
		resp "R$i." "S$i." "$@" >"$(printf 'r%03d.xml' "$i")"
	done
	at 9000 put -q --batch -t t r*.xml >/dev/null
	for ((i = 0; i < 12; i++)); do
		LLMSTORE_NOW=9000 llmstore -d two.db put -q --batch -t t \
		    "$(printf 'r%02d' "$i")"?.xml >/dev/null
	done
	st export >one.jsonl
	llmstore -d two.db export | cmp - one.jsonl
	run -0 st keywords t
	assert_equal "${#lines[@]}" 23
	run -0 st subjects t
	assert_equal "${#lines[@]}" 7
}

# --------------------------------------------------------------- ingesting

@test "keywords: frequency per occurrence, subjects, latest score, recent order" {
	four
	run -0 st keywords t
	assert_output '{"$type$":"Keyword","topicId":"t","term":"y","frequency":2,"subjects":["a"],"score":0.7,"createdAt":1000,"lastSeen":4000,"sourceXmlHash":"'"$H1"'"}
{"$type$":"Keyword","topicId":"t","term":"z","frequency":2,"subjects":["b"],"score":0.6,"createdAt":2000,"lastSeen":3000,"sourceXmlHash":"'"$H2"'"}
{"$type$":"Keyword","topicId":"t","term":"x","frequency":3,"subjects":["a","b"],"score":1,"createdAt":1000,"lastSeen":2000,"sourceXmlHash":"'"$H1"'"}'
}

@test "subjects: description, keywords, count and time ranges over present, absent, present" {
	four
	run -0 st subjects t
	assert_output '{"$type$":"Subject","id":"a","topic":"t","description":"fourth a","keywords":["x","y"],"timeRanges":[{"start":1000,"end":2000},{"start":4000,"end":4000}],"messageCount":3,"createdAt":1000,"lastSeenAt":4000,"archived":false,"sourceXmlHash":"'"$H1"'"}
{"$type$":"Subject","id":"b","topic":"t","description":"third b","keywords":["x","z"],"timeRanges":[{"start":2000,"end":3000}],"messageCount":2,"createdAt":2000,"lastSeenAt":3000,"archived":false,"sourceXmlHash":"'"$H2"'"}'
}

@test "summary versions accumulate the content, subjects and keywords" {
	four
	V1='{"$type$":"Summary","id":"t-v1","topic":"t","content":"One.","subjects":["a"],"keywords":["x","y"],"version":1,"createdAt":1000,"updatedAt":1000,"changeReason":"summaryUpdate of message m1","sourceXmlHash":"'"$H1"'"}'
	V2='{"$type$":"Summary","id":"t-v2","topic":"t","content":"One.\nTwo.","subjects":["a","b"],"keywords":["x","y","z"],"version":2,"previousVersion":"t-v1","createdAt":2000,"updatedAt":2000,"changeReason":"summaryUpdate of message m2","sourceXmlHash":"'"$H2"'"}'
	V3='{"$type$":"Summary","id":"t-v3","topic":"t","content":"One.\nTwo.\nFour.","subjects":["a","b"],"keywords":["x","y","z"],"version":3,"previousVersion":"t-v2","createdAt":4000,"updatedAt":4000,"changeReason":"summaryUpdate of message m4","sourceXmlHash":"'"$H4"'"}'
	run -0 st summary t
	assert_output "$V3"
	run -0 st summary --revision 3 t
	assert_output "$V3"
	run -0 st summary --revision 2 t
	assert_output "$V2"
	run -0 st summary --revision 1 t
	assert_output "$V1"
	run -1 --separate-stderr st summary --revision 4 t
	assert_output ""
	assert_equal "$stderr" 'llmstore: topic "t" has no summary version 4'
	run -1 --separate-stderr st summary u
	assert_output ""
	assert_equal "$stderr" 'llmstore: no summary of topic "u"'
}

@test "a summaryUpdate of white space only makes no version" {
	resp 'R.' ' &#9; &#10; ' 's|d|true|k:0.5' >r.xml
	st put -t t -m m r.xml >/dev/null
	run -1 --separate-stderr st summary t
	assert_equal "$stderr" 'llmstore: no summary of topic "t"'
}

@test "context: message count, subjects and keywords in recent order" {
	four
	run -0 --separate-stderr st context t
	assert_output '{"topicId":"t","messageCount":5,"activeSubjects":["a","b"],"recentKeywords":["y","z","x"]}'
	assert_equal "$stderr" ""
}

@test "terms and subject names are trimmed, lower-cased (ASCII) and their white space joined" {
	resp 'R.' '' '  College &#9;&#10;Savings  |d1|true|  TAX&#10;&#10;Plan :0.5,Ümlaut-X:1' >r1.xml
	resp 'R.' '' 'college savings|d2|false|tax plan:0.90,ümlaut-x:7.5E-1' >r2.xml
	run -0 --separate-stderr at 1 put -t t -m m1 r1.xml
	h1=$output
	assert_equal "$stderr" ""
	run -0 --separate-stderr at 2 put -t t -m m2 r2.xml
	assert_equal "$stderr" ""
	run -0 st keywords t
	assert_output '{"$type$":"Keyword","topicId":"t","term":"tax plan","frequency":2,"subjects":["college savings"],"score":0.9,"createdAt":1,"lastSeen":2,"sourceXmlHash":"'"$h1"'"}
{"$type$":"Keyword","topicId":"t","term":"ümlaut-x","frequency":1,"subjects":["college savings"],"score":0.75,"createdAt":2,"lastSeen":2,"sourceXmlHash":"'"$(hash_of t m2 r2.xml llm-response 2)"'"}
{"$type$":"Keyword","topicId":"t","term":"Ümlaut-x","frequency":1,"subjects":["college savings"],"score":1,"createdAt":1,"lastSeen":1,"sourceXmlHash":"'"$h1"'"}'
	run -0 st subjects t
	assert_output '{"$type$":"Subject","id":"college savings","topic":"t","description":"d2","keywords":["tax plan","Ümlaut-x","ümlaut-x"],"timeRanges":[{"start":1,"end":2}],"messageCount":2,"createdAt":1,"lastSeenAt":2,"archived":false,"sourceXmlHash":"'"$h1"'"}'
}

@test "scores are written in the shortest form that reads back" {
	resp 'R.' '' 's|d|true|a:0.90,b:1e0,c:0.5,d:0,e:0.333,f:1.0,g:-0' >r.xml
	st put -t t -m m r.xml >/dev/null
	st keywords t | sed 's/.*"term":"\([a-z]\)".*"score":\([^,]*\),.*/\1 \2/' >scores
	run -0 cat scores
	assert_output 'a 0.9
b 1
c 0.5
d 0
e 0.333
f 1
g 0'
}

@test "isNew that contradicts the store gives a warning and the put succeeds" {
	resp 'R.' '' 'old|d|false|k:0.5' >r1.xml
	resp 'R.' '' 'old|d|true|k:0.5' 'new|d|false|k:0.5' >r2.xml
	run -0 --separate-stderr at 1 put -t t -m m1 r1.xml
	assert_output "$(hash_of t m1 r1.xml llm-response 1)"
	assert_equal "$stderr" 'r1.xml:4:5: warning: subject "old" is marked isNew="false" but the topic has no such subject'
	run -0 --separate-stderr at 2 put -t t -m m2 r2.xml
	assert_output "$(hash_of t m2 r2.xml llm-response 2)"
	assert_equal "$stderr" 'r2.xml:4:5: warning: subject "old" is marked isNew="true" but the topic has it already
r2.xml:7:5: warning: subject "new" is marked isNew="false" but the topic has no such subject'
	run -0 st ls
	assert_equal "${#lines[@]}" 2
	# the same subject in another topic is new there
	run -0 --separate-stderr at 3 put -t u -m m3 r1.xml
	assert_equal "$stderr" 'r1.xml:4:5: warning: subject "old" is marked isNew="false" but the topic has no such subject'
}

@test "isNew warnings name <stdin> and the files of a batch" {
	resp 'R.' '' 'old|d|false|k:0.5' >r1.xml
	run -0 --separate-stderr st put -t t -m m1 <r1.xml
	assert_equal "$stderr" '<stdin>:4:5: warning: subject "old" is marked isNew="false" but the topic has no such subject'
	resp 'R.' '' 'old|d|true|k:0.5' >m2.xml
	resp 'R.' '' 'fresh|d|false|k:0.5' >m3.xml
	run -0 --separate-stderr st put --batch -t t m2.xml m3.xml
	assert_equal "$stderr" 'm2.xml:4:5: warning: subject "old" is marked isNew="true" but the topic has it already
m3.xml:4:5: warning: subject "fresh" is marked isNew="false" but the topic has no such subject'
}

@test "put -q silences the isNew warnings" {
	resp 'R.' '' 'old|d|false|k:0.5' >r1.xml
	run -0 --separate-stderr st put -q -t t -m m1 r1.xml
	assert_equal "$stderr" ""
}

@test "an archived subject that appears again stays archived" {
	resp 'R.' '' 's|d|true|k:0.5' >r1.xml
	resp 'R.' '' 's|d|false|k:0.5' >r2.xml
	at 1 put -t t -m m1 r1.xml >/dev/null
	st archive t s
	at 2 put -t t -m m2 r2.xml >/dev/null
	run -0 st subjects t
	assert_output '{"$type$":"Subject","id":"s","topic":"t","description":"d","keywords":["k"],"timeRanges":[{"start":1,"end":2}],"messageCount":2,"createdAt":1,"lastSeenAt":2,"archived":true,"sourceXmlHash":"'"$(hash_of t m1 r1.xml llm-response 1)"'"}'
}

@test "options may follow the operands, as the usage shows them" {
	four
	run -0 --separate-stderr st summary t --revision 2
	assert_output --partial '{"$type$":"Summary","id":"t-v2",'
	assert_equal "$stderr" ""
	run -0 --separate-stderr st trace y -t t
	assert_output '{"topicId":"t","term":"y","sourceXmlHash":"'"$H1"'","messageId":"m1","format":"llm-response","createdAt":1000}'
	run -0 --separate-stderr st context t -d "$S"
	assert_output --partial '"messageCount":5,'
	usage_error '--revision must be a whole number from 1, not "x"' -d "$S" summary t --revision x
}

# ----------------------------------------------------------------- context

# jlist ITEM...: a JSON array of strings.
jlist() {
	printf '%s\n' "$@" | jq -Rcs 'split("\n")[:-1]'
}

@test "context gives at most 20 subjects and 50 keywords, the most recent" {
	local -a S_ORDER=() K_ORDER=()
	local r j n=0 i c kws s k
	for ((r = 1; r <= 9; r++)); do
		local -a subs=() rs=() rk=()
		for ((j = 3 * r - 2; j <= 3 * r && j <= 25; j++)); do
			kws='' c=2
			((j <= 10)) && c=3
			for ((i = 0; i < c; i++)); do
				n=$((n + 1))
				printf -v k 'k%02d' "$n"
				kws+="${kws:+,}$k:0.8"
				rk+=("$k")
			done
			printf -v s 's%02d' "$j"
			rs+=("$s")
			subs+=("$s|subject $j|true|$kws")
		done
		resp "Answer $r." "Turn $r." "${subs[@]}" >"r$r.xml"
		at $((r * 1000)) put -t t -m "r$r" "r$r.xml" >/dev/null
		S_ORDER=("${rs[@]}" "${S_ORDER[@]}")
		K_ORDER=("${rk[@]}" "${K_ORDER[@]}")
	done
	[ "${#S_ORDER[@]}" -eq 25 ]
	[ "${#K_ORDER[@]}" -eq 60 ]
	[ "${S_ORDER[0]}" = s25 ] && [ "${S_ORDER[1]}" = s22 ] && [ "${K_ORDER[0]}" = k59 ]
	run -0 st context t
	assert_output '{"topicId":"t","messageCount":9,"activeSubjects":'"$(jlist "${S_ORDER[@]:0:20}")"',"recentKeywords":'"$(jlist "${K_ORDER[@]:0:50}")"'}'
	# keywords and subjects list all of them in the same order
	run -0 bash -c "llmstore -d '$S' subjects t | jq -r .id | paste -sd ' '"
	assert_output "${S_ORDER[*]}"
	run -0 bash -c "llmstore -d '$S' keywords t | jq -r .term | paste -sd ' '"
	assert_output "${K_ORDER[*]}"
	# archived subjects are left out and the next ones move up
	st archive t s25
	st archive t s20
	local -a rest=()
	for s in "${S_ORDER[@]}"; do
		[ "$s" = s25 ] || [ "$s" = s20 ] || rest+=("$s")
	done
	run -0 st context t
	assert_output '{"topicId":"t","messageCount":9,"activeSubjects":'"$(jlist "${rest[@]:0:20}")"',"recentKeywords":'"$(jlist "${K_ORDER[@]:0:50}")"'}'
	[[ $output == *'"s05","s06"],'* ]]
}

@test "a subject seen again moves to the front of the context" {
	resp 'R.' '' 'a|d|true|ka:0.5' 'b|d|true|kb:0.5' >r1.xml
	resp 'R.' '' 'c|d|true|kc:0.5' >r2.xml
	resp 'R.' '' 'a|d|false|ka:0.5' >r3.xml
	for i in 1 2 3; do at $i put -t t -m m$i r$i.xml >/dev/null; done
	run -0 st context t
	assert_output '{"topicId":"t","messageCount":3,"activeSubjects":["a","c","b"],"recentKeywords":["ka","kc","kb"]}'
}

@test "context of an unknown topic is the empty context" {
	cp "$D/reply.xml" .
	st put -t t -m m reply.xml >/dev/null
	run -0 --separate-stderr st context nothing
	assert_output '{"topicId":"nothing","messageCount":0,"activeSubjects":[],"recentKeywords":[]}'
	assert_equal "$stderr" ""
}

@test "context on a missing store is the empty context and creates nothing" {
	run -0 --separate-stderr st context 'a "quoted" topic'
	assert_output '{"topicId":"a \"quoted\" topic","messageCount":0,"activeSubjects":[],"recentKeywords":[]}'
	assert_equal "$stderr" ""
	[ ! -e "$S" ]
}

@test "llmq-encode --context reads what context writes" {
	four
	run -0 --separate-stderr bash -c "llmq-encode --context <(llmstore -d '$S' context t) 'What next?'"
	assert_equal "$stderr" ""
	assert_output '<llmQuery>
  <userMessage>What next?</userMessage>
  <context topicId="t" messageCount="5">
    <activeSubjects>a, b</activeSubjects>
    <recentKeywords>y, z, x</recentKeywords>
  </context>
</llmQuery>'
	run -0 bash -c "llmq-encode --context <(llmstore -d '$S' context none) 'First?'"
	assert_output --partial '<context topicId="none" messageCount="0">'
	printf '%s\n' "$output" >q.xml
	run -0 llmr-validate q.xml
}

# ----------------------------------------------------------------- archive

@test "archive and archive --undo set and clear archived" {
	four
	run -0 --separate-stderr st archive t a
	assert_output ""
	assert_equal "$stderr" ""
	run -0 st context t
	assert_output '{"topicId":"t","messageCount":5,"activeSubjects":["b"],"recentKeywords":["y","z","x"]}'
	run -0 bash -c "llmstore -d '$S' subjects t | jq -c '[.id, .archived]'"
	assert_output '["a",true]
["b",false]'
	# archiving twice is fine
	st archive t a
	run -0 --separate-stderr st archive --undo t a
	assert_output ""
	# the name is normalised as subject names are
	st archive t '  B '
	run -0 st context t
	assert_output '{"topicId":"t","messageCount":5,"activeSubjects":["a"],"recentKeywords":["y","z","x"]}'
	st archive --undo t b
	run -0 st context t
	assert_output '{"topicId":"t","messageCount":5,"activeSubjects":["a","b"],"recentKeywords":["y","z","x"]}'
}

@test "archive of an unknown subject or topic: status 1" {
	four
	run -1 --separate-stderr st archive t nope
	assert_output ""
	assert_equal "$stderr" 'llmstore: topic "t" has no subject "nope"'
	run -1 --separate-stderr st archive --undo u a
	assert_equal "$stderr" 'llmstore: topic "u" has no subject "a"'
}

@test "archive needs a TOPIC and a SUBJECT" {
	usage_error 'archive takes TOPIC and SUBJECT' -d "$S" archive t
	usage_error 'archive takes TOPIC and SUBJECT' -d "$S" archive --undo t a b
}

# ------------------------------------------------------------------- trace

@test "trace finds the XML that produced a keyword, in every topic or in one" {
	cp "$D/reply.xml" .
	resp 'R.' '' 's|d|true|529-plan:0.5' >other.xml
	at 1 put -t a -m m1 reply.xml >/dev/null
	at 2 put -t b -m m2 other.xml >/dev/null
	h1=$(hash_of a m1 reply.xml llm-response 1)
	h2=$(hash_of b m2 other.xml llm-response 2)
	run -0 --separate-stderr st trace 529-plan
	assert_output '{"topicId":"a","term":"529-plan","sourceXmlHash":"'"$h1"'","messageId":"m1","format":"llm-response","createdAt":1}
{"topicId":"b","term":"529-plan","sourceXmlHash":"'"$h2"'","messageId":"m2","format":"llm-response","createdAt":2}'
	assert_equal "$stderr" ""
	run -0 st trace -t b 529-plan
	assert_output '{"topicId":"b","term":"529-plan","sourceXmlHash":"'"$h2"'","messageId":"m2","format":"llm-response","createdAt":2}'
	run -0 st trace -t a ' 529-PLAN '
	assert_output '{"topicId":"a","term":"529-plan","sourceXmlHash":"'"$h1"'","messageId":"m1","format":"llm-response","createdAt":1}'
	st cat "$h1" | cmp - reply.xml
}

@test "trace after rm gives nulls for the removed attachment" {
	cp "$D/reply.xml" .
	at 1 put -t a -m m1 reply.xml >/dev/null
	h1=$(hash_of a m1 reply.xml llm-response 1)
	st rm -m m1
	run -0 st trace tax-advantages
	assert_output '{"topicId":"a","term":"tax-advantages","sourceXmlHash":"'"$h1"'","messageId":null,"format":null,"createdAt":null}'
}

@test "trace of a term not there: status 1" {
	cp "$D/reply.xml" .
	st put -t a -m m1 reply.xml >/dev/null
	run -1 --separate-stderr st trace nope
	assert_output ""
	assert_equal "$stderr" 'llmstore: no keyword "nope"'
	run -1 --separate-stderr st trace -t b 529-plan
	assert_equal "$stderr" 'llmstore: no keyword "529-plan"'
}

# ------------------------------------------------------------------ prompt

@test "prompt set makes versions, one active; prompt get gives the bytes back" {
	cp "$D/prompt.txt" .
	printf 'second prompt, no newline' >p2.txt
	n1=$(wc -c <prompt.txt)
	run -0 --separate-stderr at 100 prompt set -M gpt-4 prompt.txt
	assert_output '{"$type$":"SystemPromptTemplate","modelId":"gpt-4","xmlSchemaVersion":1,"version":1,"createdAt":100,"updatedAt":100,"active":true,"size":'"$n1"'}'
	assert_equal "$stderr" ""
	run -0 at 200 prompt set -M gpt-4 --xml-schema-version 2 <p2.txt
	assert_output '{"$type$":"SystemPromptTemplate","modelId":"gpt-4","xmlSchemaVersion":2,"version":2,"createdAt":200,"updatedAt":200,"active":true,"size":25}'
	st prompt get -M gpt-4 >out
	cmp out p2.txt
	st prompt get -M gpt-4 --revision 1 >out
	cmp out prompt.txt
	st prompt get --revision 2 -M gpt-4 >out
	cmp out p2.txt
	run -0 sqlite3 "$S" 'select model_id, version, active from template order by model_id, version'
	assert_output 'gpt-4|1|0
gpt-4|2|1'
	# the version set aside was updated when the new one came
	run -0 st prompt ls
	assert_output '{"$type$":"SystemPromptTemplate","modelId":"gpt-4","xmlSchemaVersion":1,"version":1,"createdAt":100,"updatedAt":200,"active":false,"size":'"$n1"'}
{"$type$":"SystemPromptTemplate","modelId":"gpt-4","xmlSchemaVersion":2,"version":2,"createdAt":200,"updatedAt":200,"active":true,"size":25}'
}

@test "prompt ls lists every template by model then version, -M filters" {
	cp "$D/prompt.txt" .
	printf 'x' >x.txt
	at 1 prompt set -M zeta x.txt >/dev/null
	at 2 prompt set -M alpha x.txt >/dev/null
	at 3 prompt set -M zeta prompt.txt >/dev/null
	n=$(wc -c <prompt.txt)
	run -0 st prompt ls
	assert_line --index 0 '{"$type$":"SystemPromptTemplate","modelId":"alpha","xmlSchemaVersion":1,"version":1,"createdAt":2,"updatedAt":2,"active":true,"size":1}'
	assert_line --index 2 '{"$type$":"SystemPromptTemplate","modelId":"zeta","xmlSchemaVersion":1,"version":2,"createdAt":3,"updatedAt":3,"active":true,"size":'"$n"'}'
	assert_equal "${#lines[@]}" 3
	run -0 bash -c "llmstore -d '$S' prompt ls | jq -c '[.modelId, .version, .active]'"
	assert_output '["alpha",1,true]
["zeta",1,false]
["zeta",2,true]'
	run -0 bash -c "llmstore -d '$S' prompt ls -M zeta | jq -c '[.modelId, .version, .active]'"
	assert_output '["zeta",1,false]
["zeta",2,true]'
	run -0 st prompt ls -M nobody
	assert_output ""
}

@test "prompt get of a model or version not there: status 1" {
	printf 'x' >x.txt
	st prompt set -M m x.txt >/dev/null
	run -1 --separate-stderr st prompt get -M other
	assert_output ""
	assert_equal "$stderr" 'llmstore: no prompt template for model "other"'
	run -1 --separate-stderr st prompt get -M m --revision 2
	assert_output ""
	assert_equal "$stderr" 'llmstore: no version 2 of the prompt template for model "m"'
}

@test "an empty prompt or one that is not UTF-8 is refused: status 1" {
	: >empty.txt
	printf 'bad \377 byte\n' >bad.txt
	run -1 --separate-stderr st prompt set -M m empty.txt
	assert_output ""
	assert_equal "$stderr" 'llmstore: empty.txt: the prompt is empty'
	run -1 --separate-stderr st prompt set -M m </dev/null
	assert_equal "$stderr" 'llmstore: <stdin>: the prompt is empty'
	run -1 --separate-stderr st prompt set -M m bad.txt
	assert_output ""
	assert_equal "$stderr" 'llmstore: bad.txt: the prompt is not valid UTF-8'
	run -1 --separate-stderr st prompt get -M m
	assert_equal "$stderr" 'llmstore: no prompt template for model "m"'
}

# -------------------------------------------------------------------- fsck

@test "fsck of a sound store prints nothing and exits 0" {
	four
	sized 2000 >big.xml
	st put -t t -m big big.xml >/dev/null
	printf 'p' | st prompt set -M m >/dev/null
	run -0 --separate-stderr st fsck
	assert_output ""
	assert_equal "$stderr" ""
}

@test "fsck finds a blob whose bytes were changed" {
	sized 2000 >big.xml
	st put -t t -m big big.xml >/dev/null
	b=$(sha big.xml)
	sqlite3 "$S" "update blob set data = cast(replace(cast(data as text), 'xxxx', 'yyyy') as blob)"
	sed 's/xxxx/yyyy/g' big.xml >changed.xml
	[ "$(wc -c <changed.xml)" -eq 2000 ]
	run -1 --separate-stderr st fsck
	assert_output ""
	assert_equal "$stderr" "llmstore: $S: fsck: blob $b: its bytes hash to $(sha changed.xml)"
}

@test "fsck finds a blob whose size is wrong" {
	sized 2000 >big.xml
	st put -t t -m big big.xml >/dev/null
	sqlite3 "$S" "update blob set size = 1999"
	run -1 --separate-stderr st fsck
	assert_equal "$stderr" "llmstore: $S: fsck: blob $(sha big.xml): size is 1999, its bytes are 2000"
}

@test "fsck finds an attachment whose size is wrong" {
	cp "$D/reply.xml" .
	run -0 at 1 put -t t -m m reply.xml
	h=$output
	n=$(wc -c <reply.xml)
	sqlite3 "$S" "update attachment set size = 345"
	other=$(att t m reply.xml llm-response 1 | sed 's/,"size":[0-9]*,"hash".*/,"size":345}/' | tr -d '\n' | sha256sum | cut -c1-64)
	run -1 --separate-stderr st fsck
	assert_equal "$(printf '%s\n' "$stderr" | sort)" "$(printf '%s\n' \
	    "llmstore: $S: fsck: attachment $h (message \"m\"): size is 345, its XML has $n bytes" \
	    "llmstore: $S: fsck: attachment $h (message \"m\"): its fields hash to $other" | sort)"
}

@test "fsck finds an attachment with both xmlContent and xmlBlob, and one with neither" {
	cp "$D/reply.xml" .
	sized 2000 >big.xml
	run -0 at 1 put -t t -m m reply.xml
	h=$output
	st put -t t -m big big.xml >/dev/null
	b=$(sha big.xml)
	sqlite3 "$S" "PRAGMA ignore_check_constraints=ON; update attachment set xml_blob = '$b' where message_id = 'm'"
	# SQLite's own check sees the CHECK constraint broken; the fields
	# hashed are now both members
	both=$(jq -cn --rawfile x reply.xml --arg b "$b" '{"$type$":"XMLMessageAttachment",topicId:"t",messageId:"m",xmlContent:$x,xmlBlob:$b,format:"llm-response",version:1,createdAt:1,size:899}' | tr -d '\n' | sha256sum | cut -c1-64)
	run -1 --separate-stderr st fsck
	assert_output ""
	assert_equal "$stderr" "llmstore: $S: fsck: SQLite integrity_check: CHECK constraint failed in attachment
llmstore: $S: fsck: attachment $h (message \"m\"): both xmlContent and xmlBlob
llmstore: $S: fsck: attachment $h (message \"m\"): its fields hash to $both"
	sqlite3 "$S" "PRAGMA ignore_check_constraints=ON; update attachment set xml_content = NULL, xml_blob = NULL where message_id = 'm'"
	neither=$(jq -cn '{"$type$":"XMLMessageAttachment",topicId:"t",messageId:"m",format:"llm-response",version:1,createdAt:1,size:899}' | tr -d '\n' | sha256sum | cut -c1-64)
	run -1 --separate-stderr st fsck
	assert_equal "$stderr" "llmstore: $S: fsck: SQLite integrity_check: CHECK constraint failed in attachment
llmstore: $S: fsck: attachment $h (message \"m\"): neither xmlContent nor xmlBlob
llmstore: $S: fsck: attachment $h (message \"m\"): its fields hash to $neither"
}

@test "fsck finds an attachment whose blob is missing" {
	sized 2000 >big.xml
	run -0 st put -t t -m big big.xml
	h=$output
	sqlite3 "$S" "delete from blob"
	run -1 --separate-stderr st fsck
	assert_equal "$stderr" "llmstore: $S: fsck: attachment $h (message \"big\"): blob $(sha big.xml) is missing"
}

@test "fsck finds an attachment whose fields no longer give its hash" {
	cp "$D/reply.xml" .
	run -0 at 1 put -t t -m m reply.xml
	h=$output
	sqlite3 "$S" "update attachment set created_at = 2"
	run -1 --separate-stderr st fsck
	assert_equal "$stderr" "llmstore: $S: fsck: attachment $h (message \"m\"): its fields hash to $(att t m reply.xml llm-response 2 | line_hash)"
	sqlite3 "$S" "update attachment set created_at = 1, topic_id = 'u'"
	run -1 --separate-stderr st fsck
	assert_equal "$stderr" "llmstore: $S: fsck: attachment $h (message \"m\"): its fields hash to $(att u m reply.xml llm-response 1 | line_hash)"
	sqlite3 "$S" "update attachment set topic_id = 't'"
	run -0 st fsck
}

@test "fsck finds inline XML over 1024 bytes and a blob not over 1024" {
	sized 1025 >big.xml
	sized 1024 >small.xml
	run -0 --separate-stderr at 1 put -t t -m big big.xml
	hb=$output
	run -0 --separate-stderr at 1 put -t t -m small small.xml
	hs=$output
	sb=$(sha big.xml)
	ss=$(sha small.xml)
	# big moves into its row, small into a blob of its own
	sqlite3 "$S" "update attachment set xml_content = (select cast(data as text) from blob), xml_blob = NULL where message_id = 'big'; delete from blob;
insert into blob values ('$ss', 1024, (select cast(xml_content as blob) from attachment where message_id = 'small'));
update attachment set xml_blob = '$ss', xml_content = NULL where message_id = 'small';"
	fb=$(jq -cn --rawfile x big.xml '{"$type$":"XMLMessageAttachment",topicId:"t",messageId:"big",xmlContent:$x,format:"llm-response",version:1,createdAt:1,size:1025}' | tr -d '\n' | sha256sum | cut -c1-64)
	fs=$(jq -cn --arg b "$ss" '{"$type$":"XMLMessageAttachment",topicId:"t",messageId:"small",xmlBlob:$b,format:"llm-response",version:1,createdAt:1,size:1024}' | tr -d '\n' | sha256sum | cut -c1-64)
	run -1 --separate-stderr st fsck
	assert_output ""
	assert_equal "$(printf '%s\n' "$stderr" | sort)" "$(printf '%s\n' \
	    "llmstore: $S: fsck: attachment $hb (message \"big\"): inline XML of 1025 bytes, over 1024" \
	    "llmstore: $S: fsck: attachment $hb (message \"big\"): its fields hash to $fb" \
	    "llmstore: $S: fsck: attachment $hs (message \"small\"): a blob of 1024 bytes, not over 1024" \
	    "llmstore: $S: fsck: attachment $hs (message \"small\"): its fields hash to $fs" | sort)"
}

@test "fsck finds a model with two active prompt templates, and one with none" {
	printf 'a' | at 1 prompt set -M two >/dev/null
	printf 'b' | at 2 prompt set -M two >/dev/null
	printf 'c' | at 3 prompt set -M none >/dev/null
	idx=$(sqlite3 "$S" "select name from sqlite_master where type = 'index' and tbl_name = 'template' and sql like '%active%'")
	[ -n "$idx" ]
	sqlite3 "$S" "drop index \"$idx\"; update template set active = 1 where model_id = 'two'; update template set active = 0 where model_id = 'none';"
	run -1 --separate-stderr st fsck
	assert_output ""
	assert_equal "$stderr" "llmstore: $S: fsck: model \"none\": 0 active prompt templates
llmstore: $S: fsck: model \"two\": 2 active prompt templates"
}

@test "fsck finds a gap in the summary versions" {
	cp "$D/reply.xml" .
	for i in 1 2 3; do st put -t t -m m$i reply.xml 2>/dev/null >/dev/null; done
	sqlite3 "$S" "delete from summary where version = 2"
	run -1 --separate-stderr st fsck
	assert_output ""
	assert_equal "$stderr" "llmstore: $S: fsck: topic \"t\": summary version 2 is missing"
}

@test "fsck reports every problem, one line each" {
	cp "$D/reply.xml" .
	sized 2000 >big.xml
	st put -t t -m m reply.xml >/dev/null
	st put -t t -m big big.xml >/dev/null
	sqlite3 "$S" "update blob set size = 1; delete from summary where version = 1;"
	run -1 --separate-stderr st fsck
	assert_output ""
	assert_equal "${#stderr_lines[@]}" 2
	assert_equal "$(printf '%s\n' "$stderr" | sort)" "$(printf '%s\n' \
	    "llmstore: $S: fsck: blob $(sha big.xml): size is 1, its bytes are 2000" \
	    "llmstore: $S: fsck: topic \"t\": summary version 1 is missing" | sort)"
}

# ---------------------------------------------------------- export, import

@test "export writes the header, then every object as a JSON line" {
	cp "$D/reply.xml" .
	sized 2000 >big.xml
	at 1 put -t t -m m reply.xml >/dev/null
	at 2 put -t t -m big big.xml >/dev/null
	printf 'p' | at 3 prompt set -M gpt-4 >/dev/null
	run -0 --separate-stderr st export
	assert_equal "$stderr" ""
	assert_line --index 0 '{"$type$":"llmstore","version":1}'
	# attachments as ls writes them, with their place in the store
	assert_line "$(att t m reply.xml llm-response 1 | sed 's/}$/,"seq":1}/')"
	assert_line "$(att t big big.xml llm-response 2 | sed 's/}$/,"seq":2}/')"
	assert_line "$(jq -cn --arg h "$(sha big.xml)" --rawfile d big.xml '{"$type$":"BLOB",hash:$h,size:2000,data:$d}')"
	assert_line '{"$type$":"SystemPromptTemplate","modelId":"gpt-4","promptText":"p","xmlSchemaVersion":1,"version":1,"createdAt":3,"updatedAt":3,"active":true}'
	# summary versions: what each added, from which summary rebuilds them
	for v in 1 2; do
		st summary --revision $v t | jq -c --arg prev "$(st summary --revision $((v - 1)) t 2>/dev/null | jq -r .content)" \
		    '{"$type$", id, topic, update: (if .version == 1 then .content else .content[($prev | length) + 1:] end)}'
	done >objs
	printf '%s\n' "$output" | jq -c 'select(."$type$" == "Summary") | {"$type$", id, topic, update}' | cmp - objs
	assert_line '{"$type$":"Summary","id":"t-v2","topic":"t","update":"Sized.","newSubjects":["big"],"newKeywords":["big-term"],"version":2,"previousVersion":"t-v1","createdAt":2,"updatedAt":2,"changeReason":"summaryUpdate of message big","sourceXmlHash":"'"$(st ls -m big | jq -r .hash)"'"}'
	# keywords and subjects may carry more (their recent order), but
	# hold every member that keywords and subjects show
	{ st subjects t; st keywords t; } | sort >objs
	printf '%s\n' "$output" | jq -c 'select(."$type$" == "Subject" or ."$type$" == "Keyword") | del(.lastSeq, .lastPos)' | sort | cmp - objs
	# every line is JSON
	printf '%s\n' "$output" | jq -c . >/dev/null
}

@test "export | import into a new store gives a byte-identical export" {
	four
	sized 2000 >big.xml
	printf '<llmResponse>\r\n<response>Grüße ✓</response><analysis><summaryUpdate>Ünï</summaryUpdate></analysis></llmResponse>' >crlf.xml
	at 5000 put -t t -m big big.xml >/dev/null
	at 6000 put -t u -m crlf crlf.xml >/dev/null
	at 6100 put -t u -m big2 big.xml >/dev/null
	st rm -m m1
	st archive t b
	printf 'one' | at 7000 prompt set -M gpt-4 >/dev/null
	at 7100 prompt set -M gpt-4 "$D/prompt.txt" >/dev/null
	st export >one.jsonl
	run -0 --separate-stderr llmstore -d new.db import one.jsonl
	assert_output ""
	assert_equal "$stderr" ""
	llmstore -d new.db export >two.jsonl
	cmp one.jsonl two.jsonl
	# and through standard input
	llmstore -d new2.db import <one.jsonl
	llmstore -d new2.db export | cmp - one.jsonl
	run -0 llmstore -d new.db fsck
	for c in 'ls' 'context t' 'keywords t' 'subjects u' 'prompt ls'; do
		cmp <(st $c) <(llmstore -d new.db $c)
	done
	llmstore -d new.db cat -m crlf | cmp - crlf.xml
	llmstore -d new.db prompt get -M gpt-4 | cmp - "$D/prompt.txt"
}

@test "import of a bad line refuses everything: FILE:LINE:1" {
	cp "$D/reply.xml" .
	sized 2000 >big.xml
	run -0 at 1 put -t t -m m reply.xml
	h=$output
	run -0 --separate-stderr at 2 put -t t -m big big.xml
	hb=$output
	b=$(sha big.xml)
	st export >good.jsonl
	[[ $(sed -n 2p good.jsonl) == '{"$type$":"BLOB",'* ]]
	[[ $(sed -n 3p good.jsonl) == *'"messageId":"m",'* ]]
	# a blob whose size is wrong: it and the attachment that uses it
	sed '2s/"size":2000/"size":2001/' good.jsonl >bad.jsonl
	run -1 --separate-stderr llmstore -d new.db import bad.jsonl
	assert_output ""
	assert_equal "$stderr" "bad.jsonl:2:1: error: blob $b: size is 2001, its data has 2000 bytes
bad.jsonl:4:1: error: attachment $hb: blob $b is not in the store"
	run -0 llmstore -d new.db export
	assert_output '{"$type$":"llmstore","version":1}'
	# a line that is not JSON
	sed '2s/^{/x/' good.jsonl >bad2.jsonl
	run -1 --separate-stderr llmstore -d new.db import bad2.jsonl
	assert_equal "${stderr_lines[0]}" "bad2.jsonl:2:1: error: not a JSON object: '[' or '{' expected near 'x'"
	# an attachment whose hash does not match its fields
	sed '3s/"createdAt":1,/"createdAt":9,/' good.jsonl >bad3.jsonl
	run -1 --separate-stderr llmstore -d new.db import bad3.jsonl
	assert_equal "$stderr" "bad3.jsonl:3:1: error: attachment $h: its fields hash to $(att t m reply.xml llm-response 9 | line_hash)"
	# an attachment whose size is wrong
	sed '3s/"size":899,/"size":898,/' good.jsonl >bad4.jsonl
	run -1 --separate-stderr llmstore -d new.db import bad4.jsonl
	assert_equal "$stderr" "bad4.jsonl:3:1: error: attachment $h: size is 898, its XML has 899 bytes"
	run -0 llmstore -d new.db export
	assert_output '{"$type$":"llmstore","version":1}'
	llmstore -d new.db import good.jsonl
	llmstore -d new.db export | cmp - good.jsonl
}

@test "import of objects already in the store refuses everything" {
	cp "$D/reply.xml" .
	at 1 put -t t -m m reply.xml >/dev/null
	st export >e.jsonl
	st export >before
	run -1 --separate-stderr st import e.jsonl
	assert_output ""
	assert_equal "${stderr_lines[0]}" 'e.jsonl:2:1: error: message "m" (or seq 1) is already in the store'
	assert_equal "${stderr_lines[1]}" 'e.jsonl:3:1: error: subject "college-savings" of topic "t" is already in the store'
	assert_equal "${stderr_lines[2]}" 'e.jsonl:4:1: error: keyword "529-plan" of topic "t" is already in the store' 
	st export | cmp - before
	# stdin is named <stdin>
	run -1 --separate-stderr st import <e.jsonl
	[[ ${stderr_lines[0]} == "<stdin>:2:1: error: "* ]] || fail "$stderr"
}

# ---------------------------------------------------------- the store file

@test "read commands on a missing store: No such file or directory, status 3, nothing created" {
	for c in 'ls' 'cat -m m' "cat $(printf '%064d' 0)" 'summary t' 'keywords t' \
	    'subjects t' 'trace x' 'prompt get -M m' 'prompt ls' 'fsck' 'export'; do
		run -3 --separate-stderr st $c
		assert_output ""
		assert_equal "$stderr" "llmstore: $S: No such file or directory"
		[ ! -e "$S" ]
	done
}

@test "write commands create the store" {
	run -1 st rm -m m
	[ -e "$S" ]
	rm -f "$S"*
	printf 'x' | st prompt set -M m >/dev/null
	[ -e "$S" ]
	rm -f "$S"*
	printf '%s\n' '{"$type$":"llmstore","version":1}' | st import
	[ -e "$S" ]
	rm -f "$S"*
	st archive t s || true
	[ -e "$S" ]
}

@test "a text file as the store: not an llmstore database, status 3, left alone" {
	cp "$D/reply.xml" .
	printf 'just some text, long enough to be a header of a file\n%.0s' {1..40} >"$S"
	cp "$S" orig
	for c in 'ls' 'context t' "put -t t -m m reply.xml"; do
		run -3 --separate-stderr st $c
		assert_output ""
		assert_equal "$stderr" "llmstore: $S: not an llmstore database (file is not a database)"
	done
	cmp "$S" orig
}

@test "a foreign SQLite database as the store: not an llmstore database, status 3" {
	cp "$D/reply.xml" .
	sqlite3 "$S" 'create table notes(x); insert into notes values (1);'
	for c in 'ls' 'context t' "put -t t -m m reply.xml" 'fsck'; do
		run -3 --separate-stderr st $c
		assert_output ""
		assert_equal "$stderr" "llmstore: $S: not an llmstore database"
	done
	run -0 sqlite3 "$S" 'select count(*) from sqlite_master; pragma journal_mode; pragma application_id;'
	assert_output '1
delete
0'
}

@test "a store of a newer schema is refused: status 3" {
	cp "$D/reply.xml" .
	st put -t t -m m reply.xml >/dev/null
	sqlite3 "$S" 'pragma user_version = 7'
	for c in 'ls' 'context t' "put -t t -m m2 reply.xml" 'export'; do
		run -3 --separate-stderr st $c
		assert_output ""
		assert_equal "$stderr" "llmstore: $S: written by a newer llmstore (schema 7); this one reads schema 1"
	done
}

@test "an empty file is a new store" {
	cp "$D/reply.xml" .
	: >"$S"
	run -0 at 1 put -t t -m m reply.xml
	assert_output "$(hash_of t m reply.xml llm-response 1)"
	run -0 sqlite3 "$S" 'pragma application_id'
	assert_output 1280068947
}

@test "a directory as the store is trouble: status 3" {
	mkdir "$S"
	for c in ls 'context t' 'put -t t -m m '"$D/reply.xml"; do
		run -3 --separate-stderr st $c
		assert_output ""
		assert_equal "$stderr" "llmstore: $S: Is a directory"
	done
}

@test "a failed write is trouble: status 3" {
	four
	for c in 'ls' 'context t' 'keywords t' 'export' 'cat -m m1'; do
		run -3 --separate-stderr bash -c "llmstore -d '$S' $c >/dev/full"
		assert_output ""
		assert_equal "$stderr" 'llmstore: <stdout>: No space left on device'
	done
	run -3 --separate-stderr bash -c "llmstore -d '$S' context missing-store >/dev/full"
	assert_equal "$stderr" 'llmstore: <stdout>: No space left on device'
}

# Hostile input (issue 13)

@test "put --batch: a document nested 500,000 deep is refused and spoils no other" {
	python3 -c 'print("<llmResponse><response>x" + "<e>" * 500000 + "</e>" * 500000 + "</response><analysis><summaryUpdate/></analysis></llmResponse>")' >deep.xml
	cp "$D/reply.xml" good.xml
	cp "$D/bad.xml" .
	run -1 --separate-stderr st put --batch -t t deep.xml good.xml bad.xml
	assert_output ""
	assert_equal "$stderr" "deep.xml:1:12307: error: element nesting deeper than 4096 levels
$(cat "$D/bad.err")"
	run -0 --separate-stderr st ls
	assert_output ""
	run -0 --separate-stderr at 1 put --batch -t t good.xml
	assert_output "$(hash_of t good good.xml llm-response 1)  good.xml"
	assert_equal "$stderr" ""
}

@test "a topic, message id, model, subject, term or hash that is not UTF-8 is a usage error, for every command" {
	cp "$D/reply.xml" .
	local bad=$'a\xffb' c
	for c in "put -t $bad -m m reply.xml:-t" "put -t t -m $bad reply.xml:-m" \
	    "ls -t $bad:-t" "ls -m $bad:-m" "cat -m $bad:-m" "rm -m $bad:-m" \
	    "trace x -t $bad:-t" "prompt set -M $bad reply.xml:-M" \
	    "prompt get -M $bad:-M" "prompt ls -M $bad:-M" \
	    "context $bad:TOPIC" "summary $bad:TOPIC" "keywords $bad:TOPIC" \
	    "subjects $bad:TOPIC" "archive $bad s:TOPIC" "archive t $bad:SUBJECT" \
	    "trace $bad:TERM" "cat $bad:HASH"; do
		# shellcheck disable=SC2086
		usage_error "${c##*:} must be valid UTF-8, not \"a\\xFFb\"" -d "$S" ${c%:*}
	done
	[ ! -e "$S" ]
}

@test "put --batch refuses a file whose name gives an id that is not UTF-8, before it reads any file" {
	cp "$D/reply.xml" good.xml
	cp "$D/reply.xml" $'r\xff.xml'
	usage_error 'put --batch: the message id of "r\xFF.xml" must be valid UTF-8' \
	    -d "$S" put --batch -t t good.xml $'r\xff.xml'
	[ ! -e "$S" ]
	# a directory that is not UTF-8 is not part of the id
	mkdir $'d\xff'
	cp "$D/reply.xml" $'d\xff/r1.xml'
	run -0 --separate-stderr st put --batch -t t $'d\xff/r1.xml'
	assert_equal "$(st ls | jq -r .messageId)" r1
}

@test "names with control characters, quotes and backslashes come out as valid JSON and escaped diagnostics" {
	cp "$D/reply.xml" .
	local m=$'m\n1\t"q"\\\x01\x7f' t=$'t\x1b[31m'
	run -0 --separate-stderr at 1 put -t "$t" -m "$m" reply.xml
	run -0 st ls
	assert_equal "$(printf '%s' "$output" | jq -r '.messageId, .topicId' | od -An -c | tr -s ' ')" \
	    "$(printf '%s\n%s\n' "$m" "$t" | od -An -c | tr -s ' ')"
	[[ $output == *'"topicId":"t\u001b[31m","messageId":"m\n1\t\"q\"\\\u0001'$'\x7f''"'* ]]
	run -0 st context "$t"
	assert_equal "$(printf '%s' "$output" | jq -r .topicId)" "$t"
	st export >e.jsonl
	llmstore -d new.db import e.jsonl
	llmstore -d new.db export | cmp - e.jsonl
	run -1 --separate-stderr st cat -m "x$m"
	assert_equal "$stderr" 'llmstore: no message "xm\n1\t\"q\"\\\u0001\u007f"'
	run -1 --separate-stderr st summary "$t" --revision 9
	assert_equal "$stderr" 'llmstore: topic "t\u001b[31m" has no summary version 9'
}

@test "a subject name or term with a comma is stored with a warning, and context leaves it out, so that llmq-encode reads it" {
	resp 'Saving.' 'User asked about college savings.' \
	    'college, savings|Saving for college|true|529-plan:0.9,tax:0.8' \
	    'budget|The budget|true|rent:0.7' | sed 's/529-plan/529, plan/' >c.xml
	# llmr-validate accepts it (SHOULD warnings only)
	run -0 llmr-validate c.xml
	run -0 --separate-stderr st put -t T -m r1 c.xml
	assert_equal "$stderr" 'c.xml:4:5: warning: subject "college, savings" holds a comma, which llmq-encode refuses: context leaves it out
c.xml:4:5: warning: keyword "529, plan" holds a comma, which llmq-encode refuses: context leaves it out'
	run -0 st subjects T
	assert_equal "$(printf '%s\n' "$output" | jq -r .id)" 'college, savings
budget'
	run -0 --separate-stderr bash -c "llmstore -d '$S' context T | llmq-encode --context - 'next question'"
	assert_equal "$stderr" ""
	assert_output '<llmQuery>
  <userMessage>next question</userMessage>
  <context topicId="T" messageCount="1">
    <activeSubjects>budget</activeSubjects>
    <recentKeywords>tax, rent</recentKeywords>
  </context>
</llmQuery>'
	# -q keeps the warnings quiet
	run -0 --separate-stderr st put -q -t T -m r2 c.xml
	assert_equal "$stderr" ""
}

# nofs CMD...: CMD with standard error kept, under a limit of 1 MiB on the
# size of a file it writes (SIGXFSZ ignored, so that the write fails): a
# commit of more than that fails, after the statements have run.
nofs() {
	bash -c 'trap "" XFSZ; ulimit -f 1024; exec "$@"' nofs "$@"
}

@test "nothing that says stored is written before COMMIT: a commit that fails prints nothing" {
	cp "$D/reply.xml" .
	python3 -c "print('p' * 2000000)" >big.txt
	resp "$(python3 -c "print('x' * 2000000)")" 'Big.' 'big|a big answer|true|big-term:0.9' >big.xml
	cp big.xml b1.xml
	at 1 prompt set -M m reply.xml >/dev/null
	at 1 put -t t -m r1 reply.xml >/dev/null
	local before
	before=$(st export)
	for c in 'prompt set -M m big.txt' 'put -t t -m big big.xml' \
	    'put --batch -t t b1.xml'; do
		# shellcheck disable=SC2086
		run -3 --separate-stderr nofs llmstore -d "$S" $c
		assert_output ""
		assert_equal "$stderr" "llmstore: $S: disk I/O error"
		assert_equal "$(st export)" "$before"
	done
	llmstore -d other.db put -t t -m big big.xml >/dev/null
	llmstore -d other.db export >e.jsonl
	run -3 --separate-stderr nofs llmstore -d new.db import e.jsonl
	assert_output ""
	assert_equal "$stderr" "llmstore: new.db: disk I/O error"
	run -0 llmstore -d new.db export
	assert_output '{"$type$":"llmstore","version":1}'
	run -0 st prompt ls
	assert_equal "$(printf '%s\n' "$output" | jq -r .version)" 1
}

@test "put --batch escapes a file name with a newline or a backslash as sha256sum does" {
	cp "$D/reply.xml" $'n\nl.xml'
	cp "$D/reply.xml" 'b\s.xml'
	cp "$D/reply.xml" plain.xml
	run -0 --separate-stderr st put --batch -t t $'n\nl.xml' 'b\s.xml' plain.xml
	local h1 h2 h3
	h1=$(st ls -m $'n\nl' | jq -r .hash)
	h2=$(st ls -m 'b\s' | jq -r .hash)
	h3=$(st ls -m plain | jq -r .hash)
	assert_output "\\$h1  n\\nl.xml
\\$h2  b\\\\s.xml
$h3  plain.xml"
	# the same form as sha256sum's
	assert_equal "$(sha256sum $'n\nl.xml' 'b\s.xml' plain.xml | sed 's/^\(.\)\?[0-9a-f]\{64\}/\1H/')" \
	    "$(printf '%s\n' "$output" | sed 's/^\(.\)\?[0-9a-f]\{64\}/\1H/')"
}

@test "put, put --batch and import of /dev/zero stop at the first byte" {
	cp "$D/reply.xml" .
	run -1 --separate-stderr timeout 10 llmstore -d "$S" put -t t -m z /dev/zero
	assert_output ""
	assert_equal "$stderr" "/dev/zero:1:1: error: not well-formed (NUL byte)"
	run -1 --separate-stderr timeout 10 llmstore -d "$S" put --batch -t t /dev/zero reply.xml
	assert_output ""
	assert_equal "$stderr" "/dev/zero:1:1: error: not well-formed (NUL byte)"
	run -1 --separate-stderr timeout 10 llmstore -d "$S" import /dev/zero
	assert_output ""
	assert_equal "$stderr" "/dev/zero:1:1: error: NUL byte"
	printf '{"$type$":"llmstore","version":1}\n{"a":\0' >nul.jsonl
	run -1 --separate-stderr timeout 10 llmstore -d "$S" import nul.jsonl
	assert_equal "$stderr" "nul.jsonl:2:6: error: NUL byte"
	run -0 st ls
	assert_output ""
}

# crafted FILTER: the export of a store of reply.xml (r1, at 1) with the jq
# FILTER applied to each line after the first, in crafted.jsonl.
crafted() {
	if [ ! -e base.jsonl ]; then
		cp "$D/reply.xml" .
		at 1 put -t t -m r1 reply.xml >/dev/null
		st export >base.jsonl
		rm -f "$S" "$S-wal" "$S-shm"
	fi
	{
		head -n 1 base.jsonl
		tail -n +2 base.jsonl | jq -c "$1"
	} >crafted.jsonl
}

# refused_import MESSAGE: crafted.jsonl is refused with MESSAGE, and the
# store stays empty.
refused_import() {
	run -1 --separate-stderr llmstore -d new.db import crafted.jsonl
	assert_output ""
	assert_equal "$stderr" "$1"
	run -0 llmstore -d new.db export
	assert_output '{"$type$":"llmstore","version":1}'
}

@test "import refuses an attachment whose seq is beyond STORE_SEQ_MAX, takes one at it, and put then finds the store full" {
	# (jq keeps integers as doubles: the big one is put in with sed)
	crafted 'if ."$type$" == "XMLMessageAttachment" then .seq = 777 else . end'
	sed -i 's/"seq":777}$/"seq":9223372036854775807}/' crafted.jsonl
	local h
	h=$(sed -n 2p crafted.jsonl | jq -r .hash)
	refused_import "crafted.jsonl:2:1: error: attachment $h (message \"r1\"): seq 9223372036854775807 is outside 1-1000000000000"
	crafted 'if ."$type$" == "XMLMessageAttachment" then .seq = 1000000000001 else . end'
	refused_import "crafted.jsonl:2:1: error: attachment $h (message \"r1\"): seq 1000000000001 is outside 1-1000000000000"
	crafted 'if ."$type$" == "XMLMessageAttachment" then .seq = 1000000000000 elif .lastSeq then .lastSeq = 1000000000000 else . end'
	run -0 --separate-stderr llmstore -d new.db import crafted.jsonl
	run -0 llmstore -d new.db fsck
	run -3 --separate-stderr llmstore -d new.db put -t t -m r2 reply.xml
	assert_output ""
	assert_equal "$stderr" 'llmstore: new.db: the store is full: no place after 1000000000000 is left for message "r2"'
	run -0 llmstore -d new.db fsck
}

@test "import refuses keyword scores and frequencies out of range, terms not normalised, and empty ids" {
	crafted 'if .term == "529-plan" then .score = 5 | .frequency = -3 else . end'
	refused_import 'crafted.jsonl:4:1: error: keyword "529-plan" of topic "t": frequency -3 is outside 1-9007199254740991
crafted.jsonl:4:1: error: keyword "529-plan" of topic "t": score 5 is outside 0.0-1.0'
	crafted 'if .term == "529-plan" then .term = "529 Plan" else . end'
	refused_import 'crafted.jsonl:4:1: error: keyword "529 Plan" of topic "t": term "529 Plan" is not normalised ("529 plan")'
	# what no XML attribute holds, which llmq-encode would refuse
	crafted 'if .term == "529-plan" then .term = "a\u0001b" | .subjects = ["s\tx"] else . end'
	refused_import 'crafted.jsonl:4:1: error: keyword "a\u0001b" of topic "t": term "a\u0001b" holds U+0001, which XML cannot hold
crafted.jsonl:4:1: error: keyword "a\u0001b" of topic "t": subject "s\tx" is not normalised ("s x")'
	crafted 'if ."$type$" == "Subject" then .keywords[0] = " X" | .timeRanges[0].start = 2 | .messageCount = 0 else . end'
	refused_import 'crafted.jsonl:3:1: error: subject "college-savings" of topic "t": messageCount 0 is outside 1-9007199254740991
crafted.jsonl:3:1: error: subject "college-savings" of topic "t": keyword " X" is not normalised ("x")
crafted.jsonl:3:1: error: subject "college-savings" of topic "t": time range 2-1 ends before it starts'
	crafted 'if ."$type$" == "XMLMessageAttachment" then .messageId = "" else . end'
	local h
	h=$(sed -n 2p base.jsonl | jq -r .hash)
	refused_import "crafted.jsonl:2:1: error: attachment $h (message \"\"): messageId is empty"
	crafted 'if ."$type$" == "XMLMessageAttachment" then .topicId = "" | .createdAt = 1000000000000000 else . end'
	refused_import "crafted.jsonl:2:1: error: attachment $h (message \"r1\"): topicId is empty
crafted.jsonl:2:1: error: attachment $h (message \"r1\"): createdAt 1000000000000000 is outside 0-999999999999999"
	crafted 'if ."$type$" == "Summary" then .update = " padded " | .sourceXmlHash = "x" else . end'
	refused_import 'crafted.jsonl:8:1: error: summary "t-v1": update is not trimmed of white space
crafted.jsonl:8:1: error: summary "t-v1": sourceXmlHash "x" is not a SHA-256 hash (64 lowercase hexadecimal digits)'
	# at the limit of time, accepted (a keyword's: an attachment's time is
	# in its hash)
	crafted 'if ."$type$" == "Keyword" then .createdAt = 999999999999999 | .score = 1 else . end'
	run -0 --separate-stderr llmstore -d new.db import crafted.jsonl
	# STORE_COUNT_MAX and the last place in a response: at the limit and
	# one over
	rm -f new.db new.db-wal new.db-shm
	crafted 'if .term == "529-plan" then .frequency = 9007199254740992 | .lastPos = 1048576 else . end'
	refused_import 'crafted.jsonl:4:1: error: keyword "529-plan" of topic "t": frequency 9007199254740992 is outside 1-9007199254740991
crafted.jsonl:4:1: error: keyword "529-plan" of topic "t": lastPos 1048576 is outside 0-1048575'
	crafted 'if .term == "529-plan" then .frequency = 9007199254740991 | .lastPos = 1048575 else . end'
	run -0 --separate-stderr llmstore -d new.db import crafted.jsonl
	run -0 llmstore -d new.db keywords t
	[[ $output == *'"term":"529-plan","frequency":9007199254740991,'* ]]
	run -0 llmstore -d new.db fsck
}

@test "import refuses an attachment whose XML is not a valid document of its format" {
	crafted 'if ."$type$" == "XMLMessageAttachment" then .xmlContent = "garbage" | .size = 7 else . end'
	local h
	h=$(sed -n 2p crafted.jsonl | jq -r .hash)
	refused_import "crafted.jsonl:2:1: error: attachment $h (message \"r1\"): its XML is not a valid <llmResponse> document: 1:1: text before the root element"
	query 'What?' >q.xml
	crafted "if .\"\$type\$\" == \"XMLMessageAttachment\" then .xmlContent = \"$(sed 's/"/\\"/g' q.xml | tr '\n' '~' | sed 's/~/\\n/g')\" | .size = $(wc -c <q.xml) else . end"
	refused_import "crafted.jsonl:2:1: error: attachment $h (message \"r1\"): its XML is not a valid <llmResponse> document: 1:1: /llmQuery: root element must be <llmResponse>"
}

@test "fsck finds what import would refuse, in rows crafted with sqlite3: status 1" {
	cp "$D/reply.xml" .
	at 1 put -t t -m r1 reply.xml >/dev/null
	printf 'Hi.' | at 1 prompt set -M m >/dev/null
	run -0 st fsck
	sqlite3 "$S" "UPDATE keyword SET score = 5, frequency = -3 WHERE term = '529-plan';
	    UPDATE subject SET id = 'College', last_seq = 9223372036854775807;
	    UPDATE summary SET update_text = ' x';
	    UPDATE template SET version = 0, prompt_text = '';
	    UPDATE subject_keyword SET term = 'Tax' WHERE term = 'tax-advantages';
	    INSERT INTO keyword SELECT topic_id, CAST(X'61FF' AS TEXT), 1, 0.5, 1, 1, NULL, 1, 0 FROM keyword LIMIT 1;"
	run -1 --separate-stderr st fsck
	assert_output ""
	assert_equal "$stderr" "llmstore: $S: fsck: keyword \"529-plan\" of topic \"t\": frequency -3 is outside 1-9007199254740991
llmstore: $S: fsck: keyword \"529-plan\" of topic \"t\": score 5 is outside 0.0-1.0
llmstore: $S: fsck: keyword \"a\\xFF\" of topic \"t\": term is not valid UTF-8
llmstore: $S: fsck: subject \"College\" of topic \"t\": id \"College\" is not normalised (\"college\")
llmstore: $S: fsck: subject \"College\" of topic \"t\": lastSeq 9223372036854775807 is outside 1-1000000000000
llmstore: $S: fsck: subject \"college-savings\" of topic \"t\": keyword \"Tax\" is not normalised (\"tax\")
llmstore: $S: fsck: summary \"t-v1\": update is not trimmed of white space
llmstore: $S: fsck: version 0 of the prompt template of model \"m\": promptText is empty
llmstore: $S: fsck: version 0 of the prompt template of model \"m\": version 0 is outside 1-1000000000000"
	# and the output stays valid JSON
	run -0 st keywords t
	printf '%s\n' "$output" | jq -e . >/dev/null
	[[ $output == *'"term":"a'$'\xef\xbf\xbd''"'* ]]
}

@test "import refuses a model left without an active template, and a topic whose summary versions have a gap" {
	printf '%s\n' '{"$type$":"llmstore","version":1}' \
	    '{"$type$":"SystemPromptTemplate","modelId":"m","promptText":"x","xmlSchemaVersion":1,"version":2,"createdAt":1,"updatedAt":1,"active":false}' \
	    '{"$type$":"Summary","id":"t-v2","topic":"t","update":"u","newSubjects":[],"newKeywords":[],"version":2,"previousVersion":"t-v1","createdAt":1,"updatedAt":1}' >gap.jsonl
	run -1 --separate-stderr llmstore -d new.db import gap.jsonl
	assert_output ""
	assert_equal "$stderr" 'gap.jsonl:4:1: error: at the end: model "m": 0 active prompt templates
gap.jsonl:4:1: error: at the end: topic "t": summary version 1 is missing'
	run -0 llmstore -d new.db export
	assert_output '{"$type$":"llmstore","version":1}'
}

@test "import refuses a key given twice in one object, as every tool that reads JSON does" {
	st put -t t -m r1 "$D/reply.xml" >/dev/null
	st export >e.jsonl
	sed '1s/^{/{"$type$":"Keyword",/' e.jsonl >dup.jsonl
	run -1 --separate-stderr llmstore -d new.db import dup.jsonl
	assert_output ""
	assert_equal "$stderr" "dup.jsonl:1:1: error: not a JSON object: duplicate object key near '\"\$type\$\"'"
	run -0 llmstore -d new.db ls
	assert_output ""
}

# One house (issue 14)

@test "CMD -h prints that command's usage and the exit statuses, status 0" {
	run -0 --separate-stderr llmstore put -h
	assert_output "$(usage_of put)

$(help_of llmstore put)

$STATUSES"
	assert_equal "$stderr" ""
	run -0 --separate-stderr llmstore -d "$S" summary --help
	assert_output "usage: llmstore [-d PATH] summary TOPIC [--revision N]

$(help_of llmstore summary)

$STATUSES"
	run -0 --separate-stderr llmstore prompt set -h
	assert_output "usage: llmstore [-d PATH] prompt set -M MODEL [--xml-schema-version N] [FILE]

$(help_of llmstore prompt set)

$STATUSES"
	run -0 --separate-stderr llmstore prompt -h
	assert_output "$(usage_of prompt)

$(help_of llmstore prompt)

$STATUSES"
	run -0 --separate-stderr llmstore ls -h
	assert_output "usage: llmstore [-d PATH] ls [-t TOPIC] [-m MESSAGE]
                             [--format llm-query|llm-response]

$(help_of llmstore ls)

$STATUSES"
	for c in cat rm context keywords subjects archive trace fsck export import 'prompt get' 'prompt ls'; do
		# shellcheck disable=SC2086 # "prompt get" is two words
		run -0 --separate-stderr llmstore $c -h
		# shellcheck disable=SC2086
		assert_output "$(usage_of $c)

$(help_of llmstore $c)

$STATUSES"
	done
	[ ! -e "$S" ]
}

@test "a usage error in a command prints that command's usage only" {
	run -2 --separate-stderr llmstore -d "$S" summary
	assert_output ""
	assert_equal "$stderr" "llmstore: summary takes one TOPIC
usage: llmstore [-d PATH] summary TOPIC [--revision N]"
	run -2 --separate-stderr llmstore -d "$S" ls --undo
	assert_equal "$stderr" "llmstore: ls: unknown option --undo
usage: llmstore [-d PATH] ls [-t TOPIC] [-m MESSAGE]
                             [--format llm-query|llm-response]"
	run -2 --separate-stderr llmstore -d "$S" trace x -t
	assert_equal "$stderr" "llmstore: trace: -t needs a value
usage: llmstore [-d PATH] trace TERM [-t TOPIC]"
	run -2 --separate-stderr llmstore -d "$S" prompt get
	assert_equal "$stderr" "llmstore: prompt get needs -M MODEL
usage: llmstore [-d PATH] prompt get -M MODEL [--revision N]"
	run -2 --separate-stderr llmstore -d "$S" prompt mv
	assert_equal "$stderr" "llmstore: prompt needs set, get or ls, not \"mv\"
$(usage_of prompt)"
	# before the command, or none: every command's
	run -2 --separate-stderr llmstore -x summary t
	assert_equal "$stderr" "llmstore: invalid option -- 'x'
$USAGE"
	[ ! -e "$S" ]
}

@test "--version prints the program's version, before the command or given to one" {
	v=$(llmstore --version)
	[[ $v =~ ^llmstore\ \(llmkit\)\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
	run -0 --separate-stderr llmstore -d "$S" put --version -t t -m m nope.xml
	assert_output "$v"
	assert_equal "$stderr" ""
	# the old spelling of --revision: the program's version, whatever follows
	run -0 --separate-stderr llmstore -d "$S" summary --version 3 t
	assert_output "$v"
	run -0 --separate-stderr llmstore -d "$S" prompt get -M m --version 1
	assert_output "$v"
	[ ! -e "$S" ]
}

@test "--revision picks a summary version and a template version" {
	resp 'One.' 'First.' 'a|d|true|x:0.5' >m1.xml
	resp 'Two.' 'Second.' 'a|d|false|x:0.5' >m2.xml
	at 1 put -t t -m m1 m1.xml >/dev/null
	at 2 put -t t -m m2 m2.xml >/dev/null
	run -0 st summary t --revision 1
	assert_output --partial '"content":"First.",'
	run -0 st summary t
	assert_output --partial '"version":2,'
	printf 'one' | st prompt set -M m >/dev/null
	printf 'two' | st prompt set -M m >/dev/null
	run -0 st prompt get -M m --revision 1
	assert_output one
	run -0 st prompt get -M m
	assert_output two
}

@test "put --errors=json reports a document's problems as one JSON object a line" {
	cp "$D/bad.xml" .
	run -1 --separate-stderr st put --errors=json -t t -m m bad.xml
	assert_output ""
	run -0 jq -c '{file, line, column, severity, rule, path}' <<<"$stderr"
	assert_output '{"file":"bad.xml","line":4,"column":90,"severity":"error","rule":"is-new","path":"/llmResponse/analysis/subject[1]"}
{"file":"bad.xml","line":5,"column":32,"severity":"error","rule":"confidence","path":"/llmResponse/analysis/subject[1]/keyword[1]"}'
	# the message does not repeat the path
	run -0 jq -r .message <<<"$stderr"
	assert_output 'isNew "yes" is not "true" or "false"
confidence "1.4" is outside 0.0-1.0'
	# the warnings too, and text is the default
	resp 'R.' '' 'n|d|false|k:0.5' >w.xml
	run -0 --separate-stderr at 1 put --errors=json -t t -m w w.xml
	run -0 jq -c '{file, line, column, severity, rule}' <<<"$stderr"
	assert_output '{"file":"w.xml","line":4,"column":5,"severity":"warning","rule":"is-new"}'
	run -1 --separate-stderr st put --errors=text -t t -m m bad.xml
	assert_equal "$stderr" "$(cat "$D/bad.err")"
	usage_error '--errors must be github, json or text, not "xml"' -d "$S" put --errors=xml -t t -m m bad.xml
}

@test "put --batch: an unreadable file between two good ones is reported, the others stored, status 3" {
	cp "$D/reply.xml" r1.xml
	cp "$D/query.xml" q1.xml
	run -3 --separate-stderr at 5 put --batch -t t r1.xml missing.xml q1.xml
	assert_output "$(hash_of t r1 r1.xml llm-response 5)  r1.xml
$(hash_of t q1 q1.xml llm-query 5)  q1.xml"
	assert_equal "$stderr" "llmstore: missing.xml: No such file or directory"
	run -0 st ls
	assert_output "$(att t r1 r1.xml llm-response 5)
$(att t q1 q1.xml llm-query 5)"
	# a directory cannot be read either
	mkdir d.xml
	run -3 --separate-stderr at 6 put --batch -t u d.xml
	assert_output ""
	assert_equal "$stderr" "llmstore: d.xml: Is a directory"
}

@test "put --batch with stdout on a full disk: status 3, the message, the batch stored" {
	cp "$D/reply.xml" r1.xml
	cp "$D/query.xml" q1.xml
	run -3 --separate-stderr bash -c "LLMSTORE_NOW=5 llmstore -d '$S' put --batch -t t r1.xml q1.xml >/dev/full"
	assert_equal "$stderr" "llmstore: <stdout>: No space left on device"
	run -0 st ls
	assert_output "$(att t r1 r1.xml llm-response 5)
$(att t q1 q1.xml llm-query 5)"
}

@test "put --batch: a file rejected besides an unreadable one stores nothing, status 3" {
	cp "$D/reply.xml" r1.xml
	cp "$D/bad.xml" .
	run -3 --separate-stderr st put --batch -t t r1.xml missing.xml bad.xml
	assert_output ""
	assert_equal "$stderr" "llmstore: missing.xml: No such file or directory
$(cat "$D/bad.err")"
	run -0 st ls
	assert_output ""
}

# A NUL byte in import's lines (issue 25)

@test "import ends at a NUL byte, reads no line after it and stores nothing: it holds the write lock while it reads" {
	crafted .
	{ head -n 1 crafted.jsonl; printf '{"$type$":\0"x"} and more\n'; tail -n +2 crafted.jsonl; echo 'not json'; } >nul.jsonl
	run -1 --separate-stderr llmstore -d new.db import nul.jsonl
	assert_output ""
	assert_equal "$stderr" "nul.jsonl:2:11: error: NUL byte"
	run -0 llmstore -d new.db export
	assert_output '{"$type$":"llmstore","version":1}'
	# without the NUL line, every line is read, and the bad one named
	{ head -n 1 crafted.jsonl; tail -n +2 crafted.jsonl; echo 'not json'; } >bad.jsonl
	run -1 --separate-stderr llmstore -d new.db import bad.jsonl
	assert_equal "$stderr" "bad.jsonl:$(wc -l <bad.jsonl):1: error: not a JSON object: '[' or '{' expected near 'not'"
	run -0 llmstore -d new.db export
	assert_output '{"$type$":"llmstore","version":1}'
}
