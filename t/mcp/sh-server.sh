#!/bin/sh
# sh-server.sh [LOG]: the smallest MCP server of the 2026-07-28 revision,
# in sh, for the tests of how mcp-run survives its servers' ends. The
# shell's read takes one line of the input, no more, so what the server
# has not read is still in the pipe when it ends. With LOG, it appends
# "start" when it starts and each line it reads.
#
# Tools, by name (their arguments are not looked at):
#   echo     text "echo ID", ID the request's id
#   bye      text "bye ID", then it exits with status 0
#   quit     exits with status 0 without an answer
#   orphan   starts "sleep 300" in the background, which holds its
#            standard output, writes the child's pid on its standard
#            error ("orphan PID"), and exits with status 4
log=${1:-/dev/null}
echo start >>"$log"
answer() {
	printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"%s %s"}]}}\n' \
	    "$1" "$2" "$1"
}
while IFS= read -r line; do
	printf '%s\n' "$line" >>"$log"
	id=$(printf '%s\n' "$line" | sed -n 's/^{"jsonrpc":"2.0","id":\([0-9]*\),.*/\1/p')
	case $line in
	*'"method":"server/discover"'*)
		printf '{"jsonrpc":"2.0","id":%s,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}}\n' "$id"
		;;
	*'"name":"echo"'*)
		answer "$id" echo
		;;
	*'"name":"bye"'*)
		answer "$id" bye
		exit 0
		;;
	*'"name":"quit"'*)
		exit 0
		;;
	*'"name":"orphan"'*)
		sleep 300 &
		echo "orphan $!" >&2
		exit 4
		;;
	esac
done
