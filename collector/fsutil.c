/*
 * fsutil.c — file-system helpers of the collector's commands (fsutil.h).
 */
#include "fsutil.h"

#include <errno.h>
#include <sys/stat.h>

int fs_mkdir_parents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(path, 0777);
		*p = '/';
		if (rc < 0 && errno != EEXIST)
			return -errno;
	}
	return 0;
}
