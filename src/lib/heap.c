/* heap.c: gperftools heap profiles, the legacy text, read as pprof's
 * legacy parser reads them (its parseHeap): the header says the kind and
 * the sampling rate, and whether allocation totals are there (then four
 * values a stack, alloc_objects, alloc_space, inuse_objects, inuse_space;
 * else two, objects and space).  Every address is a return address and is
 * taken at address - 1, the leaf's too: the stacks keep exact PCs. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/hash.h"
#include "heap.h"
#include "profile-core.h"
#include "prune.h"

struct header {
	uint64_t inuse_count, inuse_size, alloc_count, alloc_size;
	bool has_alloc;
	bool v2;               /* sampled: scale each stack by 1/(1 - exp(-size/rate)) */
	int64_t rate;
};

struct cursor {
	const char *p, *end;
};

static void spaces(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static bool literal(struct cursor *c, const char *s)
{
	size_t n = strlen(s);

	spaces(c);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
		return false;
	c->p += n;
	return true;
}

/* A decimal number, optionally negative; false on none or overflow. */
static bool number(struct cursor *c, int64_t *out)
{
	bool negative = false;
	uint64_t value = 0;
	const char *start;

	spaces(c);
	if (c->p < c->end && *c->p == '-') {
		negative = true;
		c->p++;
	}
	start = c->p;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		if (value > ((uint64_t)INT64_MAX - (uint64_t)(*c->p - '0')) / 10)
			return false;
		value = value * 10 + (uint64_t)(*c->p - '0');
		c->p++;
	}
	if (c->p == start)
		return false;
	*out = negative ? -(int64_t)value : (int64_t)value;
	return true;
}

bool cprof_heap_sniff(const unsigned char *data, size_t len)
{
	static const char magic[] = "heap profile:";
	size_t i = 0;

	while (i < len && (data[i] == ' ' || data[i] == '\t'))
		i++;
	return len - i >= sizeof(magic) - 1 && memcmp(data + i, magic, sizeof(magic) - 1) == 0;
}

/* "heap profile: N: M [ N: M] @ KIND[/RATE]" */
static int parse_header(const char *line, size_t len, struct header *h, struct cprof_error *err)
{
	struct cursor c = { line, line + len };
	int64_t v[4], rate = 0;
	const char *kind;
	size_t kind_len;
	int i;

	if (!literal(&c, "heap profile:"))
		return cprof_error_set(err, "not a heap profile header");
	for (i = 0; i < 4; i++) {
		if ((i == 2 && !literal(&c, "[")) || !number(&c, &v[i]) || v[i] < 0 ||
		    (i % 2 == 0 && !literal(&c, ":")))
			return cprof_error_set(err, "bad heap profile header (heap profile: N: M "
						    "[ N: M ] @ KIND)");
	}
	if (!literal(&c, "]") || !literal(&c, "@"))
		return cprof_error_set(err, "bad heap profile header (heap profile: N: M [ N: M ] "
					    "@ KIND)");
	spaces(&c);
	kind = c.p;
	while (c.p < c.end && ((*c.p >= 'a' && *c.p <= 'z') || (*c.p >= '0' && *c.p <= '9') ||
			       *c.p == '_'))
		c.p++;
	kind_len = (size_t)(c.p - kind);
	if (c.p < c.end && *c.p == '/') {
		c.p++;
		if (c.p < c.end && (!number(&c, &rate) || rate < 0))
			return cprof_error_set(err, "bad sampling rate in the heap profile header");
	}
	h->inuse_count = (uint64_t)v[0];
	h->inuse_size = (uint64_t)v[1];
	h->alloc_count = (uint64_t)v[2];
	h->alloc_size = (uint64_t)v[3];
#define KIND(s) (kind_len == sizeof(s) - 1 && memcmp(kind, s, kind_len) == 0)
	if (KIND("heapz_v2") || KIND("heap_v2")) {
		h->v2 = true;
		h->rate = rate;
	} else if (KIND("heap")) {
		h->v2 = true;
		h->rate = rate / 2;
	} else if (KIND("heapprofile")) {
		h->rate = 1;
	} else if (KIND("growthz") || KIND("growth") || KIND("fragmentationz") ||
		   KIND("fragmentation")) {
		h->rate = 1;
		return 0;      /* pprof reads no allocation totals there */
	} else {
		return cprof_error_set(err, "unsupported heap profile kind '%.*s'", (int)kind_len,
				       kind);
	}
#undef KIND
	h->has_alloc = (v[2] != v[0] && v[2] != 0) || (v[3] != v[1] && v[3] != 0);
	return 0;
}

/* pprof's scaleHeapSample: a stack of count objects of size bytes in all,
 * sampled every `rate` bytes on average, was sampled with probability
 * 1 - exp(-(size/count)/rate).  Scaled values past 2^63 (a huge size or
 * rate) are an error, not a conversion out of range. */
static int unsample(int64_t *count, int64_t *size, int64_t rate, const char *what,
		    struct cprof_error *err)
{
	double scale, scaled_count, scaled_size;

	if (*count == 0 || *size == 0) {
		*count = *size = 0;
		return 0;
	}
	if (rate <= 1)
		return 0;
	scale = 1 / (1 - exp(-((double)*size / (double)*count) / (double)rate));
	scaled_count = (double)*count * scale;
	scaled_size = (double)*size * scale;
	if (!(scaled_count < 0x1p63) || !(scaled_size < 0x1p63))
		return cprof_error_set(err, "%s values %" PRId64 ": %" PRId64 " at sampling rate %"
				       PRId64 " scale past 2^63", what, *count, *size, rate);
	*count = (int64_t)scaled_count;
	*size = (int64_t)scaled_size;
	return 0;
}

struct stacks {
	GHashTable *table;     /* struct cprof_stack * set */
	uint64_t *pcs;
	size_t cap;
};

static guint stack_hash(gconstpointer p)
{
	return (guint)((const struct cprof_stack *)p)->hash;
}

static gboolean stack_equal(gconstpointer a, gconstpointer b)
{
	const struct cprof_stack *x = a, *y = b;

	return x->hash == y->hash && x->depth == y->depth &&
	       memcmp(x->pcs, y->pcs, x->depth * sizeof(x->pcs[0])) == 0;
}

/* "N: M [N: M] @ 0x... 0x..." into values[] (alloc pair first when the
 * profile has it) and the PCs (each address less one) into s->pcs. */
static int parse_values(struct cursor *c, const struct header *h, int64_t *values,
			size_t *n_values, struct cprof_error *err)
{
	int64_t v[4];
	size_t n = 0;
	int i;

	for (i = 0; i < 4; i++) {
		if ((i == 2 && !literal(c, "[")) || !number(c, &v[i]) ||
		    (i % 2 == 0 && !literal(c, ":")))
			return cprof_error_set(err, "bad heap sample line (N: M [N: M] @ ADDRESSES)");
		if (v[i] < 0)
			return cprof_error_set(err, "negative %s %" PRId64,
					       i % 2 ? "size" : "count", v[i]);
	}
	if (!literal(c, "]") || !literal(c, "@"))
		return cprof_error_set(err, "bad heap sample line (N: M [N: M] @ ADDRESSES)");
	for (i = h->has_alloc ? 2 : 0; i >= 0; i -= 2) {
		int64_t count = v[i], size = v[i + 1];

		if (count == 0 && size != 0)
			return cprof_error_set(err, "%s count is 0 but its size is %" PRId64,
					       i ? "allocation" : "in-use", size);
		if (h->v2 && unsample(&count, &size, h->rate, i ? "allocation" : "in-use", err) < 0)
			return -1;
		values[n++] = count;
		values[n++] = size;
	}
	*n_values = n;
	return 0;
}

static void push_pc(struct stacks *s, uint32_t *depth, uint64_t pc)
{
	if (*depth == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->pcs = cprof_xrealloc(s->pcs, s->cap * sizeof(*s->pcs));
	}
	s->pcs[(*depth)++] = pc;
}

/* The addresses "0x... 0x..." at c, each less one, into s->pcs. */
static int parse_addresses(struct cursor *c, struct stacks *s, uint32_t *depth,
			   struct cprof_error *err)
{
	*depth = 0;
	for (;;) {
		uint64_t addr = 0;
		int digits = 0;

		spaces(c);
		if (c->p == c->end)
			break;
		if (c->end - c->p < 3 || c->p[0] != '0' || c->p[1] != 'x')
			return cprof_error_set(err, "bad address in a heap sample (0xHEX wanted)");
		c->p += 2;
		while (c->p < c->end &&
		       ((*c->p >= '0' && *c->p <= '9') || (*c->p >= 'a' && *c->p <= 'f'))) {
			if (++digits > 16)
				return cprof_error_set(err, "address past 64 bits in a heap sample");
			addr = addr << 4 | (uint64_t)(*c->p <= '9' ? *c->p - '0' : *c->p - 'a' + 10);
			c->p++;
		}
		if (digits == 0 || (c->p < c->end && *c->p != ' ' && *c->p != '\t'))
			return cprof_error_set(err, "bad address in a heap sample (0xHEX wanted)");
		if (*depth == UINT32_MAX)
			return cprof_error_set(err, "too many addresses");
		push_pc(s, depth, addr ? addr - 1 : 0);
	}
	/* A stack without frames: keyed as PC 0. */
	if (*depth == 0)
		push_pc(s, depth, 0);
	return 0;
}

static int parse_sample(const char *line, size_t len, const struct header *h, int64_t *values,
			size_t *n_values, struct stacks *s, uint32_t *depth,
			struct cprof_error *err)
{
	struct cursor c = { line, line + len };

	if (parse_values(&c, h, values, n_values, err) < 0)
		return -1;
	return parse_addresses(&c, s, depth, err);
}

static int add_stack(struct cprof_profile *profile, struct stacks *s, uint32_t depth,
		     int64_t value, struct cprof_error *err)
{
	struct cprof_stack probe = { 0 }, *stack;

	if (profile->total > (uint64_t)INT64_MAX - (uint64_t)value)
		return cprof_error_set(err, "the values' sum overflows");
	profile->total += (uint64_t)value;
	if (value == 0)
		return 0;
	probe.depth = depth;
	probe.pcs = s->pcs;
	probe.hash = cprof_hash(s->pcs, depth * sizeof(s->pcs[0]));
	stack = g_hash_table_lookup(s->table, &probe);
	if (!stack) {
		stack = cprof_xmalloc(sizeof(*stack) + depth * sizeof(uint64_t));
		*stack = probe;
		stack->count = 0;
		memcpy(stack->storage, s->pcs, depth * sizeof(uint64_t));
		stack->pcs = stack->storage;
		g_hash_table_add(s->table, stack);
		cprof_ptrs_add(&profile->stacks, stack);
	}
	stack->count += (uint64_t)value;
	return 0;
}

static bool map_sentinel(const char *line, size_t len)
{
	return g_strstr_len(line, (gssize)len, "--- Memory map: ---") ||
	       g_strstr_len(line, (gssize)len, "MAPPED_LIBRARIES:");
}

/* What cprof_heap_read keeps from line to line. */
struct heap_reader {
	struct cprof_profile *profile;
	const char *sample_index;
	struct cprof_error *err;
	struct stacks stacks;
	struct header header;
	bool in_maps;
	int index;                     /* the sample index picked */
};

/* The header line: the kind of profile and the sample index picked. */
static int take_header(struct heap_reader *r, const char *line, size_t len)
{
	static const char *const types4[] = { "alloc_objects", "alloc_space", "inuse_objects",
					      "inuse_space" };
	static const char *const units4[] = { "count", "bytes", "count", "bytes" };
	static const char *const types2[] = { "objects", "space" };
	static const char *const units2[] = { "count", "bytes" };
	int index;

	if (parse_header(line, len, &r->header, r->err) < 0) {
		r->err->line = 1;
		return -1;
	}
	index = r->header.has_alloc ?
			cprof_sample_index_pick(types4, units4, 4, NULL, r->sample_index, r->err) :
			cprof_sample_index_pick(types2, units2, 2, NULL, r->sample_index, r->err);
	if (index < 0)
		return -1;
	r->index = index;
	r->profile->sample_type = r->header.has_alloc ?
					  g_strdup_printf("%s/%s", types4[index], units4[index]) :
					  g_strdup_printf("%s/%s", types2[index], units2[index]);
	return 0;
}

/* Takes line number line_no, its blanks at both ends trimmed. */
static int take_line(struct heap_reader *r, unsigned long long line_no, const char *line,
		     size_t len, bool has_nul)
{
	int64_t values[4];
	size_t n_values;
	uint32_t depth;

	if (r->in_maps) {
		if (!has_nul && cprof_maps_add_line(&r->profile->maps, line, len, r->err) < 0) {
			r->err->line = line_no;
			return -1;
		}
		return 0;
	}
	if (has_nul) {
		r->err->line = line_no;
		return cprof_error_set(r->err, "NUL byte in a heap profile line");
	}
	if (line_no == 1)
		return take_header(r, line, len);
	if (len == 0 || line[0] == '#')
		return 0;
	if (map_sentinel(line, len)) {
		r->in_maps = true;
		return 0;
	}
	if (parse_sample(line, len, &r->header, values, &n_values, &r->stacks, &depth,
			 r->err) < 0 ||
	    add_stack(r->profile, &r->stacks, depth, values[r->index], r->err) < 0) {
		r->err->line = line_no;
		return -1;
	}
	return 0;
}

int cprof_heap_read(struct cprof_input *in, struct cprof_profile *profile,
		    const char *sample_index, struct cprof_error *err)
{
	struct heap_reader r = { profile, sample_index, err,
				 { g_hash_table_new(stack_hash, stack_equal), NULL, 0 },
				 { 0 }, false, -1 };
	unsigned long long line_no = 0;
	bool has_nul;
	const char *line;
	long long len;
	int status = -1;

	profile->format = CPROF_FORMAT_HEAP;
	profile->exact_pcs = true;
	profile->drop_frames = cprof_prune_alloc_drop;
	profile->keep_frames = cprof_prune_alloc_keep;
	while ((len = cprof_input_line(in, &line, &has_nul, err)) >= 0) {
		line_no++;
		while (len > 0 && (line[0] == ' ' || line[0] == '\t'))
			line++, len--;
		while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
			len--;
		if (take_line(&r, line_no, line, (size_t)len, has_nul) < 0)
			goto out;
	}
	if (err->text[0])
		goto out;
	cprof_maps_finish(&profile->maps);
	profile->replaced_utf8 |= profile->maps.replaced_utf8;
	status = 0;
out:
	g_hash_table_destroy(r.stacks.table);
	free(r.stacks.pcs);
	return status;
}
