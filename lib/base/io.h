/* io: operands ("-" is standard input), whole-input reads, checked closes. */
#ifndef LLMKIT_IO_H
#define LLMKIT_IO_H

#include <sys/types.h>

#include <stdio.h>

#include "base/buf.h"

FILE		*io_open(const char *);
const char	*io_name(const char *);
int		 io_slurp(FILE *, struct buf *);
int		 io_read(const char *, struct buf *);
int		 io_slurp_text(FILE *, struct buf *);
int		 io_read_text(const char *, struct buf *);
ssize_t		 io_getline_text(char **, size_t *, FILE *);
size_t		 io_skip_line(FILE *);
int		 io_write(const void *, size_t, FILE *);
int		 io_close(FILE *, const char *);
int		 io_fshut(FILE *, const char *);
FILE		*io_tmpfile(const char **);

#endif
