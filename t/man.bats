#!/usr/bin/env bats
# The manual pages are part of the product: each tool has one, and all
# are clean under mandoc -Tlint.

load helper

@test "every tool has a manual page" {
	for c in "$TOP"/cmd/*.c; do
		t=$(basename "$c" .c)
		[ -f "$TOP/man/$t.1" ] || fail "no man/$t.1"
	done
}

@test "the manual pages are clean under mandoc -Tlint" {
	run mandoc -Tlint -W warning "$TOP"/man/*.1 "$TOP"/man/*.7
	assert_success
	assert_output ""
}
