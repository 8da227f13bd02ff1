/*
 * jsonresp_run: jsonresp-check's run over its operands, a document a
 * file or, with --lines, one a line; the names of its -o.
 */
#include <stdio.h>

#include "base/cmd.h"
#include "jsonresp/jsonresp.h"

/* The names of -o, for cmd_choice. */
const struct cmd_choice jsonresp_outputs[] = {
	{ "none", JSONRESP_OUT_NONE }, { "json", JSONRESP_OUT_JSON },
	{ "report", JSONRESP_OUT_REPORT }, { NULL, 0 }
};

/* An -o argument's output, or -1 when it names none. */
int
jsonresp_output_arg(const char *s)
{
	return cmd_choice_find(s, jsonresp_outputs);
}
