/*
 * jsonx_simd: an array or object read by simdjson's DOM parser, which
 * checks the whole text (UTF-8 included), then built into the jansson
 * tree that jsonx's reading gives: objects with their keys in the order
 * of the text, every number a double, strings kept whole ("\u0000"
 * included). What jansson would read otherwise or refuse is declined,
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

HOST_CALL json_t *
build(element e, size_t depth)
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
			    (v = build(f.value, depth + 1)) == nullptr ||
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
			if ((v = build(x, depth + 1)) == nullptr ||
			    host->append(t, v) != 0) {
				host->decref(t);
				return nullptr;
			}
		}
		return t;
	}
	case element_type::STRING: {
		std::string_view s = e.get_string().value_unsafe();

		return host->string(s.data(), s.size());
	}
	/*
	 * An integer converted rounds to the nearest double, ties to even,
	 * as strtod rounds its digits in jansson's reading: the same double.
	 */
	case element_type::INT64:
		return host->real((double)e.get_int64().value_unsafe());
	case element_type::UINT64:
		return host->real((double)e.get_uint64().value_unsafe());
	case element_type::DOUBLE: {
		double x = e.get_double().value_unsafe();

		return std::isfinite(x) ? host->real(x) : nullptr;
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
parse(const char *s, size_t n)
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
	return build(root, 1);
}

json_t *
read_value(const char *s, size_t n)
{
	try {
		return parse(s, n);
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
	if (abi != JSONX_SIMD_ABI)
		return NULL;
	host = h;
	return &engine;
}
