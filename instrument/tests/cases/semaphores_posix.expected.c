/* Semaphore calls in strict POSIX code (-std=c99 -D_POSIX_C_SOURCE=200112L, no _GNU_SOURCE):
 * sem_timedwait is declared there and renamed; sgtrace.h declares sg_sem_timedwait under the same
 * condition, and leaves out sg_sem_clockwait, which such code cannot call. */
#include <errno.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>

#define TAKE(s) (sg_sem_trywait(s) == 0)

#include <sgtrace.h>
#line 11 "semaphores_posix.c"
int main(void)
{
	sem_t s;
	struct timespec ts;
	int sem_wait_rc, taken = 0;
	sg_sem_init(&s, 0, 1);
	taken += TAKE(&s);
	taken += TAKE(&s);
	clock_gettime(CLOCK_REALTIME, &ts);
	sem_wait_rc = sg_sem_timedwait(&s, &ts);
	printf("taken %d timedwait %d %s\n", taken, sem_wait_rc,
	       errno == ETIMEDOUT ? "ETIMEDOUT" : "?");
	sg_sem_post(&s);
	sg_sem_wait(&s);
	sem_destroy(&s);
	return 0;
}
