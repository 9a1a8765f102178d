/*
 * outfile.h — how xscalegraph creates every file it writes (exports, screenshots, the readout
 * and sites lists, the recent-experiments list): never through a link someone planted. As the
 * trace library and the store do (tracelib/sgt_dir.c, collector/store.c), the directory is
 * opened once as a descriptor whose last component is not followed (O_DIRECTORY|O_NOFOLLOW,
 * created with mkdir where asked), each file is created relative to it under a fresh temporary
 * name (O_CREAT|O_EXCL|O_NOFOLLOW: a name that exists, a link included, is never opened), written
 * through a FILE *, then renamed into place: rename replaces a link at the final name itself,
 * never its target. No X header: the export path and the tests use it without a display.
 * docs/gui.md, "Files the GUI writes".
 */
#ifndef GUI_OUTFILE_H
#define GUI_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Outputs people share (pictures, CSV, text lists) and the user's own settings. The umask
 * narrows both further. */
#define OUT_MODE_SHARED 0644
#define OUT_MODE_PRIVATE 0600
/* A directory the GUI creates for outputs (export:DIR) and for its settings. */
#define OUT_DIR_MODE_SHARED 0755
#define OUT_DIR_MODE_PRIVATE 0700

/* Opens directory `dir` for writing into: its last component must be a real directory, not a
 * link (the components above it are the user's path, followed as given). With mkdir_mode > 0 it
 * is created with that mode when missing. Returns a descriptor (O_CLOEXEC; the caller closes
 * it) or -errno with "DIR: error: why" in err. */
int out_dir_open(const char *dir, mode_t mkdir_mode, char *err, size_t err_len);

/* A file being written: f is open on a fresh temporary file beside `name` in the directory. */
struct out_file {
	FILE *f;
	int dirfd;                 /* the directory's descriptor */
	int own_dirfd;             /* out_file_open opened it: the file closes it */
	char name[256];            /* the final name in the directory */
	char tmp[300];             /* the temporary name */
	char path[4096];           /* the final path, for messages */
};

/* Creates the temporary file for `name` (one path component) in directory dirfd (`dir`: its
 * path, for messages) with `mode` and opens it for writing. Returns 0 or -errno with
 * "PATH: error: why" in err. */
int out_file_open_at(struct out_file *of, int dirfd, const char *dir, const char *name,
		     mode_t mode, char *err, size_t err_len);
/* The same for a path: its directory ("." for a bare name) opened by out_dir_open, not created. */
int out_file_open(struct out_file *of, const char *path, mode_t mode, char *err, size_t err_len);
/* Closes the file and gives it its name: with `replace` an existing file (or link) of that name
 * is replaced; without, -EEXIST when the name exists (a dangling link included). On any failure
 * the temporary file is removed and err says why. Frees the file either way. */
int out_file_commit(struct out_file *of, int replace, char *err, size_t err_len);
/* Closes and removes the temporary file (an error met while writing). */
void out_file_abort(struct out_file *of);

/* 1 when `name` exists in dirfd, as a link too (never followed), else 0. */
int out_exists_at(int dirfd, const char *name);
/* The same for a path (a link counts, dangling or not). */
int out_exists(const char *path);

#endif /* GUI_OUTFILE_H */
