/*
 * model_matrix.c — the t/E/m scalability matrix in the GUI model. Cells come from the analyzer
 * (an_exp_matrix_cell) with each value's readout as the analyzer writes it (an_cell_explain:
 * the formula, the operands it divided, the runs behind them, what the flags mean) and the run
 * ids behind it, so the matrix window shows what `scalegraph report --matrix` prints and a value
 * can be recomputed from its own readout. Compared experiments keep their own cells (exp > 0):
 * the matrix window draws one matrix per experiment. No X.
 */
#include "model.h"

#include "analyzer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static struct model_fig fig_of(struct model *m, struct an_fig f)
{
	return model_fig_from_an(m, &f);
}

static void add_run(struct model_cell *mc, long long id, int value, int side, int t_seq)
{
	struct model_cell_run *r;

	if (mc->n_runs == MODEL_CELL_MAX_RUNS)
		return;   /* the readout text still names them all */
	r = &mc->runs[mc->n_runs++];
	r->id = id;
	r->value = (signed char)value;
	r->side = (signed char)side;
	r->t_seq = (signed char)t_seq;
}

/* The model cell of an analyzer cell: values, flags, readouts, runs. */
static int cell_of(struct model *m, const struct an_cell *c, struct model_cell *mc)
{
	char buf[4096];
	int k, s;
	size_t i;

	memset(mc, 0, sizeof(*mc));
	mc->n = c->n;
	mc->n2 = c->n2;
	mc->time_bound = fig_of(m, c->scale[AN_TIME_BOUND]);
	mc->e_conserved = fig_of(m, c->scale[AN_E_CONSERVED]);
	mc->memory_bound = fig_of(m, c->scale[AN_MEMORY_BOUND]);
	if ((c->scale[AN_TIME_BOUND].unavailable && !mc->time_bound.why) ||
	    (c->scale[AN_E_CONSERVED].unavailable && !mc->e_conserved.why) ||
	    (c->scale[AN_MEMORY_BOUND].unavailable && !mc->memory_bound.why))
		return -ENOMEM;
	mc->caveat = c->caveat;
	for (k = 0; k < 3; k++) {
		mc->off_target[k] = c->off_target[k];
		an_cell_explain(c, (enum an_model)k, buf, sizeof(buf));
		if (!(mc->explain[k] = model_intern(m, buf)))
			return -ENOMEM;
		for (s = 0; s < 2; s++) {
			const struct an_cell_side *sd = &c->side[k][s];
			if (!sd->point)
				continue;
			for (i = 0; i < (size_t)sd->point->n_reps; i++)
				add_run(mc, sd->point->rep_ids[i], k, s, 0);
			for (i = 0; i < sd->n_t_seq_runs && i < AN_CELL_MAX_RUNS; i++)
				add_run(mc, sd->t_seq_runs[i], k, s, 1);
		}
	}
	return 0;
}

int model_matrix_add(struct model *m, const struct an_exp *e)
{
	int ns[64];
	size_t cnt = an_exp_matrix_n(e, ns, 64), i, j;
	int rc = 0;

	for (i = 0; i < cnt && rc == 0; i++)
		for (j = i + 1; j < cnt && rc == 0; j++) {
			struct an_cell c;
			struct model_cell mc;
			if (an_exp_matrix_cell(e, ns[i], ns[j], &c) < 0)
				continue;
			if ((rc = cell_of(m, &c, &mc)) == 0)
				rc = model_add_cell(m, &mc);
		}
	return rc;
}

/* A string of src for dst: interned there (NULL stays NULL). */
static int reintern(struct model *dst, const char **s)
{
	if (*s && !(*s = model_intern(dst, *s)))
		return -ENOMEM;
	return 0;
}

int model_matrix_merge(struct model *dst, const struct model *src, int exp)
{
	size_t i;
	int k, rc = 0;

	for (i = 0; i < src->n_cells && rc == 0; i++) {
		struct model_cell c = src->cells[i];
		if (c.exp != 0)
			continue;   /* src's own cells only */
		c.exp = exp;
		rc = reintern(dst, &c.time_bound.why) || reintern(dst, &c.e_conserved.why) ||
		     reintern(dst, &c.memory_bound.why) ? -ENOMEM : 0;
		for (k = 0; k < 3 && rc == 0; k++)
			rc = reintern(dst, &c.explain[k]);
		if (rc == 0)
			rc = model_add_cell(dst, &c);
	}
	return rc;
}

const struct model_cell *model_cell_find(const struct model *m, int exp, int n, int n2)
{
	size_t i;

	for (i = 0; i < m->n_cells; i++)
		if (m->cells[i].exp == exp && m->cells[i].n == n && m->cells[i].n2 == n2)
			return &m->cells[i];
	return NULL;
}
