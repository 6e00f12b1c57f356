/* symbolize.c: PCs to function and line names, with elfutils libdwfl.
 *
 * Each mapped file is opened once for the whole run, in a Dwfl session of
 * its own with the file at its link-time addresses, so that the same file
 * mapped at other addresses by other profiles (ASLR) shares its symbol
 * tables and the answers already found.  A PC becomes a file offset
 * through its mapping, then a link-time address through the file's
 * PT_LOAD program headers. */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cprof.h"

/* From libstdc++ (cxxabi.h is C++ only). */
extern char *__cxa_demangle(const char *mangled, char *buffer, size_t *length, int *status);

struct segment {
	uint64_t vaddr;
	uint64_t offset;
	uint64_t filesz;
};

/* What one link-time address resolves to. */
struct answer {
	uint64_t vaddr;        /* the hash table's key */
	size_t count;
	struct cprof_symbol frames[];
};

/* A mapped file, opened once. */
struct dso {
	Dwfl *dwfl;            /* NULL when the file cannot be used */
	Dwfl_Module *module;
	struct segment *segments;
	size_t num_segments;
	GHashTable *answers;   /* &answer->vaddr -> struct answer * */
};

struct cprof_symbolizer {
	struct cprof_symbol_options options;
	GPtrArray *symbol_dirs; /* absolute; options.symbol_dirs points here */
	char *debuginfo_path;  /* for dwfl_standard_find_debuginfo */
	Dwfl_Callbacks callbacks;
	GHashTable *dsos;      /* path (or "\x01" + path for --binary) -> struct dso * */
	GStringChunk *names;
	GString *scratch;
};

static void dso_free(gpointer p)
{
	struct dso *dso = p;

	if (dso->dwfl)
		dwfl_end(dso->dwfl);
	if (dso->answers)
		g_hash_table_destroy(dso->answers);
	free(dso->segments);
	free(dso);
}

struct cprof_symbolizer *cprof_symbolizer_new(const struct cprof_symbol_options *options)
{
	struct cprof_symbolizer *s = cprof_xcalloc(1, sizeof(*s));
	GString *path = g_string_new("-:.debug:/usr/lib/debug");
	size_t i;

	elf_version(EV_CURRENT);
	s->options = *options;
	/* libdwfl searches absolute directories only. */
	s->symbol_dirs = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; i < options->num_symbol_dirs; i++) {
		char *dir = g_canonicalize_filename(options->symbol_dirs[i], NULL);

		g_ptr_array_add(s->symbol_dirs, dir);
		g_string_append_c(path, ':');
		g_string_append(path, dir);
	}
	s->options.symbol_dirs = (const char *const *)s->symbol_dirs->pdata;
	s->debuginfo_path = g_string_free(path, FALSE);
	s->callbacks.find_elf = dwfl_build_id_find_elf;
	s->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
	s->callbacks.section_address = dwfl_offline_section_address;
	s->callbacks.debuginfo_path = &s->debuginfo_path;
	s->dsos = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, dso_free);
	s->names = g_string_chunk_new(1 << 16);
	s->scratch = g_string_sized_new(256);
	return s;
}

void cprof_symbolizer_free(struct cprof_symbolizer *s)
{
	if (!s)
		return;
	g_hash_table_destroy(s->dsos);
	g_string_chunk_free(s->names);
	g_string_free(s->scratch, TRUE);
	g_free(s->debuginfo_path);
	g_ptr_array_free(s->symbol_dirs, TRUE);
	free(s);
}

/* The GNU build-id of the ELF file at `path` as lowercase hex, or NULL. */
static char *file_build_id(const char *path)
{
	const unsigned char *id;
	char *hex = NULL;
	ssize_t len, i;
	Elf *elf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF &&
	    (len = dwelf_elf_gnu_build_id(elf, (const void **)&id)) > 0) {
		hex = cprof_xmalloc(2 * (size_t)len + 1);
		for (i = 0; i < len; i++)
			sprintf(hex + 2 * i, "%02x", id[i]);
	}
	elf_end(elf);
	close(fd);
	return hex;
}

static bool readable(const char *path)
{
	return access(path, R_OK) == 0 && !g_file_test(path, G_FILE_TEST_IS_DIR);
}

/* Finds the file to read the symbols of `path` from: the directories of
 * --symbols and CPROF_SYMBOL_PATH by full path, basename and build-id,
 * then the path itself.  A candidate whose build-id differs from that of
 * the file at `path` (when there is one here) is passed over.  Returns a
 * new string, or NULL with *why set. */
static char *locate(struct cprof_symbolizer *s, const char *path, const char **why)
{
	const char *base = strrchr(path, '/');
	char *expected = file_build_id(path), *found = NULL;
	size_t i, c;

	base = base ? base + 1 : path;
	*why = "no such file here or in the symbol path";
	for (i = 0; i < s->options.num_symbol_dirs && !found; i++) {
		const char *dir = s->options.symbol_dirs[i];
		char *candidates[3] = { NULL };

		/* DIR/.build-id/xx/rest.debug, a debug file, is libdwfl's to find
		 * through the debuginfo path; DIR/.build-id/xx/rest is the file. */
		candidates[0] = g_build_filename(dir, path, NULL);
		candidates[1] = g_build_filename(dir, base, NULL);
		if (expected)
			candidates[2] = g_strdup_printf("%s/.build-id/%.2s/%s", dir, expected, expected + 2);
		for (c = 0; c < G_N_ELEMENTS(candidates); c++) {
			char *id;

			if (found || !candidates[c] || !readable(candidates[c]))
				continue;
			id = file_build_id(candidates[c]);
			if (expected && (!id || strcmp(id, expected) != 0))
				cprof_warn("%s: build-id does not match %s; not used", candidates[c], path);
			else
				found = g_strdup(candidates[c]);
			free(id);
		}
		for (c = 0; c < G_N_ELEMENTS(candidates); c++)
			g_free(candidates[c]);
	}
	if (!found && readable(path))
		found = g_strdup(path);
	else if (!found && access(path, F_OK) == 0)
		*why = strerror(EACCES);
	free(expected);
	return found;
}

static void load_segments(struct dso *dso, Elf *elf)
{
	size_t phnum, i;

	if (elf_getphdrnum(elf, &phnum) != 0)
		return;
	dso->segments = cprof_xcalloc(phnum, sizeof(*dso->segments));
	for (i = 0; i < phnum; i++) {
		GElf_Phdr mem, *ph = gelf_getphdr(elf, (int)i, &mem);

		if (ph && ph->p_type == PT_LOAD && ph->p_filesz > 0) {
			dso->segments[dso->num_segments].vaddr = ph->p_vaddr;
			dso->segments[dso->num_segments].offset = ph->p_offset;
			dso->segments[dso->num_segments].filesz = ph->p_filesz;
			dso->num_segments++;
		}
	}
}

/* Opens the file for `path` once; a file that cannot be used gets a dso
 * without a Dwfl and one warning. */
static struct dso *get_dso(struct cprof_symbolizer *s, const char *path, bool main)
{
	bool use_binary = main && s->options.binary;
	char *key = use_binary ? g_strdup_printf("\x01%s", s->options.binary) : g_strdup(path);
	const char *why = NULL;
	struct dso *dso = g_hash_table_lookup(s->dsos, key);
	char *file;
	GElf_Addr bias;
	Elf *elf;
	int fd;

	if (dso) {
		g_free(key);
		return dso;
	}
	dso = cprof_xcalloc(1, sizeof(*dso));
	g_hash_table_insert(s->dsos, key, dso);
	if (path[0] == '[')
		return dso; /* [vdso], [vsyscall]: no file */
	file = use_binary ? g_strdup(s->options.binary) : locate(s, path, &why);
	if (!file) {
		cprof_warn("%s: %s; its PCs stay unresolved", path, why);
		return dso;
	}
	fd = open(file, O_RDONLY | O_CLOEXEC);
	dso->dwfl = fd >= 0 ? dwfl_begin(&s->callbacks) : NULL;
	if (dso->dwfl) {
		dwfl_report_begin(dso->dwfl);
		dso->module = dwfl_report_elf(dso->dwfl, path, file, fd, 0, false);
		dwfl_report_end(dso->dwfl, NULL, NULL);
	} else if (fd >= 0) {
		close(fd);
	}
	elf = dso->module ? dwfl_module_getelf(dso->module, &bias) : NULL;
	if (!elf) {
		cprof_warn("%s: %s; its PCs stay unresolved", file,
			   fd < 0 ? strerror(errno) : "not an ELF file");
		if (dso->dwfl)
			dwfl_end(dso->dwfl);
		dso->dwfl = NULL;
		dso->module = NULL;
		g_free(file);
		return dso;
	}
	load_segments(dso, elf);
	dso->answers = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, free);
	g_free(file);
	return dso;
}

/* The link-time address of file offset `offset`, through the PT_LOAD
 * segment holding it; false when none does. */
static bool offset_to_vaddr(const struct dso *dso, uint64_t offset, uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < dso->num_segments; i++) {
		const struct segment *seg = &dso->segments[i];

		if (offset >= seg->offset && offset - seg->offset < seg->filesz) {
			*vaddr = seg->vaddr + (offset - seg->offset);
			return true;
		}
	}
	return false;
}

/* Interns a name: demangled when it is a C++ one, valid UTF-8 always. */
static const char *intern_name(struct cprof_symbolizer *s, const char *name)
{
	char *demangled = NULL, *clean;
	const char *result;
	int status;

	if (name[0] == '_' && name[1] == 'Z') {
		demangled = __cxa_demangle(name, NULL, NULL, &status);
		if (status != 0) {
			free(demangled);
			demangled = NULL;
		}
	}
	if (demangled)
		name = demangled;
	clean = cprof_utf8_sanitize(name, strlen(name), NULL);
	result = g_string_chunk_insert_const(s->names, clean);
	free(clean);
	free(demangled);
	return result;
}

/* The name of a subprogram or inlined subroutine DIE: its linkage name
 * when it has one (demangled later), else its plain name. */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute mem, *attr;
	const char *name;

	attr = dwarf_attr_integrate(die, DW_AT_linkage_name, &mem);
	if (!attr)
		attr = dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &mem);
	if (attr && (name = dwarf_formstring(attr)))
		return name;
	attr = dwarf_attr_integrate(die, DW_AT_name, &mem);
	return attr ? dwarf_formstring(attr) : NULL;
}

/* Resolves one link-time address of `dso`. */
static struct answer *resolve(struct cprof_symbolizer *s, struct dso *dso, uint64_t vaddr)
{
	struct cprof_symbol frames[64];
	const char *symbol, *file = NULL;
	size_t count = 0, i;
	struct answer *answer;
	GElf_Off offset = 0;
	GElf_Sym sym;
	int line = 0;

	symbol = dwfl_module_addrinfo(dso->module, vaddr, &offset, &sym, NULL, NULL, NULL);
	if (symbol && sym.st_size > 0 && offset >= sym.st_size)
		symbol = NULL; /* past the end of the nearest symbol */

	if (s->options.inline_frames || s->options.lines) {
		Dwarf_Addr bias = 0;
		Dwarf_Die *cu = dwfl_module_addrdie(dso->module, vaddr, &bias);
		Dwarf_Die *scopes = NULL;
		int n = cu ? dwarf_getscopes(cu, vaddr - bias, &scopes) : 0;
		Dwfl_Line *src;
		int k;

		for (k = 0; k < n && s->options.inline_frames; k++) {
			int tag = dwarf_tag(&scopes[k]);
			const char *name;

			if (tag == DW_TAG_subprogram)
				break;
			if (tag != DW_TAG_inlined_subroutine || count + 1 >= G_N_ELEMENTS(frames))
				continue;
			name = die_name(&scopes[k]);
			if (!name)
				continue;
			frames[count].function = intern_name(s, name);
			frames[count].file = NULL;
			frames[count].line = 0;
			count++;
		}
		/* The enclosing function is the ELF symbol, as pprof names it
		 * (from nm); DWARF's name only where no symbol covers the PC. */
		if (!symbol && k < n && dwarf_tag(&scopes[k]) == DW_TAG_subprogram)
			symbol = die_name(&scopes[k]);
		free(scopes);
		src = dwfl_module_getsrc(dso->module, vaddr);
		if (src && s->options.lines) {
			const char *name = dwfl_lineinfo(src, NULL, &line, NULL, NULL, NULL);

			if (name && line > 0)
				file = g_string_chunk_insert_const(s->names, name);
		}
	}
	if (symbol) {
		const char *at = strchr(symbol, '@');
		char *plain = at && at > symbol ? g_strndup(symbol, (gsize)(at - symbol)) : NULL;

		/* "memcpy@@GLIBC_2.14" is memcpy: the version is not part of it. */
		frames[count].function = intern_name(s, plain ? plain : symbol);
		g_free(plain);
		frames[count].file = NULL;
		frames[count].line = 0;
		count++;
	}
	if (count == 0 && file) {
		frames[0].function = NULL;
		count = 1;
	}
	if (count > 0) {
		frames[0].file = file;
		frames[0].line = file ? line : 0;
	}
	answer = cprof_xmalloc(sizeof(*answer) + count * sizeof(answer->frames[0]));
	answer->vaddr = vaddr;
	answer->count = count;
	for (i = 0; i < count; i++)
		answer->frames[i] = frames[i];
	g_hash_table_insert(dso->answers, &answer->vaddr, answer);
	return answer;
}

size_t cprof_symbolize(struct cprof_symbolizer *s, const struct cprof_mapping *mapping, bool main,
		       uint64_t addr, const struct cprof_symbol **frames)
{
	struct dso *dso = get_dso(s, mapping->path, main);
	struct answer *answer;
	uint64_t vaddr;

	*frames = NULL;
	if (!dso->dwfl || !offset_to_vaddr(dso, addr - mapping->start + mapping->offset, &vaddr))
		return 0;
	answer = g_hash_table_lookup(dso->answers, &vaddr);
	if (!answer)
		answer = resolve(s, dso, vaddr);
	*frames = answer->frames;
	return answer->count;
}
