/*
 * lookup.h — where `scalegraph run` finds the program of a series (docs/collector.md, "Finding
 * the program"). Private to collector/.
 */
#ifndef LOOKUP_H
#define LOOKUP_H

#include <stddef.h>

/* Finds the program `name`:
 *   - an absolute path is itself;
 *   - a name with '/' (./FFT, bin/fft) is a path, relative to `spec_dir` when the command was
 *     written in a spec, to the current directory when it was given after `--` (`spec_dir`
 *     NULL or ""); nothing else is tried;
 *   - a bare name is searched in `spec_dir` (a spec's command only), then `bin_dir` (the
 *     bundled programs; skipped when ""), then each directory of PATH in order (an empty entry
 *     is the current directory, as for a shell; /usr/local/bin:/usr/bin:/bin when PATH is
 *     unset). The current directory is not searched otherwise.
 * A candidate must be a regular file this user may execute. Writes the path found into `out`
 * and returns 0; or returns -ENOENT (-ENAMETOOLONG when `out` is too small) with, in `why`,
 * the rest of a sentence that starts "program 'NAME' ": every directory searched, in order, a
 * candidate that exists but cannot be run, and, when the current directory was not searched
 * but holds the name, "did you mean ./NAME?". */
int lookup_program(const char *name, const char *spec_dir, const char *bin_dir, char *out,
		   size_t len, char *why, size_t why_len);

#endif /* LOOKUP_H */
