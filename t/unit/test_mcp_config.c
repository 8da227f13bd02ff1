/*
 * Unit tests of lib/mcp/mcp_config: JSON with comments blanked out byte
 * for byte, the ${...} of the editors expanded (and each way it fails),
 * and what each editor's form in t/data/mcp/ declares: the transport,
 * URL, headers, command, environment, directory and time limit of every
 * server, the reason an entry cannot be used, and the disabled ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/diag.h"
#include "mcp/mcp.h"
#include "unit.h"

#define DIR	"t/data/mcp/"

/* The strings the tests made, kept to the end (unit_fmt's is shared). */
static char	*kept[256];
static size_t	 nkept;

static char *
keep(const char *s, size_t n)
{
	char *t = malloc(n + 1);

	if (t == NULL || nkept == sizeof(kept) / sizeof(kept[0]))
		unit_bail("keep");
	memcpy(t, s, n);
	t[n] = '\0';
	return kept[nkept++] = t;
}

/* s with its comments and closing commas blanked, as a new string. */
static const char *
blank(const char *s, size_t *at)
{
	char *t = keep(s, strlen(s));

	*at = mcp_jsonc_blank(t, strlen(t));
	return t;
}

static void
test_jsonc(void)
{
	size_t at;

	unit_str(blank("{\"a\": 1, // one\n\"b\": [2, 3,],}", &at),
	    "{\"a\": 1,       \n\"b\": [2, 3 ] }", "a line comment, and "
	    "the commas that close an array and an object");
	unit_long((long)at, 30, "nothing left open");
	unit_str(blank("/* a\nb */[\"/* x */\", \"// y\", \"\\\"//\"]", &at),
	    "    \n    [\"/* x */\", \"// y\", \"\\\"//\"]",
	    "a block comment keeps its newline; in a string, text");
	unit_str(blank("[1, /* c */ 2]", &at), "[1,         2]",
	    "a comma before a comment and a value is kept");
	unit_str(blank("[1 /* c */ , ]", &at), "[1           ]",
	    "a comma after a comment closes the array");
	unit_str(blank("[1,\n// c\n]", &at), "[1 \n    \n]",
	    "a comma before a comment and a newline closes the array");
	unit_str(blank("[,] {,} [1,,]", &at), "[,] {,} [1,,]",
	    "a comma after no value is not blanked: the parser says so");
	unit_str(blank("{\"a\": 1} /* never", &at), "{\"a\": 1} /* never",
	    "a comment never closed");
	unit_long((long)at, 9, "is said at its start");
	unit_str(blank("[\"a\\\\\", 1,]", &at), "[\"a\\\\\", 1 ]",
	    "a string that ends in an escaped backslash");
	unit_str(blank("1 / 2", &at), "1 / 2", "a lone slash is left");
}

/* dotenv text, read and deduplicated, joined by "|"; or "!LINE". */
static const char *
dotenv(const char *text)
{
	struct buf b = BUF_INIT;
	char **v = NULL;
	size_t i, n = 0;
	unsigned long bad;
	const char *r;

	if ((bad = mcp_dotenv(&v, &n, text, strlen(text))) != 0)
		buf_printf(&b, "!%lu", bad);
	else
		mcp_env_dedupe(v, &n);
	for (i = 0; i < n; i++) {
		if (i > 0 && bad == 0)
			buf_addc(&b, '|');
		if (bad == 0)
			buf_adds(&b, v[i]);
		free(v[i]);
	}
	free(v);
	r = keep(buf_cstr(&b), b.len);
	buf_free(&b);
	return r;
}

static void
test_dotenv(void)
{
	unit_str(dotenv("# c\n\nA=1\nexport B = two words  # c\r\n"
	    "C=\"q \\\"x\\\" \\n\" # c\nD='$E \\n'\nA=3\nE=\nF=a#b\n"),
	    "B=two words|C=q \"x\" \n|D=$E \\n|A=3|E=|F=a#b",
	    "comments, export, both quotes; the last A kept, in its place");
	unit_str(dotenv("A=1\n B\n"), "!2", "a line without =");
	unit_str(dotenv("1A=x\n"), "!1", "a name that is none");
	unit_str(dotenv("A=\"open\n"), "!1", "a quote not closed");
	unit_str(dotenv("A=\"x\" y\n"), "!1", "text after a quote");
	unit_str(dotenv(""), "", "an empty file");
}

/* s expanded for file: the result, or "!" and the fault. */
static const char *
expand(const char *s, const char *file)
{
	struct buf out = BUF_INIT, err = BUF_INIT;
	const char *r;

	if (mcp_expand(&out, s, file, &err) == 0)
		r = keep(buf_cstr(&out), out.len);
	else {
		buf_printf(&out, "!%s", buf_cstr(&err));
		r = keep(out.data + (out.len - err.len - 1), err.len + 1);
	}
	buf_free(&out);
	buf_free(&err);
	return r;
}

static void
test_expand(void)
{
	char *cwd = getcwd(NULL, 0), want[4096];

	setenv("MCP_T_SET", "v", 1);
	setenv("MCP_T_EMPTY", "", 1);
	unsetenv("MCP_T_UNSET");
	unit_str(expand("a${MCP_T_SET}b${env:MCP_T_SET}", NULL), "avbv",
	    "${VAR} and ${env:VAR}");
	unit_str(expand("${MCP_T_UNSET:-d e}|${MCP_T_EMPTY:-f}|"
	    "${MCP_T_SET:-g}|${MCP_T_UNSET:-}", NULL), "d e|f|v|",
	    "${VAR:-default}: the default when unset or empty");
	unit_str(expand("${MCP_T_EMPTY}", NULL), "", "a variable set empty");
	unit_str(expand("$HOME $ $$ {x} $(y)", NULL), "$HOME $ $$ {x} $(y)",
	    "a $ that opens no ${ is itself");
	unit_str(expand("${MCP_T_UNSET}", NULL), "!${MCP_T_UNSET} is not set",
	    "an unset variable");
	unit_str(expand("${env:MCP_T_UNSET}", NULL),
	    "!${env:MCP_T_UNSET} is not set", "an unset ${env:}");
	unit_str(expand("x ${input:api-key}", NULL), "!${input:api-key} is an "
	    "input that VS Code asks the user for, which mcp-run cannot do "
	    "yet", "an input of VS Code");
	unit_str(expand("${config:editor.x}", NULL), "!${config:editor.x} is "
	    "not a variable mcp-run knows", "another of VS Code's");
	unit_str(expand("${MCP_T_SET-x}", NULL), "!${MCP_T_SET-x} is not a "
	    "variable mcp-run knows", "a shell form the editors do not have");
	unit_str(expand("${}", NULL), "!${} is not a variable mcp-run knows",
	    "an empty one");
	unit_str(expand("a ${MCP_T_SET", NULL), "!a \"${\" is not closed by a "
	    "\"}\"", "one not closed");
	unit_str(expand("${MCP_T_UNSET:-${MCP_T_SET}}", NULL), "!a ${...} "
	    "inside ${MCP_T_UNSET:-} is not expanded: write its value",
	    "one inside a default");
	unit_str(expand("${x\n}", NULL), "!${x\\n} is not a variable mcp-run "
	    "knows", "said on one line");
	unit_str(expand("${pathSeparator}${/}", NULL), "//", "the separator");
	unit_str(expand("$MCP_T_SET-$MCP_T_SETx", "/h/.gemini/settings.json"),
	    "!$MCP_T_SETx is not set", "Gemini's $VAR, in its file, its name "
	    "as long as it goes");
	unit_str(expand("$MCP_T_SET $ $1 ${MCP_T_SET}$", ".gemini/settings.json"),
	    "v $ $1 v$", "a $ that opens no name is itself");
	unit_str(expand("$MCP_T_UNSET", ".gemini/settings.json"),
	    "!$MCP_T_UNSET is not set", "an unset one");
	unit_str(expand("$MCP_T_SET", "x.gemini/settings.json"), "$MCP_T_SET",
	    "in another file, $VAR is itself");
	unit_str(expand("${userHome}", NULL), getenv("HOME"), "${userHome}");
	unit_str(expand("${workspaceFolder}", "mcp.json"), cwd,
	    "the workspace of a file of the current directory");
	snprintf(want, sizeof(want), "%s/p", cwd);
	unit_str(expand("${workspaceFolder}", "p/.vscode/mcp.json"), want,
	    "of p/.vscode/mcp.json: p");
	unit_str(expand("${workspaceFolder}", ".cursor/mcp.json"), cwd,
	    "of .cursor/mcp.json: here");
	unit_str(expand("${workspaceFolder}", "/w/x/.vscode/mcp.json"), "/w/x",
	    "of an absolute path");
	unit_str(expand("${workspaceFolder}", "/.vscode/mcp.json"), "/",
	    "of /.vscode/mcp.json: the root");
	unit_str(expand("${workspaceFolder}", "/w/vscode/mcp.json"), cwd,
	    "another directory is no workspace's");
	unit_str(expand("${workspaceFolderBasename}", "/w/x/.vscode/m.json"),
	    "x", "its base name");
	free(cwd);
}

/* Loads file of t/data/mcp; 0 or -1, its diagnostics in *err. */
static int
load(struct mcp *m, const char *file, const char **err)
{
	int rc;

	unit_capture_begin();
	rc = mcp_config_file(m, file);
	*err = unit_capture_end();
	mcp_sort(m);
	return rc;
}

/* The strings of v joined by "|". */
static const char *
joined(char **v)
{
	struct buf b = BUF_INIT;
	const char *r;
	size_t i;

	for (i = 0; v != NULL && v[i] != NULL; i++) {
		if (i > 0)
			buf_addc(&b, '|');
		buf_adds(&b, v[i]);
	}
	r = keep(buf_cstr(&b), b.len);
	buf_free(&b);
	return r;
}

static void
test_forms(void)
{
	struct mcp m;
	struct mcp_server *s;
	const char *err;
	char want[4096];

	setenv("EVERYTHING", "/e.js", 1);
	unsetenv("NODE");
	unsetenv("API_KEY");
	setenv("GITHUB_TOKEN", "ghp", 1);
	mcp_init(&m);
	unit_long(load(&m, DIR "claude-desktop.json", &err), 0, "Claude "
	    "Desktop's");
	unit_str(err, "", "silently");
	s = mcp_find(&m, "everything");
	unit_ok(s != NULL && s->transport == MCP_STDIO, "a stdio server");
	unit_str(joined(s->argv), "node|/e.js|stdio", "its command");
	unit_str(joined(s->env), "GREETING=hello from Claude Desktop",
	    "its environment");
	mcp_free(&m);

	mcp_init(&m);
	unit_long(load(&m, DIR "claude-code.mcp.json", &err), 0, "Claude "
	    "Code's .mcp.json");
	s = mcp_find(&m, "everything");
	unit_str(joined(s->argv), "node|/e.js|stdio", "${NODE:-node}");
	unit_str(joined(s->env), "API_KEY=none", "${API_KEY:-none}");
	s = mcp_find(&m, "github");
	unit_ok(s->transport == MCP_HTTP && s->argv == NULL, "type http");
	unit_str(s->url, "https://api.githubcopilot.com/mcp/", "its url");
	unit_str(joined(s->headers), "Authorization: Bearer ghp",
	    "its headers, expanded");
	s = mcp_find(&m, "sentry");
	unit_ok(s->transport == MCP_SSE && s->headers == NULL, "type sse");
	unit_str(s->url, "https://mcp.sentry.dev/sse", "its url");
	mcp_free(&m);

	mcp_init(&m);
	unit_long(load(&m, DIR "vscode-mcp.json", &err), 0, "VS Code's, with "
	    "comments and trailing commas");
	unit_str(err, "", "silently");
	s = mcp_find(&m, "everything");
	unit_ok(s->unusable != NULL && strncmp(s->unusable, "everything: "
	    DIR "vscode-mcp.json:17:18: envFile /", 48) == 0 &&
	    strstr(s->unusable, "/.env: No such file or directory") != NULL,
	    "an envFile that is not there makes its server unusable");
	s = mcp_find(&m, "perplexity");
	unit_str(s->unusable, "perplexity: " DIR "vscode-mcp.json:24:31: env "
	    "\"PERPLEXITY_API_KEY\": ${input:perplexity-key} is an input that "
	    "VS Code asks the user for, which mcp-run cannot do yet",
	    "an input, at its place");
	s = mcp_find(&m, "github");
	unit_ok(s->transport == MCP_HTTP && s->unusable == NULL, "type http");
	mcp_free(&m);

	unsetenv("LINEAR_API_KEY");
	mcp_init(&m);
	unit_long(load(&m, DIR "cursor.json", &err), 0, "Cursor's");
	s = mcp_find(&m, "everything");
	unit_str(joined(s->argv), "node|/e.js|stdio", "${env:EVERYTHING}");
	snprintf(want, sizeof(want), "HOME_SEEN=%s", getenv("HOME"));
	unit_str(joined(s->env), want, "${userHome}");
	s = mcp_find(&m, "linear");
	unit_ok(s->transport == MCP_HTTP, "a url alone is HTTP");
	unit_str(s->unusable, "linear: " DIR "cursor.json:13:26: header "
	    "\"Authorization\": ${env:LINEAR_API_KEY} is not set", "a header "
	    "of a variable not set");
	mcp_free(&m);

	setenv("CONTEXT7_API_KEY", "c7", 1);
	mcp_init(&m);
	unit_long(load(&m, DIR "windsurf.json", &err), 0, "Windsurf's");
	s = mcp_find(&m, "context7");
	unit_ok(s->transport == MCP_HTTP, "serverUrl");
	unit_str(s->url, "https://mcp.context7.com/mcp", "is the url");
	unit_str(joined(s->headers), "CONTEXT7_API_KEY: c7", "its header");
	unit_ok(mcp_find(&m, "retired") == NULL, "a disabled server is put "
	    "apart");
	unit_str(mcp_disabled(&m, "retired"), DIR "windsurf.json", "and "
	    "known as disabled in its file");
	unit_ok(mcp_disabled(&m, "everything") == NULL, "another is not");
	unit_ok(mcp_disabled(&m, "nope") == NULL, "nor an unknown name");
	mcp_free(&m);

	mcp_init(&m);
	unit_long(load(&m, DIR "gemini-settings.json", &err), 0, "Gemini "
	    "CLI's");
	s = mcp_find(&m, "everything");
	unit_str(s->cwd, "/", "cwd");
	unit_ok(s->timeout == 30.0, "timeout 30000 ms: 30 s");
	s = mcp_find(&m, "remote");
	unit_ok(s->transport == MCP_HTTP && s->timeout == 5.0, "httpUrl");
	unit_str(joined(s->headers), "Authorization: Bearer anonymous",
	    "its header");
	s = mcp_find(&m, "legacy");
	unit_ok(s->transport == MCP_HTTP, "url, in a file not of Gemini's "
	    "place, is Streamable HTTP as the others read it");
	mcp_free(&m);

	mcp_init(&m);
	unit_long(load(&m, DIR "zed-settings.json", &err), 0, "Zed's");
	s = mcp_find(&m, "everything");
	unit_str(joined(s->argv), "node|/e.js|stdio", "the newer form");
	unit_ok(s->env == NULL, "no environment");
	s = mcp_find(&m, "everything-old");
	unit_str(joined(s->argv), "node|/e.js|stdio", "the older form");
	unit_str(joined(s->env), "GREETING=hello from an older Zed",
	    "its environment");
	s = mcp_find(&m, "remote");
	unit_ok(s->transport == MCP_HTTP, "a remote one");
	s = mcp_find(&m, "github");
	unit_str(s->unusable, "github: " DIR "zed-settings.json:28:15: a "
	    "server of a Zed extension, which mcp-run cannot start: give "
	    "\"command\"", "an extension's");
	unit_str(mcp_disabled(&m, "off"), DIR "zed-settings.json",
	    "\"enabled\": false");
	mcp_free(&m);
}

/* Gemini CLI's "url" is the HTTP+SSE transport in its own file. */
static void
test_gemini_place(void)
{
	static const char text[] = "{\"mcpServers\": {\"s\": {\"url\": "
	    "\"http://x/sse\"}, \"h\": {\"httpUrl\": \"http://x/mcp\"}}}";
	struct mcp m;
	const char *err;

	mcp_init(&m);
	unit_capture_begin();
	unit_long(mcp_config_load(&m, "/h/.gemini/settings.json", text,
	    strlen(text)), 0, ".gemini/settings.json");
	err = unit_capture_end();
	unit_str(err, "", "silently");
	unit_ok(mcp_find(&m, "s")->transport == MCP_SSE, "its url is SSE");
	unit_ok(mcp_find(&m, "h")->transport == MCP_HTTP, "its httpUrl HTTP");
	mcp_free(&m);
}

/* --server NAME=URL. */
static void
test_server_url(void)
{
	struct mcp m;
	char err[128];

	mcp_init(&m);
	unit_long(mcp_server_arg(&m, "r=HTTPS://h/mcp", err, sizeof(err)), 0,
	    "--server NAME=URL");
	unit_ok(m.v[0].transport == MCP_HTTP && m.v[0].argv == NULL,
	    "a remote server");
	unit_str(m.v[0].url, "HTTPS://h/mcp", "at the URL");
	unit_long(mcp_server_arg(&m, "s=http://h/ x", err, sizeof(err)), -1,
	    "a URL and more");
	unit_str(err, "--server: the URL \"http://h/ x\" holds a blank",
	    "is refused");
	unit_long(mcp_server_arg(&m, "t=httpd -p 80", err, sizeof(err)), 0,
	    "a command that begins with http");
	unit_str(m.v[1].argv[0], "httpd", "is a command");
	mcp_free(&m);
}

int
main(int argc, char *argv[])
{
	diag_setprogname("test_mcp_config");
	test_jsonc();
	test_expand();
	test_dotenv();
	test_forms();
	test_gemini_place();
	test_server_url();
	while (nkept > 0)
		free(kept[--nkept]);
	unit_free();
	return unit_done();
}
