/*
 * jsschema_vint: what jsschema_validate.c (the walk of the nodes, the
 * errors, the references) and jsschema_vtype.c (the keywords that apply
 * to one type of instance) share and no other file of lib/schema sees:
 * the context of a validation, what the keywords applied to a value
 * evaluated, and the functions the keywords of one type take from the
 * walk. Names shared between the two files begin with jss_.
 */
#ifndef LLMKIT_JSSCHEMA_VINT_H
#define LLMKIT_JSSCHEMA_VINT_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"
#include "schema/jsschema.h"
#include "schema/jsschema_int.h"

/* Known to jsschema_validate.c alone. */
struct memo;
struct busy;
struct ctxent;

/*
 * How close a failing branch of anyOf or oneOf comes (see the top of
 * jsschema_validate.c): what its errors would be, without the errors.
 */
struct score {
	unsigned	 count;		/* errors */
	unsigned	 depth;		/* the deepest error's location */
	char		 typefail;	/* "type" fails on the value itself */
	char		 anytype;	/* some error comes from a "type" */
};

/*
 * Three modes: full (errors made), quiet (> 0: the verdict alone) and
 * scoring (> 0, not quiet: errors counted into sc, none made). Quiet
 * and scoring results are remembered per (node, value), so that anyOf
 * and oneOf cost each pair once, however many branches reach it.
 */
struct vctx {
	const struct jsschema	*js;
	int			 quiet;
	int			 scoring;
	struct score		 sc;
	const json_t		*scv;	/* the value sc.typefail is about */
	struct jsschema_error	*e;
	size_t			 n, cap;
	struct memo		*memo;
	size_t			 nmemo, memocap, *mslot, mcap;
	int			 depth;	/* validate() calls under way */
	int			 taint;	/* depth of the frame a loop went back to */
	struct jsschema_error	*stop;	/* a limit was reached */
	int			 trouble;	/* stop: a format was not known */
	int			 keep_errors;	/* those before stop hold */
	json_t			**keep;	/* property names, alive as memo keys */
	size_t			 nkeep, capkeep;
	struct busy		*busy;	/* by node id, made when first needed */
	struct buf		 msg;
	struct jsschema_result	*notes;	/* annotations that fail, or NULL */
	size_t			 notecap;
	/*
	 * The dynamic scope: the resources that declare dynamic anchors,
	 * outermost first, each once; and its id (ctx), for the memo.
	 */
	size_t			*scope;
	size_t			 nscope, capscope;
	unsigned char		*onscope;	/* by resource */
	size_t			 ctx;
	struct ctxent		*ctxv;	/* ctx - 1 -> (up, res) */
	size_t			 nctx, ctxcap, *ctxslot, ctxslots;
};

/*
 * What the keywords applied to one array or object evaluated, for
 * "unevaluatedItems" and "unevaluatedProperties": every member (all),
 * the first items (prefix), or members by index (bits; an object's in
 * the order json_object_foreach gives).
 */
struct ann {
	size_t		 n;
	int		 all;
	size_t		 prefix;
	unsigned char	*bits;
};

/*
 * In a function that returns 1 as soon as it fails when quiet, and
 * otherwise gathers its errors into bad: SUB(the verdict of a part),
 * FAIL() where it fails itself.
 */
#define SUB(x) do {							\
	if (x) {							\
		if (c->quiet)						\
			return 1;					\
		bad = 1;						\
	}								\
} while (0)

#define FAIL() do {							\
	if (c->quiet)							\
		return 1;						\
	bad = 1;							\
} while (0)

/* jsschema_validate.c: errors, and schemas applied inside the value. */
struct buf	*jss_msg(struct vctx *);
void		 jss_err_push(struct vctx *, const struct ipath *,
		    const struct kpath *, const char *, const json_t *);
int		 jss_check(struct vctx *, const struct node *, const json_t *,
		    const struct ipath *, const struct kpath *, struct ann *);
int		 jss_v_child(struct vctx *, const struct child *,
		    const json_t *, const struct ipath *, const struct kpath *,
		    struct ann *);

/* jsschema_vtype.c: the keywords of numbers, strings, arrays, objects. */
int		 jss_v_number(struct vctx *, const struct node *,
		    const json_t *, const struct ipath *,
		    const struct kpath *);
int		 jss_v_string(struct vctx *, const struct node *,
		    const json_t *, const struct ipath *,
		    const struct kpath *);
int		 jss_v_array(struct vctx *, const struct node *,
		    const json_t *, const struct ipath *,
		    const struct kpath *, struct ann *);
int		 jss_v_object(struct vctx *, const struct node *,
		    const json_t *, const struct ipath *,
		    const struct kpath *, struct ann *);

#endif
