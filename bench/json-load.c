/* json-load: parses a JSON file with jansson's json_load_file, as cprof
 * parses its JSON inputs, and nothing more: the floor of a JSON reader.
 *
 *   json-load FILE */
#include <stdio.h>

#include <jansson.h>

int main(int argc, char **argv)
{
	json_error_t err;
	json_t *root;

	if (argc != 2) {
		fprintf(stderr, "usage: json-load FILE\n");
		return 2;
	}
	root = json_load_file(argv[1], JSON_REJECT_DUPLICATES, &err);
	if (!root) {
		fprintf(stderr, "json-load: %s:%d: %s\n", argv[1], err.line, err.text);
		return 2;
	}
	json_decref(root);
	return 0;
}
