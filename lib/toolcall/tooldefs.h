/*
 * tooldefs: the definitions of the tools a model may call, read from the
 * forms agents already hold: an MCP tools/list result or its array of
 * tools, OpenAI Chat Completions tools, OpenAI Responses function tools
 * and Anthropic tools. Each tool's input schema is compiled once with
 * lib/jsschema (2020-12 when it names no "$schema", MCP's default). And
 * the system prompt that teaches a model seed 003's format for them.
 */
#ifndef LLMKIT_TOOLDEFS_H
#define LLMKIT_TOOLDEFS_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"

struct jsschema;

/*
 * A tool defined without an input schema has schema and js NULL: its
 * arguments keep the seed's heuristics, and the prompt does not describe
 * them.
 */
struct tooldef {
	char		*name;
	char		*description;	/* or NULL */
	json_t		*schema;	/* its input schema (a reference), or NULL */
	struct jsschema	*js;		/* compiled, or NULL with schema */
	const char	*file;		/* the path given to tooldefs_load */
	char		*server;	/* the server that listed it, quoted,
					   or NULL */
};

struct tooldefs {
	struct tooldef	*v;
	size_t		 n;
	json_t		*index;		/* name -> its place in v, or NULL */
	size_t		 cap;		/* v's room */
};

/*
 * Adds the tools the file path defines. 0, or -1 with a one-line message
 * in err (errlen bytes) that names the file, and the tool when the fault
 * is one tool's: a file in none of the forms, a tool without a name, a
 * name defined twice (byte for byte), a schema that does not compile;
 * but a tool that an MCP server listed (marked "llmkit/server" by
 * mcp-run --list-tools) is left out with a warning for each of these, so
 * that no server's tool refuses the others.
 * A tool a server may have sent to do harm is left out, with a warning
 * (diag_at) at its place that names it and its server: a name that is
 * empty or holds a control character, a schema that refers outside
 * itself and the regular files below the directory of path (symbolic
 * links resolved), which is never read. TOOLDEFS_TROUBLE, with the
 * message, when a schema's pattern needs PCRE2 and it cannot be loaded:
 * trouble, whoever listed the tool.
 */
#define TOOLDEFS_TROUBLE	(-2)
int		 tooldefs_load(struct tooldefs *, const char *path,
		    char *err, size_t errlen);
int		 tooldefs_load_text(struct tooldefs *, const char *name,
		    const char *text, size_t len, char *err, size_t errlen);
/* The tool named name (len bytes), or NULL. */
const struct tooldef *tooldefs_find(const struct tooldefs *,
		    const char *name, size_t len);
/* The names of all the tools, in the order given: "a, b, c". */
void		 tooldefs_names(const struct tooldefs *, struct buf *);
/*
 * The markups a prompt can teach, numbered as toolcall-parse's --format
 * numbers the ones it reads (TOOLCALL_FMT_ of lib/toolcall.h): seed
 * 003's <tool>, then each dialect of lib/tcdialect by its enum
 * tcd_dialect, the last of them the pythonic calls (read by lib/pylit).
 */
#define TOOLDEFS_TOOL		0
#define TOOLDEFS_PYTHONIC	10	/* TCD_PYTHONIC */
#define TOOLDEFS_NMARKUPS	11

/*
 * The system prompt that teaches markup (TOOLDEFS_TOOL, a TCD_ dialect
 * or TOOLDEFS_PYTHONIC) for these tools: how a call is written in it,
 * the rules of its values, each tool's parameters, and one example call
 * per tool made from its schema. The same definitions always give the
 * same bytes. It grows with the schemas, no faster: a schema used in
 * several places, or in itself, is described once under a name; it
 * reads no file (tooldefs_prompt.c). A tool whose name the markup cannot
 * hold is left out, with a warning. 0, or -1 for a markup it does not
 * know (nothing written).
 */
int		 tooldefs_prompt(const struct tooldefs *, int markup,
		    struct buf *);
/* The name --format gives markup ("tool", "qwen3", ...), or NULL. */
const char	*tooldefs_markup_name(int markup);
void		 tooldefs_free(struct tooldefs *);

#endif
