#!/usr/bin/env bats
# -h and --help of every tool and llmstore command: the usage, what each
# option does, the exit statuses; the options those of the completions'
# description (_llmkit_spec), which tools/help turns into the C header
# that the tool prints, and those of the tool's getopt table, both ways,
# so that the help, the completions and the options cannot drift.

load helper

bats_require_minimum_version 1.5.0

# paths: every tool, then every llmstore command path ("llmstore put",
# "llmstore prompt set"), one a line, from the spec's @commands.
paths() {
	local c
	for c in "$TOP"/cmd/*.c; do
		basename "$c" .c
	done
	bash -c '. "$TOP/completions/bash/llmkit"
		for c in $(_llmkit_spec llmstore | sed -n "s/^@commands	//p"); do
			echo "llmstore $c"
			for d in $(_llmkit_spec llmstore "$c" |
			    sed -n "s/^@commands	//p"); do
				echo "llmstore $c $d"
			done
		done'
}

# usage_of PATH...: the usage that PATH prints after a usage error: its
# standard error without the first line (the error).
usage_of() {
	"$@" --no-such-option 2>&1 >/dev/null | tail -n +2
}

# spec_options PATH...: the options of PATH's spec, a spelling a line,
# with "=" after a long one that takes a value, "+" after a short one.
spec_options() {
	bash -c '. "$TOP/completions/bash/llmkit"; _llmkit_spec "$@"' x "$@" |
	    awk -F '\t' '$1 !~ /^@/ {
		n = split($1, a, " ")
		for (i = 1; i <= n; i++)
			print a[i] ($2 == "-" ? "" : a[i] ~ /^--/ ? "=" : "+")
	}'
}

# source_options TOOL: the options of cmd/TOOL.c's getopt tables, a
# spelling a line: the long names of its struct option tables and the
# letters of the option strings it gives cmd_getopt or checker_getopt
# (the skeleton's --errors, --help and --version, and a checker's shared
# options, are in lib/: the other check, each option of the help accepted
# by the tool, covers them).
source_options() {
	sed -n 's/.*{[[:space:]]*"\([a-z][a-z-]*\)",[[:space:]]*\(no\|required\)_argument.*/--\1/p' \
	    "$TOP/cmd/$1.c"
	sed -n 's/.*#define O_[A-Z]*[[:space:]]*{ *"\([a-z][a-z-]*\)",.*/--\1/p' \
	    "$TOP/cmd/$1.c"
	grep -oE '(cmd|checker)_getopt\([^"]*"[^"]*"|"[+:]?[a-zA-Z][a-zA-Z:]*:[a-zA-Z:]*",' \
	    "$TOP/cmd/$1.c" | sed 's/.*"\([^"]*\)".*/\1/' | tr -d '+:' |
	    fold -w 1 | sed 's/^/-/'
}

@test "-h of every tool and llmstore command: its usage, its options as the completions describe them, its exit statuses" {
	paths >paths.txt
	[ "$(wc -l <paths.txt)" -eq 26 ] || fail "paths: $(cat paths.txt)"
	while read -r p; do
		# shellcheck disable=SC2086 # "llmstore put" is two words
		run -0 --separate-stderr $p -h
		[ -z "$stderr" ] || fail "$p -h: stderr $stderr"
		# shellcheck disable=SC2086
		usage=$(usage_of $p)
		[ -n "$usage" ] || fail "$p: no usage"
		status_line=${output##*$'\n'}
		[[ $status_line == 'exit status: 0 '* ]] ||
		    fail "$p: last line $status_line"
		# shellcheck disable=SC2086
		assert_output "$usage

$(help_of $p)

$status_line"
		# shellcheck disable=SC2086
		run -0 --separate-stderr $p --help
		# shellcheck disable=SC2086
		assert_output "$usage

$(help_of $p)

$status_line"
	done <paths.txt
}

@test "-h lists every option of the tool's getopt tables" {
	local c t o
	for c in "$TOP"/cmd/*.c; do
		t=$(basename "$c" .c)
		if [ "$t" = llmstore ]; then
			paths | grep '^llmstore' | while read -r p; do
				# shellcheck disable=SC2086
				$p -h
			done
			llmstore -h
		else
			"$t" -h
		fi >help
		n=0
		for o in $(source_options "$t" | sort -u); do
			n=$((n + 1))
			# old spellings, kept for scripts and not shown
			case $t$o in
			llm-retry-d | llm-retry-t | mcp-run-t) continue ;;
			esac
			grep -qE -- "^  (-[a-zA-Z], )?$o([ ,]|\$)|^  $o, " help ||
			    fail "$t: $o of cmd/$t.c is not in -h"
		done
		[ "$n" -ge 2 ] || fail "$t: only $n options read from cmd/$t.c"
	done
}

@test "every option that -h lists is one the tool takes, with a value when -h names one" {
	local p o err
	export HOME=$PWD
	paths >paths.txt
	# "llmstore prompt" alone is no command: its options are taken
	# after "prompt set", "prompt get" or "prompt ls", tried below
	grep -vx 'llmstore prompt' paths.txt >cmds.txt
	while read -r p; do
		for o in $(spec_options $p); do
			case $o in
			--*=) set -- "$o"x ;;
			-?+) set -- "${o%+}" x ;;
			*) set -- "$o" ;;
			esac
			case $p in
			llmstore\ *)
				# shellcheck disable=SC2086
				err=$(cd "$BATS_TEST_TMPDIR" && timeout 10 llmstore -d s.db ${p#llmstore } "$@" </dev/null 2>&1 >/dev/null) || : ;;
			*)
				err=$(cd "$BATS_TEST_TMPDIR" && timeout 10 $p "$@" </dev/null 2>&1 >/dev/null) || : ;;
			esac
			case $err in
			*"unrecognized option"* | *"invalid option"* | \
			*"unknown option"* | *"doesn't allow an argument"* | \
			*"requires an argument"* | *"needs a value"*)
				fail "$p $*: $err" ;;
			esac
		done
	done <cmds.txt
}

@test "tools/help writes a tool's help header from the spec, and refuses a tool it does not know" {
	run -0 --separate-stderr bash "$TOP/tools/help" thread-serialize
	assert_equal "${lines[0]}" '/* Written by tools/help from completions/bash/llmkit; do not edit. */'
	assert_equal "${lines[1]}" '#define CMD_HELP \'
	assert_equal "${lines[2]}" '	"options:\n" \'
	assert_output --partial '	"  --response-prefix TEXT  text that opens the answer\n" \'
	run -2 --separate-stderr bash "$TOP/tools/help" no-such-tool
	assert_equal "$stderr" 'tools/help: no tool no-such-tool'
	run -2 --separate-stderr bash "$TOP/tools/help"
	assert_equal "$stderr" 'usage: tools/help TOOL'
}

@test "thread-serialize -h, byte for byte" {
	run -0 --separate-stderr thread-serialize -h
	assert_output 'usage: thread-serialize [-hn] [--errors=github|json|text]
                        [--keep-summarized] [--response-prefix TEXT]
                        [--strict] [FILE]

options:
  --errors github|json|text
                          how to write diagnostics
  -h, --help              print this help and exit
  --keep-summarized       keep the events a summary folds
  -n, --no-newline        no newline after the prompt
  --response-prefix TEXT  text that opens the answer
  --strict                refuse unknown members
  --version               print the version and exit

exit status: 0 written, 1 invalid input, 2 usage, 3 trouble'
	assert_equal "$stderr" ''
}

@test "-h to a full disk: status 3 and the error" {
	run -3 --separate-stderr sh -c 'llmq-encode -h >/dev/full'
	assert_equal "$stderr" 'llmq-encode: <stdout>: No space left on device'
	run -3 --separate-stderr sh -c 'llmstore prompt set -h >/dev/full'
	assert_equal "$stderr" 'llmstore: <stdout>: No space left on device'
}
