#!/usr/bin/env bats
# The Debian package: make deb builds it once for this file (in a scratch
# DEB_DIR), lintian finds nothing to say, it holds what make install
# installs plus the documentation and examples, and nothing else; from
# the root that dpkg -x unpacks it into, every tool answers --version and
# does one real job; dpkg installs it into a scratch root and purges it,
# leaving nothing behind.

load helper

# make without the variables of the make check that runs this file
# (SANITIZE=1 among them): the package is always the plain build.
plainmake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE -u OUT -u BINDIR \
	    make "$@"
}

setup_file() {
	DEB_DIR=$BATS_FILE_TMPDIR/deb
	VERSION=$(sed -n 's/^AC_INIT(\[llmkit\], \[\([^]]*\)\].*/\1/p' \
	    "$TOP/configure.ac")
	DEB=$DEB_DIR/llmkit_${VERSION}_$(dpkg --print-architecture).deb
	X=$BATS_FILE_TMPDIR/x
	EX=$X/usr/share/doc/llmkit/examples
	export DEB_DIR VERSION DEB X EX
	if ! plainmake -C "$TOP" deb DEB_DIR="$DEB_DIR" \
	    >"$BATS_FILE_TMPDIR/build.log" 2>&1; then
		tail -40 "$BATS_FILE_TMPDIR/build.log" >&3
		return 1
	fi
	dpkg -x "$DEB" "$X"
}

@test "make deb leaves llmkit_VERSION_ARCH.deb of configure.ac's version" {
	run -0 dpkg-deb -f "$DEB" Package Version Architecture Section
	assert_output "Package: llmkit
Version: $VERSION
Architecture: $(dpkg --print-architecture)
Section: utils"
}

@test "lintian reports no error and no warning on the .deb, .buildinfo and .changes" {
	run -0 --separate-stderr lintian "$DEB_DIR/llmkit_${VERSION}_$(dpkg --print-architecture).changes"
	assert_output ''
}

@test "the package holds what make install installs, the README and the examples, nothing else" {
	# The build left its tree configured (--prefix=/usr) and built.
	run -0 plainmake -s -C "$DEB_DIR/llmkit" install DESTDIR="$PWD/stage"
	{
		(cd stage && find . ! -type d) |
		    sed -E 's,^\.,,; s,^(/usr/share/man/man[0-9]/.*),\1.gz,'
		(cd "$DEB_DIR/llmkit" && find examples ! -type d) |
		    sed 's,^,/usr/share/doc/llmkit/,'
		printf '/usr/share/doc/llmkit/%s\n' README.gz changelog.gz \
		    copyright
	} | sort >expected
	dpkg -c "$DEB" | awk '$1 !~ /^d/ { print $6 }' | sed 's,^\.,,' |
	    sort >actual
	run -0 diff expected actual
	# And, whatever make install does, what the issue asked for.
	for c in "$TOP"/cmd/*.c; do
		t=$(basename "$c" .c)
		grep -qx "/usr/bin/$t" actual || fail "no /usr/bin/$t"
		grep -qx "/usr/share/man/man1/$t.1.gz" actual ||
		    fail "no $t.1.gz"
	done
	grep -qx /usr/share/man/man7/llmkit.7.gz actual || fail "no llmkit.7.gz"
	for d in "$TOP"/data/*; do
		grep -qx "/usr/share/llmkit/${d##*/}" actual ||
		    fail "no /usr/share/llmkit/${d##*/}"
	done
}

@test "the manual pages and data files are the tree's; the tools carry the same data" {
	for m in "$TOP"/man/*.[17]; do
		s=${m##*.}
		zcat "$X/usr/share/man/man$s/${m##*/}.gz" | cmp - "$m" ||
		    fail "${m##*/} differs"
	done
	for d in "$TOP"/data/*; do
		cmp "$X/usr/share/llmkit/${d##*/}" "$d" || fail "${d##*/} differs"
	done
	# The tools read no data file: theirs is compiled in, and is the same.
	"$X/usr/bin/llmr-validate" --print-prompt >prompt
	run -0 cmp prompt "$X/usr/share/llmkit/llm-response-prompt.txt"
}

@test "every installed tool prints its name and the package's version" {
	for c in "$TOP"/cmd/*.c; do
		t=$(basename "$c" .c)
		run -0 --separate-stderr "$X/usr/bin/$t" --version
		assert_output "$t (llmkit) $VERSION"
	done
}

@test "installed llmq-encode writes a query that installed llmr-validate reads back" {
	"$X/usr/bin/llmq-encode" -t demo -n 1 'Is the build green?' >q.xml
	run -0 cat q.xml
	assert_output '<llmQuery>
  <userMessage>Is the build green?</userMessage>
  <context topicId="demo" messageCount="1">
    <activeSubjects></activeSubjects>
    <recentKeywords></recentKeywords>
  </context>
</llmQuery>'
	run -0 --separate-stderr "$X/usr/bin/llmr-validate" -t query -o json q.xml
	assert_output '{"userMessage":"Is the build green?","topicId":"demo","messageCount":1,"activeSubjects":[],"recentKeywords":[]}'
}

@test "installed thread-serialize writes an event as the thread prompt" {
	printf '{"type":"message","role":"user","content":"Is the build green?","iteration":0}\n' >ev.jsonl
	run -0 --separate-stderr "$X/usr/bin/thread-serialize" ev.jsonl
	assert_output '<thread>
  <event type="human" id="0" iteration="0">Is the build green?</event>
</thread>'
}

@test "installed toolcall-parse takes the calls out of the packaged example" {
	run -0 --separate-stderr "$X/usr/bin/toolcall-parse" "$EX/model-output.txt"
	assert_line -n 0 '{"server_name":"local","tool_name":"read_file","arguments":{"path":"src/sum.js","line_start":1,"line_end":40}}'
	assert_line -n 2 '{"server_name":"local","tool_name":"execute_command","arguments":{"command":"npm test && npm run lint","working_dir":".","timeout_seconds":120}}'
	[ "${#lines[@]}" -eq 3 ] || fail "${#lines[@]} lines"
}

@test "installed jsonresp-check passes the packaged example answer" {
	run -0 --separate-stderr "$X/usr/bin/jsonresp-check" -o report "$EX/response.json"
	assert_output "{\"file\":\"$EX/response.json\",\"valid\":true,\"status\":0,\"errors\":[]}"
}

@test "installed llm-retry asks again until the packaged example check accepts" {
	echo 'Answer with one JSON object.' >question.txt
	run -0 --separate-stderr "$X/usr/bin/llm-retry" -c "$EX/llm-retry/json-object" -- \
	    sh -c 'cat >/dev/null; if [ "$LLM_RETRY_ATTEMPT" = 1 ]; then echo "[1]"; else echo "{\"a\": 1}"; fi' \
	    <question.txt
	assert_output '{"a": 1}'
}

@test "installed llmstore keeps a reply and gives it back byte for byte" {
	run -0 --separate-stderr "$X/usr/bin/llmstore" -d s.db put -t demo -m m1 "$EX/reply.xml"
	assert_output --regexp '^[0-9a-f]{64}$'
	h=$output
	"$X/usr/bin/llmstore" -d s.db cat -m m1 >back.xml
	run -0 cmp back.xml "$EX/reply.xml"
	run -0 --separate-stderr "$X/usr/bin/llmstore" -d s.db ls -m m1
	assert_output --partial ",\"hash\":\"$h\"}"
}

@test "installed mcp-run runs a call on the everything server" {
	ev=${LLMKIT_MCP_MODULES:-$TOP/t/mcp/node_modules}/@modelcontextprotocol/server-everything/dist/index.js
	[ -f "$ev" ] || fail "no $ev: run make deps"
	echo '{"server_name":"everything","tool_name":"echo","arguments":{"message":"hi"}}' >in.jsonl
	run -0 --separate-stderr "$X/usr/bin/mcp-run" --server "everything=node $ev stdio" in.jsonl
	assert_output '{"type":"tool_result","toolCallId":"call-0-1","toolName":"echo","serverName":"everything","result":"Echo: hi","iteration":0}'
}

@test "the package depends on the package of every library its tools link or load" {
	for b in "$X"/usr/bin/*; do
		ldd "$b" >ldd.out
		readelf -d "$b" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
		while read -r so; do
			p=$(awk -v so="$so" '$1 == so { print $3 }' ldd.out)
			dpkg -S "$p" 2>/dev/null || dpkg -S "$(realpath "$p")"
		done
	done >owners
	# and those loaded with dlopen when first needed (lib/schema, lib/mcp)
	for so in libidn2.so.0 libcurl.so.4 libpcre2-8.so.0; do
		p=$(ldconfig -p | awk -v so="$so" '$1 == so { print $NF; exit }')
		[ -n "$p" ] || fail "$so: not known to ldconfig"
		dpkg -S "$p" 2>/dev/null || dpkg -S "$(realpath "$p")"
	done >>owners
	cut -d: -f1 owners | sort -u >needed
	dpkg-deb -f "$DEB" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' |
	    sort >depends
	run -0 diff needed depends
}

@test "dpkg installs the package into a scratch root and purges it, leaving nothing" {
	r=$PWD/root
	mkdir -p "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates"
	: >"$r/var/lib/dpkg/status"
	# No maintainer scripts: nothing runs at install or removal.
	run -0 sh -c "dpkg-deb --ctrl-tarfile '$DEB' | tar -t | sort"
	assert_output './
./control
./md5sums'
	# The scratch database knows none of the libraries: --force-depends
	# (the previous test checks the dependencies against this system's).
	run -0 dpkg --root="$r" --force-not-root --force-depends -i "$DEB"
	run -0 "$r/usr/bin/jsonresp-check" --version
	run -0 dpkg --root="$r" --force-not-root --purge llmkit
	run -0 sh -c "cd '$r' && find . ! -path './var/lib/dpkg/*' | sort"
	assert_output '.
./var
./var/lib
./var/lib/dpkg'
}
