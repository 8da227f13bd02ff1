#!/usr/bin/env bats
# The build as a user drives it: install honours PREFIX and DESTDIR, and
# every tool answers --version and --help as the conventions say.

load helper

@test "make install puts tools and manual pages under DESTDIR and PREFIX" {
	run make -s -C "$TOP" install DESTDIR="$BATS_TEST_TMPDIR/root" PREFIX=/opt/kit
	assert_success
	for c in "$TOP"/cmd/*.c; do
		t=$(basename "$c" .c)
		[ -x "root/opt/kit/bin/$t" ] || fail "bin/$t not installed"
		[ -f "root/opt/kit/share/man/man1/$t.1" ] || fail "$t.1 not installed"
	done
	[ -f root/opt/kit/share/man/man7/llmkit.7 ] || fail "llmkit.7 not installed"
}

@test "every tool prints its name and the kit's version with --version" {
	v=$(sed -n 's/^AC_INIT(\[llmkit\], \[\([^]]*\)\].*/\1/p' "$TOP/configure.ac")
	for c in "$TOP"/cmd/*.c; do
		t=$(basename "$c" .c)
		run "$t" --version
		assert_success
		assert_output "$t (llmkit) $v"
	done
}

@test "every tool prints its usage on stdout with --help and exits 0" {
	for c in "$TOP"/cmd/*.c; do
		t=$(basename "$c" .c)
		run -0 --separate-stderr "$t" --help
		assert_output --partial "usage: $t "
		[ -z "$stderr" ] || fail "stderr: $stderr"
	done
}

@test "every tool rejects an unknown option with status 2 and its usage" {
	for c in "$TOP"/cmd/*.c; do
		t=$(basename "$c" .c)
		run -2 --separate-stderr "$t" --no-such-option
		[ -z "$output" ] || fail "stdout: $output"
		[[ "$stderr" == *"usage: $t "* ]] || fail "stderr: $stderr"
	done
}

# libs TOOL: the libraries a tool links, by name ("libjansson.so.4" is
# jansson), sorted, on one line: what its code calls and nothing more
# (the sanitizers' runtimes of make check SANITIZE=1 left out).
libs() {
	readelf -d "${LLMKIT_BIN:-$TOP/bin}/$1" |
	    sed -n 's/.*(NEEDED).*\[lib\([^.]*\)\.so.*\]$/\1/p' |
	    grep -vx -e asan -e ubsan | sort | tr '\n' ' '
}

@test "each tool links the libraries it calls and no other" {
	run -0 libs jsonresp-check
	assert_output "c jansson "
	run -0 libs llm-loop
	assert_output "c expat jansson m "
	run -0 libs llm-retry
	assert_output "c jansson "
	run -0 libs llmq-encode
	assert_output "c jansson "
	run -0 libs llmr-validate
	assert_output "c expat jansson "
	run -0 libs llmstore
	assert_output "c expat jansson nettle sqlite3 "
	run -0 libs mcp-run
	assert_output "c jansson "
	run -0 libs thread-serialize
	assert_output "c jansson "
	run -0 libs toolcall-parse
	assert_output "c expat jansson m "
	[ "$(ls "$TOP"/cmd/*.c | wc -l)" -eq 9 ] || fail "a tool not listed here"
}

# idn ARG...: jsonresp-check --lines ARG... with the loader's trace, and
# prints the names of libidn2 and libunistring if it loaded them.
idn() {
	LD_DEBUG=files jsonresp-check --lines "$@" 2>trace >out
	sed -n 's/.*file=[^ ]*lib\(idn2\|unistring\)\.so[^ ]* .* by .*/\1/p' \
	    trace | sort -u | tr '\n' ' '
}

# pcre TOOL ARG...: TOOL ARG... with the loader's trace, whatever its
# status, and prints "pcre2-8" if it loaded libpcre2-8.
pcre() {
	LD_DEBUG=files "$@" 2>trace >out </dev/null
	sed -n 's/.*file=[^ ]*lib\(pcre2-8\)\.so[^ ]* .* by .*/\1/p' trace |
	    sort -u
}

# curl_loaded ARG...: mcp-run ARG... with the loader's trace, whatever
# its status, and prints the libcurl it loaded, if any.
curl_loaded() {
	LD_DEBUG=files mcp-run "$@" 2>trace >out </dev/null
	sed -n 's/.*file=\(libcurl[^ ]*\) .*dynamically loaded.*/\1/p' trace
}

@test "mcp-run loads libcurl only for a remote server" {
	run -0 curl_loaded --version
	assert_output ''
	run -0 curl_loaded --list-servers --server 's=cat'
	assert_output ''
	run -0 curl_loaded --list-tools --server s=http://127.0.0.1:1/mcp
	assert_output libcurl.so.4
}

@test "jsonresp-check loads libidn2 only when a label needs IDNA2008" {
	run -0 idn --version
	assert_output ''
	echo '{"properties": {"h": {"format": "idn-hostname"}}}' >s.json
	printf '{"h": "example.com"}\n' >ascii.jsonl
	run -0 idn --schema s.json ascii.jsonl
	assert_output ''
	printf '{"h": "b\303\274cher.example"}\n' >u.jsonl
	run -0 idn --schema s.json u.jsonl
	assert_output 'idn2 unistring '
}

@test "no tool links PCRE2: it is loaded when a pattern is first compiled" {
	for t in "$TOP"/cmd/*.c; do
		t=$(basename "$t" .c)
		run -0 needed "${LLMKIT_BIN:-$TOP/bin}/$t"
		refute_output --partial pcre
	done
	run -0 pcre jsonresp-check --version
	assert_output ''
	run -0 pcre jsonresp-check "$TOP/examples/bad-response.json"
	assert_output ''
	echo '{"properties": {"h": {"format": "idn-hostname"}}}' >s.json
	printf '{"h": "example.com"}\n' >ascii.jsonl
	run -0 pcre jsonresp-check --schema s.json --lines ascii.jsonl
	assert_output ''
	echo '{"properties": {"a": {"pattern": "^x"}}}' >p.json
	run -0 pcre jsonresp-check --schema p.json --lines ascii.jsonl
	assert_output pcre2-8
	run -0 pcre toolcall-parse --version
	assert_output ''
}

# The simdjson reader (configure --with-simdjson): no tool links C++ or
# simdjson; the reader is a shared object beside the tools, tcsimd.so,
# that toolcall-parse loads once 16 KiB of JSON come, and only then.
# These pass whatever configure chose: config.mk says what it was.

simdjson_chosen() {
	sed -n 's/^SIMDJSON = //p' "$TOP/config.mk"
}

# needed FILE: the shared libraries FILE names (its NEEDED entries).
needed() {
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'
}

# loads CMD...: runs CMD with the loader's trace on stderr, its output to
# out, and prints the tcsimd.so it loaded, if any.
# LLMKIT_JSON is left out: the choice is the tool's own.
loads() {
	env -u LLMKIT_JSON LD_DEBUG=files "$@" 2>trace >out || return 1
	sed -n 's/.*file=\([^ ]*tcsimd\.so\) .*dynamically loaded.*/\1/p' trace
}

# hermes-big: 40 hermes calls of about 4 KB each (160 KB), every JSON
# type, escapes and non-ASCII text among them.
hermes_big() {
	awk 'BEGIN {
		for (c = 0; c < 40; c++) {
			printf "Call %d.\n<tool_call>\n{\"name\": \"write\", " \
			    "\"arguments\": {\"n\": %d, \"x\": %d.25, " \
			    "\"ok\": true, \"none\": null, \"tags\": " \
			    "[\"a\", \"caf\303\251\"], \"text\": \"", c, c, c
			for (i = 0; i < 100; i++)
				printf "line %d \\\"q\\\" \\u00e9\\n", i
			printf "\"}}\n</tool_call>\n"
		}
	}'
}

@test "no tool links simdjson or the C++ runtime, toolcall-parse included" {
	bin=${LLMKIT_BIN:-$TOP/bin}
	for c in "$TOP"/cmd/*.c; do
		t=$(basename "$c" .c)
		run -0 needed "$bin/$t"
		assert_output --partial libc.so
		refute_output --partial libstdc++
		refute_output --partial libsimdjson
	done
}

@test "the simdjson reader lies beside the tools exactly when configure chose it" {
	bin=${LLMKIT_BIN:-$TOP/bin}
	case $(simdjson_chosen) in
	yes)
		run -0 needed "$bin/tcsimd.so"
		assert_line --regexp '^libsimdjson\.so'
		assert_line --regexp '^libstdc\+\+\.so'
		run -0 readelf --dyn-syms -W "$bin/tcsimd.so"
		assert_line --regexp 'FUNC +GLOBAL +DEFAULT +[0-9]+ tcsimd_open$'
		;;
	no)
		[ ! -e "$bin/tcsimd.so" ] || fail "$bin/tcsimd.so built"
		;;
	*)
		fail "config.mk: SIMDJSON is '$(simdjson_chosen)'"
		;;
	esac
}

@test "toolcall-parse --version and a small hermes call load no simdjson" {
	run -0 loads toolcall-parse --version
	assert_output ''
	printf '<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>\n' >small.txt
	run -0 loads toolcall-parse --format hermes small.txt
	assert_output ''
	run cat out
	assert_output '{"server_name":"local","tool_name":"f","arguments":{"a":1}}'
}

@test "toolcall-parse loads simdjson for 160 KB of hermes calls, when built with it" {
	bin=${LLMKIT_BIN:-$TOP/bin}
	hermes_big >big.txt
	run -0 loads toolcall-parse --format hermes big.txt
	if [ "$(simdjson_chosen)" = yes ]; then
		assert_output "$bin/tcsimd.so"
	else
		assert_output ''
	fi
	[ "$(wc -l <out)" -eq 40 ] || fail "$(wc -l <out) calls"
}

@test "toolcall-parse writes the same bytes with and without its simdjson reader" {
	bin=${LLMKIT_BIN:-$TOP/bin}
	# a copy of the binary alone has no tcsimd.so beside it
	mkdir alone
	cp "$bin/toolcall-parse" alone/
	hermes_big >hermes.txt
	awk 'BEGIN {
		printf "<|channel|>commentary to=functions.big <|constrain|>json"
		printf "<|message|>{\"text\": \""
		for (i = 0; i < 3000; i++)
			printf "line %d: \\\"quotes\\\" and \\\\ %d\\n", i, i
		printf "\", \"n\": [1, 2.5, -0, 1e300, 9007199254740993]}<|call|>\n"
	}' >harmony.txt
	awk 'BEGIN {
		c = "data: {\"object\":\"chat.completion.chunk\",\"choices\":" \
		    "[{\"index\":0,\"delta\":"
		f = "{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":"
		print c "{\"role\":\"assistant\",\"content\":\"Text\"}}]}\n"
		print c "{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\"," \
		    "\"type\":\"function\",\"function\":{\"name\":\"f\"," \
		    "\"arguments\":\"\"}}]}}]}\n"
		print c f "\"{\\\"a\\\": \\\"\"}}]}}]}\n"
		for (i = 0; i < 2000; i++) {
			print c f "\"piece " i " \"}}]}}]}\n"
			print c "{\"content\":\"more \"}}]}\n"
		}
		print c f "\"\\\"}\"}}]}}]}\n"
		print c "{},\"finish_reason\":\"tool_calls\"}]}\n"
		print "data: [DONE]\n"
	}' >chunks.sse
	for f in "hermes hermes.txt" "harmony harmony.txt" "openai chunks.sse"; do
		set -- $f
		run -0 loads toolcall-parse --format "$1" --events "$2"
		if [ "$(simdjson_chosen)" = yes ]; then
			assert_output "$bin/tcsimd.so"
		fi
		mv out with.jsonl
		# LLMKIT_PKGLIBDIR may hold an installed reader: then both read
		# with simdjson, and must agree all the same
		alone/toolcall-parse --format "$1" --events "$2" >without.jsonl
		cmp with.jsonl without.jsonl || fail "$1: the outputs differ"
		[ "$(wc -l <with.jsonl)" -gt 1 ] || fail "$1: $(cat with.jsonl)"
	done
}

# lines N: N JSON lines of about 60 bytes, then one with a key twice.
lines() {
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++)
			printf "{\"i\": %d, \"a\": [1.5, -0, \"caf\303\251\"], " \
			    "\"b\": {\"c\": null}}\n", i
		print "{\"a\": 1, \"a\": 2}"
	}'
}

@test "jsonresp-check loads simdjson after 16 KiB of JSON lines, not for a few" {
	bin=${LLMKIT_BIN:-$TOP/bin}
	echo '{"type": "object"}' >schema.json
	lines 10 | sed '$d' >few.jsonl
	run -0 loads jsonresp-check --schema schema.json --lines few.jsonl
	assert_output ''
	lines 1000 | sed '$d' >many.jsonl
	run -0 loads jsonresp-check --schema schema.json --lines many.jsonl
	if [ "$(simdjson_chosen)" = yes ]; then
		assert_output "$bin/tcsimd.so"
	else
		assert_output ''
	fi
}

@test "LLMKIT_JSON=jansson never loads simdjson, =simdjson at once, to the same output" {
	bin=${LLMKIT_BIN:-$TOP/bin}
	echo '{"type": "object"}' >schema.json
	lines 1000 >many.jsonl
	lines 2 >few.jsonl
	for f in many.jsonl few.jsonl; do
		LLMKIT_JSON=jansson LD_DEBUG=files jsonresp-check \
		    --schema schema.json --lines "$f" 2>jansson.err &&
		    fail "a key twice accepted"
		run grep -c 'tcsimd\.so.*dynamically loaded' jansson.err
		assert_output 0
		LLMKIT_JSON=simdjson LD_DEBUG=files jsonresp-check \
		    --schema schema.json --lines "$f" 2>simdjson.err &&
		    fail "a key twice accepted"
		run grep -c 'tcsimd\.so.*dynamically loaded' simdjson.err
		if [ "$(simdjson_chosen)" = yes ]; then
			assert_output 1
		else
			assert_output 0
		fi
		run -0 grep -h '\.jsonl:' jansson.err
		jansson=$output
		run -0 grep -h '\.jsonl:' simdjson.err
		assert_output "$jansson"
	done
	assert_output 'few.jsonl:3:10: error: duplicate key "a", first at line 3, column 2'
}

@test "make install puts the simdjson reader where toolcall-parse looks for it" {
	dir=$(sed -n 's/^PKGLIBDIR = //p' "$TOP/config.mk")
	[ -n "$dir" ] || fail "config.mk: no PKGLIBDIR"
	run -0 strings "${LLMKIT_BIN:-$TOP/bin}/toolcall-parse"
	if [ "$(simdjson_chosen)" = yes ]; then
		assert_line "$dir/tcsimd.so"
	else
		refute_line "$dir/tcsimd.so"
	fi
	run -0 make -s -C "$TOP" install DESTDIR="$BATS_TEST_TMPDIR/root"
	if [ "$(simdjson_chosen)" = yes ]; then
		[ -f "root$dir/tcsimd.so" ] || fail "root$dir/tcsimd.so not installed"
	else
		[ ! -e "root$dir" ] || fail "root$dir installed"
	fi
}
