/*
 * fsutil.h — file-system helpers shared by `scalegraph calibrate` (its cache file) and
 * `scalegraph run` (the experiment directory). Private to collector/.
 */
#ifndef FSUTIL_H
#define FSUTIL_H

/* Creates every missing directory of `path` up to its last '/' (like mkdir -p of its parent;
 * "a/b/c" creates a and a/b). `path` is modified during the call and restored. Returns 0 or
 * -errno. */
int fs_mkdir_parents(char *path);

/* Removes `path` and everything below it, best effort (links are removed, never followed); the
 * caller checks what is left when it matters. */
void fs_remove_tree(const char *path);

#endif /* FSUTIL_H */
