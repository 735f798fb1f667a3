#ifndef DATATABLED_CLIBEDIT_SHIM_H
#define DATATABLED_CLIBEDIT_SHIM_H

// libedit's readline interface, for `datatable shell`: line editing, history and completion.
// readline keeps its settings in global variables; these functions set and read them, so Swift
// code never touches C's mutable globals itself.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <editline/readline.h>

/// Names the program for libedit, and completes with `complete`: `=` ends a word as a space does.
static inline void datatable_edit_setup(rl_completion_func_t *complete) {
    rl_readline_name = "datatable";
    rl_completer_word_break_characters = strdup(" \t\n=");
    rl_attempted_completion_function = complete;
}

/// The line being edited (during completion).
static inline const char *datatable_edit_line(void) { return rl_line_buffer; }

/// Called from the completion function: no file-name completion after it, and whether a space
/// follows the word completed.
static inline void datatable_edit_completing(int append_space) {
    rl_attempted_completion_over = 1;
    rl_completion_append_character = append_space ? ' ' : '\0';
}

#endif
