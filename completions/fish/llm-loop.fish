# Written by tools/completions from completions/bash/llmkit; do not edit.

# Whether the words before the one completed hold "--".
function __llmkit_dashes
	contains -- -- (commandline -opc)
end

# The model's command after the first "--", then its arguments, as that
# command's own completion has them.
function __llmkit_cmdline
	set -l words (commandline -opc) (commandline -ct)
	set -l i (contains -i -- -- $words); or return
	__fish_complete_subcommand --commandline $words[(math $i + 1)..-1]
end

complete -c llm-loop -l errors -x -a 'github json text' -d 'how to write diagnostics'
complete -c llm-loop -s h -l help -d 'print this help and exit'
complete -c llm-loop -l version -d 'print the version and exit'
complete -c llm-loop -l allow -x -d 'run the calls that match SERVER:TOOL'
complete -c llm-loop -l begins-in-reasoning -x -a 'auto yes no' -d 'whether the output begins in reasoning'
complete -c llm-loop -l cacert -r -F -d 'certificates to trust for TLS'
complete -c llm-loop -s c -l config -r -F -d 'a configuration file of servers'
complete -c llm-loop -l dry-run -d 'write the first prompt and stop'
complete -c llm-loop -l format -x -a 'tool qwen3 invoke glm hermes harmony deepseek mistral llama3 kimi pythonic' -d 'markup of the calls, taught and read'
complete -c llm-loop -l max-prompt -x -d 'summarise past this prompt size in bytes'
complete -c llm-loop -s n -l max-iterations -x -d 'most iterations of the model in the run'
complete -c llm-loop -s o -l output -x -a 'prose events' -d 'what to write'
complete -c llm-loop -s q -l quiet -d 'no line for each call'
complete -c llm-loop -l resume -d 'go on from the thread, no new message'
complete -c llm-loop -l retries -x -d 'more tries of a failing model command'
complete -c llm-loop -l root -x -a '(__fish_complete_directories)' -d 'a root answered to roots/list'
complete -c llm-loop -l server -x -d 'a server as NAME=COMMAND or NAME=URL'
complete -c llm-loop -l system -r -F -d 'file of the system prompt'
complete -c llm-loop -s T -l timeout -x -d 'limit on each request in seconds'
complete -c llm-loop -s t -l thread -r -F -d 'the thread file'
complete -c llm-loop -s w -l delay -x -d 'wait before the first retry in seconds'
complete -c llm-loop -s y -l yes -d 'run every call without asking'
complete -c llm-loop -n '__llmkit_dashes' -x -a '(__llmkit_cmdline)'
complete -c llm-loop -n 'not __llmkit_dashes' -f
