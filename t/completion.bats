#!/usr/bin/env bats
# The shell completions: bash's completion function driven as bash drives
# it (COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT) and its COMPREPLY
# checked; the zsh and fish files loaded by those shells and their
# candidates checked too; the options offered are exactly those of each
# tool's usage; make install puts each file where its shell looks.

load helper

# bash_complete LINE: the candidates (COMPREPLY, one a line) that the
# function registered for LINE's command by completions/bash/COMMAND
# offers for LINE, the cursor at its end. The words are split as readline
# splits them: at blanks, and a run of "=" or ":" is a word of its own.
bash_complete() {
	bash --norc --noprofile -c '
		line=$2
		. "$TOP/completions/bash/$1" || exit 3
		fn=$(complete -p "$1") || exit 3
		fn=${fn#*-F } fn=${fn%% *}
		COMP_LINE=$line COMP_POINT=${#line} COMP_WORDS=()
		while :; do
			line=${line#"${line%%[![:space:]]*}"}
			[[ -n $line ]] || break
			if [[ $line == [=:]* ]]; then
				w=${line%%[!=:]*}
			else
				w=${line%%[[:space:]=:]*}
			fi
			COMP_WORDS+=("$w") line=${line#"$w"}
		done
		[[ $COMP_LINE == *[[:space:]] ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" \
		    "${COMP_WORDS[COMP_CWORD - 1]}" || exit 3
		((${#COMPREPLY[@]} == 0)) || printf "%s\n" "${COMPREPLY[@]}"
	' bash_complete "${1%% *}" "$1"
}

# fish_complete LINE: fish's candidates for LINE, without descriptions,
# from completions/fish/COMMAND.fish alone.
fish_complete() {
	HOME=$BATS_TEST_TMPDIR fish --no-config -c \
	    'source $argv[1]; and complete -C $argv[2]' \
	    "$TOP/completions/fish/${1%% *}.fish" "$1" | cut -f 1
}

# zsh_complete LINE: zsh's candidates for LINE, sorted, with
# completions/zsh first on fpath (t/zsh-complete), one compinit dump for
# the whole file.
zsh_complete() {
	HOME=$BATS_TEST_TMPDIR timeout 60 zsh -f "$TOP/t/zsh-complete" \
	    "$TOP/completions/zsh" "$1" "$BATS_FILE_TMPDIR/zcompdump"
}

# usage_options TOOL [COMMAND ...]: the options that TOOL -h (llmstore:
# COMMAND -h) lists in its usage, one a line: "[-hqx]" is -h, -q and -x.
# For llmstore alone, those given before a command.
usage_options() {
	"$@" -h | sed '/^$/,$d' | if [ "$*" = llmstore ]; then
		grep -F 'llmstore [' | sed 's/\] [a-z].*$/]/'
	else
		cat
	fi | grep -oE '(^|[][ |])--?[A-Za-z][A-Za-z-]*' | sed 's/^[][ |]//' |
	    while read -r o; do
		case $o in
		--*) printf '%s\n' "$o" ;;
		*) o=${o#-}; while [ -n "$o" ]; do
			printf -- '-%s\n' "${o%"${o#?}"}"; o=${o#?}
		   done ;;
		esac
	    done | sort -u
}

# man_longs TOOL: "-X --long" for each option of man/TOOL.1 that has both
# spellings, from its .It lines and from a sentence "The options -m, M
# ... have the long forms --message, --model ...".
man_longs() {
	awk '
	/^\.It Fl [A-Za-z]( |$)/ && match($0, /, Fl -[a-z][a-z-]*/) {
		print "-" $3, "--" substr($0, RSTART + 6, RLENGTH - 6)
	}
	/^The options$/ { s = 1; ns = nl = 0; next }
	s == 1 && /long forms/ { s = 2; next }
	s == 1 && /^\.Fl / {
		sub(/^\.Fl /, ""); gsub(/ /, ""); n = split($0, a, ",")
		for (i = 1; i <= n; i++) if (a[i] != "") short[++ns] = a[i]
	}
	s == 2 && /^\.Fl -/ { l = $2; sub(/,$/, "", l); long[++nl] = "-" l }
	s == 2 && /^\.Pp/ {
		for (i = 1; i <= ns; i++) print "-" short[i], long[i]
		s = 0
	}' "$TOP/man/$1.1"
}

# expected_options TOOL [COMMAND ...]: the usage's options, the long
# spellings of its short ones, and -h, --help and --version, which every
# tool has (lib/cmd.h): what completion must offer.
expected_options() {
	local u
	u=$(usage_options "$@")
	{
		printf '%s\n' "$u" -h --help --version
		man_longs "$1" | while read -r s l; do
			printf '%s\n' "$u" | grep -qxF -- "$s" &&
			    printf '%s\n' "$l"
		done
	} | sort -u
}

# The command paths of llmstore, from its usage: "put", ..., "prompt set".
llmstore_paths() {
	llmstore -h | sed -n 's/^.*llmstore \[-d PATH\] \([a-z]*\).*/\1/p' |
	    awk '!seen[$0]++' | while read -r c; do
		if [ "$c" = prompt ]; then
			llmstore prompt -h |
			    sed -n 's/.*\] prompt \([a-z]*\).*/prompt \1/p'
		else
			echo "$c"
		fi
	    done
}

# servers: conf.json, a configuration of the servers "files", "fetch" and
# "my server", whose commands, if they were run, would leave a file
# behind; and conf2.json, of one server "zeta".
servers() {
	printf '%s\n' '{"mcpServers": {' \
	    '"files": {"command": "touch", "args": ["started"]},' \
	    '"fetch": {"command": "touch", "args": ["started"]},' \
	    '"my server": {"command": "touch", "args": ["started"]}}}' >conf.json
	printf '%s\n' '{"mcpServers": {"zeta": {"command": "touch", "args": ["started"]}}}' \
	    >conf2.json
}

# on_path NAME: a command NAME, found on PATH.
on_path() {
	mkdir -p bin
	printf '#!/bin/sh\n' >"bin/$1"
	chmod +x "bin/$1"
	PATH=$PWD/bin:$PATH
}

tools() {
	for c in "$TOP"/cmd/*.c; do basename "$c" .c; done
}

# same_options COMPLETE: fails unless COMPLETE (bash_complete,
# fish_complete or zsh_complete) offers, for each tool and each llmstore
# command, exactly the options of its usage (expected_options).
same_options() {
	local t p got
	[ "$(llmstore_paths | wc -l)" -eq 16 ] || fail "llmstore's usage not read"
	{
		tools
		llmstore_paths | sed 's/^/llmstore /'
	} >paths
	while read -r p; do
		got=$("$1" "$p -" | sort)
		[ -n "$got" ] || fail "$p: no option offered"
		[ "$got" = "$(expected_options $p)" ] ||
			fail "$p: offers $(echo $got), usage has $(echo $(expected_options $p))"
	done <paths
}

@test "bash: each tool and llmstore command offers exactly its usage's options" {
	same_options bash_complete
}

@test "bash: llmstore offers exactly the commands of its usage" {
	want=$(llmstore_paths | cut -d ' ' -f 1 | awk '!seen[$0]++')
	run bash_complete "llmstore "
	assert_output "$want"
	run bash_complete "llmstore -d x.db prompt "
	assert_output "$(llmstore_paths | sed -n 's/^prompt //p')"
	run bash_complete "llmstore p"
	assert_output $'put\nprompt'
}

@test "fish: each tool and llmstore command offers exactly its usage's options" {
	same_options fish_complete
}

@test "zsh: each tool and llmstore command offers exactly its usage's options" {
	same_options zsh_complete
}

@test "bash: options complete from their prefix, long and short" {
	run bash_complete "toolcall-parse --no"
	assert_output "--no-validate"
	run bash_complete "toolcall-parse --print-"
	assert_output "--print-prompt"
	run bash_complete "jsonresp-check --print-"
	assert_output $'--print-prompt\n--print-schema'
	run bash_complete "llmr-validate -W"
	assert_output "-W"
	run bash_complete "mcp-run --li"
	assert_output $'--list-prompts\n--list-resources\n--list-servers\n--list-tools'
	run bash_complete "mcp-run --list-t"
	assert_output "--list-tools"
	run bash_complete "thread-serialize --re"
	assert_output "--response-prefix"
	run bash_complete "llm-retry --p"
	assert_output $'--prompt\n--pass'
	run bash_complete "llmq-encode --key"
	assert_output $'--keyword\n--keywords'
}

@test "bash: the fixed values of an option, as its own word, after = or attached" {
	run bash_complete "toolcall-parse --format "
	assert_output $'tool\nqwen3\ninvoke\nglm\nhermes\nharmony\ndeepseek\nmistral\nllama3\nkimi\npythonic\nauto\nopenai'
	run bash_complete "toolcall-parse --format=q"
	assert_output "qwen3"
	run bash_complete "toolcall-parse --events --format he"
	assert_output "hermes"
	for t in jsonresp-check llmq-encode llmr-validate mcp-run \
	    thread-serialize toolcall-parse; do
		run bash_complete "$t --errors="
		assert_output $'github\njson\ntext'
		run bash_complete "$t --errors t"
		assert_output "text"
	done
	run bash_complete "jsonresp-check --draft 20"
	assert_output $'2019-09\n2020-12'
	run bash_complete "jsonresp-check --draft="
	assert_output $'4\n6\n7\n2019-09\n2020-12'
	run bash_complete "jsonresp-check -o "
	assert_output $'none\njson\njunit\nreport'
	run bash_complete "jsonresp-check --output=r"
	assert_output "report"
	run bash_complete "jsonresp-check -oj"
	assert_output $'-ojson\n-ojunit'
	run bash_complete "jsonresp-check -oju"
	assert_output "-ojunit"
	run bash_complete "llmr-validate -o "
	assert_output $'none\njson\njunit\nreport\ntext'
	run bash_complete "toolcall-parse -o "
	assert_output $'none\njunit\nreport'
	run bash_complete "llmr-validate --type "
	assert_output $'query\nresponse'
	run bash_complete "llmr-validate -t r"
	assert_output "response"
	run bash_complete "mcp-run --protocol "
	assert_output $'auto\n2026-07-28\n2025-11-25'
	run bash_complete "mcp-run --protocol=2025"
	assert_output "2025-11-25"
}

@test "bash: COMP_WORDS as bash splits --opt=value, and the cursor inside the line" {
	. "$TOP/completions/bash/toolcall-parse"
	COMP_WORDS=(toolcall-parse --format = gl) COMP_CWORD=3
	COMP_LINE='toolcall-parse --format=gl' COMP_POINT=26
	_llmkit toolcall-parse gl =
	[ "${COMPREPLY[*]}" = glm ]
	COMP_WORDS=(toolcall-parse --format = '') COMP_CWORD=2
	COMP_LINE='toolcall-parse --format=' COMP_POINT=24
	_llmkit toolcall-parse = --format
	[ "${COMPREPLY[*]}" = "tool qwen3 invoke glm hermes harmony deepseek mistral llama3 kimi pythonic auto openai" ]
	# The cursor after "--err" of "--errors x.txt": options, not values.
	COMP_WORDS=(toolcall-parse --errors x.txt) COMP_CWORD=1
	COMP_LINE='toolcall-parse --errors x.txt' COMP_POINT=20
	_llmkit toolcall-parse --err toolcall-parse
	[ "${COMPREPLY[*]}" = --errors ]
}

@test "bash: a file where an option or an operand is a file" {
	mkdir sub
	: >a.json
	: >b.xml
	: >sub/c.json
	run bash_complete "jsonresp-check --schema a"
	assert_output "a.json"
	run bash_complete "jsonresp-check --schema="
	assert_output $'a.json\nb.xml\nsub'
	run bash_complete "jsonresp-check -r sub/"
	assert_output "sub/c.json"
	run bash_complete "jsonresp-check --ref b"
	assert_output "b.xml"
	run bash_complete "jsonresp-check --schema a.json "
	assert_output $'a.json\nb.xml\nsub'
	run bash_complete "toolcall-parse --tools "
	assert_output $'a.json\nb.xml\nsub'
	run bash_complete "toolcall-parse --format glm b"
	assert_output "b.xml"
	run bash_complete "llm-retry -p a"
	assert_output "a.json"
	run bash_complete "llm-retry --prompt=s"
	assert_output "sub"
	run bash_complete "llmq-encode --context s"
	assert_output "sub"
	run bash_complete "mcp-run -c a"
	assert_output "a.json"
	run bash_complete "mcp-run --config a"
	assert_output "a.json"
	run bash_complete "mcp-run -c a.json b"
	assert_output "b.xml"
	run bash_complete "llmr-validate -t query b"
	assert_output "b.xml"
	run bash_complete "thread-serialize a"
	assert_output "a.json"
	run bash_complete "jsonresp-check --ref-map https://example.com/s/=s"
	assert_output "sub"
}

@test "bash: nothing where an option takes free text or a tool no operand" {
	: >a.json
	run bash_complete "llmq-encode -t "
	assert_output ""
	run bash_complete "llmq-encode --subjects "
	assert_output ""
	run bash_complete "thread-serialize --response-prefix "
	assert_output ""
	run bash_complete "toolcall-parse --iteration "
	assert_output ""
	run bash_complete "llm-retry -n "
	assert_output ""
	run bash_complete "mcp-run -T "
	assert_output ""
	run bash_complete "mcp-run --server files"
	assert_output ""
	# llmq-encode's operands are messages, files only with --from-json.
	run bash_complete "llmq-encode -t t a"
	assert_output ""
	run bash_complete "llmq-encode --from-json a"
	assert_output "a.json"
	# An operand that looks like an option after --.
	run bash_complete "toolcall-parse -- -"
	assert_output ""
}

@test "bash: llm-retry completes the model's command, then its arguments" {
	: >prompt.txt
	on_path llmkit-fake-model
	run bash_complete "llm-retry -c true -- llmkit-fake-m"
	assert_output "llmkit-fake-model"
	run bash_complete "llm-retry -c true llmkit-fake-m"
	assert_output "llmkit-fake-model"
	run bash_complete "llm-retry -c true llmkit-fake-model -"
	assert_output ""
	run bash_complete "llm-retry -c true llmkit-fake-model pr"
	assert_output "prompt.txt"
	run bash_complete "llm-retry -c true -- llmkit-fake-model p"
	assert_output "prompt.txt"
}

@test "bash: llm-loop completes the model's command after --, its arguments after it" {
	: >prompt.txt
	on_path llmkit-fake-model
	run bash_complete "llm-loop fix it -- llmkit-fake-m"
	assert_output "llmkit-fake-model"
	run bash_complete "llm-loop -y -c prompt.txt -- llmkit-fake-m"
	assert_output "llmkit-fake-model"
	run bash_complete "llm-loop fix it -- llmkit-fake-model pr"
	assert_output "prompt.txt"
	run bash_complete "llm-loop fix it -- llmkit-fake-model -"
	assert_output ""
	# Before --, the operands are the message.
	run bash_complete "llm-loop fix pr"
	assert_output ""
	run bash_complete "llm-loop llmkit-fake-m"
	assert_output ""
	run bash_complete "llm-loop -t pr"
	assert_output "prompt.txt"
	run bash_complete "llm-loop --system=pr"
	assert_output "prompt.txt"
	run bash_complete "llm-loop -o "
	assert_output $'prose\nevents'
	run bash_complete "llm-loop --format q"
	assert_output "qwen3"
}

@test "fish: llm-loop completes the model's command after --, its arguments after it" {
	: >prompt.txt
	on_path llmkit-fake-model
	run fish_complete "llm-loop fix it -- llmkit-fake-m"
	assert_output "llmkit-fake-model"
	run fish_complete "llm-loop fix it -- llmkit-fake-model pr"
	assert_output "prompt.txt"
	run fish_complete "llm-loop fix pr"
	assert_output ""
	run fish_complete "llm-loop -t pr"
	assert_output "prompt.txt"
	run fish_complete "llm-loop -o "
	assert_output $'events\nprose'
}

@test "zsh: llm-loop completes the model's command after --, its arguments after it" {
	: >prompt.txt
	on_path llmkit-fake-model
	run zsh_complete "llm-loop fix it -- llmkit-fake-m"
	assert_output "llmkit-fake-model"
	run zsh_complete "llm-loop fix it -- llmkit-fake-model pr"
	assert_output "prompt.txt"
	run zsh_complete "llm-loop fix pr"
	assert_output ""
	run zsh_complete "llm-loop -t pr"
	assert_output "prompt.txt"
	run zsh_complete "llm-loop --output "
	assert_output $'events\nprose'
}

@test "bash: mcp-run completes a server's command after --server NAME=" {
	on_path llmkit-fake-server
	run bash_complete "mcp-run --server files=llmkit-fake-s"
	assert_output "llmkit-fake-server"
	run bash_complete "mcp-run --server=files=llmkit-fake-s"
	assert_output "llmkit-fake-server"
}

@test "bash: mcp-run --list-tools completes the names of the servers of -c" {
	servers
	run bash_complete "mcp-run --list-tools -c conf.json "
	assert_output $'fetch\nfiles\nmy\\ server'
	run bash_complete "mcp-run --list-tools -c conf.json fi"
	assert_output "files"
	run bash_complete "mcp-run --list-tools -c conf.json my"
	assert_output 'my\ server'
	run bash_complete "mcp-run -c conf.json --list-tools fe"
	assert_output "fetch"
	run bash_complete "mcp-run --list-tools --config=conf.json f"
	assert_output $'fetch\nfiles'
	run bash_complete "mcp-run --list-tools -cconf.json fe"
	assert_output "fetch"
	HOME=$PWD run bash_complete "mcp-run --list-tools -c ~/conf.json fe"
	assert_output "fetch"
	run bash_complete "mcp-run --list-tools -c conf.json files "
	assert_output $'fetch\nfiles\nmy\\ server'
	# Every -c, and --server, as mcp-run reads them.
	run bash_complete "mcp-run --list-tools -c conf.json -c conf2.json --server x=true "
	assert_output $'fetch\nfiles\nmy\\ server\nx\nzeta'
	[ ! -e started ]
}

@test "bash: nothing for mcp-run's servers without --list-tools, without -c, or with a bad one" {
	servers
	run bash_complete "mcp-run -c conf.json f"
	assert_output ""
	run bash_complete "mcp-run --list-servers -c conf.json f"
	assert_output ""
	run bash_complete "mcp-run --list-tools "
	assert_output ""
	run bash_complete "mcp-run --list-tools -c nonexistent.json "
	assert_output ""
	printf '{"mcpServers": 7}\n' >bad.json
	run --separate-stderr bash_complete "mcp-run --list-tools -c bad.json "
	assert_output ""
	assert_equal "$stderr" ""
	# Not the mcp-run of PATH: nothing, quietly.
	run --separate-stderr env PATH=/usr/bin:/bin bash -c \
	    "$(declare -f bash_complete); TOP='$TOP'; bash_complete 'mcp-run --list-tools -c conf.json '"
	assert_output ""
	assert_equal "$stderr" ""
}

@test "bash: llmstore's commands take their own options and operands" {
	: >m.xml
	run bash_complete "llmstore ls --format "
	assert_output $'llm-query\nllm-response'
	run bash_complete "llmstore -d s.db ls --format=llm-r"
	assert_output "llm-response"
	run bash_complete "llmstore put --errors "
	assert_output $'github\njson\ntext'
	run bash_complete "llmstore put -t t -m 1 m"
	assert_output "m.xml"
	run bash_complete "llmstore import m"
	assert_output "m.xml"
	run bash_complete "llmstore prompt set -M qwen m"
	assert_output "m.xml"
	run bash_complete "llmstore -d m"
	assert_output "m.xml"
	run bash_complete "llmstore --store=m"
	assert_output "m.xml"
	run bash_complete "llmstore cat m"
	assert_output ""
	run bash_complete "llmstore prompt get --rev"
	assert_output "--revision"
	run bash_complete "llmstore archive --u"
	assert_output "--undo"
	run bash_complete "llmstore prompt set --x"
	assert_output "--xml-schema-version"
	# A command's name as an option's value is not the command.
	run bash_complete "llmstore -d put "
	assert_output "$(llmstore_paths | cut -d ' ' -f 1 | awk '!seen[$0]++')"
}

@test "fish: options' values, files and llmstore's commands" {
	: >a.json
	run fish_complete "toolcall-parse --format "
	assert_output $'auto\ndeepseek\nglm\nharmony\nhermes\ninvoke\nkimi\nllama3\nmistral\nopenai\npythonic\nqwen3\ntool'
	run fish_complete "jsonresp-check --draft "
	assert_output $'4\n6\n7\n2019-09\n2020-12'
	run fish_complete "jsonresp-check --schema a"
	assert_output "a.json"
	run fish_complete "mcp-run --protocol "
	assert_output $'2025-11-25\n2026-07-28\nauto'
	run fish_complete "llmstore -d a.json prompt "
	assert_output $'get\nls\nset'
	run fish_complete "llmstore ls --format "
	assert_output $'llm-query\nllm-response'
	run fish_complete "llmstore cat "
	assert_output ""
	run fish_complete "llmstore put -t t -m m a"
	assert_output "a.json"
}

@test "fish: mcp-run --list-tools completes the names of the servers of -c" {
	servers
	run fish_complete "mcp-run --list-tools -c conf.json "
	assert_output $'fetch\nfiles\nmy server'
	run fish_complete "mcp-run --list-tools -c conf.json fi"
	assert_output "files"
	run fish_complete "mcp-run -c conf.json --list-tools --server=x=true "
	assert_output $'fetch\nfiles\nmy server\nx'
	run fish_complete "mcp-run --list-tools --config conf.json -c conf2.json z"
	assert_output "zeta"
	run fish_complete "mcp-run --list-tools -c ~/conf.json fe"
	assert_output "fetch"
	run fish_complete "mcp-run --list-servers -c conf.json f"
	assert_output ""
	run fish_complete "mcp-run -c conf.json conf2"
	assert_output "conf2.json"
	run fish_complete "mcp-run --list-tools -c conf"
	assert_output $'conf.json\nconf2.json'
	run fish_complete "llmq-encode -t t conf"
	assert_output ""
	run fish_complete "llmq-encode --from-json conf"
	assert_output $'conf.json\nconf2.json'
	[ ! -e started ]
}

@test "zsh: mcp-run --list-tools completes the names of the servers of -c" {
	servers
	run zsh_complete "mcp-run --list-tools -c conf.json "
	assert_output $'fetch\nfiles\nmy\\ server'
	run zsh_complete "mcp-run --list-tools -c conf.json fi"
	assert_output "files"
	run zsh_complete "mcp-run --config=conf.json --list-tools --server x=true "
	assert_output $'fetch\nfiles\nmy\\ server\nx'
	run zsh_complete "mcp-run --list-tools -c conf.json -c conf2.json z"
	assert_output "zeta"
	run zsh_complete "mcp-run --list-tools -c ~/conf.json fe"
	assert_output "fetch"
	run zsh_complete "mcp-run --list-servers -c conf.json f"
	assert_output ""
	run zsh_complete "mcp-run -c conf.json conf2"
	assert_output "conf2.json"
	run zsh_complete "llmq-encode -t t conf"
	assert_output ""
	run zsh_complete "llmq-encode --from-json conf"
	assert_output $'conf.json\nconf2.json'
	[ ! -e started ]
}

@test "zsh: options' values, files, commands and llmstore's commands" {
	: >a.json
	on_path llmkit-fake-model
	run zsh_complete "toolcall-parse --format "
	assert_output $'auto\ndeepseek\nglm\nharmony\nhermes\ninvoke\nkimi\nllama3\nmistral\nopenai\npythonic\nqwen3\ntool'
	run zsh_complete "jsonresp-check --draft="
	assert_output $'2019-09\n2020-12\n4\n6\n7'
	run zsh_complete "llmr-validate -t "
	assert_output $'query\nresponse'
	run zsh_complete "mcp-run --errors="
	assert_output $'github\njson\ntext'
	run zsh_complete "mcp-run --protocol "
	assert_output $'2025-11-25\n2026-07-28\nauto'
	run zsh_complete "jsonresp-check --schema a"
	assert_output "a.json"
	run zsh_complete "mcp-run -c a"
	assert_output "a.json"
	run zsh_complete "llm-retry -c true -- llmkit-fake-m"
	assert_output "llmkit-fake-model"
	run zsh_complete "llmstore "
	assert_output "$(llmstore_paths | cut -d ' ' -f 1 | sort -u)"
	run zsh_complete "llmstore -d a.json prompt "
	assert_output $'get\nls\nset'
	run zsh_complete "llmstore ls --format "
	assert_output $'llm-query\nllm-response'
	run zsh_complete "llmstore put -t t -m m a"
	assert_output "a.json"
}

@test "zsh loads _llmkit and binds it to every tool" {
	mkdir zdot
	run env ZDOTDIR="$PWD/zdot" zsh -f -c '
		fpath=("$1" $fpath)
		autoload -Uz compinit && compinit -d "$2" &&
		autoload -Uz +X _llmkit &&
		print -rl -- ${(ko)_comps[(R)_llmkit]} &&
		(( $+functions[_llmkit] ))' zsh "$TOP/completions/zsh" \
	    "$PWD/zdot/compdump"
	assert_success
	assert_output "$(tools)"
}

@test "the zsh and fish files are what tools/completions writes" {
	bash "$TOP/tools/completions" "$PWD/gen"
	diff -r gen/zsh "$TOP/completions/zsh"
	diff -r gen/fish "$TOP/completions/fish"
	for t in $(tools); do
		[ "$(readlink "$TOP/completions/bash/$t")" = llmkit ] ||
			fail "completions/bash/$t is not a link to llmkit"
	done
}

@test "make install puts each completion where its shell looks" {
	run make -s -C "$TOP" install DESTDIR="$PWD/root" PREFIX=/usr/local
	assert_success
	share=$PWD/root/usr/local/share
	for t in $(tools); do
		cmp "$TOP/completions/bash/llmkit" \
		    "$share/bash-completion/completions/$t"
		cmp "$TOP/completions/fish/$t.fish" \
		    "$share/fish/vendor_completions.d/$t.fish"
	done
	cmp "$TOP/completions/zsh/_llmkit" "$share/zsh/site-functions/_llmkit"
	# bash-completion loads it by the command's name from XDG_DATA_DIRS,
	# where /usr/local/share is by default.
	run env HOME="$PWD" XDG_DATA_DIRS="$share" bash --norc --noprofile -c '
		. /usr/share/bash-completion/bash_completion &&
		__load_completion toolcall-parse && complete -p toolcall-parse'
	assert_output "complete -F _llmkit toolcall-parse"
	# fish finds it in vendor_completions.d of XDG_DATA_DIRS.
	run env HOME="$PWD" XDG_DATA_DIRS="$share" fish -c \
	    'complete -C "llmr-validate --type "'
	assert_output $'query\tthe kind of document\nresponse\tthe kind of document'
	# zsh's own fpath has /usr/local/share/zsh/site-functions.
	zsh -f -c 'print -rl -- $fpath' | grep -qx /usr/local/share/zsh/site-functions
	# bash-completion's directory relative to its prefix, under PREFIX.
	[ "$(pkg-config --variable=completionsdir bash-completion)" = \
	    "$(pkg-config --variable=prefix bash-completion)/share/bash-completion/completions" ]
	run make -s -C "$TOP" uninstall DESTDIR="$PWD/root" PREFIX=/usr/local
	assert_success
	run find root -type f
	assert_output ""
}

@test "configure takes bash-completion's directory relative to its prefix" {
	mkdir pc build
	printf '%s\n' prefix=/opt/bc 'datadir=/opt/bc/data' \
	    'completionsdir=${datadir}/bc/completions' Name: bash-completion \
	    Description: d Version: 2.11 >pc/bash-completion.pc
	cd build
	PKG_CONFIG_PATH=$PWD/../pc "$TOP/configure" -q >/dev/null
	run grep '^BASH_COMPLETIONS = ' config.mk
	assert_output "BASH_COMPLETIONS = data/bc/completions"
	# Without its pkg-config file, the usual place.
	bc=$(dirname "$(pkg-config --path bash-completion)")
	PKG_CONFIG_LIBDIR=$(pkg-config --variable pc_path pkg-config |
	    tr : '\n' | grep -vxF "$bc" | paste -sd :)
	export PKG_CONFIG_LIBDIR
	run ! pkg-config --exists bash-completion
	"$TOP/configure" -q >/dev/null
	run grep '^BASH_COMPLETIONS = ' config.mk
	assert_output "BASH_COMPLETIONS = share/bash-completion/completions"
}
