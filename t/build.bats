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
