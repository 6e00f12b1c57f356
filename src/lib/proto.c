/* proto.c: pprof's profile.proto, the walk over a Profile.
 *
 * The top-level Profile is walked field by field (its bytes from
 * proto-wire.c, gzip-inflated as they are read) and each location,
 * function and mapping unpacked on its own with protobuf-c's generated
 * code, each sample decoded in place (decode_sample: the loop of a large
 * profile, without protobuf-c's allocations), so that memory follows the
 * distinct stacks, locations and strings, not the file.  Samples with the same locations are
 * summed as they come (every value of each); the string table, usually
 * last, is checked once all is read, and then the sample index is picked,
 * drop_frames and keep_frames applied as pprof applies them
 * (proto-frames.c), the tag filters and labels read (proto-labels.c), and the
 * stacks handed to keys.c as indexes of locations. */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/hash.h"
#include "lib/profile.pb-c.h"
#include "proto-int.h"
#include "proto.h"

enum {
	MAX_MESSAGE = 64 << 20,            /* one sample, location, function, mapping or string */
	STORED_FACTOR = 16,                /* what the messages keep, per byte of them (charge) */
	STORED_SLACK = 1 << 20,
	KEY_BYTES = 20,                    /* a field key and a length, at most */
};

/* The fields of Profile, with the wire type each must have. */
enum {
	F_SAMPLE_TYPE = 1, F_SAMPLE, F_MAPPING, F_LOCATION, F_FUNCTION, F_STRING_TABLE,
	F_DROP_FRAMES, F_KEEP_FRAMES, F_TIME_NANOS, F_DURATION_NANOS, F_PERIOD_TYPE, F_PERIOD,
	F_COMMENT, F_DEFAULT_SAMPLE_TYPE,
};

static const char *const field_names[] = {
	[F_SAMPLE_TYPE] = "sample_type", [F_SAMPLE] = "sample", [F_MAPPING] = "mapping",
	[F_LOCATION] = "location", [F_FUNCTION] = "function", [F_STRING_TABLE] = "string_table",
	[F_DROP_FRAMES] = "drop_frames", [F_KEEP_FRAMES] = "keep_frames",
	[F_TIME_NANOS] = "time_nanos", [F_DURATION_NANOS] = "duration_nanos",
	[F_PERIOD_TYPE] = "period_type", [F_PERIOD] = "period", [F_COMMENT] = "comment",
	[F_DEFAULT_SAMPLE_TYPE] = "default_sample_type",
};

/* The wire type a known field has (comment may be packed too), or -1. */
static int field_wire(uint64_t field)
{
	switch (field) {
	case F_SAMPLE_TYPE: case F_SAMPLE: case F_MAPPING: case F_LOCATION: case F_FUNCTION:
	case F_STRING_TABLE: case F_PERIOD_TYPE:
		return 2;
	case F_DROP_FRAMES: case F_KEEP_FRAMES: case F_TIME_NANOS: case F_DURATION_NANOS:
	case F_PERIOD: case F_COMMENT: case F_DEFAULT_SAMPLE_TYPE:
		return 0;
	default:
		return -1;
	}
}

static bool wire_ok(uint64_t field, unsigned wire)
{
	int want = field_wire(field);

	return want == (int)wire || (field == F_COMMENT && wire == 2);
}

/* One field of a Profile at the front of data[0, len): its size through
 * its value (a length-delimited field's payload not included), or 0 when
 * it is not a well-formed known field. */
static size_t sniff_field(const unsigned char *data, size_t len, uint64_t *payload)
{
	uint64_t key, value;
	int n, m;

	n = cprof_pb_varint(data, len, &key);
	if (n <= 0 || !wire_ok(key >> 3, (unsigned)(key & 7)))
		return 0;
	m = cprof_pb_varint(data + n, len - (size_t)n, &value);
	if (m <= 0)
		return 0;
	*payload = (key & 7) == 2 ? value : 0;
	if (*payload > MAX_MESSAGE)
		return 0;
	return (size_t)n + (size_t)m;
}

bool cprof_proto_sniff(const unsigned char *data, size_t len)
{
	uint64_t payload;
	size_t n;

	if (len >= 2 && data[0] == 0x1f && data[1] == 0x8b)
		return true;
	n = sniff_field(data, len, &payload);
	if (n == 0)
		return false;
	/* When the first field ends inside what is given, what follows must
	 * be a field too (or the end). */
	if (payload <= len - n && n + payload < len)
		return sniff_field(data + n + payload, len - n - (size_t)payload, &payload) > 0;
	return true;
}

int cprof_proto_fail(struct cprof_proto_reader *r, uint64_t at, const char *what, const char *fmt, ...)
{
	char detail[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	return cprof_error_set(r->err, "%s at byte %llu%s: %s", what, (unsigned long long)at,
			       r->src.gzip ? " of the inflated stream" : "", detail);
}

static guint stack_hash(gconstpointer p)
{
	return (guint)((const struct stack *)p)->hash;
}

static gboolean stack_equal(gconstpointer a, gconstpointer b)
{
	const struct stack *x = a, *y = b;

	return x->hash == y->hash && x->depth == y->depth && x->n_labels == y->n_labels &&
	       memcmp(x->data, y->data, stack_words(x) * sizeof(x->data[0])) == 0;
}

static int check_values_count(struct cprof_proto_reader *r, const struct stack *stack, size_t n, uint64_t at)
{
	if (stack->n_values != n)
		return cprof_proto_fail(r, at, "sample", "%zu values where the sample at byte %llu with the "
			    "same locations has %u", n, (unsigned long long)stack->at,
			    stack->n_values);
	return 0;
}

/* One value of a repeated varint field, or a packed run of them. */
static bool take_repeated(const unsigned char **p, const unsigned char *end, unsigned wire,
			  struct words *out)
{
	const unsigned char *stop;
	uint64_t len;

	if (wire == 0)
		return cprof_pb_take_varint(p, end, words_grow(out, 1));
	if (wire != 2 || !cprof_pb_take_length(p, end, &len))
		return false;
	for (stop = *p + len; *p < stop;)
		if (!cprof_pb_take_varint(p, stop, words_grow(out, 1)))
			return false;
	return true;
}

/* A Label's four varints (key, str, num, num_unit) into words[0, 4). */
static bool decode_label(const unsigned char *p, const unsigned char *end, uint64_t *words)
{
	memset(words, 0, LABEL_WORDS * sizeof(words[0]));
	while (p < end) {
		uint64_t key;

		if (!cprof_pb_take_varint(&p, end, &key) || key >> 3 == 0)
			return false;
		if (key >> 3 <= LABEL_WORDS) {
			if ((key & 7) != 0 || !cprof_pb_take_varint(&p, end, &words[(key >> 3) - 1]))
				return false;
		} else if (!cprof_pb_skip_value(&p, end, (unsigned)(key & 7))) {
			return false;
		}
	}
	return true;
}

/* Decodes a Sample message into r->ids, r->values and r->labels, as
 * protobuf-c would (packed or not, unknown fields skipped) but without an
 * allocation per sample: this is the loop of a large profile.  False when
 * the message is malformed. */
static bool decode_sample(struct cprof_proto_reader *r, const unsigned char *p, size_t len)
{
	const unsigned char *end = p + len;

	r->ids.count = r->values.count = r->labels.count = 0;
	while (p < end) {
		uint64_t key, field, size;
		unsigned wire;

		if (!cprof_pb_take_varint(&p, end, &key))
			return false;
		field = key >> 3;
		wire = (unsigned)(key & 7);
		if (field == 1 || field == 2) {
			if (!take_repeated(&p, end, wire, field == 1 ? &r->ids : &r->values))
				return false;
		} else if (field == 3) {
			if (wire != 2 || !cprof_pb_take_length(&p, end, &size) ||
			    !decode_label(p, p + size, words_grow(&r->labels, LABEL_WORDS)))
				return false;
			p += size;
		} else if (field == 0 || !cprof_pb_skip_value(&p, end, wire)) {
			return false;
		}
	}
	return true;
}

/* Checks the values and labels of the sample being read, noting the
 * largest string index its labels name. */
static int check_sample(struct cprof_proto_reader *r, uint64_t at)
{
	const int64_t *value = (const int64_t *)(const void *)r->values.at;
	size_t n_label = r->labels.count / LABEL_WORDS;
	size_t i, n_labels = r->keep_labels ? n_label : 0;

	if (r->ids.count > UINT32_MAX || r->values.count > UINT32_MAX || n_labels > UINT32_MAX)
		return cprof_proto_fail(r, at, "sample", "too many locations, values or labels");
	for (i = 0; i < r->values.count; i++)
		if (value[i] < 0)
			return cprof_proto_fail(r, at, "sample", "value[%zu] is negative (%" PRId64 ")", i,
				    value[i]);
	for (i = 0; i < n_label; i++) {
		const int64_t *label = (const int64_t *)(const void *)r->labels.at + LABEL_WORDS * i;
		int64_t indexes[3] = { label[0], label[1], label[3] };
		size_t j;

		for (j = 0; j < 3; j++) {
			if (indexes[j] < 0)
				return cprof_proto_fail(r, at, "sample", "label[%zu]: string index %" PRId64
					    " is negative", i, indexes[j]);
			if (indexes[j] > r->max_label_string) {
				r->max_label_string = indexes[j];
				r->max_label_at = at;
			}
		}
	}
	return 0;
}

/* Counts `bytes` more of memory that the message at `at`, `len` bytes
 * with its key, makes the reader keep: -1 with the error set when all
 * it keeps passes STORED_FACTOR times the profile read so far (and 1 MiB),
 * so that what is stored is bounded by what the input holds. */
static int charge(struct cprof_proto_reader *r, const char *what, uint64_t at, uint64_t len,
		  size_t bytes)
{
	r->stored += bytes;
	if (r->stored > STORED_SLACK + STORED_FACTOR * (at + len))
		return cprof_proto_fail(r, at, what, "the profile's messages up to here take more "
					"than %d times their %llu bytes to hold", STORED_FACTOR,
					(unsigned long long)(at + len));
	return 0;
}

/* The stack of the sample being read (its locations, and its labels
 * when they count), added with zero values when it is new; NULL with the
 * error set when a stack with the same locations has another number of
 * values. */
static struct stack *find_stack(struct cprof_proto_reader *r, uint64_t at, uint64_t len)
{
	size_t n_location_id = r->ids.count, n_value = r->values.count;
	size_t n_labels = r->keep_labels ? r->labels.count / LABEL_WORDS : 0;
	size_t need = sizeof(struct stack) +
		      (n_location_id + LABEL_WORDS * n_labels + n_value) * sizeof(uint64_t);
	struct stack *stack;

	if (need > r->probe_cap) {
		r->probe_cap = need * 2;
		r->probe = cprof_xrealloc(r->probe, r->probe_cap);
	}
	r->probe->depth = (uint32_t)n_location_id;
	r->probe->n_values = (uint32_t)n_value;
	r->probe->n_labels = (uint32_t)n_labels;
	if (n_location_id)
		memcpy(r->probe->data, r->ids.at, n_location_id * sizeof(uint64_t));
	if (n_labels)
		memcpy(r->probe->data + n_location_id, r->labels.at,
		       LABEL_WORDS * n_labels * sizeof(uint64_t));
	r->probe->hash = cprof_hash(r->probe->data, stack_words(r->probe) * sizeof(uint64_t));
	stack = g_hash_table_lookup(r->stacks, r->probe);
	if (!stack) {
		stack = cprof_xmalloc(need);
		memcpy(stack, r->probe, sizeof(struct stack) + stack_words(r->probe) * sizeof(uint64_t));
		stack->at = at;
		memset(stack_values(stack), 0, n_value * sizeof(uint64_t));
		g_hash_table_add(r->stacks, stack);
		g_ptr_array_add(r->stack_list, stack);
		if (charge(r, "sample", at, len, need + 4 * sizeof(void *)) < 0)
			return NULL;
	} else if (check_values_count(r, stack, n_value, at) < 0) {
		return NULL;
	}
	return stack;
}

/* Adds the sample being read to the sums of its stack. */
static int add_sample(struct cprof_proto_reader *r, uint64_t at, uint64_t len)
{
	const int64_t *value = (const int64_t *)(const void *)r->values.at;
	struct stack *stack;
	size_t i;

	if (check_sample(r, at) < 0)
		return -1;
	stack = find_stack(r, at, len);
	if (!stack)
		return -1;
	for (i = 0; i < r->values.count; i++) {
		uint64_t *sum = &stack_values(stack)[i];

		if (*sum > (uint64_t)INT64_MAX - (uint64_t)value[i])
			return cprof_proto_fail(r, at, "sample", "value[%zu]: the sum overflows", i);
		*sum += (uint64_t)value[i];
	}
	return 0;
}

static int take_value_type(struct cprof_proto_reader *r, uint64_t field, const unsigned char *data,
			   size_t len, uint64_t at)
{
	Perftools__Profiles__ValueType *vt =
		perftools__profiles__value_type__unpack(&cprof_pb_allocator, len, data);
	struct value_type value;

	if (!vt)
		return cprof_proto_fail(r, at, field_names[field], "malformed message");
	value.type = vt->type;
	value.unit = vt->unit;
	value.at = at;
	if (field == F_SAMPLE_TYPE)
		g_array_append_val(r->sample_types, value);
	else
		r->period_type = value;
	perftools__profiles__value_type__free_unpacked(vt, &cprof_pb_allocator);
	return 0;
}

static int take_mapping(struct cprof_proto_reader *r, const unsigned char *data, size_t len, uint64_t at)
{
	Perftools__Profiles__Mapping *m = perftools__profiles__mapping__unpack(&cprof_pb_allocator, len, data);
	struct mapping mapping;

	if (!m)
		return cprof_proto_fail(r, at, field_names[F_MAPPING], "malformed message");
	mapping.id = m->id;
	mapping.start = m->memory_start;
	mapping.limit = m->memory_limit;
	mapping.file_offset = m->file_offset;
	mapping.filename = m->filename;
	mapping.build_id = m->build_id;
	mapping.at = at;
	perftools__profiles__mapping__free_unpacked(m, &cprof_pb_allocator);
	if (mapping.id == 0)
		return cprof_proto_fail(r, at, field_names[F_MAPPING], "id 0");
	g_array_append_val(r->mappings, mapping);
	return charge(r, field_names[F_MAPPING], at, len, sizeof(mapping));
}

/* A Line message at [p, end) into `line` (function_id and line; column
 * and unknown fields skipped); false when it is malformed. */
static bool decode_line(const unsigned char *p, const unsigned char *end, struct line *line)
{
	line->function_id = 0;
	line->line = 0;
	while (p < end) {
		uint64_t key, value;

		if (!cprof_pb_take_varint(&p, end, &key) || key >> 3 == 0)
			return false;
		if (key >> 3 <= 3) {
			if ((key & 7) != 0 || !cprof_pb_take_varint(&p, end, &value))
				return false;
			if (key >> 3 == 1)
				line->function_id = value;
			else if (key >> 3 == 2)
				line->line = (int64_t)value;
		} else if (!cprof_pb_skip_value(&p, end, (unsigned)(key & 7))) {
			return false;
		}
	}
	return true;
}

/* A Location message at [p, end) into `location`, its lines appended to
 * r->lines as they come (no allocation per line: a location of 64 MiB of
 * empty lines took 24 times that through protobuf-c); false when it is
 * malformed. */
static bool decode_location(struct cprof_proto_reader *r, const unsigned char *p,
			    const unsigned char *end, struct location *location)
{
	while (p < end) {
		uint64_t key, value;
		struct line line;

		if (!cprof_pb_take_varint(&p, end, &key) || key >> 3 == 0)
			return false;
		switch (key >> 3) {
		case 1: case 2: case 3: case 5:
			if ((key & 7) != 0 || !cprof_pb_take_varint(&p, end, &value))
				return false;
			if (key >> 3 == 1)
				location->id = value;
			else if (key >> 3 == 2)
				location->mapping_id = value;
			else if (key >> 3 == 3)
				location->address = value;
			break;
		case 4:
			if ((key & 7) != 2 || !cprof_pb_take_length(&p, end, &value) ||
			    !decode_line(p, p + value, &line))
				return false;
			p += value;
			g_array_append_val(r->lines, line);
			location->n_lines++;
			break;
		default:
			if (!cprof_pb_skip_value(&p, end, (unsigned)(key & 7)))
				return false;
		}
	}
	return true;
}

static int take_location(struct cprof_proto_reader *r, const unsigned char *data, size_t len, uint64_t at)
{
	struct location location = { 0 };
	guint lines = r->lines->len;

	location.first_line = lines;
	location.at = at;
	if (!decode_location(r, data, data + len, &location)) {
		g_array_set_size(r->lines, lines);
		return cprof_proto_fail(r, at, field_names[F_LOCATION], "malformed message");
	}
	if (location.id == 0)
		return cprof_proto_fail(r, at, field_names[F_LOCATION], "id 0");
	g_array_append_val(r->locations, location);
	return charge(r, field_names[F_LOCATION], at, len,
		      sizeof(location) + location.n_lines * sizeof(struct line));
}

static int take_function(struct cprof_proto_reader *r, const unsigned char *data, size_t len, uint64_t at)
{
	Perftools__Profiles__Function *f =
		perftools__profiles__function__unpack(&cprof_pb_allocator, len, data);
	struct function function;

	if (!f)
		return cprof_proto_fail(r, at, field_names[F_FUNCTION], "malformed message");
	function.id = f->id;
	function.name = f->name;
	function.system_name = f->system_name;
	function.filename = f->filename;
	function.at = at;
	perftools__profiles__function__free_unpacked(f, &cprof_pb_allocator);
	if (function.id == 0)
		return cprof_proto_fail(r, at, field_names[F_FUNCTION], "id 0");
	g_array_append_val(r->functions, function);
	return charge(r, field_names[F_FUNCTION], at, len, sizeof(function));
}

/* Buffers the `len` bytes of a message at the front of the source;
 * returns them, or NULL with the error set. */
static const unsigned char *fill_message(struct cprof_proto_reader *r, uint64_t field, uint64_t len,
					 uint64_t at)
{
	const char *what = field_names[field];
	long long got;

	if (len > MAX_MESSAGE) {
		cprof_proto_fail(r, at, what, "length %llu is past the %d MiB cprof allows",
		     (unsigned long long)len, MAX_MESSAGE >> 20);
		return NULL;
	}
	if (!r->src.gzip && r->src.in->regular && len > r->src.in->size - r->src.in->offset) {
		cprof_proto_fail(r, at, what, "length %llu runs past the end of the file",
		     (unsigned long long)len);
		return NULL;
	}
	got = cprof_pb_fill(&r->src, (size_t)len);
	if (got < 0)
		return NULL;
	if ((uint64_t)got < len) {
		cprof_proto_fail(r, at, what, "truncated: length %llu, %lld bytes left",
		     (unsigned long long)len, got);
		return NULL;
	}
	return cprof_pb_data(&r->src);
}

/* Unpacks one message of `len` bytes at the front of the source. */
static int take_message(struct cprof_proto_reader *r, uint64_t field, uint64_t len, uint64_t at)
{
	const unsigned char *data = fill_message(r, field, len, at);
	int status = 0;

	if (!data)
		return -1;
	switch (field) {
	case F_SAMPLE_TYPE:
	case F_PERIOD_TYPE:
		if (take_value_type(r, field, data, (size_t)len, at) < 0)
			return -1;
		break;
	case F_SAMPLE:
		if (!decode_sample(r, data, (size_t)len))
			return cprof_proto_fail(r, at, field_names[field], "malformed message");
		status = add_sample(r, at, len);
		break;
	case F_MAPPING:
		if (take_mapping(r, data, (size_t)len, at) < 0)
			return -1;
		break;
	case F_LOCATION:
		if (take_location(r, data, (size_t)len, at) < 0)
			return -1;
		break;
	case F_FUNCTION:
		if (take_function(r, data, (size_t)len, at) < 0)
			return -1;
		break;
	case F_STRING_TABLE: {
		struct string s = { r->string_bytes->len, (size_t)len, at };

		g_byte_array_append(r->string_bytes, data, (guint)len);
		g_array_append_val(r->strings, s);
		if (charge(r, field_names[field], at, len, sizeof(s) + (size_t)len) < 0)
			return -1;
		break;
	}
	}
	cprof_pb_skip(&r->src, (size_t)len);
	return status;
}

/* Skips `len` bytes of a field cprof does not read. */
static int skip_bytes(struct cprof_proto_reader *r, uint64_t len, uint64_t at, uint64_t field)
{
	while (len > 0) {
		long long got = cprof_pb_fill(&r->src, 1);
		size_t n;

		if (got < 0)
			return -1;
		if (got == 0)
			return cprof_proto_fail(r, at, "field", "%llu (length-delimited) truncated: %llu bytes "
				    "missing", (unsigned long long)field, (unsigned long long)len);
		n = (uint64_t)got < len ? (size_t)got : (size_t)len;
		cprof_pb_skip(&r->src, n);
		len -= n;
	}
	return 0;
}

static void set_scalar(struct cprof_proto_reader *r, uint64_t field, uint64_t value, uint64_t at)
{
	int64_t v = (int64_t)value;

	switch (field) {
	case F_DROP_FRAMES:
		r->drop_frames = v, r->drop_at = at;
		break;
	case F_KEEP_FRAMES:
		r->keep_frames = v, r->keep_at = at;
		break;
	case F_PERIOD:
		r->period = v;
		break;
	case F_DEFAULT_SAMPLE_TYPE:
		r->default_sample_type = v, r->default_at = at;
		break;
	default:
		break;
	}
}

/* Decodes the field key at data[0, avail) and what follows it in the
 * key's bytes (a varint's value or a length, into *value); returns how
 * many bytes that takes, or -1 with the error set. */
static int take_key(struct cprof_proto_reader *r, uint64_t at, const unsigned char *data, size_t avail,
		    uint64_t *field, unsigned *wire, uint64_t *value)
{
	uint64_t key;
	size_t used;
	int n = cprof_pb_varint(data, avail, &key);

	if (n < 0)
		return cprof_proto_fail(r, at, "field key", "bad varint");
	if (n == 0)
		return cprof_proto_fail(r, at, "field key", "truncated varint");
	*field = key >> 3;
	*wire = (unsigned)(key & 7);
	if (*field == 0 || *field > 536870911)
		return cprof_proto_fail(r, at, "field key", "bad field number %llu", (unsigned long long)*field);
	if (field_wire(*field) >= 0 && !wire_ok(*field, *wire))
		return cprof_proto_fail(r, at, field_names[*field], "wire type %u, not %d", *wire,
			    field_wire(*field));
	used = (size_t)n;
	switch (*wire) {
	case 0:
	case 2:
		n = cprof_pb_varint(data + used, avail - used, value);
		if (n < 0)
			return cprof_proto_fail(r, at + used, *wire == 0 ? "varint" : "length", "bad varint");
		if (n == 0)
			return cprof_proto_fail(r, at + used, *wire == 0 ? "varint" : "length",
				    "truncated varint");
		return (int)(used + (size_t)n);
	case 1:
	case 5:
		if (avail - used < (*wire == 1 ? 8u : 4u))
			return cprof_proto_fail(r, at, "field", "%llu truncated", (unsigned long long)*field);
		return (int)(used + (*wire == 1 ? 8 : 4));
	default:
		return cprof_proto_fail(r, at, "field key", "unsupported wire type %u (field %llu)", *wire,
			    (unsigned long long)*field);
	}
}

/* Reads every top-level field of the Profile. */
static int walk(struct cprof_proto_reader *r)
{
	for (;;) {
		uint64_t at = cprof_pb_offset(&r->src), value = 0, field = 0;
		long long got = cprof_pb_fill(&r->src, KEY_BYTES);
		unsigned wire = 0;
		int used;

		if (got < 0)
			return -1;
		if (got == 0)
			return 0;
		used = take_key(r, at, cprof_pb_data(&r->src), (size_t)got, &field, &wire, &value);
		if (used < 0)
			return -1;
		cprof_pb_skip(&r->src, (size_t)used);
		if (wire == 0) {
			set_scalar(r, field, value, at);
		} else if (wire == 2) {
			int status = field_wire(field) == 2 ?
					     take_message(r, field, value, at) :
					     skip_bytes(r, value, at, field);

			if (status < 0)
				return -1;
		}
	}
}

static int check_string(struct cprof_proto_reader *r, int64_t index, uint64_t at, const char *what,
			const char *field)
{
	if (index < 0 || (uint64_t)index >= r->strings->len)
		return cprof_proto_fail(r, at, what, "%s: string index %" PRId64 " is not in the string table "
			    "(%u strings)", field, index, r->strings->len);
	return 0;
}

static int check_strings(struct cprof_proto_reader *r)
{
	size_t i;

	if (r->strings->len == 0)
		return cprof_error_set(r->err, "no string_table (its first string must be \"\")");
	if (g_array_index(r->strings, struct string, 0).len != 0)
		return cprof_proto_fail(r, g_array_index(r->strings, struct string, 0).file_at, "string_table",
			    "the first string is not \"\"");
	for (i = 0; i < r->sample_types->len; i++) {
		const struct value_type *vt = &g_array_index(r->sample_types, struct value_type, i);

		if (check_string(r, vt->type, vt->at, "sample_type", "type") < 0 ||
		    check_string(r, vt->unit, vt->at, "sample_type", "unit") < 0)
			return -1;
	}
	if (check_string(r, r->period_type.type, r->period_type.at, "period_type", "type") < 0 ||
	    check_string(r, r->period_type.unit, r->period_type.at, "period_type", "unit") < 0 ||
	    check_string(r, r->drop_frames, r->drop_at, "drop_frames", "index") < 0 ||
	    check_string(r, r->keep_frames, r->keep_at, "keep_frames", "index") < 0 ||
	    check_string(r, r->default_sample_type, r->default_at, "default_sample_type",
			 "index") < 0)
		return -1;
	if (r->max_label_string >= (int64_t)r->strings->len)
		return cprof_proto_fail(r, r->max_label_at, "sample", "label: string index %" PRId64
			    " is not in the string table (%u strings)", r->max_label_string,
			    r->strings->len);
	for (i = 0; i < r->functions->len; i++) {
		const struct function *f = &g_array_index(r->functions, struct function, i);

		if (check_string(r, f->name, f->at, "function", "name") < 0 ||
		    check_string(r, f->system_name, f->at, "function", "system_name") < 0 ||
		    check_string(r, f->filename, f->at, "function", "filename") < 0)
			return -1;
	}
	for (i = 0; i < r->mappings->len; i++) {
		const struct mapping *m = &g_array_index(r->mappings, struct mapping, i);

		if (check_string(r, m->filename, m->at, "mapping", "filename") < 0 ||
		    check_string(r, m->build_id, m->at, "mapping", "build_id") < 0)
			return -1;
	}
	return 0;
}

/* Indexes the ids of `array` (elements of `size` bytes, the id first, the
 * byte offset of the message at `at_offset`):
 * id -> index + 1.  Refuses id 0 and repeated ids. */
static GHashTable *index_ids(struct cprof_proto_reader *r, GArray *array, size_t size, size_t at_offset,
			     const char *what)
{
	GHashTable *table = g_hash_table_new(cprof_int64_hash, g_int64_equal);
	size_t i;

	for (i = 0; i < array->len; i++) {
		uint64_t *id = (uint64_t *)(void *)(array->data + i * size), at;

		memcpy(&at, array->data + i * size + at_offset, sizeof(at));
		if (*id == 0) {
			cprof_proto_fail(r, at, what, "id 0");
			goto bad;
		}
		if (g_hash_table_contains(table, id)) {
			cprof_proto_fail(r, at, what, "id %llu repeated", (unsigned long long)*id);
			goto bad;
		}
		g_hash_table_insert(table, id, GSIZE_TO_POINTER(i + 1));
	}
	return table;
bad:
	g_hash_table_destroy(table);
	return NULL;
}

const struct cprof_mapping *cprof_location_get(const struct cprof_locations *locations,
					       uint64_t index, uint64_t *address,
					       const struct cprof_symbol **frames, size_t *count)
{
	const struct location_out *l = &locations->items[index];

	*address = l->address;
	*frames = l->frames;
	*count = l->n_frames;
	return l->mapping;
}

void cprof_locations_free(struct cprof_locations *locations)
{
	if (!locations)
		return;
	free(locations->items);
	free(locations->symbols);
	cprof_strings_free(locations->names);
	free(locations);
}

/* The mappings as /proc/maps lines for maps.c, then each location's. */
static int build_maps(struct cprof_proto_reader *r, struct cprof_profile *profile)
{
	GString *line = g_string_new(NULL);
	size_t i;

	for (i = 0; i < r->mappings->len; i++) {
		const struct mapping *m = &g_array_index(r->mappings, struct mapping, i);
		size_t len, j;
		const char *name = cprof_proto_string_at(r, m->filename, &len);

		g_string_printf(line, "%" PRIx64 "-%" PRIx64 " r-xp %" PRIx64 " 00:00 0 ", m->start,
				m->limit, m->file_offset);
		for (j = 0; j < len; j++)
			g_string_append_c(line, name[j] == '\n' || name[j] == '\0' ? '?' : name[j]);
		/* A line starting with an address defines nothing: none fails. */
		if (cprof_maps_add_line(&profile->maps, line->str, line->len, r->err) < 0) {
			g_string_free(line, TRUE);
			return -1;
		}
	}
	g_string_free(line, TRUE);
	cprof_maps_finish(&profile->maps);
	profile->replaced_utf8 |= profile->maps.replaced_utf8;
	return 0;
}

static void build_locations(struct cprof_proto_reader *r, struct cprof_profile *profile,
			    GHashTable *functions)
{
	struct cprof_locations *out = cprof_xcalloc(1, sizeof(*out));
	size_t i, n_symbols = 0;

	profile->locations = out;
	out->count = r->locations->len + 1;
	out->items = cprof_xcalloc(out->count, sizeof(*out->items));
	out->names = cprof_strings_new();
	for (i = 0; i < r->locations->len; i++)
		n_symbols += g_array_index(r->locations, struct location, i).n_lines;
	out->symbols = cprof_xcalloc(n_symbols + 1, sizeof(*out->symbols));
	n_symbols = 0;
	for (i = 0; i < r->locations->len; i++) {
		const struct location *l = &g_array_index(r->locations, struct location, i);
		struct location_out *o = &out->items[i];
		size_t j;

		o->address = l->address;
		if (l->mapping_id != 0)
			o->mapping = cprof_maps_find(&profile->maps, l->address);
		o->frames = out->symbols + n_symbols;
		for (j = 0; j < l->n_lines; j++) {
			const struct line *line = &g_array_index(r->lines, struct line, l->first_line + j);
			struct cprof_symbol *symbol = &out->symbols[n_symbols + o->n_frames];
			size_t k = line->function_id ? cprof_proto_lookup(functions, line->function_id) : 0;
			const struct function *f;
			size_t len;
			char *s;

			if (k == 0)
				continue;
			f = &g_array_index(r->functions, struct function, k - 1);
			cprof_proto_string_at(r, f->name, &len);
			s = cprof_proto_string_dup(r, len ? f->name : f->system_name, &profile->replaced_utf8);
			symbol->function = s[0] ? cprof_strings_intern(out->names, s) : NULL;
			free(s);
			s = cprof_proto_string_dup(r, f->filename, &profile->replaced_utf8);
			symbol->file = s[0] ? cprof_strings_intern(out->names, s) : NULL;
			free(s);
			symbol->line = line->line > 0 && line->line <= INT_MAX ? (int)line->line : 0;
			if (symbol->function || symbol->file)
				o->n_frames++;
		}
		n_symbols += o->n_frames;
	}
}

/* Checks the ids every location, line and sample names. */
static int check_ids(struct cprof_proto_reader *r, GHashTable *functions, GHashTable *mappings,
		     GHashTable *locations)
{
	size_t i, j;

	for (i = 0; i < r->locations->len; i++) {
		const struct location *l = &g_array_index(r->locations, struct location, i);

		if (l->mapping_id && !cprof_proto_lookup(mappings, l->mapping_id))
			return cprof_proto_fail(r, l->at, "location", "mapping_id %llu does not exist",
				    (unsigned long long)l->mapping_id);
		for (j = 0; j < l->n_lines; j++) {
			const struct line *line = &g_array_index(r->lines, struct line, l->first_line + j);

			if (line->function_id && !cprof_proto_lookup(functions, line->function_id))
				return cprof_proto_fail(r, l->at, "location", "line[%zu]: function_id %llu does "
					    "not exist", j, (unsigned long long)line->function_id);
		}
	}
	for (i = 0; i < r->stack_list->len; i++) {
		const struct stack *s = g_ptr_array_index(r->stack_list, i);

		if (s->n_values != r->sample_types->len)
			return cprof_proto_fail(r, s->at, "sample", "%u value%s where the profile has %u "
				    "sample type%s", s->n_values, s->n_values == 1 ? "" : "s",
				    r->sample_types->len, r->sample_types->len == 1 ? "" : "s");
		for (j = 0; j < s->depth; j++)
			if (!cprof_proto_lookup(locations, s->data[j]))
				return cprof_proto_fail(r, s->at, "sample", "location_id %llu does not exist",
					    (unsigned long long)s->data[j]);
	}
	return 0;
}

static int pick_index(struct cprof_proto_reader *r, struct cprof_profile *profile, const char *request)
{
	size_t n = r->sample_types->len, i;
	char **types = cprof_xcalloc(n + 1, sizeof(char *));
	char **units = cprof_xcalloc(n + 1, sizeof(char *));
	char *default_type = cprof_proto_string_dup(r, r->default_sample_type, NULL);
	int index;

	for (i = 0; i < n; i++) {
		const struct value_type *vt = &g_array_index(r->sample_types, struct value_type, i);

		types[i] = cprof_proto_string_dup(r, vt->type, &profile->replaced_utf8);
		units[i] = cprof_proto_string_dup(r, vt->unit, &profile->replaced_utf8);
	}
	if (n == 0) {
		index = cprof_error_set(r->err, "no sample_type");
	} else {
		index = cprof_sample_index_pick((const char *const *)types, (const char *const *)units,
						n, default_type, request, r->err);
		if (index >= 0)
			profile->sample_type = g_strdup_printf("%s/%s", types[index], units[index]);
		for (i = 0; index >= 0 && i < n; i++) {
			char *type = g_strdup_printf("%s/%s", types[i], units[i]);

			cprof_ptrs_add(&profile->sample_types, cprof_xstrdup(type));
			g_free(type);
		}
	}
	for (i = 0; i < n; i++) {
		free(types[i]);
		free(units[i]);
	}
	free(types);
	free(units);
	free(default_type);
	return index;
}

/* The period in microseconds when the period type is a time. */
static void set_period(struct cprof_proto_reader *r, struct cprof_profile *profile)
{
	static const struct {
		const char *unit;
		double to_us;
	} units[] = {
		{ "nanoseconds", 1e-3 }, { "microseconds", 1 }, { "milliseconds", 1e3 },
		{ "seconds", 1e6 },
	};
	size_t i, len;
	const char *unit = cprof_proto_string_at(r, r->period_type.unit, &len);

	if (r->period <= 0)
		return;
	for (i = 0; i < G_N_ELEMENTS(units); i++) {
		double us = (double)r->period * units[i].to_us;

		if (strlen(units[i].unit) == len && memcmp(unit, units[i].unit, len) == 0 &&
		    us >= 0.5 && us < 9.2e18) {
			profile->has_period = true;
			profile->period_us = (uint64_t)(us + 0.5);
		}
	}
}

/* The stacks of the chosen value, as location indexes, for keys.c; only
 * those the tag filters keep, with their label keys when asked. */
static int build_stacks(struct cprof_proto_reader *r, struct cprof_profile *profile, GHashTable *locations,
			int index)
{
	size_t *indexes = NULL, cap = 0, i;
	uint64_t empty = r->locations->len;
	GPtrArray *labels = r->options->label_key ? g_ptr_array_new() : NULL;
	GPtrArray *row_labels = r->options->num_row_labels ? g_ptr_array_new() : NULL;
	GString *buf = g_string_new(NULL);

	for (i = 0; i < r->stack_list->len; i++) {
		const struct stack *s = g_ptr_array_index(r->stack_list, i);
		uint64_t value = stack_values((struct stack *)s)[index];
		struct cprof_stack *out;
		uint32_t from, j, depth;

		if (!cprof_proto_filters_keep(r, s))
			continue;
		if (profile->total > (uint64_t)INT64_MAX - value) {
			free(indexes);
			g_string_free(buf, TRUE);
			if (labels)
				g_ptr_array_free(labels, TRUE);
			if (row_labels)
				g_ptr_array_free(row_labels, TRUE);
			return cprof_proto_fail(r, s->at, "sample", "the values' sum overflows");
		}
		profile->total += value;
		if (value == 0)
			continue;
		if (s->depth > cap) {
			cap = 2 * (size_t)s->depth;
			indexes = cprof_xrealloc(indexes, cap * sizeof(*indexes));
		}
		for (j = 0; j < s->depth; j++)
			indexes[j] = cprof_proto_lookup(locations, s->data[j]) - 1;
		from = cprof_proto_prune_stack(r, indexes, s->depth);
		depth = s->depth - from;
		out = cprof_xmalloc(sizeof(*out) + (depth ? depth : 1) * sizeof(uint64_t));
		out->count = value;
		out->depth = depth ? depth : 1;
		out->pcs = out->storage;
		if (depth == 0)
			out->storage[0] = empty;
		for (j = 0; j < depth; j++)
			out->storage[j] = indexes[from + j];
		out->hash = cprof_hash(out->storage, out->depth * sizeof(uint64_t));
		cprof_ptrs_add(&profile->stacks, out);
		if (labels)
			g_ptr_array_add(labels, (gpointer)cprof_proto_label_key(r, profile, s, buf));
		if (row_labels)
			cprof_proto_add_row_labels(r, profile, s, row_labels, buf);
	}
	free(indexes);
	g_string_free(buf, TRUE);
	if (labels)
		profile->labels = (const char **)g_ptr_array_free(labels, FALSE);
	if (row_labels)
		profile->row_labels = (const char **)g_ptr_array_free(row_labels, FALSE);
	return 0;
}

static int finish(struct cprof_proto_reader *r, struct cprof_profile *profile, const char *request)
{
	GHashTable *functions = NULL, *mappings = NULL, *locations = NULL;
	int index, status = -1;

	if (check_strings(r) < 0)
		return -1;
	functions = index_ids(r, r->functions, sizeof(struct function),
			      offsetof(struct function, at), "function");
	if (!functions)
		goto out;
	mappings = index_ids(r, r->mappings, sizeof(struct mapping), offsetof(struct mapping, at),
			     "mapping");
	if (!mappings)
		goto out;
	locations = index_ids(r, r->locations, sizeof(struct location),
			      offsetof(struct location, at), "location");
	if (!locations)
		goto out;
	if (check_ids(r, functions, mappings, locations) < 0)
		goto out;
	index = pick_index(r, profile, request);
	if (index < 0)
		goto out;
	set_period(r, profile);
	if (cprof_proto_prune_locations(r, functions) < 0)
		goto out;
	if (build_maps(r, profile) < 0)
		goto out;
	build_locations(r, profile, functions);
	status = build_stacks(r, profile, locations, index);
out:
	if (functions)
		g_hash_table_destroy(functions);
	if (mappings)
		g_hash_table_destroy(mappings);
	if (locations)
		g_hash_table_destroy(locations);
	return status;
}

const char *cprof_proto_string_at(const struct cprof_proto_reader *r, int64_t index, size_t *len)
{
	const struct string *s = &g_array_index(r->strings, struct string, (size_t)index);

	*len = s->len;
	return (const char *)r->string_bytes->data + s->at;
}

char *cprof_proto_string_dup(struct cprof_proto_reader *r, int64_t index, bool *replaced)
{
	size_t len;
	const char *s = cprof_proto_string_at(r, index, &len);

	return cprof_utf8_sanitize(s, len, replaced);
}

int cprof_proto_read(struct cprof_input *in, struct cprof_profile *profile,
		     const struct cprof_read_options *options, struct cprof_error *err)
{
	static const struct cprof_read_options defaults = { 0 };
	struct cprof_proto_reader r = { 0 };
	int status = -1;

	r.options = options ? options : &defaults;
	r.keep_labels = r.options->num_tag_filters > 0 || r.options->label_key ||
			r.options->num_row_labels > 0;
	profile->format = CPROF_FORMAT_PPROF;
	profile->exact_pcs = true;
	r.err = err;
	if (cprof_pb_source_open(&r.src, in, err) < 0)
		return -1;
	r.sample_types = g_array_new(FALSE, FALSE, sizeof(struct value_type));
	r.functions = g_array_new(FALSE, FALSE, sizeof(struct function));
	r.mappings = g_array_new(FALSE, FALSE, sizeof(struct mapping));
	r.locations = g_array_new(FALSE, FALSE, sizeof(struct location));
	r.lines = g_array_new(FALSE, FALSE, sizeof(struct line));
	r.strings = g_array_new(FALSE, FALSE, sizeof(struct string));
	r.string_bytes = g_byte_array_new();
	r.stacks = g_hash_table_new(stack_hash, stack_equal);
	r.stack_list = g_ptr_array_new_with_free_func(free);

	if (walk(&r) == 0) {
		if (r.src.gzip && r.src.produced == 0)
			cprof_error_set(err, "gzip stream holds no profile (empty)");
		else
			status = finish(&r, profile, r.options->sample_index);
	}

	cprof_pb_source_close(&r.src);
	free(r.probe);
	free(r.ids.at);
	free(r.values.at);
	free(r.labels.at);
	g_array_free(r.sample_types, TRUE);
	g_array_free(r.functions, TRUE);
	g_array_free(r.mappings, TRUE);
	g_array_free(r.locations, TRUE);
	g_array_free(r.lines, TRUE);
	g_array_free(r.strings, TRUE);
	g_byte_array_free(r.string_bytes, TRUE);
	g_hash_table_destroy(r.stacks);
	g_ptr_array_free(r.stack_list, TRUE);
	return status;
}

