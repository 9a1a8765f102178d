/* parent_child.c — a traced program that runs another traced program (itself with an argument)
 * through system() and through fork+exec, all with the same SG_TRACE_DIR: each process must
 * write its own directory under the root, linked to its parent, never mixed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spin.h"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "child")) {
		spin(0.02);
		return 0;
	}
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "'%s' child", argv[0]);
	if (system(cmd) != 0)
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		execl(argv[0], argv[0], "child", (char *)NULL);
		_exit(127);
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return 1;
	spin(0.05);
	return 0;
}
