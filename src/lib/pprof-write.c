/* pprof-write.c: a flat distribution as gzip-compressed profile.proto
 * (cprof-flat --pprof), for pprof's views, Speedscope and Pyroscope.
 *
 * Each key is a sample of its count: a --by=stack key is split at ';' into
 * its frames (the root first in the key, the leaf first in the sample),
 * any other key is one frame.  Each distinct frame is one function and one
 * location holding one line of it.  Frames that name a mapped file
 * (--by=address "libm.so.6+0x1f00", --by=dso "libm.so.6") have their
 * location in a mapping of that name, placed at an address range of its
 * own, so that the file offset reads back as it was; a raw address
 * ("0x4010a0") is the location's address. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <protobuf-c/protobuf-c.h>
#include <zlib.h>

#include <glib.h>

#include "base/hash.h"
#include "lib/profile.pb-c.h"
#include "pprof-write.h"

struct writer {
	GHashTable *string_index;      /* string -> index + 1 */
	GPtrArray *strings;            /* char *, owned */
	GHashTable *frame_ids;         /* name -> id */
	GPtrArray *functions;          /* Perftools__Profiles__Function *, owned */
	GPtrArray *locations;          /* Perftools__Profiles__Location *, owned */
	GPtrArray *samples;            /* Perftools__Profiles__Sample *, owned */
	GArray *places;                /* struct place, one per location */
	GHashTable *mapping_index;     /* file name -> index + 1 in mappings */
	GPtrArray *mappings;           /* Perftools__Profiles__Mapping *, owned */
	GArray *max_offsets;           /* uint64_t, one per mapping */
	enum cprof_by by;
};

/* Where a location is: in mapping `mapping` (index + 1; 0: none) at file
 * offset `offset`, or at the raw address `offset`. */
struct place {
	size_t mapping;
	uint64_t offset;
};

enum { PAGE = 0x1000 };

/* Parses "0x" and lowercase hex up to the end of `s`. */
static bool parse_hex(const char *s, uint64_t *out)
{
	char *end;

	if (s[0] != '0' || s[1] != 'x' || !g_ascii_isxdigit(s[2]))
		return false;
	errno = 0;
	*out = g_ascii_strtoull(s + 2, &end, 16);
	return *end == '\0' && errno == 0;
}

static size_t mapping_of(struct writer *w, const char *file);

/* The place of the frame `name`, from what its key says. */
static struct place place_of(struct writer *w, const char *name)
{
	struct place place = { 0, 0 };
	const char *plus;

	if (cprof_by_label_key(w->by))    /* a label's value is no place */
		return place;
	if (parse_hex(name, &place.offset))
		return place;
	if (w->by == CPROF_BY_DSO && strcmp(name, "[unknown]") != 0) {
		place.mapping = mapping_of(w, name);
	} else if (w->by == CPROF_BY_ADDRESS && (plus = strrchr(name, '+')) && plus > name &&
		   parse_hex(plus + 1, &place.offset)) {
		char *file = g_strndup(name, (gsize)(plus - name));

		place.mapping = mapping_of(w, file);
		g_free(file);
	}
	if (place.mapping && place.offset > g_array_index(w->max_offsets, uint64_t,
							  place.mapping - 1))
		g_array_index(w->max_offsets, uint64_t, place.mapping - 1) = place.offset;
	return place;
}

static int64_t string_of(struct writer *w, const char *s)
{
	gpointer found = g_hash_table_lookup(w->string_index, s);
	char *copy;

	if (found)
		return (int64_t)GPOINTER_TO_SIZE(found) - 1;
	copy = cprof_xstrdup(s);
	g_ptr_array_add(w->strings, copy);
	g_hash_table_insert(w->string_index, copy, GSIZE_TO_POINTER(w->strings->len));
	return (int64_t)w->strings->len - 1;
}

/* The index + 1 of the mapping of the file named `file`. */
static size_t mapping_of(struct writer *w, const char *file)
{
	Perftools__Profiles__Mapping *mapping;
	gpointer found = g_hash_table_lookup(w->mapping_index, file);
	uint64_t zero = 0;

	if (found)
		return GPOINTER_TO_SIZE(found);
	mapping = cprof_xmalloc(sizeof(*mapping));
	perftools__profiles__mapping__init(mapping);
	mapping->id = w->mappings->len + 1;
	mapping->filename = string_of(w, file);
	mapping->has_functions = true;
	g_ptr_array_add(w->mappings, mapping);
	g_array_append_val(w->max_offsets, zero);
	g_hash_table_insert(w->mapping_index, w->strings->pdata[mapping->filename],
			    GSIZE_TO_POINTER(w->mappings->len));
	return w->mappings->len;
}

/* Gives each mapping an address range of its own, one page apart, and each
 * location in one its address there. */
static void place_mappings(struct writer *w)
{
	uint64_t next = 0x400000;
	guint i;

	for (i = 0; i < w->mappings->len; i++) {
		Perftools__Profiles__Mapping *mapping = w->mappings->pdata[i];
		uint64_t size = g_array_index(w->max_offsets, uint64_t, i) / PAGE * PAGE + PAGE;

		mapping->memory_start = next;
		mapping->memory_limit = next + size;
		next = mapping->memory_limit + PAGE;
	}
	for (i = 0; i < w->locations->len; i++) {
		Perftools__Profiles__Location *location = w->locations->pdata[i];
		const struct place *place = &g_array_index(w->places, struct place, i);
		const Perftools__Profiles__Mapping *mapping;

		location->address = place->offset;
		if (!place->mapping)
			continue;
		mapping = w->mappings->pdata[place->mapping - 1];
		location->mapping_id = mapping->id;
		location->address = mapping->memory_start + place->offset;
	}
}

/* The id of the function and location of the frame `name`. */
static uint64_t frame_of(struct writer *w, const char *name)
{
	Perftools__Profiles__Function *function;
	Perftools__Profiles__Location *location;
	Perftools__Profiles__Line *line;
	gpointer found = g_hash_table_lookup(w->frame_ids, name);
	struct place place;
	uint64_t id;

	if (found)
		return GPOINTER_TO_SIZE(found);
	place = place_of(w, name);
	g_array_append_val(w->places, place);
	id = w->functions->len + 1;
	function = cprof_xmalloc(sizeof(*function));
	perftools__profiles__function__init(function);
	function->id = id;
	function->name = string_of(w, name);
	function->system_name = function->name;
	g_ptr_array_add(w->functions, function);
	line = cprof_xmalloc(sizeof(*line));
	perftools__profiles__line__init(line);
	line->function_id = id;
	location = cprof_xmalloc(sizeof(*location));
	perftools__profiles__location__init(location);
	location->id = id;
	location->n_line = 1;
	location->line = cprof_xmalloc(sizeof(*location->line));
	location->line[0] = line;
	g_ptr_array_add(w->locations, location);
	g_hash_table_insert(w->frame_ids, (gpointer)w->strings->pdata[function->name],
			    GSIZE_TO_POINTER(id));
	return id;
}

static void add_sample(struct writer *w, const char *key, bool split, uint64_t count)
{
	Perftools__Profiles__Sample *sample = cprof_xmalloc(sizeof(*sample));
	char **frames = split ? g_strsplit(key, ";", -1) : NULL;
	size_t n = frames ? g_strv_length(frames) : 1, i;

	perftools__profiles__sample__init(sample);
	sample->n_location_id = n;
	sample->location_id = cprof_xcalloc(n, sizeof(uint64_t));
	for (i = 0; i < n; i++)
		sample->location_id[i] = frame_of(w, frames ? frames[n - 1 - i] : key);
	sample->n_value = 1;
	sample->value = cprof_xmalloc(sizeof(int64_t));
	sample->value[0] = (int64_t)count;
	g_ptr_array_add(w->samples, sample);
	g_strfreev(frames);
}

static void value_type(struct writer *w, Perftools__Profiles__ValueType *vt, const char *type_unit)
{
	const char *slash = strrchr(type_unit, '/');
	char *type = slash ? g_strndup(type_unit, (gsize)(slash - type_unit)) : g_strdup(type_unit);

	perftools__profiles__value_type__init(vt);
	vt->type = string_of(w, type);
	vt->unit = string_of(w, slash ? slash + 1 : "count");
	g_free(type);
}

/* gzip-compresses data[0, len) onto `out`. */
static int write_gzip(FILE *out, const uint8_t *data, size_t len, struct cprof_error *err)
{
	unsigned char buf[1 << 16];
	z_stream z = { 0 };
	int rc;

	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		cprof_die_oom();
	z.next_in = (Bytef *)data;
	do {
		uInt chunk = len > (1u << 30) ? (1u << 30) : (uInt)len;

		z.avail_in = chunk;
		len -= chunk;
		do {
			z.next_out = buf;
			z.avail_out = sizeof(buf);
			rc = deflate(&z, len == 0 ? Z_FINISH : Z_NO_FLUSH);
			if (rc == Z_STREAM_ERROR) {
				deflateEnd(&z);
				return cprof_error_set(err, "gzip: deflate failed");
			}
			fwrite(buf, 1, sizeof(buf) - z.avail_out, out);
		} while (z.avail_out == 0);
	} while (len > 0);
	deflateEnd(&z);
	return 0;
}

static void writer_init(struct writer *w, enum cprof_by by)
{
	w->string_index = g_hash_table_new(cprof_str_hash, g_str_equal);
	w->strings = g_ptr_array_new_with_free_func(free);
	w->frame_ids = g_hash_table_new(cprof_str_hash, g_str_equal);
	w->functions = g_ptr_array_new();
	w->locations = g_ptr_array_new();
	w->samples = g_ptr_array_new();
	w->places = g_array_new(FALSE, FALSE, sizeof(struct place));
	w->mapping_index = g_hash_table_new(cprof_str_hash, g_str_equal);
	w->mappings = g_ptr_array_new_with_free_func(free);
	w->max_offsets = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	w->by = by;
}

static void writer_free(struct writer *w)
{
	guint i;

	for (i = 0; i < w->samples->len; i++) {
		Perftools__Profiles__Sample *sample = w->samples->pdata[i];

		free(sample->location_id);
		free(sample->value);
		free(sample);
	}
	for (i = 0; i < w->locations->len; i++) {
		Perftools__Profiles__Location *location = w->locations->pdata[i];

		free(location->line[0]);
		free(location->line);
		free(location);
	}
	for (i = 0; i < w->functions->len; i++)
		free(w->functions->pdata[i]);
	g_ptr_array_free(w->samples, TRUE);
	g_ptr_array_free(w->locations, TRUE);
	g_ptr_array_free(w->functions, TRUE);
	g_hash_table_destroy(w->frame_ids);
	g_array_free(w->places, TRUE);
	g_hash_table_destroy(w->mapping_index);
	g_ptr_array_free(w->mappings, TRUE);
	g_array_free(w->max_offsets, TRUE);
	g_hash_table_destroy(w->string_index);
	g_ptr_array_free(w->strings, TRUE);
}

/* Points profile at the samples, mappings, locations, functions and
 * strings of w. */
static void fill_profile(Perftools__Profiles__Profile *profile, struct writer *w)
{
	profile->n_sample = w->samples->len;
	profile->sample = (Perftools__Profiles__Sample **)w->samples->pdata;
	profile->n_mapping = w->mappings->len;
	profile->mapping = (Perftools__Profiles__Mapping **)w->mappings->pdata;
	profile->n_location = w->locations->len;
	profile->location = (Perftools__Profiles__Location **)w->locations->pdata;
	profile->n_function = w->functions->len;
	profile->function = (Perftools__Profiles__Function **)w->functions->pdata;
	profile->n_string_table = w->strings->len;
	profile->string_table = (char **)w->strings->pdata;
}

/* Packs profile and writes it gzip-compressed to out. */
static int pack_and_write(FILE *out, const Perftools__Profiles__Profile *profile,
			  struct cprof_error *err)
{
	size_t size = perftools__profiles__profile__get_packed_size(profile);
	uint8_t *packed = cprof_xmalloc(size ? size : 1);
	int status;

	perftools__profiles__profile__pack(profile, packed);
	status = write_gzip(out, packed, size, err);
	free(packed);
	return status;
}

int cprof_pprof_write(FILE *out, struct cprof_dist *dist, struct cprof_error *err)
{
	Perftools__Profiles__Profile profile = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType sample_type, period_type, *types[1] = { &sample_type };
	struct writer w;
	uint64_t other = cprof_dist_other(dist);
	guint i;
	int status;

	if (dist->cum)
		return cprof_error_set(err, "--pprof: a --cum distribution is not a profile (a "
					    "sample counts in many keys)");
	writer_init(&w, dist->by);
	string_of(&w, "");
	cprof_dist_sort(dist);
	value_type(&w, &sample_type, cprof_dist_sample_type(dist));
	for (i = 0; i < dist->entries.len; i++) {
		const struct cprof_entry *entry = dist->entries.items[i];

		if (entry->count > 0)
			add_sample(&w, entry->key, dist->by == CPROF_BY_STACK, entry->count);
	}
	if (other > 0)
		add_sample(&w, "[other]", false, other);
	place_mappings(&w);
	profile.n_sample_type = 1;
	profile.sample_type = types;
	if (dist->has_period) {
		value_type(&w, &period_type, "cpu/nanoseconds");
		profile.period_type = &period_type;
		profile.period = (int64_t)dist->period_us * 1000;
	}
	fill_profile(&profile, &w);
	status = pack_and_write(out, &profile, err);
	writer_free(&w);
	return status;
}
