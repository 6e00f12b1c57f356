/* fuzz-symbolize: libFuzzer target for the symbolizer.  The input is an
 * ELF file, optionally followed by SEPARATOR and a second one.  The first
 * is written where a small generated gperftools profile maps its main
 * executable; the second, when there, is its debug file, put under the
 * first one's build-id in the --symbols directory where libdwfl looks.
 * The profile samples PCs spread over the whole file, three frames deep,
 * and is keyed by function (inlines expanded, and not), line and stack,
 * so that libdwfl reads every part of the file: truncated sections, bogus
 * DWARF, lying build-ids.  Any crash, leak (of memory or of a file
 * descriptor) or sanitizer report is a bug, and so is a key that is not
 * valid UTF-8.  FUZZ_SYMBOLIZE_PRINT=1 in the
 * environment prints the JSON of each keying. */
#include "config.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib.h>

#include "lib/cprof.h"

/* Also in tests/fuzz/run, which writes the seeds. */
#define SEPARATOR "\n--cprof-fuzz-debug-file--\n"
#define START 0x400000
#define NUM_PCS 256

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir;          /* a directory of our own, the --symbols one */
static char *prog_path;    /* dir/prog: the executable the profile maps */
static char debug_path[4096 + 2 * 64 + 8]; /* debug_dir, the rest of the id, .debug */
static char debug_dir[4096];

/* The number of file descriptors open, to catch a leak of them. */
static int open_fds(void)
{
	GDir *fds = g_dir_open("/proc/self/fd", 0, NULL);
	int count = 0;

	if (!fds)
		abort();
	while (g_dir_read_name(fds))
		count++;
	g_dir_close(fds);
	return count;
}

static void remove_dir(void)
{
	char *build_id = g_build_filename(dir, ".build-id", NULL);

	rmdir(build_id);
	rmdir(dir);
	g_free(build_id);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	dir = g_build_filename(g_get_tmp_dir(), "fuzz-symbolize.XXXXXX", NULL);
	if (!mkdtemp(dir))
		abort();
	prog_path = g_build_filename(dir, "prog", NULL);
	atexit(remove_dir);
	elf_version(EV_CURRENT);
	return 0;
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd) != 0)
		abort();
}

/* Writes the debug file where libdwfl looks for the build-id of the file
 * at prog_path: dir/.build-id/xx/rest.debug; nothing when it has none. */
static void write_debug_file(const uint8_t *data, size_t size)
{
	const unsigned char *id;
	char hex[2 * 64 + 1];
	ssize_t len, i;
	Elf *elf;
	int fd;

	fd = open(prog_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		abort();
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	len = elf ? dwelf_elf_gnu_build_id(elf, (const void **)&id) : -1;
	for (i = 0; i < len && i < 64; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	elf_end(elf);
	close(fd);
	if (len < 2)
		return;
	snprintf(debug_dir, sizeof(debug_dir), "%s/.build-id/%.2s", dir, hex);
	snprintf(debug_path, sizeof(debug_path), "%s/%s.debug", debug_dir, hex + 2);
	if (g_mkdir_with_parents(debug_dir, 0700) != 0)
		abort();
	write_file(debug_path, data, size);
}

static void remove_files(void)
{
	unlink(prog_path);
	if (debug_path[0]) {
		unlink(debug_path);
		rmdir(debug_dir);
		debug_path[0] = debug_dir[0] = '\0';
	}
}

static void put_slot(GByteArray *out, uint64_t value)
{
	guint8 bytes[8];
	int i;

	for (i = 0; i < 8; i++)
		bytes[i] = (guint8)(value >> (8 * i));
	g_byte_array_append(out, bytes, 8);
}

/* The PC at the k-th of NUM_PCS points spread over a file of `size`. */
static uint64_t pc_at(size_t k, size_t size)
{
	return START + (uint64_t)(k % NUM_PCS) * size / NUM_PCS;
}

/* A 64-bit little-endian gperftools profile: one record of three frames
 * per point of the file, and the mapping of the whole file at START. */
static GByteArray *make_profile(size_t size)
{
	GByteArray *out = g_byte_array_new();
	char *maps;
	size_t k;

	put_slot(out, 0), put_slot(out, 3), put_slot(out, 0), put_slot(out, 1000), put_slot(out, 0);
	for (k = 0; k < NUM_PCS; k++) {
		put_slot(out, 1 + k % 3);
		put_slot(out, 3);
		put_slot(out, pc_at(k, size));
		put_slot(out, pc_at(k + 7, size) + 1);
		put_slot(out, pc_at(k + 31, size) + 1);
	}
	put_slot(out, 0), put_slot(out, 1), put_slot(out, 0);
	maps = g_strdup_printf("%x-%" G_GINT64_MODIFIER "x r-xp 00000000 00:00 0 %s\n", START,
			       (guint64)START + ((size + 4095) & ~(size_t)4095) + 4096, prog_path);
	g_byte_array_append(out, (const guint8 *)maps, (guint)strlen(maps));
	g_free(maps);
	return out;
}

static struct cprof_profile *read_profile(const GByteArray *bytes)
{
	struct cprof_error err = { { 0 }, 0 };
	struct cprof_profile *profile;
	char path[64];
	int fd;

	fd = memfd_create("fuzz-profile", MFD_CLOEXEC);
	if (fd < 0 || write(fd, bytes->data, bytes->len) != (ssize_t)bytes->len)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	profile = cprof_profile_read(path, &err);
	close(fd);
	if (!profile)
		abort(); /* the profile is ours and valid */
	return profile;
}

/* Keys the profile as `options` say and checks that the JSON can be
 * written (every key valid UTF-8). */
static void key(struct cprof_profile *profile, const struct cprof_key_options *options)
{
	struct cprof_dist *dist = cprof_dist_new(options->by, options->cum);
	struct cprof_error err = { { 0 }, 0 };
	json_t *root;
	char *text;

	if (cprof_profile_to_dist(profile, options, dist, &err) != 0)
		abort();
	root = cprof_json_flat(dist, 0);
	text = json_dumps(root, JSON_COMPACT);
	if (!text)
		abort();
	if (getenv("FUZZ_SYMBOLIZE_PRINT"))
		puts(text);
	free(text);
	json_decref(root);
	cprof_dist_free(dist);
}

/* Keys by function, line and stack with inlines expanded and lines
 * read, then by function with --no-inline and --cum: each with a
 * symbolizer of its own, which opens the file afresh. */
static void symbolize(struct cprof_profile *profile)
{
	static const enum cprof_by keyings[] = { CPROF_BY_FUNCTION, CPROF_BY_LINE, CPROF_BY_STACK };
	const char *dirs[] = { dir };
	struct cprof_symbol_options symbol_options = {
		.symbol_dirs = dirs,
		.num_symbol_dirs = 1,
		.inline_frames = true,
		.lines = true,
	};
	struct cprof_key_options options = { .symbolize = true, .inline_frames = true };
	size_t i;

	options.symbolizer = cprof_symbolizer_new(&symbol_options);
	for (i = 0; i < G_N_ELEMENTS(keyings); i++) {
		options.by = keyings[i];
		key(profile, &options);
	}
	cprof_symbolizer_free(options.symbolizer);
	symbol_options.inline_frames = options.inline_frames = false;
	symbol_options.lines = false;
	options.symbolizer = cprof_symbolizer_new(&symbol_options);
	options.by = CPROF_BY_FUNCTION;
	options.cum = true;
	key(profile, &options);
	cprof_symbolizer_free(options.symbolizer);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memmem(data, size, SEPARATOR, sizeof(SEPARATOR) - 1);
	size_t prog_size = sep ? (size_t)(sep - data) : size;
	struct cprof_profile *profile;
	GByteArray *bytes;
	int fds = open_fds();

	write_file(prog_path, data, prog_size);
	if (sep)
		write_debug_file(sep + sizeof(SEPARATOR) - 1,
				 size - prog_size - (sizeof(SEPARATOR) - 1));
	bytes = make_profile(prog_size);
	profile = read_profile(bytes);
	g_byte_array_free(bytes, TRUE);
	symbolize(profile);
	cprof_profile_free(profile);
	remove_files();
	if (open_fds() > fds) {
		fprintf(stderr, "fuzz-symbolize: a file descriptor was left open\n");
		abort();
	}
	return 0;
}
