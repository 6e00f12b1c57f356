/* xml.h: names written into SVG and HTML: escaped for XML, their invalid
 * UTF-8 bytes and the characters XML cannot hold (control characters,
 * U+FFFE, U+FFFF) drawn as U+FFFD, and their width in a monospace font
 * estimated (a wide character, CJK, two columns; a combining one none). */
#ifndef CPROF_XML_H
#define CPROF_XML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes the `len` bytes at `s` (any bytes) escaped for XML text and
 * attribute values. */
void cprof_xml_escaped_n(FILE *out, const char *s, size_t len);

/* cprof_xml_escaped_n of the string `s`. */
void cprof_xml_escaped(FILE *out, const char *s);

/* Writes `len` bytes at `s` cut to `max` columns, an ellipsis (U+2026)
 * where it is cut: its end kept when `keep_end`, else its start; escaped
 * when `escape`.  Written whole when `max` < 2. */
void cprof_xml_fit_n(FILE *out, const char *s, size_t len, size_t max, bool keep_end,
		     bool escape);

/* cprof_xml_fit_n of the string `s`. */
void cprof_xml_fit(FILE *out, const char *s, size_t max, bool keep_end, bool escape);

/* The columns the string `s` takes as it is drawn. */
size_t cprof_xml_columns(const char *s);

#endif
