# Written by tools/completions from completions/bash/llmkit; do not edit.
complete -c llmq-encode -l errors -x -a 'github json text' -d 'how to write diagnostics'
complete -c llmq-encode -s h -l help -d 'print this help and exit'
complete -c llmq-encode -l version -d 'print the version and exit'
complete -c llmq-encode -l context -r -F -d 'the topic context that llmstore writes'
complete -c llmq-encode -l from-json -d 'encode queries given as JSON'
complete -c llmq-encode -s k -l keyword -x -d 'a keyword'
complete -c llmq-encode -l keywords -x -d 'the recent keywords, comma separated'
complete -c llmq-encode -s n -l count -x -d 'the message count'
complete -c llmq-encode -s s -l subject -x -d 'the subject'
complete -c llmq-encode -l subjects -x -d 'the recent subjects, comma separated'
complete -c llmq-encode -s t -l topic -x -d 'the topic'
complete -c llmq-encode -s u -l unbuffered -d 'flush after each query'
complete -c llmq-encode -n 'not __fish_seen_argument -l from-json' -f
