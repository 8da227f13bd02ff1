# gen-batch.awk: writes n (-v n=N) JSON lines of seed 002's responses for
# the batch runs of t/batch.bats and t/bench/batch.sh, the same bytes for
# the same n: of every ten, seven valid (one with unicode and escapes),
# one invalid by its schema, one valid but critical (status 4) and one
# that is not JSON, so that every kind of verdict is in every chunk.
function resp(text, level, extra) {
	return "{\"type\":\"response\",\"safety\":{\"is_safe\":" \
	    (level == "null" ? "true" : "false") ",\"danger_level\":" level \
	    ",\"detected_concerns\":[],\"requires_intervention\":" \
	    (level == "null" ? "false" : "true") "},\"content\":" \
	    "{\"text_blocks\":[{\"type\":\"" extra "\",\"content\":\"" text \
	    "\"}]},\"metadata\":{\"model\":\"m\"}}"
}
BEGIN {
	for (i = 1; i <= n; i++) {
		k = i % 10
		if (k == 3)
			print resp("caf\\u00e9 \\\"" i "\\\" \xc3\xa9\\n", "null",
			    "text")
		else if (k == 7)
			print resp("answer " i, "null", "paragraph")
		else if (k == 8)
			print resp("call for help " i, "\"critical\"", "text")
		else if (k == 9)
			print "{\"type\":\"response\",\"content\":" i
		else
			print resp("answer " i, "null", "text")
	}
}
