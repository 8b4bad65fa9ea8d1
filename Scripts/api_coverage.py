#!/usr/bin/env python3
"""Measures how much of Apple's HealthKit Swift API OpenHealthKit declares.

    python3 Scripts/api_coverage.py                  # swift build --target OpenHealthKit, then measure
    python3 Scripts/api_coverage.py --no-build       # measure what is already built in .build/debug
    python3 Scripts/api_coverage.py --missing        # also list every missing declaration
    python3 Scripts/api_coverage.py --markdown       # the table as Markdown (for a README)
    python3 Scripts/api_coverage.py --min-percent 80 # exit 1 if the total is below 80 %

The checklist is Reference/healthkit/api-surface.md: every declaration in its ```swift blocks (and the two
prose lists its §10 counts) becomes one or more lookups of a Swift symbol (parent type path + title, as a
symbol graph spells them, e.g. `HKHealthStore` + `save(_:withCompletion:)`). The symbols are the real public
API, read from `swift-symbolgraph-extract` output for OpenHealthKit and the package modules it re-exports
(`@_exported import`), so nothing is counted by hand. Items marked `// BETA 27` are left out of the
denominator and reported apart. Symbol graphs leave out `@available(*, unavailable)` declarations, so such
stubs count as missing (a caller cannot use them); deprecated ones count. Only the Python 3 standard library
is used.

Exit status: 0, or 1 when --min-percent is not reached, or 2 when the symbols cannot be produced.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SURFACE = os.path.join(REPO, "Reference", "healthkit", "api-surface.md")
MAIN_MODULE = "OpenHealthKit"

# Declarations about data the model does not hold yet (issue 19, "the rest of HealthKit's data model"), or about
# watchOS workout sessions (out of scope): matched on the checklist line, reported apart, so the second total measures
# the goal "every declaration for the types the model holds". Each pattern says why.
NOT_HELD = [
    (r"[Mm]edication", "medications"),
    (r"[Ss]tates?OfMind", "states of mind"),
    (r"requestPerObjectReadAuthorization|visionPrescription", "vision prescriptions (per-object authorization)"),
    (r"audiogram", "audiograms"),
    (r"gad7|phq9", "scored assessments (GAD-7, PHQ-9)"),
    (r"WorkoutEffortSample", "workout effort relationships"),
    (r"HKWorkoutSession", "watchOS workout sessions"),
]


def not_held_reason(text: str) -> str | None:
    """Why a checklist line is about data the model does not hold yet, or None."""
    for pattern, reason in NOT_HELD:
        if re.search(pattern, text):
            return reason
    return None

# Symbol-graph kinds that are members of the type itself (Swift `static`/`class`, and enum cases, which are
# spelled `Type.case` like a static member). The checklist's `class func` and an implementation's
# `static func` are the same API for a caller, so they are not told apart.
TYPE_LEVEL_KINDS = {"swift.type.method", "swift.type.property", "swift.type.subscript", "swift.enum.case"}
TYPE_DECL_KINDS = {"swift.class", "swift.struct", "swift.enum", "swift.protocol", "swift.typealias",
                   "swift.associatedtype"}


# ============================================================================================ data model

@dataclass
class Check:
    """One symbol that must exist for a listed declaration to count as declared."""
    parent: tuple[str, ...]      # path of the enclosing type; () for a top-level (global) symbol
    title: str                   # the symbol graph's `names.title`, e.g. `init(type:quantity:start:end:)`
    kind: str                    # func, init, property, case, type, typealias, associatedtype, placeholder
    type_level: bool | None = None   # static/class/case vs instance; None when it does not apply
    is_async: bool = False
    settable: bool = False       # a `var … { get set }` (or any `var` where the section says all are mutable)
    expand: tuple[str, ...] = () # for `<codeName>` placeholders: the enum whose cases it stands for

    @property
    def name(self) -> str:
        return ".".join(self.parent + (self.title,))


@dataclass
class Decl:
    """One counted declaration of the checklist (one name of a multi-name line, one prose-list name, …)."""
    section: str
    group: str                   # the `###` heading's type name (or its label when it names several types)
    text: str                    # the line as listed, for reports
    lineno: int
    checks: list[Check]
    beta: bool = False
    # Filled in by matching:
    found: bool = False
    reason: str = ""
    via: str = ""                # superclass through which an inherited member was found


@dataclass
class Group:
    section: str
    name: str
    parent: tuple[str, ...] | None   # the heading's type path, None when the heading names several types
    has_code: bool = False
    prose: list[str] = field(default_factory=list)
    decls: list[Decl] = field(default_factory=list)


@dataclass
class Surface:
    sections: list[str]
    groups: list[Group]
    unparsed: list[tuple[str, str, int, str, str]]   # (section, group, line number, line, why)
    expected: list[tuple[str, list[tuple[str, int]], int]]   # §10: (section, [(label, count)], total)
    expected_total: int | None

    @property
    def decls(self) -> list[Decl]:
        return [d for g in self.groups for d in g.decls]


class Unparsed(Exception):
    """A checklist line this parser does not understand (reported, never fatal)."""


# ===================================================================================== Swift text helpers

def _mask_arrows(text: str) -> str:
    # `->` would otherwise count as a closing `>` when tracking <…> nesting. Same length, so indices hold.
    return text.replace("->", "-\x00")


def split_top_level(text: str, sep: str) -> list[str]:
    """Splits on `sep` outside (), [], <> and {} (parameter types such as `(Bool, Error?) -> Void`)."""
    masked = _mask_arrows(text)
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(masked):
        if ch in "([<{":
            depth += 1
        elif ch in ")]>}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def index_top_level(text: str, ch_wanted: str) -> int:
    """Index of the first `ch_wanted` outside brackets, or -1."""
    depth = 0
    for i, ch in enumerate(_mask_arrows(text)):
        if ch in "([<{":
            depth += 1
        elif ch in ")]>}":
            depth -= 1
        elif ch == ch_wanted and depth == 0:
            return i
    return -1


def matching_paren(text: str, open_index: int) -> int:
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise Unparsed("unbalanced parentheses")


def signature_title(name: str, sig: str) -> tuple[str, bool]:
    """`name` + `(label:label:)` from a parameter list starting at sig[0] == '(', and whether it is async.

    Only argument labels make the title (as in a symbol graph); `_ name: T` gives `_:`. The listed spelling
    leaves internal names out, so the first word before the colon is always the label.
    """
    close = matching_paren(sig, 0)
    labels = []
    for param in split_top_level(sig[1:close], ","):
        colon = index_top_level(param, ":")
        if colon < 0:
            raise Unparsed(f"parameter without a type: {param!r}")
        words = param[:colon].split()
        if not words:
            raise Unparsed(f"parameter without a label: {param!r}")
        labels.append(words[0] + ":")
    effects = sig[close + 1:].split("->")[0]
    return f"{name}({''.join(labels)})", bool(re.search(r"\basync\b", effects))


def is_type_path(text: str) -> bool:
    return bool(re.fullmatch(r"[A-Z]\w*(\.[A-Z]\w*)*", text))


# ================================================================================= checklist: code lines

TYPE_RE = re.compile(r"^(?P<kw>protocol|class|struct|enum)\s+(?P<name>[A-Za-z_][\w.]*)\s*(?:<[^{]*?>)?\s*"
                     r"(?::[^{]*)?(?:\{(?P<body>.*)\})?\s*$")
PROP_RE = re.compile(r"^(?P<mods>(?:(?:static|class|public|nonisolated)\s+)*)(?P<kw>let|var)\s+(?P<rest>.+)$")
FUNC_RE = re.compile(r"^(?P<mods>(?:(?:static|class|mutating|public|nonisolated|override|final|optional)\s+)*)"
                     r"func\s+(?P<name>`?[A-Za-z_]\w*`?)\s*(?:<[^(]*>)?\s*(?P<sig>\(.*)$")
INIT_RE = re.compile(r"^(?:(?:convenience|required|public|override|nonisolated)\s+)*init[?!]?\s*(?P<sig>\(.*)$")
CASE_RE = re.compile(r"^case\s+(?P<names>.+)$")
TYPEALIAS_RE = re.compile(r"^typealias\s+(?P<name>\w+)\b")
ASSOC_RE = re.compile(r"^associatedtype\s+(?P<name>\w+)\b")


@dataclass
class LineContext:
    parent: tuple[str, ...] | None   # the enclosing type, None under a heading that names several types
    ext_parent: tuple[str, ...] | None   # from a `// … extension Type …` comment
    mutable_vars: bool               # the section says every `var` is mutable


def parse_member(code: str, ctx: LineContext) -> list[list[Check]]:
    """The counted declarations of one Swift declaration: a list of items, each a list of checks.

    Most lines give one item per declared name. An inline `struct X { a; b }` or `enum X { case a, b }`
    gives 1 + one item per member (§10 counts a nested struct as 1 plus its members). An inline
    `class X { var y }` or `protocol X { … }` gives one item that needs X and all of its members (§10 counts
    such a line once).
    """
    code = code.strip().rstrip(";").strip()
    parent = ctx.ext_parent or ctx.parent

    if m := TYPE_RE.match(code):
        path = tuple(m["name"].split("."))
        type_path = (path if len(path) > 1 else (parent or ()) + path)
        type_check = Check(type_path[:-1], type_path[-1], "type")
        if m["body"] is None:
            return [[type_check]]
        inner = LineContext(type_path, None, ctx.mutable_vars)
        members = [item for part in split_top_level(m["body"], ";") for item in parse_member(part, inner)]
        if m["kw"] in ("struct", "enum"):
            return [[type_check]] + members
        return [[type_check] + [c for item in members for c in item]]

    if m := FUNC_RE.match(code):
        title, is_async = signature_title(m["name"].strip("`"), m["sig"])
        return [[Check(parent or (), title, "func", type_level=bool(re.search(r"\b(static|class)\b", m["mods"])),
                       is_async=is_async)]]

    if m := INIT_RE.match(code):
        title, is_async = signature_title("init", m["sig"])
        if parent is None:
            raise Unparsed("initializer outside a type")
        return [[Check(parent, title, "init", is_async=is_async)]]

    if m := PROP_RE.match(code):
        return [[c] for c in parse_properties(m["mods"], m["kw"], m["rest"], ctx)]

    if m := CASE_RE.match(code):
        if parent is None:
            raise Unparsed("enum case outside a type")
        names = [re.split(r"[\s=(]", n.strip(), maxsplit=1)[0] for n in split_top_level(m["names"], ",")]
        return [[Check(parent, n, "case", type_level=True)] for n in names]

    if m := TYPEALIAS_RE.match(code):
        # `typealias HKObserverQueryCompletionHandler` is a global in HealthKit, though listed under its query.
        name = m["name"]
        return [[Check(() if name.startswith("HK") else (parent or ()), name, "typealias")]]

    if m := ASSOC_RE.match(code):
        return [[Check(parent or (), m["name"], "associatedtype")]]

    raise Unparsed("no declaration pattern matches")


def parse_properties(mods: str, keyword: str, rest: str, ctx: LineContext) -> list[Check]:
    """`[static] let|var a, b: T [{ get set }]`, one check per name. Works out each name's owner.

    Where the owner comes from, first match wins: a `// extension Type` comment; a dotted name
    (`NSNotification.Name.HKUserPreferencesDidChange`); a capitalised name, which is a global constant
    (`HKDevicePropertyKeyName`, `HKUnitMolarMassBloodGlucose`, …: members are lowerCamelCase); the heading's
    type; and, under a heading naming several types, the declared type of a static member
    (`static var strictStartDate: HKQueryOptions`).
    """
    type_level = bool(re.search(r"\b(static|class)\b", mods))
    colon = index_top_level(rest, ":")
    names_part, type_part = (rest, "") if colon < 0 else (rest[:colon], rest[colon + 1:])
    settable = keyword == "var" and ("set }" in type_part or ctx.mutable_vars)
    declared_type = re.sub(r"\{.*\}", "", type_part).strip().rstrip("?!")
    checks = []
    names = split_top_level(names_part, ",")
    if not names:
        raise Unparsed("property without a name")
    for name in names:
        if name.startswith("<") and name.endswith(">"):
            # HKError's `static var <codeName>`: one listed line standing for a static var per error code.
            if ctx.parent is None or not is_type_path(declared_type):
                raise Unparsed("placeholder without an owner or a declared enum type")
            checks.append(Check(ctx.parent, name, "placeholder", type_level=True,
                                expand=tuple(declared_type.split("."))))
            continue
        if not re.fullmatch(r"[A-Za-z_][\w.]*", name):
            raise Unparsed(f"not a property name: {name!r}")
        path = name.split(".")
        name = path[-1]
        if ctx.ext_parent:
            owner = ctx.ext_parent
        elif len(path) > 1:
            owner = tuple(path[:-1])
        elif name[0].isupper():
            owner, type_level = (), None
        elif ctx.parent is not None:
            owner = ctx.parent
        elif type_level and is_type_path(declared_type):
            owner = tuple(declared_type.split("."))
        else:
            raise Unparsed(f"cannot tell which type declares {name!r}")
        checks.append(Check(owner, name, "property", type_level=type_level if owner else None,
                            settable=settable and not type_level))
    return checks


# ===================================================================================== checklist: file

def parse_surface(path: str) -> Surface:
    """Reads every counted declaration of api-surface.md (§1–§8), the BETA 27 marks, and §10's counts."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()

    sections: list[str] = []
    groups: list[Group] = []
    unparsed = []
    section = ""
    group: Group | None = None
    in_code = False
    mutable_vars = False
    for lineno, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if in_code:
            if stripped.startswith("```"):
                in_code = False
            elif stripped and not stripped.startswith("//") and group is not None:
                parse_code_line(raw, lineno, group, mutable_vars, unparsed)
            continue
        if stripped.startswith("```"):
            in_code = True
            if group is None:   # a block outside any heading: keep its lines visible as unparsed
                group = Group(section, "(no heading)", None)
                groups.append(group)
            group.has_code = True
        elif m := re.match(r"^## (\d+)\.\s*(.*)$", raw):
            section = f"{m[1]}. {m[2].strip()}"
            sections.append(section)
            group, mutable_vars = None, False
        elif raw.startswith("## "):
            section, group = "", None   # unnumbered sections (Sources, Conventions) declare nothing
        elif raw.startswith("### ") and section:
            heading = raw[4:].strip()
            # "HKQuantitySample — class : HKSample — iOS 8.0" names one type; headings without " — " name
            # several ("HKAuthorizationStatus (8.0), …") or a topic, and their notes in parentheses are dropped.
            name = heading.split(" — ", 1)[0].strip() if " — " in heading else re.sub(r"\s*\([^)]*\)", "", heading)
            group = Group(section, name, tuple(name.split(".")) if is_type_path(name) else None)
            groups.append(group)
        elif group is None and section:
            # A section's introduction can change how its `var`s read (§6: all are mutable stored properties).
            if re.search(r"Every `var` here is a mutable", raw):
                mutable_vars = True
        elif group is not None:
            group.prose.append(raw)

    for g in groups:
        if not g.has_code:
            g.decls.extend(parse_prose_lists(g))
    expand_placeholders(groups, unparsed)
    expected, expected_total = parse_expected_counts(lines)
    unparsed.sort(key=lambda u: u[2])
    return Surface([s for s in sections if any(g.section == s and g.decls for g in groups)],
                   groups, unparsed, expected, expected_total)


def parse_code_line(raw: str, lineno: int, group: Group, mutable_vars: bool, unparsed: list) -> None:
    code, _, comment = raw.partition("//")
    ext = re.search(r"\bextension\s+([A-Z][\w.]*[\w])", comment)
    ctx = LineContext(group.parent, tuple(ext[1].split(".")) if ext else None, mutable_vars)
    try:
        items = parse_member(code, ctx)
    except Unparsed as error:
        unparsed.append((group.section, group.name, lineno, raw.strip(), str(error)))
        return
    except Exception as error:   # a parser bug must not hide the rest of the report
        unparsed.append((group.section, group.name, lineno, raw.strip(), f"parser error: {error!r}"))
        return
    for checks in items:
        group.decls.append(Decl(group.section, group.name, raw.strip(), lineno, checks,
                                beta="BETA 27" in comment))


def parse_prose_lists(group: Group) -> list[Decl]:
    """The two prose lists §10 counts, under headings that have no code block.

    - `- Label (ver): Name, Name (ver); Name. Label: Name.` bullets under a `Prefix… constants` heading:
      globals `PrefixName` (the HKPredicateKeyPath… constants).
    - "`Type` (Int) has a=1, b (10.0), … and z (11.0)." : enum cases of Type (HKWorkoutEventType).
    Other prose (e.g. HKFHIRResourceType's values, the characteristic enums) follows a code block and is
    not counted, as in §10.
    """
    decls = []
    prefix = re.match(r"^(\w+)…", group.name)
    if prefix:
        for raw in group.prose:
            if not raw.startswith("- "):
                continue
            text = re.sub(r"\([^)]*\)", "", raw[2:])
            for sentence in text.split("."):
                if ":" not in sentence:
                    continue
                for name in re.split(r"[,;]", sentence.rsplit(":", 1)[1]):
                    name = name.strip()
                    if re.fullmatch(r"[A-Z]\w*", name):
                        full = prefix[1] + name
                        decls.append(Decl(group.section, group.name, f"let {full}: String  (prose list)",
                                          0, [Check((), full, "property")]))
    prose = " ".join(line.strip() for line in group.prose)
    for m in re.finditer(r"`([A-Z]\w*)`\s*\([^)]*\)\s+has\s+(.+?)\.(?:\s|$)", prose):
        cases = re.sub(r"\([^)]*\)|=\s*\d+", "", m[2])
        for name in re.split(r",|\band\b", cases):
            name = name.strip()
            if re.fullmatch(r"[a-z]\w*", name):
                decls.append(Decl(group.section, group.name, f"case {name}  ({m[1]} prose list)", 0,
                                  [Check((m[1],), name, "case", type_level=True)]))
    return decls


def expand_placeholders(groups: list[Group], unparsed: list) -> None:
    """`static var <codeName>: HKError.Code` needs a static var on HKError for every case of HKError.Code."""
    cases: dict[tuple[str, ...], list[str]] = {}
    for d in (d for g in groups for d in g.decls):
        for c in d.checks:
            if c.kind == "case":
                cases.setdefault(c.parent, []).append(c.title)
    for g in groups:
        kept = []
        for d in g.decls:
            expanded = []
            for c in d.checks:
                if c.kind != "placeholder":
                    expanded.append(c)
                elif c.expand in cases:
                    expanded += [Check(c.parent, n, "property", type_level=True) for n in cases[c.expand]]
                else:
                    unparsed.append((d.section, d.group, d.lineno, d.text,
                                     f"no cases listed for {'.'.join(c.expand)}"))
                    break
            else:
                d.checks = expanded
                kept.append(d)
        g.decls = kept


def parse_expected_counts(lines: list[str]) -> tuple[list, int | None]:
    """§10's table: per section, the (label, count) pairs of the "per type" column and the total."""
    rows, total, in_counts = [], None, False
    for raw in lines:
        if raw.startswith("## "):
            in_counts = bool(re.match(r"^## \d+\.\s*Symbol counts", raw))
            continue
        if not in_counts or not raw.startswith("|"):
            continue
        cells = [c.strip() for c in raw.strip().strip("|").split("|")]
        if len(cells) < 3 or not re.fullmatch(r"\**\d+\**", cells[2]):
            continue
        if "all" in cells[0]:
            total = int(cells[2].strip("*"))
            continue
        per_type = []
        for item in re.split(r",\s+(?![^()]*\))", cells[1]):
            if m := re.match(r"^(.*\S)\s+(\d+)$", item.strip()):
                per_type.append((m[1], int(m[2])))
        rows.append((cells[0], per_type, int(cells[2])))
    return rows, total


# ======================================================================================= symbol graphs

def build_package() -> None:
    cmd = ["swift", "build", "--target", MAIN_MODULE]
    print("$ " + shlex.join(cmd), file=sys.stderr)
    if subprocess.run(cmd, cwd=REPO).returncode != 0:
        sys.exit("api_coverage: swift build failed")


def compile_flags(build_root: str) -> tuple[str, list[str]]:
    """Target triple and the clang flags SwiftPM used to compile the module.

    Loading OpenHealthKit's module loads its dependencies' C modules too (GRDBSQLite, CZlib, BoringSSL…),
    whose module maps live in .build/checkouts; SwiftPM passes them as `-Xcc -fmodule-map-file=…`. The
    command is read from .build/debug.yaml (its `args:` lines are JSON); without it, every checked-out
    module map is passed.
    """
    triple = f"{platform.machine()}-unknown-linux-gnu"
    try:
        with open(os.path.join(build_root, "debug.yaml"), encoding="utf-8") as f:
            yaml = f.read().splitlines()
    except OSError:
        yaml = []
    key = re.compile(rf'^\s*"C\.{MAIN_MODULE}-(.+)-debug\.module":\s*$')
    for i, line in enumerate(yaml):
        if not key.match(line):
            continue
        for arg_line in yaml[i + 1:i + 12]:
            if arg_line.strip().startswith("args:"):
                args = json.loads(arg_line.split("args:", 1)[1])
                flags = []
                for j, arg in enumerate(args[:-1]):
                    if arg == "-target":
                        triple = args[j + 1]
                    elif arg == "-Xcc" and (args[j + 1].startswith("-fmodule-map-file=") or args[j + 1] == "-I"
                                            or (j > 1 and args[j - 1] == "-I" and args[j - 2] == "-Xcc")):
                        flags += ["-Xcc", args[j + 1]]
                return triple, flags
    maps = sorted(glob.glob(os.path.join(build_root, "checkouts", "**", "module.modulemap"), recursive=True))
    return triple, [flag for path in maps for flag in ("-Xcc", f"-fmodule-map-file={path}")]


def exported_package_modules(modules_dir: str) -> list[str]:
    """OpenHealthKit plus the package modules it re-exports with `@_exported import` (HealthModel).

    Foundation is re-exported too but is not ours; only modules built into `modules_dir` are kept.
    """
    found = []
    for path in sorted(glob.glob(os.path.join(REPO, "Sources", MAIN_MODULE, "**", "*.swift"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^\s*@_exported\s+(?:public\s+)?import\s+(?:(?:struct|class|enum|protocol|func|"
                             r"var|let|typealias)\s+)?(\w+)", line)
                if m and m[1] not in found and os.path.exists(os.path.join(modules_dir, m[1] + ".swiftmodule")):
                    found.append(m[1])
    return [MAIN_MODULE] + found


def extract_symbol_graphs(modules: list[str], modules_dir: str, out_dir: str) -> list[list[str]]:
    """Runs swift-symbolgraph-extract once per module into out_dir; returns the commands used.

    A private module cache keeps this off the build's own cache (a build may be running).
    """
    tool = shutil.which("swift-symbolgraph-extract")
    if tool is None:
        print("api_coverage: swift-symbolgraph-extract is not on PATH", file=sys.stderr)
        sys.exit(2)
    triple, flags = compile_flags(os.path.join(REPO, ".build"))
    commands = []
    for module in modules:
        cmd = [tool, "-module-name", module, "-I", modules_dir, "-target", triple,
               "-minimum-access-level", "public", "-output-dir", out_dir,
               "-module-cache-path", os.path.join(out_dir, "ModuleCache")] + flags
        commands.append(cmd)
        for attempt in range(2):
            # A concurrent `swift build` may be rewriting the .swiftmodule files: try a second time.
            result = subprocess.run(cmd, capture_output=True, text=True)
            if result.returncode == 0:
                break
            time.sleep(3)
        if result.returncode != 0 or not os.path.exists(os.path.join(out_dir, module + ".symbols.json")):
            print(f"api_coverage: symbol graph extraction failed for {module}:\n$ {shlex.join(cmd)}\n"
                  f"{result.stderr.strip()}", file=sys.stderr)
            sys.exit(2)
    return commands


@dataclass
class Symbol:
    module: str
    kind: str
    declaration: str
    is_async: bool
    type_level: bool
    settable: bool


class SymbolIndex:
    """Every public symbol of the extracted graphs, by (parent path, title), with the superclass links."""

    def __init__(self, graph_dir: str):
        self.by_key: dict[tuple[tuple[str, ...], str], list[Symbol]] = {}
        self.superclass: dict[tuple[str, ...], tuple[str, ...]] = {}
        self.files: list[str] = []
        self.graphs: dict[str, dict] = {}
        paths: dict[str, tuple[str, ...]] = {}
        inherits: list[tuple[str, str]] = []
        # Extension graphs (`Module@Other.symbols.json`) hold members added to other modules' types: read all.
        for path in sorted(glob.glob(os.path.join(graph_dir, "*.symbols.json"))):
            with open(path, encoding="utf-8") as f:
                graph = json.load(f)
            name = os.path.basename(path)[:-len(".symbols.json")]
            self.files.append(name)
            self.graphs[name] = graph
            for sym in graph.get("symbols", []):
                components = tuple(sym.get("pathComponents", []))
                if not components:
                    continue
                paths[sym["identifier"]["precise"]] = components
                self.by_key.setdefault((components[:-1], components[-1]), []).append(self._symbol(name, sym))
            inherits += [(r["source"], r["target"]) for r in graph.get("relationships", [])
                         if r.get("kind") == "inheritsFrom"]
        for source, target in inherits:
            if source in paths and target in paths:
                self.superclass[paths[source]] = paths[target]

    @staticmethod
    def _symbol(module: str, sym: dict) -> Symbol:
        kind = sym["kind"]["identifier"]
        decl = "".join(fragment.get("spelling", "") for fragment in sym.get("declarationFragments", []))
        is_async = False
        if kind in ("swift.method", "swift.type.method", "swift.func", "swift.init") and "(" in decl:
            # Only the effects after the parameter list count (a closure parameter may be `async` itself).
            try:
                open_index = decl.index("(")
                effects = decl[matching_paren(decl, open_index) + 1:].split("->")[0]
                is_async = bool(re.search(r"\basync\b", effects))
            except Unparsed:
                pass
        settable = decl.startswith("var ") or " var " in decl
        settable = settable and "{ get }" not in decl
        return Symbol(module, kind, decl, is_async, kind in TYPE_LEVEL_KINDS, settable)

    def superclasses(self, path: tuple[str, ...]) -> list[tuple[str, ...]]:
        chain = []
        while path in self.superclass and self.superclass[path] not in chain:
            path = self.superclass[path]
            chain.append(path)
        return chain

    def leaked_types(self, exported: list[str], modules_dir: str) -> set[tuple[str, str]]:
        """Types from non-exported package modules that appear in the public declarations.

        `import OpenHealthKit` reaches HealthModel (re-exported) but not HealthStore or HealthExport, which are
        imported internally; a public declaration naming one of their types would be a leak.
        """
        others = [os.path.basename(p)[:-len(".swiftmodule")] for p in glob.glob(os.path.join(modules_dir, "*.swiftmodule"))]
        prefixes = {f"s:{len(m)}{m}": m for m in others if m not in exported}
        leaks = set()
        for graph in self.graphs.values():
            for sym in graph.get("symbols", []):
                for fragment in sym.get("declarationFragments", []):
                    precise = fragment.get("preciseIdentifier", "")
                    for prefix, module in prefixes.items():
                        if precise.startswith(prefix):
                            leaks.add((module, fragment.get("spelling", "")))
        return leaks


# ============================================================================================ matching

def check_symbol(check: Check, index: SymbolIndex) -> tuple[bool, str, str, int]:
    """(found, why not, superclass it was found through, how many declared symbols fit).

    Inherited members count, as they do for a caller. The count lets overloads that share a title
    (`save(_:withCompletion:)` for one object and for an array) each claim a symbol of their own.
    """
    for owner in [check.parent] + index.superclasses(check.parent):
        candidates = index.by_key.get((owner, check.title), [])
        if check.kind == "type":
            candidates = [s for s in candidates if s.kind in TYPE_DECL_KINDS]
        if not candidates:
            continue
        via = ".".join(owner) if owner != check.parent else ""
        problems, fitting = [], 0
        for sym in candidates:
            if check.kind in ("func", "init") and sym.is_async != check.is_async:
                problems.append("declared only as async" if sym.is_async else "declared without async")
            elif check.type_level is not None and sym.type_level != check.type_level:
                problems.append("declared as a static member" if sym.type_level else "declared as an instance member")
            elif check.settable and not sym.settable:
                problems.append("declared read-only (listed as settable)")
            else:
                fitting += 1
        if fitting:
            return True, "", via, fitting
        return False, f"{check.name}: {problems[0]}", via, 0
    return False, f"{check.name}: not declared", "", 0


def match_all(surface: Surface, index: SymbolIndex) -> None:
    """Marks each declaration found or missing. Overloads that differ only in parameter types are not told
    apart by type (the brief: labels are enough), but each needs its own symbol: with two listed and one
    declared, the second listed is reported missing.
    """
    claimed: dict[tuple, int] = {}
    for decl in surface.decls:
        decl.found, decl.reason, decl.via = True, "", ""
        for check in decl.checks:
            ok, reason, via, fitting = check_symbol(check, index)
            if ok:
                key = (check.parent, check.title, check.is_async, check.type_level)
                claimed[key] = claimed.get(key, 0) + 1
                if claimed[key] > fitting:
                    ok, reason = False, (f"{check.name}: only {fitting} overload(s) with these labels declared, "
                                         f"more are listed (parameter types not compared)")
            if not ok:
                decl.found, decl.reason = False, reason
                break
            decl.via = decl.via or via


# ============================================================================================ reports

def coverage_rows(surface: Surface) -> list[tuple[str, int, int]]:
    rows = []
    for section in surface.sections:
        counted = [d for d in surface.decls if d.section == section and not d.beta]
        rows.append((section, len(counted), sum(d.found for d in counted)))
    return rows


def display_path(path: str) -> str:
    """Relative to the repository when inside it, else as given."""
    relative = os.path.relpath(os.path.abspath(path), REPO)
    return path if relative.startswith("..") else relative


def percent(found: int, listed: int) -> str:
    return f"{100.0 * found / listed:.1f}%" if listed else "-"


def held_totals(surface: Surface) -> tuple[int, int, dict[str, int]]:
    """Listed and found over the declarations for data the model holds, and the others' counts by reason."""
    counted = [d for d in surface.decls if not d.beta]
    apart: dict[str, int] = {}
    held = []
    for d in counted:
        reason = not_held_reason(d.text)
        if reason and not d.found:
            apart[reason] = apart.get(reason, 0) + 1
        else:
            held.append(d)
    return len(held), sum(d.found for d in held), apart


def print_table(rows: list[tuple[str, int, int]], markdown: bool) -> None:
    listed, found = sum(r[1] for r in rows), sum(r[2] for r in rows)
    if markdown:
        print("| section | listed | found | % |\n| --- | ---: | ---: | ---: |")
        for section, n, k in rows:
            print(f"| {section} | {n} | {k} | {percent(k, n)} |")
        print(f"| **total** | **{listed}** | **{found}** | **{percent(found, listed)}** |")
        return
    width = max(len(r[0]) for r in rows + [("total", 0, 0)])
    print(f"{'section':<{width}}  {'listed':>6}  {'found':>6}  {'%':>6}")
    for section, n, k in rows:
        print(f"{section:<{width}}  {n:>6}  {k:>6}  {percent(k, n):>6}")
    print(f"{'total':<{width}}  {listed:>6}  {found:>6}  {percent(found, listed):>6}")


def print_count_differences(surface: Surface) -> None:
    """Compares the parsed per-type counts (BETA 27 included, as in §10) with §10's table."""
    if not surface.expected:
        print("§10 comparison: no counts table found")
        return
    differences = []
    for section_label, per_type, total in surface.expected:
        number = section_label.split(".")[0]
        section = next((s for s in surface.sections if s.split(".")[0] == number), None)
        if section is None:
            differences.append(f"{section_label}: §10 lists {total}, the parser found no such section")
            continue
        # §10 skips the member-less heading, so compare the headings that produced declarations, in order.
        groups = [g for g in surface.groups if g.section == section and g.decls]
        parsed_total = sum(len(g.decls) for g in groups)
        if len(groups) != len(per_type):
            differences.append(f"{section}: §10 has {len(per_type)} per-type entries, the parser {len(groups)} "
                               f"headings with declarations")
        for group, (label, count) in zip(groups, per_type):
            if len(group.decls) != count:
                differences.append(f"{section} / {group.name}: parsed {len(group.decls)}, §10 says {count} ({label})")
        if parsed_total != total:
            differences.append(f"{section}: parsed {parsed_total}, §10 says {total}")
    parsed_all = len(surface.decls)
    if surface.expected_total is not None and parsed_all != surface.expected_total:
        differences.append(f"all: parsed {parsed_all}, §10 says {surface.expected_total}")
    if differences:
        print("Differences from §10's counts:")
        for line in differences:
            print("  " + line)
    else:
        print(f"Parsed counts match §10 for every type and section ({parsed_all} declarations with BETA 27).")


def print_missing(surface: Surface) -> None:
    """One entry per missing declaration: its symbol (and why, when it is not simply absent), then the line."""
    missing = [d for d in surface.decls if not d.beta and not d.found]
    print(f"\nMissing declarations ({len(missing)}):")
    section = None
    for d in missing:
        if d.section != section:
            section = d.section
            print(f"  {section}")
        symbol, _, why = d.reason.partition(": ")
        note = "" if why == "not declared" else f"  [{why}]"
        if (reason := not_held_reason(d.text)):
            note += f"  [not held yet: {reason}]"
        print(f"    {d.group} :: {symbol}{note}\n        {d.text}")
    inherited = [d for d in surface.decls if d.found and d.via]
    if inherited:
        print(f"\nFound only through a superclass ({len(inherited)}):")
        for d in inherited:
            print(f"    {d.group} :: {d.text}   (declared on {d.via})")


def print_notes(surface: Surface, index: SymbolIndex, modules: list[str], modules_dir: str) -> None:
    beta = [d for d in surface.decls if d.beta]
    if beta:
        names = ", ".join(f"{d.group}.{d.checks[0].title}" for d in beta)
        print(f"\nNot counted: {len(beta)} BETA 27 declarations (iOS 27 beta only; "
              f"{sum(d.found for d in beta)} declared): {names}")
    if surface.unparsed:
        print(f"\nUnparsed checklist lines ({len(surface.unparsed)}, not counted):")
        for section, group, lineno, line, why in surface.unparsed:
            print(f"  line {lineno} [{section} / {group}] {line}\n      ({why})")
    else:
        print("\nUnparsed checklist lines: none")
    print()
    print_count_differences(surface)
    leaks = index.leaked_types(modules, modules_dir)
    print(f"Symbol graphs read: {', '.join(index.files)}")
    if leaks:
        print("Public declarations naming types of non-exported modules: "
              + ", ".join(f"{m}.{t}" for m, t in sorted(leaks)))
    else:
        print(f"No public declaration names a type from a package module other than {', '.join(modules)}.")


# ================================================================================================ main

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-build", action="store_true", help="use the modules already in .build/debug")
    parser.add_argument("--missing", action="store_true", help="list every missing declaration")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--min-percent", type=float, metavar="P", help="exit 1 if the total is below P")
    parser.add_argument("--surface", default=SURFACE, help="the checklist (default: %(default)s)")
    parser.add_argument("--modules", default=os.path.join(REPO, ".build", "debug", "Modules"),
                        help="the built .swiftmodule folder (default: %(default)s)")
    args = parser.parse_args()

    if not args.no_build:
        build_package()
    if not os.path.exists(os.path.join(args.modules, MAIN_MODULE + ".swiftmodule")):
        print(f"api_coverage: {MAIN_MODULE}.swiftmodule is not in {args.modules}; build first", file=sys.stderr)
        return 2

    surface = parse_surface(args.surface)
    modules = exported_package_modules(args.modules)
    with tempfile.TemporaryDirectory(prefix="api-coverage-") as out_dir:
        commands = extract_symbol_graphs(modules, args.modules, out_dir)
        index = SymbolIndex(out_dir)
    match_all(surface, index)

    rows = coverage_rows(surface)
    print(f"HealthKit API coverage of {' + '.join(modules)} against {display_path(args.surface)}\n")
    print_table(rows, args.markdown)
    held_listed, held_found, apart = held_totals(surface)
    print(f"\nFor the data the model holds: {held_found} of {held_listed} ({percent(held_found, held_listed)}); "
          f"not held yet, missing: " + ", ".join(f"{reason} {n}" for reason, n in apart.items()))
    print_notes(surface, index, modules, args.modules)
    if args.missing:
        print_missing(surface)

    print("\nCommand: " + shlex.join([os.path.relpath(sys.argv[0])] + sys.argv[1:]))
    print("Symbol graphs (output and module cache in a temporary folder):")
    for cmd in commands:
        print("  " + shlex.join(cmd))

    listed, found = sum(r[1] for r in rows), sum(r[2] for r in rows)
    if args.min_percent is not None and (100.0 * found / listed if listed else 0.0) < args.min_percent:
        print(f"\nTotal {percent(found, listed)} is below --min-percent {args.min_percent:g}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
