/*
 * tcsimd: a hermes call's JSON object read by simdjson's DOM parser,
 * which checks the whole text (UTF-8 included), and its arguments
 * written through jsonw as jsonw_exact writes jansson's tree of them.
 * What the two readers do not read alike is declined, never guessed.
 * Built into the kit's shared object of engines, tcsimd.so, which
 * lib/json/jsimd.c loads when a large input comes; it writes through the
 * functions tcsimd_load.c hands it (tcsimd_int.h), so that it needs
 * nothing of libllmkit.
 */
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "toolcall/tcsimd_int.h"

namespace {

/* lib/base's writers, as the loader gave them */
const struct tcsimd_host *host;

/*
 * They are called through pointers, which clang's -fsanitize=function
 * checks with a handler of UBSan's C++ runtime, not there when a C
 * driver links this file (the fuzzers): the check is left out of the
 * calls, as the fuzzers leave out vptr's.
 */
#if defined(__clang__)
#define HOST_CALL	__attribute__((no_sanitize("function")))
#else
#define HOST_CALL
#endif

HOST_CALL inline void
addc(struct buf *b, char c)
{
	if (b->len == b->cap)
		host->grow(b, 1);
	b->data[b->len++] = c;
}

HOST_CALL inline void
add(struct buf *b, const char *s, size_t n)
{
	host->add(b, s, n);
}

HOST_CALL inline void
addu(struct buf *b, unsigned long long u)
{
	host->addu(b, u);
}

HOST_CALL inline void
add_string(struct buf *b, const char *s, size_t n)
{
	host->string(b, s, n);
}

HOST_CALL inline void
add_number(struct buf *b, double x)
{
	host->number(b, x);
}

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

/*
 * jansson's limit (JSON_PARSER_MAX_DEPTH), which counts every value: the
 * top one is level 1, a value inside an array or object one more.
 */
constexpr size_t max_depth = 2048;

/*
 * A parser and its buffers (many times the text's size) are kept from
 * call to call for calls up to this size; a larger one has its own, freed
 * with it, so that one large call does not hold its memory to the end.
 */
constexpr size_t keep_max = (size_t)1 << 20;

/* Objects up to this size are checked for a repeated key pair by pair. */
constexpr size_t few_keys = 16;

/* Whether no key of o repeats and none holds a NUL: jansson's rules. */
bool
keys_ok(object o)
{
	std::string_view few[few_keys];
	std::vector<std::string_view> many;
	size_t n = 0, i, j;

	for (auto f : o) {
		if (f.key.find('\0') != std::string_view::npos)
			return false;
		if (n < few_keys)
			few[n] = f.key;
		else {
			if (n == few_keys)
				many.assign(few, few + few_keys);
			many.push_back(f.key);
		}
		n++;
	}
	if (n <= few_keys) {
		for (i = 1; i < n; i++)
			for (j = 0; j < i; j++)
				if (few[i] == few[j])
					return false;
		return true;
	}
	std::sort(many.begin(), many.end());
	return std::adjacent_find(many.begin(), many.end()) == many.end();
}

/*
 * e, a value at level depth, appended to b as jsonw_exact writes what
 * jansson reads of it: whether jansson reads it alike (if not, b holds
 * part of it).
 */
bool
put(struct buf *b, element e, size_t depth)
{
	std::string_view str;
	int64_t i;
	double x;
	bool first = true;

	if (depth > max_depth)
		return false;
	switch (e.type()) {
	case element_type::OBJECT: {
		object o = e.get_object().value_unsafe();

		if (!keys_ok(o))
			return false;
		addc(b, '{');
		for (auto f : o) {
			if (!first)
				addc(b, ',');
			first = false;
			add_string(b, f.key.data(), f.key.size());
			addc(b, ':');
			if (!put(b, f.value, depth + 1))
				return false;
		}
		addc(b, '}');
		return true;
	}
	case element_type::ARRAY: {
		array a = e.get_array().value_unsafe();

		addc(b, '[');
		for (element v : a) {
			if (!first)
				addc(b, ',');
			first = false;
			if (!put(b, v, depth + 1))
				return false;
		}
		addc(b, ']');
		return true;
	}
	case element_type::STRING:
		str = e.get_string().value_unsafe();
		add_string(b, str.data(), str.size());
		return true;
	case element_type::INT64:
		/* jansson's json_int_t, written as "%lld" */
		i = e.get_int64().value_unsafe();
		if (i < 0)
			addc(b, '-');
		addu(b, i < 0 ? 0 - (unsigned long long)i :
		    (unsigned long long)i);
		return true;
	case element_type::UINT64:
		/* past int64: jansson reads every integer as a real then */
		return false;
	case element_type::DOUBLE:
		x = e.get_double().value_unsafe();
		if (!std::isfinite(x))
			return false;
		add_number(b, x);
		return true;
	case element_type::BOOL:
		if (e.get_bool().value_unsafe())
			add(b, "true", 4);
		else
			add(b, "false", 5);
		return true;
	case element_type::NULL_VALUE:
		add(b, "null", 4);
		return true;
	}
	return false;
}

/*
 * p made ready for n bytes (it grows for more), to a depth of containers
 * one more than jansson's limit: the values inside the deepest are put's
 * to refuse.
 */
bool
ready(simdjson::dom::parser &p, size_t n)
{
	return p.allocate(n, max_depth + 1) == simdjson::SUCCESS;
}

/*
 * The object s (n bytes) parsed into *root by the kept parser, or by own
 * for a large one: whether it is a JSON object.
 */
bool
parse_object(const char *s, size_t n, simdjson::dom::parser &own,
    element *root)
{
	static simdjson::dom::parser kept;
	static bool kept_ready;
	simdjson::dom::parser *p = &own;

	/* simdjson would skip a byte order mark, which jansson refuses */
	if (n == 0 || s[0] != '{')
		return false;
	if (n <= keep_max) {
		if (!kept_ready && !(kept_ready = ready(kept, 4096)))
			return false;
		p = &kept;
	} else if (!ready(own, n))
		return false;
	return p->parse(s, n).get(*root) == simdjson::SUCCESS &&
	    root->is_object();
}

bool
hermes(const char *s, size_t n, struct buf *name, struct buf *args)
{
	simdjson::dom::parser own;
	element root, vname, vargs, vparams;
	bool hasname = false, hasargs = false, hasparams = false;
	size_t mark = args->len;
	std::string_view str;

	if (!parse_object(s, n, own, &root))
		return false;
	object top = root.get_object().value_unsafe();
	if (!keys_ok(top))
		return false;
	for (auto f : top) {
		if (f.key == "name") {
			vname = f.value;
			hasname = true;
		} else if (f.key == "arguments") {
			vargs = f.value;
			hasargs = true;
		} else if (f.key == "parameters") {
			vparams = f.value;
			hasparams = true;
		} else {
			/* ignored, but jansson refuses what it may not hold */
			if (!put(args, f.value, 2))
				return false;
			args->len = mark;
		}
	}
	if (!hasname || vname.get(str) != simdjson::SUCCESS ||
	    str.empty() || (hasargs && hasparams))
		return false;
	if (hasparams) {
		vargs = vparams;
		hasargs = true;
	}
	if (!hasargs)
		add(args, "{}", 2);
	else if (!vargs.is_object() || !put(args, vargs, 2))
		return false;
	add(name, str.data(), str.size());
	return true;
}

/*
 * Whether jansson, as lib/jsonx reads a document (every integer a real),
 * reads e, a value at level depth, alike: no key repeats or holds a NUL,
 * no real is out of range, no more than jansson's levels.
 */
bool
fits(element e, size_t depth)
{
	if (depth > max_depth)
		return false;
	switch (e.type()) {
	case element_type::OBJECT: {
		object o = e.get_object().value_unsafe();

		if (!keys_ok(o))
			return false;
		for (auto f : o)
			if (!fits(f.value, depth + 1))
				return false;
		return true;
	}
	case element_type::ARRAY: {
		array a = e.get_array().value_unsafe();

		for (element v : a)
			if (!fits(v, depth + 1))
				return false;
		return true;
	}
	case element_type::DOUBLE:
		return std::isfinite(e.get_double().value_unsafe());
	default:
		return true;
	}
}

/* The member key of o: false when it is absent or null. */
bool
member(object o, const char *key, element *v)
{
	return o.at_key(key).get(*v) == simdjson::SUCCESS && !v->is_null();
}

/* The member key of o, absent or null, or a string into *str, *len. */
bool
opt_string(object o, const char *key, const char **str, size_t *len,
    int *has)
{
	std::string_view sv;
	element v;

	*has = 0;
	if (!member(o, key, &v))
		return true;
	if (v.get(sv) != simdjson::SUCCESS)
		return false;
	*str = sv.data();
	*len = sv.size();
	*has = 1;
	return true;
}

/* A number, or absent or null (*has 0). */
bool
opt_number(object o, const char *key, double *x, int *has)
{
	element v;

	*has = 0;
	if (!member(o, key, &v))
		return true;
	if (!v.is_number())
		return false;
	*x = v.get_double().value_unsafe();
	*has = 1;
	return true;
}

/* The common chunk's one tool call delta, tc, into c. */
bool
chunk_call(object tc, struct tcsimd_delta *c)
{
	const char *str;
	size_t len;
	object fn;
	element v;
	int has;

	if (!opt_number(tc, "index", &c->index, &c->hasindex) ||
	    !opt_string(tc, "id", &str, &len, &has) || (has && len > 0) ||
	    !opt_string(tc, "type", &str, &len, &has) ||
	    (has && std::string_view(str, len) != "function" &&
	    std::string_view(str, len) != "function_call"))
		return false;
	c->hascall = 1;
	if (!member(tc, "function", &v))
		return true;
	if (v.get(fn) != simdjson::SUCCESS)
		return false;
	return opt_string(fn, "name", &c->name, &c->namelen, &c->hasname) &&
	    opt_string(fn, "arguments", &c->args, &c->argslen, &c->hasargs);
}

bool
chunk(const char *s, size_t n, struct tcsimd_delta *c)
{
	simdjson::dom::parser own;
	element root, v;
	object top, choice, delta, tc;
	array choices, calls;
	std::string_view sv;
	double x;
	int has;

	/* the strings given are the kept parser's */
	if (n > keep_max || !parse_object(s, n, own, &root) ||
	    !fits(root, 1))
		return false;
	top = root.get_object().value_unsafe();
	if (top.at_key("object").get(sv) != simdjson::SUCCESS ||
	    sv != "chat.completion.chunk" ||
	    top.at_key("error").error() != simdjson::NO_SUCH_FIELD ||
	    top.at_key("type").error() != simdjson::NO_SUCH_FIELD ||
	    top.at_key("choices").get(choices) != simdjson::SUCCESS ||
	    choices.size() != 1 ||
	    choices.at(0).get(choice) != simdjson::SUCCESS)
		return false;
	if (!opt_number(choice, "index", &x, &has) || (has && x != 0) ||
	    member(choice, "finish_reason", &v) ||
	    choice.at_key("delta").get(delta) != simdjson::SUCCESS)
		return false;
	if (member(delta, "reasoning_content", &v) ||
	    member(delta, "reasoning", &v) || member(delta, "thinking", &v) ||
	    member(delta, "refusal", &v) ||
	    member(delta, "function_call", &v) ||
	    !opt_string(delta, "content", &c->content, &c->contentlen, &has))
		return false;
	if (!member(delta, "tool_calls", &v))
		return true;
	if (v.get(calls) != simdjson::SUCCESS || calls.size() > 1)
		return false;
	if (calls.size() == 0)
		return true;
	return calls.at(0).get(tc) == simdjson::SUCCESS && chunk_call(tc, c);
}

/* A call's arguments written bare: the object is the top value. */
bool
bare(const char *s, size_t n, struct buf *args)
{
	simdjson::dom::parser own;
	element root;

	return parse_object(s, n, own, &root) && put(args, root, 1);
}

int
read_hermes(const char *s, size_t n, struct buf *name, struct buf *args)
{
	size_t namelen = name->len, argslen = args->len;
	bool ok;

	try {
		ok = hermes(s, n, name, args);
	} catch (...) {
		/* out of memory in the library: jansson may yet read it */
		ok = false;
	}
	if (!ok) {
		name->len = namelen;
		args->len = argslen;
	}
	return ok ? 1 : 0;
}

int
read_object(const char *s, size_t n, struct buf *args)
{
	size_t argslen = args->len;
	bool ok;

	try {
		ok = bare(s, n, args);
	} catch (...) {
		ok = false;
	}
	if (!ok)
		args->len = argslen;
	return ok ? 1 : 0;
}

int
read_chunk(const char *s, size_t n, struct tcsimd_delta *c)
{
	bool ok;

	memset(c, 0, sizeof(*c));
	try {
		ok = chunk(s, n, c);
	} catch (...) {
		ok = false;
	}
	return ok ? 1 : 0;
}

const struct tcsimd_reader reader = { read_hermes, read_object, read_chunk };

} // namespace

extern "C" __attribute__((visibility("default"))) const struct tcsimd_reader *
tcsimd_open(int abi, const struct tcsimd_host *h)
{
	if (abi != TCSIMD_ABI)
		return NULL;
	host = h;
	return &reader;
}
