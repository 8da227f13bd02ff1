"""verdict.py SCHEMA JSONL: the oracle for jsonresp-check --lines.

For each non-blank line of JSONL (a model response), decides with the
jsonschema package's Draft7Validator, plus seed 002's rules that the
schema cannot state (unique form field ids, non-empty options for radio,
checkbox and select fields, numeric min below max for scale fields), and
prints one line per response that is not plainly valid:
  "LINE invalid"                 it breaks the schema or a seed rule
  "LINE warning|critical|emergency"  valid, with that danger level
Run it with Debian's python3 (/usr/bin/python3, package python3-jsonschema).
"""
import json
import sys

import jsonschema


def seed_ok(doc):
    """Seed 002's rules on a schema-valid response."""
    form = doc["content"].get("form")
    if not isinstance(form, dict):
        return True
    seen = set()
    for f in form["fields"]:
        if f["id"] in seen:
            return False
        seen.add(f["id"])
        if f["type"] in ("radio", "checkbox", "select") and not f.get("options"):
            return False
        if f["type"] == "scale":
            if "min" not in f or "max" not in f or not f["min"] < f["max"]:
                return False
    return True


def main():
    with open(sys.argv[1], encoding="utf-8") as fp:
        validator = jsonschema.Draft7Validator(json.load(fp))
    with open(sys.argv[2], encoding="utf-8") as fp:
        lines = fp.read().split("\n")
    for n, line in enumerate(lines, 1):
        if line.strip(" \t\r") == "":
            continue
        doc = json.loads(line)
        if not validator.is_valid(doc) or not seed_ok(doc):
            print(n, "invalid")
        elif doc["safety"]["danger_level"] is not None:
            print(n, doc["safety"]["danger_level"])


main()
