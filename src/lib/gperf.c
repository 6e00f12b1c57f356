/* gperf.c: the gperftools (legacy binary) CPU profile.
 *
 * Slots of 4 or 8 bytes in either byte order: header (0, N >= 3, version 0,
 * period, N - 2 more words), records (count >= 1, num_pcs >= 1, PCs leaf
 * first), the trailer (0, 1, 0), then the text of the mapped objects. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/arena.h"
#include "gperf.h"
#include "base/hash.h"
#include "base/input.h"
#include "maps.h"
#include "profile-core.h"
#include "base/ptrs.h"
#include "base/util.h"

enum {
	MAX_HEADER_WORDS = 1 << 16, /* gperftools writes 3 */
	PCS_CHUNK = 1 << 20,        /* bytes of PCs asked for at once */
};

struct layout {
	unsigned width;         /* 4 or 8 */
	bool big_endian;
};

static const struct layout layouts[] = {
	{ 8, false }, { 8, true }, { 4, false }, { 4, true },
};

static uint64_t slot(const unsigned char *p, const struct layout *l)
{
	if (l->width == 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		return l->big_endian ? GUINT64_FROM_BE(v) : GUINT64_FROM_LE(v);
	} else {
		uint32_t v;

		memcpy(&v, p, 4);
		return l->big_endian ? GUINT32_FROM_BE(v) : GUINT32_FROM_LE(v);
	}
}

/* Decodes n slots at src into dst; one loop per layout so each is tight. */
static void decode_slots(uint64_t *dst, const unsigned char *src, size_t n, const struct layout *l)
{
	size_t i;

	if (l->width == 8 && !l->big_endian) {
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
		memcpy(dst, src, n * 8);
#else
		for (i = 0; i < n; i++)
			dst[i] = slot(src + 8 * i, l);
#endif
	} else if (l->width == 8) {
		for (i = 0; i < n; i++) {
			uint64_t v;

			memcpy(&v, src + 8 * i, 8);
			dst[i] = GUINT64_FROM_BE(v);
		}
	} else if (!l->big_endian) {
		for (i = 0; i < n; i++) {
			uint32_t v;

			memcpy(&v, src + 4 * i, 4);
			dst[i] = GUINT32_FROM_LE(v);
		}
	} else {
		for (i = 0; i < n; i++) {
			uint32_t v;

			memcpy(&v, src + 4 * i, 4);
			dst[i] = GUINT32_FROM_BE(v);
		}
	}
}

bool cprof_gperf_sniff(const unsigned char *data, size_t len)
{
	size_t i, n = len < 4 ? len : 4;

	/* Every layout starts with a zero slot of at least four bytes; no text
	 * format starts with a NUL byte. */
	if (len == 0)
		return false;
	for (i = 0; i < n; i++)
		if (data[i] != 0)
			return false;
	return true;
}

/* The distinct call chains while a profile is read: open addressing with
 * linear probing over (hash, stack) pairs, so that a lookup touches one
 * slot and the chain it compares.  GHashTable, measured on a 400 MB
 * profile, spent a third of the run in its lookup and equality calls: the
 * per-record path is the one place that earns its own table. */
struct stack_table {
	struct slot {
		uint64_t hash;
		struct cprof_stack *stack;
	} *slots;
	size_t mask;           /* capacity - 1, capacity a power of two */
	size_t used;
};

static void table_init(struct stack_table *t)
{
	t->mask = 1023;
	t->used = 0;
	t->slots = cprof_pages_alloc((t->mask + 1) * sizeof(*t->slots));
}

static void table_grow(struct stack_table *t)
{
	struct slot *old = t->slots;
	size_t old_cap = t->mask + 1, i;

	t->mask = 2 * old_cap - 1;
	t->slots = cprof_pages_alloc((t->mask + 1) * sizeof(*t->slots));
	for (i = 0; i < old_cap; i++) {
		size_t j;

		if (!old[i].stack)
			continue;
		for (j = old[i].hash & t->mask; t->slots[j].stack; j = (j + 1) & t->mask)
			;
		t->slots[j] = old[i];
	}
	cprof_pages_free(old, old_cap * sizeof(*old));
}

/* The stored chain equal to `probe`, or the empty slot where it goes. */
static struct slot *table_find(struct stack_table *t, const struct cprof_stack *probe)
{
	size_t j;

	for (j = probe->hash & t->mask;; j = (j + 1) & t->mask) {
		struct slot *slot = &t->slots[j];

		if (!slot->stack ||
		    (slot->hash == probe->hash && slot->stack->depth == probe->depth &&
		     memcmp(slot->stack->pcs, probe->pcs, probe->depth * sizeof(probe->pcs[0])) == 0))
			return slot;
	}
}

/* Picks the layout whose header reads (0, N >= 3) with the smallest N: a
 * 64-bit little-endian N = 3 also reads as a huge big-endian N. */
static const struct layout *pick_layout(const unsigned char *data, size_t len)
{
	const struct layout *best = NULL;
	uint64_t best_words = 0;
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(layouts); i++) {
		const struct layout *l = &layouts[i];
		uint64_t words;

		if (len < 2 * l->width || slot(data, l) != 0)
			continue;
		words = slot(data + l->width, l);
		if (words >= 3 && (!best || words < best_words)) {
			best = l;
			best_words = words;
		}
	}
	return best;
}

static int read_header(struct cprof_input *in, struct cprof_profile *profile,
		       const struct layout **layout_out, struct cprof_error *err)
{
	const struct layout *layout;
	const unsigned char *data;
	uint64_t words, version, bytes;
	long long avail;

	avail = cprof_input_fill(in, 24, err);
	if (avail < 0)
		return -1;
	data = cprof_input_data(in);
	layout = pick_layout(data, (size_t)avail);
	if (!layout) {
		if (avail < 24)
			return cprof_error_set(err, "truncated header at byte %lld", avail);
		return cprof_error_set(err, "unrecognized profile format: bad header words at byte 0");
	}
	words = slot(data + layout->width, layout);
	if (words > MAX_HEADER_WORDS)
		return cprof_error_set(err, "header word count %llu too large at byte %u",
				       (unsigned long long)words, layout->width);
	bytes = (2 + words) * layout->width;
	avail = cprof_input_fill(in, (size_t)bytes, err);
	if (avail < 0)
		return -1;
	if ((uint64_t)avail < bytes)
		return cprof_error_set(err, "truncated header at byte %lld (header is %llu bytes)",
				       avail, (unsigned long long)bytes);
	data = cprof_input_data(in);
	version = slot(data + 2 * layout->width, layout);
	if (version != 0)
		return cprof_error_set(err, "unsupported profile version %llu at byte %u",
				       (unsigned long long)version, 2 * layout->width);
	profile->has_period = true;
	profile->period_us = slot(data + 3 * layout->width, layout);
	/* Written as a JSON integer, which cprof reads back below 2^63 only. */
	if (profile->period_us > INT64_MAX)
		return cprof_error_set(err, "sampling period %llu past 2^63 - 1 at byte %u",
				       (unsigned long long)profile->period_us, 3 * layout->width);
	cprof_input_skip(in, (size_t)bytes);
	*layout_out = layout;
	return 0;
}

/* Adds one record's call chain to the table: `probe` holds its count,
 * depth, PCs (wherever they are) and hash; a new chain is copied. */
static int add_hashed(struct cprof_profile *profile, struct stack_table *table,
		      const struct cprof_stack *probe, uint64_t record_offset,
		      struct cprof_error *err)
{
	size_t bytes = probe->depth * sizeof(probe->pcs[0]);
	struct cprof_stack *stack;
	struct slot *slot;

	if (profile->total + probe->count < profile->total)
		return cprof_error_set(err, "sample count overflow at byte %llu",
				       (unsigned long long)record_offset);
	profile->total += probe->count;
	slot = table_find(table, probe);
	if (slot->stack) {
		slot->stack->count += probe->count;
		return 0;
	}
	stack = cprof_arena_alloc(&profile->stack_arena, sizeof(*stack) + bytes);
	*stack = *probe;
	memcpy(stack->storage, probe->pcs, bytes);
	stack->pcs = stack->storage;
	slot->hash = stack->hash;
	slot->stack = stack;
	cprof_ptrs_add(&profile->stacks, stack);
	if (++table->used > table->mask / 2)
		table_grow(table);
	return 0;
}

static int add_stack(struct cprof_profile *profile, struct stack_table *table,
		     struct cprof_stack *probe, uint64_t record_offset, struct cprof_error *err)
{
	probe->hash = cprof_hash(probe->pcs, probe->depth * sizeof(probe->pcs[0]));
	return add_hashed(profile, table, probe, record_offset, err);
}

enum { BATCH = 16 };

/* Adds the well-formed records of the native layout fully buffered at the
 * front of `in`, up to BATCH of them, with their table slots and chains
 * prefetched before any is compared: on large profiles the lookups wait
 * on memory, not on the CPU.  Returns how many it added (0: leave the
 * next record to the careful path), or -1 with `err` set. */
static int add_batch(struct cprof_input *in, struct cprof_profile *profile,
		     struct stack_table *table, struct cprof_error *err)
{
	const unsigned char *data = cprof_input_data(in);
	size_t avail = cprof_input_avail(in), pos = 0, n = 0, i;
	struct cprof_stack probes[BATCH];
	uint64_t offsets[BATCH];

	if (((uintptr_t)data & 7) != 0)
		return 0;
	while (n < BATCH && avail - pos >= 3 * 8) {
		const uint64_t *record = (const uint64_t *)(const void *)(data + pos);
		uint64_t count = record[0], num_pcs = record[1];

		if (count == 0 || num_pcs == 0 || num_pcs > (avail - pos) / 8 - 2)
			break;
		probes[n].count = count;
		probes[n].depth = (uint32_t)num_pcs;
		probes[n].pcs = record + 2;
		probes[n].hash = cprof_hash(record + 2, num_pcs * 8);
		offsets[n] = in->offset + pos;
		__builtin_prefetch(&table->slots[probes[n].hash & table->mask]);
		pos += (2 + num_pcs) * 8;
		n++;
	}
	for (i = 0; i < n; i++) {
		const struct cprof_stack *stack = table->slots[probes[i].hash & table->mask].stack;

		if (stack)
			__builtin_prefetch(stack);
	}
	for (i = 0; i < n; i++)
		if (add_hashed(profile, table, &probes[i], offsets[i], err) < 0)
			return -1;
	cprof_input_skip(in, pos);
	return (int)n;
}

static int read_maps(struct cprof_input *in, struct cprof_profile *profile,
		     struct cprof_error *err)
{
	const char *line;
	long long len;
	bool has_nul;
	uint64_t at = in->offset;

	while ((len = cprof_input_line(in, &line, &has_nul, err)) >= 0) {
		if (!has_nul && cprof_maps_add_line(&profile->maps, line, (size_t)len, err) < 0) {
			size_t n = strlen(err->text);

			snprintf(err->text + n, sizeof(err->text) - n, " at byte %llu",
				 (unsigned long long)at);
			return -1;
		}
		at = in->offset;
	}
	if (err->text[0])
		return -1;
	cprof_maps_finish(&profile->maps);
	profile->replaced_utf8 |= profile->maps.replaced_utf8;
	return 0;
}

/* One gperftools profile being read: the records after the header. */
struct reader {
	struct cprof_input *in;
	struct cprof_profile *profile;
	const struct layout *layout;
	size_t w;                      /* bytes per slot */
	bool native;                   /* 64-bit slots in this machine's byte order */
	struct stack_table table;
	uint64_t *scratch;             /* PCs decoded out of the buffer */
	size_t scratch_cap;
	struct cprof_error *err;
};

/* Makes room for `n` PCs in r->scratch. */
static void scratch_reserve(struct reader *r, uint64_t n)
{
	if (n <= r->scratch_cap)
		return;
	r->scratch_cap = n < 64 ? 64 : 2 * (size_t)n;
	r->scratch = cprof_xrealloc(r->scratch, r->scratch_cap * sizeof(*r->scratch));
}

static int check_num_pcs(struct reader *r, uint64_t offset, uint64_t num_pcs);

/* Reads the count and num_pcs of the record at the front of the input and
 * checks them, whatever the input (file, pipe, small buffer): 1 for a
 * record (its two slots left in the buffer), 0 for the trailer (consumed),
 * -1 with the error at the record's byte offset.  *avail is what is
 * buffered. */
static int record_head(struct reader *r, uint64_t offset, uint64_t *count, uint64_t *num_pcs,
		       long long *avail)
{
	const struct layout *l = r->layout;
	const unsigned char *data;
	size_t w = r->w;

	*avail = (long long)cprof_input_avail(r->in);
	if ((size_t)*avail < 3 * w && (*avail = cprof_input_fill(r->in, 3 * w, r->err)) < 0)
		return -1;
	if (*avail == 0)
		return cprof_error_set(r->err, "missing trailer at byte %llu (end of file)",
				       (unsigned long long)offset);
	if ((size_t)*avail < 2 * w)
		return cprof_error_set(r->err, "truncated record at byte %llu",
				       (unsigned long long)offset);
	data = cprof_input_data(r->in);
	*count = slot(data, l);
	*num_pcs = slot(data + w, l);
	if (*count == 0) {
		if (*num_pcs == 1 && (size_t)*avail >= 3 * w && slot(data + 2 * w, l) == 0) {
			cprof_input_skip(r->in, 3 * w);
			return 0;
		}
		if (*num_pcs == 1 && (size_t)*avail < 3 * w)
			return cprof_error_set(r->err, "truncated trailer at byte %llu",
					       (unsigned long long)offset);
		return cprof_error_set(r->err, "count of 0 outside the trailer at byte %llu",
				       (unsigned long long)offset);
	}
	return check_num_pcs(r, offset, *num_pcs);
}

/* The checks of a record's num_pcs that do not need its PCs. */
static int check_num_pcs(struct reader *r, uint64_t offset, uint64_t num_pcs)
{
	struct cprof_input *in = r->in;

	if (num_pcs == 0)
		return cprof_error_set(r->err, "record with no PCs at byte %llu",
				       (unsigned long long)offset);
	if (in->regular && (in->size < offset + 2 * r->w ||
			    num_pcs > (in->size - offset - 2 * r->w) / r->w))
		return cprof_error_set(r->err, "truncated record at byte %llu: num_pcs %llu runs past the end of the file (%llu bytes)",
				       (unsigned long long)offset, (unsigned long long)num_pcs,
				       (unsigned long long)in->size);
	if (num_pcs > UINT32_MAX)
		return cprof_error_set(r->err, "num_pcs %llu too large at byte %llu",
				       (unsigned long long)num_pcs, (unsigned long long)offset);
	return 1;
}

/* The PCs of a record wholly buffered at data: in place when they can be,
 * else decoded into the scratch space. */
static const uint64_t *buffered_pcs(struct reader *r, const unsigned char *data, uint64_t num_pcs)
{
	if (r->native && ((uintptr_t)data & 7) == 0)
		return (const uint64_t *)(const void *)data;
	scratch_reserve(r, num_pcs);
	decode_slots(r->scratch, data, (size_t)num_pcs, r->layout);
	return r->scratch;
}

/* The PCs of a record larger than the buffer (its two slots consumed),
 * read as they arrive, so that memory follows the data actually there,
 * never the count a damaged header claims. */
static const uint64_t *streamed_pcs(struct reader *r, uint64_t offset, uint64_t num_pcs)
{
	uint64_t done = 0;
	size_t w = r->w;

	while (done < num_pcs) {
		uint64_t want = (num_pcs - done) * w, take;
		long long avail = (long long)cprof_input_avail(r->in);

		if ((uint64_t)avail < want && (size_t)avail < PCS_CHUNK &&
		    (avail = cprof_input_fill(r->in, want < PCS_CHUNK ? (size_t)want : PCS_CHUNK,
					      r->err)) < 0)
			return NULL;
		if ((size_t)avail < w) {
			cprof_error_set(r->err,
					"truncated record at byte %llu (num_pcs %llu past the end of the input)",
					(unsigned long long)offset, (unsigned long long)num_pcs);
			return NULL;
		}
		take = (uint64_t)avail / w;
		if (take > num_pcs - done)
			take = num_pcs - done;
		scratch_reserve(r, done + take);
		decode_slots(r->scratch + done, cprof_input_data(r->in), take, r->layout);
		cprof_input_skip(r->in, take * w);
		done += take;
	}
	return r->scratch;
}

/* Reads one record (or the trailer) the careful way: 1 for a record added,
 * 0 for the trailer, -1 with `err` set. */
static int read_record(struct reader *r)
{
	uint64_t offset = r->in->offset, count = 0, num_pcs = 0, need;
	struct cprof_stack probe = { 0 };
	long long avail;
	int head = record_head(r, offset, &count, &num_pcs, &avail);

	if (head <= 0)
		return head;
	need = (2 + num_pcs) * r->w;
	if ((uint64_t)avail < need && need <= PCS_CHUNK &&
	    (avail = cprof_input_fill(r->in, (size_t)need, r->err)) < 0)
		return -1;
	probe.count = count;
	probe.depth = (uint32_t)num_pcs;
	if ((uint64_t)avail >= need) {
		/* The whole record is buffered: the common case. */
		probe.pcs = buffered_pcs(r, cprof_input_data(r->in) + 2 * r->w, num_pcs);
		if (add_stack(r->profile, &r->table, &probe, offset, r->err) < 0)
			return -1;
		cprof_input_skip(r->in, (size_t)need);
		return 1;
	}
	cprof_input_skip(r->in, 2 * r->w);
	if (!(probe.pcs = streamed_pcs(r, offset, num_pcs)))
		return -1;
	return add_stack(r->profile, &r->table, &probe, offset, r->err) < 0 ? -1 : 1;
}

/* Every record of a gperftools profile goes through read_record, which
 * checks it; add_batch only takes ahead, in bulk, the records of the
 * native layout that are wholly buffered and plainly well formed, and
 * leaves every other one (the trailer, a suspect count, a record past the
 * buffer) to read_record: one validation, whatever the source. */
int cprof_gperf_read(struct cprof_input *in, struct cprof_profile *profile,
		     struct cprof_error *err)
{
	struct reader r = { .in = in, .profile = profile, .err = err };
	int status;

	profile->format = CPROF_FORMAT_GPERF;
	profile->stacks_in_arena = true;
	if (read_header(in, profile, &r.layout, err) < 0)
		return -1;
	table_init(&r.table);
	r.w = r.layout->width;
	r.native = r.w == 8 && r.layout->big_endian == (G_BYTE_ORDER == G_BIG_ENDIAN);
	do {
		status = r.native ? add_batch(in, profile, &r.table, err) : 0;
		if (status == 0)
			status = read_record(&r);
	} while (status > 0);
	if (status == 0)
		status = read_maps(in, profile, err);
	cprof_pages_free(r.table.slots, (r.table.mask + 1) * sizeof(*r.table.slots));
	free(r.scratch);
	return status;
}
