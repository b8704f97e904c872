/* item_size.h - the size of an item as DynamoDB counts it
 *
 * DynamoDB bills reads and writes, and stores, by item size: the sum over
 * the item's attributes of the name's UTF-8 bytes and the value's size
 * ("DynamoDB item sizes and formats", developer guide):
 *   S      its UTF-8 bytes
 *   N      its significant digits two to a byte (leading and trailing zeros
 *          trimmed), plus one byte; the guide says "approximately": the
 *          exact count pairs the digits about the decimal point (1.2 is
 *          01|20, two bytes), and a negative number has one byte more --
 *          the rule the DynamoDB emulator dynalite measured on the service
 *   B      its raw bytes (the example holds base64)
 *   BOOL, NULL  one byte
 *   L, M   3 bytes, plus one byte per element, plus the elements (a Map's
 *          element also counts its name)
 *   SS, NS, BS  the sum of their elements
 * An example item is a plain YAML value: its attribute's declared type
 * says what a scalar is (a String "12" is 2 bytes, a Number 12 is 2);
 * an undeclared attribute and nested values are typed by their shape.
 */
#ifndef DDBC_ITEM_SIZE_H
#define DDBC_ITEM_SIZE_H

#include "model/model.h"

#include <stdbool.h>
#include <stdint.h>

/* DynamoDB's item size limit: 400 KB. */
#define DDBC_ITEM_SIZE_MAX 409600u

/* The bytes of a Number written as text ("-0012.500", "1e5"); 0 when the
 * text is no number. */
uint64_t ddbc_number_size(const char *text, size_t len);

/* The bytes of value v as a value of type t (DDBC_TYPE_NONE: by its shape). */
uint64_t ddbc_value_size(const ddbc_pval *v, ddbc_type t);

/* The bytes of example item (a mapping) of entity e (NULL: every
 * attribute typed by its shape). */
uint64_t ddbc_item_size(const ddbc_entity *e, const ddbc_pval *item);

/* Whether index ix holds item: it sets every key attribute of ix (the
 * table's own key: always). */
bool ddbc_index_holds(const ddbc_index *ix, const ddbc_pval *item);

/* Whether ix projects the attribute called name: the table's and its own
 * key attributes always, the rest as its projection says. */
bool ddbc_index_projects(const ddbc_index *ix, const char *name);

/* The bytes of item's entry in ix: the attributes ix projects. */
uint64_t ddbc_entry_size(const ddbc_index *ix, const ddbc_entity *e, const ddbc_pval *item);

/* One stored attribute of an example item and its bytes (name and value)
 * as the sums above count them. */
typedef struct ddbc_attr_bytes {
	const char *name;
	uint64_t bytes;
} ddbc_attr_bytes;

/* The stored attributes of item of entity e with their bytes, in the
 * item's order, into *out (grown as ddbc_xgrow grows it, *cap its room):
 * measured once, an item's size and its entries in every index are sums
 * of them (ddbc_item_size, ddbc_entry_size_of). Returns how many. */
size_t ddbc_item_attr_bytes(const ddbc_entity *e, const ddbc_pval *item, ddbc_attr_bytes **out,
			    size_t *cap);

/* ddbc_entry_size of the item whose n attributes a are: the bytes of
 * those ix projects. */
uint64_t ddbc_entry_size_of(const ddbc_index *ix, const ddbc_attr_bytes *a, size_t n);

/* The bytes of item's entry in ix were ix to project keys only: the
 * table's and ix's key attributes. */
uint64_t ddbc_keys_entry_size(const ddbc_index *ix, const ddbc_entity *e, const ddbc_pval *item);

/* The bytes of item's entry in ix were ix to project the keys and the
 * attributes names (n of them): an INCLUDE list. */
uint64_t ddbc_include_entry_size(const ddbc_index *ix, const ddbc_entity *e,
				 const ddbc_pval *item, const ddbc_name *names, size_t n);

#endif
