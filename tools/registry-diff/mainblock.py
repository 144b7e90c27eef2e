#!/usr/bin/env python3
"""Differential cases for pyparse.Scan's main-entry answer, judged by CPython.

  python3 tools/registry-diff/mainblock.py [N] [SEED] > pyparse/testdata/mainblock.json

(from the repository root; N = 3000, SEED = 1). Each case is a short module
built from generated parts: an `if` header (the main test, spelled with
other quotes, implicit concatenation, parentheses, spacing, comments,
escapes and line continuations, and its near misses: another operator,
the operands swapped, bytes, an f-string, a walrus, `and`, a chain, a
misspelled name or value), a body (a one-liner after the colon, pass,
ellipsis, a docstring, an assignment without a call, a call inside a nested
def, decorator, lambda, comprehension, f-string field, default or
annotation, calls that are only syntax warnings, parentheses that are no
call, match/case bodies, nested ifs), a tail (an else or elif holding the
only call, a call after the block, a second main block) and a placement
(module level, or inside a def, class, if, try, with or for), after a
prefix (imports, a docstring, a comment, a marker call); a few use CRLF
line ends, a BOM or tabs.

The truth is the rule of sglang's collector (RegistryVisitor.visit_Module
and _is_main_block_with_call), run over ast.parse of each source here:
"main" (some module-level if qualifies and makes a call in its body),
"line" (the line of the first such if), "nocall" (the line of the first
if whose test qualifies and whose body makes no call) and "error"
(ast.parse raised). pyparse's TestMainBlockCPython replays the file
(Scan for Python 3.11); with REGISTRY_PYTHON set it runs this script live.
"""
import ast
import json
import random
import sys
import warnings

HEADERS_MAIN = [
    '__name__ == "__main__"',
    "__name__ == '__main__'",
    '__name__=="__main__"',
    "__name__  ==  '__main__'",
    '__name__ == """__main__"""',
    "__name__ == '''__main__'''",
    '__name__ == "__ma" "in__"',
    '__name__ == "__main__" ""',
    '__name__ == "_" \'_main__\'',
    '__name__ == ("__main__")',
    '(__name__) == "__main__"',
    '(__name__ == "__main__")',
    "((__name__ == '__main__'))",
    '((__name__)) == (("__main__"))',
    '__name__ == "__main__"  # run it',
    '__name__ == u"__main__"',
    '__name__ == r"__main__"',
    '__name__ == R"__main__"',
    '__name__ == "\\x5f_main__"',
    '__name__ == "__main\\u005f_"',
    '__name__ == "\\N{LOW LINE}_main__"',
    '__name__ == (\n    "__main__"\n)',
    '__name__ == \\\n        "__main__"',
    '(\n    __name__\n    == "__main__"  # c\n)',
    '__name__ == ("__main__"  # c\n)',
    '__name__ ==\t"__main__"',
]

HEADERS_MISS = [
    '__name__ != "__main__"',
    '"__main__" == __name__',
    '__name__ == b"__main__"',
    '__name__ == rb"__main__"',
    '__name__ == f"__main__"',
    '__name__ == f"{\'__main__\'}"',
    '__name__ == "__main__" == x',
    '__name__ == __name__ == "__main__"',
    '(__name__ == "__main__") == True',
    '__name__ == ("__main__" == x)',
    '__name__ == "__main__" and x',
    'x and __name__ == "__main__"',
    '__name__ == "__main__" or x',
    'not __name__ == "__main__"',
    '(n := __name__) == "__main__"',
    '(__name__ := "__main__") == "__main__"',
    '__name__ is "__main__"',
    '__name__ in "__main__"',
    '__name__ <= "__main__"',
    '__name__ == "__main"',
    '__name__ == "__main__ "',
    '__name__ == "__MAIN__"',
    '__NAME__ == "__main__"',
    'name == "__main__"',
    '__name__.x == "__main__"',
    'x.__name__ == "__main__"',
    'name == "__main__" and __name__',
    '__name__[0:] == "__main__"',
    'str(__name__) == "__main__"',
    '__name__ == main',
    '__name__ == ("__main__",)',
    '__name__ == ["__main__"][0]',
    '__name__ == "__main__"[0:]',
    '__name__ == "__main__".lower()',
    '__name__ == 1',
    '__name__ == None',
    '__name__ == "__main__" if x else y',
    '__name__',
    '"__main__"',
    'True',
]

HEADERS_ERROR = [
    '__name__ = "__main__"',
    '__name__ === "__main__"',
    '__name__ == "__main__',
    '__name__ == f"{"__main__"}"',
    '__name__ == ("__main__"',
    '__name__ == "__main__" "',
]

# Bodies: ("one", text) follows the colon on the header's line; ("block",
# lines) is indented one level under it.
ONE = [
    "main()", "pass", "...", "x = 1", "x = 1; main()", "x = 1; y = 2", 'print("hi")', "raise SystemExit(main())",
    "sys.exit(0)", "x = lambda: g()", '"doc"', "x = (1)", "import os", "del (x)", "assert (x), (y)",
    "x = f'{g()}'", "x = f'{y}'", "x: g() = 1", "x: int = 1", "1()", "(f)()", "x[0]()", "f()()",
    "x = [g() for _ in y]", "x = not (y)", "global x", "raise (E)", "x = 1 if (y) else (z)",
    "main(", "x = = 1", "pass pass",
]

BLOCK = [
    ["main()"], ["pass"], ["..."], ['"""doc"""'], ['"""doc"""', "pass"], ["x = 1"], ["x = y[0]"], ["x = (1)"],
    ["x = (1, 2)"], ["import sys"], ["from os import (path)"], ["from os import path as p"],
    ["x = 'main()'"], ["# main()", "pass"], ["x = 1  # main()"], ["x = '''", "main()", "'''"],
    ["main(", "    1,", ")"], ["x = (", "    1", ")"],
    ["def f():", "    g()"], ["def f(x=g()):", "    pass"], ["def f(x: g() = 1):", "    pass"],
    ["def f() -> g():", "    pass"], ["def f(x):", "    pass"], ["def f(x=(1)):", "    pass"],
    ["async def f():", "    await g()"], ["async def f():", "    await (x)"], ["def f():", "    return (x)"],
    ["def f():", "    yield (x)"], ["def f(): return g()"], ["def f(): pass"],
    ["class C(Base):", "    pass"], ["class C(g()):", "    pass"], ["class C:", "    x = g()"],
    ["class C(metaclass=M):", "    pass"], ["class C: pass"],
    ["@dataclass(frozen=True)", "class C:", "    x: int = 0"], ["@dataclass", "class C:", "    x: int = 0"],
    ["@functools.lru_cache()", "def f():", "    pass"], ["@functools.cache", "def f():", "    pass"],
    ["@(x)", "def f():", "    pass"],
    ["x = lambda: g()"], ["x = lambda y=(1): y"], ["x = lambda: (y)"],
    ["x = [g() for _ in y]"], ["x = [y for y in z]"], ["x = {k: g() for k in y}"], ["x = {k: (v) for k, v in y}"],
    ["x = (y for y in g())"], ["x = (y for y in z)"],
    ['x = f"{g()}"'], ['x = f"{y}"'], ['x = f"{y!r:>{w}}"'], ['x = f"{y:{g()}}"'], ['x = f"{y=}"'],
    ['x = f"{g()=}"'], ['x = f"{(y)}"'], ['x = f"{y}" f"{z()}"'], ["x = f'{f\"{g()}\"}'"], ["x = f'{f\"{y}\"}'"],
    ['x = f"""{', '    g()', '}"""'], ['x = f"{{g()}}"'], ['x = "{g()}"'], ['x = rf"{g()}"'], ['x = f"{y}(z)"'],
    ["x: g() = 1"], ["x: int = 1"], ["x: int"], ["x: list[int] = []"],
    ["1()"], ['"s"()'], ["x[0]()"], ["(f)()"], ["f()()"], ["None()"], ["{}()"], ["[f][0]()"], ["...()"],
    ["print (x)"], ["type(x)"], ["_(x)"], ["print"],
    ["if (x):", "    pass"], ["if x:", "    g()"], ["if x:", "    pass", "else:", "    g()"],
    ["if g():", "    pass"], ['if __name__ == "__main__":', "    main()"], ['if __name__ == "__main__":', "    pass"],
    ["x = not (y)"], ["x = (y) and (z)"], ["x = y in (z)"], ["x = y is (z)"],
    ["with (a):", "    pass"], ["with (a) as b:", "    pass"], ["with open(p) as f:", "    pass"],
    ["with (a, b):", "    pass"],
    ["try:", "    pass", "except (A, B):", "    pass"], ["try:", "    pass", "except E:", "    g()"],
    ["try:", "    pass", "finally:", "    g()"],
    ["for (a, b) in c:", "    pass"], ["for a in g():", "    pass"], ["for a in b:", "    pass", "else:", "    g()"],
    ["while (x):", "    break"], ["while x:", "    g()"],
    ["del (x)"], ["assert (x), (y)"], ["raise (E)"], ["raise E()"], ["raise E from (x)"],
    ["global x"], ["x = 1; g()"], ["x = 1;"],
    ["match (x):", "    case P(x=0):", "        pass"],
    ["match x:", "    case P(x=0) if g():", "        pass"],
    ["match x:", "    case P(x=0) if (y):", "        pass"],
    ["match g():", "    case _:", "        pass"],
    ["match (x):", "    case [1, 2]:", "        pass"],
    ["match x:", '    case {"a": P()}:', "        pass"],
    ["match x:", "    case 1: g()"],
    ["match x:", "    case 1: pass"],
    ["match x:", "    case (P(a) | Q(b)):", "        pass"],
    ["match (x)(y):", "    case _:", "        pass"],
    ["match (x), (y):", "    case _:", "        pass"],
    ["match(x)"], ["match = 1"], ["case(x)"], ["match [x]: int"],
    ["x = y if (z) else g()"], ["x = [*g()]"], ["x = {**g()}"], ["x = y[g()]"], ["x = y.z"], ["x = -(y)"],
    ["x = (yield)"], ["x = 'a' 'b'"], ["x = b'(y)'"],
    ["main \\", "    ()"], ["x = (main", "    ())"], ["x = [i for i in (1) if (i)]"], ["x = f\"{'('}\""],
    ["x = f\"{y['(']}\""], ["x = 1j(2)"], ["x = y @ (z)"], ["x = y[:(1)]"], ["x: (int) = (1)"], ["x = {**(y)}"],
    ["try:", "    pass", "except* (E):", "    pass"], ["print(end='')"], ["x = [y][0] (1)"],
    # syntax errors inside the body
    ["main("], ["x = = 1"], ["def f(:", "    pass"], ["  pass"], ["match x:", "    pass"],
]

TAILS = [
    [], [], [], ["else:", "    main()"], ["else:", "    pass"], ["elif x:", "    main()"], ["elif g():", "    pass"],
    ["main()"], ['if __name__ == "__main__":', "    main()"], ['if __name__ == "__main__":', "    pass"],
    ["else:", "    pass", "main()"],
]

PREFIXES = [
    "", "", "import sys\n", '"""Module doc."""\n', "# a comment\n",
    "from ci import register_cuda_ci\nregister_cuda_ci(est_time=1, suite=\"s\")\n", "main()\n",
    "def main():\n    pass\n\n", "x = 1\n",
]

# Placements: the if's enclosing lines and its indentation.
PLACES = [
    ([], ""), ([], ""), ([], ""),
    (["def wrapper():"], "    "), (["class K:"], "    "), (["if True:"], "    "),
    (["try:"], "    "), (["with ctx:"], "    "), (["for _ in x:"], "    "),
]


def place_tail(outer, indent):
    if outer == ["try:"]:
        return ["except Exception:", "    pass"]
    return []


def build(prefix, header, body, tail, place):
    outer, indent = place
    lines = list(outer)
    hlines = ("if " + header + ":").split("\n")
    if body[0] == "one":
        hlines[-1] += " " + body[1]
        lines += [indent + h if i == 0 else h for i, h in enumerate(hlines)]
    else:
        lines += [indent + h if i == 0 else h for i, h in enumerate(hlines)]
        lines += [indent + "    " + b for b in body[1]]
    lines += [indent + t for t in tail]
    lines += place_tail(outer, indent)
    return prefix + "\n".join(lines) + "\n"


def is_main_block_with_call(stmt):
    """sglang's RegistryVisitor._is_main_block_with_call, as written."""
    test = stmt.test
    if not isinstance(test, ast.Compare):
        return False
    if not (isinstance(test.left, ast.Name) and test.left.id == "__name__"):
        return False
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    if len(test.comparators) != 1:
        return False
    comp = test.comparators[0]
    if not (isinstance(comp, ast.Constant) and comp.value == "__main__"):
        return False
    return any(isinstance(n, ast.Call) for n in ast.walk(ast.Module(body=stmt.body, type_ignores=[])))


def main_test(stmt):
    """The test half of the rule alone (for the line of a block without a call)."""
    test = stmt.test
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) and len(test.comparators) == 1
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "__main__")


def truth(src):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return {"src": src, "error": True, "main": False, "line": 0, "nocall": 0}
    main, line, nocall = False, 0, 0
    for stmt in tree.body:  # visit_Module
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            continue  # a registry call
        if isinstance(stmt, ast.If) and is_main_block_with_call(stmt):
            if not main:
                line = stmt.lineno
            main = True
        elif isinstance(stmt, ast.If) and main_test(stmt) and nocall == 0:
            nocall = stmt.lineno
    return {"src": src, "error": False, "main": main, "line": line, "nocall": nocall}


def generate(n, seed):
    rnd = random.Random(seed)
    canon = HEADERS_MAIN[0]
    bodies = [("one", o) for o in ONE] + [("block", b) for b in BLOCK]
    srcs = []
    # Coverage first: every header with a call and without one, every body
    # and tail under the plain header, every placement.
    for h in HEADERS_MAIN + HEADERS_MISS + HEADERS_ERROR:
        srcs.append(build("", h, ("block", ["main()"]), [], PLACES[0]))
        srcs.append(build("", h, ("block", ["pass"]), [], PLACES[0]))
        srcs.append(build("", h, ("one", "main()"), [], PLACES[0]))
    for b in bodies:
        srcs.append(build("", canon, b, [], PLACES[0]))
        srcs.append(build("", HEADERS_MAIN[rnd.randrange(len(HEADERS_MAIN))], b, [], PLACES[0]))
    for t in TAILS:
        for b in (("block", ["pass"]), ("block", ["main()"]), ("one", "pass")):
            srcs.append(build("", canon, b, t, PLACES[0]))
    for pl in PLACES:
        for b in (("block", ["main()"]), ("one", "main()")):
            srcs.append(build("", canon, b, [], pl))
    headers = HEADERS_MAIN * 3 + HEADERS_MISS + HEADERS_ERROR
    srcs = list(dict.fromkeys(srcs))
    seen = set(srcs)
    while len(srcs) < n:
        s = build(rnd.choice(PREFIXES), rnd.choice(headers), rnd.choice(bodies), rnd.choice(TAILS), rnd.choice(PLACES))
        r = rnd.random()
        if r < 0.06:
            s = s.replace("\n", "\r\n")  # CRLF line ends
        elif r < 0.09:
            s = "\ufeff" + s  # a BOM, kept as a character
        elif r < 0.12:
            s = s.replace("\n    ", "\n\t")  # tabs for the first level
        if s not in seen:
            seen.add(s)
            srcs.append(s)
    return [truth(s) for s in srcs]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    cases = generate(n, seed)
    json.dump({"python": "%d.%d.%d" % sys.version_info[:3], "seed": seed, "cases": cases}, sys.stdout, indent=0)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
