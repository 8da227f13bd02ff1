# Written by tools/completions from completions/bash/llmkit; do not edit.
complete -c thread-serialize -l errors -x -a 'github json text' -d 'how to write diagnostics'
complete -c thread-serialize -s h -l help -d 'print this help and exit'
complete -c thread-serialize -l version -d 'print the version and exit'
complete -c thread-serialize -l keep-summarized -d 'keep the events a summary folds'
complete -c thread-serialize -s n -l no-newline -d 'no newline after the prompt'
complete -c thread-serialize -l response-prefix -x -d 'text that opens the answer'
complete -c thread-serialize -l strict -d 'refuse unknown members'
