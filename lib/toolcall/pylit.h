/*
 * pylit: Python literals as models write them, read into jansson values
 * without evaluating anything: the values ast.literal_eval accepts and
 * JSON can hold, with the limits of the kit's JSON reader (nesting as
 * deep as jansson's, time and memory linear in the text, each error
 * with its byte offset); and the "pythonic" form of tool calls,
 * [name(key=value, ...), ...], with a scanner that tells a streaming
 * reader where such a list ends.
 *
 * What a literal becomes, following json.dumps where JSON cannot say a
 * Python value directly:
 *
 * - None, True, False: null, true, false.
 * - An int (decimal, 0x, 0o, 0b, with '_' between digits, a sign before
 *   it): a JSON integer when it fits in 64 bits, as toolcall-parse keeps
 *   integers; beyond, a string of its decimal digits (so that no digit is
 *   lost to a double), as toolcall-parse keeps an integer it cannot hold;
 *   past 4300 digits (Python's own limit for writing one) an error.
 * - A float (1.5, 1e5, .5, 5., 1_0.5): the nearest double, as Python
 *   reads it (1e-400 is 0.0); one beyond the largest double (1e400,
 *   which Python reads as inf) an error. Python has no literal for inf
 *   or nan (float('inf') is a call).
 * - A string in ' " ''' or """, with Python's escapes (\\ \' \" \a \b \f
 *   \n \r \t \v, \ooo, \xhh, \uhhhh, \Uhhhhhhhh, a backslash before a
 *   newline joining lines; any other backslash kept as it is); r and R
 *   (raw), u and U prefixes; adjacent strings joined ('a' 'b' is "ab").
 *   A newline in the text of a string (CR LF, CR or LF) is a LF, as
 *   Python reads it. An escape of half a surrogate pair followed by the
 *   other half is the one character they make (as json.dumps and a JSON
 *   reader of its text give it); a half alone is an error (UTF-8 cannot
 *   hold it). \N{NAME} is an error: the kit has no table of names. A NUL
 *   byte inside a string is kept, though Python refuses one anywhere.
 * - A list, a tuple ((), (1,), (1, 2)) or a set ({1, 2}, set()): an
 *   array, a set's elements in the order written, less those equal in
 *   Python to one before ({1, True, 1.0} is [1]).
 * - A dict: an object, members in the order written. A key that is not
 *   a string becomes the text json.dumps gives it: 1 "1", 1.5 "1.5",
 *   1e16 "1e+16", True "true", None "null", an int beyond 64 bits its
 *   digits. A key written twice is an error at the second, as the kit's
 *   JSON reader refuses one, and so are two keys that Python holds equal
 *   (1, 1.0 and True) or that become the same JSON key (1 and '1'). A
 *   tuple key is an error (json.dumps refuses it), and so is a key or a
 *   set element Python cannot hash (a list, a dict, a set), and a key
 *   with a NUL character (jansson, and so the kit's JSON reader, holds
 *   none; in a value a NUL is kept).
 *
 * Refused, each with its own message: bytes (b'x'), complex numbers (1j,
 * 1+2j), f-strings and t-strings, Ellipsis, names other than None, True
 * and False (with a word for JSON's true, false and null), calls other
 * than set(), operators other than a sign before a number (-1, +(2)),
 * invalid UTF-8 (at its first bad byte), a NUL byte outside a string.
 *
 * Text between tokens is Python's: blanks (space, tab, form feed),
 * comments (# to the end of the line), a backslash before a newline;
 * inside brackets newlines too. At the top, outside any bracket, a
 * newline ends the literal, and so does anything after it that cannot
 * go on a literal (a second value: the caller decides about it); an
 * operator after it (1 + 2, 'a' * 3, [1][0]) is an error. A tuple
 * without parentheses at the top (1, 2 or 1,) is an array, as
 * literal_eval reads it, up to the end of its line.
 *
 * Nesting: the top value is level 1, and what is inside a bracket one
 * level more than the bracket (a dict's keys as its values, the value
 * in grouping parentheses too); no level may pass 2048, jansson's
 * limit: 2048 empty lists nested are read, a number inside 2048 lists
 * is not, nor a key of a dict at level 2048. In the calls form the list
 * and a call's parentheses are levels 1 and 2, an argument's value 3.
 */
#ifndef LLMKIT_PYLIT_H
#define LLMKIT_PYLIT_H

#include <stddef.h>

#include <jansson.h>

#define PYLIT_MAX_DEPTH	2048	/* jansson's, JSONX_MAX_DEPTH */
#define PYLIT_MAX_DIGITS 4300	/* Python's sys.get_int_max_str_digits() */
#define PYLIT_NOPOS	((size_t)-1)

/*
 * An error. rule is "py-syntax" (not a literal Python reads), "py-type"
 * (a literal JSON cannot hold), "py-depth", "duplicate-key" or "utf8";
 * text is one line, lower case. For a duplicate key (or keyword
 * argument), first is where the first one is, key the key as a JSON
 * string (cut when long), and pylit_dup_text() rewrites text for a
 * caller that counts lines from elsewhere.
 */
struct pylit_error {
	size_t		 offset;	/* byte offset of the problem in s */
	size_t		 first;		/* duplicate-key: the first one */
	char		 rule[16];
	char		 key[80];	/* duplicate-key: the key, quoted */
	char		 note[112];	/* duplicate-key: how they are equal */
	const char	*noun;		/* "key" or "keyword argument" */
	char		 text[256];
};

/* One call of the pythonic form: its name in s, its arguments in order. */
struct pylit_call {
	size_t	 name;
	size_t	 namelen;
	json_t	*args;		/* an object; the caller's reference */
};

/*
 * Where a streaming reader is in a bracketed value (the list of the
 * calls form): kept between calls of pylit_scan as the text grows.
 */
struct pylit_scan {
	size_t		 off;		/* the next byte to read */
	size_t		 depth;		/* brackets open */
	int		 state;
	char		 quote;		/* the open string's quote */
	unsigned char	 triple;	/* it is triple-quoted */
	unsigned char	 run;		/* its quotes read in a row */
	unsigned char	 open[PYLIT_MAX_DEPTH / 4];	/* 2 bits a bracket */
};

#define PYLIT_MORE	0	/* pylit_scan: the text so far is not enough */
#define PYLIT_DONE	1	/* pylit_scan: read s up to sc->off */

json_t	*pylit_parse(const char *, size_t, size_t, size_t *,
	    struct pylit_error *);
size_t	 pylit_skip(const char *, size_t, size_t);
int	 pylit_calls(const char *, size_t, size_t, size_t *,
	    struct pylit_call **, size_t *, struct pylit_error *);
void	 pylit_calls_free(struct pylit_call *, size_t);
void	 pylit_scan_init(struct pylit_scan *, size_t);
int	 pylit_scan(struct pylit_scan *, const char *, size_t);
int	 pylit_calls_begin(struct pylit_scan *, const char *, size_t, int *);
void	 pylit_dup_text(struct pylit_error *, unsigned long, unsigned long);

#endif
