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
