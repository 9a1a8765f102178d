/* Calls that end the process without exit() or replace its image (issue 20, item 2): _exit,
 * _Exit and the exec family are renamed to their libsgtrace wrappers, which end the trace
 * first; also in a macro body. None takes a call site. exit() itself is not renamed: the
 * library's destructor runs there. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define GIVE_UP(code) sg__exit(code)

#include <sgtrace.h>
#line 12 "defect20-ends.c"
static int child(int how)
{
	pid_t pid = fork();
	if (pid == 0) {
		char *argv[] = { "true", NULL };
		if (how == 0)
			sg_execl("/bin/true", "true", (char *)NULL);
		else if (how == 1)
			sg_execvp("true", argv);
		else if (how == 2)
			sg__Exit(3);
		else if (how == 3)
			exit(4);
		GIVE_UP(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void)
{
	printf("%d %d %d %d\n", child(0), child(1), child(2), child(3));
	fflush(stdout);
	sg__exit(0);
} SG_FUNC_OUTSIDE(main, "defect20-ends.c", 33, 1);
