/* expr_names.c - attribute names inside DynamoDB expressions */
#include "model/expr_names.h"
#include "model/reserved.h"

static bool is_alpha(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static bool is_alnum(char c)
{
	return is_alpha(c) || (c >= '0' && c <= '9');
}

bool ddbc_name_needs_placeholder(const char *name)
{
	if (!is_alpha(name[0]))
		return true;
	for (const char *p = name; *p; p++)
		if (!is_alnum(*p))
			return true;
	return ddbc_is_reserved_word(name);
}

bool ddbc_name_placeholder_safe(const char *name)
{
	if (!*name)
		return false;
	for (const char *p = name; *p; p++)
		if (!is_alnum(*p) && *p != '_')
			return false;
	return true;
}
