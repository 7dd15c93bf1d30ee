#!/usr/bin/env python3
"""Import circles among a crate's modules.

Reads every `.rs` file under a crate's `src/` (default: crates/server/src), takes each file
for one module (`games/moves.rs` is `games::moves`), and draws an edge from a module to every
module its code names by path (`use crate::…`, `crate::…` anywhere in the code, `super::…`, and a
child module's name). Prints the strongly connected components with more than one module:
the import circles. `--edges` prints the edges too; `--check` fails (exit 1) when a circle is
larger than a pair (CI runs it: issue 23 keeps the server's modules so) and, for the server's
crate, when the circles differ from the pairs docs/ARCHITECTURE.md lists (the lines
`` - `a` <-> `b`: ... `` of its section "Imports among the server's modules"), naming each
circle found and not listed, or listed and not found.

    python3 scripts/module-cycles.py [crates/server/src] [--edges] [--check]
"""

import pathlib
import re
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent
ARCHITECTURE = REPO / "docs" / "ARCHITECTURE.md"
SECTION = "## Imports among the server's modules"
PAIR = re.compile(r"^- `([\w:]+)` <-> `([\w:]+)`")


def listed_pairs():
    """The circles docs/ARCHITECTURE.md lists: each `- `a` <-> `b`` line of its section."""
    text = ARCHITECTURE.read_text()
    if SECTION not in text:
        sys.exit(f"{ARCHITECTURE}: no section {SECTION!r}")
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return {frozenset(m.groups()) for line in section.splitlines() if (m := PAIR.match(line))}


def module_of(root, path):
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts in (["lib"], ["main"]):
        return ()
    if parts[-1] == "mod":
        parts.pop()
    return tuple(parts)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def expand_use(tree):
    """The paths a `use` tree names: `a::{b, c::{d, e}}` gives a::b, a::c::d, a::c::e."""
    tree = re.sub(r"\s+", "", tree)
    depth = 0
    for i, ch in enumerate(tree):
        if ch == "{":
            if depth == 0:
                prefix, inner = tree[:i], tree[i + 1 : tree.rindex("}")]
                out, start, d = [], 0, 0
                for j, c in enumerate(inner + ","):
                    if c == "{":
                        d += 1
                    elif c == "}":
                        d -= 1
                    elif c == "," and d == 0:
                        if inner[start:j]:
                            out += [prefix + p for p in expand_use(inner[start:j])]
                        start = j + 1
                return out
            depth += 1
    return [tree.split(" as ")[0]]


def resolve(modules, here, path):
    segments = [s for s in path.split("::") if s]
    if not segments:
        return None
    if segments[0] == "crate":
        base, rest = (), segments[1:]
    elif segments[0] in ("super", "self"):
        base = here
        while segments and segments[0] in ("super", "self"):
            if segments.pop(0) == "super":
                base = base[:-1]
        rest = segments
    elif here + (segments[0],) in modules:
        base, rest = here, segments
    else:
        return None
    target = base
    for seg in rest:
        if target + (seg,) in modules:
            target = target + (seg,)
        else:
            break
    return target if target != here else None


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = pathlib.Path(args[0] if args else "crates/server/src")
    files = {module_of(root, p): p for p in sorted(root.rglob("*.rs"))}
    modules = set(files)
    edges = {m: set() for m in modules}
    for here, path in files.items():
        text = strip_comments(path.read_text())
        # Inside an inline module (`mod tests { … }`, one level deep) `super` is this file.
        inline = re.search(r"\bmod\s+\w+\s*\{", text)
        if inline:
            text = text[: inline.end()] + text[inline.end() :].replace("super::", "self::")
        for tree in re.findall(r"\buse\s+([^;]+);", text):
            for p in expand_use(tree):
                if (t := resolve(modules, here, p)) is not None:
                    edges[here].add(t)
        for p in re.findall(r"\b((?:crate|super|self)(?:::\w+)+)", text):
            if (t := resolve(modules, here, p)) is not None:
                edges[here].add(t)
        # A child module named bare (`moves::play` in a `routes!`) is in scope too.
        for p in re.findall(r"(?<![\w:])(\w+(?:::\w+)+)", text):
            if here + (p.split("::")[0],) in modules:
                edges[here].add(resolve(modules, here, p))
    # A module declared inside another is not imported by it: `mod x;` is not a `use`.
    name = lambda m: "::".join(m) or "crate"
    if "--edges" in sys.argv:
        for m in sorted(edges):
            print(name(m), "->", ", ".join(sorted(name(t) for t in edges[m])))
    # Tarjan's strongly connected components.
    index, low, stack, on, comps = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            comps.append(comp)

    for v in sorted(modules):
        if v not in index:
            visit(v)
    circles = sorted((c for c in comps if len(c) > 1), key=len, reverse=True)
    print(f"{len(modules)} modules, {sum(map(len, edges.values()))} edges, "
          f"{len(circles)} circle(s)")
    for c in circles:
        print(f"  {len(c)}: " + ", ".join(sorted(name(m) for m in c)))
    if "--check" not in sys.argv:
        return
    failed = False
    if any(len(c) > 2 for c in circles):
        print("a circle larger than a pair: import a sibling or a lower module instead",
              file=sys.stderr)
        failed = True
    # The document describes the server's crate; another crate's circles are not its.
    if root.resolve() == (REPO / "crates" / "server" / "src").resolve():
        found = {frozenset(name(m) for m in c) for c in circles}
        listed = listed_pairs()
        show = lambda c: " <-> ".join(sorted(c))
        for c in sorted(found - listed, key=show):
            print(f"circle {show(c)} found but not listed in docs/ARCHITECTURE.md",
                  file=sys.stderr)
            failed = True
        for c in sorted(listed - found, key=show):
            print(f"circle {show(c)} listed in docs/ARCHITECTURE.md but not found",
                  file=sys.stderr)
            failed = True
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
