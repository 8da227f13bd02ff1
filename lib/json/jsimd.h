/*
 * jsimd: the kit's simdjson engines, loaded when they pay. simdjson is
 * C++: linking it with libstdc++ costs a process more than a millisecond
 * at start (t/bench/README, start-up), more than jansson takes over a
 * small document. So the engines (lib/json/jsonx_simd.cc, which reads
 * documents for jsonx, and lib/toolcall/tcsimd.cc, which reads tool
 * calls) are one shared object, tcsimd.so, beside the tools or in
 * LLMKIT_PKGLIBDIR, loaded once the JSON offered to them since the
 * process started comes to JSIMD_LOAD_MIN bytes. Before that, when it
 * cannot be loaded, and in a build without it (configure
 * --with-simdjson=no), jansson reads everything, to the same result. A
 * binary that links the engines in (the fuzzers, test_jsonx, test_tcsimd)
 * uses them from the first byte.
 *
 * LLMKIT_JSON, read once, chooses: "jansson" never uses the engines,
 * "simdjson" from the first byte, anything else (or none) as above.
 * One thread: the state is not locked.
 */
#ifndef LLMKIT_JSIMD_H
#define LLMKIT_JSIMD_H

#include <stddef.h>

/*
 * The bytes of JSON that jansson reads before the engines are loaded: a
 * third of the break-even point, where loading them (1.2 ms of CPU) has
 * cost what they save over jansson (59 KB of responses for jsonx, 48-58
 * KB of hermes calls for toolcall's reader: t/bench/README), so that a
 * large input pays for what jansson reads first by a few percent at
 * most. A single text this long loads them at once.
 */
#define JSIMD_LOAD_MIN	((size_t)16 << 10)

/* The shared object's file name, beside the binary or in the pkglibdir. */
#define JSIMD_SO	"tcsimd.so"

/*
 * Offers n more bytes of JSON to the engines: whether they are to read
 * them. linked says that the binary links the engines in (the caller's
 * weak reference to its entry point is not null).
 */
int	 jsimd_ready(size_t n, int linked);

/*
 * The address of the entry point name in the loaded shared object, once
 * jsimd_ready has said yes to a binary that does not link the engines
 * in; NULL when there is no such symbol.
 */
void	*jsimd_sym(const char *name);

/*
 * Forgets the choice and the bytes offered, so that LLMKIT_JSON is read
 * again (for tests that run under both engines); a loaded object stays.
 */
void	 jsimd_reset(void);

#endif
