/* profile.c: opening an input and detecting its format by content. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "calltree.h"
#include "cpuprofile.h"
#include "dist.h"
#include "flatjson.h"
#include "folded.h"
#include "formats.h"
#include "gperf.h"
#include "heap.h"
#include "base/input.h"
#include "jsonin.h"
#include "maps.h"
#include "perfscript.h"
#include "profile.h"
#include "proto.h"
#include "base/ptrs.h"
#include "speedscope.h"
#include "base/util.h"

/* How far into a text input the first non-blank line is looked for. */
enum { SNIFF_BYTES = 1 << 16 };

/* The end of the line that starts at data[i] (before its "\r\n"). */
static size_t line_end(const unsigned char *data, size_t avail, size_t i)
{
	size_t end = i;

	while (end < avail && data[end] != '\n')
		end++;
	if (end > i && data[end - 1] == '\r')
		end--;
	return end;
}

/* Past the blank and "#" lines from data[i], where a folded input's first
 * stack is; `avail` when there is none within it. */
static size_t skip_comments(const unsigned char *data, size_t avail, size_t i)
{
	while (i < avail && (data[i] == '#' || strchr(" \t\r\n", data[i]))) {
		if (data[i] == '#')
			i = line_end(data, avail, i);
		i++;
	}
	return i;
}

/* Decides between flat JSON and folded stacks from the first non-blank
 * bytes of data[0, avail) (a folded input may start with "#" lines,
 * unless another format's text names itself there); -2 when the input
 * is neither (*why then says more, or is NULL; `why` may be NULL). */
static int text_kind(const unsigned char *data, size_t avail, const char **why)
{
	const char *because = NULL;
	size_t i, end;
	int kind = -2;

	for (i = 0; i < avail && strchr(" \t\r\n", data[i]) && data[i]; i++)
		;
	if (i == avail) {
		because = avail ? "blank input" : "empty input";
	} else if (data[i] == '{') {
		kind = CPROF_FORMAT_FLAT;
	} else if (data[i] == '#' &&
		   (cprof_format_foreign(data, avail) || cprof_perfscript_sniff(data, avail))) {
		/* another format's text that starts with '#' */
	} else {
		if (data[i] == '#')
			i = skip_comments(data, avail, i);
		end = line_end(data, avail, i);
		if (i < avail && memchr(data + i, '\0', end - i) == NULL &&
		    cprof_folded_line_ok((const char *)data + i, end - i))
			kind = CPROF_FORMAT_FOLDED;
	}
	if (why)
		*why = because;
	return kind;
}

/* A flat JSON input, folded stacks, or a format that counts samples
 * ("samples/count") have the one sample type `type`. */
static int check_type_index(const char *type, const char *request, struct cprof_error *err)
{
	const char *slash;
	char *name;
	int status;

	if (!request)
		return 0;
	slash = strrchr(type, '/');
	name = slash ? g_strndup(type, (gsize)(slash - type)) : g_strdup(type);
	{
		const char *types[] = { name }, *units[] = { slash ? slash + 1 : "" };

		status = cprof_sample_index_pick(types, units, 1, NULL, request, err) < 0 ? -1 : 0;
	}
	g_free(name);
	return status;
}

/* Only a profile.proto has labels: --tag-filter and --by=label:KEY need
 * one (a flat keyed by that label keeps its keys; keys.c checks them). */
static int check_labels(const struct cprof_profile *profile,
			const struct cprof_read_options *options, struct cprof_error *err)
{
	static const char *const formats[] = {
		[CPROF_FORMAT_GPERF] = "a gperftools CPU profile has",
		[CPROF_FORMAT_FOLDED] = "folded stacks have",
		[CPROF_FORMAT_FLAT] = "a flat distribution has",
		[CPROF_FORMAT_HEAP] = "a gperftools heap profile has",
		[CPROF_FORMAT_PERF] = "perf script text has",
		[CPROF_FORMAT_SPEEDSCOPE] = "a speedscope file has",
		[CPROF_FORMAT_CPUPROFILE] = "a .cpuprofile has",
	};

	if (!options || profile->format == CPROF_FORMAT_PPROF)
		return 0;
	if (options->num_tag_filters > 0)
		return cprof_error_set(err, "--tag-filter: %s no labels (only profile.proto has "
					    "them)", formats[profile->format]);
	if (options->label_key && profile->format != CPROF_FORMAT_FLAT)
		return cprof_error_set(err, "--by=label:%s: %s no labels (only profile.proto has "
					    "them)", options->label_key, formats[profile->format]);
	return 0;
}

/* --sample-type and --period say what folded counts are: the other
 * formats say it themselves. */
static int check_units(const struct cprof_profile *profile,
		       const struct cprof_read_options *options, struct cprof_error *err)
{
	static const char *const formats[] = {
		[CPROF_FORMAT_GPERF] = "a gperftools CPU profile counts samples",
		[CPROF_FORMAT_FLAT] = "a flat distribution says its sample type",
		[CPROF_FORMAT_PPROF] = "a profile.proto says its sample types (--sample-index "
				       "picks one)",
		[CPROF_FORMAT_HEAP] = "a gperftools heap profile says its sample types "
				      "(--sample-index picks one)",
		[CPROF_FORMAT_PERF] = "perf script text says its event and period "
				      "(--sample-index picks one)",
		[CPROF_FORMAT_SPEEDSCOPE] = "a speedscope file says its unit",
		[CPROF_FORMAT_CPUPROFILE] = "a .cpuprofile counts samples",
	};

	if (!options || profile->format == CPROF_FORMAT_FOLDED)
		return 0;
	if (options->sample_type)
		return cprof_error_set(err, "--sample-type: only for folded stacks: %s",
				       formats[profile->format]);
	if (options->has_period)
		return cprof_error_set(err, "--period: only for folded stacks: %s",
				       formats[profile->format]);
	return 0;
}

/* A gperftools or Go text profile that carries no maps (Go's debug=1
 * heap profile): with --binary its addresses are the binary's link-time
 * ones, as pprof reads them with the program named. */
static void map_binary(struct cprof_profile *profile, const struct cprof_read_options *options)
{
	if (options && options->binary && profile->maps.count == 0 &&
	    (profile->format == CPROF_FORMAT_GPERF || profile->format == CPROF_FORMAT_HEAP))
		cprof_maps_add_link_time(&profile->maps, options->binary);
}

struct cprof_profile *cprof_profile_read(const char *name, struct cprof_error *err)
{
	return cprof_profile_read_with(name, NULL, err);
}

/* How much of the start of a folded input is kept to name it by if it
 * fails to read (formats.h: a first line of another format can look
 * like a folded one, "goroutine profile: total 4"). */
enum { FOREIGN_HEAD = 1024 };

/* Reads folded stacks; a failure on an input of a format that cprof does
 * not read names that format instead. */
static int read_folded(struct cprof_input *in, struct cprof_profile *profile,
		       const struct cprof_read_options *options, struct cprof_error *err)
{
	unsigned char head[FOREIGN_HEAD];
	size_t len = cprof_input_avail(in) < sizeof(head) ? cprof_input_avail(in) : sizeof(head);
	const struct cprof_foreign *foreign;

	memcpy(head, cprof_input_data(in), len);
	if (cprof_folded_read(in, profile, options, err) == 0)
		return 0;
	foreign = cprof_format_foreign(head, len);
	return foreign ? cprof_format_refuse(foreign, profile->source, err) : -1;
}

/* Reads a JSON object, parsed once: cprof's flat, a speedscope file or a
 * .cpuprofile, told apart by their members. */
static int read_json(struct cprof_input *in, struct cprof_profile *profile,
		     const char *request, struct cprof_error *err)
{
	json_t *root = cprof_json_load(in, err);
	int status;

	if (!root)
		return -1;
	if (!json_is_object(root))
		status = cprof_error_at(err, "(root)", "not a JSON object");
	else if (json_object_get(root, "cprof"))
		status = cprof_flatjson_take(root, profile, err) == 0 ?
				 check_type_index(cprof_dist_sample_type(profile->flat), request,
						  err) : -1;
	else if (cprof_speedscope_is(root))
		status = cprof_speedscope_take(root, profile, request, err);
	else if (cprof_cpuprofile_is(root))
		status = cprof_cpuprofile_take(root, profile, err) == 0 ?
				 check_type_index("samples/count", request, err) : -1;
	else
		status = cprof_error_set(err, "a JSON object of no format cprof reads (cprof reads "
					      "its own flat JSON, speedscope's and V8's .cpuprofile)");
	json_decref(root);
	return status;
}

/* Reads folded stacks, which count samples unless their "# cprof:" line
 * says otherwise. */
static int read_folded_typed(struct cprof_input *in, struct cprof_profile *profile,
			     const struct cprof_read_options *options, struct cprof_error *err)
{
	int status = read_folded(in, profile, options, err);

	if (status == 0)
		status = check_type_index(profile->sample_type ? profile->sample_type :
					  "samples/count", options ? options->sample_index : NULL,
					  err);
	return status;
}

static int read_json_object(struct cprof_input *in, struct cprof_profile *profile,
			    const struct cprof_read_options *options, struct cprof_error *err)
{
	return read_json(in, profile, options ? options->sample_index : NULL, err);
}

/* Refuses an input of a format cprof does not read, naming the command
 * that converts it (formats.c). */
static int refuse_foreign(struct cprof_input *in, struct cprof_profile *profile,
			  const struct cprof_read_options *options, struct cprof_error *err)
{
	(void)options;
	return cprof_format_refuse(cprof_format_foreign(cprof_input_data(in),
							cprof_input_avail(in)),
				   profile->source, err);
}

/* An input no reader takes. */
static int refuse_unknown(struct cprof_input *in, struct cprof_profile *profile,
			  const struct cprof_read_options *options, struct cprof_error *err)
{
	const char *why;

	(void)profile;
	(void)options;
	text_kind(cprof_input_data(in), cprof_input_avail(in), &why);
	if (why)
		return cprof_error_set(err, "unrecognized profile format: %s", why);
	return cprof_error_set(err, "unrecognized profile format");
}

/* The bytes of UTF-16 converted at a time; UTF-8 takes at most 3/2 as
 * many. */
enum { UTF16_CHUNK = 1 << 16, UTF8_ROOM = 3 * UTF16_CHUNK / 2 };

/* Writes buf[0, len) to fd. */
static int write_all(int fd, const char *buf, size_t len, struct cprof_error *err)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return cprof_error_set(err, "cannot write a converted copy: %s",
					       strerror(errno));
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Converts the rest of a UTF-16 input (`big` endian or little) to UTF-8
 * into fd, a chunk at a time. */
static int utf16_copy(struct cprof_input *in, GIConv cd, int fd, struct cprof_error *err)
{
	char *out = cprof_xmalloc(UTF8_ROOM);
	int status = 0;

	while (status == 0) {
		long long got = cprof_input_fill(in, UTF16_CHUNK, err);
		gchar *from = (gchar *)cprof_input_data(in), *to = out;
		gsize from_left = got > 0 ? (gsize)got : 0, to_left = UTF8_ROOM;

		if (got <= 0) {
			status = got < 0 ? -1 : 0;
			break;
		}
		if (g_iconv(cd, &from, &from_left, &to, &to_left) == (gsize)-1 && errno == EILSEQ)
			status = cprof_error_set(err, "byte %llu: not UTF-16 (an unpaired "
						      "surrogate)",
						 (unsigned long long)(in->offset + (size_t)got -
								      from_left));
		else if (from_left == (gsize)got)
			status = cprof_error_set(err, "byte %llu: the UTF-16 text ends inside a "
						      "character",
						 (unsigned long long)in->offset);
		else
			status = write_all(fd, out, (size_t)(to - out), err);
		cprof_input_skip(in, (size_t)got - from_left);
	}
	free(out);
	return status;
}

/* Reads a UTF-16 input with a byte-order mark (big endian or little, as
 * `big` says) as its UTF-8: converted past the mark, a chunk at a time,
 * into an unlinked temporary file that the input then reads. */
static int read_as_utf8(struct cprof_input *in, bool big, struct cprof_error *err)
{
	GIConv cd = g_iconv_open("UTF-8", big ? "UTF-16BE" : "UTF-16LE");
	GError *error = NULL;
	char *path = NULL;
	int fd, status;

	if (cd == (GIConv)-1)
		return cprof_error_set(err, "UTF-16 text, and no converter from UTF-16");
	fd = g_file_open_tmp("cprof-utf16-XXXXXX", &path, &error);
	if (fd < 0) {
		status = cprof_error_set(err, "UTF-16 text, and no temporary file to convert it "
					      "into: %s", error->message);
		g_error_free(error);
		g_iconv_close(cd);
		return status;
	}
	unlink(path);
	g_free(path);
	cprof_input_skip(in, 2);
	status = utf16_copy(in, cd, fd, err);
	g_iconv_close(cd);
	if (status < 0) {
		close(fd);
		return -1;
	}
	return cprof_input_replace(in, fd, err);
}

/* Reads a text in Unicode with a byte-order mark as its UTF-8: the
 * mark of UTF-8 skipped, UTF-16 converted. */
static int take_byte_order_mark(struct cprof_input *in, struct cprof_error *err)
{
	const unsigned char *data;
	long long got = cprof_input_fill(in, 3, err);

	if (got < 0)
		return -1;
	data = cprof_input_data(in);
	if (got >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
		cprof_input_skip(in, 3);
	else if (got >= 2 && (memcmp(data, "\xff\xfe", 2) == 0 || memcmp(data, "\xfe\xff", 2) == 0))
		return read_as_utf8(in, data[0] == 0xfe, err);
	return 0;
}

/* A gperftools CPU profile counts samples. */
static int read_gperf(struct cprof_input *in, struct cprof_profile *profile,
		      const struct cprof_read_options *options, struct cprof_error *err)
{
	int status = cprof_gperf_read(in, profile, err);

	if (status == 0)
		status = check_type_index("samples/count", options ? options->sample_index : NULL,
					  err);
	return status;
}

static int read_heap(struct cprof_input *in, struct cprof_profile *profile,
		     const struct cprof_read_options *options, struct cprof_error *err)
{
	return cprof_heap_read(in, profile, options ? options->sample_index : NULL, err);
}

/* A gzip stream: a profile.proto as pprof writes it. */
static bool is_gzip(const unsigned char *data, size_t len)
{
	return len >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

/* Text that is no flat JSON and no folded stacks, as the tests below
 * take it: perf script's text, ... */
static bool is_perf_text(const unsigned char *data, size_t len)
{
	return text_kind(data, len, NULL) == -2 && cprof_perfscript_sniff(data, len);
}

/* ... or a format that names itself in its first bytes (a JSON object
 * too), that cprof does not read, ... */
static bool is_foreign(const unsigned char *data, size_t len)
{
	int kind = text_kind(data, len, NULL);

	return (kind == -2 || kind == CPROF_FORMAT_FLAT) && cprof_format_foreign(data, len);
}

/* ... or a profile.proto not compressed. */
static bool is_raw_proto(const unsigned char *data, size_t len)
{
	return text_kind(data, len, NULL) == -2 && cprof_proto_sniff(data, len);
}

/* A JSON object: cprof's flat, a speedscope file or a .cpuprofile. */
static bool is_json(const unsigned char *data, size_t len)
{
	return text_kind(data, len, NULL) == CPROF_FORMAT_FLAT;
}

static bool is_folded(const unsigned char *data, size_t len)
{
	return text_kind(data, len, NULL) == CPROF_FORMAT_FOLDED;
}

static bool is_any(const unsigned char *data, size_t len)
{
	(void)data;
	(void)len;
	return true;
}

/* The formats, in the order they are tried: how many first bytes tell
 * each, how they tell it, and its reader (the last two rows refuse). */
static const struct format_reader {
	size_t head;
	bool (*is)(const unsigned char *data, size_t len);
	int (*read)(struct cprof_input *in, struct cprof_profile *profile,
		    const struct cprof_read_options *options, struct cprof_error *err);
} readers[] = {
	{ 4, cprof_gperf_sniff, read_gperf },             /* gperftools CPU profile */
	{ 8, cprof_perfdata_sniff, cprof_perfdata_read }, /* perf.data, through perf script */
	{ 8, is_gzip, cprof_proto_read },                 /* profile.proto, gzipped */
	{ SNIFF_BYTES, cprof_heap_sniff, read_heap },     /* gperftools or Go heap profile */
	{ SNIFF_BYTES, is_perf_text, cprof_perfscript_read }, /* perf script's text */
	{ SNIFF_BYTES, is_foreign, refuse_foreign },      /* formats.c: not read */
	{ SNIFF_BYTES, is_raw_proto, cprof_proto_read },  /* profile.proto */
	{ SNIFF_BYTES, is_json, read_json_object },       /* flat, speedscope, .cpuprofile */
	{ SNIFF_BYTES, is_folded, read_folded_typed },    /* folded stacks */
	{ SNIFF_BYTES, is_any, refuse_unknown },          /* none of them */
};

/* Reads the input with the reader its first bytes call for. */
static int read_by_content(struct cprof_input *in, struct cprof_profile *profile,
			   const struct cprof_read_options *options, struct cprof_error *err)
{
	size_t i;

	if (take_byte_order_mark(in, err) < 0)
		return -1;
	for (i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
		long long got = cprof_input_fill(in, readers[i].head, err);

		if (got < 0)
			return -1;
		if (readers[i].is(cprof_input_data(in), (size_t)got))
			return readers[i].read(in, profile, options, err);
	}
	return -1;
}

struct cprof_profile *cprof_profile_read_with(const char *name,
					      const struct cprof_read_options *options,
					      struct cprof_error *err)
{
	struct cprof_profile *profile = cprof_xcalloc(1, sizeof(*profile));
	struct cprof_input in;
	int status;

	profile->source = name;
	if (cprof_input_open(&in, name, err) < 0) {
		free(profile);
		return NULL;
	}
	status = read_by_content(&in, profile, options, err);
	profile->bytes = in.offset + (in.end - in.start);
	cprof_input_close(&in);
	if (status == 0)
		status = check_labels(profile, options, err);
	if (status == 0)
		status = check_units(profile, options, err);
	if (status == 0)
		map_binary(profile, options);
	if (status < 0) {
		cprof_profile_free(profile);
		return NULL;
	}
	return profile;
}

void cprof_profile_free(struct cprof_profile *profile)
{
	if (!profile)
		return;
	cprof_ptrs_clear(&profile->stacks, profile->stacks_in_arena ? NULL : free);
	cprof_arena_free(&profile->stack_arena);
	cprof_ptrs_clear(&profile->folded, free);
	cprof_ptrs_clear(&profile->notes, free);
	cprof_maps_clear(&profile->maps);
	cprof_dist_free(profile->flat);
	cprof_locations_free(profile->locations);
	g_free(profile->labels);
	g_free(profile->row_labels);
	g_free(profile->sample_type);
	cprof_ptrs_clear(&profile->sample_types, free);
	cprof_perf_free(profile->perf);
	cprof_calltree_free(profile->calltree);
	free(profile);
}
