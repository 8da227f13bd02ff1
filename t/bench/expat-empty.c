/*
 * expat-empty: the floor toolcall-parse is measured against (issue 4). It
 * runs expat over its input with every handler a parser of tool calls
 * needs set (start and end tag, character data, CDATA section start and
 * end) and every one of them empty: what is left is the price of expat's
 * own tokenizing, entity decoding and callbacks.
 *
 *	expat-empty [FILE]
 *
 * A model's output is prose with calls in it, not one XML document, so
 * the input is wrapped in a root element: "<r>" is fed first, then the
 * input in chunks of 64 KiB read with read(2) (as toolcall-parse reads),
 * then "</r>". gen-toolcalls.js writes its model output so that the
 * wrapped bytes are well-formed: no bare "&" or "<" in the prose, code in
 * CDATA, escaped text as &amp; and &lt;. Exits 0 when the wrapped input is
 * well-formed, 1 (with expat's message) when it is not, 3 on a read error.
 * The line and column of a message count from the "<r>", three bytes
 * before the input.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <expat.h>

#define CHUNK (64 * 1024)

static void
on_start(void *arg, const XML_Char *name, const XML_Char **atts)
{
}

static void
on_end(void *arg, const XML_Char *name)
{
}

static void
on_text(void *arg, const XML_Char *s, int len)
{
}

static void
on_cdata(void *arg)
{
}

static int
bad(XML_Parser p, const char *name)
{
	fprintf(stderr, "expat-empty: %s:%lu:%lu: %s\n", name,
	    (unsigned long)XML_GetCurrentLineNumber(p),
	    (unsigned long)XML_GetCurrentColumnNumber(p) + 1,
	    XML_ErrorString(XML_GetErrorCode(p)));
	return 1;
}

int
main(int argc, char *argv[])
{
	static char buf[CHUNK];
	const char *name = "<stdin>";
	XML_Parser p;
	ssize_t n;
	int fd = STDIN_FILENO, status = 0;

	if (argc > 2 ||
	    (argc == 2 && argv[1][0] == '-' && argv[1][1] != '\0')) {
		fputs("usage: expat-empty [file]\n", stderr);
		return 2;
	}
	if (argc == 2 && strcmp(argv[1], "-") != 0) {
		name = argv[1];
		if ((fd = open(name, O_RDONLY)) == -1) {
			fprintf(stderr, "expat-empty: %s: %s\n", name,
			    strerror(errno));
			return 3;
		}
	}
	if ((p = XML_ParserCreate("UTF-8")) == NULL) {
		fputs("expat-empty: out of memory\n", stderr);
		return 3;
	}
	XML_SetElementHandler(p, on_start, on_end);
	XML_SetCharacterDataHandler(p, on_text);
	XML_SetCdataSectionHandler(p, on_cdata, on_cdata);
	if (XML_Parse(p, "<r>", 3, 0) != XML_STATUS_OK) {
		status = bad(p, name);
		goto out;
	}
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			fprintf(stderr, "expat-empty: %s: %s\n", name,
			    strerror(errno));
			status = 3;
			goto out;
		}
		if (n == 0)
			break;
		if (XML_Parse(p, buf, (int)n, 0) != XML_STATUS_OK) {
			status = bad(p, name);
			goto out;
		}
	}
	if (XML_Parse(p, "</r>", 4, 1) != XML_STATUS_OK)
		status = bad(p, name);
out:
	XML_ParserFree(p);
	if (fd != STDIN_FILENO)
		close(fd);
	return status;
}
