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
