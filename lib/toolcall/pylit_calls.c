/* pylit_calls: the pythonic calls form, and the scan for its end. */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/xalloc.h"
#include "toolcall/pylit.h"
#include "toolcall/pylit_int.h"

/* The end of a name at i: letters, digits, '_', and inner '-' or '.'. */
static size_t
name_end(const char *s, size_t n, size_t i, int dots)
{
	while (i < n && pylit_ident(s[i]))
		i++;
	while (i + 1 < n && (s[i] == '-' || (dots && s[i] == '.')) &&
	    pylit_ident(s[i + 1]))
		for (i++; i < n && pylit_ident(s[i]); i++)
			;
	return i;
}

/* The arguments of a call, p->pos just past its '(', into args. */
static int
arguments(struct pylit_p *p, json_t *args)
{
	const char *s = p->s;
	struct buf text = BUF_INIT;
	size_t *offs = NULL, noffs = 0, cap = 0, kat, ke, vat, i, first;
	json_t *v;
	enum pylit_kind k;
	int r = -1;

	if (pylit_blanks(p, 1, 0) < 0)
		goto out;
	while (p->pos >= p->n || s[p->pos] != ')') {
		kat = p->pos;
		if (kat < p->n && s[kat] == '*') {
			pylit_fail(p, kat, "py-syntax", CALL ": an unpacked "
			    "argument (* or **); write each as name=value");
			goto out;
		}
		if (kat >= p->n || !pylit_ident0(s[kat])) {
			if (kat < p->n && strchr("'\"[({+-.0123456789",
			    s[kat]) != NULL && s[kat] != '\0')
				goto positional;
			pylit_expected(p, kat, CALL, "an argument name=value");
			goto out;
		}
		ke = name_end(s, p->n, kat, 0);
		p->pos = ke;
		if (pylit_blanks(p, 1, 0) < 0)
			goto out;
		if (p->pos >= p->n || s[p->pos] != '=' ||
		    (p->pos + 1 < p->n && s[p->pos + 1] == '='))
			goto positional;
		if (json_object_getn(args, s + kat, ke - kat) != NULL) {
			buf_add(&text, s + kat, ke - kat);
			for (i = 0, first = kat; i < noffs; i++)
				if (name_end(s, p->n, offs[i], 0) - offs[i] ==
				    ke - kat && memcmp(s + offs[i], s + kat,
				    ke - kat) == 0) {
					first = offs[i];
					break;
				}
			pylit_duplicate(p, kat, first, "keyword argument",
			    &text, &text);
			goto out;
		}
		if (noffs == cap) {
			cap = cap ? 2 * cap : 16;
			offs = xreallocarray(offs, cap, sizeof(*offs));
		}
		offs[noffs++] = kat;
		p->pos++;		/* the '=' */
		if (pylit_blanks(p, 1, 0) < 0)
			goto out;
		vat = p->pos;
		if ((v = pylit_value(p, 3, 0, NULL, &k)) == NULL)
			goto out;
		if (json_object_setn_new_nocheck(args, s + kat, ke - kat, v) !=
		    0)
			xalloc_die();
		if (pylit_after(p, 1, k, vat) < 0)
			goto out;
		if (p->pos < p->n && s[p->pos] == ',') {
			p->pos++;
			if (pylit_blanks(p, 1, 0) < 0)
				goto out;
		} else if (p->pos >= p->n || s[p->pos] != ')') {
			pylit_expected(p, p->pos, CALL, "',' or ')' after an "
			    "argument");
			goto out;
		}
	}
	p->pos++;
	r = 0;
	goto out;
positional:
	pylit_fail(p, kat, "py-syntax", CALL ": a positional argument; write "
	    "each as name=value");
out:
	buf_free(&text);
	free(offs);
	return r;
}

/*
 * Reads the pythonic calls form at s[off..n), blanks before it skipped:
 * a list of calls, [name(key=value, ...), ...], as Llama 3.2 and 4 and
 * others write it and vLLM's pythonic parsers read it (a call without
 * the list around it is refused, as there: the caller may add one,
 * and <|python_start|> and the like are the caller's). A name is a
 * Python identifier, or several joined by '.' (brave_search.call) or '-'
 * (resolve-library-id, which Python would read as a subtraction, but
 * tool names often have); arguments are keywords alone, each at most
 * once, a Python reserved word allowed as one (from=, which Python
 * refuses, though a tool may well have such a parameter). An empty list
 * is no call. On success returns 0, *calls (free with
 * pylit_calls_free) and *ncalls, and *end just past the ']'; on failure
 * -1 with err filled.
 */
int
pylit_calls(const char *s, size_t n, size_t off, size_t *end,
    struct pylit_call **callsp, size_t *ncallsp, struct pylit_error *err)
{
	struct pylit_call *calls = NULL, *c;
	size_t ncalls = 0, cap = 0, at;
	struct pylit_p p;
	int r = -1;

	pylit_init(&p, s, n, off, err);
	if (pylit_blanks(&p, 1, 0) < 0)
		goto out;
	if (p.pos >= n || s[p.pos] != '[') {
		pylit_expected(&p, p.pos, CALL, "'[' to open a list of calls");
		goto out;
	}
	p.pos++;
	if (pylit_blanks(&p, 1, 0) < 0)
		goto out;
	while (p.pos >= n || s[p.pos] != ']') {
		at = p.pos;
		if (at >= n || !pylit_ident0(s[at])) {
			pylit_expected(&p, at, CALL,
			    "a call name(key=value, ...)");
			goto out;
		}
		if (ncalls == cap) {
			cap = cap ? 2 * cap : 4;
			calls = xreallocarray(calls, cap, sizeof(*calls));
		}
		c = &calls[ncalls];
		c->name = at;
		p.pos = name_end(s, n, at, 1);
		c->namelen = p.pos - at;
		if (pylit_blanks(&p, 1, 0) < 0)
			goto out;
		if (p.pos >= n || s[p.pos] != '(') {
			pylit_expected(&p, p.pos, CALL, "'(' after the name of "
			    "the function");
			goto out;
		}
		p.pos++;
		c->args = pylit_need(json_object());
		ncalls++;
		if (arguments(&p, c->args) < 0 || pylit_blanks(&p, 1, 0) < 0)
			goto out;
		if (p.pos < n && s[p.pos] == ',') {
			p.pos++;
			if (pylit_blanks(&p, 1, 0) < 0)
				goto out;
		} else if (p.pos >= n || s[p.pos] != ']') {
			pylit_expected(&p, p.pos, CALL,
			    "',' or ']' after a call");
			goto out;
		}
	}
	*end = p.pos + 1;
	r = 0;
out:
	pylit_done(&p);
	if (r < 0) {
		pylit_calls_free(calls, ncalls);
		calls = NULL;
		ncalls = 0;
	}
	*callsp = calls;
	*ncallsp = ncalls;
	return r;
}

void
pylit_calls_free(struct pylit_call *calls, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		json_decref(calls[i].args);
	free(calls);
}

enum {
	S_START, S_CODE, S_COMMENT, S_STRING, S_ESCAPE, S_ESCAPE_CR, S_DONE
};

/*
 * pylit_calls_begin's states, after S_START: before the name, in it,
 * after a '-' or '.' in it, after it.
 */
enum { B_BEFORE = S_DONE + 1, B_NAME, B_JOIN, B_AFTER };

/*
 * Whether the text at s (n bytes so far, the same text as before and
 * more, "[" at sc->off when the scan was started) opens a list of calls
 * as pylit_calls reads it: "[", white space, a name and "(" (so that a
 * Markdown link, [see](url), a list of values or an empty list does not).
 * PYLIT_DONE with *yes set once the bytes say, PYLIT_MORE while they do
 * not; each byte is read once, however the text comes. Comments and
 * backslashes before the name are not passed: a list that has them is
 * not taken for calls.
 */
int
pylit_calls_begin(struct pylit_scan *sc, const char *s, size_t n, int *yes)
{
	size_t i = sc->off;
	char c;

	if (sc->state == S_START) {
		if (i >= n)
			return PYLIT_MORE;
		if (s[i] != '[') {
			*yes = 0;
			return PYLIT_DONE;
		}
		sc->state = B_BEFORE;
		i++;
	}
	for (; i < n; i++) {
		c = s[i];
		switch (sc->state) {
		case B_BEFORE:
			if (c == ' ' || c == '\t' || c == '\f' || c == '\n' ||
			    c == '\r')
				continue;
			if (!pylit_ident0((unsigned char)c))
				goto no;
			sc->state = B_NAME;
			continue;
		case B_NAME:
			if (pylit_ident((unsigned char)c))
				continue;
			if (c == '-' || c == '.') {
				sc->state = B_JOIN;
				continue;
			}
			sc->state = B_AFTER;
			break;
		case B_JOIN:
			if (!pylit_ident((unsigned char)c))
				goto no;
			sc->state = B_NAME;
			continue;
		}
		/* B_AFTER */
		if (c == ' ' || c == '\t' || c == '\f' || c == '\n' ||
		    c == '\r')
			continue;
		sc->off = i;
		*yes = c == '(';
		return PYLIT_DONE;
	}
	sc->off = i;
	return PYLIT_MORE;
no:
	sc->off = i;
	*yes = 0;
	return PYLIT_DONE;
}

/* Starts a scan of the bracketed value at off (blanks before it skipped). */
void
pylit_scan_init(struct pylit_scan *sc, size_t off)
{
	memset(sc, 0, sizeof(*sc));
	sc->off = off;
	sc->state = S_START;
}

/* 1 '(', 2 '[', 3 '{': the kind of the bracket at depth i. */
static int
opened(const struct pylit_scan *sc, size_t i)
{
	return (sc->open[i / 4] >> (2 * (i % 4))) & 3;
}

/*
 * Reads on in s (n bytes so far, the same text as before and more):
 * PYLIT_DONE when the value's closing bracket has been read, or a byte
 * that no more text can make right (no opening bracket first, a closing
 * one of the wrong kind, a newline in a one-line string, a NUL byte, a
 * bracket past PYLIT_MAX_DEPTH): sc->off is just past it, and the
 * parser, given s up to there, reads the value or says what is wrong.
 * PYLIT_MORE while the value is still open. The text is read once, in
 * all: only strings, comments and brackets are told apart.
 */
int
pylit_scan(struct pylit_scan *sc, const char *s, size_t n)
{
	size_t i = sc->off;
	int b, k;
	char c;

	for (; i < n && sc->state != S_DONE; i++) {
		c = s[i];
		switch (sc->state) {
		case S_COMMENT:
			if (c == '\n' || c == '\r')
				sc->state = sc->depth > 0 ? S_CODE : S_START;
			continue;
		case S_ESCAPE:
			sc->state = c == '\r' ? S_ESCAPE_CR : S_STRING;
			continue;
		case S_ESCAPE_CR:
			sc->state = S_STRING;
			if (c == '\n')
				continue;
			/* FALLTHROUGH */
		case S_STRING:
			/* the plain bytes of a string, at once */
			if (c != '\\' && c != sc->quote && c != '\n' &&
			    c != '\r') {
				sc->run = 0;
				i = pylit_plain(s, i, n, sc->quote, 0) - 1;
				continue;
			}
			if (c == '\\') {
				sc->state = S_ESCAPE;
				sc->run = 0;
			} else if (c == sc->quote) {
				if (!sc->triple || ++sc->run == 3)
					sc->state = S_CODE;
			} else if (!sc->triple && (c == '\n' || c == '\r'))
				sc->state = S_DONE;
			else
				sc->run = 0;
			continue;
		}
		/* S_START or S_CODE */
		if (c == ' ' || c == '\t' || c == '\f' || c == '\n' ||
		    c == '\r' || c == '\\')
			continue;
		if (c == '#') {
			sc->state = S_COMMENT;
			continue;
		}
		b = c == '(' ? 1 : c == '[' ? 2 : c == '{' ? 3 : 0;
		if (b != 0) {
			if (sc->depth == PYLIT_MAX_DEPTH) {
				sc->state = S_DONE;
				continue;
			}
			k = 2 * (sc->depth % 4);
			sc->open[sc->depth / 4] &= ~(3 << k);
			sc->open[sc->depth / 4] |= b << k;
			sc->depth++;
			sc->state = S_CODE;
			continue;
		}
		if (sc->state == S_START || c == '\0') {
			sc->state = S_DONE;
			continue;
		}
		b = c == ')' ? 1 : c == ']' ? 2 : c == '}' ? 3 : 0;
		if (b != 0) {
			if (opened(sc, sc->depth - 1) != b || --sc->depth == 0)
				sc->state = S_DONE;
			continue;
		}
		if (c == '\'' || c == '"') {
			/* three quotes open a triple-quoted string, two an
			 * empty one: wait for the byte that tells */
			if (i + 1 >= n || (s[i + 1] == c && i + 2 >= n))
				break;
			sc->quote = c;
			sc->run = 0;
			if (s[i + 1] != c) {
				sc->triple = 0;
				sc->state = S_STRING;
			} else if (s[i + 2] == c) {
				sc->triple = 1;
				sc->state = S_STRING;
				i += 2;
			} else
				i++;	/* '' or "": an empty string */
		}
	}
	sc->off = i;
	return sc->state == S_DONE ? PYLIT_DONE : PYLIT_MORE;
}
