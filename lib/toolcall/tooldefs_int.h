/*
 * tooldefs_int: what the parts of the prompt share and no caller of
 * tooldefs.h sees: the walk of one tool's schema, its nodes and their
 * views; and the table of the markups a prompt teaches.
 * tooldefs_prompt.c walks the schema, writes the description and holds
 * the table; tooldefs_example.c makes the example call and writes it in
 * each markup.
 */
#ifndef LLMKIT_TOOLDEFS_INT_H
#define LLMKIT_TOOLDEFS_INT_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/ptab.h"
#include "toolcall/tooldefs.h"

/* How deep the lists of properties and the example values nest. */
#define MAX_NEST	32
/* The most items an example array is given, whatever its minItems. */
#define MAX_ITEMS	16
/* The budgets of a tool: BUDGET_BASE bytes and so many per schema byte. */
#define BUDGET_BASE	65536
#define BUDGET_DESC	32
#define BUDGET_EXAMPLE	64
/* What an element of the example costs beyond its text, at the most. */
#define ELEMENT_COST	80

/* The keywords a view is asked for. */
enum kwi {
	K_TYPE, K_ENUM, K_CONST, K_DEFAULT, K_DESCRIPTION, K_ITEMS,
	K_PREFIXITEMS, K_ANYOF, K_ONEOF, K_PROPERTIES, K_FORMAT,
	K_MINLENGTH, K_MAXLENGTH, K_MINIMUM, K_EXCLUSIVEMINIMUM, K_MAXIMUM,
	K_EXCLUSIVEMAXIMUM, K_MINITEMS, K_EXAMPLES, K_PATTERN, NKW
};

/* The states of a value worked out once. */
#define NOT_YET		0
#define BUSY		1
#define DONE		2

/* What the prompt knows of one schema object of a tool. */
struct node {
	const json_t	*s;
	const char	*uri;		/* the document it stands in */
	const char	*key;		/* the name it stands under */
	unsigned	 indeg;		/* the places that expand it */
	int		 walked;
	const json_t	*ref;		/* where its "$ref" leads */
	unsigned char	 refstate;
	unsigned char	 kst[NKW];
	const json_t	*kv[NKW];	/* its view */
	unsigned	 mark;		/* tooldefs_props' visit */
	unsigned char	 lstate;
	char		*label;
	unsigned char	 named;
	int		 reentered;
	char		*name;
	unsigned char	 nstate;
	const json_t	*nest;		/* what nested() found */
	int		 listing;
	unsigned char	 exstate;
	json_t		*ex;		/* its example value */
};

/*
 * One tool's walk: its schema, its base URI, the nodes of its schema and
 * of the documents its references lead to, the names given and the types
 * to describe, in order.
 */
struct walk {
	const struct tooldef *d;
	const json_t	*root;
	const json_t	*top;		/* what the root stands for */
	const char	*base;
	struct ptab	 nodes;		/* json_t * -> its node */
	struct node	**order;	/* the nodes as they were made */
	size_t		 norder;
	json_t		*uris;		/* the documents' URIs */
	json_t		*names;		/* the names given */
	struct node	**queue;	/* the types to describe */
	size_t		 nqueue;
	unsigned	 gen;
	size_t		 weight;	/* the schema's size in bytes */
	size_t		 stop;		/* the description's end */
	int		 over;
	size_t		 exleft;	/* what the example may make */
	int		 exover;
};

/* One property of an object schema: its name, schema and requiredness. */
struct prop {
	const char	*name;
	const json_t	*schema;
	int		 required;
};

struct props {
	struct prop	*v;
	size_t		 n;
	json_t		*index;		/* name -> place in v */
};

struct node	*tooldefs_node(struct walk *, const json_t *);
const json_t	*tooldefs_kw(struct walk *, const json_t *, enum kwi);
const json_t	*tooldefs_canon(struct walk *, const json_t *);
const json_t	*tooldefs_branches(struct walk *, const json_t *);
void		 tooldefs_props(struct walk *, const json_t *,
		    struct props *);
void		 tooldefs_props_free(struct props *);

/* How a raw-text dialect lays out the newlines around a value. */
enum layout {
	LAYOUT_RAW,		/* none: the value is read as it is */
	LAYOUT_ALWAYS,		/* one on each side, always */
	LAYOUT_NEEDED		/* one on each side, when the value needs */
};

/*
 * A markup the prompt teaches, as one entry of the table: the name
 * --format gives it, the rules that begin its prompt, why a tool's name
 * (or, with key, a parameter's) cannot be written in it (NULL when it
 * can), and the writer of a call in it. A writer that is shared reads
 * the strings it puts between the parts of a call from the entry: open,
 * the name, mid, the arguments, close; in the dialects of raw-text
 * values each parameter as kopen, its name, kmid, its value, kclose.
 * Adding a markup is an entry, and a writer where none fits.
 */
struct markup {
	const char	*name;
	const char	*rules;
	const char	*(*fault)(const struct markup *, const char *, int);
	void		(*write)(struct buf *, const struct markup *,
			    const char *, const json_t *);
	const char	*open, *mid, *close;
	const char	*kopen, *kmid, *kclose;
	enum layout	 layout;
	int		 quoted;	/* names in " or ' (an attribute) */
	int		 jsonname;	/* the name a JSON string */
	const char *const *markups;	/* what a raw value cannot hold */
};

const char	*tooldefs_fault(const struct markup *, const char *, int);
const char	*tooldefs_fault_tool(const struct markup *, const char *, int);
const char	*tooldefs_fault_raw(const struct markup *, const char *, int);
const char	*tooldefs_fault_harmony(const struct markup *, const char *,
		    int);
const char	*tooldefs_fault_deepseek(const struct markup *, const char *,
		    int);
const char	*tooldefs_fault_mistral(const struct markup *, const char *,
		    int);
const char	*tooldefs_fault_kimi(const struct markup *, const char *, int);
const char	*tooldefs_fault_python(const struct markup *, const char *,
		    int);
void		 tooldefs_write_tool(struct buf *, const struct markup *,
		    const char *, const json_t *);
void		 tooldefs_write_raw(struct buf *, const struct markup *,
		    const char *, const json_t *);
void		 tooldefs_write_json(struct buf *, const struct markup *,
		    const char *, const json_t *);
void		 tooldefs_write_python(struct buf *, const struct markup *,
		    const char *, const json_t *);

void		 tooldefs_xml_text(struct buf *, const char *, size_t);
void		 tooldefs_example(struct buf *, struct walk *,
		    const struct tooldef *, const struct markup *);

#endif
