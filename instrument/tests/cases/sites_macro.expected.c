/* Call sites (issue 15) in macro bodies: the call is renamed inside the #define, its descriptor
 * (enclosing function "", the #define's line) goes before the first item that uses it, and
 * every expansion shares it. A call continued on the next line of the body keeps that line. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define LOCKED(mx, stmt) do { sg_pthread_mutex_lock_at(&sg_site_1, mx); stmt; sg_pthread_mutex_unlock(mx); } while (0)
#define WAIT(s) \
	sg_sem_wait_at \
	(&sg_site_2, s)

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static sem_t sem;
static int n;

#include <sgtrace.h>
static struct sg_site_desc sg_site_1 __attribute__((unused)) = { "sites_macro.c", 8, "", 0 };
static struct sg_site_desc sg_site_2 __attribute__((unused)) = { "sites_macro.c", 10, "", 0 };
#line 17 "sites_macro.c"
static void one(void)
{
	LOCKED(&m, n++);
}

int main(void)
{
	sg_sem_init(&sem, 0, 1);
	WAIT(&sem);
	one();
	LOCKED(&m, n += 2);
	printf("%d\n", n);
	return 0;
} SG_FUNC_OUTSIDE(main, "sites_macro.c", 22, 1);
