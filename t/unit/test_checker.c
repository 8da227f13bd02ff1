/*
 * Unit tests of lib/check/checker: the shared options taken from a
 * checker's command line beside its own, their table in the order of
 * their names, the rules of combination, and the run's counts and
 * output.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/cmd.h"
#include "base/diag.h"
#include "check/checker.h"
#include "unit.h"

enum { OWN_ALPHA = CHECKER_OPT_FIRST, OWN_ZULU };

static const struct option own[] = {
	{ "alpha",	required_argument,	NULL, OWN_ALPHA },
	{ "zulu",	no_argument,		NULL, OWN_ZULU },
	{ "mode",	no_argument,		NULL, 'm' },
	{ NULL,		0,			NULL, 0 }
};

static const struct cmd_choice outs[] = {
	{ "none", 0 }, { "json", 1 }, { "report", 2 }, { NULL, 0 }
};

static const struct checker_rule rules[] = {
	{ CHECKER_FEEDBACK, CHECKER_LINES, 1U << 2,
	    "--feedback cannot go with --lines or -o report" },
	{ CHECKER_FIND, CHECKER_SUMMARY, 0, "--find cannot go with --summary" },
	{ 0, 0, 0, NULL }
};

static const struct cmd self = { "usage: t [-m] [FILE ...]\n", "0 ok", NULL };

static struct checker ck;

static void
fresh(unsigned has)
{
	memset(&ck, 0, sizeof(ck));
	ck.has = has;
	ck.outputs = outs;
	ck.rules = rules;
	optind = 0;
}

/* s split at its blanks, as argv; *argc of them. Lasts to the next. */
static char **
vec(const char *s, int *argc)
{
	static char text[256], *v[32];
	char *p;
	int n = 0;

	snprintf(text, sizeof(text), "%s", s);
	for (p = strtok(text, " "); p != NULL && n < 31; p = strtok(NULL, " "))
		v[n++] = p;
	v[n] = NULL;
	*argc = n;
	return v;
}

/* checker_getopt over argv[0..argc); its own options' letters joined. */
static const char *
parse(int argc, char *argv[])
{
	static char seen[32];
	size_t n = 0;
	int ch;

	while ((ch = checker_getopt(&ck, argc, argv, "hm", own)) != -1)
		if (n + 1 < sizeof(seen))
			seen[n++] = ch == OWN_ALPHA ? 'A' : ch == OWN_ZULU ?
			    'Z' : (char)ch;
	seen[n] = '\0';
	return seen;
}

static void
options(void)
{
	char **argv;
	int argc;
	static const char *const order[] = { "errors", "help", "version",
	    "alpha", "feedback", "find", "lines", "mode", "output", "quiet",
	    "summary", "zulu", NULL };
	size_t i;
	int ok = 1;

	fresh(CHECKER_QUIET | CHECKER_OUTPUT | CHECKER_LINES |
	    CHECKER_SUMMARY | CHECKER_FEEDBACK | CHECKER_FIND);
	argv = vec("t --lines -q -o report --alpha x -m --summary --zulu "
	    "--feedback --find f", &argc);
	unit_str(parse(argc, argv), "AmZ", "its own options, in turn");
	unit_ok(ck.lines && ck.summary && ck.feedback && ck.find,
	    "the shared flags taken");
	unit_long(ck.output, 2, "-o report's number");
	unit_long(optind, 12, "the operand after them");
	for (i = 0; order[i] != NULL; i++)
		ok &= ck.longs[i].name != NULL &&
		    strcmp(ck.longs[i].name, order[i]) == 0;
	unit_ok(ok && ck.longs[i].name == NULL, "the skeleton's options, "
	    "then all the others in the order of their names");
	unit_str(ck.shorts, "hmo:q", "its letters, then -o and -q");
	diag_setquiet(0);
}

static void
some(void)
{
	char **argv;
	size_t i;
	int argc, find = 0, quiet = 0;

	fresh(CHECKER_LINES | CHECKER_SUMMARY);
	argv = vec("t --lines --summary --zulu", &argc);
	unit_str(parse(argc, argv), "Z", "a checker with two of them");
	unit_ok(ck.lines && ck.summary, "those two taken");
	for (i = 0; ck.longs[i].name != NULL; i++) {
		find |= strcmp(ck.longs[i].name, "find") == 0;
		quiet |= strcmp(ck.longs[i].name, "quiet") == 0;
	}
	unit_ok(!find && !quiet, "no shared option it has not");
	unit_str(ck.shorts, "hm", "no -o or -q");
}

static void
feedback_lines(void)
{
	fresh(0);
	ck.feedback = ck.lines = 1;
	checker_rules(&ck);
}

static void
feedback_report(void)
{
	fresh(0);
	ck.feedback = 1;
	ck.output = 2;
	checker_rules(&ck);
}

static void
feedback_json(void)
{
	fresh(0);
	ck.feedback = ck.summary = 1;
	ck.output = 1;
	checker_rules(&ck);
}

static void
find_summary(void)
{
	fresh(0);
	ck.find = ck.summary = ck.feedback = ck.lines = 1;
	checker_rules(&ck);
}

static void
combinations(void)
{
	const char *err;

	unit_long(unit_child(feedback_lines, &err), DIAG_USAGE,
	    "a rule broken by a flag: status 2");
	unit_str(err, "t: --feedback cannot go with --lines or -o report\n"
	    "usage: t [-m] [FILE ...]\n", "its message, then the usage");
	unit_long(unit_child(feedback_report, &err), DIAG_USAGE,
	    "a rule broken by an output");
	unit_str(err, "t: --feedback cannot go with --lines or -o report\n"
	    "usage: t [-m] [FILE ...]\n", "the same message");
	unit_long(unit_child(feedback_json, &err), 0,
	    "an output and a flag the rule does not name");
	unit_str(err, "", "nothing said");
	unit_long(unit_child(find_summary, &err), DIAG_USAGE,
	    "two rules broken");
	unit_str(err, "t: --feedback cannot go with --lines or -o report\n"
	    "usage: t [-m] [FILE ...]\n", "the first in the table is said");
}

/* A checker's operand: each byte a document, 'x' invalid, 'c' critical. */
static int
operand(struct checker_run *cr, FILE *fp, const char *name)
{
	int c, st, status = DIAG_OK;

	while ((c = getc(fp)) != EOF && c != '\n') {
		st = c == 'x' ? DIAG_INVALID : c == 'c' ? DIAG_CRITICAL :
		    DIAG_OK;
		buf_printf(&cr->out, "%s:%c\n", name, c);
		if (checker_done(cr, st) != 0)
			return DIAG_TROUBLE;
		status = diag_max(status, st);
	}
	return status;
}

/* checker_run over one file of text, its standard output returned. */
static const char *
run(const struct checker_ops *ops, const char *text, int *status)
{
	static char got[512];
	char path[] = UNIT_TMPNAME;
	char *argv[2];
	FILE *saved, *out;
	size_t n;

	unit_tmpfile(path, text, strlen(text));
	argv[0] = path;
	argv[1] = NULL;
	fflush(stdout);
	if ((out = tmpfile()) == NULL)
		unit_bail("tmpfile");
	saved = stdout;
	stdout = out;
	*status = checker_run(&ck, ops, NULL, 1, argv);
	fflush(stdout);
	stdout = saved;
	rewind(out);
	n = fread(got, 1, sizeof(got) - 1, out);
	got[n] = '\0';
	fclose(out);
	unlink(path);
	return got;
}

static void
runs(void)
{
	static const struct checker_ops plain = { operand, 2, 0, 1, 0 };
	static const struct checker_ops any = { operand, -1, 1, 0, 0 };
	const char *got;
	int status;

	fresh(0);
	ck.summary = 1;
	got = run(&plain, "ax", &status);
	unit_long(status, DIAG_INVALID, "the highest status of the documents");
	unit_ok(strstr(got, ":a\n") != NULL && strstr(got, ":x\n") != NULL,
	    "what each document put, written");
	unit_ok(strstr(got, "2 documents: 1 valid, 1 invalid\n") != NULL,
	    "--summary: a sentence without -o report");
	ck.output = 2;
	got = run(&plain, "a", &status);
	unit_ok(strstr(got, "{\"documents\":1,\"valid\":1,\"invalid\":0}\n") !=
	    NULL, "--summary with -o report: JSON");
	ck.output = 1;
	got = run(&plain, "a", &status);
	unit_ok(strstr(got, "1 documents: 1 valid, 0 invalid\n") != NULL,
	    "another -o: a sentence");
	got = run(&any, "acx", &status);
	unit_ok(strstr(got, "{\"documents\":3,\"valid\":2,\"invalid\":1,"
	    "\"critical\":1,\"emergency\":0}\n") != NULL,
	    "report -1: JSON with any -o; the danger levels counted");
	ck.output = 0;
	got = run(&any, "c", &status);
	unit_long(status, DIAG_CRITICAL, "a critical document's status");
	unit_ok(strstr(got, "1 documents: 1 valid, 0 invalid, 1 critical, "
	    "0 emergency\n") != NULL, "no -o: a sentence, danger and all");
	ck.summary = 0;
	got = run(&plain, "aa", &status);
	unit_ok(strstr(got, "documents") == NULL, "no --summary: no counts");
	unit_ok(strstr(got, "<?xml") == NULL, "a checker without -o junit "
	    "(junit 0) writes no report with the default -o");
}

/* -o junit: what the documents write, after the head with the counts. */
static void
junit_runs(void)
{
	static const struct checker_ops junit = { operand, 2, 0, 1, 3 };
	static const char head[] =
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"t\" tests=\"3\" failures=\"1\" errors=\"0\">\n"
	    "  <testsuite name=\"t\" tests=\"3\" failures=\"1\" errors=\"0\" "
	    "skipped=\"0\">\n";
	static const char tail[] = "  </testsuite>\n</testsuites>\n";
	const char *got, *p;
	int status;

	fresh(0);
	ck.output = 3;
	got = run(&junit, "axc", &status);
	unit_long(status, DIAG_CRITICAL, "-o junit: the highest status");
	unit_ok(strncmp(got, head, strlen(head)) == 0,
	    "-o junit: the head first, with the counts of the run");
	p = got + strlen(head);
	unit_ok((p = strstr(p, ":a\n")) != NULL &&
	    (p = strstr(p, ":x\n")) != NULL &&
	    (p = strstr(p, ":c\n")) != NULL &&
	    strcmp(p + 3, tail) == 0,
	    "-o junit: what each document put, in order, then the end");
	ck.output = 2;
	got = run(&junit, "ax", &status);
	unit_ok(strstr(got, "<?xml") == NULL && strstr(got, ":a\n") != NULL,
	    "another -o: no report");
	ck.output = 0;
}

int
main(int argc, char *argv[])
{
	static char name[] = "t";
	char *av[] = { name, NULL };

	cmd_init(&self, av);
	options();
	some();
	combinations();
	runs();
	junit_runs();
	return unit_done();
}
