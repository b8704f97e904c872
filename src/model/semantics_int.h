/* semantics_int.h - what the files of the semantics pass share */
#ifndef DDBC_SEMANTICS_INT_H
#define DDBC_SEMANTICS_INT_H

#include "model/model.h"

/* Appends the run a placeholder of type t (with :0WIDTH width, or 0)
 * stands for to out. */
void ddbc_lang_of_type(ddbc_type t, unsigned width, ddbc_lang *out);

/* Derives each access pattern's conditions and the entities it matches
 * (semantics_patterns.c); the tables' indexes and the entities' key
 * languages are derived already. */
void ddbc_match_patterns(ddbc_design *g);

#endif
