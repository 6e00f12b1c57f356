/* perf-keys.c: a perf profile's samples as the keys of a distribution
 * (stacks through keys.c's builder, DSOs by maps.c's rules), and each
 * unnamed PC keyed by its DSO and its offset in the file. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/hash.h"
#include "base/util.h"
#include "dist.h"
#include "keys.h"
#include "maps.h"
#include "perf-int.h"
#include "perfscript.h"
#include "profile-core.h"

/* perf's mappings sorted by (pid, path, start, text order), so that the
 * ones of a process and file are found by binary search. */
struct map_index {
	const struct mmap **by;   /* into perf->mmaps */
	uint64_t *max_end;        /* the greatest end of its group's mappings up to each */
	size_t n;
};

static int cmp_mmaps(const void *a, const void *b)
{
	const struct mmap *x = *(const struct mmap *const *)a, *y = *(const struct mmap *const *)b;
	int c;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if ((c = strcmp(x->path, y->path)) != 0)
		return c;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x < y ? -1 : x > y;
}

static uint64_t end_of(const struct mmap *m)
{
	return m->start + m->len < m->start ? UINT64_MAX : m->start + m->len;
}

static void map_index_build(struct map_index *ix, const struct cprof_perf *perf)
{
	size_t i;

	ix->n = perf->mmaps ? perf->mmaps->len : 0;
	ix->by = cprof_xcalloc(ix->n ? ix->n : 1, sizeof(*ix->by));
	ix->max_end = cprof_xcalloc(ix->n ? ix->n : 1, sizeof(*ix->max_end));
	for (i = 0; i < ix->n; i++)
		ix->by[i] = &g_array_index(perf->mmaps, struct mmap, i);
	qsort(ix->by, ix->n, sizeof(*ix->by), cmp_mmaps);
	for (i = 0; i < ix->n; i++) {
		const struct mmap *m = ix->by[i], *p = i ? ix->by[i - 1] : NULL;

		ix->max_end[i] = end_of(m);
		if (p && p->pid == m->pid && strcmp(p->path, m->path) == 0)
			ix->max_end[i] = MAX(ix->max_end[i], ix->max_end[i - 1]);
	}
}

static void map_index_free(struct map_index *ix)
{
	free(ix->by);
	free(ix->max_end);
}

/* The order of (pid, dso, addr) against mapping m's (pid, path, start). */
static int cmp_place(uint64_t pid, const char *dso, uint64_t addr, const struct mmap *m)
{
	int c;

	if (pid != m->pid)
		return pid < m->pid ? -1 : 1;
	if ((c = strcmp(dso, m->path)) != 0)
		return c;
	return addr < m->start ? -1 : 1;
}

/* The mapping perf printed that holds address `addr` of process `pid`
 * in `dso`, the newest of them; NULL when none.  A binary search, then
 * back over the mappings of the file that reach past addr. */
static const struct mmap *mapping_of(const struct map_index *ix, uint64_t pid, uint64_t addr,
				     const char *dso)
{
	const struct mmap *best = NULL;
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {       /* the first mapping past (pid, dso, addr) */
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_place(pid, dso, addr, ix->by[mid]) < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	while (lo-- > 0 && ix->by[lo]->pid == pid && ix->max_end[lo] > addr &&
	       strcmp(ix->by[lo]->path, dso) == 0) {
		const struct mmap *m = ix->by[lo];

		if (addr < end_of(m) && (!best || m > best))
			best = m;
	}
	return best;
}

/* How many forks up a child's address is looked for in its parents'. */
enum { MAX_FORK_DEPTH = 64 };

static int cmp_forks(const void *a, const void *b)
{
	const struct fork *x = a, *y = b;

	if (x->child != y->child)
		return x->child < y->child ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* perf->forks sorted by child, each child's forks in text order. */
static void forks_sort(struct cprof_perf *perf)
{
	if (perf->forks)
		qsort(perf->forks->data, perf->forks->len, sizeof(struct fork), cmp_forks);
}

/* The process that process `pid` was forked from (its last fork in the
 * text, when its pid was reused), into *parent; false when none. */
static bool parent_of(const struct cprof_perf *perf, uint64_t pid, uint64_t *parent)
{
	size_t lo = 0, hi = perf->forks ? perf->forks->len : 0;

	while (lo < hi) {       /* the first fork of a child past pid */
		size_t mid = lo + (hi - lo) / 2;

		if (g_array_index(perf->forks, struct fork, mid).child <= pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || g_array_index(perf->forks, struct fork, lo - 1).child != pid)
		return false;
	*parent = g_array_index(perf->forks, struct fork, lo - 1).parent;
	return true;
}

/* mapping_of for process `pid`, else for the process it was forked from
 * (the mappings a child inherits have no record of their own), and up. */
static const struct mmap *inherited_mapping_of(const struct cprof_perf *perf,
					       const struct map_index *ix, uint64_t pid,
					       uint64_t addr, const char *dso)
{
	const struct mmap *m = mapping_of(ix, pid, addr, dso);
	int depth;

	for (depth = 0; !m && depth < MAX_FORK_DEPTH && parent_of(perf, pid, &pid); depth++)
		m = mapping_of(ix, pid, addr, dso);
	return m;
}

/* The key of an unnamed PC at `addr` in `dso`, where no file offset
 * tells its place: "[NAME]" by function as keys.c keys it, the address
 * itself by address (g_free it). */
static char *anonymous_key(const struct cprof_perf *perf, const char *dso, uint64_t addr)
{
	char *key, *out;

	if (perf->addresses)
		return g_strdup_printf("0x%" PRIx64, addr);
	key = cprof_dso_unnamed(cprof_dso_basename(dso));
	out = g_strdup(key);
	free(key);
	return out;
}

/* An unnamed PC's frame: "[unknown]@[PID:]ADDR[~]" ("~" a call
 * chain's). */
struct unnamed {
	uint64_t pid, addr;
	bool has_pid, chain;
};

/* Reads frame f's unnamed PC into *u; false when f is none. */
static bool unnamed_of(const struct frame *f, struct unnamed *u)
{
	const char *at = f->key + 10, *colon;
	char *end;

	if (f->sym_len < 11 || memcmp(f->key, "[unknown]@", 10) != 0)
		return false;
	colon = strchr(at, ':');
	u->has_pid = colon != NULL;
	u->pid = u->has_pid ? strtoull(at, NULL, 10) : 0;
	u->addr = strtoull(u->has_pid ? colon + 1 : at, &end, 16);
	u->chain = *end == '~';
	return true;
}

/* True when `dso` names a file whose offsets a mapping could give. */
static bool in_file(const char *dso)
{
	return dso[0] && dso[0] != '[' && !cprof_perf_dso_anonymous(dso, strlen(dso));
}

/* True when the call chains' unnamed PCs are run-time addresses: every
 * one in a file lies in a mapping of its process and file (perf 6 prints
 * them relative to the file, which a non-PIE program's mapping may hold
 * by chance, but not all of them). */
static bool chains_absolute(const struct cprof_perf *perf, const struct map_index *ix)
{
	size_t i, inside = 0;
	struct unnamed u;

	for (i = 0; i < perf->num_frames; i++) {
		const struct frame *f = perf->frames[i];

		const struct mmap *m;

		if (!unnamed_of(f, &u) || !u.chain || !u.has_pid || !in_file(frame_dso(f)))
			continue;
		m = inherited_mapping_of(perf, ix, u.pid, u.addr, frame_dso(f));
		if (!m)
			return false;
		inside += !m->anonymous;
	}
	return inside > 0;
}

void cprof_perf_key_unnamed(struct cprof_perf *perf, bool child, struct cprof_profile *profile)
{
	struct map_index ix;
	uint64_t runtime = 0;
	bool absolute;
	size_t i;

	map_index_build(&ix, perf);
	forks_sort(perf);
	absolute = chains_absolute(perf, &ix);
	for (i = 0; i < perf->num_frames; i++) {
		const struct frame *f = perf->frames[i];
		const char *dso = frame_dso(f);
		const struct mmap *m = NULL;
		struct unnamed u;
		uint64_t off;

		if (!unnamed_of(f, &u))
			continue;
		if (!perf->aliases)
			perf->aliases = cprof_xcalloc(perf->num_frames, sizeof(*perf->aliases));
		if (!dso[0] || strcmp(dso, "[unknown]") == 0) {
			perf->aliases[i] = g_strdup_printf("0x%" PRIx64, u.addr);
			continue;
		}
		if (u.has_pid)
			m = inherited_mapping_of(perf, &ix, u.pid, u.addr, dso);
		if ((m && m->anonymous) || cprof_perf_dso_anonymous(dso, strlen(dso))) {
			perf->aliases[i] = anonymous_key(perf, dso, u.addr);
			continue;
		}
		if (m && (!u.chain || absolute)) {
			off = u.addr - m->start + m->pgoff;
		} else {
			off = u.addr;
			runtime += u.addr >> 32 != 0 && dso[0] != '[';
		}
		perf->aliases[i] = g_strdup_printf("%s+0x%" PRIx64, cprof_dso_basename(dso), off);
	}
	map_index_free(&ix);
	if (runtime) {
		char *text = g_strdup_printf(
			"unnamed PCs keyed by the run-time address perf script printed (DSO+0xADDRESS), "
			"which varies across runs: %" PRIu64 " of them; %s", runtime,
			child ? "perf printed no mapping of their process (or of one it was forked "
				"from) that holds them" :
				"perf.data itself, or perf script --show-mmap-events "
				"--show-task-events -F +pid, gives offsets in the file");

		cprof_ptrs_add(&profile->notes, cprof_xstrdup(text));
		g_free(text);
	}
}

/* The key of frame `f` by `by` (sanitized to UTF-8; g_free it): an
 * unnamed PC's by function its DSO and offset, "DSO+0xOFF"; a frame
 * without a DSO in "[unknown]". */
static char *frame_name(const struct cprof_perf *perf, const struct frame *f, enum cprof_by by)
{
	const char *dso = frame_dso(f)[0] ? cprof_dso_basename(frame_dso(f)) : "[unknown]";
	const char *name = frame_sym(f);
	char *bracketed = NULL, *out;
	bool replaced = false;

	if (by == CPROF_BY_DSO) {
		name = dso;
	} else if (by == CPROF_BY_LINE && f->srcline) {
		name = f->srcline;
	} else if (perf->aliases && perf->aliases[f->id]) {
		name = perf->aliases[f->id];
	} else if (strcmp(frame_sym(f), "[unknown]") == 0 && strcmp(dso, "[unknown]") != 0) {
		bracketed = cprof_dso_unnamed(dso);
		name = bracketed;
	}
	out = cprof_utf8_sanitize(name, strlen(name), &replaced);
	free(bracketed);
	return out;
}

/* Adds one stack by `options`, `names` the key of each frame id (equal
 * keys the same pointer), `seen` room for its depth. */
static void add_stack(const struct stack *s, const char **names,
		      const struct cprof_key_options *options, struct cprof_dist *dist,
		      struct cprof_stack_keys *keys, const char **seen)
{
	bool room = true;
	uint32_t i;

	if (options->by == CPROF_BY_STACK) {
		cprof_stack_keys_begin(keys, dist);
		for (i = s->depth; room && i-- > 0;)
			room = cprof_stack_keys_push(keys, names[s->frames[i]]);
		cprof_stack_keys_end(keys, dist, s->samples);
		return;
	}
	if (!options->cum) {
		cprof_dist_add(dist, names[s->frames[0]], s->samples);
		return;
	}
	for (i = 0; i < s->depth; i++)
		seen[i] = names[s->frames[i]];
	cprof_keys_add_each_once(dist, seen, s->depth, s->samples);
}

/* True when every frame of a profile read for --by=address has one. */
static bool by_address_ok(const struct cprof_perf *perf)
{
	size_t i;

	if (!perf->addresses)
		return false;
	for (i = 0; i < perf->num_frames; i++)
		if (!perf->aliases || !perf->aliases[i])
			return false;
	return true;
}

int cprof_perf_to_dist(const struct cprof_profile *profile,
		       const struct cprof_key_options *options, struct cprof_dist *dist,
		       struct cprof_error *err)
{
	const struct cprof_perf *perf = profile->perf;
	struct cprof_stack_keys *keys;
	GHashTable *interned;
	const char **names, **seen;
	size_t i, depth = 1;

	if (options->by == CPROF_BY_ADDRESS && !by_address_ok(perf))
		return cprof_error_set(err, "--by=address needs each frame's address: perf script -F "
					    "+ip");
	if (options->by == CPROF_BY_LINE && !perf->has_srcline)
		return cprof_error_set(err, "--by=line needs source lines: perf script -F +srcline");
	if (options->by == CPROF_BY_DSO && !perf->has_dso)
		return cprof_error_set(err, "--by=dso needs the DSO of each frame: perf script -F "
					    "+dso");
	if (cprof_by_label_key(options->by))
		return cprof_error_set(err, "--by=%s: perf script text has no labels",
				       cprof_by_name(options->by));
	interned = g_hash_table_new_full(cprof_str_hash, g_str_equal, free, NULL);
	names = cprof_xcalloc(perf->num_frames ? perf->num_frames : 1, sizeof(*names));
	for (i = 0; i < perf->num_frames; i++) {
		char *name = frame_name(perf, perf->frames[i], options->by), *known;

		known = g_hash_table_lookup(interned, name);
		if (known) {
			free(name);
			name = known;
		} else {
			g_hash_table_insert(interned, name, name);
		}
		names[i] = name;
	}
	for (i = 0; i < perf->stacks.len; i++)
		depth = MAX(depth, ((const struct stack *)perf->stacks.items[i])->depth);
	seen = cprof_xcalloc(depth, sizeof(*seen));
	keys = cprof_stack_keys_new();
	for (i = 0; i < perf->stacks.len; i++)
		add_stack(perf->stacks.items[i], names, options, dist, keys, seen);
	cprof_stack_keys_free(keys);
	free(seen);
	free(names);
	g_hash_table_destroy(interned);
	return 0;
}

void cprof_perf_free(struct cprof_perf *perf)
{
	size_t i;

	if (!perf)
		return;
	cprof_arena_free(&perf->arena);
	cprof_arena_free(&perf->stack_arena);
	free(perf->frames);
	cprof_pages_free(perf->frame_slots, (perf->frame_mask + 1) * sizeof(*perf->frame_slots));
	cprof_pages_free(perf->stack_slots, (perf->stack_mask + 1) * sizeof(*perf->stack_slots));
	cprof_ptrs_clear(&perf->stacks, NULL);
	for (i = 0; perf->mmaps && i < perf->mmaps->len; i++)
		g_free(g_array_index(perf->mmaps, struct mmap, i).path);
	if (perf->mmaps)
		g_array_free(perf->mmaps, TRUE);
	if (perf->forks)
		g_array_free(perf->forks, TRUE);
	for (i = 0; perf->aliases && i < perf->num_frames; i++)
		g_free(perf->aliases[i]);
	free(perf->aliases);
	free(perf);
}
