#!/bin/sh
# t/bench/scale-toolcall.sh: how toolcall-parse's time and memory grow
# with hostile input (issue 13, findings 16 and 17, and a model's
# openings repeated). Each case is generated at 1x, 2x, 4x and 8x its
# size and timed (median of 3 runs); a line per case gives the times and,
# in parentheses, each one over the one before it: about 2 when the time
# is linear in the input, about 4 when it is quadratic.
#   dense      N calls of 37 bytes back to back, no byte between them
#              (N = 50,000 at 1x, 1.85 MB)
#   attribute  one call whose argument has an attribute value of N bytes
#              (N = 4 MB at 1x)
#   comment    one call holding a comment of N bytes (N = 4 MB at 1x)
#   open-a     one call of N open <a> elements, ended by </tool>, then a
#              good call (N = 1,000,000 at 1x, 3 MB): the peak resident
#              memory is printed beside the input size
# and a model in a repetition loop: an opening written N times with no
# closing markup, each a call cut short by the next, then a good call
# (512 KB of openings at 1x):
#   tool-nl    "<tool>\n"
#   tool       "<tool>"
#   invoke     "<invoke " (--format invoke)
#   function   "<function=f>", qwen3-tc "<tool_call>", seed
#              "<seed:tool_call>" (--format qwen3)
#   glm        "<tool_call>" (--format glm); hermes, the same (hermes)
#   auto       "<tool_call><invoke <function=f><tool>" (--format auto)
#   auto-ws    one "<tool_call>", N spaces, then a hermes call (auto; 4 MB)
# and the openings of the later dialects, each under its --format:
#   harmony-ch "<|channel|>", harmony-st "<|start|>" (harmony)
#   ds-call    "<｜tool▁call▁begin｜>", ds-calls "<｜tool▁calls▁begin｜>"
#   kimi       "<|tool_call_begin|>", kimi-sec "<|tool_calls_section_begin|>"
#   mistral    "[TOOL_CALLS]", llama3 "<|python_tag|>", pythonic
#              "<|python_start|>"
#   auto-new   all of these in turn (auto)
# and qwen3's parameter boundaries:
#   qwen3-bound  one call whose value holds N "</parameter>" each followed
#              by text and an unknown "<parameter=z>" (--format qwen3
#              --tools: none ends the value; N = 100,000 at 1x, 3 MB)
# whose outputs are only checked for a status of 0 or 1 and the good call
# or nothing.
# Outputs are checked (status, output, diagnostics); times and memory are
# reported, never judged.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
scale_tool=toolcall-parse
. "$top/t/bench/scale.inc"
tp=$bin/toolcall-parse

# gen CASE N FILE: the input of CASE at size N.
gen() {
	python3 - "$1" "$2" "$3" <<'PY' || fail "cannot generate $1 at $2"
import sys
case, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
head = "<tool><tool_name>x</tool_name>"
units = {
    "tool-nl": ("<tool>\n", "<tool><tool_name>x</tool_name></tool>\n"),
    "tool": ("<tool>", "<tool><tool_name>x</tool_name></tool>\n"),
    "invoke": ("<invoke ", '<invoke name="x"></invoke>\n'),
    "function": ("<function=f>", "<function=x></function>\n"),
    "qwen3-tc": ("<tool_call>", "<tool_call><function=x></function>"
                 "</tool_call>\n"),
    "seed": ("<seed:tool_call>", "<seed:tool_call><function=x></function>"
             "</seed:tool_call>\n"),
    "glm": ("<tool_call>", "<tool_call>x</tool_call>\n"),
    "hermes": ("<tool_call>", '<tool_call>{"name": "x"}</tool_call>\n'),
    "auto": ("<tool_call><invoke <function=f><tool>",
             '<tool_call>{"name": "x"}</tool_call>\n'),
    "harmony-ch": ("<|channel|>", "<|channel|>commentary to=functions.x"
                   "<|message|>{}<|call|>\n"),
    "harmony-st": ("<|start|>", "<|start|>assistant<|channel|>commentary "
                   "to=functions.x<|message|>{}<|call|>\n"),
    "ds-call": ("<\uff5ctool\u2581call\u2581begin\uff5c>",
                "<\uff5ctool\u2581call\u2581begin\uff5c>x<\uff5ctool"
                "\u2581sep\uff5c>{}<\uff5ctool\u2581call\u2581end\uff5c>\n"),
    "ds-calls": ("<\uff5ctool\u2581calls\u2581begin\uff5c>",
                 "<\uff5ctool\u2581call\u2581begin\uff5c>x<\uff5ctool"
                 "\u2581sep\uff5c>{}<\uff5ctool\u2581call\u2581end\uff5c>\n"),
    "kimi": ("<|tool_call_begin|>", "<|tool_call_begin|>functions.x:0"
             "<|tool_call_argument_begin|>{}<|tool_call_end|>\n"),
    "kimi-sec": ("<|tool_calls_section_begin|>", "<|tool_call_begin|>"
                 "functions.x:0<|tool_call_argument_begin|>{}"
                 "<|tool_call_end|>\n"),
    "mistral": ("[TOOL_CALLS]", "[TOOL_CALLS]x[ARGS]{}\n"),
    "llama3": ("<|python_tag|>", '<|python_tag|>{"name": "x", '
               '"parameters": {}}\n'),
    "pythonic": ("<|python_start|>", "<|python_start|>[x()]<|python_end|>\n"),
    "auto-new": ("<|channel|><|start|><\uff5ctool\u2581call\u2581begin"
                 "\uff5c><\uff5ctool\u2581calls\u2581begin\uff5c>"
                 "<|tool_call_begin|><|tool_calls_section_begin|>"
                 "[TOOL_CALLS]<|python_tag|><|python_start|>",
                 '<tool_call>{"name": "x"}</tool_call>\n'),
}
if case in units:
    unit, good = units[case]
    text = unit * n + good
elif case == "qwen3-bound":
    text = ("<tool_call>\n<function=w>\n<parameter=content>\n" +
            "</parameter>\nx<parameter=z>" * n +
            "\n</parameter>\n</function>\n</tool_call>\n")
elif case == "auto-ws":
    text = "<tool_call>" + " " * n + '{"name": "x"}</tool_call>\n'
elif case == "dense":
    text = (head + "</tool>") * n
elif case == "attribute":
    text = head + '<arguments><a b="' + "x" * n + '">1</a></arguments></tool>\n'
elif case == "comment":
    text = head + "<!-- " + "x" * n + " --></tool>\n"
else:
    text = (head + "<arguments>" + "<a>" * n + "</tool>\n" + head +
            "</tool>\n")
with open(out, "w", encoding="utf-8") as f:
    f.write(text)
PY
}

call='{"server_name":"local","tool_name":"x","arguments":{}}'

# opts CASE: the options that read it.
opts() {
	case $1 in
	invoke) echo --format invoke ;;
	function|qwen3-tc|seed) echo --format qwen3 ;;
	glm) echo --format glm ;;
	hermes) echo --format hermes ;;
	auto|auto-ws|auto-new) echo --format auto ;;
	harmony-*) echo --format harmony ;;
	ds-*) echo --format deepseek ;;
	kimi*) echo --format kimi ;;
	mistral|llama3|pythonic) echo --format "$1" ;;
	qwen3-bound) echo --format qwen3 --tools "$tmp/w.json" ;;
	esac
}

# unit_len CASE: the length of the opening it repeats.
unit_len() {
	case $1 in
	tool) echo 6 ;;
	tool-nl) echo 7 ;;
	invoke) echo 8 ;;
	function) echo 12 ;;
	seed) echo 16 ;;
	auto) echo 37 ;;
	*) echo 11 ;;
	esac
}

# cut_short CASE: the error of each of its openings, after "truncated
# tool call: ".
cut_short() {
	case $1 in
	tool-nl|tool) echo 'a new <tool> began before </tool>' ;;
	invoke) echo 'a new <invoke began before </invoke>' ;;
	function) echo 'a new <function= began before </function>' ;;
	qwen3-tc) echo 'a new <tool_call> began before </function>' ;;
	seed) echo 'a new <seed:tool_call> began before </function>' ;;
	*) echo 'a new <tool_call> began before </tool_call>' ;;
	esac
}

# nohold CASE: for the cases of truncated calls, whose problems (one an
# opening, 500,000 and more) outgrow what output and problems may hold
# while no reasoning marker has come, the option that holds nothing:
# they measure the problems, not that bound.
nohold() {
	case $1 in
	tool-nl|tool|invoke|function|qwen3-tc|seed|glm|hermes|auto)
		echo --begins-in-reasoning no ;;
	esac
}

# check CASE N FILE: the run's status, output and diagnostics are right.
check() {
	# shellcheck disable=SC2046
	"$tp" $(opts "$1") $(nohold "$1") "$3" >"$tmp/out" 2>"$tmp/err"
	st=$?
	case $1 in
	tool-nl|tool|invoke|function|qwen3-tc|seed|glm|hermes|auto)
		# N errors, each at its opening: a line each, or all on line 1
		awk -v f="$3" -v n="$2" -v len="$(unit_len "$1")" \
		    -v m="truncated tool call: $(cut_short "$1")" \
		    -v nl="$([ "$1" != tool-nl ] || echo 1)" 'BEGIN {
			for (i = 0; i < n; i++)
				printf "%s:%d:%d: error: %s\n", f,
				    nl ? i + 1 : 1, nl ? 1 : 1 + i * len, m
		}' >"$tmp/want"
		[ "$st" -eq 1 ] && [ "$(cat "$tmp/out")" = "$call" ] &&
		    cmp -s "$tmp/err" "$tmp/want" ||
		    fail "$1 $2: status $st, $(head -c 200 "$tmp/err")"
		;;
	harmony-*|ds-*|kimi*|mistral|llama3|pythonic|auto-new)
		[ "$st" -le 1 ] && { [ ! -s "$tmp/out" ] ||
		    [ "$(cat "$tmp/out")" = "$call" ]; } ||
		    fail "$1 $2: status $st, $(head -c 200 "$tmp/err")"
		;;
	auto-ws)
		[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] &&
		    [ "$(cat "$tmp/out")" = "$call" ] ||
		    fail "$1 $2: status $st, $(head -c 200 "$tmp/err")"
		;;
	dense)
		[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] &&
		    [ "$(wc -l <"$tmp/out")" -eq "$2" ] &&
		    [ "$(sort -u "$tmp/out")" = "$call" ] ||
		    fail "dense $2: status $st, $(wc -l <"$tmp/out") calls"
		;;
	attribute)
		[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$(cat "$tmp/out")" = \
		    '{"server_name":"local","tool_name":"x","arguments":{"a":1}}' ] ||
		    fail "attribute $2: status $st, $(head -c 200 "$tmp/err")"
		;;
	qwen3-bound)
		[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] &&
		    [ "$(wc -l <"$tmp/out")" -eq 1 ] &&
		    [ "$(wc -c <"$tmp/out")" -eq $((67 + 28 * $2)) ] ||
		    fail "qwen3-bound $2: status $st, $(head -c 200 "$tmp/err")"
		;;
	comment)
		[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] &&
		    [ "$(cat "$tmp/out")" = "$call" ] ||
		    fail "comment $2: status $st, $(head -c 200 "$tmp/err")"
		;;
	open-a)
		[ "$st" -eq 1 ] && [ "$(cat "$tmp/out")" = "$call" ] &&
		    [ "$(cat "$tmp/err")" = "$3:1:12324: error: malformed tool call: elements nested deeper than 4096" ] ||
		    fail "open-a $2: status $st, $(head -c 200 "$tmp/err")"
		;;
	esac
}

# scale CASE BASE: the case at BASE, 2, 4 and 8 times BASE.
scale() {
	c=$1 base=$2
	out="$c:" mem="$c peak RSS:" prev=
	for k in 1 2 4 8; do
		n=$((base * k))
		f=$tmp/$c-$k
		gen "$c" "$n" "$f"
		check "$c" "$n" "$f"
		# open-a and the openings exit 1 by design: sh makes that 0
		# shellcheck disable=SC2046
		line=$("$bench/measure" -n 3 -- sh -c '"$@" >/dev/null 2>&1;
		    [ $? -le 1 ]' sh "$tp" $(opts "$c") "$f") ||
		    fail "$c $n: the timed run failed"
		scale_time "$k" "$line"
		if [ "$c" = open-a ]; then
			# the peak of sh and toolcall-parse: that of the latter
			kb=$(printf '%s\n' "$line" |
			    sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p')
			[ -n "$kb" ] || fail "$c $n: no maxrss_kb in: $line"
			mem="$mem$(awk -v kb="$kb" -v b="$(wc -c <"$f")" -v k="$k" \
			    'BEGIN { printf "%s %dx %.1f MB for %.1f MB (%.2f)",
			    (k > 1 ? "," : ""), k, kb * 1024 / 1e6, b / 1e6,
			    kb * 1024 / b }')"
		fi
		rm -f "$f"
	done
	echo "$out"
	[ "$c" != open-a ] || echo "$mem"
}

scale dense 50000
scale attribute 4000000
scale comment 4000000
scale open-a 1000000
scale tool-nl 74898
scale tool 87381
scale invoke 65536
scale function 43690
scale qwen3-tc 47662
scale seed 32768
scale glm 47662
scale hermes 47662
scale auto 14169
scale auto-ws 4194304
scale harmony-ch 47662
scale harmony-st 58254
scale ds-call 27594
scale ds-calls 26214
scale kimi 27594
scale kimi-sec 18724
scale mistral 43690
scale llama3 37449
scale pythonic 32768
scale auto-new 3048
printf '%s\n' '[{"name": "w", "inputSchema": {"type": "object",' \
    '"properties": {"content": {"type": "string"}}}}]' >"$tmp/w.json"
scale qwen3-bound 100000
