/*
 * an_metric.c — the table of per-run metrics (names and units shared by the CSV, JSON, the store's
 * metrics table and the GUI), the figure constructors and the repetition statistics. Keeping the
 * names in one table is what makes `report --csv` columns and store rows agree.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "an_int.h"

static const struct {
	const char *name, *unit;
} metric_tab[AN_N_METRICS] = {
	[AN_T_PARA] = { "T_para", "s" },
	[AN_T_SEQ] = { "T_seq", "s" },
	[AN_E] = { "E", "" },
	[AN_S] = { "S", "" },
	[AN_L] = { "L", "s" },
	[AN_IT_EDGE] = { "IT_edge", "s" },
	[AN_IT_BARRIER] = { "IT_barrier", "s" },
	[AN_IT_LOCK] = { "IT_lock", "s" },
	[AN_IT_COND] = { "IT_cond", "s" },
	[AN_IT_SCHED] = { "IT_sched", "s" },
	[AN_PT_BARRIER] = { "PT_barrier", "s" },
	[AN_PT_LOCK] = { "PT_lock", "s" },
	[AN_PT_THREAD] = { "PT_thread", "s" },
	[AN_ML] = { "ML", "s" },
	[AN_U] = { "U", "s" },
	[AN_PARALLELISM] = { "parallelism", "" },
	[AN_OVERSUB] = { "oversubscribed", "" },
	[AN_N] = { "N", "" },
	[AN_IT] = { "IT", "s" },
	[AN_PT] = { "PT", "s" },
	[AN_ML_RAW] = { "ML_N", "s" },
	[AN_PAR_SHARE] = { "parallel_share", "" },
	[AN_L_E] = { "L_from_E", "s" },
	[AN_CHECK3] = { "check3", "" },
	[AN_CHECK10] = { "check10", "" },
	[AN_CPU_UTIL] = { "cpu_utilization", "" },
	[AN_MEM_RATE] = { "memory_access_rate", "" },
	[AN_MISS_RATE] = { "miss_rate", "" },
	[AN_IT_SEM] = { "IT_sem", "s" },
	[AN_IT_JOIN] = { "IT_join", "s" },
	[AN_IT_BLOCKED] = { "IT_blocked", "s" },
	[AN_PT_SEM] = { "PT_sem", "s" },
	[AN_COMPUTE] = { "compute", "s" },
	[AN_CLOSURE] = { "closure", "" },
	[AN_TRACE_COST] = { "trace_cost", "s" },
	[AN_TRACE_SHARE] = { "trace_cost_share", "" },
	[AN_T_PARA_C] = { "T_para_comp", "s" },
	[AN_E_C] = { "E_comp", "" },
	[AN_L_C] = { "L_comp", "s" },
	[AN_IT_C] = { "IT_comp", "s" },
	[AN_PT_C] = { "PT_comp", "s" },
	[AN_IT_COND_C] = { "IT_cond_comp", "s" },
	[AN_PT_BARRIER_C] = { "PT_barrier_comp", "s" },
	[AN_PT_LOCK_C] = { "PT_lock_comp", "s" },
	[AN_PT_SEM_C] = { "PT_sem_comp", "s" },
	[AN_PT_THREAD_C] = { "PT_thread_comp", "s" },
	[AN_COMPUTE_C] = { "compute_comp", "s" },
	[AN_U_C] = { "U_comp", "s" },
	[AN_CLOSURE_C] = { "closure_comp", "" },
	[AN_L_W1] = { "L_W1", "s" },
};

const char *an_metric_name(enum an_metric m)
{
	return (unsigned)m < AN_N_METRICS ? metric_tab[m].name : "?";
}

const char *an_metric_unit(enum an_metric m)
{
	return (unsigned)m < AN_N_METRICS ? metric_tab[m].unit : "";
}

int an_metric_find(const char *name)
{
	for (int m = 0; m < AN_N_METRICS; m++)
		if (strcmp(metric_tab[m].name, name) == 0)
			return m;
	return -1;
}

static const char *const state_tab[AN_N_STATES] = {
	[AN_ST_BUSY] = "busy",
	[AN_ST_BARRIER_WAIT] = "barrier wait",
	[AN_ST_BARRIER_OVH] = "barrier overhead",
	[AN_ST_LOCK_WAIT] = "lock wait",
	[AN_ST_LOCK_OVH] = "lock overhead",
	[AN_ST_COND_WAIT] = "cond wait",
	[AN_ST_THREAD] = "create/join",
	[AN_ST_IDLE] = "idle",
	[AN_ST_SEM_WAIT] = "semaphore wait",
	[AN_ST_SEM_OVH] = "semaphore overhead",
	[AN_ST_RUNNABLE] = "runnable",
	[AN_ST_BLOCKED] = "blocked",
};

const char *an_state_name(enum an_state s)
{
	return (unsigned)s < AN_N_STATES ? state_tab[s] : "?";
}

static const char *const model_tab[AN_N_MODELS] = {
	[AN_TIME_BOUND] = "time-bound",
	[AN_E_CONSERVED] = "e-conserved",
	[AN_MEMORY_BOUND] = "memory-bound",
};

const char *an_model_name(enum an_model m)
{
	return (unsigned)m < AN_N_MODELS ? model_tab[m] : "?";
}

struct an_fig an_fig_val(double v)
{
	return (struct an_fig){ v, NULL };
}

struct an_fig an_fig_na(const char *why)
{
	return (struct an_fig){ NAN, why && *why ? why : "unavailable" };
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void an_stats(const double *v, size_t n, double *med, double *min, double *max)
{
	double buf[64], *s = n <= 64 ? buf : malloc(n * sizeof *s);
	if (!n || !s) {
		*med = *min = *max = NAN;
		goto out;
	}
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, dbl_cmp);
	*min = s[0];
	*max = s[n - 1];
	*med = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
out:
	if (s != buf)
		free(s);
}

const char *an_point_t_seq_basis(const struct an_point *o)
{
	if (!o->t_basis || !strcmp(o->t_basis, "runner"))
		return "the runner's T_seq (no run of it in the store)";
	if (!strcmp(o->t_basis, "wall"))
		return "untraced sequential run (wall times)";
	if (o->t_seq_source && !strcmp(o->t_seq_source, "n1"))
		return "N=1 run (no sequential program)";
	return "traced sequential run";
}

const char *an_point_l_e_note(const struct an_point *o)
{
	/* T_seq is the point's own N=1 runs: T_para (1 - E) is 0 whatever the run waited, and
	 * L(W,1) is the program's overhead at one thread, which (10) does not see */
	if (o->n_threads == 1 && o->t_seq_source && !strcmp(o->t_seq_source, "n1"))
		return "by construction, T_seq is this N=1 run";
	/* with T_seq the N=1 runs', T_seq holds their own overhead L(W,1) and U is measured
	 * against their CPU time in compute: (10) is L + U/N - L(W,1)/N (issue 20) */
	if (!o->med[AN_L_W1].unavailable && o->med[AN_L_W1].value != 0)
		return "L + U/N - L(W,1)/N";
	return "L + U/N";
}
