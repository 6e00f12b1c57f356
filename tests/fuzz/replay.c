/* replay.c: the main of a fuzz target built without libFuzzer (every
 * make check): runs LLVMFuzzerTestOneInput once on each file given, and
 * on each file of each directory given, then says how many it ran.
 * Arguments that begin with '-' (libFuzzer's options, as -runs=0) are
 * ignored, so that one command line runs either build.  A crash, a leak
 * or a sanitizer's report ends it as it would end libFuzzer. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* Reads the whole file at `path` (malloc'd, *size bytes) or exits 2. */
static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t cap = 0, n;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	*size = 0;
	do {
		if (*size == cap) {
			cap = cap ? 2 * cap : 65536;
			data = realloc(data, cap);
			if (!data) {
				fprintf(stderr, "replay: %s: out of memory\n", path);
				exit(2);
			}
		}
		n = fread(data + *size, 1, cap - *size, f);
		*size += n;
	} while (n > 0);
	if (ferror(f)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		exit(2);
	}
	fclose(f);
	return data;
}

/* Runs the target on the file at `path`. */
static void run_file(const char *path)
{
	size_t size;
	uint8_t *data = slurp(path, &size);

	LLVMFuzzerTestOneInput(data, size);
	free(data);
}

/* Runs the target on each file of the directory `dir`, in name order;
 * returns how many. */
static size_t run_dir(const char *dir)
{
	struct dirent **entries;
	int n = scandir(dir, &entries, NULL, alphasort), i;
	size_t ran = 0;

	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		exit(2);
	}
	for (i = 0; i < n; i++) {
		char *path = malloc(strlen(dir) + strlen(entries[i]->d_name) + 2);
		struct stat st;

		if (!path)
			exit(2);
		sprintf(path, "%s/%s", dir, entries[i]->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			run_file(path);
			ran++;
		}
		free(path);
		free(entries[i]);
	}
	free(entries);
	return ran;
}

int main(int argc, char **argv)
{
	size_t ran = 0;
	struct stat st;
	int i;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		if (S_ISDIR(st.st_mode)) {
			ran += run_dir(argv[i]);
		} else {
			run_file(argv[i]);
			ran++;
		}
	}
	printf("replayed %zu inputs\n", ran);
	return 0;
}
