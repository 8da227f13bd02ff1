# man-examples.awk: finds the examples of one mdoc page that show a command
# and its output, and writes what t/man-examples needs to run them.
#
#   awk -v page='NAME(1)' -v id=ID -v dir=DIR -f t/man-examples.awk PAGE
#
# An example is a literal display (.Bd -literal ... .Ed) whose first line
# starts with "$ ". A command is the text after "$ ", continued on the
# lines after it while it is incomplete: its line ends in a backslash, a
# pipe, && or ||; a here-document is open; or a do, then, case or { is not
# yet closed. Every other line is output. A display that shows no output
# (only commands), or that is not a session (a Makefile, a script, a
# format), is left alone.
#
# The mdoc comment lines just before the .Bd say more about the example:
#   .\" example: not run[: REASON]   its output is not exact (times, a
#                                    real model's answer): not run, listed
#   .\" example: setup: COMMAND      run first, in the same shell, with
#                                    its output thrown away (as many as
#                                    needed, in order)
#
# The examples of one page run in order in one shell, in one directory,
# as a reader would type them: a later one may use a file or a variable an
# earlier one made. Writes DIR/ID.sh, the shell script that runs them,
# which puts what example N printed (its commands shown as in the page,
# each followed by its standard output and standard error) in
# "$_mx_out/ID.N.got"; DIR/ID.N.want, what the page shows, with the mdoc
# escapes undone; and on standard output one line an example:
#   run<TAB>PAGE<TAB>LINE<TAB>ID.N<TAB>FIRST-COMMAND
#   skip<TAB>PAGE<TAB>LINE<TAB>ID.N<TAB>FIRST-COMMAND<TAB>REASON
# Exits 1, naming the place, on an escape or a display it cannot read.
# Run it with LC_ALL=C: \[uXXXX] is written as UTF-8 bytes.

BEGIN {
	n = 0
	nmarks = 0
	inblock = 0
	hex = "0123456789abcdef"
	driver = dir "/" id ".sh"
	printf "# The examples of %s, from t/man-examples.awk.\n", page >driver
}

function fail(msg) {
	printf "%s:%d: %s\n", FILENAME, FNR, msg >"/dev/stderr"
	failed = 1
	exit 1
}

function utf8(c) {
	if (c < 128)
		return sprintf("%c", c)
	if (c < 2048)
		return sprintf("%c%c", 192 + int(c / 64), 128 + c % 64)
	if (c < 65536)
		return sprintf("%c%c%c", 224 + int(c / 4096),
		    128 + int(c / 64) % 64, 128 + c % 64)
	return sprintf("%c%c%c%c", 240 + int(c / 262144),
	    128 + int(c / 4096) % 64, 128 + int(c / 64) % 64, 128 + c % 64)
}

# The character of a named escape, \(xx or \[name].
function named(nm,   c, i, d) {
	if (nm == "dq")
		return "\""
	if (nm == "aq")
		return "'"
	if (nm == "em")
		return utf8(8212)
	if (nm == "en")
		return utf8(8211)
	if (nm ~ /^u[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]+$/) {
		c = 0
		for (i = 2; i <= length(nm); i++) {
			d = index(hex, tolower(substr(nm, i, 1))) - 1
			c = c * 16 + d
		}
		return utf8(c)
	}
	fail("unknown escape \\[" nm "] in an example")
}

# The text of a line of a literal display, its escapes undone.
function unescape(s,   r, i, j, c) {
	r = ""
	while ((i = index(s, "\\")) > 0) {
		r = r substr(s, 1, i - 1)
		c = substr(s, i + 1, 1)
		if (c == "e" || c == "\\") {
			r = r "\\"
			s = substr(s, i + 2)
		} else if (c == "&") {
			s = substr(s, i + 2)
		} else if (c == "-") {
			r = r "-"
			s = substr(s, i + 2)
		} else if (c == "(") {
			r = r named(substr(s, i + 2, 2))
			s = substr(s, i + 4)
		} else if (c == "[") {
			j = index(substr(s, i + 2), "]")
			if (j == 0)
				fail("unclosed \\[ in an example")
			r = r named(substr(s, i + 2, j - 1))
			s = substr(s, i + 2 + j)
		} else {
			fail("unknown escape \\" c " in an example")
		}
	}
	return r s
}

function shquote(s) {
	gsub(/'/, "'\\''", s)
	return "'" s "'"
}

# How many compound commands the line opens, less those it closes (the
# words do, then, case, { against done, fi, esac, }), quoted text aside.
function depth(s,   w, k, i, d) {
	gsub(/'[^']*'/, "", s)
	gsub(/"[^"]*"/, "", s)
	k = split(s, w, /[ \t;&|()]+/)
	d = 0
	for (i = 1; i <= k; i++) {
		if (w[i] == "do" || w[i] == "then" || w[i] == "case" ||
		    w[i] == "{")
			d++
		else if (w[i] == "done" || w[i] == "fi" || w[i] == "esac" ||
		    w[i] == "}")
			d--
	}
	return d
}

# Follows one more line of a command: an open here-document, compound
# commands, a continued line.
function take(u,   m) {
	if (heredoc != "") {
		if (u == heredoc)
			heredoc = ""
		return
	}
	if (match(u, /<<-?[ \t]*['"]?[A-Za-z_][A-Za-z_0-9]*/)) {
		m = substr(u, RSTART + 2, RLENGTH - 2)
		sub(/^-/, "", m)
		gsub(/[ \t'"]/, "", m)
		heredoc = m
	}
	open += depth(u)
	cont = (u ~ /(\\|\||&&)[ \t]*$/)
}

function incomplete() {
	return heredoc != "" || open > 0 || cont
}

# Writes the command of lines i to j into the driver: shown as in the
# page, then run with $? as the previous command left it.
function command(i, j,   k) {
	printf "printf '%%s\\n'" >driver
	for (k = i; k <= j; k++)
		printf " %s", shquote(u[k]) >driver
	printf "\n(exit $_mx_st)\n" >driver
	print substr(u[i], 3) >driver
	for (k = i + 1; k <= j; k++)
		print u[k] >driver
	print "_mx_st=$?" >driver
}

/^\.Bd -literal/ {
	inblock = 1
	start = FNR + 1
	lines = 0
	next
}

inblock && /^\.Ed/ {
	inblock = 0
	block()
	nmarks = 0
	next
}

inblock {
	text[++lines] = $0
	next
}

/^\.\\" example: / {
	mark[++nmarks] = $0
	next
}

nmarks > 0 {
	fail("an example's marker is not just before its .Bd")
}

function block(   i, j, outputs, skip, reason, m, title, ex, wantf, setup) {
	if (lines == 0 || text[1] !~ /^\$ /) {
		if (nmarks > 0)
			fail("a marker before a display that is no example")
		return
	}
	# Which lines are commands: a "$ " line starts one, and the lines
	# after it continue it while it is incomplete.
	outputs = 0
	heredoc = ""
	open = 0
	cont = 0
	for (i = 1; i <= lines; i++) {
		u[i] = unescape(text[i])
		if (i > 1 && incomplete()) {
			kind[i] = "more"
			take(u[i])
		} else if (u[i] ~ /^\$ /) {
			kind[i] = "cmd"
			take(substr(u[i], 3))
		} else {
			kind[i] = "out"
			outputs++
		}
	}
	if (incomplete())
		fail("an example's command is not complete at the end of its display")
	if (outputs == 0) {
		if (nmarks > 0)
			fail("a marker before an example that shows no output")
		return
	}

	skip = 0
	reason = ""
	setup = ""
	for (i = 1; i <= nmarks; i++) {
		m = mark[i]
		sub(/^\.\\" example: /, "", m)
		if (m ~ /^not run/) {
			skip = 1
			reason = m
			sub(/^not run:?[ \t]*/, "", reason)
		} else if (m ~ /^setup: /) {
			setup = setup substr(m, 8) "\n"
		} else {
			fail("unknown marker \"" mark[i] "\"")
		}
	}

	n++
	ex = id "." n
	title = substr(u[1], 3)
	if (skip) {
		printf "skip\t%s\t%d\t%s\t%s\t%s\n", page, start, ex, title,
		    reason
		return
	}
	printf "run\t%s\t%d\t%s\t%s\n", page, start, ex, title

	wantf = dir "/" ex ".want"
	for (i = 1; i <= lines; i++)
		print u[i] >wantf
	close(wantf)
	printf "\n# %s line %d\n", page, start >driver
	if (setup != "")
		printf "{\n%s} >/dev/null 2>&1\n", setup >driver
	printf "{\n_mx_st=0\n" >driver
	for (i = 1; i <= lines; i = j + 1) {
		j = i
		if (kind[i] != "cmd")
			continue
		while (j < lines && kind[j + 1] == "more")
			j++
		command(i, j)
	}
	printf "} >\"$_mx_out/%s.got\" 2>&1 </dev/null\n", ex >driver
}

END {
	if (failed)
		exit 1
	if (inblock)
		fail("a literal display is not closed")
	close(driver)
}
