/* gen-profile: writes a gperftools CPU profile from a line-by-line spec on
 * standard input, so that tests get exact, hand-checkable files of every
 * width, byte order and defect.
 *
 *   layout 64le|64be|32le|32be   slot width and byte order (default 64le)
 *   header [SLOT ...]            header slots; alone: 0 3 0 PERIOD 0
 *   period N                     the period the bare header writes (1000)
 *   record COUNT PC ...          a record; num_pcs is the number of PCs
 *   repeat N COUNT PC ...        the same record N times
 *   raw SLOT ...                 slots written as they are
 *   trailer                      0 1 0
 *   text REST                    REST and a newline, verbatim
 *   textn REST                   REST without a newline
 *   bytes HEX ...                raw bytes
 *   bytes-repeat N HEX ...       the same raw bytes N times
 *   truncate N                   cut the whole output to N bytes
 *
 * and protocol buffers (pprof's profile.proto):
 *   pb FIELD VALUE ...           varint fields (VALUE may be negative)
 *   pb-packed FIELD VALUE ...    one field of packed varints
 *   pb-string FIELD TEXT         a length-delimited field holding TEXT
 *   pb-begin FIELD               a length-delimited field holding what
 *   pb-end                       follows, up to its pb-end (nested)
 *   varint VALUE ...             bare varints
 *   gzip                         the output so far, gzip-compressed
 *
 * Numbers are decimal or 0x-prefixed hex; '#' starts a comment line. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

static unsigned width = 8;
static int big_endian;
static unsigned char *out;
static size_t out_len, out_cap;

static void emit_byte(unsigned char b)
{
	if (out_len == out_cap) {
		out_cap = out_cap ? 2 * out_cap : 4096;
		out = realloc(out, out_cap);
		if (!out) {
			perror("gen-profile");
			exit(2);
		}
	}
	out[out_len++] = b;
}

static void emit_slot(uint64_t v)
{
	unsigned i;

	for (i = 0; i < width; i++) {
		unsigned shift = big_endian ? 8 * (width - 1 - i) : 8 * i;

		emit_byte((unsigned char)(v >> shift));
	}
}

static void emit_varint(uint64_t v)
{
	while (v >= 0x80) {
		emit_byte((unsigned char)(v | 0x80));
		v >>= 7;
	}
	emit_byte((unsigned char)v);
}

/* Ends the length-delimited field whose content started at `start`: its
 * length goes in front of the content. */
static void end_field(size_t start)
{
	size_t len = out_len - start, n = 0;
	unsigned char prefix[10];
	uint64_t v = len;

	while (v >= 0x80) {
		prefix[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	prefix[n++] = (unsigned char)v;
	for (size_t i = 0; i < n; i++)
		emit_byte(0);
	memmove(out + start + n, out + start, len);
	memcpy(out + start, prefix, n);
}

static void gzip_output(void)
{
	z_stream z = { 0 };
	uLong bound;
	unsigned char *packed;

	if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		exit(2);
	bound = deflateBound(&z, (uLong)out_len);
	packed = malloc(bound);
	if (!packed)
		exit(2);
	z.next_in = out;
	z.avail_in = (uInt)out_len;
	z.next_out = packed;
	z.avail_out = (uInt)bound;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		exit(2);
	free(out);
	out = packed;
	out_len = out_cap = z.total_out;
	deflateEnd(&z);
}

static uint64_t number(const char *s, unsigned line)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end) {
		fprintf(stderr, "gen-profile: line %u: bad number '%s'\n", line, s);
		exit(2);
	}
	return v;
}

int main(void)
{
	char *buf = NULL, *word, *save, *rest;
	uint64_t period = 1000, truncate_at = UINT64_MAX, *slots = NULL;
	size_t n, i, buf_cap = 0, slots_cap = 0, open_fields[64], depth = 0;
	unsigned line = 0;

	while (getline(&buf, &buf_cap, stdin) > 0) {
		line++;
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0] == '#' || buf[0] == '\0')
			continue;
		rest = strchr(buf, ' ');
		rest = rest ? rest + 1 : buf + strlen(buf);
		if (strncmp(buf, "text ", 5) == 0 || strcmp(buf, "text") == 0 ||
		    strncmp(buf, "textn ", 6) == 0) {
			for (i = 0; rest[i]; i++)
				emit_byte((unsigned char)rest[i]);
			if (buf[4] != 'n')
				emit_byte('\n');
			continue;
		}
		if (strncmp(buf, "pb-string ", 10) == 0) {
			char *text = strchr(rest, ' ');
			size_t start;

			if (text)
				*text = '\0';
			emit_varint(number(rest, line) << 3 | 2);
			start = out_len;
			for (i = 0; text && text[i + 1]; i++)
				emit_byte((unsigned char)text[i + 1]);
			end_field(start);
			continue;
		}
		if (strncmp(buf, "layout ", 7) == 0) {
			width = rest[0] == '3' ? 4 : 8;
			big_endian = strstr(rest, "be") != NULL;
			continue;
		}
		word = strtok_r(buf, " \t", &save);
		n = 0;
		for (char *w = strtok_r(NULL, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
			if (n == slots_cap) {
				slots_cap = slots_cap ? 2 * slots_cap : 1024;
				slots = realloc(slots, slots_cap * sizeof(*slots));
				if (!slots) {
					perror("gen-profile");
					return 2;
				}
			}
			slots[n++] = number(w, line);
		}
		if (strcmp(word, "period") == 0 && n == 1) {
			period = slots[0];
		} else if (strcmp(word, "header") == 0) {
			if (n == 0) {
				emit_slot(0), emit_slot(3), emit_slot(0), emit_slot(period), emit_slot(0);
			}
			for (i = 0; i < n; i++)
				emit_slot(slots[i]);
		} else if (strcmp(word, "record") == 0 && n >= 1) {
			emit_slot(slots[0]);
			emit_slot(n - 1);
			for (i = 1; i < n; i++)
				emit_slot(slots[i]);
		} else if (strcmp(word, "repeat") == 0 && n >= 2) {
			for (uint64_t r = 0; r < slots[0]; r++) {
				emit_slot(slots[1]);
				emit_slot(n - 2);
				for (i = 2; i < n; i++)
					emit_slot(slots[i]);
			}
		} else if (strcmp(word, "raw") == 0) {
			for (i = 0; i < n; i++)
				emit_slot(slots[i]);
		} else if (strcmp(word, "trailer") == 0) {
			emit_slot(0), emit_slot(1), emit_slot(0);
		} else if (strcmp(word, "bytes") == 0) {
			for (i = 0; i < n; i++)
				emit_byte((unsigned char)slots[i]);
		} else if (strcmp(word, "bytes-repeat") == 0 && n >= 1) {
			for (uint64_t r = 0; r < slots[0]; r++)
				for (i = 1; i < n; i++)
					emit_byte((unsigned char)slots[i]);
		} else if (strcmp(word, "truncate") == 0 && n == 1) {
			truncate_at = slots[0];
		} else if (strcmp(word, "pb") == 0 && n >= 2) {
			for (i = 1; i < n; i++) {
				emit_varint(slots[0] << 3);
				emit_varint(slots[i]);
			}
		} else if (strcmp(word, "pb-packed") == 0 && n >= 1) {
			size_t start;

			emit_varint(slots[0] << 3 | 2);
			start = out_len;
			for (i = 1; i < n; i++)
				emit_varint(slots[i]);
			end_field(start);
		} else if (strcmp(word, "pb-begin") == 0 && n == 1 && depth < 64) {
			emit_varint(slots[0] << 3 | 2);
			open_fields[depth++] = out_len;
		} else if (strcmp(word, "pb-end") == 0 && n == 0 && depth > 0) {
			end_field(open_fields[--depth]);
		} else if (strcmp(word, "varint") == 0) {
			for (i = 0; i < n; i++)
				emit_varint(slots[i]);
		} else if (strcmp(word, "gzip") == 0 && n == 0) {
			gzip_output();
		} else {
			fprintf(stderr, "gen-profile: line %u: unknown directive '%s'\n", line, word);
			return 2;
		}
	}
	if (truncate_at < out_len)
		out_len = (size_t)truncate_at;
	if (out_len && fwrite(out, 1, out_len, stdout) != out_len) {
		perror("gen-profile");
		return 2;
	}
	free(out);
	free(slots);
	free(buf);
	return fflush(stdout) ? 2 : 0;
}
