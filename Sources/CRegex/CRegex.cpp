#include "CRegex.h"

#include <re2/re2.h>

#include <cstring>
#include <new>
#include <string>

struct datatabled_regex {
    RE2 expression;
    datatabled_regex(re2::StringPiece pattern, const RE2::Options &options) : expression(pattern, options) {}
};

extern "C" datatabled_regex *datatabled_regex_compile(
    const char *pattern, size_t length, long long memory, char *error, size_t capacity) {
    RE2::Options options;
    options.set_log_errors(false);
    options.set_max_mem(memory);
    auto *regex = new (std::nothrow) datatabled_regex(re2::StringPiece(pattern, length), options);
    if (regex == nullptr) {
        if (capacity > 0) std::strncpy(error, "out of memory", capacity - 1), error[capacity - 1] = 0;
        return nullptr;
    }
    if (regex->expression.ok()) return regex;
    if (capacity > 0) {
        const std::string &reason = regex->expression.error();
        size_t count = reason.size() < capacity - 1 ? reason.size() : capacity - 1;
        std::memcpy(error, reason.data(), count);
        error[count] = 0;
    }
    delete regex;
    return nullptr;
}

extern "C" int datatabled_regex_finds(const datatabled_regex *regex, const char *text, size_t length) {
    return RE2::PartialMatch(re2::StringPiece(text, length), regex->expression) ? 1 : 0;
}

extern "C" void datatabled_regex_free(datatabled_regex *regex) { delete regex; }
