/*
 * mcp_expand: the conventions of the editors' configuration files that
 * are text, not JSON: comments and trailing commas blanked out of JSON
 * with comments, byte for byte; the ${VAR}, ${VAR:-default}, ${env:VAR}
 * and ${workspaceFolder} of their values; the NAME=VALUE lines of a
 * dotenv file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "mcp/mcp.h"

/*
 * Blanks out, in place, the comments of JSON with comments (s, n bytes)
 * and each comma that ends an object or an array after a value, keeping
 * the newlines: every byte of what is left keeps its offset, and so its
 * line and column. A comment inside a string is text. Returns n, or the
 * offset of a comment that is never closed.
 */
size_t
mcp_jsonc_blank(char *s, size_t n)
{
	size_t i, j, last = n, before = n;	/* n: none yet */

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case ' ':
		case '\t':
		case '\n':
		case '\r':
			continue;
		case '"':
			for (j = i + 1; j < n && s[j] != '"'; j++)
				if (s[j] == '\\')
					j++;
			before = last;
			last = i;
			i = j < n ? j : n;
			continue;
		case '/':
			if (i + 1 < n && s[i + 1] == '/') {
				for (; i < n && s[i] != '\n'; i++)
					s[i] = ' ';
				continue;
			}
			if (i + 1 < n && s[i + 1] == '*') {
				for (j = i + 2; j + 1 < n && (s[j] != '*' ||
				    s[j + 1] != '/'); j++)
					continue;
				if (j + 1 >= n)
					return i;
				for (; i <= j + 1; i++)
					if (s[i] != '\n')
						s[i] = ' ';
				i--;
				continue;
			}
			break;
		case '}':
		case ']':
			if (last < n && s[last] == ',' && before < n &&
			    s[before] != ',' && s[before] != '[' &&
			    s[before] != '{')
				s[last] = ' ';
			break;
		default:
			break;
		}
		before = last;
		last = i;
	}
	return n;
}

/* Whether the n bytes at s are a variable's name: [A-Za-z_][A-Za-z0-9_]*. */
static int
var_name(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= 'a' && s[i] <= 'z') ||
		    (i > 0 && s[i] >= '0' && s[i] <= '9')))
			return 0;
	return n > 0;
}

/* The value of the variable named by the n bytes at s, or NULL. */
static const char *
var_get(const char *s, size_t n)
{
	char *name = xmemdup(s, n);
	const char *v = getenv(name);

	free(name);
	return v;
}

/*
 * The workspace folder of configuration file: the directory that holds
 * its .vscode or .cursor directory, else the current one; made absolute.
 * Returns 0, or -1 when the current directory cannot be known.
 */
static int
workspace(struct buf *out, const char *file)
{
	const char *slash, *dir;
	size_t dlen, plen;
	char *cwd;

	plen = 0;
	dir = NULL;
	if ((slash = strrchr(file, '/')) != NULL) {
		dlen = (size_t)(slash - file);
		for (dir = file + dlen; dir > file && dir[-1] != '/'; dir--)
			continue;
		if ((size_t)(file + dlen - dir) == 7 &&
		    (memcmp(dir, ".vscode", 7) == 0 ||
		    memcmp(dir, ".cursor", 7) == 0))
			plen = (size_t)(dir - file);
		else
			dir = NULL;
	}
	if (dir != NULL && *file == '/') {
		buf_add(out, file, plen > 1 ? plen - 1 : 1);
		return 0;
	}
	if ((cwd = getcwd(NULL, 0)) == NULL)
		return -1;
	buf_adds(out, cwd);
	free(cwd);
	if (dir != NULL && plen > 1) {
		buf_addc(out, '/');
		buf_add(out, file, plen - 1);
	}
	return 0;
}

/* Appends the n bytes at s to err as ${...} is written, escaped. */
static void
say_var(struct buf *err, const char *s, size_t n)
{
	buf_adds(err, "${");
	diag_escape(err, s, n, 0);
	buf_addc(err, '}');
}

/*
 * The value of ${body} (n bytes) for a server of file, appended to out.
 * Returns 0, or -1 with the fault in err.
 */
static int
expand_one(struct buf *out, const char *body, size_t n, const char *file,
    struct buf *err)
{
	const char *v, *dash;
	struct buf ws = BUF_INIT;
	size_t k;

	if (n == 15 && memcmp(body, "workspaceFolder", 15) == 0) {
		if (workspace(out, file) == 0)
			return 0;
		buf_printf(err, "${workspaceFolder}: the current directory "
		    "is unknown: %s", strerror(errno));
		return -1;
	}
	if (n == 23 && memcmp(body, "workspaceFolderBasename", 23) == 0) {
		if (workspace(&ws, file) != 0) {
			buf_printf(err, "${workspaceFolderBasename}: the "
			    "current directory is unknown: %s",
			    strerror(errno));
			return -1;
		}
		v = strrchr(buf_cstr(&ws), '/');
		buf_adds(out, v != NULL && v[1] != '\0' ? v + 1 : ws.data);
		buf_free(&ws);
		return 0;
	}
	if ((n == 13 && memcmp(body, "pathSeparator", 13) == 0) ||
	    (n == 1 && *body == '/')) {
		buf_addc(out, '/');
		return 0;
	}
	if (n == 8 && memcmp(body, "userHome", 8) == 0) {
		if ((v = getenv("HOME")) != NULL) {
			buf_adds(out, v);
			return 0;
		}
		buf_adds(err, "${userHome}: HOME is not set");
		return -1;
	}
	if (n > 4 && memcmp(body, "env:", 4) == 0 && var_name(body + 4,
	    n - 4)) {
		if ((v = var_get(body + 4, n - 4)) != NULL) {
			buf_adds(out, v);
			return 0;
		}
		say_var(err, body, n);
		buf_adds(err, " is not set");
		return -1;
	}
	if (n > 6 && memcmp(body, "input:", 6) == 0) {
		say_var(err, body, n);
		buf_adds(err, " is an input that VS Code asks the user for, "
		    "which mcp-run cannot do yet");
		return -1;
	}
	dash = memchr(body, ':', n);
	k = dash != NULL ? (size_t)(dash - body) : n;
	if (var_name(body, k) && (k == n || (k + 1 < n && body[k + 1] == '-'))) {
		v = var_get(body, k);
		if (k == n && v == NULL) {
			say_var(err, body, n);
			buf_adds(err, " is not set");
			return -1;
		}
		if (k < n && (v == NULL || *v == '\0'))
			buf_add(out, body + k + 2, n - k - 2);
		else
			buf_adds(out, v);
		return 0;
	}
	say_var(err, body, n);
	buf_adds(err, " is not a variable mcp-run knows");
	return -1;
}

/* Whether file is a Gemini CLI settings file, .gemini/settings.json. */
int
mcp_gemini_file(const char *file)
{
	size_t n = strlen(file);

	return (n == 21 || (n > 21 && file[n - 22] == '/')) &&
	    strcmp(file + n - 21, ".gemini/settings.json") == 0;
}

/*
 * Gemini CLI's $VAR at s ("$" and a name): its value appended to out,
 * and the bytes it takes; or 1 for a $ that is itself; or 0 with the
 * fault in err.
 */
static size_t
expand_bare(struct buf *out, const char *s, struct buf *err)
{
	const char *v;
	size_t n;

	for (n = 1; s[n] == '_' || (s[n] >= 'A' && s[n] <= 'Z') ||
	    (s[n] >= 'a' && s[n] <= 'z') || (n > 1 && s[n] >= '0' &&
	    s[n] <= '9'); n++)
		continue;
	if (n == 1) {
		buf_addc(out, '$');
		return 1;
	}
	if ((v = var_get(s + 1, n - 1)) == NULL) {
		buf_addc(err, '$');
		buf_add(err, s + 1, n - 1);
		buf_adds(err, " is not set");
		return 0;
	}
	buf_adds(out, v);
	return n;
}

/*
 * The string s with its ${VAR}, ${VAR:-default}, ${env:VAR} and the
 * editors' ${workspaceFolder}, ${workspaceFolderBasename}, ${userHome}
 * and ${pathSeparator} replaced, for a server of configuration file
 * (NULL for --server's); in Gemini CLI's settings, $VAR too, as it reads
 * them. Another $ that does not open ${ is itself. Returns 0 with the
 * result in out, or -1 with the fault in err.
 */
int
mcp_expand(struct buf *out, const char *s, const char *file,
    struct buf *err)
{
	const char *open, *close, *inner;
	int bare = file != NULL && mcp_gemini_file(file);
	size_t took;

	while ((open = bare ? strchr(s, '$') : strstr(s, "${")) != NULL) {
		buf_add(out, s, (size_t)(open - s));
		if (open[1] != '{') {
			if ((took = expand_bare(out, open, err)) == 0)
				return -1;
			s = open + took;
			continue;
		}
		if ((close = strchr(open + 2, '}')) == NULL) {
			buf_adds(err, "a \"${\" is not closed by a \"}\"");
			return -1;
		}
		inner = strstr(open + 2, "${");
		if (inner != NULL && inner < close) {
			buf_adds(err, "a ${...} inside ");
			say_var(err, open + 2, (size_t)(inner - open - 2));
			buf_adds(err, " is not expanded: write its value");
			return -1;
		}
		if (expand_one(out, open + 2, (size_t)(close - open - 2),
		    file != NULL ? file : "", err) != 0)
			return -1;
		s = close + 1;
	}
	buf_adds(out, s);
	return 0;
}

/*
 * Appends NAME=VALUE (name n bytes) to the NULL-ended list *v of *nv,
 * its room doubled as it grows; mcp_env_dedupe then keeps the last of
 * each name.
 */
void
mcp_env_add(char ***v, size_t *nv, const char *name, size_t n,
    const char *value)
{
	char *kv;

	kv = xmalloc(n + strlen(value) + 2);
	memcpy(kv, name, n);
	kv[n] = '=';
	strcpy(kv + n + 1, value);
	if (*nv == 0 || ((*nv + 1) & *nv) == 0)
		*v = xreallocarray(*v, 2 * (*nv + 1), sizeof(**v));
	(*v)[(*nv)++] = kv;
	(*v)[*nv] = NULL;
}

/* The entries of a list by name, then by place. */
static const char *const *by_env_list;

static int
by_env(const void *a, const void *b)
{
	const char *x = by_env_list[*(const size_t *)a];
	const char *y = by_env_list[*(const size_t *)b];
	size_t i;

	for (i = 0; x[i] == y[i] && x[i] != '='; i++)
		continue;
	if (x[i] == '=' && y[i] == '=')
		return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
	if (x[i] == '=')
		return -1;
	if (y[i] == '=')
		return 1;
	return (unsigned char)x[i] < (unsigned char)y[i] ? -1 : 1;
}

/* Whether entries x and y of a list set the same variable. */
static int
same_name(const char *x, const char *y)
{
	size_t i;

	for (i = 0; x[i] == y[i] && x[i] != '='; i++)
		continue;
	return x[i] == '=' && y[i] == '=';
}

/*
 * Keeps, of the entries of v (*nv) that set one variable, the last, in
 * a time that grows as n log n: a file may set many.
 */
void
mcp_env_dedupe(char **v, size_t *nv)
{
	size_t *ix, i, kept = 0;

	if (*nv < 2)
		return;
	ix = xcalloc(*nv, sizeof(*ix));
	for (i = 0; i < *nv; i++)
		ix[i] = i;
	by_env_list = (const char *const *)v;
	qsort(ix, *nv, sizeof(*ix), by_env);
	for (i = 0; i + 1 < *nv; i++)
		if (same_name(v[ix[i]], v[ix[i + 1]])) {
			free(v[ix[i]]);
			v[ix[i]] = NULL;
		}
	free(ix);
	for (i = 0; i < *nv; i++)
		if (v[i] != NULL)
			v[kept++] = v[i];
	v[kept] = NULL;
	*nv = kept;
}

/*
 * The variables of a dotenv file (text, len bytes) into *v: NAME=VALUE
 * lines, "export " before them allowed, # comments, a value in double
 * quotes (its \n, \" and \\ read) or single quotes (as it is), each
 * appended (see mcp_env_dedupe). Returns 0, or the number of the first
 * line that is none of these.
 */
unsigned long
mcp_dotenv(char ***v, size_t *nv, const char *text, size_t len)
{
	struct buf val = BUF_INIT;
	const char *p = text, *end = text + len, *eol, *name, *q;
	unsigned long line = 0;
	size_t n;

	for (; p < end; p = eol + 1) {
		line++;
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if (p == eol || *p == '#' || (*p == '\r' && p + 1 == eol))
			continue;
		if (eol - p > 7 && memcmp(p, "export ", 7) == 0)
			for (p += 7; *p == ' '; p++)
				continue;
		for (name = p; p < eol && *p != '=' && *p != ' '; p++)
			continue;
		n = (size_t)(p - name);
		while (p < eol && *p == ' ')
			p++;
		if (!var_name(name, n) || p == eol || *p != '=')
			goto bad;
		for (p++; p < eol && (*p == ' ' || *p == '\t'); p++)
			continue;
		buf_reset(&val);
		if (p < eol && (*p == '"' || *p == '\'')) {
			for (q = p + 1; q < eol && *q != *p; q++) {
				if (*p == '"' && *q == '\\' && q + 1 < eol) {
					q++;
					buf_addc(&val, *q == 'n' ? '\n' : *q);
				} else
					buf_addc(&val, *q);
			}
			if (q == eol)
				goto bad;
			for (q++; q < eol && (*q == ' ' || *q == '\t' ||
			    *q == '\r'); q++)
				continue;
			if (q < eol && *q != '#')
				goto bad;
		} else {
			for (q = p; q < eol && !(*q == '#' && (q == p ||
			    q[-1] == ' ' || q[-1] == '\t')); q++)
				continue;
			while (q > p && (q[-1] == ' ' || q[-1] == '\t' ||
			    q[-1] == '\r'))
				q--;
			buf_add(&val, p, (size_t)(q - p));
		}
		if (memchr(buf_cstr(&val), '\0', val.len) != NULL)
			goto bad;
		mcp_env_add(v, nv, name, n, buf_cstr(&val));
	}
	buf_free(&val);
	return 0;
bad:
	buf_free(&val);
	return line;
}
