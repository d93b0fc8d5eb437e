#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Mutants of the lines a change added to src/, for tests/mutants.sh --diff.

Usage: mutgen.py BASE MAX SEED
       mutgen.py --apply FILE LINE OLD NEW     put one mutant in
       mutgen.py --lines <gcov-json            the lines each test ran
       mutgen.py --tests COVDIR FILE LINE TEST...  which of them run a line
Reads `git diff BASE` (the working tree against BASE), applies realistic
operators to each added line of C code in src/, and prints at most MAX of
them, sampled with SEED, one per line in mutants.sh's line-addressed form:

    FILE:LINE ^ the line as it is ^ the line mutated ^ what was done

The operators are the bugs people write: a comparison one off (< for <=),
== for !=, && for ||, a constant one off, a condition negated, a statement
or reset dropped, two fields swapped, + for -. Strings, character constants
and comments are never touched. Lines holding a '^' are left out (it is the
list's separator). Which mutants build, and which tests reach them, is the
runner's business.
"""
import json
import random
import re
import subprocess
import sys

REL = [("<=", "<"), (">=", ">"), ("==", "!="), ("!=", "=="), ("<", "<="), (">", ">=")]
# a comparison operator alone: not part of <<, >>, ->, <=, >=, <<=, >>=
REL_RE = {
    "<=": r"(?<![<>])<=", ">=": r"(?<![<>-])>=", "==": r"==", "!=": r"!=",
    "<": r"(?<![<-])<(?![<=])", ">": r"(?<![>-])>(?![>=])",
}
INT_RE = re.compile(r"(?<![\w.])(0x[0-9a-fA-F]+|\d+)([uUlL]*)(?![\w.])")
FIELD_RE = re.compile(r"(->|\.)([A-Za-z_]\w*)")
SKIP_START = ("#", "/*", "*", "//", "}", "{", "case ", "default:", "static ", "const ",
              "struct ", "enum ", "typedef ")
DECL_RE = re.compile(r"^(?:unsigned |signed |const |static |struct \w+ |enum \w+ )*"
                     r"(?:int|char|bool|double|float|long|short|size_t|ssize_t|u?int\d+_t|"
                     r"uint|FILE|void|struct \w+|\w+_t)\b[\s*]")


def added_lines(base):
    """{path: set(line numbers)} of the lines the change added to src/*.c."""
    out = subprocess.run(["git", "diff", "-U0", "--no-color", "--no-ext-diff", base, "--",
                          "src/*.c", "src/**/*.c"], capture_output=True, text=True, check=True)
    lines, path = {}, None
    for l in out.stdout.splitlines():
        if l.startswith("+++ "):
            path = l[6:] if l.startswith("+++ b/") else None
        elif l.startswith("@@") and path:
            m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", l)
            start, n = int(m.group(1)), int(m.group(2) or "1")
            lines.setdefault(path, set()).update(range(start, start + n))
    return lines


def mask(line):
    """The line with strings, characters and comments blanked (same length)."""
    out, i, n = list(line), 0, len(line)
    while i < n:
        c = line[i]
        if c in "\"'":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = "_"
            i = j + 1
        elif line.startswith("/*", i) or line.startswith("//", i):
            end = line.find("*/", i + 2) if line[i + 1] == "*" else -1
            end = n if end < 0 else end + 2
            for k in range(i, end):
                out[k] = " "
            i = end
        else:
            i += 1
    return "".join(out)


def in_comment(text):
    """Per line: whether it starts inside a block comment."""
    inside, res = False, []
    for line in text:
        res.append(inside)
        i, n = 0, len(line)
        while i < n:
            if inside:
                j = line.find("*/", i)
                if j < 0:
                    break
                inside, i = False, j + 2
            elif line[i] in "\"'":
                j = i + 1
                while j < n and line[j] != line[i]:
                    j += 2 if line[j] == "\\" else 1
                i = j + 1
            elif line.startswith("//", i):
                break
            elif line.startswith("/*", i):
                inside, i = True, i + 2
            else:
                i += 1
    return res


def close_paren(code, i):
    depth = 0
    for j in range(i, len(code)):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def mutants_of(line):
    """(mutated line, what) for each operator that applies to line."""
    code, res = mask(line), []
    stripped = line.strip()

    def put(i, j, new, what):
        res.append((line[:i] + new + line[j:], what))

    for old, new in REL:
        for m in re.finditer(REL_RE[old], code):
            put(m.start(), m.end(), new, "'%s' for '%s'" % (new, old))
    for old, new in (("&&", "||"), ("||", "&&")):
        for m in re.finditer(re.escape(old), code):
            put(m.start(), m.end(), new, "'%s' for '%s'" % (new, old))
    for m in INT_RE.finditer(code):
        lit = m.group(1)
        octal = len(lit) > 1 and lit[0] == "0" and lit.isdigit()    # C's 0644, Python's 0o644
        v = int(lit, 8) if octal else int(lit, 0)
        for w in (v + 1, v - 1):
            if w >= 0:
                txt = (hex(w) if lit.startswith("0x") else "0%o" % w if octal else str(w)) + m.group(2)
                put(m.start(), m.end(), txt, "constant %s for %s" % (txt, m.group(0)))
    for m in re.finditer(r"\b(if|while) \(", code):
        o = m.end() - 1
        c = close_paren(code, o)
        if c > 0:
            put(o + 1, c, "!(" + line[o + 1:c] + ")", "%s condition negated" % m.group(1))
    for m in re.finditer(r"(?<=\S) ([+-]) (?=\S)", code):
        put(m.start(1), m.end(1), "-" if m.group(1) == "+" else "+",
            "'%s' for '%s'" % ("-" if m.group(1) == "+" else "+", m.group(1)))
    for m in re.finditer(r"([+-])=", code):
        if m.start() == 0 or code[m.start() - 1] not in "+-<>=!":
            new = "-" if m.group(1) == "+" else "+"
            put(m.start(1), m.end(1), new, "'%s=' for '%s='" % (new, m.group(1)))
    fields = []
    for m in FIELD_RE.finditer(code):
        if m.group(2) not in [f[2] for f in fields]:
            fields.append((m.start(2), m.end(2), m.group(2)))
    if len(fields) >= 2:
        (a0, a1, a), (b0, b1, b) = fields[0], fields[1]
        res.append((line[:a0] + b + line[a1:b0] + a + line[b1:], "fields %s and %s swapped" % (a, b)))
    if (stripped.endswith(";") and not stripped.startswith(("return", "break", "continue", "goto"))
            and not DECL_RE.match(stripped) and code.count("(") == code.count(")")):
        indent = line[:len(line) - len(line.lstrip())]
        res.append((indent + ";", "statement dropped"))
    return res


def esc(line):
    """Leading tabs as \\t (the list's notation); no other tab is in a line kept."""
    body = line.lstrip("\t")
    return "\\t" * (len(line) - len(body)) + body


def unesc(text):
    body = re.sub(r"^(\\t)*", "", text)
    return "\t" * ((len(text) - len(body)) // 2) + body


def apply(path, num, old, new):
    """Put mutant (old -> new at line num) into path; exit 1 if the line is not old."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read().split("\n")
    if num > len(text) or text[num - 1] != unesc(old):
        sys.exit("mutgen: %s:%d is not the line the mutant was made from" % (path, num))
    text[num - 1] = unesc(new)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write("\n".join(text))


def lines_of_gcov():
    """gcov -j -t's documents on stdin -> 'path:line count' for src/ files."""
    for doc in sys.stdin:
        doc = doc.strip()
        if not doc:
            continue
        for f in json.loads(doc).get("files", []):
            if f["file"].startswith("src/"):
                for l in f["lines"]:
                    print("%s:%d %d" % (f["file"], l["line_number"], l["count"]))


def tests_for(covdir, path, num, tests):
    """The tests (in the order given) that execute path:num; a line gcov does not
    list (a statement's continuation) counts as the nearest listed line above."""
    runs = []
    for t in tests:
        counts = {}
        with open("%s/%s.lines" % (covdir, t)) as f:
            for l in f:
                where, c = l.split()
                p, n = where.rsplit(":", 1)
                if p == path:
                    counts[int(n)] = counts.get(int(n), 0) + int(c)
        for n in range(num, max(num - 10, 0), -1):
            if n in counts:
                if counts[n] > 0:
                    runs.append(t)
                break
    print(" ".join(runs))


def main():
    if sys.argv[1] == "--apply":
        apply(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
        return
    if sys.argv[1] == "--lines":
        lines_of_gcov()
        return
    if sys.argv[1] == "--tests":
        tests_for(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:])
        return
    base, most, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    cands = []
    for path, nums in sorted(added_lines(base).items()):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read().split("\n")
        comment = in_comment(text)
        for n in sorted(nums):
            if n > len(text) or comment[n - 1]:
                continue
            line = text[n - 1]
            s = line.strip()
            if not s or s.startswith(SKIP_START) or "^" in line or "\t" in line.lstrip("\t"):
                continue
            for new, what in mutants_of(line):
                if new != line:
                    cands.append((path, n, line, new, what))
    random.Random(seed).shuffle(cands)
    for path, n, old, new, what in sorted(cands[:most], key=lambda c: (c[0], c[1])):
        print("%s:%d ^ %s ^ %s ^ %s" % (path, n, esc(old), esc(new), what))
    print("mutgen: %d candidates on %d added lines, %d sampled" %
          (len(cands), sum(len(v) for v in added_lines(base).values()), min(most, len(cands))),
          file=sys.stderr)


if __name__ == "__main__":
    main()
