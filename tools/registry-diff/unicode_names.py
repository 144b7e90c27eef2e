#!/usr/bin/env python3
"""Write pyparse/unicode_names.gz: the Unicode character names CPython's
\\N{...} escapes accept, from this python3's unicodedata (3.11: Unicode 14.0).

  python3 tools/registry-diff/unicode_names.py    (from the repository root)

One line per named code point, "<hex delta from the previous> <name>", in
code point order; names CPython derives from the code point (CJK, Tangut,
Khitan, Nushu ideographs and Hangul syllables) are one "= <prefix> <first>
<last>" line per range instead (Hangul syllables are computed in Go).
Name aliases ("LINE FEED"), which unicodedata cannot list, are taken from
Perl's copy of the same Unicode version (unicore/Name.pl) when that exists,
kept only if this python3 accepts them in a backslash-N escape: "+ <hex> <alias>".
"""
import ast
import glob
import gzip
import re
import unicodedata

ALG = re.compile(r"^(CJK UNIFIED IDEOGRAPH-|CJK COMPATIBILITY IDEOGRAPH-|TANGUT IDEOGRAPH-|KHITAN SMALL SCRIPT CHARACTER-|NUSHU CHARACTER-)[0-9A-F]+$")
lines, prev, run = [], 0, None
for cp in range(0x110000):
    n = unicodedata.name(chr(cp), None)
    m = ALG.match(n) if n else None
    if run and (not m or m.group(1) != run[0] or cp != run[2] + 1):
        lines.append("= %s %x %x" % (run[0], run[1], run[2]))
        run = None
    if m:
        run = (m.group(1), run[1] if run else cp, cp)
        continue
    if n and not n.startswith("HANGUL SYLLABLE "):
        lines.append("%x %s" % (cp - prev, n))
        prev = cp
if run:
    lines.append("= %s %x %x" % run)
known = {l.split(" ", 1)[1] for l in lines if not l.startswith("=")}
for pl in sorted(glob.glob("/usr/share/perl/*/unicore/Name.pl"))[-1:]:
    body = open(pl, encoding="utf-8").read().split("return <<'END';\n", 1)[1].split("\nEND\n", 1)[0]
    for entry in body.split("\n\n"):
        cps, _, name = entry.partition("\n")
        if " " in cps.strip() or not name or name in known:
            continue
        try:
            ok = ast.literal_eval('"\\N{%s}"' % name) == chr(int(cps, 16))
        except (SyntaxError, ValueError):
            ok = False
        if ok:
            known.add(name)
            lines.append("+ %x %s" % (int(cps, 16), name))
with open("pyparse/unicode_names.gz", "wb") as f:
    # mtime=0: the same input gives the same bytes.
    f.write(gzip.compress(("\n".join(lines) + "\n").encode(), 9, mtime=0))
