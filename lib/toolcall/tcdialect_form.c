/*
 * tcdialect_form: how the calls of each dialect stand in a stream, as
 * data a streaming reader can follow without knowing any dialect (the
 * meaning of each field is in lib/tcdialect.h), and the end of a JSON
 * value found across reads, for the calls that end with theirs.
 *
 * Decisions the table makes where models and reference parsers differ:
 * a deepseek or kimi call's begin markup outside its section opens a
 * call alone (SGLang's streaming reader takes it so); a section cut by
 * the end of input after whole calls keeps them, with a warning; llama3's
 * bare JSON is a call only where the output begins with it (vLLM's
 * streaming reading: its whole-text reading takes any "{" in prose,
 * which a streaming filter cannot), and only where a key's quote follows
 * it, so that prose in braces stays prose; its calls are separated by
 * ";" or white space alone (a newline, as vLLM's tests have it);
 * <|eom_id|> and <|eot_id|> end them. pythonic's bare list, as llama3's
 * bare JSON, is a call only where the output begins with it (vLLM's
 * pythonic parsers read nothing else), and only where a name and "("
 * follow its "[" (a Markdown link or a list of numbers is prose); after
 * <|python_start|> (Llama 4) a list may stand anywhere, <|python_end|>
 * ending it.
 */
#include <stddef.h>

#include "toolcall/tcdialect.h"

#define BAR		"\xef\xbd\x9c"	/* U+FF5C */
#define LOW		"\xe2\x96\x81"	/* U+2581 */
#define DS_CALLS_BEGIN	"<" BAR "tool" LOW "calls" LOW "begin" BAR ">"
#define DS_CALLS_END	"<" BAR "tool" LOW "calls" LOW "end" BAR ">"
#define DS_BEGIN	"<" BAR "tool" LOW "call" LOW "begin" BAR ">"
#define DS_END		"<" BAR "tool" LOW "call" LOW "end" BAR ">"

#define HARMONY_END	{ "<|call|>", "<|end|>", "<|return|>", NULL }
#define KIMI_ENDS	{ "<|tool_calls_section_end|>", \
			  "<|tool_call_section_end|>", NULL }
#define LLAMA3_ENDS	{ "<|eom_id|>", "<|eot_id|>", NULL }

static const struct tcd_form forms[] = {
	/* "<tool_call>": qwen3, hermes or glm, as the next bytes say */
	{ "<tool_call>", TCD_QWEN3, "<function=", 0, NULL,
	    { "</tool_call>", NULL }, "</function>", 0, { NULL }, NULL },
	{ "<tool_call>", TCD_HERMES, "{", TCD_F_STRINGS, NULL,
	    { "</tool_call>", NULL }, NULL, 0, { NULL }, "</tool_call>" },
	{ "<tool_call>", TCD_GLM, NULL, 0, NULL,
	    { "</tool_call>", NULL }, NULL, 0, { NULL }, NULL },
	{ "<seed:tool_call>", TCD_QWEN3, NULL, 0, NULL,
	    { "</seed:tool_call>", NULL }, "</function>", 0, { NULL }, NULL },
	{ "<function=", TCD_QWEN3, NULL, 0, NULL,
	    { "</function>", NULL }, NULL, 0, { NULL }, NULL },
	{ "<invoke ", TCD_INVOKE, NULL, 0, NULL,
	    { "</invoke>", NULL }, NULL, 0, { NULL }, NULL },
	/* harmony: every message; its head says what it is */
	{ "<|start|>", TCD_HARMONY, NULL, TCD_F_HEAD | TCD_F_STRINGS, NULL,
	    HARMONY_END, NULL, 0, { NULL }, "<|call|>" },
	{ "<|channel|>", TCD_HARMONY, NULL, TCD_F_HEAD | TCD_F_STRINGS, NULL,
	    HARMONY_END, NULL, 0, { NULL }, "<|call|>" },
	/* deepseek: a section of calls, or a call alone */
	{ DS_CALLS_BEGIN, TCD_DEEPSEEK, NULL, TCD_F_SECTION | TCD_F_STRINGS,
	    DS_BEGIN, { DS_END, NULL }, NULL, 0, { DS_CALLS_END, NULL },
	    DS_CALLS_END },
	{ DS_BEGIN, TCD_DEEPSEEK, NULL, TCD_F_STRINGS, NULL,
	    { DS_END, NULL }, NULL, 0, { NULL }, NULL },
	/* mistral: a list of calls, or one call by name */
	{ "[TOOL_CALLS]", TCD_MISTRAL, "[", TCD_F_SECTION | TCD_F_NEEDSEP,
	    NULL, { NULL }, NULL, ',', { "]", NULL }, "]" },
	{ "[TOOL_CALLS]", TCD_MISTRAL, NULL, 0, NULL,
	    { NULL }, NULL, 0, { NULL }, NULL },
	/* llama3: JSON calls after <|python_tag|>, or opening the output */
	{ "<|python_tag|>", TCD_LLAMA3, NULL, TCD_F_SECTION | TCD_F_OPENEND,
	    NULL, { NULL }, NULL, ';', LLAMA3_ENDS, NULL },
	{ "{", TCD_LLAMA3, "\"", TCD_F_SECTION | TCD_F_OPENEND |
	    TCD_F_START | TCD_F_FIRST | TCD_F_PEEK,
	    NULL, { NULL }, NULL, ';', LLAMA3_ENDS, NULL },
	/* kimi: a section of calls (its begin also singular), or one */
	{ "<|tool_calls_section_begin|>", TCD_KIMI, NULL,
	    TCD_F_SECTION | TCD_F_STRINGS, "<|tool_call_begin|>",
	    { "<|tool_call_end|>", NULL }, NULL, 0, KIMI_ENDS,
	    "<|tool_calls_section_end|>" },
	{ "<|tool_call_section_begin|>", TCD_KIMI, NULL,
	    TCD_F_SECTION | TCD_F_STRINGS, "<|tool_call_begin|>",
	    { "<|tool_call_end|>", NULL }, NULL, 0, KIMI_ENDS,
	    "<|tool_calls_section_end|>" },
	{ "<|tool_call_begin|>", TCD_KIMI, NULL, TCD_F_STRINGS, NULL,
	    { "<|tool_call_end|>", NULL }, NULL, 0, { NULL }, NULL },
	/* pythonic: a list of calls opening the output, or Llama 4's */
	{ "[", TCD_PYTHONIC, NULL, TCD_F_SECTION | TCD_F_OPENEND |
	    TCD_F_START | TCD_F_FIRST | TCD_F_LIST,
	    NULL, { NULL }, NULL, 0, { NULL }, NULL },
	{ "<|python_start|>", TCD_PYTHONIC, NULL, TCD_F_SECTION |
	    TCD_F_OPENEND | TCD_F_LIST,
	    NULL, { NULL }, NULL, 0, { "<|python_end|>", NULL }, NULL },
};

const struct tcd_form *
tcd_forms(size_t *n)
{
	*n = sizeof(forms) / sizeof(forms[0]);
	return forms;
}

/* The first byte in [p, n) of s that is c or d, or n. */
static size_t
either(const char *s, size_t p, size_t n, char c, char d)
{
	while (p < n && s[p] != c && s[p] != d)
		p++;
	return p;
}

size_t
tcd_jscan(struct tcd_jscan *js, const char *s, size_t n)
{
	size_t i = 0;

	if (!js->began) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
		    s[i] == '\r'))
			i++;
		if (i == n)
			return (size_t)-1;
		js->began = 1;
		if (s[i] != '{' && s[i] != '[')
			return i + 1;
		js->depth = 1;
		i++;
	}
	for (; i < n; i++) {
		if (js->esc) {
			js->esc = 0;
			continue;
		}
		if (js->str) {
			if ((i = either(s, i, n, '"', '\\')) == n)
				break;
			if (s[i] == '\\')
				js->esc = 1;
			else
				js->str = 0;
			continue;
		}
		switch (s[i]) {
		case '"':
			js->str = 1;
			break;
		case '{':
		case '[':
			js->depth++;
			break;
		case '}':
		case ']':
			if (--js->depth == 0)
				return i + 1;
			break;
		}
	}
	return (size_t)-1;
}
