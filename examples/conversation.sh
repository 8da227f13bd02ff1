#!/bin/sh
# conversation.sh [DIR]: a conversation of three turns that has a memory.
#
# Each turn takes the topic's context from the store (llmstore context),
# puts the question and that context into a query (llmq-encode --context),
# asks the model, checks its answer (llmr-validate) and stores the question
# and the answer together (llmstore put --batch), so that the next query
# carries the subjects and keywords of the answers before it.
#
# t/fake-model stands in for the model: it answers call N with
# examples/conversation/reply.N.xml, and keeps the query it was given as
# DIR/model/prompt.N. With a real client, put it in place of the fake one,
# as in: some-llm-cli --system "$(llmstore prompt get -M model)".
#
# DIR, which must not exist yet, keeps the store (DIR/llmstore.db), the
# queries and answers and the model's files; without it they go to a
# temporary directory, removed at the end. The tools are those in
# $LLMKIT_BIN, else in bin/ of this tree (run make first).
#
# LLMSTORE_NOW fixes the store's clock, to 09:00 UTC on 5 January 2026 and
# five minutes more for each turn, so that every run prints the same
# hashes; a real loop leaves it out. The status is 0 only when every step
# worked.

topic=family-planning-2025

fail() {
	printf 'conversation.sh: %s\n' "$*" >&2
	exit 1
}

if [ $# -gt 1 ]; then
	echo 'usage: conversation.sh [DIR]' >&2
	exit 2
fi
bin=${LLMKIT_BIN:-$(dirname "$0")/../bin}
bin=$(cd "$bin" && pwd) || exit 3
top=$(cd "$(dirname "$0")/.." && pwd) || exit 3
if [ $# -eq 1 ]; then
	mkdir "$1" || exit 3
	d=$(cd "$1" && pwd) || exit 3
else
	d=$(mktemp -d "${TMPDIR:-/tmp}/conversation.XXXXXX") || exit 3
	trap 'rm -rf "$d"' EXIT
	trap 'exit 130' INT TERM
fi
PATH=$bin:$PATH
mkdir "$d/model" || exit 3
for n in 1 2 3; do
	cp "$top/examples/conversation/reply.$n.xml" "$d/model/reply.$n" || exit 3
done
cd "$d" || exit 3

n=0
while IFS= read -r question; do
	n=$((n + 1))
	export LLMSTORE_NOW=$((1767603600000 + (n - 1) * 300000))
	printf '== turn %s\n' "$n"

	llmstore context "$topic" >context.json ||
		fail "turn $n: llmstore context failed"
	llmq-encode --context context.json "$question" >q$n.xml ||
		fail "turn $n: llmq-encode failed"
	cat q$n.xml

	"$top/t/fake-model" model <q$n.xml >r$n.xml ||
		fail "turn $n: the model failed"
	llmr-validate r$n.xml ||
		fail "turn $n: the answer breaks the contract"
	printf 'answer: %s...\n' \
	    "$(llmr-validate -o text r$n.xml | fold -s -w 56 | head -n 1)"

	llmstore put --batch -t "$topic" q$n.xml r$n.xml ||
		fail "turn $n: llmstore put failed"
done <"$top/examples/conversation/questions.txt"

printf '== the context of the next turn\n'
llmstore context "$topic" || fail 'llmstore context failed'
