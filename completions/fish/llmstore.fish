# Written by tools/completions from completions/bash/llmkit; do not edit.

# __llmkit_llmstore_path [WORD ...]: whether the commands given so far are WORDs.
function __llmkit_llmstore_path
	set -l path
	set -l skip 0
	for w in (commandline -opc)[2..-1]
		if test $skip = 1
			set skip 0
		else if contains -- $w --errors --format --message --model --revision --store --topic --xml-schema-version -M -d -m -t
			set skip 1
		else if string match -q -- '-*' $w
		else if test (count $path) -eq 0
			set path $w
		else if test (count $path) -eq 1
			and contains -- $path[1] prompt
			set -a path $w
		end
	end
	test "$path" = "$argv"
end

complete -c llmstore -s d -l store -r -F -d 'the store file'
complete -c llmstore -s h -l help -d 'print this help and exit'
complete -c llmstore -l version -d 'print the version and exit'
complete -c llmstore -n __llmkit_llmstore_path -f -a 'put ls cat rm context summary keywords subjects archive trace prompt fsck export import'
complete -c llmstore -n '__llmkit_llmstore_path put' -s m -l message -x -d 'the message id'
complete -c llmstore -n '__llmkit_llmstore_path put' -s t -l topic -x -d 'the topic'
complete -c llmstore -n '__llmkit_llmstore_path put' -l batch -d 'store each FILE as a message'
complete -c llmstore -n '__llmkit_llmstore_path put' -l errors -x -a 'github json text' -d 'how to write diagnostics'
complete -c llmstore -n '__llmkit_llmstore_path put' -s q -l quiet -d 'print no diagnostics about the messages'
complete -c llmstore -n '__llmkit_llmstore_path ls' -s m -l message -x -d 'the message id'
complete -c llmstore -n '__llmkit_llmstore_path ls' -s t -l topic -x -d 'the topic'
complete -c llmstore -n '__llmkit_llmstore_path ls' -l format -x -a 'llm-query llm-response' -d 'write the messages'
complete -c llmstore -n '__llmkit_llmstore_path ls' -f
complete -c llmstore -n '__llmkit_llmstore_path cat' -s m -l message -x -d 'the message id'
complete -c llmstore -n '__llmkit_llmstore_path cat' -f
complete -c llmstore -n '__llmkit_llmstore_path rm' -s m -l message -x -d 'the message id'
complete -c llmstore -n '__llmkit_llmstore_path rm' -f
complete -c llmstore -n '__llmkit_llmstore_path context' -f
complete -c llmstore -n '__llmkit_llmstore_path summary' -l revision -x -d 'the revision'
complete -c llmstore -n '__llmkit_llmstore_path summary' -f
complete -c llmstore -n '__llmkit_llmstore_path keywords' -f
complete -c llmstore -n '__llmkit_llmstore_path subjects' -f
complete -c llmstore -n '__llmkit_llmstore_path archive' -l undo -d 'bring the subject back'
complete -c llmstore -n '__llmkit_llmstore_path archive' -f
complete -c llmstore -n '__llmkit_llmstore_path trace' -s t -l topic -x -d 'the topic'
complete -c llmstore -n '__llmkit_llmstore_path trace' -f
complete -c llmstore -n '__llmkit_llmstore_path prompt' -f -a 'set get ls'
complete -c llmstore -n '__llmkit_llmstore_path prompt set' -s M -l model -x -d 'the model'
complete -c llmstore -n '__llmkit_llmstore_path prompt set' -l xml-schema-version -x -d 'version of the XML schema'
complete -c llmstore -n '__llmkit_llmstore_path prompt get' -s M -l model -x -d 'the model'
complete -c llmstore -n '__llmkit_llmstore_path prompt get' -l revision -x -d 'the revision'
complete -c llmstore -n '__llmkit_llmstore_path prompt get' -f
complete -c llmstore -n '__llmkit_llmstore_path prompt ls' -s M -l model -x -d 'the model'
complete -c llmstore -n '__llmkit_llmstore_path prompt ls' -f
complete -c llmstore -n '__llmkit_llmstore_path fsck' -f
complete -c llmstore -n '__llmkit_llmstore_path export' -f
