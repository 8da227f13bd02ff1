/*
 * jsschema_validate: a compiled schema applied to an instance.
 * jsschema_validate walks the nodes that jsschema_compile made, from the
 * root, down the value; a "$ref" is a pointer to its target's node, and
 * "$dynamicRef" and "$recursiveRef", where they are dynamic, look their
 * target up in the dynamic scope. "unevaluatedItems" and
 * "unevaluatedProperties" see what the keywords applied to the same value
 * evaluated (annotations).
 *
 * Errors: every failing keyword adds one error, with the instance
 * location, the keyword location along the evaluation path (".../$ref/
 * ..." through references) and a message. A failed anyOf or oneOf adds
 * its own error and then the errors of the closest branch only. The
 * closest branch is chosen in this order: a branch that rejects the
 * value's type right at this location is the farthest; then the branch
 * whose errors reach deepest into the instance (it matched more of the
 * structure); then the one with the fewest errors; then the first.
 * Validation stops after JSSCHEMA_MAX_ERRORS errors, or when schemas
 * nest JSSCHEMA_MAX_DEPTH deep.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/ptab.h"
#include "base/xalloc.h"
#include "schema/jsschema.h"
#include "schema/jsschema_int.h"
#include "schema/jsschema_vint.h"

/* ---- validation ---- */

/*
 * What is known of one node applied to one value: the verdict, and the
 * score of its errors (depth relative to the value's).
 */
struct memo {
	const struct node	*n;
	const json_t		*v;
	size_t			 ctx;
	struct ann		*ann;	/* what n evaluated of v, when valid */
	struct score		 sc;
	signed char		 verdict;	/* -1: not known yet */
	char			 scored;
};

/*
 * The value a "$ref" to a node is being applied to right now, and the
 * depth of that frame. The frames that apply references to one value are
 * together at the top of the stack, so one value per node is enough.
 */
struct busy {
	const json_t	*v;
	int		 depth;
};

struct ctxent {
	size_t		 up;
	size_t		 res;
};

static void
ann_init(struct ann *a, const json_t *v)
{
	memset(a, 0, sizeof(*a));
	a->n = json_is_array(v) ? json_array_size(v) : json_object_size(v);
}

static int
ann_has(const struct ann *a, size_t i)
{
	return a->all || i < a->prefix || (a->bits != NULL &&
	    (a->bits[i / 8] & (1u << (i % 8))));
}

static void
ann_merge(struct ann *to, const struct ann *from)
{
	size_t i;

	to->all |= from->all;
	if (from->prefix > to->prefix)
		to->prefix = from->prefix;
	if (from->bits == NULL || to->all)
		return;
	if (to->bits == NULL)
		to->bits = xcalloc(to->n / 8 + 1, 1);
	for (i = 0; i < to->n / 8 + 1; i++)
		to->bits[i] |= from->bits[i];
}

/*
 * The id of the dynamic scope ctx with the resource res pushed on it:
 * scopes are interned, so that the memo tells them apart.
 */
static size_t
ctx_push(struct vctx *c, size_t ctx, size_t res)
{
	size_t i, j, h;

	h = ptab_hash((void *)(uintptr_t)(ctx * 65599 + res + 1));
	if (c->ctxslots > 0)
		for (i = h & (c->ctxslots - 1); c->ctxslot[i] != 0;
		    i = (i + 1) & (c->ctxslots - 1)) {
			j = c->ctxslot[i] - 1;
			if (c->ctxv[j].up == ctx && c->ctxv[j].res == res)
				return j + 1;
		}
	if ((c->nctx + 1) * 2 > c->ctxslots) {
		free(c->ctxslot);
		c->ctxslots = c->ctxslots ? c->ctxslots * 2 : 16;
		c->ctxslot = xcalloc(c->ctxslots, sizeof(*c->ctxslot));
		for (j = 0; j < c->nctx; j++) {
			h = ptab_hash((void *)(uintptr_t)(c->ctxv[j].up *
			    65599 + c->ctxv[j].res + 1));
			for (i = h & (c->ctxslots - 1); c->ctxslot[i] != 0;
			    i = (i + 1) & (c->ctxslots - 1))
				;
			c->ctxslot[i] = j + 1;
		}
		h = ptab_hash((void *)(uintptr_t)(ctx * 65599 + res + 1));
	}
	if (c->nctx == c->ctxcap) {
		c->ctxcap = c->ctxcap ? c->ctxcap * 2 : 16;
		c->ctxv = xreallocarray(c->ctxv, c->ctxcap, sizeof(*c->ctxv));
	}
	c->ctxv[c->nctx].up = ctx;
	c->ctxv[c->nctx].res = res;
	for (i = h & (c->ctxslots - 1); c->ctxslot[i] != 0;
	    i = (i + 1) & (c->ctxslots - 1))
		;
	c->ctxslot[i] = ++c->nctx;
	return c->nctx;
}

/* Starts the message of an error; jss_err_push() takes it. */
struct buf *
jss_msg(struct vctx *c)
{
	buf_reset(&c->msg);
	return &c->msg;
}

static void	stop_here(struct vctx *, const struct ipath *,
		    const struct kpath *, const json_t *, int);

/* Does the keyword kp + seg end with "/type"? */
static int
ends_type(const struct kpath *kp, const char *seg)
{
	size_t n;

	/* "/type" holds one "/": it lies in the last segment */
	while (seg[0] == '\0' && kp != NULL) {
		seg = kp->seg;
		kp = kp->up;
	}
	n = strlen(seg);
	return n >= 5 && strcmp(seg + n - 5, "/type") == 0;
}

void
jss_err_push(struct vctx *c, const struct ipath *ip, const struct kpath *kp,
    const char *seg, const json_t *v)
{
	struct jsschema_error *e;
	unsigned d = ip != NULL ? (unsigned)ip->depth : 0;

	if (c->scoring) {
		if (c->sc.count < UINT_MAX)
			c->sc.count++;
		if (d > c->sc.depth)
			c->sc.depth = d;
		if (ends_type(kp, seg)) {
			c->sc.anytype = 1;
			if (v == c->scv)
				c->sc.typefail = 1;
		}
		return;
	}
	if (c->stop != NULL)
		return;
	if (c->n == JSSCHEMA_MAX_ERRORS) {
		stop_here(c, ip, kp, v, 1);
		return;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		c->e = xreallocarray(c->e, c->cap, sizeof(*c->e));
	}
	e = &c->e[c->n++];
	e->instance = jss_instance_location(ip);
	e->keyword = jss_keyword_location(kp, seg);
	e->message = xmemdup(buf_cstr(&c->msg), c->msg.len + 1);
	e->value = v;
}

static void
err_free(struct jsschema_error *e)
{
	free(e->instance);
	free(e->keyword);
	free(e->message);
}

static int validate(struct vctx *, const struct node *, const json_t *,
    const struct ipath *, const struct kpath *, struct ann *);

/*
 * The verdict alone, without errors; with a, what n evaluated is added
 * to *a when n holds (the annotations of a failing schema are dropped).
 */
int
jss_check(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	struct ann t;
	int r;

	c->quiet++;
	if (a == NULL)
		r = validate(c, n, v, ip, kp, NULL);
	else {
		ann_init(&t, v);
		r = validate(c, n, v, ip, kp, &t);
		if (r == 0)
			ann_merge(a, &t);
		free(t.bits);
	}
	c->quiet--;
	return r;
}

/* Applies ch to v: a member of the value (a NULL), or the value itself. */
int
jss_v_child(struct vctx *c, const struct child *ch, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	struct kpath k;

	k.up = kp;
	k.seg = ch->seg;
	return validate(c, ch->n, v, ip, &k, a);
}

static int
score_better(const struct score *a, const struct score *b)
{
	if (a->typefail != b->typefail)
		return a->typefail < b->typefail;
	if (a->depth != b->depth)
		return a->depth > b->depth;
	return a->count < b->count;
}

/*
 * Adds score f of errors about value v (at instance depth d, and f's
 * depth relative to d when rel) to the score being counted.
 */
static void
score_add(struct vctx *c, const struct score *f, const json_t *v, size_t d,
    int rel)
{
	unsigned depth = rel ? (unsigned)d + f->depth : f->depth;

	if (f->count == 0)
		return;
	c->sc.count = f->count > UINT_MAX - c->sc.count ? UINT_MAX :
	    c->sc.count + f->count;
	if (depth > c->sc.depth)
		c->sc.depth = depth;
	c->sc.anytype |= f->anytype;
	if (v == c->scv && f->typefail)
		c->sc.typefail = 1;
}

/* The score of the errors branch ch would give value v, counted only. */
static void
branch_score(struct vctx *c, const struct child *ch, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct score *out)
{
	struct score saved = c->sc;
	const json_t *savedv = c->scv;

	memset(&c->sc, 0, sizeof(c->sc));
	c->scv = v;
	c->scoring++;
	jss_v_child(c, ch, v, ip, kp, NULL);
	c->scoring--;
	*out = c->sc;
	c->sc = saved;
	c->scv = savedv;
}

/*
 * Appends the errors of the closest of the n branches (all failing): the
 * branches are scored first, and only the closest one makes its errors.
 */
static void
closest_branch(struct vctx *c, const struct child *br, size_t n,
    const json_t *v, const struct ipath *ip, const struct kpath *kp)
{
	struct score best, s;
	size_t i, bi = 0;

	memset(&best, 0, sizeof(best));
	for (i = 0; i < n && c->stop == NULL; i++) {
		branch_score(c, &br[i], v, ip, kp, &s);
		if (i == 0 || score_better(&s, &best)) {
			best = s;
			bi = i;
		}
	}
	if (c->stop != NULL)
		return;
	if (c->scoring)
		score_add(c, &best, v, 0, 0);
	else
		jss_v_child(c, &br[bi], v, ip, kp, NULL);
}

static struct memo *memo_find(const struct vctx *, const struct node *,
		    const json_t *);
static size_t	memo_get(struct vctx *, const struct node *, const json_t *);

/* An array or object with members: what a full run remembers as valid. */
static int
container(const json_t *v)
{
	return (json_is_array(v) && json_array_size(v) > 0) ||
	    (json_is_object(v) && json_object_size(v) > 0);
}

/*
 * Only a reference brings a node to a value by two paths (allOf of two
 * references to one schema, at every level of the value): a full run
 * remembers here that the target accepts an array or object, and does
 * not walk it again (unless it is to collect what the target evaluates).
 * The target is t, the keyword seg ("/$ref", "/$dynamicRef", ...).
 */
static int
v_ref(struct vctx *c, const struct node *t, const char *seg, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	struct busy *b, old;
	struct kpath k;
	struct memo *e;
	struct ann own, *use;
	size_t mi;
	int r, bad = 0, full = !c->quiet && !c->scoring && container(v);

	if (c->busy == NULL)
		c->busy = xcalloc(c->js->nnodes, sizeof(*c->busy));
	b = &c->busy[t->id];
	if (b->v == v) {
		/* what this gives depends on that frame being under way */
		if (b->depth < c->taint)
			c->taint = b->depth;
		FAIL();
		buf_printf(jss_msg(c), "%s loops back to a schema already "
		    "applied to this value", seg + 1);
		jss_err_push(c, ip, kp, seg, v);
		return bad;
	}
	if (full && (e = memo_find(c, t, v)) != NULL && e->verdict == 0 &&
	    (a == NULL || e->ann != NULL)) {
		if (a != NULL)
			ann_merge(a, e->ann);
		return 0;
	}
	old = *b;
	b->v = v;
	b->depth = c->depth + 1;
	k.up = kp;
	k.seg = seg;
	use = a;
	if (full && a != NULL) {
		ann_init(&own, v);
		use = &own;
	}
	r = validate(c, t, v, ip, &k, use);
	c->busy[t->id] = old;
	if (use == &own)
		ann_merge(a, &own);
	/* not from a loop back below: validate() has reset taint */
	if (full && r == 0 && c->taint > c->depth && c->stop == NULL) {
		mi = memo_get(c, t, v);
		c->memo[mi].verdict = 0;
		if (use == &own && c->memo[mi].ann == NULL) {
			c->memo[mi].ann = xmalloc(sizeof(own));
			*c->memo[mi].ann = own;
			own.bits = NULL;
		}
	}
	if (use == &own)
		free(own.bits);
	return r;
}

/*
 * "$dynamicRef" and "$recursiveRef": when dynamic, the target is the
 * schema of the outermost resource in the dynamic scope that declares
 * the anchor; else the one it resolves to.
 */
static int
v_dynref(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	const struct jsschema *js = c->js;
	const struct node *t = n->dref;
	size_t i, j;

	for (i = 0; n->dname != NULL && i < c->nscope; i++)
		for (j = 0; j < js->ndyn; j++)
			if (js->dyn[j].node->res == c->scope[i] &&
			    strcmp(js->dyn[j].name, n->dname) == 0) {
				t = js->dyn[j].node;
				goto found;
			}
found:
	return v_ref(c, t, n->dseg, v, ip, kp, a);
}

/* The names of "type" as the schema gives them: "a, b or c". */
static void
type_list(struct buf *m, const json_t *t)
{
	size_t i, n;

	if (json_is_string(t)) {
		buf_adds(m, json_string_value(t));
		return;
	}
	n = json_array_size(t);
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_adds(m, i + 1 == n ? " or " : ", ");
		buf_adds(m, json_string_value(json_array_get(t, i)));
	}
}

static size_t
memo_hash(const struct node *n, const json_t *v, size_t ctx)
{
	return ptab_hash(n) ^ (ptab_hash(v) * 31) ^
	    (ctx * 0x9e3779b97f4a7c15ULL);
}

/* The memo of (n, v), or NULL. */
static struct memo *
memo_find(const struct vctx *c, const struct node *n, const json_t *v)
{
	struct memo *e;
	size_t i;

	if (c->mcap > 0)
		for (i = memo_hash(n, v, c->ctx) & (c->mcap - 1);
		    c->mslot[i] != 0; i = (i + 1) & (c->mcap - 1)) {
			e = &c->memo[c->mslot[i] - 1];
			if (e->n == n && e->v == v && e->ctx == c->ctx)
				return e;
		}
	return NULL;
}

/* The index of the memo of (n, v), made when there is none. */
static size_t
memo_get(struct vctx *c, const struct node *n, const json_t *v)
{
	struct memo *e;
	size_t i, j;

	if ((e = memo_find(c, n, v)) != NULL)
		return (size_t)(e - c->memo);
	if ((c->nmemo + 1) * 2 > c->mcap) {
		free(c->mslot);
		c->mcap = c->mcap ? c->mcap * 2 : 64;
		c->mslot = xcalloc(c->mcap, sizeof(*c->mslot));
		for (j = 0; j < c->nmemo; j++) {
			for (i = memo_hash(c->memo[j].n, c->memo[j].v,
			    c->memo[j].ctx) & (c->mcap - 1); c->mslot[i] != 0;
			    i = (i + 1) & (c->mcap - 1))
				;
			c->mslot[i] = j + 1;
		}
	}
	if (c->nmemo == c->memocap) {
		c->memocap = c->memocap ? c->memocap * 2 : 64;
		c->memo = xreallocarray(c->memo, c->memocap, sizeof(*c->memo));
	}
	e = &c->memo[c->nmemo];
	memset(e, 0, sizeof(*e));
	e->n = n;
	e->v = v;
	e->ctx = c->ctx;
	e->verdict = -1;
	for (i = memo_hash(n, v, c->ctx) & (c->mcap - 1); c->mslot[i] != 0;
	    i = (i + 1) & (c->mcap - 1))
		;
	c->mslot[i] = ++c->nmemo;
	return c->nmemo - 1;
}

/*
 * Validation has gone JSSCHEMA_MAX_DEPTH deep, or found the error after
 * the JSSCHEMA_MAX_ERRORS-th (toomany): it stops, with this error.
 */
static void
stop_here(struct vctx *c, const struct ipath *ip, const struct kpath *kp,
    const json_t *v, int toomany)
{
	struct jsschema_error *e;
	struct buf b = BUF_INIT;

	if (toomany)
		buf_printf(&b, "more than %d errors; validation stopped here",
		    JSSCHEMA_MAX_ERRORS);
	else
		buf_printf(&b, "schemas applied one inside another nest more "
		    "than %d deep (through $ref, allOf, items, ... and down "
		    "the value); validation stopped here", JSSCHEMA_MAX_DEPTH);
	c->keep_errors = toomany;
	e = xcalloc(1, sizeof(*e));
	e->instance = jss_instance_location(ip);
	e->keyword = jss_keyword_location(kp, "");
	e->message = buf_cstr(&b);
	e->value = v;
	c->stop = e;
}

static int	validate_node(struct vctx *, const struct node *,
		    const json_t *, const struct ipath *, const struct kpath *,
		    struct ann *);

/*
 * Applies node n to value v, JSSCHEMA_MAX_DEPTH calls deep at the most.
 * Verdicts and scores are remembered, unless they came from a "$ref"
 * loop back to a frame below this one (then they hold only while that
 * frame is under way). A full run makes its errors every time (but see
 * v_ref()).
 */
static int
validate(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	struct score outer;
	const json_t *outerv;
	struct buf *m;
	struct memo *e;
	struct ann own, *use;
	size_t mi = 0, ctx = c->ctx;
	int r, d, memo, push;

	if (n->kind == NODE_TRUE)
		return 0;
	if (n->kind == NODE_FALSE) {
		if (c->quiet)
			return 1;
		m = jss_msg(c);
		buf_adds(m, "no value is allowed here (the schema is false), "
		    "found ");
		jss_describe(m, v);
		jss_err_push(c, ip, kp, "", v);
		return 1;
	}
	if (c->stop != NULL)
		return 1;
	if (c->depth == JSSCHEMA_MAX_DEPTH) {
		stop_here(c, ip, kp, v, 0);
		return 1;
	}
	/*
	 * Only a "$ref" brings a node to a value by more than one path, or
	 * without end down the value: its targets are remembered, and
	 * every other node is reached once per target's frame and mode.
	 */
	memo = (c->quiet || c->scoring) && n->target && !n->leaf &&
	    (a == NULL || c->quiet);
	if (memo) {
		mi = memo_get(c, n, v);
		e = &c->memo[mi];
		if (c->quiet && e->verdict != -1 && (a == NULL ||
		    e->verdict != 0 || e->ann != NULL)) {
			if (a != NULL && e->verdict == 0)
				ann_merge(a, e->ann);
			return e->verdict;
		}
		if (!c->quiet && c->memo[mi].scored) {
			score_add(c, &c->memo[mi].sc, v,
			    ip != NULL ? ip->depth : 0, 1);
			return c->memo[mi].verdict;
		}
	}
	outer = c->sc;
	outerv = c->scv;
	if (c->scoring && !c->quiet) {
		memset(&c->sc, 0, sizeof(c->sc));
		c->scv = v;
	}
	/* a resource with dynamic anchors enters the dynamic scope once */
	push = c->js->resdyn != NULL && c->js->resdyn[n->res] &&
	    !c->onscope[n->res];
	if (push) {
		if (c->nscope == c->capscope) {
			c->capscope = c->capscope ? c->capscope * 2 : 8;
			c->scope = xreallocarray(c->scope, c->capscope,
			    sizeof(*c->scope));
		}
		c->scope[c->nscope++] = n->res;
		c->onscope[n->res] = 1;
		c->ctx = ctx_push(c, ctx, n->res);
	}
	/* what it evaluates is remembered too, apart from the rest of a */
	use = a;
	if (memo && a != NULL) {
		ann_init(&own, v);
		use = &own;
	}
	d = ++c->depth;
	r = validate_node(c, n, v, ip, kp, use);
	c->depth--;
	if (use == &own && r == 0)
		ann_merge(a, &own);
	if (push) {
		c->nscope--;
		c->onscope[n->res] = 0;
		c->ctx = ctx;
	}
	if (c->taint >= d) {
		c->taint = INT_MAX;
		if (memo && c->stop == NULL) {
			c->memo[mi].verdict = r;
			if (use == &own && r == 0 && c->memo[mi].ann == NULL) {
				/* its bits go with it */
				c->memo[mi].ann = xmalloc(sizeof(own));
				*c->memo[mi].ann = own;
				own.bits = NULL;
			}
			if (!c->quiet) {
				c->memo[mi].sc = c->sc;
				if (c->sc.count > 0)
					c->memo[mi].sc.depth -= ip != NULL ?
					    (unsigned)ip->depth : 0;
				c->memo[mi].scored = 1;
			}
		}
	}
	if (c->scoring && !c->quiet) {
		struct score f = c->sc;

		c->sc = outer;
		c->scv = outerv;
		score_add(c, &f, v, 0, 0);
	}
	if (use == &own)
		free(own.bits);
	return r;
}

/* "unevaluatedItems" and "unevaluatedProperties", after the rest. */
static int
v_unevaluated(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	const struct child *ch = json_is_array(v) ? &n->uitems : &n->uprops;
	struct ipath ci;
	struct buf *m;
	const char *key;
	json_t *jv;
	size_t i;
	int bad = 0;

	if (ch->n == NULL)
		return 0;
	ci.up = ip;
	ci.key = NULL;
	ci.depth = (ip != NULL ? ip->depth : 0) + 1;
	if (json_is_array(v)) {
		for (i = a->prefix; !a->all && i < json_array_size(v); i++) {
			if (ann_has(a, i))
				continue;
			ci.idx = i;
			jv = json_array_get(v, i);
			if (ch->n->kind != NODE_FALSE) {
				SUB(jss_v_child(c, ch, jv, &ci, kp, NULL));
				continue;
			}
			FAIL();
			buf_printf(jss_msg(c), "unexpected item %zu: no "
			    "subschema evaluates it (unevaluatedItems)", i);
			jss_err_push(c, &ci, kp, ch->seg, jv);
		}
	} else if (!a->all) {
		i = 0;
		json_object_foreach((json_t *)v, key, jv) {
			if (ann_has(a, i++))
				continue;
			ci.key = key;
			if (ch->n->kind != NODE_FALSE) {
				SUB(jss_v_child(c, ch, jv, &ci, kp, NULL));
				continue;
			}
			FAIL();
			m = jss_msg(c);
			buf_adds(m, "unexpected property ");
			jss_str_text(m, key, strlen(key));
			buf_adds(m, ": no subschema evaluates it "
			    "(unevaluatedProperties)");
			jss_err_push(c, &ci, kp, ch->seg, jv);
		}
	}
	a->all = 1;
	return bad;
}

static int	v_keywords(struct vctx *, const struct node *, const json_t *,
		    const struct ipath *, const struct kpath *, struct ann *);

/*
 * Applies the keywords of n to v. What they evaluate of an array or
 * object is collected in *a when the schema around asks (a is not NULL),
 * or when n has "unevaluatedItems" or "unevaluatedProperties".
 */
static int
validate_node(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	struct ann own;
	int r;

	if (n->refonly)
		return v_ref(c, n->ref, "/$ref", v, ip, kp, a);
	if (!json_is_array(v) && !json_is_object(v))
		a = NULL;
	else if ((json_is_array(v) ? n->uitems.n : n->uprops.n) != NULL) {
		/* its own: what the schema around evaluated does not count */
		ann_init(&own, v);
		r = v_keywords(c, n, v, ip, kp, &own);
		if (a != NULL)
			ann_merge(a, &own);
		free(own.bits);
		return r;
	}
	return v_keywords(c, n, v, ip, kp, a);
}

static int
v_keywords(struct vctx *c, const struct node *n, const json_t *v,
    const struct ipath *ip, const struct kpath *kp, struct ann *a)
{
	unsigned t;
	struct buf *m;
	struct ann first, br;
	size_t i, nvalid;
	int bad = 0, have;

	if (n->ref != NULL)
		SUB(v_ref(c, n->ref, "/$ref", v, ip, kp, a));
	if (n->dref != NULL)
		SUB(v_dynref(c, n, v, ip, kp, a));
	t = jss_inst_type(v);
	if (n->types != 0 && (n->types & t) == 0) {
		FAIL();
		m = jss_msg(c);
		buf_adds(m, "expected ");
		type_list(m, n->typev);
		buf_adds(m, ", found ");
		jss_describe(m, v);
		jss_err_push(c, ip, kp, "/type", v);
	}
	if (n->enumv != NULL) {
		if (jss_vset_find(n->enumset, v, jss_json_hash(v)) == -1) {
			FAIL();
			m = jss_msg(c);
			buf_adds(m, "expected one of ");
			jss_json_text(m, n->enumv);
			buf_adds(m, ", found ");
			jss_describe(m, v);
			jss_err_push(c, ip, kp, "/enum", v);
		}
	}
	if (n->constv != NULL && !jss_json_equal(n->constv, v)) {
		FAIL();
		m = jss_msg(c);
		buf_adds(m, "expected ");
		jss_json_text(m, n->constv);
		buf_adds(m, " (const), found ");
		jss_describe(m, v);
		jss_err_push(c, ip, kp, "/const", v);
	}
	if (t & T_NUMBER)
		SUB(jss_v_number(c, n, v, ip, kp));
	else if (t == T_STRING)
		SUB(jss_v_string(c, n, v, ip, kp));
	else if (t == T_ARRAY)
		SUB(jss_v_array(c, n, v, ip, kp, a));
	else if (t == T_OBJECT)
		SUB(jss_v_object(c, n, v, ip, kp, a));
	for (i = 0; i < n->nallof; i++)
		SUB(jss_v_child(c, &n->allof[i], v, ip, kp, a));
	if (n->nanyof > 0) {
		struct kpath k = { kp, NULL };

		/* every branch, when what they evaluate is asked for */
		for (i = 0, nvalid = 0; i < n->nanyof; i++) {
			k.seg = n->anyof[i].seg;
			if (jss_check(c, n->anyof[i].n, v, ip, &k, a) == 0 &&
			    nvalid++ == 0 && a == NULL)
				break;
		}
		if (nvalid == 0) {
			FAIL();
			m = jss_msg(c);
			buf_printf(m, "value matches none of the %zu schemas "
			    "of \"anyOf\" (found ", n->nanyof);
			jss_describe(m, v);
			buf_adds(m, "); the closest one says:");
			jss_err_push(c, ip, kp, "/anyOf", v);
			closest_branch(c, n->anyof, n->nanyof, v, ip, kp);
		}
	}
	if (n->noneof > 0) {
		struct kpath k = { kp, NULL };
		struct buf list = BUF_INIT;

		nvalid = 0;
		have = 0;
		for (i = 0; i < n->noneof; i++) {
			k.seg = n->oneof[i].seg;
			if (a != NULL)
				ann_init(&br, v);
			if (jss_check(c, n->oneof[i].n, v, ip, &k,
			    a != NULL ? &br : NULL) != 0) {
				if (a != NULL)
					free(br.bits);
				continue;
			}
			if (a != NULL && !have) {
				first = br;
				have = 1;
			} else if (a != NULL)
				free(br.bits);
			if (++nvalid > 1 && c->quiet)
				break;
			if (!c->quiet)
				buf_printf(&list, "%s%zu", nvalid > 1 ? ", " :
				    "", i);
		}
		if (have) {
			if (nvalid == 1)
				ann_merge(a, &first);
			free(first.bits);
		}
		if (nvalid == 0) {
			FAIL();
			m = jss_msg(c);
			buf_printf(m, "value matches none of the %zu schemas "
			    "of \"oneOf\" (found ", n->noneof);
			jss_describe(m, v);
			buf_adds(m, "); the closest one says:");
			jss_err_push(c, ip, kp, "/oneOf", v);
			closest_branch(c, n->oneof, n->noneof, v, ip, kp);
		} else if (nvalid > 1) {
			if (c->quiet) {
				buf_free(&list);
				return 1;
			}
			bad = 1;
			m = jss_msg(c);
			buf_printf(m, "value matches %zu of the schemas of "
			    "\"oneOf\" (%s), but must match exactly one",
			    nvalid, buf_cstr(&list));
			jss_err_push(c, ip, kp, "/oneOf", v);
		}
		buf_free(&list);
	}
	if (n->nots.n != NULL) {
		struct kpath k = { kp, n->nots.seg };

		if (jss_check(c, n->nots.n, v, ip, &k, NULL) == 0) {
			FAIL();
			m = jss_msg(c);
			buf_adds(m, "value must not match the schema of \"not\""
			    ", found ");
			jss_describe(m, v);
			jss_err_push(c, ip, kp, "/not", v);
		}
	}
	if (n->ifs.n != NULL) {
		struct kpath k = { kp, n->ifs.seg };

		if (jss_check(c, n->ifs.n, v, ip, &k, a) == 0) {
			if (n->thens.n != NULL)
				SUB(jss_v_child(c, &n->thens, v, ip, kp, a));
		} else if (n->elses.n != NULL)
			SUB(jss_v_child(c, &n->elses, v, ip, kp, a));
	}
	if (a != NULL)
		SUB(v_unevaluated(c, n, v, ip, kp, a));
	return bad;
}

int
jsschema_validate(const struct jsschema *js, const json_t *instance,
    struct jsschema_result *res)
{
	return jsschema_validate_notes(js, instance, res, NULL);
}

int
jsschema_validate_notes(const struct jsschema *js, const json_t *instance,
    struct jsschema_result *res, struct jsschema_result *notes)
{
	struct vctx c;
	size_t i;

	memset(&c, 0, sizeof(c));
	if (notes != NULL) {
		notes->errors = NULL;
		notes->nerrors = 0;
	}
	c.notes = notes;
	c.js = js;
	c.taint = INT_MAX;
	if (js->resdyn != NULL)
		c.onscope = xcalloc(js->nres + 1, 1);
	validate(&c, js->root, instance, NULL, NULL, NULL);
	if (c.stop != NULL) {
		/* deep: the errors so far may be half of what they would be */
		while (!c.keep_errors && c.n > 0)
			err_free(&c.e[--c.n]);
		c.e = xreallocarray(c.e, c.n + 1, sizeof(*c.e));
		c.e[c.n++] = *c.stop;
		free(c.stop);
	}
	for (i = 0; i < c.nmemo; i++)
		if (c.memo[i].ann != NULL) {
			free(c.memo[i].ann->bits);
			free(c.memo[i].ann);
		}
	for (i = 0; i < c.nkeep; i++)
		json_decref(c.keep[i]);
	free(c.keep);
	free(c.memo);
	free(c.mslot);
	free(c.busy);
	free(c.scope);
	free(c.onscope);
	free(c.ctxv);
	free(c.ctxslot);
	buf_free(&c.msg);
	res->errors = c.e;
	res->nerrors = c.n;
	if (c.n == 0) {
		free(c.e);
		res->errors = NULL;
		return 0;
	}
	return c.trouble ? -1 : 1;
}

void
jsschema_result_free(struct jsschema_result *res)
{
	size_t i;

	if (res == NULL)
		return;
	for (i = 0; i < res->nerrors; i++)
		err_free(&res->errors[i]);
	free(res->errors);
	res->errors = NULL;
	res->nerrors = 0;
}
