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
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "cache.h"
#include "base/hash.h"
#include "maps.h"
#include "symbolize-int.h"
#include "symbolize.h"
#include "base/util.h"

/* From libstdc++ (cxxabi.h is C++ only). */
extern char *__cxa_demangle(const char *mangled, char *buffer, size_t *length, int *status);

static void dso_free(gpointer p)
{
	struct dso *dso = p;

	if (dso->dwfl)
		dwfl_end(dso->dwfl);
	if (dso->answers)
		g_hash_table_destroy(dso->answers);
	free(dso->functions);
	free(dso->symbols);
	free(dso->segments);
	g_free(dso->path);
	g_free(dso->file);
	g_free(dso->cache_name);
	if (dso->cache_key)
		g_string_free(dso->cache_key, TRUE);
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
	s->dsos = g_hash_table_new_full(cprof_str_hash, g_str_equal, g_free, dso_free);
	s->names = cprof_strings_new();
	s->scratch = g_string_sized_new(256);
	s->cache_dir = options->cache ? cprof_cache_dir() : NULL;
	return s;
}

void cprof_symbolizer_free(struct cprof_symbolizer *s)
{
	GHashTableIter iter;
	gpointer dso;

	if (!s)
		return;
	g_hash_table_iter_init(&iter, s->dsos);
	while (g_hash_table_iter_next(&iter, NULL, &dso))
		cprof_symcache_save(s, dso);
	g_hash_table_destroy(s->dsos);
	cprof_strings_free(s->names);
	g_string_free(s->scratch, TRUE);
	g_free(s->debuginfo_path);
	g_ptr_array_free(s->symbol_dirs, TRUE);
	free(s);
}

static const char not_regular[] = "not a regular file";

/* Opens `path` for reading when it is a regular file.  A mapping path is
 * the profile's to choose: a FIFO must not block the run, a terminal must
 * not become ours, a device, socket or directory is not read.  Returns
 * the descriptor, or -1 with *why saying what is wrong. */
static int open_regular(const char *path, const char **why)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*why = not_regular;
		close(fd);
		return -1;
	}
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

char *cprof_symbolize_file_ids(const char *path, char **debuglink)
{
	const char *why;
	const unsigned char *id;
	const char *link;
	char *hex = NULL;
	ssize_t len, i;
	GElf_Word crc;
	Elf *elf;
	int fd;

	if (debuglink)
		*debuglink = NULL;
	fd = open_regular(path, &why);
	if (fd < 0)
		return NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF &&
	    (len = dwelf_elf_gnu_build_id(elf, (const void **)&id)) > 0) {
		hex = cprof_xmalloc(2 * (size_t)len + 1);
		for (i = 0; i < len; i++)
			sprintf(hex + 2 * i, "%02x", id[i]);
	}
	if (debuglink && elf && elf_kind(elf) == ELF_K_ELF &&
	    (link = dwelf_elf_gnu_debuglink(elf, &crc)) != NULL && *link)
		*debuglink = g_strdup(link);
	elf_end(elf);
	close(fd);
	return hex;
}

/* The GNU build-id of the ELF file at `path` as lowercase hex, or NULL. */
static char *file_build_id(const char *path)
{
	return cprof_symbolize_file_ids(path, NULL);
}

/* A regular file this process may read (stat(2) never blocks). */
static bool readable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
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
	struct stat st;
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
	else if (!found && stat(path, &st) == 0)
		*why = S_ISREG(st.st_mode) ? strerror(EACCES) : not_regular;
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

static void index_symbols(struct dso *dso);

/* Opens dso->file with libdwfl and indexes its symbols; a file that cannot
 * be used gets one warning and no Dwfl. */
static void open_dso(struct cprof_symbolizer *s, struct dso *dso)
{
	const char *why;
	GElf_Addr bias;
	Elf *elf;
	int fd;

	dso->tried = true;
	fd = open_regular(dso->file, &why);
	dso->dwfl = fd >= 0 ? dwfl_begin(&s->callbacks) : NULL;
	if (dso->dwfl) {
		dwfl_report_begin(dso->dwfl);
		dso->module = dwfl_report_elf(dso->dwfl, dso->path, dso->file, fd, 0, false);
		dwfl_report_end(dso->dwfl, NULL, NULL);
	}
	/* libdwfl owns the descriptor once it has reported the module only. */
	if (fd >= 0)
		why = "not an ELF file";
	if (fd >= 0 && !dso->module)
		close(fd);
	elf = dso->module ? dwfl_module_getelf(dso->module, &bias) : NULL;
	if (!elf) {
		cprof_warn("%s: %s; its PCs stay unresolved", dso->file, why);
		if (dso->dwfl)
			dwfl_end(dso->dwfl);
		dso->dwfl = NULL;
		dso->module = NULL;
		return;
	}
	free(dso->segments);
	dso->segments = NULL;
	dso->num_segments = 0;
	load_segments(dso, elf);
	index_symbols(dso);
	if (!dso->answers)
		dso->answers = g_hash_table_new_full(cprof_int64_hash, g_int64_equal, NULL, free);
	dso->usable = true;
}

/* The dso of `path`, found once: its answers from the cache when it holds
 * them, else the file opened. */
static struct dso *get_dso(struct cprof_symbolizer *s, const char *path, bool main)
{
	bool use_binary = main && s->options.binary;
	char *key = use_binary ? g_strdup_printf("\x01%s", s->options.binary) : g_strdup(path);
	const char *why = NULL;
	struct dso *dso = g_hash_table_lookup(s->dsos, key);
	char *file;

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
		cprof_warn("%s: %s; its PCs stay unresolved (--symbols DIR names a directory "
			   "that holds it, --binary FILE the program's own file)", path, why);
		return dso;
	}
	dso->path = g_strdup(path);
	dso->file = file;
	if (!cprof_symcache_load(s, dso, file))
		open_dso(s, dso);
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

/* The link-time address of `addr` in `mapping`: the address itself for
 * a link-time mapping (where a PT_LOAD segment holds it), else through
 * its file offset; false when none. */
static bool mapping_vaddr(const struct dso *dso, const struct cprof_mapping *mapping,
			  uint64_t addr, uint64_t *vaddr)
{
	size_t i;

	if (!mapping->link_time)
		return offset_to_vaddr(dso, addr - mapping->start + mapping->offset, vaddr);
	for (i = 0; i < dso->num_segments; i++) {
		if (addr >= dso->segments[i].vaddr &&
		    addr - dso->segments[i].vaddr < dso->segments[i].filesz) {
			*vaddr = addr;
			return true;
		}
	}
	return false;
}

/* Interns `text` as valid UTF-8, each bad byte replaced by U+FFFD. */
static const char *intern_utf8(struct cprof_symbolizer *s, const char *text)
{
	char *clean = cprof_utf8_sanitize(text, strlen(text), NULL);
	const char *result = cprof_strings_intern(s->names, clean);

	free(clean);
	return result;
}

/* Interns a name: demangled when it is a C++ one, valid UTF-8 always. */
static const char *intern_name(struct cprof_symbolizer *s, const char *name)
{
	char *demangled = NULL;
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
	result = intern_utf8(s, name);
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

/* The source name of a function (DW_AT_name), not its linkage name. */
static const char *die_source_name(Dwarf_Die *die)
{
	Dwarf_Attribute mem, *attr = dwarf_attr_integrate(die, DW_AT_name, &mem);

	return attr ? dwarf_formstring(attr) : NULL;
}

static void add_function(struct dso *dso, Dwarf_Die *die)
{
	Dwarf_Addr base, low, high;
	ptrdiff_t offset = 0;

	while ((offset = dwarf_ranges(die, offset, &base, &low, &high)) > 0) {
		if (low >= high)
			continue;
		if (dso->num_functions == dso->cap_functions) {
			dso->cap_functions = dso->cap_functions ? 2 * dso->cap_functions : 256;
			dso->functions = cprof_xrealloc(dso->functions,
							dso->cap_functions * sizeof(*dso->functions));
		}
		dso->functions[dso->num_functions].low = low;
		dso->functions[dso->num_functions].high = high;
		dso->functions[dso->num_functions].die = *die;
		dso->num_functions++;
	}
}

/* How deep collect_functions looks into namespaces and classes: deeper
 * nests are no C++ anyone writes, and each level costs libdw a walk over
 * all it holds (dwarf_siblingof without DW_AT_sibling). */
#define MAX_NESTING 64

/* Collects the functions defined among the children of `parent`, looking
 * into namespaces and classes (C++ definitions may sit there) down to
 * MAX_NESTING levels below the CU, `depth` being the level of `parent`. */
static void collect_functions(struct dso *dso, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;

	if (depth >= MAX_NESTING || dwarf_child(parent, &child) != 0)
		return;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			add_function(dso, &child);
			break;
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_module:
			collect_functions(dso, &child, depth + 1);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int function_cmp(const void *a, const void *b)
{
	const struct function_range *x = a, *y = b;

	return x->low < y->low ? -1 : x->low > y->low;
}

/* Indexes the address ranges of every function of the file's DWARF once,
 * so that a lookup searches one function's DIEs, not a whole CU's (what
 * dwarf_getscopes does, at a cost that grows with the CU). */
static void index_functions(struct dso *dso)
{
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias = 0;

	dso->indexed = true;
	while ((cu = dwfl_module_nextcu(dso->module, cu, &bias)) != NULL) {
		dso->dwarf_bias = bias;
		collect_functions(dso, cu, 0);
	}
	if (dso->num_functions > 1)
		qsort(dso->functions, dso->num_functions, sizeof(*dso->functions), function_cmp);
}

/* The function whose DWARF range holds `addr` (a DWARF address), or NULL. */
static struct function_range *find_function(struct dso *dso, Dwarf_Addr addr)
{
	size_t lo = 0, hi = dso->num_functions;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dso->functions[mid].low <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && addr < dso->functions[lo - 1].high)
		return &dso->functions[lo - 1];
	return NULL;
}

/* Fills frames[] with the functions inlined at `addr` inside `function`,
 * innermost first; returns how many (at most max). */
static size_t inlined_at(struct cprof_symbolizer *s, Dwarf_Die *function, Dwarf_Addr addr,
			 struct cprof_symbol *frames, size_t max)
{
	Dwarf_Die path[64], scope = *function, child;
	size_t depth = 0, count = 0;
	bool deeper = true;

	while (deeper && depth < G_N_ELEMENTS(path) && dwarf_child(&scope, &child) == 0) {
		deeper = false;
		do {
			int tag = dwarf_tag(&child);

			if ((tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block ||
			     tag == DW_TAG_try_block || tag == DW_TAG_catch_block) &&
			    dwarf_haspc(&child, addr) == 1) {
				if (tag == DW_TAG_inlined_subroutine)
					path[depth++] = child;
				scope = child;
				deeper = true;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	while (depth > 0 && count < max) {
		const char *name = die_name(&path[--depth]);

		if (!name)
			continue;
		frames[count].function = intern_name(s, name);
		frames[count].file = NULL;
		frames[count].line = 0;
		count++;
	}
	return count;
}

/* Aliases at one address: a global name before a weak or local one, and
 * the public name before its underscored twins (clock_gettime before
 * __clock_gettime). */
static int symbol_rank(const GElf_Sym *sym, const char *name)
{
	int binding = GELF_ST_BIND(sym->st_info);
	int rank = binding == STB_GLOBAL ? 0 : binding == STB_WEAK ? 100 : 200;

	while (*name == '_' && rank % 100 < 99)
		name++, rank++;
	return rank;
}

static int symbol_cmp(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Sorts the function symbols of the table libdwfl picked for the file
 * (.symtab, of the file or its debug file, else .dynsym) once:
 * dwfl_module_addrinfo searches them one by one on every call. */
static void index_symbols(struct dso *dso)
{
	int count = dwfl_module_getsymtab(dso->module), i;

	if (count <= 0)
		return;
	dso->symbols = cprof_xcalloc((size_t)count, sizeof(*dso->symbols));
	for (i = 1; i < count; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name = dwfl_module_getsym_info(dso->module, i, &sym, &addr, &shndx, NULL,
							   NULL);
		int type = GELF_ST_TYPE(sym.st_info);

		if (!name || !*name || sym.st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC))
			continue;
		dso->symbols[dso->num_symbols].addr = addr;
		dso->symbols[dso->num_symbols].size = sym.st_size;
		dso->symbols[dso->num_symbols].name = name;
		dso->symbols[dso->num_symbols].rank = symbol_rank(&sym, name);
		dso->num_symbols++;
	}
	qsort(dso->symbols, dso->num_symbols, sizeof(*dso->symbols), symbol_cmp);
}

/* The name of the function symbol holding `addr`: one whose size covers
 * it, or a sizeless one before the next symbol starts; NULL past the end
 * of the nearest symbol. */
static const struct symbol *find_symbol(const struct dso *dso, uint64_t addr)
{
	size_t lo = 0, hi = dso->num_symbols, i, back;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dso->symbols[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* The best of the aliases at the nearest address below is first; a
	 * symbol that encloses a smaller one may sit a little further back. */
	for (i = lo, back = 0; i-- > 0 && back < 16; back++) {
		const struct symbol *sym = &dso->symbols[i];

		while (i > 0 && dso->symbols[i - 1].addr == sym->addr)
			sym = &dso->symbols[--i];
		if (sym->size > 0 ? addr - sym->addr < sym->size
				  : (lo == dso->num_symbols || addr < dso->symbols[lo].addr) && back == 0)
			return sym;
	}
	return NULL;
}

/* Whether `name` is one of the aliases at the address of `sym` (the first
 * of them in the table), versions ("@@GLIBC_2.17") aside. */
static bool is_alias(const struct dso *dso, const struct symbol *sym, const char *name)
{
	const struct symbol *end = dso->symbols + dso->num_symbols, *alias;
	size_t len = strlen(name);

	for (alias = sym; alias < end && alias->addr == sym->addr; alias++)
		if (strncmp(alias->name, name, len) == 0 &&
		    (alias->name[len] == '\0' || alias->name[len] == '@'))
			return true;
	return false;
}

/* The DWARF source name of the function starting at `sym` when it is one
 * of the symbol's aliases, else the symbol's own name. */
static const char *source_alias(const struct dso *dso, const struct symbol *sym, Dwarf_Die *die)
{
	const char *name = die_source_name(die);

	return name && is_alias(dso, sym, name) ? name : sym->name;
}

/* The source file and line of the link-time address `vaddr`, or NULL.
 * libdw (0.188) finds the CU of an address by .debug_aranges alone, which
 * clang does not write: where libdwfl finds no line, the CU of the
 * function holding the address (the function index) gives it. */
static const char *source_line(struct dso *dso, uint64_t vaddr, int *line)
{
	Dwfl_Line *src = dwfl_module_getsrc(dso->module, vaddr);
	struct function_range *function;
	Dwarf_Line *dwarf_line;
	Dwarf_Die cu;

	if (src)
		return dwfl_lineinfo(src, NULL, line, NULL, NULL, NULL);
	if (!dso->indexed)
		index_functions(dso);
	function = find_function(dso, vaddr - dso->dwarf_bias);
	if (!function || !dwarf_diecu(&function->die, &cu, NULL, NULL))
		return NULL;
	dwarf_line = dwarf_getsrc_die(&cu, vaddr - dso->dwarf_bias);
	if (!dwarf_line || dwarf_lineno(dwarf_line, line) != 0)
		return NULL;
	return dwarf_linesrc(dwarf_line, NULL, NULL);
}

/* Resolves one link-time address of `dso`. */
/* The frames inlined at vaddr into frames[0, max) when the options ask
 * for them, their count returned; *symbol becomes the name of the
 * enclosing function as pprof names it. */
static size_t enclosing_function(struct cprof_symbolizer *s, struct dso *dso, uint64_t vaddr,
				 const struct symbol *elf, const char **symbol,
				 struct cprof_symbol *frames, size_t max)
{
	struct function_range *function;
	size_t count = 0;

	if (!dso->indexed)
		index_functions(dso);
	function = find_function(dso, vaddr - dso->dwarf_bias);
	if (function && s->options.inline_frames)
		count = inlined_at(s, &function->die, vaddr - dso->dwarf_bias, frames, max);
	/* The enclosing function is the ELF symbol, as pprof names it;
	 * DWARF's name where no symbol covers the PC, or its source name
	 * where that is one of the symbol's aliases (__clock_gettime,
	 * not clock_gettime: pprof's addr2line reads DWARF). */
	if (!*symbol && function)
		*symbol = die_name(&function->die);
	else if (function && function->low + dso->dwarf_bias == elf->addr)
		*symbol = source_alias(dso, elf, &function->die);
	return count;
}

/* The interned name of symbol without its version: "memcpy@@GLIBC_2.14"
 * is memcpy. */
static const char *unversioned(struct cprof_symbolizer *s, const char *symbol)
{
	const char *at = strchr(symbol, '@');
	char *plain = at && at > symbol ? g_strndup(symbol, (gsize)(at - symbol)) : NULL;
	const char *name = intern_name(s, plain ? plain : symbol);

	g_free(plain);
	return name;
}

static struct answer *resolve(struct cprof_symbolizer *s, struct dso *dso, uint64_t vaddr)
{
	struct cprof_symbol frames[64];
	const struct symbol *elf;
	const char *symbol, *file = NULL;
	size_t count = 0, i;
	struct answer *answer;
	int line = 0;

	elf = find_symbol(dso, vaddr);
	symbol = elf ? elf->name : NULL;
	if (s->options.inline_frames || !symbol)
		count = enclosing_function(s, dso, vaddr, elf, &symbol, frames,
					   G_N_ELEMENTS(frames) - 1);
	if (s->options.lines) {
		const char *name = source_line(dso, vaddr, &line);

		if (name && line > 0)
			file = intern_utf8(s, name);
	}
	if (symbol) {
		frames[count].function = unversioned(s, symbol);
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
	struct dso *dso = get_dso(s, mapping->file, main);
	struct answer *answer;
	uint64_t vaddr;

	*frames = NULL;
	if (!dso->usable || !mapping_vaddr(dso, mapping, addr, &vaddr))
		return 0;
	answer = g_hash_table_lookup(dso->answers, &vaddr);
	if (!answer) {
		/* An address the cache does not hold: the file is opened now. */
		if (!dso->dwfl && (dso->tried || (open_dso(s, dso), !dso->dwfl)))
			return 0;
		answer = resolve(s, dso, vaddr);
		dso->dirty = true;
	}
	*frames = answer->frames;
	return answer->count;
}
