# Written by tools/completions from completions/bash/llmkit; do not edit.

# The names of the servers that the -c, --config and --server given so
# far declare, from the mcp-run on PATH, which starts none of them.
function __llmkit_servers
	set -l given
	set -l words (commandline -opc)[2..-1]
	set -l i 1
	while test $i -le (count $words)
		set -l w $words[$i]
		set -l v
		switch $w
			case --
				break
			case -c --config --server
				set i (math $i + 1)
				test $i -le (count $words); or break
				set v $words[$i]
			case '--config=*' '--server=*'
				set v (string replace -r '^[^=]*=' '' -- $w)
				set w (string replace -r '=.*' '' -- $w)
			case '-c?*'
				set v (string sub -s 3 -- $w)
				set w -c
			case '*'
				set i (math $i + 1)
				continue
		end
		set -a given $w (string replace -r '^~/' "$HOME/" -- $v)
		set i (math $i + 1)
	end
	test (count $given) -gt 0; or return
	command mcp-run --list-servers $given </dev/null 2>/dev/null
end

complete -c mcp-run -l errors -x -a 'github json text' -d 'how to write diagnostics'
complete -c mcp-run -s h -l help -d 'print this help and exit'
complete -c mcp-run -l version -d 'print the version and exit'
complete -c mcp-run -l arg -x -d 'an argument of the prompt as KEY=VALUE'
complete -c mcp-run -l cacert -r -F -d 'certificates to trust for TLS'
complete -c mcp-run -s c -l config -r -F -d 'a configuration file of servers'
complete -c mcp-run -l elicit -x -a 'ask defaults decline' -d 'how to answer elicitation'
complete -c mcp-run -l get-prompt -x -d 'get the prompt of that name'
complete -c mcp-run -l list-prompts -d 'list the prompts of the servers'
complete -c mcp-run -l list-resources -d 'list the resources of the servers'
complete -c mcp-run -l list-servers -d 'list the names of the servers'
complete -c mcp-run -s j -l jobs -x -d 'how many calls run at once'
complete -c mcp-run -l list-tools -d 'list the tools of the servers'
complete -c mcp-run -l max-line -x -d 'longest line a server may write, in bytes'
complete -c mcp-run -l max-time -x -d 'the most a call may take, in seconds'
complete -c mcp-run -l protocol -x -a 'auto 2026-07-28 2025-11-25' -d 'the revision to speak'
complete -c mcp-run -l read -x -d 'read the resource of that URI'
complete -c mcp-run -l root -x -a '(__fish_complete_directories)' -d 'a root answered to roots/list'
complete -c mcp-run -l sampling -x -d 'command that answers sampling'
complete -c mcp-run -l server -x -d 'a server as NAME=COMMAND or NAME=URL'
complete -c mcp-run -l tasks -d 'call as tasks the tools that may be'
complete -c mcp-run -s T -l timeout -x -d 'limit on each request in seconds'
complete -c mcp-run -s u -l unbuffered -d 'flush after each event'
complete -c mcp-run -l unordered -d 'with -j, write events as calls end'
complete -c mcp-run -n '__fish_seen_argument -l list-servers' -f
complete -c mcp-run -n 'not __fish_seen_argument -l list-servers; and __fish_seen_argument -l list-tools' -f -a '(__llmkit_servers)'
complete -c mcp-run -n 'not __fish_seen_argument -l list-servers; and not __fish_seen_argument -l list-tools; and __fish_seen_argument -l list-resources' -f -a '(__llmkit_servers)'
complete -c mcp-run -n 'not __fish_seen_argument -l list-servers; and not __fish_seen_argument -l list-tools; and not __fish_seen_argument -l list-resources; and __fish_seen_argument -l list-prompts' -f -a '(__llmkit_servers)'
complete -c mcp-run -n 'not __fish_seen_argument -l list-servers; and not __fish_seen_argument -l list-tools; and not __fish_seen_argument -l list-resources; and not __fish_seen_argument -l list-prompts; and __fish_seen_argument -l read' -f -a '(__llmkit_servers)'
complete -c mcp-run -n 'not __fish_seen_argument -l list-servers; and not __fish_seen_argument -l list-tools; and not __fish_seen_argument -l list-resources; and not __fish_seen_argument -l list-prompts; and not __fish_seen_argument -l read; and __fish_seen_argument -l get-prompt' -f -a '(__llmkit_servers)'
