/* rules/names.c - table-name, index-name, header-name, reserved-word, generic-key-names,
 * missing-description */
#include "rules/checks.h"
#include "model/header_plan.h"
#include "model/reserved.h"
#include "model/semantics.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* ---- table-name, index-name ------------------------------------------------- */

/* DynamoDB's limits on table and index names. */
enum { NAME_MIN = 3, NAME_MAX = 255 };

static bool name_char_ok(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

/* The first character DynamoDB does not allow in a name, or NULL. A
 * non-ASCII character is returned whole (all its UTF-8 bytes) so the
 * message can quote it. */
static const char *bad_char(const char *s, size_t *len)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (name_char_ok(*p))
			continue;
		*len = 1;
		while (*p >= 0x80 && (p[*len] & 0xc0) == 0x80)
			(*len)++;
		return (const char *)p;
	}
	return NULL;
}

/* Checks name against DynamoDB's naming rules; what is "table" or "GSI". */
static void check_name(ddbc_diags *d, ddbc_rule rule, const char *what, ddbc_name name)
{
	size_t n = strlen(name.s), clen = 0;
	const char *c = bad_char(name.s, &clen);
	if (c && (*c == ' ' || (unsigned char)*c < 0x20 || *c == 0x7f))
		ddbc_diag_add(d, rule, name.loc,
			      "%s name '%s' contains %s; DynamoDB allows only letters, "
			      "digits, '_', '.' and '-'", what, name.s,
			      *c == ' ' ? "a space" : "a control character");
	else if (c)
		ddbc_diag_add(d, rule, name.loc,
			      "%s name '%s' contains '%.*s'; DynamoDB allows only letters, "
			      "digits, '_', '.' and '-'", what, name.s, (int)clen, c);
	else if (n < NAME_MIN || n > NAME_MAX)
		ddbc_diag_add(d, rule, name.loc,
			      "%s name '%s' is %zu character%s long; DynamoDB needs %d to %d",
			      what, name.s, n, n == 1 ? "" : "s", NAME_MIN, NAME_MAX);
}

void ddbc_check_table_name(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++)
		check_name(d, DDBC_RULE_TABLE_NAME, "table", g->tables[i].name);
}

/* DynamoDB wants index names unique within a table. Two GSIs (or two
 * LSIs) of one name are a duplicate-key; a GSI and an LSI are not. */
static void check_unique(ddbc_diags *d, const ddbc_table *t, const ddbc_index *lsi)
{
	for (size_t k = 0; k < t->ngsi; k++)
		if (!strcmp(t->gsi[k].name.s, lsi->name.s))
			ddbc_diag_add(d, DDBC_RULE_INDEX_NAME, lsi->name.loc,
				      "LSI '%s' has the name of a GSI of table '%s' (at %u:%u); "
				      "DynamoDB needs index names unique within a table, so "
				      "rename one", lsi->name.s, t->name.s, t->gsi[k].name.loc.line,
				      t->gsi[k].name.loc.column);
}

void ddbc_check_index_name(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		for (size_t k = 0; k < t->ngsi; k++)
			check_name(d, DDBC_RULE_INDEX_NAME, "GSI", t->gsi[k].name);
		for (size_t k = 0; k < t->nlsi; k++) {
			check_name(d, DDBC_RULE_INDEX_NAME, "LSI", t->lsi[k].name);
			check_unique(d, t, &t->lsi[k]);
		}
	}
}

/* ---- header-name ---------------------------------------------------------------- */

/* The header's plan decides the names; every command checks them, so that
 * `ddbc header` never fails on a design that lints clean. */
void ddbc_check_header_name(const ddbc_design *g, ddbc_diags *d)
{
	ddbc_header_names_check(g, d);
}

/* ---- reserved-word ------------------------------------------------------------ */

void ddbc_check_reserved_word(const ddbc_design *g, ddbc_diags *d)
{
	/* Attribute names are unique within an entity (duplicate keys are
	 * dropped by the loader), so this reports each name once per entity. */
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		for (size_t k = 0; k < e->nattrs; k++) {
			const ddbc_name *n = &e->attrs[k].name;
			/* A key part that is not stored is named by no expression. */
			if (ddbc_attr_stored(&e->attrs[k]) && ddbc_is_reserved_word(n->s))
				ddbc_diag_add_about(d, DDBC_RULE_RESERVED_WORD, n->loc, n->s,
						    "attribute '%s' of '%s' is a DynamoDB reserved "
						    "word; expressions must name it through an "
						    "ExpressionAttributeNames placeholder such as "
						    "'#%s'", n->s, e->name.s, n->s);
		}
	}
}

/* ---- generic-key-names ---------------------------------------------------------- */

/* Whether c is a letter of the case upper says. */
static bool letter_in_case(char c, bool upper)
{
	return upper ? (c >= 'A' && c <= 'Z') : (c >= 'a' && c <= 'z');
}

/* Whether s is "PK" or "SK" after an optional index prefix: "GSI1PK",
 * "LSI2SK", "GSI1_PK". The prefix is a letter, then letters and digits,
 * then optionally '_' or '-', all in the case of the suffix, so "gsi1pk"
 * is generic too but "UserPK" is not. */
static bool is_generic_key_name(const char *s)
{
	size_t n = strlen(s);
	if (n < 2)
		return false;
	const char *suffix = s + n - 2;
	bool upper = suffix[1] == 'K';
	if (strcmp(suffix, upper ? "PK" : "pk") && strcmp(suffix, upper ? "SK" : "sk"))
		return false;
	size_t pre = n - 2;
	if (pre == 0)
		return true;
	if (s[pre - 1] == '_' || s[pre - 1] == '-')
		pre--;
	if (pre == 0 || !letter_in_case(s[0], upper))
		return false;
	for (size_t i = 1; i < pre; i++)
		if (!letter_in_case(s[i], upper) && !(s[i] >= '0' && s[i] <= '9'))
			return false;
	return true;
}

/* How many entities of t store attribute name. */
static size_t entities_defining(const ddbc_table *t, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nentities; i++)
		if (ddbc_entity_stored_attr(t->entities[i], name))
			n++;
	return n;
}

/* A generic name for a key of ix: PK/SK on the table, GSI<n>PK on the
 * table's n-th GSI, LSI<n>SK on its n-th LSI. */
static void generic_name(const ddbc_index *ix, bool partition, char *buf, size_t size)
{
	const ddbc_table *t = ix->table;
	const char *k = partition ? "PK" : "SK";
	if (ix->kind == DDBC_INDEX_PRIMARY)
		snprintf(buf, size, "%s", k);
	else if (ix->kind == DDBC_INDEX_GSI)
		snprintf(buf, size, "GSI%zu%s", (size_t)(ix - t->gsi) + 1, k);
	else
		snprintf(buf, size, "LSI%zu%s", (size_t)(ix - t->lsi) + 1, k);
}

/* Whether names[i] is a key name that is not generic although several
 * entities share it. */
static bool overloaded_specific(const ddbc_index *ix, const ddbc_name *n)
{
	/* A key only one entity sets means one thing: no need to overload it. */
	return !is_generic_key_name(n->s) && entities_defining(ix->table, n->s) >= 2;
}

/* The specific names of one key part, appended to out[*n]. */
static void collect_specific(const ddbc_index *ix, const ddbc_name *names, size_t n,
			     const ddbc_name **out, size_t *nout, size_t max)
{
	for (size_t i = 0; i < n && *nout < max; i++)
		if (overloaded_specific(ix, &names[i]))
			out[(*nout)++] = &names[i];
}

/* "'a'", "'a' and 'b'", "'a', 'b' and 'c'" appended to sb. */
static const char *join_names(const ddbc_name **names, size_t n, strbuf *sb)
{
	for (size_t i = 0; i < n; i++) {
		const char *sep = i == 0 ? "" : i + 1 == n ? " and " : ", ";
		ddbc_strbuf_addf(sb, "%s'%s'", sep, names[i]->s);
	}
	return ddbc_strbuf_str(sb);
}

/* One note per index, at its first specific key name, naming them all. */
static void generic_names(ddbc_diags *d, const ddbc_index *ix)
{
	static const char *const kinds[] = { "table", "GSI", "LSI" };
	const ddbc_name *specific[16];
	size_t n = 0;
	/* An LSI's partition key is the table's, reported there. */
	if (ix->kind != DDBC_INDEX_LSI)
		collect_specific(ix, ix->pk, ix->npk, specific, &n, 16);
	collect_specific(ix, ix->sk, ix->nsk, specific, &n, 16);
	if (n == 0)
		return;
	/* pk, sk and better hold generated names of bounded length. */
	char pk[32], sk[32], better[80];
	strbuf list = STRBUF_INIT;
	generic_name(ix, true, pk, sizeof(pk));
	generic_name(ix, false, sk, sizeof(sk));
	if (ix->kind == DDBC_INDEX_LSI)
		snprintf(better, sizeof(better), "'%s'", sk);
	else
		snprintf(better, sizeof(better), "'%s' and '%s'", pk, sk);
	ddbc_diag_add(d, DDBC_RULE_GENERIC_KEY_NAMES, specific[0]->loc,
		      "%s '%s' is keyed by %s, which several entities share; name "
		      "shared keys generically, such as %s, since each entity gives them its "
		      "own meaning", kinds[ix->kind], ix->name.s,
		      join_names(specific, n, &list), better);
	ddbc_strbuf_release(&list);
}

void ddbc_check_generic_key_names(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		if (t->nentities < 2)
			continue;
		for (size_t s = 0; s < t->nindexes; s++) {
			const ddbc_index *ix = t->indexes[s];
			/* A multi-attribute key exists to index natural attributes as
			 * they are (the article on GSI multi-attribute keys): generic
			 * names would defeat it. */
			if (ix->npk > 1 || ix->nsk > 1)
				continue;
			generic_names(d, ix);
		}
	}
}

/* ---- missing-description ---------------------------------------------------------- */

static bool blank(const char *s)
{
	if (!s)
		return true;
	while (*s && isspace((unsigned char)*s))
		s++;
	return *s == '\0';
}

/* A part read with an error may hold its description under a misspelt
 * field: only a part read whole is said to lack one. */
static void missing(ddbc_diags *d, const char *description, bool incomplete, const char *what,
		    ddbc_name name)
{
	if (blank(description) && !incomplete)
		ddbc_diag_add(d, DDBC_RULE_MISSING_DESCRIPTION, name.loc,
			      "%s '%s' has no description; add 'description:'", what, name.s);
}

static void missing_in_table(ddbc_diags *d, const ddbc_table *t)
{
	missing(d, t->description, t->incomplete, "table", t->name);
	for (size_t k = 0; k < t->ngsi; k++)
		missing(d, t->gsi[k].description, t->gsi[k].incomplete, "GSI", t->gsi[k].name);
	for (size_t k = 0; k < t->nlsi; k++)
		missing(d, t->lsi[k].description, t->lsi[k].incomplete, "LSI", t->lsi[k].name);
}

static void missing_in_entity(ddbc_diags *d, const ddbc_entity *e)
{
	missing(d, e->description, e->incomplete, "entity", e->name);
	for (size_t k = 0; k < e->nattrs; k++) {
		const ddbc_attr *a = &e->attrs[k];
		if (blank(a->text->description) && !a->incomplete)
			ddbc_diag_add(d, DDBC_RULE_MISSING_DESCRIPTION, a->name.loc,
				      "attribute '%s' of '%s' has no description; add "
				      "'description:'", a->name.s, e->name.s);
	}
}

void ddbc_check_missing_description(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++)
		missing_in_table(d, &g->tables[i]);
	for (size_t i = 0; i < g->nentities; i++)
		missing_in_entity(d, &g->entities[i]);
	for (size_t i = 0; i < g->npatterns; i++)
		missing(d, g->patterns[i].description, g->patterns[i].incomplete, "access pattern",
			g->patterns[i].id);
}
