/*
 * xmlp: expat helpers. A document is fed to expat in 64 KiB chunks, from
 * a stream or from memory, and a well-formedness error is reported once,
 * through diag_at, as "NAME:LINE:COL: error: MESSAGE" (or handed to the
 * caller, who collects it): rule "xml-syntax" with expat's message, rule
 * "utf8" and "invalid UTF-8: byte 0xXX at byte offset N" for bytes that
 * are not UTF-8, or rule "bare-ampersand" and 'bare "&" (write &amp;)'
 * at an "&" that starts no reference, as toolcall-parse says it. Lines
 * and columns count from 1, columns in characters (expat counts them so;
 * a byte order mark is the first character of its line).
 *
 * A document must be UTF-8. Parsers made by xmlp_create read every text
 * as UTF-8 whatever its XML declaration names: the declaration is still
 * checked for syntax, but a document that declares ISO-8859-1 and holds
 * Latin-1 bytes fails at the first of them, as invalid UTF-8. A UTF-8
 * byte order mark is skipped; text that starts like UTF-16 (an FE FF or
 * FF FE byte order mark, a NUL among its first two bytes) is refused, as
 * those bytes would be anywhere else, although expat itself would switch
 * to UTF-16 there.
 *
 * Handlers report what they find wrong themselves, at xmlp_loc(), and may
 * stop the parse with XML_StopParser(p, XML_FALSE): the parse functions
 * then return DIAG_INVALID without a message of their own (a caller that
 * stopped for a reason of its own knows it, and may ignore that status).
 * A suspended parse (XML_StopParser(p, XML_TRUE)) is treated the same.
 *
 * Elements may be nested XMLP_DEPTH_MAX deep. Expat itself has no limit:
 * its memory grows with every open element, and after some 500,000 of
 * them a parser is spoiled for the documents that follow (XML_ParserReset
 * says it succeeded, the next parse runs out of memory). Start-element
 * handlers enforce the limit with xmlp_depth: past it, the parse stops,
 * and expat is fed nothing more of that document.
 */
#ifndef LLMKIT_XMLP_H
#define LLMKIT_XMLP_H

#include <stddef.h>
#include <stdio.h>

#include <expat.h>

#include "base/diag.h"

#define XMLP_CHUNK	65536	/* bytes handed to expat at a time */
#define XMLP_DEPTH_MAX	4096	/* elements open at once in a document */

/*
 * Where a text starts in the file it was taken from, for a document
 * embedded in other text: positions in it are reported in the file's
 * terms. A whole file starts at { name, 1, 1, 0 }.
 */
struct xmlp_origin {
	const char	*file;		/* display name, "<stdin>" for stdin */
	unsigned long	 line;		/* of the text's first byte, from 1 */
	unsigned long	 col;		/* of the text's first byte, from 1 */
	size_t		 offset;	/* byte offset of its first byte */
};

/* A well-formedness error, as xmlp_error describes it. */
struct xmlp_error {
	struct diag_loc	 loc;
	size_t		 offset;	/* the byte loc names, in its file */
	const char	*rule;		/* "xml-syntax", "utf8", "bare-ampersand",
					   "nesting-depth" */
	char		 text[96];
};

/* Takes the error that ends a parse, for a caller that collects them. */
typedef void	xmlp_report_fn(void *, const struct xmlp_error *);

XML_Parser	xmlp_create(void);
int		xmlp_parse_stream(XML_Parser, FILE *, const char *);
int		xmlp_parse_buffer(XML_Parser, const char *, size_t,
		    const char *);
int		xmlp_parse_within(XML_Parser, const char *, size_t,
		    const struct xmlp_origin *, xmlp_report_fn *, void *);
void		xmlp_loc(XML_Parser, const char *, struct diag_loc *);
void		xmlp_loc_within(XML_Parser, const struct xmlp_origin *,
		    struct diag_loc *);
int		xmlp_error(XML_Parser, const struct xmlp_origin *,
		    struct xmlp_error *);
int		xmlp_check_start(const char *, size_t,
		    const struct xmlp_origin *, struct xmlp_error *);
int		xmlp_depth(XML_Parser, size_t, const struct xmlp_origin *,
		    struct xmlp_error *);

#endif
