/* model/reserved.h - DynamoDB's reserved words
 *
 * The list is data/reserved-words.txt, compiled into model/reserved.c by
 * build-aux/gen-reserved.sh. Expressions must refer to an attribute whose
 * name is one of them through an ExpressionAttributeNames placeholder.
 */
#ifndef DDBC_MODEL_RESERVED_H
#define DDBC_MODEL_RESERVED_H

#include <stdbool.h>

/* Whether name is a DynamoDB reserved word, compared case-insensitively
 * as DynamoDB does. */
bool ddbc_is_reserved_word(const char *name);

#endif
