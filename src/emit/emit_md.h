/* emit_md.h - the documentation emitters' parts, for who needs them alone
 *
 * ddbc_emit_md and ddbc_emit_html (emit.h) are made of: the document's
 * structure and its two backends (doc_write.h), the escaper (doc_escape.h),
 * heading ids (doc_slug.h), the user's Markdown (doc_desc.h), the labels
 * (doc_labels.h) and the example items' JSON (doc_json.h). Tests include
 * this one header for all of them.
 */
#ifndef DDBC_EMIT_MD_H
#define DDBC_EMIT_MD_H

#include "emit/doc_escape.h"
#include "emit/doc_slug.h"
#include "emit/doc_write.h"
#include "emit/emit.h"

#endif
