/*
 * toolcall_tree: the tree of a <tool> call, built by expat's handlers as
 * it parses: the call's elements as nodes, their content JSON-escaped
 * into one arena, its structure checked (name, arguments, no stray
 * content), each leaf's value typed by the seed's rules as it closes.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <expat.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "base/xalloc.h"
#include "toolcall/toolcall_int.h"

/* The tree of a call, built by expat's handlers. */


size_t
tc_node_new(struct toolcall *tc, const char *name, size_t parent,
    enum role role)
{
	return tc_node_newn(tc, name, strlen(name), parent, role);
}

/* A node of the call's tree, named by len bytes at name. */
size_t
tc_node_newn(struct toolcall *tc, const char *name, size_t len, size_t parent,
    enum role role)
{
	struct node *n;
	size_t id;

	if (tc->tree.nnodes == tc->tree.nodecap) {
		tc->tree.nodecap = tc->tree.nodecap ? 2 * tc->tree.nodecap : 64;
		tc->tree.nodes = xreallocarray(tc->tree.nodes, tc->tree.nodecap,
		    sizeof(*tc->tree.nodes));
	}
	id = tc->tree.nnodes++;
	n = &tc->tree.nodes[id];
	memset(n, 0, sizeof(*n));
	n->name = tc->tree.names.len;
	n->namelen = len;
	buf_add(&tc->tree.names, name, len);
	buf_addc(&tc->tree.names, '\0');
	n->parent = parent;
	n->first = n->last = n->next = n->same = NONE;
	n->role = role;
	n->kind = role == R_TOOL || role == R_ARGS ? K_OBJECT : K_STRING;
	if (parent != NONE) {
		if (tc->tree.nodes[parent].last == NONE)
			tc->tree.nodes[parent].first = id;
		else
			tc->tree.nodes[tc->tree.nodes[parent].last].next = id;
		tc->tree.nodes[parent].last = id;
	}
	return id;
}

static struct pos
expat_pos(struct toolcall *tc, size_t extra)
{
	XML_Index fed = XML_GetCurrentByteIndex(tc->feed.xp);

	return tc_call_pos(tc, tc_fed_to_raw(tc, (size_t)(fed < 0 ? 0 : fed) +
	    extra));
}

static void	structure_error(struct toolcall *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

static void
structure_error(struct toolcall *tc, size_t extra, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tc_call_verror(tc, expat_pos(tc, extra), "structure", fmt, ap);
	va_end(ap);
}

void XMLCALL
tc_on_start(void *ud, const XML_Char *name, const XML_Char **atts)
{
	struct toolcall *tc = ud;
	struct node *p;
	size_t parent = tc->tree.cur, *slot = NULL;
	enum role role = R_ARG;

	(void)atts;
	if (tc->tree.depth++ == 0) {
		tc->tree.cur = tc_node_new(tc, "tool", NONE, R_TOOL);
		tc->tree.content = tc->tree.arena.len;
		return;
	}
	if (tc->tree.depth == 2 && strcmp(name, "tool") == 0) {
		/* the model began the next call without ending this one */
		tc_call_error(tc, tc->call.cpos, "truncated",
		    "truncated tool call: a new <tool> began before </tool>");
		tc->call.restart = 1;
		tc->feed.endfed = (size_t)XML_GetCurrentByteIndex(tc->feed.xp);
		XML_StopParser(tc->feed.xp, XML_FALSE);
		return;
	}
	if (tc->tree.depth > DEPTH_MAX) {
		/* no more of this call for expat, whose memory would grow */
		tc_call_error(tc, expat_pos(tc, 0), "structure",
		    "malformed tool call: elements nested deeper than %d",
		    DEPTH_MAX);
		XML_StopParser(tc->feed.xp, XML_FALSE);
		return;
	}
	if (tc->call.bad)
		return;
	p = &tc->tree.nodes[parent];
	switch (p->role) {
	case R_TOOL:
		if (strcmp(name, "server_name") == 0)
			slot = &tc->tree.sname;
		else if (strcmp(name, "tool_name") == 0)
			slot = &tc->tree.tname;
		else if (strcmp(name, "arguments") == 0)
			slot = &tc->tree.args;
		else {
			structure_error(tc, 0,
			    "malformed tool call: unexpected <%s> in <tool>%s",
			    name, "");
			return;
		}
		if (*slot != NONE) {
			structure_error(tc, 0,
			    "malformed tool call: <%s> given twice%s",
			    name, "");
			return;
		}
		role = slot == &tc->tree.args ? R_ARGS : R_META;
		break;
	case R_META:
		structure_error(tc, 0,
		    "malformed tool call: <%s> must hold text, not <%s>",
		    tc->tree.names.data + p->name, name);
		return;
	case R_ARG:
		if (p->nonws) {
			structure_error(tc, 0,
			    "malformed tool call: <%s> mixes text and "
			    "elements%s",
			    tc->tree.names.data + p->name, "");
			return;
		}
		break;
	case R_ARGS:
		break;
	}
	/* white space before the first child was layout */
	p->haschild = 1;
	p->kind = K_OBJECT;
	tc->tree.arena.len = tc->tree.content;
	tc->tree.nsegs = 0;
	tc->tree.cur = tc_node_new(tc, name, parent, role);
	if (slot != NULL)
		*slot = tc->tree.cur;
	tc->tree.content = tc->tree.arena.len;
	tc->tree.incdata = 0;
}

void XMLCALL
tc_on_cdata_start(void *ud)
{
	struct toolcall *tc = ud;
	struct node *n;

	tc->tree.incdata = 1;
	if (tc->call.bad || tc->tree.cur == NONE)
		return;
	n = &tc->tree.nodes[tc->tree.cur];
	if ((n->role == R_ARG || n->role == R_META) && !n->haschild) {
		/* an empty section still makes the value a CDATA string */
		if (tc->tree.nsegs == tc->tree.segcap) {
			tc->tree.segcap = tc->tree.segcap ?
			    2 * tc->tree.segcap : 16;
			tc->tree.segs = xreallocarray(tc->tree.segs,
			    tc->tree.segcap, sizeof(*tc->tree.segs));
		}
		tc->tree.segs[tc->tree.nsegs++] =
		    (struct seg){ tc->tree.arena.len, 0, 1, 1 };
	}
}

void XMLCALL
tc_on_cdata_end(void *ud)
{
	struct toolcall *tc = ud;

	tc->tree.incdata = 0;
}

void XMLCALL
tc_on_text(void *ud, const XML_Char *s, int len)
{
	struct toolcall *tc = ud;
	struct node *n;
	struct seg *g;
	size_t i = 0, off, n_ = (size_t)len;
	int ws;

	if (tc->call.bad || tc->tree.cur == NONE || len <= 0)
		return;
	n = &tc->tree.nodes[tc->tree.cur];
	while (i < n_ && is_ws((unsigned char)s[i]))
		i++;
	ws = i == n_;
	if (n->role == R_TOOL || n->role == R_ARGS || n->haschild) {
		if (ws)
			return;
		if (n->role == R_TOOL)
			structure_error(tc, i, "malformed tool call: text in "
			    "<tool> outside any element%s%s", "", "");
		else if (n->role == R_ARGS)
			structure_error(tc, i, "malformed tool call: text in "
			    "<arguments> outside any argument%s%s", "", "");
		else
			structure_error(tc, i, "malformed tool call: <%s> "
			    "mixes text and elements%s",
			    tc->tree.names.data + n->name, "");
		return;
	}
	if (!ws)
		n->nonws = 1;
	off = tc->tree.arena.len;
	if (n_ == 1 && s[0] == '\n')
		buf_add(&tc->tree.arena, "\\n", 2); /* expat's every line end */
	else
		jsonw_escape(&tc->tree.arena, s, n_);
	if (tc->tree.nsegs > 0 && (g = &tc->tree.segs[tc->tree.nsegs -
	    1])->cdata == tc->tree.incdata && g->off + g->len == off) {
		g->len += tc->tree.arena.len - off;
		g->ws &= ws;
		return;
	}
	if (tc->tree.nsegs == tc->tree.segcap) {
		tc->tree.segcap = tc->tree.segcap ? 2 * tc->tree.segcap : 16;
		tc->tree.segs = xreallocarray(tc->tree.segs, tc->tree.segcap,
		    sizeof(*tc->tree.segs));
	}
	tc->tree.segs[tc->tree.nsegs++] = (struct seg){ off,
	    tc->tree.arena.len - off, tc->tree.incdata, ws };
}

/* Trims XML white space off both ends of JSON-escaped text. */
void
tc_trim_escaped(const char *d, size_t *ap, size_t *bp)
{
	size_t a = *ap, b = *bp, k;

	for (;;) {
		if (a < b && d[a] == ' ')
			a++;
		else if (b - a >= 2 && d[a] == '\\' &&
		    (d[a + 1] == 'n' || d[a + 1] == 't' || d[a + 1] == 'r'))
			a += 2;
		else
			break;
	}
	for (;;) {
		if (b > a && d[b - 1] == ' ')
			b--;
		else if (b - a >= 2 && d[b - 2] == '\\' &&
		    (d[b - 1] == 'n' || d[b - 1] == 't' || d[b - 1] == 'r')) {
			/* an odd run of backslashes ends in an escape */
			for (k = 0; b - 2 - k > a && d[b - 3 - k] == '\\'; k++)
				;
			if (k % 2 != 0)
				break;
			b -= 2;
		} else
			break;
	}
	*ap = a;
	*bp = b;
}

/*
 * The seed's type inference: writes the JSON token for s to out and
 * returns 1, or returns 0 for a value that stays a string.
 */
int
tc_seed_typed(const char *s, size_t n, struct buf *out)
{
	static const char max[] = "9223372036854775807";
	static const char min[] = "9223372036854775808";
	size_t i = 0, ds, nd, nf = 0, z;
	int neg = 0, dot = 0, nonzero = 0;
	char *copy, *end;
	double x;

	if (n == 4 && strncasecmp(s, "true", 4) == 0) {
		buf_add(out, "true", 4);
		return 1;
	}
	if (n == 5 && strncasecmp(s, "false", 5) == 0) {
		buf_add(out, "false", 5);
		return 1;
	}
	if (n == 4 && strncasecmp(s, "null", 4) == 0) {
		buf_add(out, "null", 4);
		return 1;
	}
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	for (ds = i; i < n && is_digit(s[i]); i++)
		nonzero |= s[i] != '0';
	nd = i - ds;
	if (nd > 0 && i == n) {
		for (z = ds; z < n - 1 && s[z] == '0'; z++)
			;
		if (n - z > 19 || (n - z == 19 &&
		    memcmp(s + z, neg ? min : max, 19) > 0))
			return 0;
		if (neg && nonzero)
			buf_addc(out, '-');
		buf_add(out, s + z, n - z);
		return 1;
	}
	if (i < n && s[i] == '.') {
		dot = 1;
		for (i++; i < n && is_digit(s[i]); i++, nf++)
			nonzero |= s[i] != '0';
	}
	if (nd + nf == 0)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i == n || !is_digit(s[i]))
			return 0;
		while (i < n && is_digit(s[i]))
			i++;
		dot = 1;
	}
	if (!dot || i != n)
		return 0;
	copy = xmemdup(s, n + 1);
	copy[n] = '\0';
	x = strtod(copy, &end);
	free(copy);
	/* past the doubles, or so small it would read back as zero */
	if (x - x != 0 || (x == 0 && nonzero))
		return 0;
	jsonw_number(out, x);
	return 1;
}

/* The value of an element without children, from its content runs. */
static void
leaf_value(struct toolcall *tc, struct node *n)
{
	char *d = tc->tree.arena.data;
	size_t a = tc->tree.content, b = tc->tree.arena.len, i, dst;
	int cdata = 0, text = 0;

	for (i = 0; i < tc->tree.nsegs; i++) {
		if (tc->tree.segs[i].cdata)
			cdata = 1;
		else if (!tc->tree.segs[i].ws)
			text = 1;
	}
	n->kind = K_STRING;
	n->cdata = cdata && !text;
	if (cdata && !text) {
		/* the sections alone: white space around them is layout */
		for (dst = a, i = 0; i < tc->tree.nsegs; i++) {
			if (!tc->tree.segs[i].cdata)
				continue;
			if (dst != tc->tree.segs[i].off)
				memmove(d + dst, d + tc->tree.segs[i].off,
				    tc->tree.segs[i].len);
			dst += tc->tree.segs[i].len;
		}
		b = dst;
	} else if (!cdata) {
		tc_trim_escaped(d, &a, &b);
		if (n->role == R_ARG && tc->opt.tools == NULL &&
		    memchr(d + a, '\\', b - a) == NULL) {
			buf_reset(&tc->tmp);
			if (tc_seed_typed(d + a, b - a, &tc->tmp)) {
				n->kind = K_TOKEN;
				a = tc->tree.content;
				tc->tree.arena.len = a;
				buf_add(&tc->tree.arena, tc->tmp.data,
				    tc->tmp.len);
				b = tc->tree.arena.len;
			}
		}
	}
	n->val = a;
	n->vallen = b - a;
	tc->tree.arena.len = b;
}

void XMLCALL
tc_on_end(void *ud, const XML_Char *name)
{
	struct toolcall *tc = ud;
	struct node *n;

	(void)name;
	if (--tc->tree.depth == 0) {
		tc->feed.done = 1;
		tc->feed.endfed = (size_t)XML_GetCurrentByteIndex(tc->feed.xp) +
		    (size_t)XML_GetCurrentByteCount(tc->feed.xp);
		XML_StopParser(tc->feed.xp, XML_FALSE);
		return;
	}
	if (tc->call.bad)
		return;
	n = &tc->tree.nodes[tc->tree.cur];
	if (n->haschild || n->role == R_ARGS)
		tc->tree.arena.len = tc->tree.content;
	else
		leaf_value(tc, n);
	tc->tree.cur = n->parent;
	tc->tree.content = tc->tree.arena.len;
	tc->tree.nsegs = 0;
}
