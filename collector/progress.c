/*
 * progress.c — the progress display of `scalegraph run` (progress.h). The ETA is the mean wall
 * time of the runs executed so far times the runs left; reused runs cost nothing.
 */
#include "progress.h"

#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_init(struct progress *p, FILE *out, int total)
{
	p->out = out;
	p->tty = isatty(fileno(out));
	p->total = total;
	p->done = p->made = 0;
	p->made_s = 0;
	p->t0 = now_s();
}

double progress_elapsed(const struct progress *p)
{
	return now_s() - p->t0;
}

static void fmt_secs(double s, char *buf, size_t len)
{
	if (s < 60)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 3600)
		snprintf(buf, len, "%dm%02ds", (int)s / 60, (int)s % 60);
	else
		snprintf(buf, len, "%dh%02dm", (int)s / 3600, (int)s % 3600 / 60);
}

static void bar(struct progress *p, const char *label)
{
	enum { W = 24 };
	char eta[32] = "?";
	int left = p->total - p->done;
	if (p->made)
		fmt_secs(p->made_s / p->made * left, eta, sizeof eta);
	int fill = p->total ? p->done * W / p->total : 0;
	fprintf(p->out, "\r\033[K[");
	for (int i = 0; i < W; i++)
		fputc(i < fill ? '#' : '.', p->out);
	fprintf(p->out, "] %d/%d ETA %s  %s", p->done, p->total, eta, label);
	fflush(p->out);
}

void progress_start(struct progress *p, const char *label)
{
	if (p->done >= p->total)
		p->total = p->done + 1;
	if (p->tty)
		bar(p, label);
}

void progress_end(struct progress *p, const char *label, int made, double wall_s,
		  const char *outcome)
{
	p->done++;
	if (made) {
		p->made++;
		p->made_s += wall_s;
	}
	if (p->done > p->total)
		p->total = p->done;
	if (p->tty) {
		bar(p, label);
		return;
	}
	if (!made)
		return; /* reused runs are counted, not listed */
	fprintf(p->out, "[%d/%d] %s: %s\n", p->done, p->total, label, outcome);
	fflush(p->out);
}

void progress_finish(struct progress *p)
{
	if (p->tty) {
		fprintf(p->out, "\r\033[K");
		fflush(p->out);
	}
}
