#!/bin/sh
# t/bench/jsonresp-check.sh: the benchmark of jsonresp-check (issue 5). It
# generates valid responses of about 2 KB (gen-jsonresp.js), checks that
# jsonresp-check, a bare jansson parse and ajv all accept them (and that
# both validators reject a broken one), then times two uses:
#   files  one process per response, over 200 files, as a Makefile would
#          run it: jsonresp-check FILE beside node ajv-check.js SCHEMA FILE
#   lines  10,000 responses as JSON lines in one call: jsonresp-check
#          --lines beside jansson-parse (json_loadb of each line, the
#          floor) and ajv-check.js --lines (ajv compiled once, JSON.parse
#          and validate per line, in one node process)
#   plans  10,000 plans of work as JSON lines (gen-plan.js), trees of tasks
#          under a 2020-12 schema with $ref, $dynamicRef and
#          unevaluatedProperties (plan-2020.schema.json), about one in ten
#          invalid: jsonresp-check --schema --lines beside ajv-check.js
#          --lines with Ajv2020, and jsonresp-check on the same schema
#          written in Draft-07 (plan-07.schema.json)
# and prints documents per second and the ratios the issues ask for.
# Times are reported, never judged; a failing command or a wrong verdict
# (on the plans: a program that does not refuse exactly the lines
# gen-plan.js spoiled) fails the run.
#
# ajv 8 comes from npm, installed once into $LLMKIT_BENCH/npm (or
# $BENCH_NPM_DIR). When npm cannot fetch it, the run says so and goes on
# without the ajv rows.
#
# Environment: LLMKIT_BIN (the tools), LLMKIT_BENCH (measure and
# jansson-parse), LLMKIT_BENCH_DATA (where the inputs are kept and reused,
# default $LLMKIT_BENCH/data), BENCH_JR_RUNS (5, the lines runs),
# BENCH_JR_FILES_RUNS (3, the files runs), BENCH_JR_PLAN_RUNS (5, the
# plans runs), BENCH_NPM_DIR.

set -u

top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
bin=${LLMKIT_BIN:-$top/bin}
bench=${LLMKIT_BENCH:-$top/obj/std/bench}
data=${LLMKIT_BENCH_DATA:-$bench/data}
npm_dir=${BENCH_NPM_DIR:-$bench/npm}
runs=${BENCH_JR_RUNS:-5}
files_runs=${BENCH_JR_FILES_RUNS:-3}
plan_runs=${BENCH_JR_PLAN_RUNS:-5}
gen=$top/t/bench/gen-jsonresp.js
gen_plan=$top/t/bench/gen-plan.js
plan20=$top/t/bench/plan-2020.schema.json
plan07=$top/t/bench/plan-07.schema.json
ajvjs=$top/t/bench/ajv-check.js
jr=$bin/jsonresp-check
d=$data/jsonresp
dp=$data/jsonresp-plan
nfiles=200
nlines=10000
nplans=10000

fail() {
	echo "bench: $*" >&2
	exit 1
}

for f in "$jr" "$bench/measure" "$bench/jansson-parse"; do
	[ -x "$f" ] || fail "$f: not built (run make bench)"
done
command -v node >/dev/null 2>&1 ||
	fail "node not found (Debian package nodejs): it writes the inputs"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/llmkit-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# ajv 8, once. Without it the ajv rows are left out, and said to be.
ajv=1
if [ ! -f "$npm_dir/node_modules/ajv/package.json" ]; then
	echo "bench: installing ajv@8 into $npm_dir"
	mkdir -p "$npm_dir" &&
	    npm install --prefix "$npm_dir" --no-audit --no-fund \
	    ajv@8 >"$tmp/npm.log" 2>&1 ||
		ajv=0
fi
if [ "$ajv" = 1 ]; then
	ajv_version=$(node -p 'require(process.argv[1]).version' \
	    "$npm_dir/node_modules/ajv/package.json" 2>/dev/null) || ajv=0
	case ${ajv_version:-} in
	8.*) ;;
	*) ajv=0 ;;
	esac
fi
if [ "$ajv" = 0 ]; then
	echo "bench: WARNING: npm could not fetch ajv@8 into $npm_dir: the" \
	    "ajv comparisons are SKIPPED" >&2
	[ ! -s "$tmp/npm.log" ] || sed 's/^/bench: npm: /' "$tmp/npm.log" |
	    tail -n 5 >&2
fi
NODE_PATH=$npm_dir/node_modules
export NODE_PATH

# generate DIR GEN ARG...: node GEN DIR ARG... writes DIR anew, unless
# DIR/.done is newer than GEN and this script.
generate() {
	gdir=$1
	g=$2
	shift 2
	[ -f "$gdir/.done" ] &&
	    [ -z "$(find "$g" "$0" -newer "$gdir/.done" 2>/dev/null)" ] &&
	    return
	echo "bench: generating $gdir"
	rm -rf "$gdir"
	node "$g" "$gdir" "$@" || fail "${g##*/} failed"
	: >"$gdir/.done"
}
# data/jsonresp: r00000.json ... and lines.jsonl
generate "$d" "$gen" "$nfiles" "$nlines" 2000 1
# data/jsonresp-plan: plan.jsonl and invalid
generate "$dp" "$gen_plan" "$nplans" 1
files=$(cd "$d" && ls r*.json) || exit 1
[ "$(echo "$files" | wc -l)" -eq "$nfiles" ] ||
	fail "$d: not $nfiles responses"

# The schema ajv gets is the one jsonresp-check uses.
"$jr" --print-schema >"$tmp/schema.json" ||
	fail "jsonresp-check --print-schema failed"

# Is what we time right? Every response valid, without a diagnostic, for
# each program; and a broken one refused by both validators.
cd "$d" || exit 1
# shellcheck disable=SC2086
"$jr" $files 2>"$tmp/err" ||
	fail "jsonresp-check rejects a generated response: $(head -n 3 "$tmp/err")"
[ ! -s "$tmp/err" ] ||
	fail "jsonresp-check warns about a generated response: $(head -n 3 "$tmp/err")"
"$jr" --lines lines.jsonl 2>"$tmp/err" ||
	fail "jsonresp-check --lines rejects a generated line: $(head -n 3 "$tmp/err")"
[ ! -s "$tmp/err" ] ||
	fail "jsonresp-check --lines warns: $(head -n 3 "$tmp/err")"
got=$("$bench/jansson-parse" lines.jsonl) ||
	fail "jansson-parse cannot read lines.jsonl"
[ "$got" = "$nlines documents" ] ||
	fail "jansson-parse read \"$got\", not $nlines documents"
sed 's/"type": "response"/"type": "answer"/' r00000.json >"$tmp/broken.json"
"$jr" -q "$tmp/broken.json"
[ $? -eq 1 ] || fail "jsonresp-check does not reject a broken response"
if [ "$ajv" = 1 ]; then
	node "$ajvjs" --lines "$tmp/schema.json" lines.jsonl 2>"$tmp/err" ||
		fail "ajv rejects a generated line: $(head -n 3 "$tmp/err")"
	node "$ajvjs" "$tmp/schema.json" r00000.json ||
		fail "ajv rejects r00000.json"
	node "$ajvjs" "$tmp/schema.json" "$tmp/broken.json" 2>/dev/null
	[ $? -eq 1 ] || fail "ajv does not reject a broken response"
fi

# The plans: each program must refuse exactly the lines that gen-plan.js
# spoiled, no more, no fewer, and exit 1.
# plan_agree WHO SED: fails unless the line numbers that SED takes from
# the diagnostics in $tmp/err are those of "invalid".
plan_agree() {
	sed -n "$2" "$tmp/err" | sort -nu >"$tmp/got"
	cmp -s "$tmp/got" "$tmp/plan.want" && return
	fail "$1 refuses $(wc -l <"$tmp/got" | tr -d ' ') plans, not the" \
	    "$(wc -l <"$tmp/plan.want" | tr -d ' ') that gen-plan.js spoiled:" \
	    "$(diff "$tmp/plan.want" "$tmp/got" | awk '
		NR == FNR { fault[$1] = $2; next }
		/^</ { printf "line %d (%s) accepted; ", $2, fault[$2] }
		/^>/ { printf "line %d (valid) refused; ", $2 }' invalid - |
		head -c 300 | sed 's/; $//')"
}
cd "$dp" || exit 1
awk '{ print $1 }' invalid >"$tmp/plan.want"
for s in "$plan20" "$plan07"; do
	"$jr" --schema "$s" --lines plan.jsonl 2>"$tmp/err"
	st=$?
	[ "$st" -eq 1 ] ||
		fail "jsonresp-check --schema ${s##*/}: status $st, not 1:" \
		    "$(head -n 3 "$tmp/err")"
	plan_agree "jsonresp-check --schema ${s##*/}" \
	    's/^plan\.jsonl:\([0-9]*\):[0-9]*: error: .*/\1/p'
done
if [ "$ajv" = 1 ]; then
	node "$ajvjs" --lines "$plan20" plan.jsonl 2>"$tmp/err"
	st=$?
	[ "$st" -eq 1 ] ||
		fail "ajv on ${plan20##*/}: status $st, not 1:" \
		    "$(head -n 3 "$tmp/err")"
	plan_agree "ajv on ${plan20##*/}" 's/^plan\.jsonl:\([0-9]*\): .*/\1/p'
fi
cd "$d" || exit 1

# shellcheck disable=SC2086
{
	echo "size files=$nfiles lines=$nlines" \
	    "bytes=$(wc -c <lines.jsonl | tr -d ' ')" \
	    "fbytes=$(cat $files | wc -c | tr -d ' ')" \
	    "ajv=${ajv_version:-none}" "plans=$nplans" \
	    "pbytes=$(wc -c <"$dp/plan.jsonl" | tr -d ' ')" \
	    "pinvalid=$(wc -l <"$tmp/plan.want" | tr -d ' ')"
} >"$tmp/results"

# measure LABEL [-x STATUS] CMD...: one timed run, appended to the
# results as "LABEL runs=1 median=... min=... cpu=... maxrss_kb=...".
# measure fails when the command does not exit STATUS (0 by default):
# here, a response refused, or a plan's verdict changed. The command's
# diagnostics go to a file, and its last lines into the failure.
measure() {
	label=$1
	shift
	x=0
	if [ "$1" = -x ]; then
		x=$2
		shift 2
	fi
	line=$("$bench/measure" -n 1 -x "$x" -- "$@" 2>"$tmp/merr") ||
		fail "$label failed: $(tail -n 3 "$tmp/merr")"
	echo "$label $line" >>"$tmp/results"
}

# One process per file, as make would start them (a shell, then the tool).
echo "bench: timing one process per response, $nfiles files" \
    "($files_runs runs each)"
i=0
while [ "$i" -lt "$files_runs" ]; do
	# shellcheck disable=SC2016,SC2086
	measure files-jr sh -c 'for f; do "$0" "$f" || exit 1; done' "$jr" \
	    $files
	if [ "$ajv" = 1 ]; then
		# shellcheck disable=SC2016,SC2086
		measure files-ajv sh -c 's=$1; shift; for f; do
		    node "$0" "$s" "$f" || exit 1; done' "$ajvjs" \
		    "$tmp/schema.json" $files
	fi
	i=$((i + 1))
done
echo "bench: timing $nlines responses as JSON lines in one call" \
    "($runs runs each)"
i=0
while [ "$i" -lt "$runs" ]; do
	measure lines-jr "$jr" --lines lines.jsonl
	measure lines-jansson "$bench/jansson-parse" lines.jsonl
	[ "$ajv" = 0 ] ||
		measure lines-ajv node "$ajvjs" --lines "$tmp/schema.json" \
		    lines.jsonl
	i=$((i + 1))
done
echo "bench: timing $nplans plans under a 2020-12 schema in one call" \
    "($plan_runs runs each)"
i=0
while [ "$i" -lt "$plan_runs" ]; do
	measure plan-jr -x 1 "$jr" --schema "$plan20" --lines "$dp/plan.jsonl"
	measure plan-jr07 -x 1 "$jr" --schema "$plan07" --lines \
	    "$dp/plan.jsonl"
	[ "$ajv" = 0 ] ||
		measure plan-ajv -x 1 node "$ajvjs" --lines "$plan20" \
		    "$dp/plan.jsonl"
	i=$((i + 1))
done

# The tables. A ratio is given three ways: of the median wall times, of
# the fastest runs [in brackets], and of the median CPU times {in braces},
# which other work on the machine disturbs least.
cat >"$tmp/report.awk" <<'AWK'
function tm(t) {
	return t < 1 ? sprintf("%8.2f ms", t * 1000) : sprintf("%8.3f s ", t)
}
function row(label, k, docs) {
	if (!(k in med)) {
		printf "  %-34s  (skipped: no ajv)\n", label
		return
	}
	printf "  %-34s %s %s %s %7.1f MB %10.0f\n", label, tm(med[k]),
	    tm(min[k]), tm(cpu[k]), rss[k] / 1e6, docs / med[k]
}
function ratio(what, a, b, target) {
	if (!(a in med) || !(b in med)) {
		printf "  %-52s (skipped: no ajv)  %s\n", what, target
		return
	}
	printf "  %-52s %7.2fx [%6.2fx] {%6.2fx}  %s\n", what,
	    med[a] / med[b], min[a] / min[b], cpu[a] / cpu[b], target
}
{
	kv($0, 2)
	if ($1 == "size") {
		nf = f["files"]; nl = f["lines"]; bytes = f["bytes"]
		fbytes = f["fbytes"]; ver = f["ajv"]; np = f["plans"]
		pbytes = f["pbytes"]; pbad = f["pinvalid"]
		next
	}
	runs[substr($1, 1, index($1, "-") - 1)] = record($1)
}
END {
	summarize()
	hdr = sprintf("  %-34s %11s %11s %11s %10s %10s", "", "median",
	    "fastest", "median CPU", "peak RSS", "docs/s")
	printf "\none process per response: %d files, %.2f MB, %d runs each\n",
	    nf, fbytes / 1e6, runs["files"]
	print hdr
	row("jsonresp-check FILE", "files-jr", nf)
	row("node ajv-check.js (ajv " ver ")", "files-ajv", nf)
	printf "\n%d responses as JSON lines, %.2f MB, in one call, %d runs" \
	    " each\n", nl, bytes / 1e6, runs["lines"]
	print hdr
	row("jsonresp-check --lines", "lines-jr", nl)
	row("jansson-parse (json_loadb/line)", "lines-jansson", nl)
	row("node ajv-check.js --lines", "lines-ajv", nl)
	printf "\n%d plans under a 2020-12 schema, %.2f MB (%d invalid), in" \
	    " one call, %d runs each\n", np, pbytes / 1e6, pbad, runs["plan"]
	print hdr
	row("jsonresp-check --schema --lines", "plan-jr", np)
	row("the same, schema in Draft-07", "plan-jr07", np)
	row("node ajv-check.js --lines (2020)", "plan-ajv", np)
	print "\nratios: median wall time [fastest run] {median CPU time}"
	ratio("ajv / jsonresp-check, one process per file:", "files-ajv",
	    "files-jr", "target >= 150x")
	ratio("jsonresp-check --lines / jansson parse:", "lines-jr",
	    "lines-jansson", "target <= 0.8x")
	ratio("jsonresp-check --lines / ajv in one node process:",
	    "lines-jr", "lines-ajv", "target <= 0.6x")
	ratio("2020-12 plans: jsonresp-check / ajv (Ajv2020):", "plan-jr",
	    "plan-ajv", "target <= 1x")
	ratio("2020-12 plans: 2020-12 / the same in Draft-07:", "plan-jr",
	    "plan-jr07", "reported")
}
AWK
awk -f "$top/t/bench/stats.awk" -f "$tmp/report.awk" "$tmp/results" ||
	fail "cannot print the results"
