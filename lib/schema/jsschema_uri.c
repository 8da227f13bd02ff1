/*
 * jsschema_uri: the URIs and JSON Pointers of a schema. RFC 3986
 * resolution of a reference against a base, file: URIs to and from
 * local paths, and JSON Pointers (RFC 6901): those of a "$ref"'s
 * fragment, and those of the places an error names in the schema and
 * in the instance.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/num.h"
#include "base/xalloc.h"
#include "schema/jsschema.h"
#include "schema/jsschema_int.h"

/* ---- URIs (RFC 3986, section 5) ---- */

struct upart {
	const char	*p;
	size_t		 n;
	int		 has;
};

struct uri {
	struct upart	 scheme, auth, path, query, frag;
};

static void
uri_parse(const char *s, struct uri *u)
{
	const char *p = s, *q;

	memset(u, 0, sizeof(*u));
	for (q = s; isalnum((unsigned char)*q) || *q == '+' || *q == '-' ||
	    *q == '.'; q++)
		;
	if (*q == ':' && q > s && isalpha((unsigned char)*s)) {
		u->scheme.p = s;
		u->scheme.n = (size_t)(q - s);
		u->scheme.has = 1;
		p = q + 1;
	}
	if (p[0] == '/' && p[1] == '/') {
		p += 2;
		q = p + strcspn(p, "/?#");
		u->auth.p = p;
		u->auth.n = (size_t)(q - p);
		u->auth.has = 1;
		p = q;
	}
	q = p + strcspn(p, "?#");
	u->path.p = p;
	u->path.n = (size_t)(q - p);
	u->path.has = 1;
	p = q;
	if (*p == '?') {
		q = p + 1 + strcspn(p + 1, "#");
		u->query.p = p + 1;
		u->query.n = (size_t)(q - p - 1);
		u->query.has = 1;
		p = q;
	}
	if (*p == '#') {
		u->frag.p = p + 1;
		u->frag.n = strlen(p + 1);
		u->frag.has = 1;
	}
}

static void
pop_segment(struct buf *out)
{
	while (out->len > 0 && out->data[out->len - 1] != '/')
		out->len--;
	if (out->len > 0)
		out->len--;
}

/* RFC 3986, 5.2.4: remove_dot_segments, from s (n bytes) onto out. */
static void
remove_dots(const char *in, size_t n, struct buf *out)
{
	size_t i = 0, j, r;
	const char *s;

	while (i < n) {
		s = in + i;
		r = n - i;
		if (r >= 3 && memcmp(s, "../", 3) == 0)
			i += 3;
		else if (r >= 2 && memcmp(s, "./", 2) == 0)
			i += 2;
		else if (r >= 3 && memcmp(s, "/./", 3) == 0)
			i += 2;
		else if (r == 2 && memcmp(s, "/.", 2) == 0) {
			buf_addc(out, '/');
			i += 2;
		} else if (r >= 4 && memcmp(s, "/../", 4) == 0) {
			pop_segment(out);
			i += 3;
		} else if (r == 3 && memcmp(s, "/..", 3) == 0) {
			pop_segment(out);
			buf_addc(out, '/');
			i += 3;
		} else if ((r == 1 && s[0] == '.') ||
		    (r == 2 && memcmp(s, "..", 2) == 0))
			i = n;
		else {
			j = s[0] == '/' ? 1 : 0;
			while (j < r && s[j] != '/')
				j++;
			buf_add(out, s, j);
			i += j;
		}
	}
}

/*
 * Appends s (n bytes) to out with every byte that a URI's path may not
 * hold as it is (RFC 3986, 3.3: a space, a non-ASCII byte, "%" ...)
 * percent-encoded. With escapes, a "%XX" already there stays, in upper
 * case, and "?" too.
 */
static void
uri_encode(struct buf *out, const char *s, size_t n, int escapes)
{
	static const char hex[] = "0123456789ABCDEF";
	unsigned char c;
	size_t i;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (escapes && c == '%' && i + 2 < n &&
		    num_hexval(s[i + 1]) >= 0 && num_hexval(s[i + 2]) >= 0) {
			buf_addc(out, '%');
			buf_addc(out, hex[num_hexval(s[i + 1])]);
			buf_addc(out, hex[num_hexval(s[i + 2])]);
			i += 2;
		} else if ((c < 0x80 && isalnum(c)) ||
		    (c != '\0' && strchr("-._~!$&'()*+,;=:@/", c) != NULL) ||
		    (escapes && c == '?'))
			buf_addc(out, (char)c);
		else {
			buf_addc(out, '%');
			buf_addc(out, hex[c >> 4]);
			buf_addc(out, hex[c & 15]);
		}
	}
}

/*
 * A file: URI with what a path may not hold percent-encoded (a "$ref"
 * that names a file as "my schema.json"), so that one file has one URI;
 * the fragment is left as it is. Takes b, returns its string.
 */
static char *
file_norm(struct buf *b)
{
	struct buf out = BUF_INIT;
	size_t n;

	buf_cstr(b);
	n = strcspn(b->data, "#");
	uri_encode(&out, b->data, n, 1);
	buf_adds(&out, b->data + n);
	buf_free(b);
	return buf_cstr(&out);
}

/* RFC 3986, 5.2.2: ref resolved against base, a new string. */
char *
jsschema_uri_resolve(const char *base, const char *ref)
{
	struct uri b, r;
	const struct upart *scheme, *auth, *query;
	struct buf out = BUF_INIT, path = BUF_INIT;
	const char *slash;
	size_t i;

	uri_parse(base, &b);
	uri_parse(ref, &r);
	if (r.scheme.has) {
		scheme = &r.scheme;
		auth = &r.auth;
		remove_dots(r.path.p, r.path.n, &path);
		query = &r.query;
	} else {
		scheme = &b.scheme;
		if (r.auth.has) {
			auth = &r.auth;
			remove_dots(r.path.p, r.path.n, &path);
			query = &r.query;
		} else {
			auth = &b.auth;
			if (r.path.n == 0) {
				buf_add(&path, b.path.p, b.path.n);
				query = r.query.has ? &r.query : &b.query;
			} else {
				struct buf m = BUF_INIT;

				if (r.path.p[0] == '/')
					buf_add(&m, r.path.p, r.path.n);
				else if (b.auth.has && b.path.n == 0) {
					buf_addc(&m, '/');
					buf_add(&m, r.path.p, r.path.n);
				} else {
					slash = NULL;
					for (i = b.path.n; i > 0; i--)
						if (b.path.p[i - 1] == '/') {
							slash = b.path.p + i -
							    1;
							break;
						}
					if (slash != NULL)
						buf_add(&m, b.path.p,
						    (size_t)(slash - b.path.p)
						    + 1);
					buf_add(&m, r.path.p, r.path.n);
				}
				remove_dots(m.data, m.len, &path);
				buf_free(&m);
				query = &r.query;
			}
		}
	}
	if (scheme->has) {
		buf_add(&out, scheme->p, scheme->n);
		buf_addc(&out, ':');
	}
	if (auth->has) {
		buf_adds(&out, "//");
		buf_add(&out, auth->p, auth->n);
	}
	buf_add(&out, path.data, path.len);
	if (query->has) {
		buf_addc(&out, '?');
		buf_add(&out, query->p, query->n);
	}
	if (r.frag.has) {
		buf_addc(&out, '#');
		buf_add(&out, r.frag.p, r.frag.n);
	}
	buf_free(&path);
	if (scheme->has && scheme->n == 4 &&
	    strncasecmp(scheme->p, "file", 4) == 0)
		return file_norm(&out);
	return buf_cstr(&out);
}

char *
jsschema_file_uri(const char *path)
{
	struct buf abs = BUF_INIT, enc = BUF_INIT, out = BUF_INIT;
	size_t size;

	if (path[0] != '/') {
		for (size = 256;; size *= 2) {
			buf_reserve(&abs, size);
			if (getcwd(abs.data, abs.cap) != NULL)
				break;
			if (errno != ERANGE) {
				buf_free(&abs);
				return NULL;
			}
		}
		abs.len = strlen(abs.data);
		buf_addc(&abs, '/');
	}
	buf_adds(&abs, path);
	uri_encode(&enc, abs.data, abs.len, 0);
	buf_adds(&out, "file://");
	remove_dots(enc.data, enc.len, &out);
	buf_free(&abs);
	buf_free(&enc);
	return buf_cstr(&out);
}

/*
 * The local file that a file: URI (without fragment) names, decoded into
 * path: its host empty or "localhost", no query, no NUL. -1 if none.
 */
int
jss_file_uri_path(const char *uri, struct buf *path)
{
	struct uri u;
	size_t i;
	int h, l;

	uri_parse(uri, &u);
	if (u.auth.has && u.auth.n != 0 && (u.auth.n != 9 ||
	    strncasecmp(u.auth.p, "localhost", 9) != 0))
		return -1;
	if (u.query.has || u.path.n == 0 || u.path.p[0] != '/')
		return -1;
	for (i = 0; i < u.path.n; i++) {
		if (u.path.p[i] == '%' && i + 2 < u.path.n &&
		    (h = num_hexval(u.path.p[i + 1])) >= 0 &&
		    (l = num_hexval(u.path.p[i + 2])) >= 0) {
			if (h == 0 && l == 0)
				return -1;
			buf_addc(path, (char)(h * 16 + l));
			i += 2;
		} else
			buf_addc(path, u.path.p[i]);
	}
	buf_cstr(path);
	return 0;
}

/* An empty fragment names the same resource as none: drop it. */
char *
jss_drop_empty_frag(char *s)
{
	size_t n = strlen(s);

	if (n > 0 && s[n - 1] == '#' && strchr(s, '#') == s + n - 1)
		s[n - 1] = '\0';
	return s;
}

/* ---- JSON Pointers (RFC 6901) ---- */

/* s, n bytes, as a JSON Pointer token: "~" as "~0", "/" as "~1". */
void
jss_pointer_escape(struct buf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '~')
			buf_adds(b, "~0");
		else if (s[i] == '/')
			buf_adds(b, "~1");
		else
			buf_addc(b, s[i]);
	}
}

/* Walks the JSON Pointer p (URI-escaped, as in a fragment) from s. */
const json_t *
jss_pointer_walk(const json_t *s, const char *frag)
{
	struct buf dec = BUF_INIT, tok = BUF_INIT;
	const char *p;
	size_t i;
	char *end, c;
	unsigned long long idx;
	int h, l;

	for (p = frag; *p != '\0'; p++) {
		if (*p == '%' && (h = num_hexval(p[1])) >= 0 &&
		    (l = num_hexval(p[2])) >= 0) {
			buf_addc(&dec, (char)(h * 16 + l));
			p += 2;
		} else
			buf_addc(&dec, *p);
	}
	buf_cstr(&dec);
	i = 0;
	while (s != NULL && i < dec.len) {
		/* dec.data[i] is '/' */
		i++;
		buf_reset(&tok);
		while (i < dec.len && dec.data[i] != '/') {
			c = i + 1 < dec.len ? dec.data[i + 1] : '\0';
			if (dec.data[i] == '~' && (c == '0' || c == '1')) {
				buf_addc(&tok, c == '0' ? '~' : '/');
				i += 2;
			} else
				buf_addc(&tok, dec.data[i++]);
		}
		buf_cstr(&tok);
		if (json_is_object(s))
			s = json_object_getn(s, tok.data, tok.len);
		else if (json_is_array(s)) {
			if (tok.len == 0 || !isdigit((unsigned char)tok.data[0])
			    || (tok.len > 1 && tok.data[0] == '0'))
				s = NULL;
			else {
				idx = strtoull(tok.data, &end, 10);
				s = *end == '\0' && idx < json_array_size(s) ?
				    json_array_get(s, (size_t)idx) : NULL;
			}
		} else
			s = NULL;
	}
	buf_free(&dec);
	buf_free(&tok);
	return s;
}

/* The keyword's location: the segments of kp, outermost first, and last. */
char *
jss_keyword_location(const struct kpath *kp, const char *last)
{
	const struct kpath *k;
	struct buf b = BUF_INIT;
	const char **v;
	size_t n = 0, i;

	for (k = kp; k != NULL; k = k->up)
		n++;
	v = xreallocarray(NULL, n + 1, sizeof(*v));
	i = n;
	for (k = kp; k != NULL; k = k->up)
		v[--i] = k->seg;
	for (i = 0; i < n; i++)
		buf_adds(&b, v[i]);
	buf_adds(&b, last);
	free(v);
	return buf_cstr(&b);
}

/* The JSON Pointer of an instance location, "" for the root. */
char *
jss_instance_location(const struct ipath *ip)
{
	const struct ipath *p, **v;
	struct buf b = BUF_INIT;
	size_t n = 0, i;

	for (p = ip; p != NULL; p = p->up)
		n++;
	v = xreallocarray(NULL, n + 1, sizeof(*v));
	i = n;
	for (p = ip; p != NULL; p = p->up)
		v[--i] = p;
	for (i = 0; i < n; i++) {
		buf_addc(&b, '/');
		if (v[i]->key != NULL)
			jss_pointer_escape(&b, v[i]->key, strlen(v[i]->key));
		else
			buf_addu(&b, v[i]->idx);
	}
	free(v);
	return buf_cstr(&b);
}
