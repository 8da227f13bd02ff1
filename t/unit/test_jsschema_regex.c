/*
 * Unit tests of lib/jsschema_regex: ECMA-262 patterns (with the "u" flag) run on
 * PCRE2 give the answers of JavaScript's RegExp.
 *
 * Each row's verdict was computed with node (v20) by this script, the
 * rows written as [pattern, subject] pairs:
 *
 *   node -e 'for (const [p, s] of rows) { let e;
 *       try { e = new RegExp(p, "u").test(s) ? 1 : 0; } catch (x) { e = -1; }
 *       console.log(e); }'
 *
 * 1 is a match, 0 none, -1 a pattern RegExp refuses (then jsschema_regex_compile
 * must refuse it too). The rows hold the cases of the JSON-Schema-Test-
 * Suite's draft7 pattern.json, patternProperties.json,
 * optional/ecmascript-regex.json and optional/format/ecmascript-regex.json,
 * then more. check_node() asks node again at run time, so that a row
 * copied wrong cannot hide.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "schema/jsschema_regex.h"
#include "unit.h"

struct row {
	const char	*pat;
	size_t		 plen;
	const char	*subj;
	size_t		 slen;
	int		 want;
};

#define R(p, s, e)	{ p, sizeof(p) - 1, s, sizeof(s) - 1, e }

static const struct row rows[] = {
	R("^abc$", "abc\\n", 0),
	R("^abc$", "abc", 1),
	R("^abc$", "abc\012", 0),
	R("^\\t$", "\\t", 0),
	R("^\\t$", "\011", 1),
	R("^\\cC$", "\\cC", 0),
	R("^\\cC$", "\003", 1),
	R("^\\cc$", "\\cc", 0),
	R("^\\cc$", "\003", 1),
	R("^\\d$", "0", 1),
	R("^\\d$", "\337\200", 0),
	R("^\\d$", "\337\200", 0),
	R("^\\D$", "0", 0),
	R("^\\D$", "\337\200", 1),
	R("^\\w$", "a", 1),
	R("^\\w$", "\303\251", 0),
	R("^\\W$", "a", 0),
	R("^\\W$", "\303\251", 1),
	R("^\\s$", " ", 1),
	R("^\\S$", " ", 0),
	R("^\\s$", "\011", 1),
	R("^\\S$", "\011", 0),
	R("^\\s$", "\013", 1),
	R("^\\S$", "\013", 0),
	R("^\\s$", "\014", 1),
	R("^\\S$", "\014", 0),
	R("^\\s$", "\302\240", 1),
	R("^\\S$", "\302\240", 0),
	R("^\\s$", "\357\273\277", 1),
	R("^\\S$", "\357\273\277", 0),
	R("^\\s$", "\012", 1),
	R("^\\S$", "\012", 0),
	R("^\\s$", "\342\200\251", 1),
	R("^\\S$", "\342\200\251", 0),
	R("^\\s$", " ", 1),
	R("^\\S$", " ", 0),
	R("^\\s$", "\342\200\203", 1),
	R("^\\S$", "\342\200\203", 0),
	R("^\\s$", "\001", 0),
	R("^\\S$", "\001", 1),
	R("^\\s$", "\342\200\223", 0),
	R("^\\S$", "\342\200\223", 1),
	R("^\\s$", "\341\232\200", 1),
	R("^\\S$", "\341\232\200", 0),
	R("^\\s$", "\342\200\257", 1),
	R("^\\S$", "\342\200\257", 0),
	R("^\\s$", "\343\200\200", 1),
	R("^\\S$", "\343\200\200", 0),
	R("^\\s$", "\302\205", 0),
	R("^\\S$", "\302\205", 1),
	R("^\\s$", "\341\240\216", 0),
	R("^\\S$", "\341\240\216", 1),
	R("^\\s$", "\015", 1),
	R("^\\S$", "\015", 0),
	R("^\\s$", "\342\200\250", 1),
	R("^\\S$", "\342\200\250", 0),
	R("\\p{Letter}cole", "l'ecole", 1),
	R("\\p{Letter}cole", "l'\303\251cole", 1),
	R("\\p{Letter}cole", "l'e\314\201cole", 0),
	R("\\p{Letter}cole", "L'\303\211COLE", 0),
	R("\\wcole", "l'ecole", 1),
	R("\\wcole", "l'\303\251cole", 0),
	R("\\wcole", "l'e\314\201cole", 0),
	R("\\wcole", "L'\303\211COLE", 0),
	R("[a-z]cole", "l'\303\251cole", 0),
	R("[a-z]cole", "l'e\314\201cole", 0),
	R("[a-z]cole", "l'ecole", 1),
	R("^\\d+$", "42", 1),
	R("^\\d+$", "-%#", 0),
	R("^\\d+$", "\340\247\252\340\247\250", 0),
	R("^\\p{digit}+$", "42", 1),
	R("^\\p{digit}+$", "-%#", 0),
	R("^\\p{digit}+$", "\340\247\252\340\247\250", 1),
	R("\\a", "", -1),
	R("(\077P<name>x)", "", -1),
	R("(\077P<n>a)(\077P=n)", "", -1),
	R("(\077#comment)a", "", -1),
	R("(\077i)abc", "", -1),
	R("(\077ims)abc", "", -1),
	R("(\077<name>x)", "x", 1),
	R("(\077<n>a)\\k<n>", "aa", 1),
	R("(\077<n>a)\\k<n>", "ab", 0),
	R("(\077<=a+)b", "aab", 1),
	R("(\077<=a+)b", "cb", 0),
	R("[]", "a", 0),
	R("[]", "", 0),
	R("[^]", "a", 1),
	R("[^]", "\012", 1),
	R("[^]", "", 0),
	R("\\cA", "\001", 1),
	R("^a*$", "aaa", 1),
	R("^a*$", "abc", 0),
	R("a+", "xxaayy", 1),
	R("f.*o", "foo", 1),
	R("f.*o", "fxxx", 0),
	R("a*", "bbb", 1),
	R("aaa*", "aa", 1),
	R("aaa*", "xa", 0),
	R("[0-9]{2,}", "answer 1", 0),
	R("[0-9]{2,}", "a31b", 1),
	R("X_", "a_x_3", 0),
	R("X_", "a_X_3", 1),
	R("^.*bar$", "foobar", 1),
	R("^.*bar$", "foobar\012", 0),
	R("^.$", "\012", 0),
	R("^.$", "\015", 0),
	R("^.$", "\342\200\250", 0),
	R("^.$", "\342\200\251", 0),
	R("^.$", "\302\205", 1),
	R("^.$", "\360\237\230\200", 1),
	R("^..$", "\360\237\230\200", 0),
	R("^\\u0041$", "A", 1),
	R("^\\u{1F600}$", "\360\237\230\200", 1),
	R("^\\uD83D\\uDE00$", "\360\237\230\200", 1),
	R("^\\x41\\x42$", "AB", 1),
	R("^\\0$", "\000", 1),
	R("^[\\0]$", "\000", 1),
	R("^\\/$", "/", 1),
	R("^\\.$", ".", 1),
	R("^\\.$", "a", 0),
	R("^[\\b]$", "\010", 1),
	R("^[\\-]$", "-", 1),
	R("^\\v\\f\\r\\n$", "\013\014\015\012", 1),
	R("\\uD83D", "\360\237\230\200", 0),
	R("[\\uD800-\\uDFFF]", "a", 0),
	R("^[\\u0000-\\uFFFF]$", "\357\277\277", 1),
	R("^[^\\uD800-\\uDFFF]$", "\360\237\230\200", 1),
	R("^[\\s]$", "\302\240", 1),
	R("^[\\S]$", "\302\240", 0),
	R("^[\\Sa]$", " ", 0),
	R("^[\\Sa]$", "b", 1),
	R("^[^\\S]$", " ", 1),
	R("^[^\\S]$", "x", 0),
	R("^[^\\Sx]$", "\343\200\200", 1),
	R("^[^\\S ]$", " ", 0),
	R("^[\\d-]$", "-", 1),
	R("^[a-]$", "-", 1),
	R("^[-a]$", "-", 1),
	R("^[--a]$", "/", 1),
	R("^[\\w]+$", "abc_1", 1),
	R("^[^\\w]$", "\303\251", 1),
	R("^[\\W]$", "_", 0),
	R("^[\\D]$", "\331\241", 1),
	R("^[a-c]$", "b", 1),
	R("^[^a-c]$", "b", 0),
	R("^[\\p{Lu}]$", "\303\211", 1),
	R("^[\\P{Lu}]$", "\303\211", 0),
	R("^\\p{Lu}$", "\303\251", 0),
	R("^\\P{L}$", "1", 1),
	R("^\\p{Script=Greek}$", "\316\261", 1),
	R("^\\p{sc=Grek}$", "a", 0),
	R("^\\p{scx=Greek}$", "\316\261", 1),
	R("^\\p{gc=Lu}$", "A", 1),
	R("^\\p{General_Category=Decimal_Number}$", "\331\241", 1),
	R("^\\p{Any}$", "\303\251", 1),
	R("^\\p{ASCII}$", "\303\251", 0),
	R("^\\p{Assigned}$", "a", 1),
	R("^\\P{Assigned}$", "a", 0),
	R("^\\p{Alphabetic}$", "\303\251", 1),
	R("^\\p{LC}$", "a", 1),
	R("^\\p{Emoji}$", "\360\237\230\200", 1),
	R("^\\p{White_Space}$", "\302\205", 1),
	R("^a{2}$", "aa", 1),
	R("^a{2}$", "aaa", 0),
	R("^a{2,}$", "aaaa", 1),
	R("^a{1,2}$", "aaa", 0),
	R("^a{0}$", "", 1),
	R("a+\077", "aaa", 1),
	R("^(\077:ab)+$", "abab", 1),
	R("^(a)\\1$", "aa", 1),
	R("^(a)\\1$", "ab", 0),
	R("^\\1(a)$", "a", 1),
	R("^(a)|\\1b$", "b", 1),
	R("^(\077:(a)|b)\\1$", "b", 1),
	R("\\k<x>(\077<x>a)", "a", 1),
	R("a(\077=b)", "ab", 1),
	R("a(\077=b)", "ac", 0),
	R("a(\077!b)", "ab", 0),
	R("(\077<!a)b", "ab", 0),
	R("(\077<!a)b", "cb", 1),
	R("(\077<=ab)c", "abc", 1),
	R("(\077<=a|bc)d", "bcd", 1),
	R("(\077<=^a*)b", "aab", 1),
	R("(\077<=^a*)b", "acb", 0),
	R("(\077<!x+)y", "xy", 0),
	R("(\077<!x+)y", "ay", 1),
	R("(\077<=(\077<=a)b+)c", "abbc", 1),
	R("(\077<=(\077<=a)b+)c", "cbbc", 0),
	R("(\077<=\\d{2,}-)x", "12-x", 1),
	R("(\077<!b*)", "ab", 0),
	R("[^a]\077(\077<=a+)", "ab", 1),
	R("(\077<!b*)a", "a", 0),
	R("b*(\077<=b)", "abb", 1),
	R("(\077<=\\d{2,}-)x", "1-x", 0),
	R("\\bfoo\\b", "a foo b", 1),
	R("\\bfoo\\b", "afoob", 0),
	R("\\Bo", "foo", 1),
	R("^$", "", 1),
	R("^$", "\012", 0),
	R("a|b|", "c", 1),
	R("()", "x", 1),
	R("(\077:)", "x", 1),
	R("^\303\251+$", "\303\251\303\251", 1),
	R("^[\303\251-\303\252]$", "\303\252", 1),
	R("\360\237\230\200", "x\360\237\230\200", 1),
	R("^[\360\237\230\200]$", "\360\237\230\200", 1),
	R("a++", "", -1),
	R("a*+", "", -1),
	R("(\077>a)", "", -1),
	R("\\A", "", -1),
	R("\\z", "", -1),
	R("\\Z", "", -1),
	R("\\G", "", -1),
	R("\\Q", "", -1),
	R("\\e", "", -1),
	R("\\h", "", -1),
	R("\\R", "", -1),
	R("\\K", "", -1),
	R("\\N", "", -1),
	R("\\X", "", -1),
	R("(\077i:a)", "", -1),
	R("(\077|a)", "", -1),
	R("(\077(1)a)", "", -1),
	R("(\077R)", "", -1),
	R("(a)(\0771)", "", -1),
	R("\\pL", "", -1),
	R("\\p{Foo}", "", -1),
	R("\\p{greek}", "", -1),
	R("\\p{Script=Foo_Bar}", "", -1),
	R("a{", "", -1),
	R("a{1", "", -1),
	R("{", "", -1),
	R("}", "", -1),
	R("]", "", -1),
	R("a{2,1}", "", -1),
	R("*", "", -1),
	R("+a", "", -1),
	R("\077", "", -1),
	R("(", "", -1),
	R(")", "", -1),
	R("a)", "", -1),
	R("[a", "", -1),
	R("[b-a]", "", -1),
	R("[\\d-z]", "", -1),
	R("[a-\\d]", "", -1),
	R("\\1", "", -1),
	R("(a)\\2", "", -1),
	R("\\k<x>", "", -1),
	R("(\077<x>a)\\k<y>", "", -1),
	R("(\077<x>a)(\077<x>b)", "", -1),
	R("\\c", "", -1),
	R("\\c1", "", -1),
	R("[\\c1]", "", -1),
	R("\\x1", "", -1),
	R("\\xg0", "", -1),
	R("\\u12", "", -1),
	R("\\u{110000}", "", -1),
	R("\\u{}", "", -1),
	R("\\00", "", -1),
	R("\\01", "", -1),
	R("\\8", "", -1),
	R("[\\1]", "", -1),
	R("[\\B]", "", -1),
	R("\\-", "", -1),
	R("\\_", "", -1),
	R("\\ ", "", -1),
	R("(\077=a)*", "", -1),
	R("(\077!a){2}", "", -1),
	R("(\077<=a)\077", "", -1),
	R("^*", "", -1),
	R("$+", "", -1),
	R("\\b*", "", -1),
	R("(\077<1a>x)", "", -1),
	R("(\077<>x)", "", -1),
	R("(\077<a", "", -1),
	R("\\", "", -1),
	R("a{1,2}{3}", "", -1),
	R("x**", "", -1),
};

#define NROWS	(sizeof(rows) / sizeof(rows[0]))

static void
check_rows(void)
{
	struct jsschema_regex *re;
	char err[256];
	size_t i;
	int got;

	for (i = 0; i < NROWS; i++) {
		re = jsschema_regex_compile(rows[i].pat, rows[i].plen, err, sizeof(err));
		if (re == NULL) {
			unit_long(-1, rows[i].want, unit_fmt("row %zu: /%s/u "
			    "compiles (%s)", i, rows[i].pat, err));
			continue;
		}
		got = jsschema_regex_search(re, rows[i].subj, rows[i].slen);
		unit_long(got, rows[i].want, unit_fmt("row %zu: /%s/u on its "
		    "subject of %zu bytes", i, rows[i].pat, rows[i].slen));
		jsschema_regex_free(re);
	}
}

/* The rows as JSON lines, for node; NULL (and a failed check) if not. */
static char *
rows_json(void)
{
	json_t *a, *p, *s;
	char *txt;
	size_t i;

	a = json_array();
	for (i = 0; i < NROWS; i++) {
		p = json_stringn(rows[i].pat, rows[i].plen);
		s = json_stringn(rows[i].subj, rows[i].slen);
		if (p == NULL || s == NULL) {
			json_decref(p);
			json_decref(s);
			json_decref(a);
			return NULL;
		}
		json_array_append_new(a, json_pack("[oo]", p, s));
	}
	txt = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return txt;
}

/* Asks node for every row's verdict again and compares. */
static void
check_node(void)
{
	char path[sizeof(UNIT_TMPNAME)], cmd[512], line[32];
	char *txt;
	FILE *fp;
	size_t i = 0, bad = 0;
	int v;

	txt = rows_json();
	unit_ok(txt != NULL, "the rows make a JSON array for node");
	if (txt == NULL)
		return;
	unit_tmpfile(path, txt, strlen(txt));
	free(txt);
	snprintf(cmd, sizeof(cmd), "node -e 'const rows = JSON.parse("
	    "require(\"fs\").readFileSync(process.argv[1], \"utf8\"));"
	    "for (const [p, s] of rows) { let e; try { e = new RegExp(p, "
	    "\"u\").test(s) ? 1 : 0; } catch (x) { e = -1; } "
	    "console.log(e); }' %s", path);
	fflush(stdout);
	if ((fp = popen(cmd, "r")) == NULL)
		unit_bail("popen");
	while (fgets(line, sizeof(line), fp) != NULL) {
		v = atoi(line);
		if (i < NROWS && v != rows[i].want) {
			printf("# row %zu: node says %d, the table %d\n", i, v,
			    rows[i].want);
			bad++;
		}
		i++;
	}
	unit_long(pclose(fp), 0, "node runs and exits 0");
	unlink(path);
	unit_long((long)i, (long)NROWS, "node gives one verdict per row");
	unit_long((long)bad, 0, "node agrees with every row of the table");
}

static void
check_errors(void)
{
	struct jsschema_regex *re;
	char err[256], tiny[8];

	re = jsschema_regex_compile("a{2,1}", 6, err, sizeof(err));
	unit_ok(re == NULL, "a{2,1} is refused");
	unit_str(err, "numbers out of order in {} quantifier at offset 6",
	    "the message says why and where");
	re = jsschema_regex_compile("(?i)a", 5, err, sizeof(err));
	unit_ok(re == NULL, "(?i) is refused");
	unit_str(err, "invalid group at offset 2", "inline flags: the message");
	re = jsschema_regex_compile("\\p{Foo}", 7, tiny, sizeof(tiny));
	unit_ok(re == NULL, "a message cut short still refuses");
	unit_str(tiny, "invalid", "the message is cut to the buffer");
	re = jsschema_regex_compile("a{0,70000}", 10, err, sizeof(err));
	unit_ok(re == NULL, "a count past PCRE2's 65535 is refused");
	re = jsschema_regex_compile("\xff", 1, err, sizeof(err));
	unit_ok(re == NULL, "a pattern of invalid UTF-8 is refused");
	unit_str(err, "invalid utf-8 at offset 0", "invalid UTF-8: the message");
	re = jsschema_regex_compile("a", 1, NULL, 0);
	unit_ok(re != NULL, "no room for a message is fine");
	jsschema_regex_free(re);
	jsschema_regex_free(NULL);
}

static void
check_search(void)
{
	struct jsschema_regex *re;
	char err[256], *s;
	size_t n = 100000;

	re = jsschema_regex_compile("", 0, err, sizeof(err));
	unit_ok(re != NULL, "the empty pattern compiles");
	unit_long(jsschema_regex_search(re, "", 0), 1, "the empty pattern matches \"\"");
	unit_long(jsschema_regex_search(re, NULL, 0), 1, "and a NULL empty subject");
	jsschema_regex_free(re);

	re = jsschema_regex_compile("b", 1, err, sizeof(err));
	unit_long(jsschema_regex_search(re, "a\0b", 3), 1, "a subject may hold NUL");
	unit_long(jsschema_regex_search(re, "\xff" "b", 2), -1,
	    "a subject of invalid UTF-8 is a matching error");
	jsschema_regex_free(re);

	/* catastrophic backtracking ends at the match limit */
	re = jsschema_regex_compile("^(a|aa)+(a|aa)+(a|aa)+$", 23, err, sizeof(err));
	unit_ok(re != NULL, "a catastrophic pattern compiles");
	s = malloc(n + 2);
	if (s == NULL)
		unit_bail("malloc");
	memset(s, 'a', 40);
	s[40] = 'b';
	unit_long(jsschema_regex_search(re, s, 41), -1,
	    "a catastrophic search stops at the limit with -1");
	jsschema_regex_free(re);

	/* an emulated lookbehind on a long subject */
	memset(s, 'a', n);
	s[n] = 'b';
	re = jsschema_regex_compile("(?<=a+)b", 8, err, sizeof(err));
	unit_long(jsschema_regex_search(re, s, n + 1), 1,
	    "a variable-length lookbehind on a long subject");
	jsschema_regex_free(re);

	/* every position tries every earlier start: a budget ends it */
	memset(s, 'a', 3000);
	re = jsschema_regex_compile("(?<=b+).", 8, err, sizeof(err));
	unit_long(jsschema_regex_search(re, s, 3000), -1,
	    "emulated lookbehinds stop at their budget with -1");
	unit_long(jsschema_regex_search(re, "ab", 2), 0,
	    "and the same pattern still answers a short subject");
	jsschema_regex_free(re);
	free(s);
}

/* "(?:" n times, then as many ")": a new string. */
static char *
nested(size_t n)
{
	char *p = malloc(4 * n + 1);
	size_t i;

	if (p == NULL)
		unit_bail("malloc");
	for (i = 0; i < n; i++)
		memcpy(p + 3 * i, "(?:", 3);
	memset(p + 3 * n, ')', n);
	p[4 * n] = '\0';
	return p;
}

/* Groups nest JSSCHEMA_REGEX_MAX_NESTING (200) deep at the most. */
static void
check_nesting(void)
{
	struct jsschema_regex *re;
	char err[256], *p;

	p = nested(200);
	re = jsschema_regex_compile(p, strlen(p), err, sizeof(err));
	unit_ok(re != NULL, "groups nested 200 deep compile");
	unit_long(re != NULL ? jsschema_regex_search(re, "x", 1) : -2, 1,
	    "and match");
	jsschema_regex_free(re);
	free(p);
	p = nested(201);
	re = jsschema_regex_compile(p, strlen(p), err, sizeof(err));
	unit_ok(re == NULL, "groups nested 201 deep are refused");
	unit_str(err, "groups nested more than 200 deep at offset 600",
	    "the message names the limit and where it was crossed");
	free(p);
	p = nested(50000);
	re = jsschema_regex_compile(p, strlen(p), err, sizeof(err));
	unit_ok(re == NULL, "groups nested 50,000 deep are refused, no crash");
	unit_str(err, "groups nested more than 200 deep at offset 600",
	    "50,000 deep: the same message");
	free(p);
	re = jsschema_regex_compile("(?<=(?<=(a)))", 13, err, sizeof(err));
	unit_ok(re != NULL, "lookbehinds count as groups, and nest");
	jsschema_regex_free(re);
}

/* Linear patterns match long subjects whole; the limit stops the rest. */
static void
check_budget(void)
{
	struct jsschema_regex *re;
	char err[256], *s;
	size_t n = 1000000;

	if ((s = malloc(n + 1)) == NULL)
		unit_bail("malloc");
	memset(s, 'a', n);
	re = jsschema_regex_compile("^(?:a|b)*$", 10, err, sizeof(err));
	unit_long(jsschema_regex_search(re, s, 1365), 1,
	    "^(?:a|b)*$ matches 1,365 a's");
	unit_long(jsschema_regex_search(re, s, n), 1,
	    "^(?:a|b)*$ matches 10^6 a's");
	s[n - 1] = 'c';
	unit_long(jsschema_regex_search(re, s, n), 0,
	    "and does not match 10^6 - 1 a's and a c");
	jsschema_regex_free(re);
	s[n - 1] = 'a';
	re = jsschema_regex_compile("^(a|b)*(a)$", 11, err, sizeof(err));
	unit_long(jsschema_regex_search(re, s, n), 1,
	    "^(a|b)*(a)$, with captures, matches 10^6 a's");
	jsschema_regex_free(re);
	re = jsschema_regex_compile("^(a+)+$", 7, err, sizeof(err));
	s[40] = 'b';
	unit_long(jsschema_regex_search(re, s, 41), -1,
	    "^(a+)+$ on 40 a's and a b stops at the resource limit");
	jsschema_regex_free(re);
	free(s);
}

/* Without JIT, the interpreter gives the same answers, within its limits. */
static void
check_interpreter(void)
{
	struct jsschema_regex *re;
	char err[256], *s;
	size_t n = 200000;

	jsschema_regex_jit = 0;
	check_rows();
	if ((s = malloc(n)) == NULL)
		unit_bail("malloc");
	memset(s, 'a', n);
	re = jsschema_regex_compile("^(?:a|b)*$", 10, err, sizeof(err));
	unit_long(jsschema_regex_search(re, s, n), 1, "interpreter: ^(?:a|b)*$ "
	    "matches 200,000 a's, past the base depth limit of 100,000");
	jsschema_regex_free(re);
	re = jsschema_regex_compile("^(a+)+$", 7, err, sizeof(err));
	s[40] = 'b';
	unit_long(jsschema_regex_search(re, s, 41), -1,
	    "interpreter: ^(a+)+$ on 40 a's and a b stops at the limit");
	jsschema_regex_free(re);
	free(s);
	jsschema_regex_jit = 1;
}

int
main(void)
{
	check_rows();
	check_node();
	check_errors();
	check_search();
	check_nesting();
	check_budget();
	check_interpreter();
	return unit_done();
}
