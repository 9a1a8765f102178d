/*
 * sgr_resolve.c — turns the call sites a trace knows by return address (SITE_PC definitions,
 * format 1.6: the plain wrappers that `scalegraph cc` calls) into the file:line and function
 * that a SITE definition carries, through the program's own line table, so that everything
 * above the reader (dump, analyzer, exports, GUI) sees one kind of site.
 *
 * How, per object named in the definitions (usually just the executable):
 *   - the file must still be there and, when the trace has its build-id, have the same one
 *     (else the binary was rebuilt since the run, and its lines would be another program's);
 *   - `addr2line -f -e OBJ` (binutils; $SG_ADDR2LINE overrides) is given each return address
 *     minus 1 (the call instruction's last byte, so the call's line, not the next statement's)
 *     and, for a direct call (e8 rel32 before the return address), the call's target;
 *   - a direct call whose target is a function of the program, not a PLT stub or an sg_
 *     wrapper, means the wrapper was reached by a tail call from that function (`void
 *     lock(m) { pthread_mutex_lock(m); }` compiles to a jmp): the return address is then its
 *     caller's, and the site says so ("f, via lock (tail call)") rather than passing the call
 *     of lock off as the wait;
 *   - file names are shown as the compiler was given them: the compilation directory that
 *     addr2line puts in front (DW_AT_comp_dir, from `readelf --debug-dump=info
 *     --dwarf-depth=1`) is taken off again, as a SITE definition's file never had it.
 * A site that cannot be resolved keeps a name that says so, never a guess:
 * file "prog+0x1a2b", line 0, function "(not resolved: REASON)". SG_SITE_RESOLVE=0 turns the
 * subprocesses off (the sites stay "not resolved").
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sgr_int.h"

extern char **environ;

/* Runs argv (PATH search) with stdout into a malloc'ed NUL-terminated buffer, stdin and stderr
 * on /dev/null. 0 when it ran and exited 0, else -1. */
static int run_capture(char *const argv[], char **out)
{
	int pfd[2];
	*out = NULL;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (rc != 0) {
		close(pfd[0]);
		return -1;
	}
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	for (;;) {
		if (buf && len + 1024 > cap) {
			char *q = realloc(buf, cap * 2);
			if (!q) {
				free(buf);
				buf = NULL;
			} else {
				buf = q;
				cap *= 2;
			}
		}
		char sink[1024];
		ssize_t n = buf ? read(pfd[0], buf + len, cap - len - 1)
				: read(pfd[0], sink, sizeof sink);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (buf)
			len += (size_t)n;
	}
	close(pfd[0]);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!buf || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

/* What the reader needs of an ELF file: its build-id and the bytes at an address. */
struct elf_view {
	unsigned char *map;
	size_t size;
	Elf64_Phdr *ph;
	int n_ph;
	char build_id[81];
};

static int elf_open(const char *path, struct elf_view *e)
{
	memset(e, 0, sizeof *e);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf64_Ehdr) ||
	    st.st_size > ((off_t)1 << 34)) {
		close(fd);
		return -1;
	}
	e->size = (size_t)st.st_size;
	e->map = malloc(e->size);
	size_t got = 0;
	while (e->map && got < e->size) {
		ssize_t n = pread(fd, e->map + got, e->size - got, (off_t)got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!e->map || got < e->size)
		goto bad;
	Elf64_Ehdr eh;
	memcpy(&eh, e->map, sizeof eh);
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > e->size ||
	    (size_t)eh.e_phnum * sizeof(Elf64_Phdr) > e->size - eh.e_phoff)
		goto bad;
	e->ph = (Elf64_Phdr *)(void *)(e->map + eh.e_phoff);
	e->n_ph = eh.e_phnum;
	for (int i = 0; i < e->n_ph; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, &e->ph[i], sizeof ph);
		if (ph.p_type != PT_NOTE || ph.p_offset > e->size || ph.p_filesz > e->size - ph.p_offset)
			continue;
		const unsigned char *p = e->map + ph.p_offset;
		size_t left = ph.p_filesz;
		while (left >= sizeof(Elf64_Nhdr)) {
			Elf64_Nhdr nh;
			memcpy(&nh, p, sizeof nh);
			size_t nsz = ((size_t)nh.n_namesz + 3u) & ~(size_t)3;
			size_t dsz = ((size_t)nh.n_descsz + 3u) & ~(size_t)3;
			if (nsz > left || dsz > left || sizeof nh + nsz + dsz > left)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp(p + sizeof nh, "GNU", 4) == 0 && nh.n_descsz <= 40) {
				for (uint32_t k = 0; k < nh.n_descsz; k++)
					snprintf(e->build_id + 2 * k, 3, "%02x",
						 p[sizeof nh + nsz + k]);
				return 0;
			}
			p += sizeof nh + nsz + dsz;
			left -= sizeof nh + nsz + dsz;
		}
	}
	return 0;
bad:
	free(e->map);
	e->map = NULL;
	return -1;
}

/* The n bytes at virtual address va, or NULL when the file does not hold them. */
static const unsigned char *elf_at(const struct elf_view *e, uint64_t va, size_t n)
{
	for (int i = 0; i < e->n_ph; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, &e->ph[i], sizeof ph);
		if (ph.p_type != PT_LOAD || va < ph.p_vaddr || va - ph.p_vaddr + n > ph.p_filesz)
			continue;
		uint64_t off = ph.p_offset + (va - ph.p_vaddr);
		return off + n <= e->size ? e->map + off : NULL;
	}
	return NULL;
}

/* The compilation directories of path's units, newline-separated in *dirs (or NULL). */
static void comp_dirs(const char *path, char **dirs)
{
	char *argv[] = { (char *)"readelf", (char *)"--debug-dump=info", (char *)"--dwarf-depth=1",
			 (char *)path, NULL };
	char *out;
	*dirs = NULL;
	if (run_capture(argv, &out) < 0)
		return;
	size_t n = 0;
	char *save = NULL;
	for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strstr(l, "DW_AT_comp_dir"))
			continue;
		char *v = strrchr(l, ':');
		if (!v)
			continue;
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		size_t k = strlen(v);
		memmove(out + n, v, k);
		n += k;
		out[n++] = '\n';
	}
	out[n] = '\0';
	*dirs = out;
}

/* file without the longest compilation directory (and its '/') it starts with. */
static const char *strip_comp_dir(const char *file, const char *dirs)
{
	size_t best = 0;
	for (const char *d = dirs; d && *d;) {
		const char *nl = strchr(d, '\n');
		size_t k = nl ? (size_t)(nl - d) : strlen(d);
		if (k > best && strncmp(file, d, k) == 0 && file[k] == '/')
			best = k + 1;
		d = nl ? nl + 1 : d + k;
	}
	return file + best;
}

static void site_set(struct sgr_site *s, const char *file, int line, const char *func)
{
	char *f = strdup(file), *fn = strdup(func);
	if (!f || !fn) {
		free(f);
		free(fn);
		return;
	}
	free((char *)s->file);
	free((char *)s->func);
	s->file = f;
	s->func = fn;
	s->line = line;
}

static void site_unresolved(struct sgr_site *s, const struct sgr_site_pc *p, const char *why)
{
	const char *base = strrchr(p->obj, '/');
	char file[512], func[256];
	snprintf(file, sizeof file, "%s+0x%" PRIx64, base ? base + 1 : p->obj[0] ? p->obj : "?",
		 p->addr);
	snprintf(func, sizeof func, "(not resolved: %s)", why);
	site_set(s, file, 0, func);
}

/* Takes the next line of *cur (NUL-terminated in place), or NULL. */
static char *next_line(char **cur)
{
	char *l = *cur;
	if (!l || !*l)
		return NULL;
	char *nl = strchr(l, '\n');
	if (nl) {
		*nl = '\0';
		*cur = nl + 1;
	} else {
		*cur = l + strlen(l);
	}
	return l;
}

/* Resolves the sites of one object: those of pcs[i] with same_obj[i] set. */
static void resolve_object(struct sgr_trace *t, const char *obj, size_t *idx, size_t n)
{
	struct elf_view e;
	const char *why = NULL;
	if (!obj[0])
		why = "object not known";
	else if (elf_open(obj, &e) < 0)
		why = "binary not readable";
	if (!why && t->site_pcs[idx[0]].build_id[0] &&
	    strcmp(e.build_id, t->site_pcs[idx[0]].build_id) != 0) {
		why = "binary rebuilt since the run (build-id differs)";
		free(e.map);
	}
	if (why) {
		for (size_t i = 0; i < n; i++) {
			struct sgr_site *s = (struct sgr_site *)sgr_site(t, t->site_pcs[idx[i]].id);
			if (s)
				site_unresolved(s, &t->site_pcs[idx[i]], why);
		}
		return;
	}
	/* per site: ret-1, and the direct call's target (0: none) */
	uint64_t *target = calloc(n, sizeof *target);
	char **argv = calloc(n + 8, sizeof *argv);
	char *num = malloc(2 * n * 24 + 1);   /* ret-1 and target per site */
	char *out = NULL, *out2 = NULL, *dirs = NULL;
	char **tname = NULL;   /* per site: the function its call's target is in, or NULL */
	size_t *tidx = NULL;   /* the sites with a direct call's target, in order */
	if (!target || !argv || !num)
		goto out;
	size_t a = 0, w = 0;
	argv[a++] = getenv("SG_ADDR2LINE") ? getenv("SG_ADDR2LINE") : (char *)"addr2line";
	argv[a++] = (char *)"-f";
	argv[a++] = (char *)"-e";
	argv[a++] = (char *)obj;
	for (size_t i = 0; i < n; i++) {
		uint64_t ret = t->site_pcs[idx[i]].addr;
		const unsigned char *c = ret >= 5 ? elf_at(&e, ret - 5, 5) : NULL;
		if (c && c[0] == 0xe8) {
			int32_t rel;
			memcpy(&rel, c + 1, 4);
			target[i] = ret + (uint64_t)(int64_t)rel;
		}
		argv[a++] = num + w;
		w += (size_t)sprintf(num + w, "0x%" PRIx64, ret ? ret - 1 : 0) + 1;
	}
	argv[a] = NULL;
	if (run_capture(argv, &out) < 0) {
		why = "addr2line failed (binutils installed?)";
		goto out;
	}
	/* the call targets: the function that holds each, the outermost of its inline chain
	 * (-i; a wrapper's first instructions are often a static inline helper's) */
	tname = calloc(n, sizeof *tname);
	tidx = calloc(n, sizeof *tidx);
	if (!tname || !tidx)
		goto out;
	size_t n_t = 0;
	a = 0;
	argv[a++] = getenv("SG_ADDR2LINE") ? getenv("SG_ADDR2LINE") : (char *)"addr2line";
	argv[a++] = (char *)"-a";
	argv[a++] = (char *)"-i";
	argv[a++] = (char *)"-f";
	argv[a++] = (char *)"-e";
	argv[a++] = (char *)obj;
	for (size_t i = 0; i < n; i++)
		if (target[i]) {
			tidx[n_t++] = i;
			argv[a++] = num + w;
			w += (size_t)sprintf(num + w, "0x%" PRIx64, target[i]) + 1;
		}
	argv[a] = NULL;
	if (n_t && run_capture(argv, &out2) == 0) {
		/* per target: "0x<address>", then function and file:line lines, innermost first */
		char *c2 = out2, *l;
		long blk = -1;
		size_t k = 0;
		while ((l = next_line(&c2)) != NULL) {
			if (l[0] == '0' && l[1] == 'x') {
				blk++;
				k = 0;
			} else if (blk >= 0 && (size_t)blk < n_t && k++ % 2 == 0) {
				tname[tidx[blk]] = l;
			}
		}
	}
	comp_dirs(obj, &dirs);
	char *cur = out;
	for (size_t i = 0; i < n; i++) {
		struct sgr_site_pc *p = &t->site_pcs[idx[i]];
		struct sgr_site *s = (struct sgr_site *)sgr_site(t, p->id);
		char *fn = next_line(&cur), *fl = next_line(&cur);
		char *tfn = tname[i];
		if (!s)
			continue;
		if (!fn || !fl) {
			site_unresolved(s, p, "addr2line said nothing");
			continue;
		}
		char *colon = strrchr(fl, ':');
		int line = colon ? atoi(colon + 1) : 0;
		if (colon)
			*colon = '\0';
		if (line <= 0 || strcmp(fl, "??") == 0) {
			site_unresolved(s, p, "no line table: build with -g or scalegraph cc");
			continue;
		}
		char func[512];
		if (tfn && strcmp(tfn, "??") != 0 && strncmp(tfn, "sg_", 3) != 0)
			snprintf(func, sizeof func, "%s, via %s (tail call)",
				 strcmp(fn, "??") ? fn : "?", tfn);
		else
			snprintf(func, sizeof func, "%s", strcmp(fn, "??") ? fn : "");
		site_set(s, strip_comp_dir(fl, dirs), line, func);
	}
out:
	if (why || !target || !argv || !num || !tname || !tidx) {
		for (size_t i = 0; i < n; i++) {
			struct sgr_site *s = (struct sgr_site *)sgr_site(t, t->site_pcs[idx[i]].id);
			if (s && !s->file[0])
				site_unresolved(s, &t->site_pcs[idx[i]], why ? why : "out of memory");
		}
	}
	free(e.map);
	free(target);
	free(argv);
	free(num);
	free(out);
	free(out2);
	free(tname);
	free(tidx);
	free(dirs);
}

void sgr_sites_resolve(struct sgr_trace *t)
{
	if (!t->n_site_pcs)
		return;
	const char *env = getenv("SG_SITE_RESOLVE");
	int off = env && strcmp(env, "0") == 0;
	size_t *idx = malloc(t->n_site_pcs * sizeof *idx);
	char *done = calloc(t->n_site_pcs, 1);
	if (!idx || !done)
		goto out;
	for (size_t i = 0; i < t->n_site_pcs; i++) {
		if (done[i])
			continue;
		size_t n = 0;
		for (size_t j = i; j < t->n_site_pcs; j++)
			if (!done[j] && strcmp(t->site_pcs[j].obj, t->site_pcs[i].obj) == 0 &&
			    strcmp(t->site_pcs[j].build_id, t->site_pcs[i].build_id) == 0) {
				idx[n++] = j;
				done[j] = 1;
			}
		if (off) {
			for (size_t k = 0; k < n; k++) {
				struct sgr_site *s =
					(struct sgr_site *)sgr_site(t, t->site_pcs[idx[k]].id);
				if (s)
					site_unresolved(s, &t->site_pcs[idx[k]],
							"SG_SITE_RESOLVE=0");
			}
			continue;
		}
		resolve_object(t, t->site_pcs[i].obj, idx, n);
	}
	/* one source call compiled into several calls (inlined, unrolled): one site */
	for (size_t i = 0; i < t->n_sites; i++)
		for (size_t j = 0; j < i && t->sites[i].line > 0; j++)
			if (!t->sites[j].same && t->sites[j].line == t->sites[i].line &&
			    strcmp(t->sites[j].file, t->sites[i].file) == 0 &&
			    strcmp(t->sites[j].func, t->sites[i].func) == 0) {
				t->sites[i].same = t->sites[j].id;
				break;
			}
out:
	free(idx);
	free(done);
}
