#!/usr/bin/env python3
# The oracle of lib/pylit: Python's own ast.literal_eval and json.dumps.
# Reads records of "LENGTH\nBYTES\n" from the file named by the first
# argument and writes, for each, one JSON line: {"ok": VALUE} with the
# value as pylit must give it, or {"refuse": WHY} when pylit must refuse
# the text. pylit's rules, over what json.dumps does:
# - an int beyond 64 bits is a string of its digits;
# - a float Python reads as inf, bytes, a complex number, Ellipsis, a
#   tuple key, a string with half a surrogate pair: refused;
# - a dict with a key twice (equal in Python, or the same JSON key),
#   or a key with a NUL character: refused;
# - a set is {"pylit-oracle-set": [ITEMS]}, its items in Python's order
#   (pylit keeps the order written: the test compares them as a bag).
import ast
import json
import math
import sys
import warnings

SET = "pylit-oracle-set"


class Refuse(Exception):
    pass


def text(s):
    # json.dumps writes a surrogate pair as two escapes, which a JSON
    # reader joins; a half alone stays, and UTF-8 cannot hold it
    s = json.loads(json.dumps(s))
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise Refuse("surrogate")
    return s


def key(k):
    if isinstance(k, float) and math.isinf(k):
        raise Refuse("inf")
    try:
        kt = next(iter(json.loads(json.dumps({k: 0}))))
    except (TypeError, ValueError):
        raise Refuse("key")
    if "\0" in kt:
        raise Refuse("NUL in a key")    # jansson holds none
    return text(kt)


def conv(v):
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, int):
        if -2**63 <= v < 2**63:
            return v
        try:
            return str(v)
        except ValueError:
            raise Refuse("digits")
    if isinstance(v, float):
        if math.isinf(v):
            raise Refuse("inf")
        return v
    if isinstance(v, str):
        return text(v)
    if isinstance(v, (list, tuple)):
        return [conv(x) for x in v]
    if isinstance(v, (set, frozenset)):
        return {SET: [conv(x) for x in v]}
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            kt = key(k)
            if kt in out:
                raise Refuse("same JSON key")
            out[kt] = conv(x)
        return out
    raise Refuse(type(v).__name__)


def keys_once(tree):
    # Python keeps the last of two equal keys; pylit refuses them
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = [ast.literal_eval(k) for k in node.keys]
            if len(set(keys)) != len(keys):
                raise Refuse("key twice")


def verdict(raw):
    try:
        src = raw.decode("utf-8")
    except UnicodeDecodeError:
        return {"refuse": "utf8"}
    try:
        v = ast.literal_eval(src)
        keys_once(ast.parse(src.lstrip(" \t"), mode="eval"))
        return {"ok": conv(v)}
    except Refuse as e:
        return {"refuse": str(e)}
    except (SyntaxError, ValueError, TypeError, MemoryError,
            RecursionError) as e:
        return {"refuse": type(e).__name__}


def main():
    warnings.simplefilter("ignore")
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    i = 0
    out = sys.stdout
    while i < len(data):
        nl = data.index(b"\n", i)
        n = int(data[i:nl])
        raw = data[nl + 1:nl + 1 + n]
        i = nl + 1 + n + 1
        out.write(json.dumps(verdict(raw)) + "\n")


main()
