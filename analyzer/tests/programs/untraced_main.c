/* untraced_main.c — a program whose other threads the trace does not record (issue 20, item
 * 6: NPB IS under OpenMP, whose workers are not traced yet): main, built with scalegraph cc,
 * calls untraced_lib.c, built with plain cc, which runs 3 threads beside it for 150 ms (as an
 * OpenMP runtime's would). Expected: N = 1, not certain: 3 more threads ran that the trace does
 * not record (the sched stream's switch records see them). */
void lib_run_workers(int n, double s);

int main(void)
{
	lib_run_workers(3, 0.15);
	return 0;
}
