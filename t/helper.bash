# Shared set-up for every t/*.bats file: bats-support and bats-assert from
# Debian, a private temporary directory, and the tools under test on PATH
# (t/run-tests puts $LLMKIT_BIN first; run by hand, bin/ is used).
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
DATA="$TOP/t/data"
PATH="${LLMKIT_BIN:-$TOP/bin}:$PATH"
export TOP DATA PATH

# Each test gets its own empty working directory.
setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# peak CMD...: runs CMD with stdout to out and stderr to err, and prints
# its status and its peak resident memory in KiB (the sanitizers reserve
# address space, so ulimit -v cannot bound them; the peak is real memory).
peak() {
	python3 -c '
import resource, subprocess, sys
with open("out", "wb") as o, open("err", "wb") as e:
	st = subprocess.run(sys.argv[1:], stdout=o, stderr=e).returncode
print(st, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}

# held KIB: the bound on the peak of a tool that holds a large buffer on
# purpose. Under the sanitizers (make check SANITIZE=1) realloc always
# copies and freed blocks wait in AddressSanitizer's quarantine, so the
# bound there is three times as high; the plain build keeps it exact.
held() {
	if [ "${LLMKIT_SANITIZE:-}" = 1 ]; then
		echo $(($1 * 3))
	else
		echo "$1"
	fi
}

# help_of TOOL [COMMAND ...]: the options block that TOOL -h (llmstore:
# TOOL COMMAND -h) must print, made here from _llmkit_spec, the
# completions' description of the options, by the layout llmkit(7) gives:
# "options:", then a line an option in the order of its first name
# without dashes, its spellings and the name of its value in 24 columns
# after 2 blanks, then what it does (on a line of its own, 26 blanks in,
# when the spellings take more than 22 columns).
help_of() {
	bash -c '. "$TOP/completions/bash/llmkit"; _llmkit_spec "$@"' help_of "$@" |
	    awk -F '\t' '
	$1 ~ /^@/ { next }
	{
		n = split($1, names, " ")
		spell = names[1]
		for (i = 2; i <= n; i++)
			spell = spell ", " names[i]
		arg = $2
		if (arg != "-") {
			if (index(arg, ":") > 0)
				v = substr(arg, index(arg, ":") + 1)
			else if (arg == "@file") v = "FILE"
			else if (arg == "@dir") v = "DIR"
			else if (arg == "@=dir") v = "URI=DIR"
			else if (arg == "@=cmd") v = "NAME=COMMAND"
			else if (arg ~ /^@/) v = "VALUE"
			else v = arg
			spell = spell " " v
		}
		key = names[1]
		sub(/^--?/, "", key)
		if (length(spell) <= 22)
			line = sprintf("  %-24s%s", spell, $3)
		else
			line = sprintf("  %s\001%26s%s", spell, "", $3)
		print tolower(key) "\t" NR "\t" line
	}' | LC_ALL=C sort -t '	' -k 1,1 -k 2,2n | cut -f 3- | tr '\001' '\n' |
	    { echo 'options:'; cat; }
}
