/* test-batch.c: src/store/store-batch.c writes a batch's rows as one Native
 * block, every row once, in the rows table's order: kind, dimensions,
 * date, key, each String in ClickHouse's order (bytes unsigned, a prefix
 * first).  The block is read back here, by the format's own rules. */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/native.h"
#include "store/store-batch.h"
#include "check.h"

#define DIMS 2
#define MAX_ROWS 20000

/* A row as written, or as read back. */
struct row {
	char dims[DIMS][16], kind[16], key[24];
	unsigned day, seq;
	unsigned long long load, count;
};

static const char *const names[] = { "app", "platform", "date", "load", "seq", "kind", "key",
				     "count" };
static const char *const types[] = { "String", "String", "Date", "UInt64", "UInt32", "String",
				     "String", "UInt64" };

/* The block read back from `in`. */
static const unsigned char *in, *in_end;

static uint64_t get_varint(void)
{
	uint64_t n = 0;
	int shift = 0;

	while (in < in_end) {
		n |= (uint64_t)(*in & 0x7f) << shift;
		shift += 7;
		if (!(*in++ & 0x80))
			break;
	}
	return n;
}

static void get_string(char *to, size_t room)
{
	size_t len = get_varint();

	check(len < room && in + len <= in_end, "a string of %zu bytes", len);
	if (len >= room || in + len > in_end)
		len = 0;
	memcpy(to, in, len);
	to[len] = 0;
	in += len;
}

static unsigned long long get_le(int bytes)
{
	unsigned long long v = 0;
	int i;

	for (i = 0; i < bytes && in < in_end; i++)
		v |= (unsigned long long)*in++ << (8 * i);
	return v;
}

/* Reads the block into `rows`; returns their number. */
static size_t read_block(struct row *rows)
{
	size_t columns = get_varint(), n = get_varint(), c, i;
	char name[32], type[32];

	check(columns == 8, "%zu columns", columns);
	check(n <= MAX_ROWS, "%zu rows", n);
	for (c = 0; c < columns && c < 8 && n <= MAX_ROWS; c++) {
		get_string(name, sizeof(name));
		get_string(type, sizeof(type));
		check(strcmp(name, names[c]) == 0 && strcmp(type, types[c]) == 0,
		      "column %zu: %s %s", c, name, type);
		for (i = 0; i < n; i++) {
			struct row *r = &rows[i];

			if (c < DIMS)
				get_string(r->dims[c], sizeof(r->dims[c]));
			else if (c == 2)
				r->day = (unsigned)get_le(2);
			else if (c == 3)
				r->load = get_le(8);
			else if (c == 4)
				r->seq = (unsigned)get_le(4);
			else if (c == 5)
				get_string(r->kind, sizeof(r->kind));
			else if (c == 6)
				get_string(r->key, sizeof(r->key));
			else
				r->count = get_le(8);
		}
	}
	check(in == in_end, "%td bytes after the block", in_end - in);
	return n;
}

/* The table's order. */
static int order_cmp(const struct row *a, const struct row *b)
{
	int c = strcmp(a->kind, b->kind), d;

	for (d = 0; c == 0 && d < DIMS; d++)
		c = strcmp(a->dims[d], b->dims[d]);
	if (c == 0)
		c = (a->day > b->day) - (a->day < b->day);
	return c ? c : strcmp(a->key, b->key);
}

/* A total order, to compare the rows written with the rows read. */
static int all_cmp(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	int c = order_cmp(a, b);

	if (c == 0)
		c = (a->seq > b->seq) - (a->seq < b->seq);
	if (c == 0)
		c = (a->count > b->count) - (a->count < b->count);
	return c;
}

/* Writes `want`'s rows, a profile (a head) for each run of rows with
 * one seq, and checks what comes back. */
static void check_batch(const char *what, struct row *want, size_t n)
{
	static struct row got[MAX_ROWS];
	struct cprof_batch *b = cprof_batch_new(DIMS);
	struct cprof_native_out *o = calloc(1, sizeof(*o));
	char *text = NULL;
	size_t size = 0, i, m;
	FILE *f = tmpfile();
	uint32_t head = 0;

	if (!o || !f)
		abort();
	o->fd = fileno(f);
	for (i = 0; i < n; i++) {
		if (i == 0 || want[i].seq != want[i - 1].seq) {
			const char *dims[DIMS] = { want[i].dims[0], want[i].dims[1] };

			head = cprof_batch_head(b, dims, want[i].kind, (uint16_t)want[i].day,
						want[i].seq);
		}
		cprof_batch_add(b, head, want[i].key, want[i].count);
		want[i].load = 77;
	}
	check(cprof_batch_rows(b) == n, "%s: %zu rows held", what, cprof_batch_rows(b));
	cprof_batch_write(b, o, names, types, 77);
	cprof_native_flush(o);
	check(o->error == 0, "%s: write: %d", what, o->error);
	check(cprof_batch_rows(b) == 0, "%s: not emptied", what);
	size = (size_t)ftell(f);
	text = malloc(size ? size : 1);
	rewind(f);
	if (!text || fread(text, 1, size, f) != size)
		abort();
	in = (const unsigned char *)text;
	in_end = in + size;
	m = read_block(got);
	check(m == n, "%s: %zu rows read, %zu written", what, m, n);
	for (i = 1; i < m && order_cmp(&got[i - 1], &got[i]) <= 0; i++)
		continue;
	if (i < m)
		check(false, "%s: row %zu (%s %s %s %u %s) after (%s %s %s %u %s)", what, i,
		      got[i].kind, got[i].dims[0], got[i].dims[1], got[i].day, got[i].key,
		      got[i - 1].kind, got[i - 1].dims[0], got[i - 1].dims[1], got[i - 1].day,
		      got[i - 1].key);
	for (i = 0; i < m; i++)
		check(got[i].load == 77, "%s: row %zu: load %llu", what, i, got[i].load);
	qsort(want, n, sizeof(*want), all_cmp);
	qsort(got, m, sizeof(*got), all_cmp);
	for (i = 0; i < n && i < m && all_cmp(&want[i], &got[i]) == 0; i++)
		continue;
	check(i == n, "%s: row %zu written is not read back", what, i);
	free(text);
	fclose(f);
	free(o);
	cprof_batch_free(b);
}

static struct row make(const char *app, const char *platform, const char *kind, unsigned day,
		       unsigned seq, const char *key, unsigned long long count)
{
	struct row r = { .day = day, .seq = seq, .count = count };

	snprintf(r.dims[0], sizeof(r.dims[0]), "%s", app);
	snprintf(r.dims[1], sizeof(r.dims[1]), "%s", platform);
	snprintf(r.kind, sizeof(r.kind), "%s", kind);
	snprintf(r.key, sizeof(r.key), "%s", key);
	return r;
}

/* Heads that tie (seq 0 and 2), a prefix ("we" before "web", "" first),
 * a byte above 0x7f after ASCII, dates out of order, two kinds. */
static void test_corners(void)
{
	struct row rows[] = {
		make("web", "x86", "function", 5, 0, "b", 1),
		make("web", "x86", "function", 5, 0, "a", 2),
		make("web", "x86", "function", 5, 0, "c", 3),
		make("db", "x86", "function", 5, 1, "z", 4),
		make("db", "x86", "function", 5, 1, "a", 5),
		make("web", "x86", "function", 5, 2, "bb", 6),
		make("web", "x86", "function", 5, 2, "a", 7),
		make("web", "x86", "function", 5, 2, "b", 8),
		make("web", "arm", "address", 3, 3, "0x10", 9),
		make("web", "x86", "function", 4, 4, "\xc3\xa9t\xc3\xa9", 10),
		make("web", "x86", "function", 4, 4, "zz", 11),
		make("we", "x86", "function", 9, 5, "a", 12),
		make("", "x86", "function", 9, 6, "a", 13),
		make("web", "", "function", 1, 7, "", 14),
	};

	check_batch("corners", rows, sizeof(rows) / sizeof(rows[0]));
}

/* 20,000 rows of 400 profiles over few values, drawn from a fixed seed. */
static void test_many(void)
{
	static struct row rows[MAX_ROWS];
	static const char *apps[] = { "db", "search", "web", "web2" };
	static const char *plats[] = { "arm", "x86" };
	static const char *kinds[] = { "function", "line" };
	unsigned long long x = 88172645463325252ULL;
	size_t i;

	for (i = 0; i < MAX_ROWS; i++) {
		unsigned p = (unsigned)(i / 50), k;
		char key[24];

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		k = (unsigned)(x % 300);
		snprintf(key, sizeof(key), "f%u", k);
		rows[i] = make(apps[p % 4], plats[p / 4 % 2], kinds[p / 8 % 2], 20000 + p / 16 % 5,
			       p, key, 1 + x % 9);
	}
	check_batch("many", rows, MAX_ROWS);
}

/* A batch is full when it holds rows and a profile more would pass its
 * limit: 2^17 rows for four writes, then doubled by each up to 2^20. */
static void test_full(void)
{
	struct cprof_batch *b = cprof_batch_new(DIMS);
	struct cprof_native_out *o = calloc(1, sizeof(*o));
	const char *dims[DIMS] = { "a", "b" };
	unsigned shift, write;

	if (!o)
		abort();
	o->fd = open("/dev/null", O_WRONLY);
	check(!cprof_batch_full(b, 1u << 22), "an empty batch is full");
	for (write = 0; write < 8; write++) {
		shift = write < 4 ? 17 : write < 7 ? 14 + write : 20;
		cprof_batch_add(b, cprof_batch_head(b, dims, "function", 1, 0), "k", 1);
		check(!cprof_batch_full(b, (1u << shift) - 1), "full at 2^%u rows", shift);
		check(cprof_batch_full(b, 1u << shift), "not full past 2^%u rows", shift);
		cprof_batch_write(b, o, names, types, 1);
		cprof_native_flush(o);
	}
	close(o->fd);
	free(o);
	cprof_batch_free(b);
}

int main(void)
{
	test_corners();
	test_many();
	test_full();
	return failures ? 1 : 0;
}
