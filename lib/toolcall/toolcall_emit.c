/*
 * toolcall_emit: a call written as JSON from its tree, whatever markup
 * it came in. Its arguments are typed by the seed's rules, or, with
 * --tools, by its tool's schema and then validated against it; the call
 * is written as a record or an event, its large values held where they
 * are while the output is held.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/jsonw.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "json/jsonx.h"
#include "schema/jsschema.h"
#include "toolcall/pylit.h"
#include "toolcall/toolcall_int.h"
#include "toolcall/tooldefs.h"

/* Writing a call. */

static size_t
name_hash(const char *s, size_t n)
{
	size_t h = 2166136261u, i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Links the children of one object that share a name, in order. */
static void
link_same_names(struct toolcall *tc, size_t id)
{
	struct node *m, *f;
	size_t c, k = 0, cap = 16, h, *t;

	for (c = tc->tree.nodes[id].first; c != NONE;
	    c = tc->tree.nodes[c].next)
		k++;
	if (k < 2)
		return;
	while (cap < 2 * k)
		cap *= 2;
	if (cap > tc->tree.hashcap) {
		tc->tree.hash = xreallocarray(tc->tree.hash, cap,
		    sizeof(*tc->tree.hash));
		tc->tree.hashcap = cap;
	}
	t = tc->tree.hash;
	for (h = 0; h < cap; h++)
		t[h] = NONE;
	for (c = tc->tree.nodes[id].first; c != NONE; c = m->next) {
		m = &tc->tree.nodes[c];
		h = name_hash(tc->tree.names.data + m->name, m->namelen) &
		    (cap - 1);
		while (t[h] != NONE) {
			f = &tc->tree.nodes[t[h]];
			if (f->namelen == m->namelen &&
			    memcmp(tc->tree.names.data + f->name,
			    tc->tree.names.data + m->name, m->namelen) == 0)
				break;
			h = (h + 1) & (cap - 1);
		}
		if (t[h] == NONE) {
			t[h] = c;
			m->tail = c;
			continue;
		}
		f = &tc->tree.nodes[t[h]];
		f->multi = 1;
		m->dup = 1;
		tc->tree.nodes[f->tail].same = c;
		f->tail = c;
	}
}

static void	emit_value(struct toolcall *, size_t);
static void	held_arena(struct toolcall *, size_t, size_t);

static json_t	*emit_members(struct toolcall *, size_t,
		    const struct jsschema_place *);

/* An object as the seed's typing writes it: no schema's place. */
static void
emit_object(struct toolcall *tc, size_t id)
{
	json_decref(emit_members(tc, id, NULL));
}

/* A segment of held output, n bytes at off in data, which it may own. */
static void
hseg_add(struct toolcall *tc, char *data, size_t off, size_t n, int own)
{
	if (tc->held.nhsegs == tc->held.hsegcap) {
		tc->held.hsegcap = tc->held.hsegcap ? 2 * tc->held.hsegcap : 8;
		tc->held.hsegs = xreallocarray(tc->held.hsegs, tc->held.hsegcap,
		    sizeof(*tc->held.hsegs));
	}
	tc->held.hsegs[tc->held.nhsegs].data = data;
	tc->held.hsegs[tc->held.nhsegs].off = off;
	tc->held.hsegs[tc->held.nhsegs].len = n;
	tc->held.hsegs[tc->held.nhsegs].own = own;
	tc->held.nhsegs++;
	tc->held.hseglen += n;
}

/*
 * While undecided, a large value of the call being written is held in
 * the arena where it lies: the records before it become a segment, it
 * another, and the arena is the segments' once the call is written, so
 * that a large call is not held twice.
 */
static void
held_arena(struct toolcall *tc, size_t off, size_t n)
{
	if (tc->held.recs.len > 0) {
		hseg_add(tc, tc->held.recs.data, 0, tc->held.recs.len, 1);
		memset(&tc->held.recs, 0, sizeof(tc->held.recs));
	}
	hseg_add(tc, tc->tree.arena.data, off, n, !tc->held.arenagone);
	tc->held.arenagone = 1;
	if (tc_held_size(tc) > tc->held.holdcap)
		tc_held_overflow(tc);
}

/* The call is written: a new arena, when a segment has the old one. */
static void
arena_renew(struct toolcall *tc)
{
	if (!tc->held.arenagone)
		return;
	tc->held.arenagone = 0;
	memset(&tc->tree.arena, 0, sizeof(tc->tree.arena));
	buf_reserve(&tc->tree.arena, 64);
}

static void
emit_value(struct toolcall *tc, size_t id)
{
	struct node *n = &tc->tree.nodes[id];

	switch (n->kind) {
	case K_OBJECT:
		emit_object(tc, id);
		break;
	case K_TOKEN:
		tc_put(tc, tc->tree.arena.data + n->val, n->vallen);
		break;
	case K_STRING:
		tc_put(tc, "\"", 1);
		if (n->vallen >= tc->held.share && tc->sink == &tc->held.recs)
			held_arena(tc, n->val, n->vallen);
		else
			tc_put(tc, tc->tree.arena.data + n->val, n->vallen);
		tc_put(tc, "\"", 1);
		break;
	}
}

/* Typing by a tool's schema. */

/* The four hex digits at p, as jsonw_escape writes them. */
static unsigned long
hex4(const char *p)
{
	unsigned long c = 0;
	int i;

	for (i = 0; i < 4; i++)
		c = c * 16 + (unsigned long)(p[i] <= '9' ? p[i] - '0' :
		    (p[i] | 0x20) - 'a' + 10);
	return c;
}

/*
 * The text that s (n bytes, JSON-escaped as jsonw_escape writes it, so
 * well formed) stands for, in tc->emit.val.
 */
static void
unescape(struct toolcall *tc, const char *s, size_t n)
{
	static const char esc[] = "b\bf\fn\nr\rt\t";
	const char *e = s + n, *p, *x;
	unsigned long c;
	char u8[4];

	buf_reset(&tc->emit.val);
	while ((p = memchr(s, '\\', (size_t)(e - s))) != NULL) {
		buf_add(&tc->emit.val, s, (size_t)(p - s));
		s = p + 2;
		if (p[1] == 'u') {
			c = hex4(p + 2);
			s = p + 6;
			if (c >= 0xD800 && c < 0xDC00 && e - s >= 6 &&
			    s[0] == '\\' && s[1] == 'u') {
				c = 0x10000 + ((c - 0xD800) << 10) +
				    (hex4(s + 2) - 0xDC00);
				s += 6;
			}
			buf_add(&tc->emit.val, u8,
			    utf8_encode((uint32_t)c, u8));
		} else if (p[1] != '\0' && (x = strchr(esc, p[1])) != NULL &&
		    (x - esc) % 2 == 0)
			buf_addc(&tc->emit.val, x[1]);
		else		/* " \ / */
			buf_addc(&tc->emit.val, p[1]);
	}
	buf_add(&tc->emit.val, s, (size_t)(e - s));
}

/*
 * With validation, the typed arguments are also built as jansson values
 * while they are written (tc->emit.build), so that the schema checks them
 * without parsing the text again. These are their leaves.
 */

/* JSON-escaped text (as jsonw_escape writes it) as a string value. */
static json_t *
string_json(struct toolcall *tc, const char *s, size_t n)
{
	if (memchr(s, '\\', n) == NULL)
		return json_stringn_nocheck(s, n);
	unescape(tc, s, n);
	return json_stringn_nocheck(tc->emit.val.data, tc->emit.val.len);
}

/* A token that tc_seed_typed() wrote, in tc->tmp, as a value. */
static json_t *
token_json(const struct buf *t)
{
	char *copy;
	json_t *j;

	if (t->data[0] == 'n')
		return json_null();
	if (t->data[0] == 't')
		return json_true();
	if (t->data[0] == 'f')
		return json_false();
	copy = xmemdup(t->data, t->len + 1);
	copy[t->len] = '\0';
	if (strpbrk(copy, ".eE") == NULL)
		j = json_integer(strtoll(copy, NULL, 10));
	else
		j = json_real(strtod(copy, NULL));
	free(copy);
	return j;
}

/* Whether v is of a type in want among null, boolean, object, array. */
static int
literal_fits(const json_t *v, unsigned want)
{
	return (json_is_null(v) && (want & JSSCHEMA_T_NULL)) ||
	    (json_is_boolean(v) && (want & JSSCHEMA_T_BOOLEAN)) ||
	    (json_is_object(v) && (want & JSSCHEMA_T_OBJECT)) ||
	    (json_is_array(v) && (want & JSSCHEMA_T_ARRAY));
}

/*
 * The n bytes at s, as models write a value of a type in want among
 * null, boolean, object and array: JSON text, or else a Python literal
 * (None, True, False, '...', a dict, a list, a tuple) read by lib/pylit,
 * never evaluated; with again, either one inside a string of the other
 * (JSON double-encoded, a quoted dict). A new value, or NULL when the
 * text is none of these, or not of a type wanted.
 */
static json_t *
literal(const char *s, size_t n, unsigned want, int again)
{
	struct pylit_error pe;
	json_t *j, *in;
	size_t end;
	int flags = JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL;
	json_error_t e;

	/* integers as written: an id keeps its digits */
	j = jsonx_load(s, n, flags, &e);
	if (j == NULL && json_error_code(&e) == json_error_numeric_overflow)
		j = jsonx_load(s, n, flags | JSON_DECODE_INT_AS_REAL, NULL);
	if (j == NULL && (j = pylit_parse(s, n, 0, &end, &pe)) != NULL &&
	    pylit_skip(s, n, end) != n) {
		json_decref(j);
		j = NULL;
	}
	if (j == NULL)
		return NULL;
	if (json_is_string(j) && again) {
		in = literal(json_string_value(j), json_string_length(j), want,
		    0);
		json_decref(j);
		return in;
	}
	if (literal_fits(j, want))
		return j;
	json_decref(j);
	return NULL;
}

static json_t	*json_typed(struct toolcall *, json_t *,
		    const struct jsschema_place *);

/*
 * Text s (JSON-escaped) that is a literal of a type in want, its strings
 * typed by the places of pl (json_typed), written as JSON: 1, or 0 when
 * it is not. With tc->emit.build, *jp is its value.
 */
static int
put_literal(struct toolcall *tc, const char *s, size_t n,
    const struct jsschema_place *pl, unsigned want, json_t **jp)
{
	json_t *j;

	unescape(tc, s, n);
	if ((j = literal(tc->emit.val.data, tc->emit.val.len, want, 1)) == NULL)
		return 0;
	json_decref(json_typed(tc, j, pl));
	buf_reset(&tc->emit.val);
	jsonw_exact(&tc->emit.val, j);
	tc_put(tc, tc->emit.val.data, tc->emit.val.len);
	if (tc->emit.build)
		*jp = j;
	else
		json_decref(j);
	return 1;
}

static json_t	*emit_typed(struct toolcall *, size_t,
		    const struct jsschema_place *);

/* A string value from the arena, or NULL when not building. */
static json_t *
emit_string(struct toolcall *tc, size_t id)
{
	struct node *n = &tc->tree.nodes[id];

	emit_value(tc, id);
	return tc->emit.build ? string_json(tc, tc->tree.arena.data + n->val,
	    n->vallen) : NULL;
}

/* Where no schema says: the value typed by the seed's rules, as today. */
static json_t *
emit_seed(struct toolcall *tc, size_t id)
{
	struct node *n = &tc->tree.nodes[id];
	const char *d = tc->tree.arena.data + n->val;
	size_t a = 0, b = n->vallen;

	/* a dialect's raw text carries no types: a string */
	if (n->kind != K_STRING || n->role != R_ARG || n->cdata ||
	    tc->hold.dial != 0)
		return emit_string(tc, id);
	tc_trim_escaped(d, &a, &b);
	buf_reset(&tc->tmp);
	if (a == 0 && b == n->vallen && memchr(d, '\\', b) == NULL &&
	    tc_seed_typed(d, b, &tc->tmp)) {
		tc_put(tc, tc->tmp.data, tc->tmp.len);
		return tc->emit.build ? token_json(&tc->tmp) : NULL;
	}
	return emit_string(tc, id);
}

/*
 * A value without child elements, as the types t of its place allow, in
 * this order: null, integer (5.0 is 5), number, boolean (any case), a
 * literal of null, boolean, object or array (literal()), string. A value
 * that fits none is an array of one item when t allows arrays, else the
 * string.
 */
static json_t *
emit_leaf(struct toolcall *tc, size_t id, const struct jsschema_place *pl,
    unsigned t)
{
	struct node *n = &tc->tree.nodes[id];
	struct jsschema_place *ip;
	const char *d = tc->tree.arena.data + n->val;
	size_t a = 0, b = n->vallen;
	json_t *j = NULL, *item;
	int k = 0;

	tc_trim_escaped(d, &a, &b);
	buf_reset(&tc->tmp);
	if (memchr(d + a, '\\', b - a) == NULL && tc_seed_typed(d + a, b - a,
	    &tc->tmp)) {
		/* 'n'ull, 't'rue, 'f'alse, an integer or a number */
		k = tc->tmp.data[0];
		if (k != 'n' && k != 't' && k != 'f')
			k = memchr(tc->tmp.data, '.', tc->tmp.len) == NULL &&
			    memchr(tc->tmp.data, 'e', tc->tmp.len) == NULL ?
			    'i' : 'r';
	}
	if (((t & JSSCHEMA_T_NULL) && k == 'n') ||
	    ((t & JSSCHEMA_T_INTEGER) && k == 'i') ||
	    ((t & JSSCHEMA_T_NUMBER) && (k == 'i' || k == 'r')) ||
	    ((t & JSSCHEMA_T_BOOLEAN) && (k == 't' || k == 'f'))) {
		tc_put(tc, tc->tmp.data, tc->tmp.len);
		return tc->emit.build ? token_json(&tc->tmp) : NULL;
	}
	if ((t & (JSSCHEMA_T_NULL | JSSCHEMA_T_BOOLEAN | JSSCHEMA_T_OBJECT |
	    JSSCHEMA_T_ARRAY)) && put_literal(tc, d + a, b - a, pl, t, &j))
		return j;
	if (!(t & JSSCHEMA_T_STRING) && (t & JSSCHEMA_T_ARRAY) &&
	    !tc->emit.wrapping) {
		/* once: a schema of arrays of arrays would go on */
		tc->emit.wrapping = 1;
		tc_put(tc, "[", 1);
		ip = jsschema_place_item(pl, 0);
		item = emit_typed(tc, id, ip);
		jsschema_place_free(ip);
		tc_put(tc, "]", 1);
		tc->emit.wrapping = 0;
		if (tc->emit.build) {
			j = json_array();
			json_array_append_new(j, item);
		}
		return j;
	}
	return emit_string(tc, id);
}

/* The children of id, all of one name, as the items of an array. */
static int
one_name(const struct toolcall *tc, size_t id)
{
	const struct node *f, *m;
	size_t c;

	if ((c = tc->tree.nodes[id].first) == NONE)
		return 0;
	f = &tc->tree.nodes[c];
	for (; c != NONE; c = m->next) {
		m = &tc->tree.nodes[c];
		if (m->namelen != f->namelen || memcmp(tc->tree.names.data +
		    m->name, tc->tree.names.data + f->name, f->namelen) != 0)
			return 0;
	}
	return 1;
}

/*
 * Whether the schema at ip declares a member named as element c: no
 * schema applies to an undeclared one, or none allows it.
 */
static int
declared(const struct toolcall *tc, const struct jsschema_place *ip,
    size_t c)
{
	struct jsschema_place *mp;
	unsigned t;

	mp = jsschema_place_member(ip,
	    tc->tree.names.data + tc->tree.nodes[c].name,
	    tc->tree.nodes[c].namelen);
	t = jsschema_place_types(mp);
	jsschema_place_free(mp);
	return t != JSSCHEMA_T_ALL && t != 0;
}

/* The elements of the chain from c (by same, or by next), as an array. */
static json_t *
emit_items(struct toolcall *tc, size_t c, int bysame,
    const struct jsschema_place *pl)
{
	struct jsschema_place *ip;
	json_t *a = tc->emit.build ? json_array() : NULL, *v;
	size_t k = 0;

	tc_put(tc, "[", 1);
	for (; c != NONE; c = bysame ? tc->tree.nodes[c].same :
	    tc->tree.nodes[c].next, k++) {
		if (k > 0)
			tc_put(tc, ",", 1);
		ip = pl == NULL ? NULL : jsschema_place_item(pl, k);
		v = emit_typed(tc, c, ip);
		jsschema_place_free(ip);
		if (a != NULL)
			json_array_append_new(a, v);
	}
	tc_put(tc, "]", 1);
	return a;
}

static json_t *
emit_members(struct toolcall *tc, size_t id, const struct jsschema_place *pl)
{
	struct jsschema_place *mp;
	struct node *m;
	json_t *o = tc->emit.build ? json_object() : NULL, *v;
	size_t c;
	int first = 1;

	link_same_names(tc, id);
	tc_put(tc, "{", 1);
	for (c = tc->tree.nodes[id].first; c != NONE; c = m->next) {
		m = &tc->tree.nodes[c];
		if (m->dup)
			continue;
		if (!first)
			tc_put(tc, ",", 1);
		first = 0;
		tc_put_string(tc, tc->tree.names.data + m->name, m->namelen);
		tc_put(tc, ":", 1);
		mp = pl == NULL ? NULL : jsschema_place_member(pl,
		    tc->tree.names.data + m->name, m->namelen);
		if (m->multi)
			v = emit_items(tc, c, 1, mp);
		else
			v = emit_typed(tc, c, mp);
		jsschema_place_free(mp);
		if (o != NULL)
			json_object_setn_new_nocheck(o, tc->tree.names.data +
			    m->name, m->namelen, v);
	}
	tc_put(tc, "}", 1);
	return o;
}

/*
 * The value of element id as its place's types have it (the seed's
 * typing where no schema constrains it, or pl is NULL: the tool has no
 * schema). Child elements make an object, or the items of an array where
 * the place wants an array: the children when they all have one name and
 * the items are no objects, or objects that do not declare that name (a
 * wrapper, as <edits><edit>...</edit><edit>...</edit></edits>); else the
 * object as its one item. With tc->emit.build, the value built; else NULL.
 */
static json_t *
emit_typed(struct toolcall *tc, size_t id, const struct jsschema_place *pl)
{
	struct jsschema_place *ip;
	json_t *j = NULL, *v;
	unsigned t, it;

	t = pl != NULL ? jsschema_place_types(pl) : JSSCHEMA_T_ALL;
	if (t == JSSCHEMA_T_ALL && tc->tree.nodes[id].kind == K_OBJECT)
		return emit_members(tc, id, pl);
	if (t == JSSCHEMA_T_ALL)
		return emit_seed(tc, id);
	if (tc->tree.nodes[id].kind != K_OBJECT)
		return emit_leaf(tc, id, pl, t);
	if ((t & JSSCHEMA_T_OBJECT) || !(t & JSSCHEMA_T_ARRAY))
		return emit_members(tc, id, pl);
	ip = jsschema_place_item(pl, 0);
	it = jsschema_place_types(ip);
	if (one_name(tc, id) && (!(it & JSSCHEMA_T_OBJECT) ||
	    !declared(tc, ip, tc->tree.nodes[id].first)))
		j = emit_items(tc, tc->tree.nodes[id].first, 0, pl);
	else {
		tc_put(tc, "[", 1);
		v = emit_members(tc, id, ip);
		tc_put(tc, "]", 1);
		if (tc->emit.build) {
			j = json_array();
			json_array_append_new(j, v);
		}
	}
	jsschema_place_free(ip);
	return j;
}

/*
 * The arguments of a JSON dialect (hermes's, a server's) keep the types
 * the model wrote, but a string where its place allows no string is
 * typed as an element's text is (emit_leaf), so that what models write
 * for a value, True, None, {'a': 1}, "[1, 2]", "5", is the value: the
 * same ladder, the same array of one item. v is changed where it lies;
 * a string typed is given back, a new value, for its container to take
 * (NULL: v stays).
 */
static json_t *
json_leaf(struct toolcall *tc, const char *s, size_t n,
    const struct jsschema_place *pl, unsigned t)
{
	struct jsschema_place *ip;
	json_t *j, *item;
	size_t a = 0, b = n;
	int k = 0;

	while (a < b && is_ws((unsigned char)s[a]))
		a++;
	while (b > a && is_ws((unsigned char)s[b - 1]))
		b--;
	buf_reset(&tc->tmp);
	if (tc_seed_typed(s + a, b - a, &tc->tmp)) {
		k = tc->tmp.data[0];
		if (k != 'n' && k != 't' && k != 'f')
			k = memchr(tc->tmp.data, '.', tc->tmp.len) == NULL &&
			    memchr(tc->tmp.data, 'e', tc->tmp.len) == NULL ?
			    'i' : 'r';
	}
	if (((t & JSSCHEMA_T_NULL) && k == 'n') ||
	    ((t & JSSCHEMA_T_INTEGER) && k == 'i') ||
	    ((t & JSSCHEMA_T_NUMBER) && (k == 'i' || k == 'r')) ||
	    ((t & JSSCHEMA_T_BOOLEAN) && (k == 't' || k == 'f')))
		return token_json(&tc->tmp);
	if ((t & (JSSCHEMA_T_NULL | JSSCHEMA_T_BOOLEAN | JSSCHEMA_T_OBJECT |
	    JSSCHEMA_T_ARRAY)) && (j = literal(s + a, b - a, t, 1)) != NULL) {
		json_decref(json_typed(tc, j, pl));
		return j;
	}
	if (!(t & JSSCHEMA_T_ARRAY) || tc->emit.wrapping)
		return NULL;
	/* once: a schema of arrays of arrays would go on */
	tc->emit.wrapping = 1;
	ip = jsschema_place_item(pl, 0);
	item = json_stringn_nocheck(s, n);
	if ((j = json_typed(tc, item, ip)) != NULL) {
		json_decref(item);
		item = j;
	}
	jsschema_place_free(ip);
	tc->emit.wrapping = 0;
	j = json_array();
	json_array_append_new(j, item);
	return j;
}

static json_t *
json_typed(struct toolcall *tc, json_t *v, const struct jsschema_place *pl)
{
	struct jsschema_place *cp;
	const char *key;
	json_t *m, *nv;
	void *it;
	size_t i;
	unsigned t;

	if (pl == NULL)
		return NULL;
	t = jsschema_place_types(pl);
	if (json_is_string(v))
		return t == JSSCHEMA_T_ALL || (t & JSSCHEMA_T_STRING) ? NULL :
		    json_leaf(tc, json_string_value(v), json_string_length(v),
		    pl, t);
	if (json_is_array(v))
		json_array_foreach(v, i, m) {
			cp = jsschema_place_item(pl, i);
			if ((nv = json_typed(tc, m, cp)) != NULL)
				json_array_set_new(v, i, nv);
			jsschema_place_free(cp);
		}
	else if (json_is_object(v))
		for (it = json_object_iter(v); it != NULL;
		    it = json_object_iter_next(v, it)) {
			key = json_object_iter_key(it);
			cp = jsschema_place_member(pl, key,
			    json_object_iter_key_len(it));
			if ((nv = json_typed(tc, json_object_iter_value(it),
			    cp)) != NULL)
				json_object_iter_set_new(v, it, nv);
			jsschema_place_free(cp);
		}
	return NULL;
}

/*
 * The tool a call names, by the text of its <tool_name>; NULL, with the
 * call's error made, for a name no definition has.
 */
static const struct tooldef *
call_tool(struct toolcall *tc)
{
	const struct tooldef *def;
	struct node *n = &tc->tree.nodes[tc->tree.tname];
	struct buf names = BUF_INIT;
	char q[80];

	unescape(tc, tc->tree.arena.data + n->val, n->vallen);
	if ((def = tooldefs_find(tc->opt.tools, tc->emit.val.data,
	    tc->emit.val.len)) != NULL)
		return def;
	diag_quote(q, sizeof(q), tc->emit.val.data, tc->emit.val.len);
	tooldefs_names(tc->opt.tools, &names);
	tc_call_error(tc, tc->call.cpos, "unknown-tool",
	    "tool call to %s, which is not defined (the tools are: %s)",
	    q, buf_cstr(&names));
	buf_free(&names);
	return NULL;
}

/*
 * Checks the arguments of a call (built as they were written) against
 * the tool's schema: 0, or -1 with the call's error made, each schema
 * error with its JSON Pointer. Arguments that cannot be checked (a
 * format needs a library that cannot be loaded) are such an error too,
 * never a call, and make the status trouble (3), not the model's fault.
 */
static int
call_valid(struct toolcall *tc, const struct tooldef *def, json_t *args)
{
	struct jsschema_result res;
	struct buf m = BUF_INIT;
	size_t i;
	int r;

	if ((r = jsschema_validate(def->js, args, &res)) == 0)
		return 0;
	if (r < 0)
		tc->unchecked = tc->call.unchecked = 1;
	for (i = 0; i < res.nerrors; i++) {
		buf_adds(&m, i > 0 ? "; " : "");
		if (res.errors[i].instance[0] != '\0') {
			buf_adds(&m, res.errors[i].instance);
			buf_adds(&m, ": ");
		}
		buf_adds(&m, res.errors[i].message);
	}
	jsschema_result_free(&res);
	tc_call_error(tc, tc->call.cpos, "schema", r < 0 ?
	    "the arguments of \"%s\" cannot be checked against its schema: %s" :
	    "the arguments of \"%s\" do not match its schema: %s",
	    def->name, buf_cstr(&m));
	buf_free(&m);
	return -1;
}

/*
 * The call, with its arguments typed by def's schema (or the seed's);
 * with tc->emit.build, their value, else NULL.
 */
static json_t *
put_call(struct toolcall *tc, const struct tooldef *def)
{
	struct jsschema_place *pl;
	json_t *args = NULL;

	if (tc->opt.thread)
		tc_puts(tc, "{\"type\":\"tool_call\",\"toolName\":");
	else
		tc_puts(tc, tc->opt.events ? "{\"type\":\"tool_call\","
		    "\"server_name\":" : "{\"server_name\":");
	if (tc->opt.thread)
		emit_value(tc, tc->tree.tname);
	else if (tc->tree.sname != NONE &&
	    tc->tree.nodes[tc->tree.sname].vallen > 0)
		emit_value(tc, tc->tree.sname);
	else
		tc_puts(tc, "\"local\"");
	tc_puts(tc, tc->opt.thread ? ",\"args\":" : ",\"tool_name\":");
	if (!tc->opt.thread) {
		emit_value(tc, tc->tree.tname);
		tc_puts(tc, ",\"arguments\":");
	}
	if (tc->hold.htext != NULL)
		/* hermes, read without a tree (never with tc->emit.build) */
		tc_put(tc, tc->hold.htext->data, tc->hold.htext->len);
	else if (tc->hold.hargs != NULL) {
		/* JSON, typed as the model wrote it, but for its strings */
		if (def != NULL && def->js != NULL) {
			pl = jsschema_place_root(def->js);
			json_decref(json_typed(tc, tc->hold.hargs, pl));
			jsschema_place_free(pl);
		}
		buf_reset(&tc->emit.val);
		jsonw_exact(&tc->emit.val, tc->hold.hargs);
		tc_put(tc, tc->emit.val.data, tc->emit.val.len);
		if (tc->emit.build)
			args = json_incref(tc->hold.hargs);
	} else if (tc->tree.args == NONE) {
		tc_puts(tc, "{}");
		if (tc->emit.build)
			args = json_object();
	} else if (def == NULL)
		emit_object(tc, tc->tree.args);
	else if (def->js == NULL)
		args = emit_members(tc, tc->tree.args, NULL);
	else {
		pl = jsschema_place_root(def->js);
		args = emit_members(tc, tc->tree.args, pl);
		jsschema_place_free(pl);
	}
	if (tc->opt.thread) {
		tc_puts(tc, ",\"toolCallId\":");
		buf_reset(&tc->tmp);
		/* the id the call came with, else one of ours */
		if (tc->call.cid.len > 0)
			buf_printf(&tc->tmp, "\"%s\"", buf_cstr(&tc->call.cid));
		else
			buf_printf(&tc->tmp, "\"call-%ld-%lu\"",
			    tc->opt.iteration, tc->ncalls + 1);
		buf_printf(&tc->tmp, ",\"iteration\":%ld", tc->opt.iteration);
		tc_put(tc, tc->tmp.data, tc->tmp.len);
		tc_puts(tc, ",\"serverName\":");
		if (tc->tree.sname != NONE &&
		    tc->tree.nodes[tc->tree.sname].vallen > 0)
			emit_value(tc, tc->tree.sname);
		else
			tc_puts(tc, "\"local\"");
	}
	tc_puts(tc, "}\n");
	return args;
}

/*
 * The call is whole: write it, unless its tool_name is missing, or, with
 * tool definitions, the tool is not defined or its arguments do not
 * match its schema.
 */
int
tc_emit_call(struct toolcall *tc)
{
	const struct tooldef *def = NULL;
	struct buf *sink;
	json_t *args;
	int r;

	if (tc->tree.tname == NONE ||
	    tc->tree.nodes[tc->tree.tname].vallen == 0) {
		tc_call_error(tc, tc->call.cpos, "tool-name",
		    "malformed tool call: <tool_name> is missing or empty");
		return 0;
	}
	/* a refused call's error event names its tool */
	buf_reset(&tc->call.ename);
	buf_add(&tc->call.ename,
	    tc->tree.arena.data + tc->tree.nodes[tc->tree.tname].val,
	    tc->tree.nodes[tc->tree.tname].vallen);
	tc->call.named = 1;
	if (tc->opt.tools != NULL && (def = call_tool(tc)) == NULL)
		return 0;
	if (def == NULL || def->js == NULL || tc->opt.no_validate) {
		put_call(tc, def);
		arena_renew(tc);
	} else {
		buf_reset(&tc->emit.rec);
		sink = tc->sink;
		tc->sink = &tc->emit.rec;
		tc->emit.build = 1;
		args = put_call(tc, def);
		tc->emit.build = 0;
		tc->sink = sink;
		r = call_valid(tc, def, args);
		json_decref(args);
		if (r != 0)
			return 0;
		tc_put(tc, tc->emit.rec.data, tc->emit.rec.len);
	}
	tc->ncalls++;
	tc->call.named = 0;
	buf_reset(&tc->call.cid);
	if (tc->opt.unbuffered)
		tc_flush(tc);
	return 1;
}
