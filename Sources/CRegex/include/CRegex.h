#ifndef CREGEX_H
#define CREGEX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A compiled regular expression (RE2: matching time linear in the text, no backtracking).
typedef struct datatabled_regex datatabled_regex;

/// Compiles the UTF-8 `pattern` (RE2 syntax). On success returns the expression; on failure
/// returns NULL and writes RE2's reason, NUL-terminated and cut to fit, into `error` (of
/// `capacity` bytes). `memory` caps the bytes the compiled program may take; a pattern that
/// needs more is refused as too large.
datatabled_regex *datatabled_regex_compile(
    const char *pattern, size_t length, long long memory, char *error, size_t capacity);

/// Whether the expression matches somewhere in the UTF-8 `text`. Safe to call from several
/// threads at once on one expression.
int datatabled_regex_finds(const datatabled_regex *regex, const char *text, size_t length);

/// Frees an expression from datatabled_regex_compile.
void datatabled_regex_free(datatabled_regex *regex);

#ifdef __cplusplus
}
#endif

#endif
