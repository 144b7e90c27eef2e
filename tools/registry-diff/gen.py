#!/usr/bin/env python3
"""Differential cases for cicheck's registry scanner, judged by CPython.

  python3 tools/registry-diff/gen.py [N_PER_CLASS] [SEED] > testregistry/testdata/differential.json

(from the repository root; N_PER_CLASS = 400, SEED = 14). Each case is a
real-looking test file (one of the seed files of fixtures/registry-miles and
testregistry/testdata/crosscheck) with one generated edit: a snippet from
one class of syntax that Python's parser treats specially (string escapes,
bytes, parameter order, f-strings, decorators, a BOM, a NUL byte, number
literals, Python 2 statements, indentation, assignment targets, dict
displays, backticks, grammar newer than 3.11), a random character-level
mutation, or a line-level (delete, duplicate, swap, indent, dedent, join)
or token-level (delete, duplicate, swap, insert, substitute, truncate)
mutation, the edits a typo or a bad merge leaves. The oracle is the running python3: the reference collector's
ast.parse and evaluation (bench/registry/collect.py's collect_file). The
output holds the seed files once and each case as an edit of one of them,
so the Go test (testregistry/differential_test.go) rebuilds every file and
never needs Python. With REGISTRY_PYTHON pointing to a python3, that test
runs this oracle live instead.

  python3 tools/registry-diff/gen.py --oracle < cases.json   (used by the live test)
reads {"python": ..., "cases": [{"file", "src"}]} and prints the verdicts.
"""
import ast
import io
import warnings
import json
import os
import random
import sys
import tokenize

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench/registry"))
import collect  # noqa: E402

SEEDS = ["fixtures/registry-miles", "testregistry/testdata/crosscheck"]
KNOWN = None  # loaded from the cross-check corpus's labels.py


def verdict(f, src):
    """The reference's view of one file, as sorted strings."""
    regs, ce, fe = collect.collect_file(f, src, KNOWN)
    out = []
    for g in regs:
        out.append("reg %d:%d %s %s %r %s %s %s %s" % (g["line"], g["col"], g["func"], g["backend"], float(g["est_time"]),
                                                     json.dumps(g["suite"]), json.dumps(g["labels"]), g["nightly"],
                                                     json.dumps(g["disabled"])))
    for e in ce:
        out.append("call %d:%d %s" % (e["line"], e["col"], e["message"]))
    for e in fe:
        out.append("file %d %s" % (e["line"], e["message"]))
    return sorted(out)


def load_seeds():
    bases = {}
    for seed in SEEDS:
        for d, _, fs in sorted(os.walk(os.path.join(ROOT, seed, "tests"))):
            for f in sorted(fs):
                if not (f.startswith("test_") and f.endswith(".py")):
                    continue
                p = os.path.join(d, f)
                src = open(p, encoding="utf-8").read()
                try:
                    ast.parse(src)
                except SyntaxError:
                    continue  # mutants of a broken file say little
                if not src.isascii():
                    continue  # edits are byte offsets; ASCII keeps them str offsets too
                bases[os.path.relpath(p, os.path.join(ROOT, seed))] = src
    return bases


def rand_of(rng, alphabet, lo, hi):
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(lo, hi)))


def snip_escape(rng):
    esc = rng.choice([
        lambda: "\\x" + rand_of(rng, "0123456789abcdefgAF", 0, 3),
        lambda: "\\u" + rand_of(rng, "0123456789abcdefzD", 0, 5),
        lambda: "\\U" + rand_of(rng, "0123456789abcdefF", 0, 9),
        lambda: "\\N" + rng.choice(["", "{", "{}", "{BULLET}", "{BOGUS}", "{bullet}", "{LATIN SMALL LETTER A}", "{EM DASH", "{x}y"]),
        lambda: "\\" + rand_of(rng, "01234567", 1, 4),
        lambda: "\\" + rng.choice("abfnrtvq'\"\\ 9"),
    ])()
    prefix = rng.choice(["", "", "r", "b", "rb", "u", "f", "R", "B"])
    q = rng.choice(["'", '"', "'''"])
    body = rand_of(rng, "ab ", 0, 2) + esc + rand_of(rng, "xy{}", 0, 2)
    if "f" in prefix:
        body = body.replace("{", "{{").replace("}", "}}")
    s = prefix + q + body + q
    return rng.choice([
        "x = %s\n" % s,
        "register_cuda_ci(est_time=60, suite=%s, labels=[\"megatron\"])\n" % s,
        "register_cpu_ci(1, \"stage-a-cpu\", disabled=%s)\n" % s,
        "y = %s %s\n" % (s, rng.choice(["'a'", "b'a'", "f'a'"])),
    ])


def snip_bytes(rng):
    ch = rng.choice(["é", "ü", "a", "\\xe9", "€", "z", "\\u00e9"])
    p = rng.choice(["b", "B", "rb", "br", "Rb", ""])
    q = rng.choice(["'", '"', '"""'])
    return "data = %s%s%s%s%s\n" % (p, q, rand_of(rng, "ab", 0, 2), ch, q)


def snip_params(rng):
    items = ["a", "b=1", "*args", "*", "**kw", "/", "c: int = 2", "d: str", "e=None", "*, f"]
    ps = []
    names = iter("pqrstuvwxyzabcdefghijklmno")
    for _ in range(rng.randint(1, 4)):
        it = rng.choice(items)
        name = next(names)
        ps.append(it.replace("a", name, 1) if it == "a" else it)
    if rng.random() < 0.5:
        return "def helper(%s):\n    return 1\n" % ", ".join(ps)
    ps = [p.split(":")[0] if ":" in p and "=" not in p else p.replace(": int", "").replace(": str", "") for p in ps]
    return "fn = lambda %s: 0\n" % ", ".join(ps)


def fstring(rng, depth):
    q = rng.choice(["'", '"', "'''", '"""'])
    if depth == 0:
        inner = rng.choice(["x", "1", "x!r", "x:>10", "x=", "x!x", "", "x:{y}", "x:{y:{z}}", "a b", "x #c", "'s'", "\\n",
                            "x!r:>{w}", "x, y", "{x}", "x if y else z", "lambda: 1", "(lambda: 1)", "x:=1", "(x:=1)", "*x"])
    else:
        inner = fstring(rng, depth - 1)
    pre = rng.choice(["f", "F", "rf", "fR"])
    return pre + q + rand_of(rng, "ab", 0, 1) + "{" + inner + "}" + q


def snip_fstring(rng):
    return "msg = %s\n" % fstring(rng, rng.choice([0, 0, 1, 2, 3, 4]))


def snip_decorator(rng):
    dec = rng.choice(["@pytest.fixture", "@dec", "@dec()", "@a.b", "@ dec", "@(x)", "@x[0]", "@x or y", "@", "@dec;"])
    nxt = rng.choice(["", "", "def f():\n    pass\n", "class C:\n    pass\n", "async def f():\n    pass\n", "x = 1\n", "\n",
                      "# comment\n", "@dec2\n", "@dec2\ndef g(): pass\n", "if x:\n    pass\n"])
    return dec + "\n" + nxt


def snip_number(rng):
    lit = rng.choice([
        lambda: "0" + rand_of(rng, "0123456789_", 1, 3),
        lambda: "0" + rng.choice("bBoOxX") + rand_of(rng, "0123456789abcdefgxj_.", 0, 3),
        lambda: rand_of(rng, "123456789", 1, 2) + rng.choice(["", "_", "__", "e", "e+", "E-1", ".", ".e5", "j", "J", "_0", "l", "L", "x"]) + rand_of(rng, "0123456789", 0, 2),
        lambda: "." + rand_of(rng, "0123456789_e", 1, 3),
        lambda: "1" + rng.choice(["if", "else", "and", "or", "in", "is", "not", "for", "ifx", "a", "_a"]),
    ])()
    return rng.choice(["x = %s\n", "register_cpu_ci(%s, \"stage-a-cpu\")\n", "y = [%s]\n", "z = %s if x else 0\n"]) % lit


def snip_py2(rng):
    return rng.choice([
        'print "x"\n', "print x\n", "print\n", 'print >>f, "x"\n', "print x, y\n", 'exec "code"\n', "exec code in ns\n",
        "print(x)\n", 'print "x" % y\n', "print -1\n", "print f(x)\n", "raise E, 'msg'\n", "except E, e:\n",
        "x = 0777L\n", "x = ur'a'\n", "print x.y\n", "print 1 if x else 2\n", "print = 3\n", "print.x\n",
    ])


def snip_indent(rng):
    kw = rng.choice(["if x:", "elif x:", "else:", "for a in b:", "while x:", "def f():", "class C:", "with x:", "try:",
                     "except E:", "finally:", "async def f():", "async for a in b:", "async with x:", "match x:",
                     "case 1:", "lambda: 0", "if x: pass", "class C(B):"])
    body = rng.choice(["pass", "    pass", "\tpass", "        pass\n    pass", "    pass\n\tpass", "\tpass\n        pass",
                       "    pass\n  pass", "  pass\n    pass", "", "# c", "    # c\n", "    x = 1\n  y = 2",
                       " \tpass", "\t pass", "    pass\n\t\tpass", "    if y:\n    pass"])
    return kw + "\n" + body + "\n"


def snip_assign(rng):
    return rng.choice([
        "x = 1 = 2\n", "f() = 1\n", "a + b = 1\n", "[a, b] = 1\n", "(a, 1) = 2\n", "x += 1 = 2\n", "del f()\n",
        "a, *b, *c = d\n", "1 = x\n", "x.y = 1\n", "'a' = 1\n", "None = 1\n", "True = 1\n", "x = y = z\n", "(x) = 1\n",
        "x() += 1\n", "[x for x in y] = 1\n", "{a: b} = 1\n", "lambda: 1 = 2\n", "x if y else z = 1\n", "(yield) = 1\n",
        "a, b += 1\n", "x: int = 1 = 2\n", "f(): int\n", "x[0]: int = 1\n", "*a = 1\n", "*a, b = 1\n", "del x, (y, z)\n",
        "del (x + 1)\n", "for f() in x: pass\n", "with x as f(): pass\n", "with x as (a, b): pass\n", "x = *a\n",
        "x = *a, b\n", "f(**)\n", "f(x for x in y, 1)\n", "f(a=1, b)\n", "f(a=1, *b)\n", "f(**a, *b)\n", "f(**a, b)\n",
        "f(a, a=1)\n", "f(1=2)\n", "f(x.y=1)\n", "import a.b as c.d\n", "from . import *\n", "from x import (a, b,)\n",
        "from x import a,\n", "global x, \n", "assert x, y, z\n", "a := 1\n", "(a := 1)\n", "x = (a.b := 1)\n",
    ])


def snip_dict(rng):
    return "d = %s\n" % rng.choice([
        "{**a, 'b'}", "{'a': 1, **b, c}", "{a: b, c}", "{**a}", "{*a, b: c}", "{a: b, *c}", "{a, b: c}", "{a:}", "{:b}",
        "{**a: b}", "{a: **b}", "{a: b for c in d}", "{a: *b}", "{**a for b in c}", "{*a for b in c}", "{a: b, **c, d: e}",
        "{,}", "{a,}", "{a: b,}", "{a: b: c}", "{'a': 1 'b': 2}", "{'a' 'b': 1}", "[a b]", "(a b)", "f(a b)", "{a b}",
    ])


def snip_backtick(rng):
    return rng.choice(["x = `y`\n", "`x`\n", "print `x`\n", "x = 1 `\n", "# `x`\n", "s = '`'\n", "x = $y\n", "x = ?\n",
                       "x = a!b\n", "x = a ! b\n", "x = 1 !\n", "x = \u00a0 1\n", "x = \u200b1\n", "x = \u2013 1\n", "x = y;;\n",
                       "x = a <> b\n", "x = a ->\n", "x = ...\n", "x = a..b\n"])


def snip_newer(rng):
    return rng.choice([
        "type X = int\n", "type X[T] = list[T]\n", "def f[T](x: T) -> T:\n    return x\n", "class C[T]:\n    pass\n",
        "class C[T](B):\n    pass\n", "def f[*Ts](): pass\n", "def f[**P](): pass\n", "type = 1\n", "type(x)\n",
        "type.x = 1\n", "x = f\"{'a' if y else \"b\"}\"\n", "x = f'{'a'}'\n", "x = f\"{x!r }\"\n", "x = f'{\"\\n\"}'\n",
        "x = f'{x # c\n}'\n", "x = f'{\n1}'\n", "x = f'{f'{f'{1}'}'}'\n", "x = f'{x:{y:{z}}}'\n", "x = f'''{\"\"\"a\"\"\"}'''\n",
        "x = f\"{'\\''}\"\n", "x = t'{x}'\n", "except* E:\n    pass\n", "try:\n    pass\nexcept* E:\n    pass\n",
        "try:\n    pass\nexcept A, B:\n    pass\n", "x = [*a for a in b]\n", "def f(*a: *Ts): pass\n", "x[*a] = 1\n",
        "x = a[*b]\n", "with (a as b, c as d):\n    pass\n", "match x:\n    case 1:\n        pass\n",
        "x = f'{x=!r:>10}'\n", "x = f'{lambda: 1}'\n", "x = f'{(lambda: 1)}'\n", "x = f'{yield}'\n",
        "x = rf'{x}\\{y}'\n", "x = f'{x:\\n}'\n", "x = f'{\\'a\\'}'\n",
    ])


def snip_nul(rng):
    return rng.choice(["\0", "x = '\0'\n", "# \0\n", "\0\n"])


def snip_bom(rng):
    return "\ufeff"


def random_mutation(rng, src):
    # The pieces of bench/registry/difftest.py: broad, character-level.
    pieces = ["(", ")", "[", "]", "{", "}", "'", '"', '"""', "\\", "\n", "    ", "#", ",", "=", "*", "**", "f'", "rb'",
              "register_cuda_ci(1, 's', labels=['megatron'])", "\nregister_cpu_ci(2, 'stage-a-cpu')\n", "if x:\n", ":",
              "None", "True", "-", "1_0", "0x", "labels=", "nightly=", ";", "\t", "lambda: ", "...", "j", "@", "`", "!",
              "print ", "def ", "class ", "\\x", "\\N{", "b'\u00e9'", "async ", "await ", "yield ", "return ", "del "]
    i = rng.randint(0, len(src))
    op = rng.random()
    if op < 0.5:
        return i, 0, rng.choice(pieces)
    if op < 0.8:
        return i, min(len(src) - i, rng.randint(1, 6)), ""
    j = min(len(src), i + rng.randint(1, 30))
    return i, 0, src[i:j]


def tokens_of(src):
    """(start, end, text) of src's tokens (Python's tokenize), as str offsets."""
    out = []
    offs = [0]
    for line in src.splitlines(True):
        offs.append(offs[-1] + len(line))
    try:
        for t in tokenize.generate_tokens(io.StringIO(src).readline):
            if t.type in (tokenize.ENDMARKER, tokenize.DEDENT, tokenize.INDENT):
                continue
            s, e = offs[t.start[0] - 1] + t.start[1], offs[t.end[0] - 1] + t.end[1]
            if e > s:
                out.append((s, e, t.string))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return out


# Tokens a token-level mutation inserts or puts in another's place: every
# kind of operator, keyword and literal a typo or a bad merge leaves.
MUTATION_TOKENS = ["(", ")", "[", "]", "{", "}", ":", ",", ".", "=", "==", "+", "-", "*", "**", "/", "//", "%", "@",
                   "->", ":=", "lambda", "if", "else", "for", "in", "not", "and", "or", "is", "None", "True", "def",
                   "class", "return", "yield", "await", "async", "with", "as", "import", "from", "pass", "global", "x",
                   "register_cpu_ci", "labels", "'s'", '"t"', "f'{x}'", "0", "1.5", "0x1", "1e3", "...", ";", "\\",
                   "#", "del", "assert", "raise", "try", "except", "finally", "while", "break", "print", "match",
                   "case", "type", "_"]


def mutate_lines(kind):
    """A line-level edit of src: delete, duplicate or swap lines, indent or
    dedent one, or join one to the next."""
    def edit(rng, src):
        lines = src.split("\n")
        starts = [0]
        for line in lines[:-1]:
            starts.append(starts[-1] + len(line) + 1)
        i = rng.randrange(len(lines))
        at, line = starts[i], lines[i]
        if kind == "line-del":
            return at, len(line) + (1 if i < len(lines) - 1 else 0), ""
        if kind == "line-dup":
            return at, 0, line + "\n"
        if kind == "line-swap" and i + 1 < len(lines):
            return at, len(line) + 1 + len(lines[i + 1]), lines[i + 1] + "\n" + line
        if kind == "line-indent":
            return at, 0, rng.choice([" ", "  ", "    ", "\t", "        "])
        if kind == "line-dedent":
            n = len(line) - len(line.lstrip(" "))
            if n:
                return at, min(n, rng.choice([1, 2, 4])), ""
        if kind == "line-join" and i + 1 < len(lines):
            return at + len(line), 1, rng.choice(["", " ", "; "])
        return None
    return edit


def mutate_tokens(kind):
    """A token-level edit of src: delete, duplicate or swap tokens, insert
    or substitute one of MUTATION_TOKENS, or cut the file at a token."""
    def edit(rng, src):
        ts = tokens_of(src)
        if not ts:
            return None
        k = rng.randrange(len(ts))
        s, e, text = ts[k]
        if kind == "tok-del":
            return s, e - s, ""
        if kind == "tok-dup":
            return s, 0, text + rng.choice(["", " "])
        if kind == "tok-swap" and k + 1 < len(ts):
            s2, e2, t2 = ts[k + 1]
            return s, e2 - s, t2 + src[e:s2] + text
        if kind == "tok-ins":
            return rng.choice([s, e]), 0, rng.choice(["", " "]) + rng.choice(MUTATION_TOKENS) + rng.choice(["", " "])
        if kind == "tok-repl":
            return s, e - s, rng.choice(MUTATION_TOKENS)
        if kind == "truncate":
            return s, len(src) - s, ""
        return None
    return edit


# Mutation classes after the snippet classes (and "random"), so that adding
# them left the earlier classes' cases of a seed as they were.
MUTATIONS = {k: mutate_lines(k) for k in ["line-del", "line-dup", "line-swap", "line-indent", "line-dedent", "line-join"]}
MUTATIONS.update({k: mutate_tokens(k) for k in ["tok-del", "tok-dup", "tok-swap", "tok-ins", "tok-repl", "truncate"]})


CLASSES = {
    "escape": snip_escape, "bytes": snip_bytes, "params": snip_params, "fstring": snip_fstring,
    "decorator": snip_decorator, "number": snip_number, "py2": snip_py2, "indent": snip_indent, "assign": snip_assign,
    "dict": snip_dict, "backtick": snip_backtick, "newer": snip_newer, "nul": snip_nul, "bom": snip_bom,
}


def place(rng, src, snippet, cls):
    """Where to put a snippet: the start of a random line, indented like it
    (so it lands in a function body as often as at module level), or the end
    of the file. A BOM goes first; a NUL anywhere."""
    if cls == "bom":
        return (0, 0, snippet) if rng.random() < 0.8 else (rng.randint(0, len(src)), 0, snippet)
    if cls == "nul" and rng.random() < 0.5:
        return rng.randint(0, len(src)), 0, snippet
    starts = [0] + [i + 1 for i, c in enumerate(src) if c == "\n"]
    at = rng.choice(starts)
    line = src[at:src.find("\n", at) if src.find("\n", at) >= 0 else len(src)]
    indent = line[:len(line) - len(line.lstrip(" \t"))] if line.strip() else ""
    if rng.random() < 0.3:
        indent = ""
    lines = snippet.split("\n")
    body = "\n".join(indent + l if l else l for l in lines)
    if rng.random() < 0.05:
        return len(src), 0, body.rstrip("\n")  # last line, no newline after
    return at, 0, body


def main(argv):
    global KNOWN
    warnings.simplefilter("ignore")  # SyntaxWarning: not an error, and not ours to compare
    KNOWN = collect.known_labels(os.path.join(ROOT, "testregistry/testdata/crosscheck"))
    if argv and argv[0] == "--oracle":
        req = json.load(sys.stdin)
        out = [verdict(c["file"], c["src"]) for c in req["cases"]]
        json.dump({"python": "%d.%d" % sys.version_info[:2], "verdicts": out}, sys.stdout)
        return 0
    n = int(argv[0]) if argv else 400
    rng = random.Random(int(argv[1]) if len(argv) > 1 else 14)
    bases = load_seeds()
    names = sorted(bases)
    cases = []
    for cls in list(CLASSES) + ["random"] + list(MUTATIONS):
        seen = set()
        tries = 0
        while len([c for c in cases if c["class"] == cls]) < n and tries < n * 20:
            tries += 1
            base = rng.choice(names)
            src = bases[base]
            if cls == "random":
                at, dl, ins = random_mutation(rng, src)
            elif cls in MUTATIONS:
                edit = MUTATIONS[cls](rng, src)
                if edit is None:
                    continue
                at, dl, ins = edit
            else:
                at, dl, ins = place(rng, src, CLASSES[cls](rng), cls)
            key = (base, at, dl, ins)
            if key in seen:
                continue
            seen.add(key)
            mutated = src[:at] + ins + src[at + dl:]
            cases.append({"class": cls, "base": base, "at": len(src[:at].encode()), "del": len(src[at:at + dl].encode()),
                          "ins": ins, "want": verdict(base, mutated)})
    out = {"python": "%d.%d" % sys.version_info[:2], "generator": "tools/registry-diff/gen.py %d %s" % (n, argv[1] if len(argv) > 1 else 14),
           "bases": bases, "cases": cases}
    json.dump(out, sys.stdout, indent=0, sort_keys=True, ensure_ascii=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
