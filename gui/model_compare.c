/*
 * model_compare.c — several experiments in one GUI model, for window 10 (compare): the
 * experiment opened first keeps everything (runs, matrix, profile, patterns), and each further
 * one adds its scaling methods' points as methods named "EXP:method", so the curve windows
 * (4-7) overlay them with the method toggles and a legend naming experiment and method. No X.
 */
#include "model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int exp_known(const struct model *m, const char *name)
{
	size_t i;

	if (m->name && strcmp(m->name, name) == 0)
		return 1;
	for (i = 0; i < m->n_exps; i++)
		if (strcmp(m->exps[i], name) == 0)
			return 1;
	return 0;
}

int model_strv_add(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	if (!(nv[*n] = strdup(s)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* Registers src's name (made unique) as experiment n_exps + 1; *k gets that number. */
static int add_exp(struct model *dst, const char *name, int *k)
{
	char buf[256];
	int i, rc;

	snprintf(buf, sizeof(buf), "%s", name && *name ? name : "experiment");
	for (i = 2; exp_known(dst, buf); i++)
		snprintf(buf, sizeof(buf), "%s#%d", name && *name ? name : "experiment", i);
	if ((rc = model_strv_add(&dst->exps, &dst->n_exps, buf)) < 0)
		return rc;
	*k = (int)dst->n_exps;
	return 0;
}

/* A figure of another model with its reason copied into dst (on ENOMEM the reason is kept
 * unavailable with a fixed text, never turned into a value). */
static struct model_fig intern_fig(struct model *dst, struct model_fig f)
{
	if (f.why && !(f.why = model_intern(dst, f.why)))
		f.why = "out of memory";
	return f;
}

int model_merge(struct model *dst, const struct model *src)
{
	char name[512];
	size_t i, j;
	int k, f, rc;

	if ((rc = add_exp(dst, src->name, &k)) < 0)
		return rc;
	if (dst->cost_mark <= 0)   /* its points' marks are said in the windows' notes */
		dst->cost_mark = src->cost_mark;
	for (i = 0; i < src->n_methods; i++) {
		const struct model_method *me = &src->methods[i];
		int idx;
		snprintf(name, sizeof(name), "%s:%s", dst->exps[k - 1], me->name);
		for (j = 0; j < me->n_pts; j++) {
			struct model_point p = me->pts[j];
			for (f = 0; f < MODEL_N_METRICS; f++)
				if (p.fig[f].why && !(p.fig[f].why = model_intern(dst, p.fig[f].why)))
					return -ENOMEM;
			p.trace_cost = intern_fig(dst, p.trace_cost);
			p.trace_share = intern_fig(dst, p.trace_share);
			p.ovh_measured = intern_fig(dst, p.ovh_measured);
			p.ovh_estimated = intern_fig(dst, p.ovh_estimated);
			p.t_plain = intern_fig(dst, p.t_plain);
			if ((p.ovh_text && !(p.ovh_text = model_intern(dst, p.ovh_text))) ||
			    (p.ovh_why && !(p.ovh_why = model_intern(dst, p.ovh_why))))
				return -ENOMEM;
			if (p.t_seq_basis && !(p.t_seq_basis = model_intern(dst, p.t_seq_basis)))
				return -ENOMEM;
			if ((rc = model_add_point(dst, name, &p)) < 0)
				return rc;
		}
		if ((idx = model_method_find(dst, name)) >= 0) {
			/* p_x goes with the method (both experiments' are marked) */
			struct model_method *d = &dst->methods[idx];
			d->exp = k;
			d->px_n = me->px_n;
			d->px_set = 1;
			d->px_t_para = intern_fig(dst, me->px_t_para);
			d->px_l = intern_fig(dst, me->px_l);
			d->px_l_e = intern_fig(dst, me->px_l_e);
			d->px_l_e_note = me->px_l_e_note ? model_intern(dst, me->px_l_e_note) : NULL;
		}
	}
	return model_matrix_merge(dst, src, k);
}

int model_load_compare(struct model *m, char *const *dirs, size_t n, char *err, size_t err_len)
{
	struct model other;
	size_t i;
	int rc;

	if (n == 0)
		return -EINVAL;
	if ((rc = model_load_dir(m, dirs[0], err, err_len)) < 0)
		return rc;
	for (i = 1; i < n; i++) {
		model_init(&other);
		rc = model_load_dir(&other, dirs[i], err, err_len);
		if (rc == 0 && (rc = model_merge(m, &other)) < 0)
			snprintf(err, err_len, "%s: error: out of memory", dirs[i]);
		model_clear(&other);
		if (rc < 0)
			return rc;
	}
	return 0;
}

long long model_dirs_stamp(char *const *dirs, size_t n)
{
	unsigned long long s = 0; /* a hash: wraps, never overflows */
	size_t i;

	for (i = 0; i < n; i++)
		s += (unsigned long long)model_dir_stamp(dirs[i]) * (i + 1);
	return (long long)(s >> 1);
}

void model_method_label(const struct model *m, size_t i, char *buf, size_t len)
{
	const struct model_method *me = &m->methods[i];

	if (m->n_exps > 0 && me->exp == 0)
		snprintf(buf, len, "%s:%s", m->name ? m->name : "experiment", me->name);
	else
		snprintf(buf, len, "%s", me->name);
}
