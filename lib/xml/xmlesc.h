/*
 * xmlesc: text made safe for XML 1.0 element content and attribute values.
 * The five special characters become &amp; &lt; &gt; &quot; &apos;, and a
 * character XML 1.0 forbids (C0 controls but tab, newline and carriage
 * return; U+FFFE; U+FFFF) becomes U+FFFD and is counted, so that the
 * caller can warn about it or refuse the input.
 */
#ifndef LLMKIT_XMLESC_H
#define LLMKIT_XMLESC_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

#define XMLESC_QUOTES	0x1	/* also escape " and ' (attribute values) */
#define XMLESC_CR	0x2	/* carriage return as &#13;, which parsers
				   would otherwise turn into a newline */
#define XMLESC_LF	0x4	/* newline as &#10;: one-line documents and
				   attribute values (which parsers normalize) */
#define XMLESC_TAB	0x8	/* tab as &#9;: attribute values */
#define XMLESC_ATTR	(XMLESC_QUOTES | XMLESC_CR | XMLESC_LF | XMLESC_TAB)

struct xmlesc_bad {
	size_t		count;	/* characters replaced with U+FFFD */
	size_t		offset;	/* byte offset of the first, in the input */
	uint32_t	cp;	/* the first one */
};

int	xmlesc_allowed(uint32_t);
size_t	xmlesc_append(struct buf *, const char *, size_t, unsigned,
	    struct xmlesc_bad *);

#endif
