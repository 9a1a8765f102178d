/*
 * inst_directive.c — what the scanner does with a preprocessor line: it follows #if/#elif/#else/
 * #endif so that every token knows its conditional branch (for placing #include <sgtrace.h>
 * where it is compiled whenever the code that needs it is), skips `#if 0` blocks and, on the
 * second parse attempt, every #elif/#else branch (unbalanced braces across branches are the
 * usual reason the first attempt fails); it recognises `#pragma scalegraph region` lines and
 * finds calls to wrapped functions (pthread, POSIX semaphores, _exit and exec) inside #define
 * bodies.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inst_int.h"

/* The functions libsgtrace wraps (sgtrace.h), by prefix; lengths kept beside the names so the
 * search compares bytes only. */
struct wrapped_name {
	const char *s;
	size_t len;
};
#define W(name) { name, sizeof name - 1 }
static const struct wrapped_name wrapped_pthread[] = {
	W("pthread_create"), W("pthread_join"),
	W("pthread_mutex_lock"), W("pthread_mutex_trylock"), W("pthread_mutex_unlock"),
	W("pthread_barrier_wait"),
	W("pthread_spin_lock"), W("pthread_spin_trylock"), W("pthread_spin_unlock"),
	W("pthread_rwlock_rdlock"), W("pthread_rwlock_tryrdlock"), W("pthread_rwlock_wrlock"),
	W("pthread_rwlock_trywrlock"), W("pthread_rwlock_unlock"),
	W("pthread_cond_wait"), W("pthread_cond_timedwait"), W("pthread_cond_signal"),
	W("pthread_cond_broadcast"),
};
/* sem_timedwait and sem_clockwait are declared by sgtrace.h under the same feature macros as by
 * <semaphore.h> (__USE_XOPEN2K; __USE_GNU on glibc >= 2.30): code that can call them sees the
 * wrappers too. */
static const struct wrapped_name wrapped_sem[] = {
	W("sem_init"), W("sem_open"), W("sem_wait"), W("sem_post"), W("sem_trywait"),
	W("sem_timedwait"), W("sem_clockwait"),
};

/* Calls that end the process without exit() or replace it (libsgtrace ends the trace first:
 * docs/tracelib.md "Life cycle"). sg_execvpe and sg_fexecve are declared under the feature
 * macros of their real functions, like sem_clockwait's. */
static const struct wrapped_name wrapped_end[] = {
	W("_exit"), W("_Exit"), W("execve"), W("execv"), W("execvp"), W("execvpe"), W("execl"),
	W("execlp"), W("execle"), W("fexecve"),
};

/* The wrapped names whose wrappers begin a wait: their calls get a call site (sgtrace.h
 * sg_NAME_at). Unlock, post, signal, broadcast, create and init take none: the trace applies a
 * site to a wait-begin, the events that end it and the release of that lock hold. */
static const struct wrapped_name site_calls[] = {
	W("pthread_join"), W("pthread_mutex_lock"), W("pthread_mutex_trylock"),
	W("pthread_barrier_wait"), W("pthread_spin_lock"), W("pthread_spin_trylock"),
	W("pthread_rwlock_rdlock"), W("pthread_rwlock_tryrdlock"), W("pthread_rwlock_wrlock"),
	W("pthread_rwlock_trywrlock"), W("pthread_cond_wait"), W("pthread_cond_timedwait"),
	W("sem_wait"), W("sem_trywait"), W("sem_timedwait"), W("sem_clockwait"),
};
#undef W

/* By first letter, the lengths a wrapped name may have (bit n: length n, n < 32): "pthread_*"
 * names are 12..24 bytes, "sem_*" ones 8..13, "_exit"/"_Exit" 5, "exec*" 5..7, "fexecve" 7
 * (test_inst_unit.c checks every name passes). */
#define LEN_BITS(lo, hi) ((UINT32_C(1) << ((hi) + 1)) - (UINT32_C(1) << (lo)))
static const uint32_t wrapped_lens[256] = {
	['p'] = LEN_BITS(12, 24),
	['s'] = LEN_BITS(8, 13),
	['_'] = LEN_BITS(5, 5),
	['e'] = LEN_BITS(5, 7),
	['f'] = LEN_BITS(7, 7),
};
#undef LEN_BITS

/* Kept out of line: inlined, its loop makes the compiler save registers on every call, also
 * on the fast path that rejects. */
static __attribute__((noinline)) int wrapped_find(const struct wrapped_name *v, size_t n,
						  const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].len == len && !memcmp(v[i].s, s, len))
			return 1;
	return 0;
}

/*
 * Called for every identifier the probe pass meets (and every one in a #define body). One
 * table load and one branch reject almost all of them: that branch is taken by ~3 % of the
 * identifiers in this project's sources and /usr/include, where separate tests of the length
 * (8..24 now that sem_* names are 8 long) and of the first letter mispredict on ~14 %, each
 * miss costing more than the whole test (cachegrind: 5 k instead of 43 k mispredicts per 186 k
 * identifiers; the pthread-only check before had 13 k). Only names with the right length,
 * first letter and prefix search their own short list.
 */
int inst_is_wrapped(const char *s, size_t len)
{
	if (len - 1 >= 31 || !(wrapped_lens[(unsigned char)s[0]] >> len & 1))
		return 0;
	if (s[0] == 'p')
		return !memcmp(s, "pthread_", 8) &&
		       wrapped_find(wrapped_pthread, sizeof wrapped_pthread / sizeof *wrapped_pthread,
				    s, len);
	if (s[0] == 's')
		return !memcmp(s, "sem_", 4) &&
		       wrapped_find(wrapped_sem, sizeof wrapped_sem / sizeof *wrapped_sem, s, len);
	return (s[1] == 'x' || s[1] == 'E' || s[1] == 'e') &&
	       wrapped_find(wrapped_end, sizeof wrapped_end / sizeof *wrapped_end, s, len);
}

int inst_is_end_call(const char *s, size_t len)
{
	return wrapped_find(wrapped_end, sizeof wrapped_end / sizeof *wrapped_end, s, len);
}

int inst_is_site_call(const char *s, size_t len)
{
	return wrapped_find(site_calls, sizeof site_calls / sizeof *site_calls, s, len);
}

/* Skips blanks and comments (no newlines inside a directive except escaped ones). */
static size_t skip_blank(const char *p, size_t i, size_t n)
{
	for (;;) {
		if (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\f' || p[i] == '\v' ||
			      p[i] == '\r')) {
			i++;
		} else if (i + 1 < n && p[i] == '\\' && p[i + 1] == '\n') {
			i += 2;
		} else if (i + 1 < n && p[i] == '/' && p[i + 1] == '*') {
			const char *e = NULL;
			for (size_t j = i + 2; j + 1 < n; j++)
				if (p[j] == '*' && p[j + 1] == '/') {
					e = p + j + 2;
					break;
				}
			if (!e)
				return n;
			i = (size_t)(e - p);
		} else {
			return i;
		}
	}
}

/* Reads an identifier at p[i]; returns its length (0 if none). */
static size_t ident_len(const char *p, size_t i, size_t n)
{
	size_t j = i;
	if (j < n && inst_is_idch((unsigned char)p[j]) && !(p[j] >= '0' && p[j] <= '9'))
		while (j < n && inst_is_idch((unsigned char)p[j]))
			j++;
	return j - i;
}

static int word_is(const char *p, size_t len, const char *w)
{
	return strlen(w) == len && !memcmp(p, w, len);
}

/* True when the rest p[i..n) is "0" and nothing else (blanks, comments). */
static int is_zero_cond(const char *p, size_t i, size_t n)
{
	i = skip_blank(p, i, n);
	if (i >= n || p[i] != '0')
		return 0;
	i = skip_blank(p, i + 1, n);
	if (i + 1 < n && p[i] == '/' && p[i + 1] == '/')
		return 1;
	return i >= n;
}

/*
 * pragma -> '#' 'pragma' 'scalegraph' 'region' ('begin' | 'end') STRING?
 * Returns PRAGMA_BEGIN/END, PRAGMA_BAD for another `#pragma scalegraph`, 0 for other pragmas.
 * `name`/`name_len` receive the string literal with its quotes (length 0 when absent).
 */
int inst_pragma_parse(const char *p, size_t n, const char **name, size_t *name_len)
{
	*name = NULL;
	*name_len = 0;
	size_t i = skip_blank(p, 0, n);
	if (i >= n || p[i] != '#')
		return 0;
	i = skip_blank(p, i + 1, n);
	size_t l = ident_len(p, i, n);
	if (!word_is(p + i, l, "pragma"))
		return 0;
	i = skip_blank(p, i + l, n);
	l = ident_len(p, i, n);
	if (!word_is(p + i, l, "scalegraph"))
		return 0;
	i = skip_blank(p, i + l, n);
	l = ident_len(p, i, n);
	if (!word_is(p + i, l, "region"))
		return PRAGMA_BAD;
	i = skip_blank(p, i + l, n);
	l = ident_len(p, i, n);
	int sub = word_is(p + i, l, "begin") ? PRAGMA_BEGIN :
		  word_is(p + i, l, "end") ? PRAGMA_END : 0;
	if (!sub)
		return PRAGMA_BAD;
	i = skip_blank(p, i + l, n);
	if (i < n && p[i] == '"') {
		size_t j = i + 1;
		while (j < n && p[j] != '"' && p[j] != '\n') {
			if (p[j] == '\\')
				j++;
			j++;
		}
		if (j >= n || p[j] != '"')
			return PRAGMA_BAD;
		*name = p + i;
		*name_len = j + 1 - i;
		i = skip_blank(p, j + 1, n);
	}
	if (i + 1 < n && p[i] == '/' && p[i + 1] == '/')
		i = n;
	return i >= n ? sub : PRAGMA_BAD;
}

uint32_t inst_cond_new(struct inst_lex *lx, uint32_t dir_off, uint32_t dir_line)
{
	if (inst_grow(&lx->conds, &lx->cap_conds, lx->n_conds + 1, sizeof *lx->conds, 64)) {
		lx->oom = 1;
		return 0;
	}
	if (lx->n_conds == 0) { /* branch 0: the file itself */
		lx->conds[0] = (struct inst_cond){ 0, 0, 0, 1, 0 };
		lx->n_conds = 1;
		return inst_cond_new(lx, dir_off, dir_line);
	}
	uint32_t id = (uint32_t)lx->n_conds++;
	uint32_t parent = lx->n_cstack > 1 ? lx->cstack[lx->n_cstack - 2].branch : 0;
	uint8_t fixed = lx->n_cstack && lx->cstack[lx->n_cstack - 1].fixed;
	lx->conds[id] = (struct inst_cond){ parent, lx->conds[parent].depth + 1, dir_off, dir_line,
					    fixed };
	return id;
}

static int cstack_push(struct inst_lex *lx)
{
	if (inst_grow(&lx->cstack, &lx->cap_cstack, lx->n_cstack, sizeof *lx->cstack, 16)) {
		lx->oom = 1;
		return -ENOMEM;
	}
	lx->n_cstack++;
	return 0;
}

/* Starts a new branch of the innermost group (for #if/#elif/#else in live code). */
static void branch_begin(struct inst_lex *lx)
{
	size_t top = lx->n_cstack - 1;
	uint32_t b = inst_cond_new(lx, lx->cstack[top].dir_off, lx->cstack[top].dir_line);
	lx->cstack[top].branch = b;
	lx->cur_cond = b;
}

/* The second parse attempt skips the branch whose directive is being read: noted for the
 * warning that names the lines not instrumented (inst_file.c). */
static void drop_begin(struct inst_lex *lx)
{
	if (inst_grow(&lx->drops, &lx->cap_drops, lx->n_drops, sizeof *lx->drops, 8)) {
		lx->oom = 1;
		return;
	}
	size_t top = lx->n_cstack - 1;
	lx->drops[lx->n_drops++] = (struct inst_drop){ lx->dir_off, lx->dir_line, 0, 0,
						       lx->cstack[top].dir_off,
						       lx->cstack[top].dir_line };
}

/* #define NAME body: records wrapped names (pthread_*, sem_*) called in the body. */
static void define_sites(struct inst_lex *lx, const char *p, size_t n, uint32_t base)
{
	size_t i = 0;
	int first = 1;
	while (i < n) {
		char c = p[i];
		if (c == '"' || c == '\'') {
			for (i++; i < n && p[i] != c && p[i] != '\n'; i++)
				if (p[i] == '\\')
					i++;
			i++;
		} else if (c == '/' && i + 1 < n && (p[i + 1] == '*' || p[i + 1] == '/')) {
			if (p[i + 1] == '/')
				return;
			i = skip_blank(p, i, n);
		} else if (inst_is_idch((unsigned char)c)) {
			size_t l = 0;
			while (i + l < n && inst_is_idch((unsigned char)p[i + l]))
				l++;
			size_t paren = skip_blank(p, i + l, n);
			int called = paren < n && p[paren] == '(';
			if (!first && called && inst_is_wrapped(p + i, l) &&
			    !(i > 0 && p[i - 1] == '#')) {
				if (inst_grow(&lx->dsites, &lx->cap_dsites, lx->n_dsites,
					      sizeof *lx->dsites, 8)) {
					lx->oom = 1;
					return;
				}
				uint32_t line = lx->dir_line;
				for (size_t k = 0; k < i; k++)
					line += p[k] == '\n';
				lx->dsites[lx->n_dsites++] =
					(struct inst_site){ base + (uint32_t)i, line, lx->cur_cond,
							    base + (uint32_t)paren };
			}
			first = 0;
			i += l;
		} else {
			i++;
		}
	}
}

int inst_directive(struct inst_lex *lx, uint32_t end)
{
	const char *p = lx->src + lx->dir_off;
	size_t n = end - lx->dir_off;
	size_t i = skip_blank(p, 0, n);
	if (i < n && p[i] == '#')
		i = skip_blank(p, i + 1, n);
	size_t l = ident_len(p, i, n);
	const char *w = p + i;
	int skipping = lx->skip_level != 0;

	if (word_is(w, l, "if") || word_is(w, l, "ifdef") || word_is(w, l, "ifndef")) {
		if (cstack_push(lx))
			return 0;
		size_t top = lx->n_cstack - 1;
		lx->cstack[top].taken = 1;
		lx->cstack[top].fixed = 0;
		lx->cstack[top].dir_off = lx->dir_off;
		lx->cstack[top].dir_line = lx->dir_line;
		lx->cstack[top].branch = lx->cur_cond;
		if (skipping)
			return 0;
		if (word_is(w, l, "if") && is_zero_cond(p, i + l, n))
			lx->cstack[top].fixed = 1;
		branch_begin(lx);
		if (lx->cstack[top].fixed) {
			lx->cstack[top].taken = 0;
			lx->skip_level = lx->n_cstack;
		}
		return 0;
	}
	if (word_is(w, l, "elif") || word_is(w, l, "else") || word_is(w, l, "elifdef") ||
	    word_is(w, l, "elifndef")) {
		if (lx->n_cstack == 0 || (skipping && lx->skip_level < lx->n_cstack))
			return 0;
		size_t top = lx->n_cstack - 1;
		int zero = word_is(w, l, "elif") && is_zero_cond(p, i + l, n);
		if (skipping) { /* this group's previous branch was skipped */
			if (lx->cstack[top].taken || zero)
				return 0;
			lx->skip_level = 0;
			lx->cstack[top].taken = 1;
			if (!word_is(w, l, "else"))
				lx->cstack[top].fixed = 0; /* `#elif X` after `#if 0`: X decides */
			branch_begin(lx);
			return 0;
		}
		if (lx->first_branch_only) {
			lx->skip_level = lx->n_cstack;
			drop_begin(lx);
			return 0;
		}
		if (!zero)
			lx->cstack[top].fixed = 0; /* `#elif X` after `#if 0`: X decides */
		branch_begin(lx);
		if (zero) {
			lx->cstack[top].taken = 0;
			lx->skip_level = lx->n_cstack;
		}
		return 0;
	}
	if (word_is(w, l, "endif")) {
		if (lx->n_cstack == 0)
			return 0;
		if (lx->skip_level == lx->n_cstack) {
			struct inst_drop *dr = lx->n_drops ? &lx->drops[lx->n_drops - 1] : NULL;
			lx->skip_level = 0;
			if (lx->first_branch_only && dr && !dr->end &&
			    dr->if_off == lx->cstack[lx->n_cstack - 1].dir_off) {
				dr->end = lx->dir_off; /* the branches not read end here */
				dr->end_line = lx->dir_line;
			}
		}
		lx->n_cstack--;
		if (!lx->skip_level)
			lx->cur_cond = lx->n_cstack ? lx->cstack[lx->n_cstack - 1].branch : 0;
		return 0;
	}
	if (skipping)
		return 0;
	if (word_is(w, l, "define")) {
		define_sites(lx, w + l, n - i - l, lx->dir_off + (uint32_t)(i + l));
		return 0;
	}
	if (word_is(w, l, "pragma")) {
		const char *name;
		size_t name_len;
		return inst_pragma_parse(p, n, &name, &name_len);
	}
	return 0;
}

void inst_lex_free(struct inst_lex *lx)
{
	free(lx->conds);
	free(lx->cstack);
	free(lx->dsites);
	free(lx->drops);
	free(lx->brk);
	lx->conds = NULL;
	lx->cstack = NULL;
	lx->dsites = NULL;
	lx->drops = NULL;
	lx->brk = NULL;
}
