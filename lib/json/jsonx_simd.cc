/*
 * jsonx_simd: an array or object read by simdjson's DOM parser, which
 * checks the whole text (UTF-8 included), then built into the jansson
 * tree that json_loadb gives with the flags jsonx passes: objects with
 * their keys in the order of the text, every number a double or an
 * integer as the flags say, strings kept whole ("\u0000" included when
 * they allow it). What jansson would read otherwise or refuse is declined,
 * never guessed: jsonx then reads the text with jansson, which words the
 * error. Built into the kit's shared object of engines; it builds through
 * the functions jsonx hands it (jsonx_simd.h).
 */
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>

#include <simdjson.h>

#include "json/jsonx_simd.h"

namespace {

const struct jsonx_simd_host *host;

/*
 * The host's functions are called through pointers, which clang's
 * -fsanitize=function checks with a handler of UBSan's C++ runtime, not
 * there when a C driver links this file (the fuzzers): the check is left
 * out of these calls.
 */
#if defined(__clang__)
#define HOST_CALL	__attribute__((no_sanitize("function")))
#else
#define HOST_CALL
#endif

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

/*
 * jansson's limit (JSON_PARSER_MAX_DEPTH), which counts every value: the
 * top one is level 1, a value inside an array or object one more.
 */
constexpr size_t max_depth = JSON_PARSER_MAX_DEPTH;

/*
 * A parser and its buffers (several times the text's size) are kept from
 * call to call for texts up to this size; a larger one has its own, freed
 * with it, so that one large document does not hold its memory to the
 * end of the process.
 */
constexpr size_t keep_max = (size_t)1 << 20;

/*
 * Whether this simdjson reads an integer past the range of int64 and
 * uint64 as a double (3.0 refuses it; should a later one read it, such a
 * double is declined: jansson refuses it without JSON_DECODE_INT_AS_REAL,
 * and with it rounds the digits itself), found once at the start.
 */
bool big_doubles;

/* Past this magnitude a double may be such an integer. */
constexpr double big_min = 9223372036854775808.0;	/* 2^63 */

HOST_CALL json_t *
build(element e, size_t depth, size_t flags)
{
	json_t *t, *v;
	size_t k = 0;

	if (depth > max_depth)
		return nullptr;
	switch (e.type()) {
	case element_type::OBJECT: {
		object o = e.get_object().value_unsafe();

		if ((t = host->object()) == nullptr)
			return nullptr;
		for (auto f : o) {
			/* jansson refuses a NUL in a key, and a key again */
			if (f.key.find('\0') != std::string_view::npos ||
			    (v = build(f.value, depth + 1, flags)) == nullptr ||
			    host->set(t, f.key.data(), f.key.size(), v) != 0 ||
			    host->size(t) != ++k) {
				host->decref(t);
				return nullptr;
			}
		}
		return t;
	}
	case element_type::ARRAY: {
		array a = e.get_array().value_unsafe();

		if ((t = host->array()) == nullptr)
			return nullptr;
		for (element x : a) {
			if ((v = build(x, depth + 1, flags)) == nullptr ||
			    host->append(t, v) != 0) {
				host->decref(t);
				return nullptr;
			}
		}
		return t;
	}
	case element_type::STRING: {
		std::string_view s = e.get_string().value_unsafe();

		/* jansson refuses "\u0000" unless told to allow it */
		if (!(flags & JSON_ALLOW_NUL) &&
		    memchr(s.data(), '\0', s.size()) != nullptr)
			return nullptr;
		return host->string(s.data(), s.size());
	}
	/*
	 * An integer converted rounds to the nearest double, ties to even,
	 * as strtod rounds its digits in jansson's reading: the same double.
	 * Without JSON_DECODE_INT_AS_REAL jansson keeps an integer that fits
	 * json_int_t as one, and refuses any other.
	 */
	case element_type::INT64: {
		int64_t i = e.get_int64().value_unsafe();

		if (flags & JSON_DECODE_INT_AS_REAL)
			return host->real((double)i);
		if ((int64_t)(json_int_t)i != i)
			return nullptr;
		return host->integer((json_int_t)i);
	}
	case element_type::UINT64:
		if (!(flags & JSON_DECODE_INT_AS_REAL))
			return nullptr;
		return host->real((double)e.get_uint64().value_unsafe());
	case element_type::DOUBLE: {
		double x = e.get_double().value_unsafe();

		if (!std::isfinite(x) ||
		    (big_doubles && std::fabs(x) >= big_min))
			return nullptr;
		return host->real(x);
	}
	case element_type::BOOL:
		return host->boolean(e.get_bool().value_unsafe());
	case element_type::NULL_VALUE:
		return host->null();
	}
	return nullptr;
}

/*
 * p made ready for n bytes (it grows for more), to a depth of containers
 * one more than jansson's limit: the values inside the deepest are
 * build's to refuse.
 */
bool
ready(simdjson::dom::parser &p, size_t n)
{
	return p.allocate(n, max_depth + 1) == simdjson::SUCCESS;
}

json_t *
parse(const char *s, size_t n, size_t flags)
{
	static simdjson::dom::parser kept;
	static bool kept_ready;
	simdjson::dom::parser own, *p = &own;
	element root;

	/* simdjson would skip a byte order mark, which jansson refuses */
	if (n == 0 || (s[0] != '{' && s[0] != '['))
		return nullptr;
	if (n <= keep_max) {
		if (!kept_ready && !(kept_ready = ready(kept, 4096)))
			return nullptr;
		p = &kept;
	} else if (!ready(own, n))
		return nullptr;
	if (p->parse(s, n).get(root) != simdjson::SUCCESS)
		return nullptr;
	return build(root, 1, flags);
}

json_t *
read_value(const char *s, size_t n, size_t flags)
{
	try {
		return parse(s, n, flags);
	} catch (...) {
		/* out of memory in the library: jansson may yet read it */
		return nullptr;
	}
}

const struct jsonx_simd_engine engine = { read_value };

} // namespace

extern "C" __attribute__((visibility("default")))
const struct jsonx_simd_engine *
jsonx_simd_open(int abi, const struct jsonx_simd_host *h)
{
	static const char big[] = "[18446744073709551616]";

	if (abi != JSONX_SIMD_ABI)
		return NULL;
	try {
		simdjson::dom::parser p;
		element root;

		big_doubles = p.parse(big, sizeof(big) - 1).get(root) ==
		    simdjson::SUCCESS;
	} catch (...) {
		big_doubles = true;
	}
	host = h;
	return &engine;
}
