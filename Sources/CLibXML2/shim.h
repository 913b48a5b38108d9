#ifndef HOMEFEED_CLIBXML2_SHIM_H
#define HOMEFEED_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU; encoding.h would then pull in the system ICU headers,
   which clash with Foundation's bundled ICU in any module that sees both (only on a clean
   build: swift-on-linux.md §1.3-1.4). Nothing homefeed calls needs the ICU-typed fields.
   Add further libxml2 headers below this line, never above it. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/SAX2.h>
#include <libxml/entities.h>         /* xmlNewEntity, for the HTML5 getEntity hook */
#include <libxml/HTMLparser.h>       /* the HTML push parser, for a service page's <head> */

/* xmlFree is a global function-pointer variable; Swift 6 rejects references to it. */
static inline void cxml_free(void *p) { xmlFree(p); }
/* Context-free libxml2 errors (iconv failures) go to the generic handler, which prints to
   stderr. Its type is variadic, which Swift cannot implement, hence this no-op in C. */
static inline void cxml_ignore_generic_error(void *ctx, const char *msg, ...) { (void)ctx; (void)msg; }
static inline void cxml_silence_generic_errors(void) {
    xmlThrDefSetGenericErrorFunc(NULL, cxml_ignore_generic_error);
    xmlSetGenericErrorFunc(NULL, cxml_ignore_generic_error);
}
#endif
