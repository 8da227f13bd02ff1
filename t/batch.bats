#!/usr/bin/env bats
# The batch and cluster runs of llmkit(7), "Batch and cluster runs": every
# checker's record has one shape; GNU parallel --pipe --keep-order over
# 100,000 lines gives the verdicts of one process, in the same order; and
# its --sshlogin recipe, run as written against an sshd of the test's own
# on localhost (its host key, authorized key and configuration in the
# test's directory, a high port), gives them too. The recipes that show
# their output are run by t/man-examples.

load helper

# 100,000 lines: of every ten, seven valid, two invalid, one critical.
big() {
	awk -v n="$1" -f "$TOP/t/bench/gen-batch.awk" >big.jsonl
}

# Each record's "line" (and its errors' "line", a line's document being
# on that line) made its place in the output: what one process over the
# whole file writes, when the file has no blank line.
renumber() {
	perl -pe 's/"line":\d+/"line":$./g' "$1"
}

@test "the three checkers write records of one shape, and the same reduce counts them" {
	jsonresp-check -q -o report --lines "$TOP/examples/responses.jsonl" >r.jsonl || :
	llmr-validate -q -o report --lines "$TOP/examples/replies.jsonl" >>r.jsonl || :
	toolcall-parse -q -o report --lines "$TOP/examples/outputs.jsonl" >>r.jsonl || :
	run -0 --separate-stderr jq -c '[keys_unsorted[:5], .valid, .status]' r.jsonl
	assert_output '[["file","line","valid","status","errors"],true,0]
[["file","line","valid","status","errors"],false,1]
[["file","line","valid","status","errors"],true,5]
[["file","line","valid","status","errors"],true,0]
[["file","line","valid","status","errors"],false,1]
[["file","line","valid","status","errors"],true,0]
[["file","line","valid","status","errors"],false,1]
[["file","line","valid","status","errors"],true,0]'
	run -0 --separate-stderr sh -c 'jq -r .valid r.jsonl | sort | uniq -c'
	assert_output '      3 false
      5 true'
}

@test "GNU parallel --pipe --keep-order over 100,000 lines gives the verdicts of one process, in order" {
	big 100000
	run -4 --separate-stderr sh -c \
	    'jsonresp-check -q -o report --lines <big.jsonl >one.jsonl'
	assert_equal "$stderr" ""
	# the recipe of llmkit(7), as written
	HOME=$BATS_TEST_TMPDIR run --separate-stderr sh -c \
	    'parallel --pipe --block 1M --keep-order \
	    jsonresp-check -q -o report --lines <big.jsonl >verdicts.jsonl'
	assert_equal "$stderr" ""
	# each block an input of its own, its lines from 1; every block has
	# invalid lines, so every job failed and parallel counts them all
	blocks=$(grep -c '^{"file":"<stdin>","line":1,' verdicts.jsonl)
	[ "$blocks" -ge 10 ]
	assert_equal "$status" "$blocks"
	run -0 wc -l <verdicts.jsonl
	assert_output 100000
	renumber one.jsonl >one.renumbered
	cmp one.jsonl one.renumbered
	renumber verdicts.jsonl >verdicts.renumbered
	cmp one.jsonl verdicts.renumbered
	run -0 --separate-stderr sh -c 'jq -r .status verdicts.jsonl | sort | uniq -c'
	assert_output '  70000 0
  20000 1
  10000 4'
}

# An sshd of the test's own on 127.0.0.1, reached as node1 and node2
# through the ssh configuration in PARALLEL_SSH; the tools first on the
# PATH of its sessions. Fails, saying why, when it cannot start.
start_sshd() {
	d=$BATS_TEST_TMPDIR/ssh
	mkdir -p "$d"
	ssh-keygen -q -t ed25519 -N '' -C llmkit-host -f "$d/host_key"
	ssh-keygen -q -t ed25519 -N '' -C llmkit-test -f "$d/id"
	cp "$d/id.pub" "$d/authorized_keys"
	# root's sessions need sshd's privilege separation directory
	if [ "$(id -u)" -eq 0 ] && [ ! -d /run/sshd ]; then
		mkdir -p /run/sshd && chmod 755 /run/sshd
	fi
	bindir=$(dirname "$(command -v jsonresp-check)")
	for try in 1 2 3 4 5; do
		port=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
		cat >"$d/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $d/host_key
AuthorizedKeysFile $d/authorized_keys
PidFile $d/sshd.pid
StrictModes no
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
SetEnv PATH=$bindir:/usr/local/bin:/usr/bin:/bin
EOF
		rm -f "$d/sshd.pid"
		if /usr/sbin/sshd -f "$d/sshd_config" -E "$d/sshd.log"; then
			# sshd forks into the background once it listens
			for _ in $(seq 50); do
				[ -s "$d/sshd.pid" ] && break
				sleep 0.1
			done
			[ -s "$d/sshd.pid" ] && break
		fi
	done
	if [ ! -s "$d/sshd.pid" ]; then
		echo "sshd did not start on 127.0.0.1 (5 ports tried):" >&3
		cat "$d/sshd.log" >&3
		return 1
	fi
	cat >"$d/ssh_config" <<EOF
Host node1 node2
	HostName 127.0.0.1
	Port $port
	User $(id -un)
	IdentityFile $d/id
	IdentitiesOnly yes
	StrictHostKeyChecking no
	UserKnownHostsFile $d/known_hosts
	BatchMode yes
	ConnectTimeout 10
	LogLevel ERROR
EOF
	export PARALLEL_SSH="ssh -F $d/ssh_config"
	# the port answers, and a session finds the tools
	for _ in $(seq 50); do
		got=$($PARALLEL_SSH node1 'command -v jsonresp-check' 2>"$d/ssh.err") &&
			break
		sleep 0.2
	done
	if [ "$got" != "$bindir/jsonresp-check" ]; then
		echo "ssh to the sshd on 127.0.0.1:$port failed:" >&3
		cat "$d/ssh.err" "$d/sshd.log" >&3
		return 1
	fi
}

teardown() {
	d=$BATS_TEST_TMPDIR/ssh
	if [ -s "$d/sshd.pid" ]; then
		kill "$(cat "$d/sshd.pid")" 2>/dev/null || :
	fi
}

@test "GNU parallel --sshlogin sends the blocks to two machines and gives the verdicts of one process, in order" {
	start_sshd
	big 20000
	jsonresp-check -q -o report --lines <big.jsonl >one.jsonl || :
	# the recipe of llmkit(7), as written
	HOME=$BATS_TEST_TMPDIR run --separate-stderr sh -c \
	    'parallel --pipe --block 1M --keep-order -S 2/node1,2/node2 \
	    jsonresp-check -q -o report --lines <big.jsonl >verdicts.jsonl'
	assert_equal "$stderr" ""
	blocks=$(grep -c '^{"file":"<stdin>","line":1,' verdicts.jsonl)
	[ "$blocks" -ge 3 ]
	assert_equal "$status" "$blocks"
	renumber verdicts.jsonl >verdicts.renumbered
	cmp one.jsonl verdicts.renumbered
	# every block went over ssh: a session a job, after start_sshd's own
	run -0 grep -c 'Accepted publickey' "$BATS_TEST_TMPDIR/ssh/sshd.log"
	[ "$output" -ge $((blocks + 1)) ]
}

# A NUL byte in a line (issue 25)

@test "a NUL byte costs its line alone: a record a line, in one process and in parallel blocks" {
	big 20000
	# a NUL byte in every 1000th line, after its 10th byte
	perl -pe 's/^(.{10})/$1\0/ if $. % 1000 == 0' big.jsonl >nul.jsonl
	run -4 --separate-stderr sh -c \
	    'jsonresp-check -q -o report --lines <nul.jsonl >one.jsonl'
	assert_equal "$stderr" ""
	run -0 wc -l <one.jsonl
	assert_output 20000
	run -0 --separate-stderr sh -c "jq -c 'select(.errors[0].message == \"invalid JSON: NUL byte\") | [.line, .errors[0].column]' one.jsonl | sed -n '1p;\$p;\$='"
	assert_output '[1000,11]
[20000,11]
20'
	HOME=$BATS_TEST_TMPDIR run --separate-stderr sh -c \
	    'parallel --pipe --block 100k --keep-order \
	    jsonresp-check -q -o report --lines <nul.jsonl >verdicts.jsonl'
	assert_equal "$stderr" ""
	renumber verdicts.jsonl >verdicts.renumbered
	cmp one.jsonl verdicts.renumbered
}

@test "a NUL byte costs its line alone in llmr-validate's and toolcall-parse's --lines too" {
	{ cat "$TOP/examples/replies.jsonl"; printf '"\0"\n'; cat "$TOP/examples/replies.jsonl"; } >r.jsonl
	run -1 --separate-stderr sh -c 'llmr-validate -q -o report --summary --lines r.jsonl >r.out'
	assert_equal "$stderr" ""
	run -0 jq -c '[.line, .valid, .documents]' r.out
	assert_output '[1,true,null]
[2,false,null]
[3,false,null]
[4,true,null]
[5,false,null]
[null,2,5]'
	{ cat "$TOP/examples/outputs.jsonl"; printf '"\0"\n'; cat "$TOP/examples/outputs.jsonl"; } >o.jsonl
	run -1 --separate-stderr sh -c 'toolcall-parse -q -o report --summary --lines o.jsonl >o.out'
	assert_equal "$stderr" ""
	run -0 jq -c '[.line, .valid, .documents]' o.out
	assert_output '[1,true,null]
[2,false,null]
[3,true,null]
[4,false,null]
[5,true,null]
[6,false,null]
[7,true,null]
[null,4,7]'
}
