# http.bash: starts and stops the HTTP servers of a bats file, loaded with
# "load mcp/http" after helper. Each server is started by http-launch.sh
# (its own process group, port 0, the URL known once it listens) and known
# by a name; its URL, process group and log are files in HTTP_DIR (by
# default the test's temporary directory; a setup_file that starts
# servers for the whole file sets HTTP_DIR=$BATS_FILE_TMPDIR first).
#
#   http_start NAME PATH COMMAND [ARG ...]   start; URL in $HTTP_URL
#   http_url NAME                            print its URL
#   http_log NAME                            print the name of its log
#   http_stop NAME                           stop its process group
#   http_stop_all                            stop every server started
#   http_cert DIR                            a self-signed certificate
#
# A test file's teardown (or teardown_file) calls http_stop_all, so that no
# process outlives the test that started it, even a failed one.

HTTP_LAUNCH="$BATS_TEST_DIRNAME/mcp/http-launch.sh"

http_dir() {
	echo "${HTTP_DIR:-$BATS_TEST_TMPDIR}/http"
}

http_start() {
	local name=$1 dir out
	shift
	dir=$(http_dir)
	mkdir -p "$dir" || return 1
	# fd 3 is bats' own: a server that held it would hold the run open.
	out=$("$HTTP_LAUNCH" -l "$dir/$name.log" "$@" 3>&-) || return 1
	echo "$out" | sed -n 1p >"$dir/$name.url"
	echo "$out" | sed -n 2p >"$dir/$name.pgid"
	# shellcheck disable=SC2034 # the caller's
	HTTP_URL=$(cat "$dir/$name.url")
}

http_url() {
	cat "$(http_dir)/$1.url"
}

http_log() {
	echo "$(http_dir)/$1.log"
}

# http_alive PGID: whether a process of the group is still running (a
# zombie, not yet reaped by whoever inherited it, does not count).
http_alive() {
	ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { n++ }
	    END { exit n == 0 }'
}

http_stop() {
	local f pgid _
	f="$(http_dir)/$1.pgid"
	[ -f "$f" ] || return 0
	pgid=$(cat "$f")
	rm -f "$f"
	kill -TERM -- "-$pgid" 2>/dev/null || return 0
	for _ in $(seq 100); do
		http_alive "$pgid" || return 0
		sleep 0.05
	done
	kill -KILL -- "-$pgid" 2>/dev/null
	return 0
}

http_stop_all() {
	local f
	for f in "$(http_dir)"/*.pgid; do
		[ -f "$f" ] || continue
		http_stop "$(basename "$f" .pgid)"
	done
}

# http_cert DIR: DIR/cert.pem and DIR/key.pem, a self-signed certificate
# for localhost and 127.0.0.1 that is its own authority (what --cacert,
# CURL_CA_BUNDLE and NODE_EXTRA_CA_CERTS take), valid for a day.
http_cert() {
	mkdir -p "$1" &&
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -days 1 -subj /CN=localhost \
	    -addext 'subjectAltName=DNS:localhost,IP:127.0.0.1' \
	    -keyout "$1/key.pem" -out "$1/cert.pem" 2>/dev/null
}
