/*
 * tcsimd_int: between the callers of the simdjson reader
 * (lib/toolcall/tcsimd_load.c, C, in every build) and the reader itself
 * (lib/toolcall/tcsimd.cc, C++, in the kit's shared object of engines,
 * which lib/json/jsimd.c loads only when a large JSON input comes,
 * exporting tcsimd_open and jsonx_simd_open). The reader calls nothing
 * of libllmkit directly, so that it can be loaded by any binary of the
 * kit: the loader hands it the buffer and JSON writers it needs.
 */
#ifndef LLMKIT_TCSIMD_INT_H
#define LLMKIT_TCSIMD_INT_H

#include <stddef.h>

#include "base/buf.h"
#include "toolcall/tcsimd.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Changed whenever either struct below changes: a reader of another
 * version is refused, and jansson reads everything then.
 */
#define TCSIMD_ABI	1

/* What the reader writes with: buf_grow, buf_add, ... of lib/base. */
struct tcsimd_host {
	void	(*grow)(struct buf *, size_t);
	void	(*add)(struct buf *, const void *, size_t);
	void	(*addu)(struct buf *, unsigned long long);
	void	(*string)(struct buf *, const char *, size_t);
	void	(*number)(struct buf *, double);
};

/* The reader's functions, as tcsimd.h describes tcsimd_hermes, ... */
struct tcsimd_reader {
	int	(*hermes)(const char *, size_t, struct buf *, struct buf *);
	int	(*object)(const char *, size_t, struct buf *);
	int	(*chunk)(const char *, size_t, struct tcsimd_delta *);
};

/*
 * The reader, writing through h (kept: it must live as long as the
 * process), or NULL when abi is not its TCSIMD_ABI. The one symbol the
 * shared object exports.
 */
const struct tcsimd_reader *tcsimd_open(int abi, const struct tcsimd_host *h);

#ifdef __cplusplus
}
#endif

#endif
