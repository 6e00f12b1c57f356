/* gperf.c: the gperftools (legacy binary) CPU profile.
 *
 * Slots of 4 or 8 bytes in either byte order: header (0, N >= 3, version 0,
 * period, N - 2 more words), records (count >= 1, num_pcs >= 1, PCs leaf
 * first), the trailer (0, 1, 0), then the text of the mapped objects. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "cprof.h"

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

static guint stack_hash(gconstpointer p)
{
	return ((const struct cprof_stack *)p)->hash;
}

static gboolean stack_equal(gconstpointer a, gconstpointer b)
{
	const struct cprof_stack *x = a, *y = b;

	return x->depth == y->depth && memcmp(x->pcs, y->pcs, x->depth * sizeof(x->pcs[0])) == 0;
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
	cprof_input_skip(in, (size_t)bytes);
	*layout_out = layout;
	return 0;
}

/* Adds one record's call chain, held in scratch, to the table. */
static int add_stack(struct cprof_profile *profile, struct cprof_stack *scratch,
		     uint64_t record_offset, struct cprof_error *err)
{
	struct cprof_stack *stack;
	size_t bytes = scratch->depth * sizeof(scratch->pcs[0]);

	if (profile->total + scratch->count < profile->total)
		return cprof_error_set(err, "sample count overflow at byte %llu",
				       (unsigned long long)record_offset);
	profile->total += scratch->count;
	scratch->hash = (guint)XXH3_64bits(scratch->pcs, bytes);
	stack = g_hash_table_lookup(profile->stacks, scratch);
	if (stack) {
		stack->count += scratch->count;
		return 0;
	}
	stack = cprof_xmalloc(sizeof(*stack) + bytes);
	memcpy(stack, scratch, sizeof(*stack) + bytes);
	g_hash_table_add(profile->stacks, stack);
	return 0;
}

static int read_maps(struct cprof_input *in, struct cprof_profile *profile,
		     struct cprof_error *err)
{
	const char *line;
	long long len;
	bool has_nul;

	while ((len = cprof_input_line(in, &line, &has_nul, err)) >= 0) {
		if (!has_nul)
			cprof_maps_add_line(&profile->maps, line, (size_t)len);
	}
	if (err->text[0])
		return -1;
	cprof_maps_finish(&profile->maps);
	return 0;
}

int cprof_gperf_read(struct cprof_input *in, struct cprof_profile *profile,
		     struct cprof_error *err)
{
	const struct layout *layout = NULL;
	struct cprof_stack *scratch = NULL;
	size_t scratch_cap = 0, w;
	int status = -1;

	profile->format = CPROF_FORMAT_GPERF;
	profile->stacks = g_hash_table_new_full(stack_hash, stack_equal, free, NULL);
	if (read_header(in, profile, &layout, err) < 0)
		return -1;
	w = layout->width;

	for (;;) {
		uint64_t record_offset = in->offset, count, num_pcs, done = 0;
		const unsigned char *data;
		long long avail = (long long)cprof_input_avail(in);

		if ((size_t)avail < 3 * w && (avail = cprof_input_fill(in, 3 * w, err)) < 0)
			goto out;
		if (avail == 0) {
			cprof_error_set(err, "missing trailer at byte %llu (end of file)",
					(unsigned long long)record_offset);
			goto out;
		}
		if ((size_t)avail < 2 * w) {
			cprof_error_set(err, "truncated record at byte %llu",
					(unsigned long long)record_offset);
			goto out;
		}
		data = cprof_input_data(in);
		count = slot(data, layout);
		num_pcs = slot(data + w, layout);
		if (count == 0) {
			if (num_pcs != 1 || (size_t)avail < 3 * w || slot(data + 2 * w, layout) != 0) {
				if (num_pcs == 1 && (size_t)avail < 3 * w)
					cprof_error_set(err, "truncated trailer at byte %llu",
							(unsigned long long)record_offset);
				else
					cprof_error_set(err, "count of 0 outside the trailer at byte %llu",
							(unsigned long long)record_offset);
				goto out;
			}
			cprof_input_skip(in, 3 * w);
			break;
		}
		if (num_pcs == 0) {
			cprof_error_set(err, "record with no PCs at byte %llu",
					(unsigned long long)record_offset);
			goto out;
		}
		if (in->regular && (in->size < record_offset + 2 * w ||
				    num_pcs > (in->size - record_offset - 2 * w) / w)) {
			cprof_error_set(err, "truncated record at byte %llu: num_pcs %llu runs past the end of the file (%llu bytes)",
					(unsigned long long)record_offset, (unsigned long long)num_pcs,
					(unsigned long long)in->size);
			goto out;
		}
		if (num_pcs > UINT32_MAX) {
			cprof_error_set(err, "num_pcs %llu too large at byte %llu",
					(unsigned long long)num_pcs, (unsigned long long)record_offset);
			goto out;
		}
		cprof_input_skip(in, 2 * w);

		/* Read the PCs as they arrive, so that memory follows the data
		 * actually there, never the count a damaged header claims. */
		while (done < num_pcs) {
			uint64_t want = (num_pcs - done) * w, take;

			avail = (long long)cprof_input_avail(in);
			if ((uint64_t)avail < want && (size_t)avail < PCS_CHUNK &&
			    (avail = cprof_input_fill(in, want < PCS_CHUNK ? (size_t)want : PCS_CHUNK,
						      err)) < 0)
				goto out;
			if ((size_t)avail < w) {
				if (in->regular)
					cprof_error_set(err, "truncated record at byte %llu",
							(unsigned long long)record_offset);
				else
					cprof_error_set(err,
							"truncated record at byte %llu (num_pcs %llu past the end of the input)",
							(unsigned long long)record_offset,
							(unsigned long long)num_pcs);
				goto out;
			}
			take = (uint64_t)avail / w;
			if (take > num_pcs - done)
				take = num_pcs - done;
			if (done + take > scratch_cap) {
				scratch_cap = done + take < 64 ? 64 : 2 * (done + take);
				scratch = cprof_xrealloc(scratch, sizeof(*scratch) +
								  scratch_cap * sizeof(scratch->pcs[0]));
			}
			decode_slots(scratch->pcs + done, cprof_input_data(in), take, layout);
			cprof_input_skip(in, take * w);
			done += take;
		}
		scratch->count = count;
		scratch->depth = (uint32_t)num_pcs;
		if (add_stack(profile, scratch, record_offset, err) < 0)
			goto out;
	}
	status = read_maps(in, profile, err);
out:
	free(scratch);
	return status;
}
