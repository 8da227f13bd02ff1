#!/usr/bin/env bats
# llmstore under stress, as issue 7's "Reliability" asks, each test bounded
# in time: four writers putting 250 responses each into one store at once
# (one process per put, then one --batch each), with a reader beside them;
# a writer that holds the store for a while; a put loop killed with SIGKILL
# at random moments; and stores that are not llmstore databases or are
# damaged: random bytes, a text file, a foreign SQLite database, a newer
# schema, truncated copies, overwritten pages and bytes, an empty file, a
# directory, an unreadable file, a read-only directory, a read-only file
# and a read-only file system (which commands that only read still read),
# and a damaged b-tree (which fsck reports with status 1). Every command
# runs under timeout(1): a hang fails the test (status 124) and so does a
# crash (status 128 and above).

load helper

bats_require_minimum_version 1.5.0

unset LLMSTORE
NOW=1728000000000
export LLMSTORE_NOW=$NOW
# the longest a single command may take here before it counts as a hang
LIMIT=20
EMPTY_CONTEXT='{"topicId":"t","messageCount":0,"activeSubjects":[],"recentKeywords":[]}'

teardown() {
	# a loop left running by a failed test
	if [ -n "${loop_pid:-}" ]; then
		kill -KILL -- "-$loop_pid" 2>/dev/null || true
	fi
	if [ -n "${open_dir:-}" ]; then
		chmod -R u+rwx "$open_dir" 2>/dev/null || true
		rm -rf "$open_dir"
	fi
}

# ------------------------------------------------------------- documents

# loaddoc ID WRITER: a small valid response of the load tests. Every one
# continues the subject "load" and names the keyword "shared", so that all
# the writers update the same rows; each adds a keyword and a summary line
# of its own.
loaddoc() {
	printf '%s\n' '<llmResponse>' \
	    "  <response>Answer $1 of the load test: the store must keep every one of these responses exactly once, whatever the other writers do.</response>" \
	    '  <analysis>' \
	    '    <subject name="load" description="The subject that every response of the load test continues, so that all writers share one row." isNew="false">' \
	    '      <keyword term="shared" confidence="0.9" />' \
	    "      <keyword term=\"term-$1\" confidence=\"0.8\" />" \
	    "      <keyword term=\"writer-$2\" confidence=\"0.7\" />" \
	    '    </subject>' \
	    "    <summaryUpdate>Line $1 of the summary, added by writer $2 of the load test.</summaryUpdate>" \
	    '  </analysis>' \
	    '</llmResponse>'
}

# seeddoc: the first response of the load tests, which starts the subject.
seeddoc() {
	printf '%s\n' '<llmResponse>' \
	    '  <response>The first answer of the load test, stored before the writers start, so that the subject "load" exists for them all.</response>' \
	    '  <analysis>' \
	    '    <subject name="load" description="The subject that every response of the load test continues, so that all writers share one row." isNew="true">' \
	    '      <keyword term="shared" confidence="0.9" />' \
	    '      <keyword term="load-start" confidence="0.8" />' \
	    '      <keyword term="first-writer" confidence="0.7" />' \
	    '    </subject>' \
	    '    <summaryUpdate>Line seed of the summary, written before the writers start.</summaryUpdate>' \
	    '  </analysis>' \
	    '</llmResponse>'
}

# loadstore STORE: a new STORE of topic "load" holding the seed response,
# and docs/p1-1.xml ... docs/p4-250.xml, the writers' responses.
loadstore() {
	local p i
	seeddoc >seed.xml
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d "$1" put \
	    -t load -m seed seed.xml
	assert_equal "$stderr" ""
	mkdir docs
	for p in 1 2 3 4; do
		for ((i = 1; i <= 250; i++)); do
			loaddoc "p$p-$i" "p$p" >"docs/p$p-$i.xml"
		done
	done
}

# reader STORE: until the file "stop" exists, reads the context of topic
# "load" every quarter of a second; writes each messageCount to reads, each
# failure to reader.fail.
reader() {
	local c
	while [ ! -e stop ]; do
		if c=$(llmstore -d "$1" context load 2>&1); then
			case $c in
			'{"topicId":"load","messageCount":'[0-9]*',"activeSubjects":["load"],"recentKeywords":['*']}')
				c=${c#*'"messageCount":'}
				echo "${c%%,*}" >>reads
				;;
			*) echo "context printed $c" >>reader.fail ;;
			esac
		else
			echo "context: status $?: $c" >>reader.fail
		fi
		sleep 0.25
	done
}

# checkload STORE: STORE holds exactly the seed and the 1,000 responses of
# the writers, each once, under the hashes the puts printed (in hashes, as
# "ID HASH" lines), and what they added up to: a keyword "shared" seen
# 1,001 times, a subject of 1,001 messages, a summary of 1,001 versions
# with every line once; and fsck finds nothing wrong.
checkload() {
	local p i
	{
		echo seed
		for p in 1 2 3 4; do
			for ((i = 1; i <= 250; i++)); do
				echo "p$p-$i"
			done
		done
	} | sort >ids.want
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d "$1" ls
	assert_equal "$stderr" ""
	printf '%s\n' "$output" >ls.out
	assert_equal "$(wc -l <ls.out)" 1001
	jq -r .messageId ls.out | sort >ids.got
	run diff ids.want ids.got
	assert_success
	# the hashes: as printed by put, each attachment's own, none twice
	jq -r '"\(.messageId) \(.hash)"' ls.out | grep -v '^seed ' | sort >hashes.got
	sort hashes >hashes.want
	run diff hashes.want hashes.got
	assert_success
	assert_equal "$(jq -r .hash ls.out | sort -u | wc -l)" 1001
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d "$1" fsck
	assert_output ""
	assert_equal "$stderr" ""
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d "$1" context load
	assert_equal "$stderr" ""
	assert_equal "$(printf '%s' "$output" | jq -c '[.topicId, .messageCount, .activeSubjects]')" \
	    '["load",1001,["load"]]'
	# no update lost: the counts of the shared rows
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d "$1" keywords load
	assert_equal "$stderr" ""
	printf '%s\n' "$output" >keywords.out
	assert_equal "$(wc -l <keywords.out)" 1007
	run jq -r 'select(.term == "shared" or (.term | startswith("writer-")) or .term == "term-p3-17") | "\(.term) \(.frequency) \(.subjects)"' keywords.out
	assert_equal "$(printf '%s\n' "$output" | sort)" 'shared 1001 ["load"]
term-p3-17 1 ["load"]
writer-p1 250 ["load"]
writer-p2 250 ["load"]
writer-p3 250 ["load"]
writer-p4 250 ["load"]'
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d "$1" subjects load
	assert_equal "$stderr" ""
	assert_equal "$(printf '%s' "$output" | jq -c '[.id, .messageCount, (.keywords | length), .timeRanges, .archived]')" \
	    "[\"load\",1001,1007,[{\"start\":$NOW,\"end\":$NOW}],false]"
	printf '%s' "$output" | jq -r '.keywords[]' | sort >subject-keywords.got
	jq -r .term keywords.out | sort >subject-keywords.want
	run diff subject-keywords.want subject-keywords.got
	assert_success
	# the summary: 1,001 versions, the last holding every line once
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d "$1" summary load
	assert_equal "$stderr" ""
	printf '%s\n' "$output" >summary.out
	assert_equal "$(jq -c '[.id, .version, .previousVersion, .subjects]' summary.out)" \
	    '["load-v1001",1001,"load-v1000",["load"]]'
	jq -r .content summary.out | sort >lines.got
	{
		echo 'Line seed of the summary, written before the writers start.'
		for p in 1 2 3 4; do
			for ((i = 1; i <= 250; i++)); do
				echo "Line p$p-$i of the summary, added by writer p$p of the load test."
			done
		done
	} | sort >lines.want
	run diff lines.want lines.got
	assert_success
	assert_equal "$(jq -r .content summary.out | head -n 1)" \
	    'Line seed of the summary, written before the writers start.'
}

# ----------------------------------------------------------- concurrency

# writer STORE P: puts docs/pP-1.xml ... docs/pP-250.xml one process each;
# "ID HASH" to hashes.P, stderr to err.P, each failure to fail.P.
writer() {
	local i h
	for ((i = 1; i <= 250; i++)); do
		if h=$(llmstore -d "$1" put -t load -m "p$2-$i" \
		    "docs/p$2-$i.xml" 2>>"err.$2"); then
			echo "p$2-$i $h" >>"hashes.$2"
		else
			echo "p$2-$i: status $?" >>"fail.$2"
		fi
	done
}

@test "four processes putting 250 responses each at once store all 1,000, each once, with no update lost" {
	loadstore s.db
	: >err.1 >err.2 >err.3 >err.4 >fail.1 >fail.2 >fail.3 >fail.4
	# each in a bash of its own, under timeout(1), so that a hang ends
	timeout 300 bash -c "$(declare -f reader); reader s.db" 3>&- &
	rpid=$!
	local p
	for p in 1 2 3 4; do
		timeout 300 bash -c "$(declare -f writer); writer s.db $p" 3>&- &
		eval "w$p=\$!"
	done
	for p in 1 2 3 4; do
		eval "wait \$w$p" || {
			echo "writer $p: status $?" >&2
			return 1
		}
	done
	: >stop
	wait "$rpid"
	# every put exited 0, printed one hash and said nothing on stderr
	assert_equal "$(cat fail.1 fail.2 fail.3 fail.4)" ""
	assert_equal "$(cat err.1 err.2 err.3 err.4)" ""
	cat hashes.1 hashes.2 hashes.3 hashes.4 >hashes
	assert_equal "$(grep -cE '^p[1-4]-[0-9]+ [0-9a-f]{64}$' hashes)" 1000
	checkload s.db
	# the reader was never refused, and never saw the count go back
	assert_equal "$(cat reader.fail 2>/dev/null)" ""
	[ -s reads ]
	sort -n -c reads
	run -0 awk '$1 < 1 || $1 > 1001' reads
	assert_output ""
}

@test "four concurrent put --batch of 250 responses each store all 1,000, each once" {
	loadstore s.db
	local p
	for p in 1 2 3 4; do
		timeout 60 llmstore -d s.db put --batch -t load docs/p$p-*.xml \
		    >"out.$p" 2>"err.$p" 3>&- &
		eval "b$p=\$!"
	done
	# each batch exits 0, says nothing on stderr and prints "HASH  FILE"
	# for each of its files, in the order given
	for p in 1 2 3 4; do
		eval "wait \$b$p" || {
			echo "put --batch of writer $p: status $?" >&2
			return 1
		}
	done
	assert_equal "$(cat err.1 err.2 err.3 err.4)" ""
	for p in 1 2 3 4; do
		assert_equal "$(grep -cE '^[0-9a-f]{64}  docs/p[1-4]-[0-9]+\.xml$' "out.$p")" 250
		assert_equal "$(sed 's/^[0-9a-f]*  //' "out.$p")" \
		    "$(printf '%s\n' docs/p$p-*.xml)"
	done
	cat out.1 out.2 out.3 out.4 |
	    sed -E 's|^([0-9a-f]{64})  docs/(.*)\.xml$|\2 \1|' >hashes
	checkload s.db
}

@test "a put waits for a writer that holds the store, and reads go on meanwhile" {
	loadstore s.db
	# sqlite3 takes the write lock and keeps it for 3 seconds
	{
		echo '.timeout 5000'
		echo 'BEGIN IMMEDIATE;'
		sleep 3
		echo 'COMMIT;'
	} | sqlite3 s.db 3>&- &
	locker=$!
	# wait until it holds the lock (a second writer is refused at once)
	local n=0
	while sqlite3 s.db 'BEGIN IMMEDIATE; ROLLBACK;' 2>/dev/null; do
		n=$((n + 1))
		[ "$n" -lt 200 ] || {
			echo "sqlite3 never took the lock" >&2
			return 1
		}
		sleep 0.02
	done
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d s.db ls -m seed
	assert_equal "$stderr" ""
	assert_equal "$(printf '%s' "$output" | jq -r .messageId)" seed
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d s.db put \
	    -t load -m p1-1 docs/p1-1.xml
	assert_equal "$stderr" ""
	assert_output --regexp '^[0-9a-f]{64}$'
	wait "$locker"
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d s.db context load
	assert_output '{"topicId":"load","messageCount":2,"activeSubjects":["load"],"recentKeywords":["shared","term-p1-1","writer-p1","load-start","first-writer"]}'
}

# ---------------------------------------------------------------- SIGKILL

# the loop of the SIGKILL test, as its own script: started in a session of
# its own (setsid), so that one kill reaches the shell and the put it runs.
# Every response continues the subject "kill"; odd steps put a small
# response, even ones a big one (a blob of about 150 KB), every fifth step
# a --batch of one big and one small. What a put printed goes to "log"
# after it returned 0; a failure goes to "fail".
write_loop() {
	cat >mkdoc.sh <<'EOF'
# mkdoc.sh ID: the response of ID; a big one when ID ends in "b"
printf '%s\n' '<llmResponse>'
printf '  <response>Answer %s of the kill test, which the store must keep whole or not at all, whenever the writer dies.' "$1"
case $1 in
*b) cat filler ;;
esac
printf '</response>\n'
printf '%s\n' '  <analysis>' \
    '    <subject name="kill" description="The subject that every response of the kill test continues, killed or not." isNew="false">' \
    '      <keyword term="killed" confidence="0.9" />' \
    "      <keyword term=\"step-$1\" confidence=\"0.8\" />" \
    '      <keyword term="sigkill" confidence="0.7" />' \
    '    </subject>' \
    "    <summaryUpdate>Line $1 of the summary of the kill test, which may be the last.</summaryUpdate>" \
    '  </analysis>' \
    '</llmResponse>'
EOF
	cat >loop.sh <<'EOF'
# loop.sh ROUND: puts responses until killed
r=$1
: >started
i=0
while :; do
	i=$((i + 1))
	if [ $((i % 5)) -eq 0 ]; then
		mkdir "b$r-$i"
		sh mkdoc.sh "k$r-${i}b" >"b$r-$i/k$r-${i}b.xml"
		sh mkdoc.sh "k$r-${i}s" >"b$r-$i/k$r-${i}s.xml"
		echo "b$r-$i/k$r-${i}b.xml b$r-$i/k$r-${i}s.xml" >>batches
		if out=$(llmstore -d s.db put --batch -t kill "b$r-$i/k$r-${i}b.xml" "b$r-$i/k$r-${i}s.xml" 2>>err); then
			printf '%s\n' "$out" | sed -E 's|^([0-9a-f]+)  b[^/]*/(.*)\.xml$|\1 \2|' >>log
		else
			echo "batch b$r-$i: status $?" >>fail
		fi
		continue
	fi
	case $((i % 2)) in
	0) id=k$r-${i}b ;;
	*) id=k$r-${i}s ;;
	esac
	sh mkdoc.sh "$id" >"$id.xml"
	echo "$id" >cur.new && mv cur.new cur
	if h=$(llmstore -d s.db put -t kill -m "$id" "$id.xml" 2>>err); then
		echo "$h $id" >>log
	else
		echo "$id: status $?" >>fail
	fi
done
EOF
}

@test "a put loop killed with SIGKILL at random moments leaves a clean store with every put that printed its hash" {
	write_loop
	yes 'Filler of a big response, so that its XML goes to a blob of its own. ' |
	    head -c 150000 >filler
	sh mkdoc.sh k0-0s | sed 's/isNew="false"/isNew="true"/' >seed.xml
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d s.db put -t kill -m k0-0s seed.xml
	echo "$output k0-0s" >log
	: >fail >err
	local round pid pgid n id
	for ((round = 1; round <= 20; round++)); do
		rm -f started
		setsid sh loop.sh "$round" >/dev/null 2>&1 3>&- &
		pid=$!
		loop_pid=$pid
		n=0
		until [ -e started ]; do
			n=$((n + 1))
			[ "$n" -lt 400 ] || {
				echo "round $round: the loop never started" >&2
				return 1
			}
			sleep 0.05
		done
		# the loop leads its own process group, which the kill reaches
		pgid=$(ps -o pgid= -p "$pid" | tr -d ' ')
		assert_equal "$pgid" "$pid"
		sleep "0.$(printf '%02d' $((RANDOM % 30 + 1)))"
		kill -KILL -- "-$pid"
		# the loop was still running: SIGKILL ended it
		n=0
		wait "$pid" || n=$?
		loop_pid=
		assert_equal "$n" 137
		# no put failed on its own, and none said anything
		assert_equal "$(cat fail)" ""
		assert_equal "$(cat err)" ""
		# fsck finds nothing wrong
		run -0 --separate-stderr timeout "$LIMIT" llmstore -d s.db fsck
		assert_output ""
		assert_equal "$stderr" ""
		# every hash in the log is in the store, under its message id
		run -0 --separate-stderr timeout "$LIMIT" llmstore -d s.db ls
		assert_equal "$stderr" ""
		printf '%s\n' "$output" | jq -r '"\(.hash) \(.messageId)"' | sort >have
		sort -u log >want
		run -0 comm -23 want have
		assert_output ""
		# a --batch is stored whole or not at all
		if [ -f batches ]; then
			while read -r a b; do
				a=${a##*/}
				b=${b##*/}
				n=$(grep -cE " (${a%.xml}|${b%.xml})\$" have || true)
				[ "$n" -ne 1 ] || {
					echo "round $round: half of the batch $a $b is stored" >&2
					return 1
				}
			done <batches
		fi
		# the put that was cut short may be run again
		tail -n 1 log | cut -d' ' -f2 >>sample
		if [ -f cur ]; then
			id=$(cat cur)
			run -0 --separate-stderr timeout "$LIMIT" llmstore -d s.db put -t kill -m "$id" "$id.xml"
			assert_equal "$stderr" ""
			assert_output --regexp '^[0-9a-f]{64}$'
			echo "$output $id" >>log
			echo "$id" >>sample
		fi
		sort -u sample -o sample
		rm -rf cur batches b[0-9]* k[0-9]*.xml
	done
	# no message twice; the last response that each round logged, the
	# closest to the kill, and each put run again give back their bytes
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d s.db ls
	printf '%s\n' "$output" | jq -r .messageId >ids
	assert_equal "$(sort ids | uniq -d)" ""
	while read -r id; do
		sh mkdoc.sh "$id" >want.xml
		[ "$id" != k0-0s ] || cp seed.xml want.xml
		timeout "$LIMIT" llmstore -d s.db cat -m "$id" >got.xml
		cmp want.xml got.xml
	done <sample
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d s.db fsck
	assert_output ""
	assert_equal "$stderr" ""
}

# -------------------------------------------------- foreign and damaged files

# bigdoc: a valid response of about 40 KB whose text holds the markers
# MARKER-1 ... MARKER-5, each once.
bigdoc() {
	local m
	printf '%s' '<llmResponse>
  <response>A long answer, kept in a blob.'
	for m in 1 2 3 4 5; do
		yes 'Some words of a long answer, to be damaged on purpose. ' |
		    head -c 8000
		printf ' MARKER-%s ' "$m"
	done
	printf '%s\n' '</response>' \
	    '  <analysis>' \
	    '    <subject name="storage" description="How the store keeps a long answer apart from the short ones, in a blob." isNew="true">' \
	    '      <keyword term="blob" confidence="0.9" />' \
	    '      <keyword term="sha-256" confidence="0.8" />' \
	    '      <keyword term="inline-limit" confidence="0.7" />' \
	    '    </subject>' \
	    '    <summaryUpdate>The assistant gave a long answer about how the store keeps blobs.</summaryUpdate>' \
	    '  </analysis>' \
	    '</llmResponse>'
}

# mkstore PATH: a real store of topic t: the seed's query (q1), the seed's
# response (r1, inline) and a big response (r2, a blob), checkpointed so
# that the file alone holds it all.
mkstore() {
	cp "$DATA/llmr-validate/seed-query.xml" query.xml
	cp "$TOP/examples/reply.xml" reply.xml
	bigdoc >big.xml
	timeout "$LIMIT" llmstore -d "$1" put -t t -m q1 query.xml >/dev/null
	timeout "$LIMIT" llmstore -d "$1" put -t t -m r1 reply.xml >/dev/null
	timeout "$LIMIT" llmstore -d "$1" put -t t -m r2 big.xml >/dev/null
	sqlite3 "$1" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
	assert_equal "$(sqlite3 "$1" 'PRAGMA freelist_count;')" 0
	rm -f "$1-wal" "$1-shm"
}

# state PATH: what a command must leave as it was: the names in PATH's
# directory, and PATH's bytes (or, for a directory, its names).
state() {
	ls -A "$(dirname "$1")" | grep -v '^separate-stderr-'
	if [ -d "$1" ]; then
		ls -A "$1"
	else
		cksum <"$1"
	fi
}

# refused PATH MESSAGE: ls, context, put, rm and fsck on the store PATH
# each exit 3 with MESSAGE alone on stderr and nothing on stdout, and
# leave PATH and its directory as they were. $as (if set) runs them as
# another user.
refused() {
	local before c
	before=$(state "$1")
	for c in ls 'context t' 'put -t t -m m1 reply.xml' 'rm -m r1' fsck; do
		# shellcheck disable=SC2086
		run -3 --separate-stderr ${as:-} timeout "$LIMIT" llmstore -d "$1" $c
		assert_output ""
		assert_equal "$stderr" "$2"
	done
	assert_equal "$(state "$1")" "$before"
}

# damaged PATH: ls, context, put and rm on the damaged store PATH exit 0,
# or 3 with one line on stderr about PATH; fsck exits 1 with a report of
# "PATH: fsck:" lines, or 3 (trouble on the way) with lines about PATH,
# never 0; nothing crashes or hangs.
damaged() {
	local c
	for c in ls 'context t' 'put -t t -m m1 reply.xml' 'rm -m r1'; do
		# shellcheck disable=SC2086
		run --separate-stderr timeout "$LIMIT" llmstore -d "$1" $c
		case $status in
		0) ;;
		3)
			# (a put may warn about the document first)
			stderr=$(printf '%s\n' "$stderr" | grep -v ': warning: ')
			assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
			assert_regex "$stderr" "^llmstore: $1: [^ ]"
			;;
		*)
			echo "llmstore -d $1 $c: status $status: $stderr" >&2
			return 1
			;;
		esac
	done
	run --separate-stderr timeout "$LIMIT" llmstore -d "$1" fsck
	case $status in
	1)
		assert_output ""
		[ -n "$stderr" ]
		assert_equal "$(grep -v "^llmstore: $1: fsck: [^ ]" <<<"$stderr")" ""
		;;
	3)
		[ -n "$stderr" ]
		assert_equal "$(grep -v "^llmstore: $1: [^ ]" <<<"$stderr")" ""
		;;
	*)
		echo "llmstore -d $1 fsck: status $status: $stderr" >&2
		return 1
		;;
	esac
}

@test "a file of random bytes is not an llmstore database, and stays as it was" {
	cp "$TOP/examples/reply.xml" reply.xml
	# not "SQLite format 3": never a database header
	{
		printf 'random:'
		head -c 8185 /dev/urandom
	} >x.db
	refused x.db 'llmstore: x.db: not an llmstore database (file is not a database)'
}

@test "a text file is not an llmstore database, and stays as it was" {
	cp "$TOP/examples/reply.xml" reply.xml
	printf 'topic: t\nthis is not a database\n' >notes.txt
	refused notes.txt 'llmstore: notes.txt: not an llmstore database (file is not a database)'
}

@test "an XML file given as the store is not an llmstore database" {
	cp "$TOP/examples/reply.xml" reply.xml
	cp reply.xml r.xml
	refused r.xml 'llmstore: r.xml: not an llmstore database (file is not a database)'
}

@test "a foreign SQLite database is not an llmstore database, and llmstore adds nothing to it" {
	cp "$TOP/examples/reply.xml" reply.xml
	sqlite3 x.db 'CREATE TABLE t(a); INSERT INTO t VALUES (1);'
	refused x.db 'llmstore: x.db: not an llmstore database'
	assert_equal "$(sqlite3 x.db 'PRAGMA journal_mode; PRAGMA application_id; SELECT name FROM sqlite_schema;')" 'delete
0
t'
}

@test "a foreign SQLite database in WAL mode is not an llmstore database either" {
	cp "$TOP/examples/reply.xml" reply.xml
	sqlite3 x.db 'PRAGMA journal_mode = WAL; CREATE TABLE attachment(a);' >/dev/null
	refused x.db 'llmstore: x.db: not an llmstore database'
}

@test "a store of a newer schema is refused by every command, and left as it was" {
	mkstore s.db
	sqlite3 s.db 'PRAGMA user_version = 7;'
	rm -f s.db-wal s.db-shm
	refused s.db 'llmstore: s.db: written by a newer llmstore (schema 7); this one reads schema 1'
}

@test "a store truncated to its first page is damaged, never a crash" {
	mkstore s.db
	head -c "$(sqlite3 s.db 'PRAGMA page_size')" s.db >x.db
	damaged x.db
	# the first page alone cannot be read as the whole store
	run -3 --separate-stderr timeout "$LIMIT" llmstore -d x.db ls
	assert_output ""
	assert_regex "$stderr" '^llmstore: x\.db: [^ ]'
}

@test "a store truncated to half its size is damaged, never a crash" {
	mkstore s.db
	head -c $(($(stat -c %s s.db) / 2)) s.db >x.db
	damaged x.db
	run -3 --separate-stderr timeout "$LIMIT" llmstore -d x.db ls
	assert_output ""
	assert_regex "$stderr" '^llmstore: x\.db: [^ ]'
}

@test "a store whose schema page is overwritten is refused with one line, never a crash" {
	mkstore s.db
	head -c 512 /dev/zero | tr '\0' '\377' |
	    dd of=s.db bs=1 seek=100 conv=notrunc status=none
	damaged s.db
	for c in ls 'context t' 'put -t t -m m1 reply.xml'; do
		# shellcheck disable=SC2086
		run -3 --separate-stderr timeout "$LIMIT" llmstore -d s.db $c
		assert_output ""
		assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
		assert_regex "$stderr" '^llmstore: s\.db: [^ ]'
	done
}

@test "a store with a page in the middle overwritten is found out by fsck, never a crash" {
	mkstore s.db
	local pages size
	size=$(sqlite3 s.db 'PRAGMA page_size')
	assert_equal "$size" 32768
	pages=$(($(stat -c %s s.db) / size))
	[ "$pages" -ge 8 ]
	head -c "$size" /dev/zero | tr '\0' '\377' |
	    dd of=s.db bs="$size" seek=$((pages / 2)) conv=notrunc status=none
	damaged s.db
	run --separate-stderr timeout "$LIMIT" llmstore -d s.db fsck
	[ "$status" -eq 1 ] || [ "$status" -eq 3 ]
}

@test "bytes of a blob overwritten in the middle of the file are found by fsck, which names the blob" {
	mkstore s.db
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d s.db ls -m r2
	local before=$output blob off m
	blob=$(printf '%s' "$output" | jq -r .xmlBlob)
	assert_equal "$blob" "$(sha256sum <big.xml | cut -c1-64)"
	# the first marker that lies whole in one page of the file
	local found=
	for m in 3 2 4 1 5; do
		off=$(grep -obUa "MARKER-$m " s.db | cut -d: -f1)
		if [ "$(printf '%s' "$off" | grep -c .)" -eq 1 ]; then
			found=$m
			break
		fi
	done
	[ -n "$found" ]
	printf 'BROKEN-%s ' "$m" | dd of=s.db bs=1 seek="$off" conv=notrunc status=none
	# SQLite does not see it; the lists are as before
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d s.db ls -m r2
	assert_output "$before"
	assert_equal "$stderr" ""
	run -1 --separate-stderr timeout "$LIMIT" llmstore -d s.db fsck
	assert_output ""
	assert_equal "$stderr" "llmstore: s.db: fsck: blob $blob: its bytes hash to $(sed "s/MARKER-$m /BROKEN-$m /" big.xml | sha256sum | cut -c1-64)"
}

@test "bytes of an inline response overwritten in the file are found by fsck, which names the attachment" {
	mkstore s.db
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d s.db ls -m r1
	local line=$output hash off other
	hash=$(printf '%s' "$line" | jq -r .hash)
	off=$(grep -obUa 'financial advisors' s.db | cut -d: -f1)
	assert_equal "$(printf '%s\n' "$off" | grep -c .)" 1
	printf 'financial advisers' | dd of=s.db bs=1 seek="$off" conv=notrunc status=none
	other=$(printf '%s' "$line" | sed 's/financial advisors/financial advisers/; s/,"hash":"[0-9a-f]*"}$/}/' |
	    sha256sum | cut -c1-64)
	run -1 --separate-stderr timeout "$LIMIT" llmstore -d s.db fsck
	assert_output ""
	assert_equal "$stderr" "llmstore: s.db: fsck: attachment $hash (message \"r1\"): its fields hash to $other"
}

@test "an empty file is a new store: read commands see nothing and leave it empty, put fills it" {
	cp "$TOP/examples/reply.xml" reply.xml
	: >e.db
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d e.db ls
	assert_output ""
	assert_equal "$stderr" ""
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d e.db context t
	assert_output "$EMPTY_CONTEXT"
	assert_equal "$stderr" ""
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d e.db fsck
	assert_output ""
	assert_equal "$stderr" ""
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d e.db export
	assert_output '{"$type$":"llmstore","version":1}'
	assert_equal "$stderr" ""
	assert_equal "$(stat -c %s e.db)" 0
	assert_equal "$(ls -A | grep -v '^separate-stderr-')" 'e.db
reply.xml'
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d e.db put -t t -m r1 reply.xml
	assert_output --regexp '^[0-9a-f]{64}$'
	assert_equal "$stderr" ""
	local hash=$output
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d e.db ls
	assert_equal "$(printf '%s' "$output" | jq -r '"\(.messageId) \(.hash)"')" "r1 $hash"
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d e.db fsck
	assert_output ""
	assert_equal "$stderr" ""
	assert_equal "$(sqlite3 e.db 'PRAGMA application_id; PRAGMA user_version; PRAGMA journal_mode;')" '1280068947
1
wal'
}

@test "a directory given as the store is refused by every command, which create nothing in it" {
	cp "$TOP/examples/reply.xml" reply.xml
	mkdir d.db
	refused d.db 'llmstore: d.db: Is a directory'
}

@test "a store in a directory that does not exist: read commands say so, context is empty, put cannot create it" {
	cp "$TOP/examples/reply.xml" reply.xml
	local c
	for c in ls fsck 'put -t t -m r1 reply.xml'; do
		# shellcheck disable=SC2086
		run -3 --separate-stderr timeout "$LIMIT" llmstore -d nodir/s.db $c
		assert_output ""
		assert_equal "$stderr" 'llmstore: nodir/s.db: No such file or directory'
	done
	run -0 --separate-stderr timeout "$LIMIT" llmstore -d nodir/s.db context t
	assert_output "$EMPTY_CONTEXT"
	assert_equal "$stderr" ""
	[ ! -e nodir ]
}

# opendir: a directory that another user may enter, for the tests that
# need a user whom file permissions stop (root reads a file of mode 000):
# as root, the commands run as nobody (setpriv); otherwise as ourselves.
opendir() {
	open_dir=$(mktemp -d "${TMPDIR:-/tmp}/llmstore-rel.XXXXXX")
	chmod 755 "$open_dir"
	cd "$open_dir" || return 1
	cp "$TOP/examples/reply.xml" reply.xml
	chmod 644 reply.xml
	# a copy of the tool that user may run, wherever the tree lies (a
	# clone under /root is closed to others); first on PATH
	mkdir "$open_dir/bin"
	cp "$(command -v llmstore)" "$open_dir/bin/llmstore"
	chmod 755 "$open_dir/bin" "$open_dir/bin/llmstore"
	PATH="$open_dir/bin:$PATH"
	as=
	if [ "$(id -u)" = 0 ]; then
		as='setpriv --reuid=65534 --regid=65534 --clear-groups --'
	fi
	# shellcheck disable=SC2086
	run -0 $as llmstore --version
}

@test "an unreadable store is refused by every command with the system's reason" {
	opendir
	mkstore s.db
	chmod 644 s.db
	chmod 000 s.db
	refused s.db 'llmstore: s.db: Permission denied'
}

@test "put cannot create a store in a read-only directory, and says why" {
	opendir
	mkdir ro
	chmod 555 ro
	# shellcheck disable=SC2086
	run -3 --separate-stderr $as timeout "$LIMIT" llmstore -d ro/s.db put -t t -m r1 reply.xml
	assert_output ""
	assert_equal "$stderr" 'llmstore: ro/s.db: Permission denied'
	assert_equal "$(ls -A ro)" ""
}

@test "a store in a read-only directory is never changed, and put fails with one line" {
	opendir
	mkdir ro
	mkstore ro/s.db
	chmod 644 ro/s.db
	chmod 555 ro
	local before
	before=$(state ro/s.db)
	# shellcheck disable=SC2086
	run -3 --separate-stderr $as timeout "$LIMIT" llmstore -d ro/s.db put -t t -m m1 reply.xml
	assert_output ""
	assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
	assert_regex "$stderr" '^llmstore: ro/s\.db: [^ ]'
	# reading it may work or fail, but with one line, and changes nothing
	# shellcheck disable=SC2086
	run --separate-stderr $as timeout "$LIMIT" llmstore -d ro/s.db ls -m q1
	case $status in
	0) assert_equal "$(printf '%s' "$output" | jq -r .messageId)" q1 ;;
	3)
		assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
		assert_regex "$stderr" '^llmstore: ro/s\.db: [^ ]'
		;;
	*) return 1 ;;
	esac
	assert_equal "$(state ro/s.db)" "$before"
}

# Hostile input (issue 13)

# the commands that only read (a loop over them does not use i, which
# bats' run changes)
READS=(ls 'context t' fsck export 'keywords t' 'subjects t' 'summary t'
    'cat -m r1' 'trace blob' 'prompt ls')

@test "a store in a read-only directory is read by every command that only reads, and left as it was" {
	opendir
	mkdir ro
	mkstore ro/s.db
	local k before
	for k in "${!READS[@]}"; do
		# shellcheck disable=SC2086
		timeout "$LIMIT" llmstore -d ro/s.db ${READS[$k]} >"reads.$k"
	done
	rm -f ro/s.db-wal ro/s.db-shm
	chmod 644 ro/s.db
	chmod 555 ro
	before=$(state ro/s.db)
	for k in "${!READS[@]}"; do
		# shellcheck disable=SC2086
		run -0 --separate-stderr $as timeout "$LIMIT" llmstore -d ro/s.db ${READS[$k]}
		assert_equal "$stderr" ""
		assert_output "$(cat "reads.$k")"
	done
	assert_equal "$(state ro/s.db)" "$before"
	# shellcheck disable=SC2086
	run -3 --separate-stderr $as timeout "$LIMIT" llmstore -d ro/s.db put -t t -m m1 reply.xml
	assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
	assert_equal "$(state ro/s.db)" "$before"
}

@test "a store file that may not be written is read by every command that only reads" {
	opendir
	mkdir rw
	mkstore rw/s.db
	local k sum
	for k in "${!READS[@]}"; do
		# shellcheck disable=SC2086
		timeout "$LIMIT" llmstore -d rw/s.db ${READS[$k]} >"reads.$k"
	done
	chmod 777 rw
	chmod 444 rw/s.db
	sum=$(cksum <rw/s.db)
	for k in "${!READS[@]}"; do
		# shellcheck disable=SC2086
		run -0 --separate-stderr $as timeout "$LIMIT" llmstore -d rw/s.db ${READS[$k]}
		assert_equal "$stderr" ""
		assert_output "$(cat "reads.$k")"
	done
	assert_equal "$(cksum <rw/s.db)" "$sum"
}

@test "fsck of a store with a damaged b-tree page lists what it finds and exits 1, not 3" {
	mkstore s.db
	local size
	size=$(sqlite3 s.db 'PRAGMA page_size')
	cp s.db x.db
	head -c "$size" /dev/zero | tr '\0' '\377' |
	    dd of=x.db bs="$size" seek=1 conv=notrunc status=none
	run -1 --separate-stderr timeout "$LIMIT" llmstore -d x.db fsck
	assert_output ""
	[ -n "$stderr" ]
	assert_equal "$(grep -v '^llmstore: x\.db: fsck: [^ ]' <<<"$stderr")" ""
	[[ $stderr == *'llmstore: x.db: fsck: database disk image is malformed'* ]]
}

@test "a store on a read-only file system is read by every command that only reads; put says why it cannot write" {
	# a read-only bind mount in a mount namespace of its own: root only
	if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
		skip "needs root and unshare -m for a read-only mount"
	fi
	mkdir fs
	cp "$TOP/examples/reply.xml" reply.xml
	mkstore fs/s.db
	local k
	for k in "${!READS[@]}"; do
		# shellcheck disable=SC2086
		timeout "$LIMIT" llmstore -d fs/s.db ${READS[$k]} >"reads.$k"
	done
	rm -f fs/s.db-wal fs/s.db-shm
	cat >ro.sh <<'SH'
mount --bind fs fs && mount -o remount,bind,ro fs || exit 9
touch fs/probe 2>/dev/null && exit 8
k=0
while read -r c; do
	# shellcheck disable=SC2086
	timeout 20 llmstore -d fs/s.db $c >"got.$k" 2>"err.$k"
	echo "$?" >"rc.$k"
	k=$((k + 1))
done
timeout 20 llmstore -d fs/s.db put -t t -m m1 reply.xml >put.out 2>put.err
echo "$?" >put.rc
SH
	run -0 unshare -m sh ro.sh < <(printf '%s\n' "${READS[@]}")
	for k in "${!READS[@]}"; do
		assert_equal "$(cat "rc.$k") $(cat "err.$k")" "0 "
		assert_equal "$(cat "got.$k")" "$(cat "reads.$k")"
	done
	assert_equal "$(cat put.rc)" 3
	assert_equal "$(cat put.out)" ""
	assert_equal "$(cat put.err)" "llmstore: fs/s.db: Read-only file system"
}
