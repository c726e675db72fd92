"""Parse a set of C API headers (MuJoCo's mujoco.h or Torsion's torsion.h and what they
include) into a plain description: functions, struct fields, enum constants, typedefs,
global variables and macros, each with its type spelled canonically.

Declarations come from clang's JSON AST (clang -Xclang -ast-dump=json), filtered to the
files under the header set's own directory; macros come from `clang -dM -E`. Types are
compared after resolving typedefs (mjtNum -> double, mjtSize -> long, mjModel ->
struct mjModel_), so two headers agree when a program compiled against either sees the same
types. Used by tests/capi/test_headers.py and scripts/capi_table.py."""
import json
import os
import re
import subprocess

import mujoco

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MUJOCO_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(mujoco.__file__)), "include")
MUJOCO_HEADER = os.path.join(MUJOCO_INCLUDE, "mujoco", "mujoco.h")
TORSION_INCLUDE = os.path.join(REPO, "engine", "include")
TORSION_HEADER = os.path.join(TORSION_INCLUDE, "torsion", "torsion.h")
CLANG = os.environ.get("CLANG", "clang")

# a name that belongs to MuJoCo's API (mj_, mju_, mjd_, mjs_, mjt*, mjMACRO, mjModel, ...)
MJ_NAME = re.compile(r"^mj")
# Torsion's own names (exempt from the comparison)
TN_NAME = re.compile(r"^(tn|TN|TORSION)")


class Header:
    """The parsed description of one header set.

    functions: name -> {"ret": type, "params": [type, ...], "variadic": bool}
    structs:   name -> [(field, type), ...] in declaration order; fields of nested anonymous
               structs are flattened as "outer.inner" (mjVisual's global.fovy ...)
    enums:     constant -> value (int)
    enum_types: enum type name -> [constant, ...]
    typedefs:  name -> canonical type
    globals:   name -> canonical type
    macros:    name -> {"params": None or [names], "body": text, "value": number or None}
    """

    def __init__(self):
        self.functions = {}
        self.structs = {}
        self.enums = {}
        self.enum_types = {}
        self.typedefs = {}
        self.globals = {}
        self.macros = {}
        self._raw_typedefs = {}


def _clang_ast(header, include_dir):
    """clang's JSON AST of `header` (as C11)."""
    cmd = [CLANG, "-x", "c", "-std=c11", "-fsyntax-only", "-Xclang", "-ast-dump=json",
           "-I", include_dir, header]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("clang failed on %s:\n%s" % (header, proc.stderr))
    return json.loads(proc.stdout)


def _clang_macros(header, include_dir):
    """The text of every #define visible after including `header` (clang -dM -E)."""
    cmd = [CLANG, "-x", "c", "-std=c11", "-dM", "-E", "-I", include_dir, header]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("clang -dM failed on %s:\n%s" % (header, proc.stderr))
    return proc.stdout


class _FileTracker:
    """clang's JSON prints a source location's file only when it differs from the previous
    printed location; this follows the print order to recover each declaration's file."""

    def __init__(self):
        self.current = None

    def _point(self, loc):
        if not isinstance(loc, dict):
            return self.current
        if "spellingLoc" in loc or "expansionLoc" in loc:
            self._point(loc.get("spellingLoc"))
            return self._point(loc.get("expansionLoc"))
        if "file" in loc:
            self.current = loc["file"]
        return self.current

    def node_file(self, node):
        """Consume the node's loc and range; return the file of its loc."""
        f = self._point(node.get("loc"))
        rng = node.get("range") or {}
        self._point(rng.get("begin"))
        self._point(rng.get("end"))
        return f

    def skip(self, node):
        """Consume every location inside node (its children included), in print order."""
        self.node_file(node)
        for child in node.get("inner", []):
            self.skip(child)


_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|\S")


def canonical_type(t, typedefs, depth=0):
    """Spell type `t` with typedefs resolved (recursively) and whitespace normalized.
    Function-pointer typedefs are resolved only when they are the whole type."""
    t = t.strip()
    if depth > 20:
        return t
    if t in typedefs and "(" in typedefs[t]:
        return canonical_type(typedefs[t], typedefs, depth + 1)
    out = []
    changed = False
    for tok in _TOKEN.findall(t):
        if out and out[-1] in ("enum", "struct", "union"):
            out.append(tok)  # a tag, not a typedef name
        elif tok in typedefs and "(" not in typedefs[tok]:
            out.append(typedefs[tok])
            changed = True
        else:
            out.append(tok)
    s = " ".join(out)
    if changed:
        return canonical_type(s, typedefs, depth + 1)
    s = re.sub(r"\s+", " ", s)
    s = re.sub(r"\s*([*(),\[\]])\s*", r"\1", s)
    return s


def _field_list(record, tracker, prefix=""):
    """[(name, raw type)] of a RecordDecl's fields; nested anonymous structs flattened."""
    fields = []
    pending = None
    for child in record.get("inner", []):
        tracker.node_file(child)
        kind = child.get("kind")
        if kind == "RecordDecl":
            pending = (child, _field_list(child, tracker, ""))
            continue
        if kind != "FieldDecl":
            for c in child.get("inner", []):
                tracker.skip(c)
            continue
        for c in child.get("inner", []):
            tracker.skip(c)
        qt = child["type"]["qualType"]
        name = child.get("name", "")
        if ("(unnamed" in qt or "(anonymous" in qt) and pending is not None:
            for sub, st in pending[1]:
                fields.append((prefix + name + "." + sub, st))
            pending = None
        else:
            fields.append((prefix + name, qt))
    return fields


def _enum_constants(enum, tracker):
    """[(name, value)] of an EnumDecl (implicit values: previous + 1)."""
    out = []
    value = -1
    for child in enum.get("inner", []):
        tracker.skip(child)
        if child.get("kind") != "EnumConstantDecl":
            continue
        explicit = None
        for c in child.get("inner", []):
            if "value" in c:
                explicit = int(c["value"])
                break
        value = explicit if explicit is not None else value + 1
        out.append((child["name"], value))
    return out


def _macro_number(body, macros, depth=0):
    """The numeric value of an object-like macro body (other macros expanded, casts and
    literal suffixes removed), or None when it is not a number."""
    if depth > 20:
        return None
    text = body.strip()
    toks = re.findall(r"[A-Za-z_]\w*|\d+\.?\d*(?:[eE][-+]?\d+)?[fFlLuU]*|\.\d+(?:[eE][-+]?\d+)?"
                      r"[fFlLuU]*|<<|>>|\S", text)
    out = []
    for tok in toks:
        if re.match(r"^[A-Za-z_]", tok):
            if tok in macros and macros[tok]["params"] is None:
                v = _macro_number(macros[tok]["body"], macros, depth + 1)
                if v is None:
                    return None
                out.append(repr(v))
            elif tok in ("int", "double", "float", "long", "unsigned", "char", "mjtNum"):
                continue  # casts
            else:
                return None
        elif re.match(r"^[\d.]", tok):
            out.append(re.sub(r"[fFlLuU]+$", "", tok))
        elif tok in "()+-*/|&~^<>" or tok in ("<<", ">>"):
            out.append(tok)
        else:
            return None
    expr = " ".join(out)
    expr = re.sub(r"\(\s*\)", "", expr)  # left over by removed cast names
    if not expr:
        return None
    try:
        v = eval(expr, {"__builtins__": {}}, {})  # arithmetic on literals only
    except Exception:
        return None
    return v if isinstance(v, (int, float)) else None


def _parse_macros(text):
    """name -> {"params", "body", "value"} from `clang -dM -E` output (mj names only)."""
    macros = {}
    for line in text.splitlines():
        m = re.match(r"#define\s+([A-Za-z_]\w*)(\(([^)]*)\))?\s?(.*)$", line)
        if not m:
            continue
        params = None
        if m.group(2) is not None:
            params = [p.strip() for p in m.group(3).split(",") if p.strip()]
        macros[m.group(1)] = {"params": params, "body": m.group(4).strip(), "value": None}
    for name, mac in macros.items():
        if mac["params"] is None:
            mac["value"] = _macro_number(mac["body"], macros)
    return {k: v for k, v in macros.items() if MJ_NAME.match(k)}


def parse(header, include_dir, own_dir=None):
    """Parse `header` (with -I include_dir); keep declarations from files under own_dir
    (default: the header's directory)."""
    own_dir = os.path.realpath(own_dir or os.path.dirname(header))
    ast = _clang_ast(header, include_dir)
    h = Header()
    tracker = _FileTracker()
    pending_records = {}  # tag name -> fields, for typedefs of tagged structs
    anon_records = []
    struct_tags = {}  # typedef name -> struct tag
    for node in ast.get("inner", []):
        f = tracker.node_file(node)
        kind = node.get("kind")
        own = f is not None and os.path.realpath(f).startswith(own_dir + os.sep)
        if kind == "RecordDecl":
            if node.get("completeDefinition"):
                fields = _field_list(node, tracker)
                if own:
                    if node.get("name"):
                        pending_records[node["name"]] = fields
                    else:
                        anon_records.append(fields)
            else:
                for c in node.get("inner", []):
                    tracker.skip(c)
            continue
        if kind == "EnumDecl":
            consts = _enum_constants(node, tracker)
            if own:
                for n, v in consts:
                    h.enums[n] = v
                if node.get("name"):
                    h.enum_types[node["name"]] = [n for n, _ in consts]
            continue
        for c in node.get("inner", []):
            tracker.skip(c)
        if not own:
            if kind == "TypedefDecl":  # system typedefs (size_t, int64_t) still resolve
                h._raw_typedefs[node["name"]] = node["type"]["qualType"]
            continue
        if kind == "TypedefDecl":
            name = node["name"]
            qt = node["type"]["qualType"]
            h._raw_typedefs[name] = qt
            m = re.match(r"^struct (\w+)$", qt)
            if m:
                struct_tags[name] = m.group(1)  # resolved below (the body may come later)
            elif "(unnamed struct" in qt and anon_records:
                h.structs[name] = anon_records.pop()
            m = re.match(r"^enum (\w+)$", qt)
            if m and m.group(1) in h.enum_types:
                h.enum_types[name] = h.enum_types[m.group(1)]
        elif kind == "FunctionDecl":
            params = [c["type"]["qualType"] for c in node.get("inner", [])
                      if c.get("kind") == "ParmVarDecl"]
            ret = _return_type(node["type"]["qualType"])
            h.functions[node["name"]] = {"ret": ret, "params": params,
                                         "variadic": bool(node.get("variadic"))}
        elif kind == "VarDecl":
            h.globals[node["name"]] = node["type"]["qualType"]
    # structs under their typedef names; tagged structs without a typedef keep the tag
    named = set()
    for name, tag in struct_tags.items():
        if tag in pending_records:
            h.structs[name] = pending_records[tag]
            named.add(tag)
    for tag, fields in pending_records.items():
        if tag not in named:
            h.structs[tag] = fields
    # canonical spellings
    td = h._raw_typedefs
    for name, fn in h.functions.items():
        fn["ret"] = canonical_type(fn["ret"], td)
        fn["params"] = [canonical_type(p, td) for p in fn["params"]]
    for name in h.structs:
        h.structs[name] = [(n, canonical_type(t, td)) for n, t in h.structs[name]]
    for name in list(h.globals):
        h.globals[name] = canonical_type(h.globals[name], td)
    for name, qt in td.items():
        if MJ_NAME.match(name):
            h.typedefs[name] = canonical_type(name, td)
    h.macros = _parse_macros(_clang_macros(header, include_dir))
    return h


def _return_type(ftype):
    """The return type of a function type spelled "ret (params)" (ret may itself hold
    parentheses for a returned function pointer; we find the top-level parameter list)."""
    depth = 0
    # the parameter list is the last top-level parenthesized group
    end = len(ftype)
    for i in range(len(ftype) - 1, -1, -1):
        c = ftype[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                end = i
                break
    return ftype[:end].strip()


def mujoco_headers():
    """MuJoCo 3.14's C API (the wheel's mujoco.h and what it includes)."""
    return parse(MUJOCO_HEADER, MUJOCO_INCLUDE)


def torsion_headers():
    """Torsion's C API (engine/include/torsion/torsion.h and what it includes)."""
    return parse(TORSION_HEADER, TORSION_INCLUDE)


def is_mujoco_name(name):
    """True for names in MuJoCo's namespace that Torsion must spell as MuJoCo does."""
    return bool(MJ_NAME.match(name)) and not TN_NAME.match(name)


def _fmt_params(params, variadic):
    return "(" + ", ".join(params + (["..."] if variadic else [])) + ")"


def differences(mj, tn):
    """Every way Torsion's header set `tn` declares a MuJoCo name differently from MuJoCo's
    `mj`: a list of (kind, name, message), sorted. Names only MuJoCo declares are not
    differences (Torsion implements a subset); Torsion's own tn names are exempt."""
    out = []
    # functions: presence, return type, parameter types in order, variadic
    for name, fn in tn.functions.items():
        if not is_mujoco_name(name):
            continue
        ref = mj.functions.get(name)
        if ref is None:
            out.append(("function", name, "declared by Torsion but not a MuJoCo 3.14 function"))
            continue
        if fn["ret"] != ref["ret"]:
            out.append(("function", name, "returns %s, MuJoCo returns %s"
                        % (fn["ret"], ref["ret"])))
        if fn["params"] != ref["params"] or fn["variadic"] != ref["variadic"]:
            out.append(("function", name, "parameters %s, MuJoCo has %s"
                        % (_fmt_params(fn["params"], fn["variadic"]),
                           _fmt_params(ref["params"], ref["variadic"]))))
    # structs: every field exists with MuJoCo's type; order when the field sets agree
    for name, fields in tn.structs.items():
        if not is_mujoco_name(name):
            continue
        ref = mj.structs.get(name)
        if ref is None:
            out.append(("struct", name, "declared by Torsion but not a MuJoCo 3.14 struct"))
            continue
        ref_types = dict(ref)
        for field, ftype in fields:
            if field not in ref_types:
                out.append(("field", name + "." + field,
                            "Torsion's field (%s) is not in MuJoCo's %s" % (ftype, name)))
            elif ref_types[field] != ftype:
                out.append(("field", name + "." + field, "type %s, MuJoCo has %s"
                            % (ftype, ref_types[field])))
        names = [f for f, _ in fields]
        ref_names = [f for f, _ in ref]
        if sorted(names) == sorted(ref_names) and names != ref_names:
            first = next(i for i, (a, b) in enumerate(zip(names, ref_names)) if a != b)
            out.append(("order", name, "fields in a different order from MuJoCo's: field "
                        "%d is %s, MuJoCo has %s" % (first, names[first], ref_names[first])))
    # enum constants: presence and value
    for name, value in tn.enums.items():
        if not is_mujoco_name(name):
            continue
        if name not in mj.enums:
            out.append(("enum", name, "constant %d is not in MuJoCo 3.14" % value))
        elif mj.enums[name] != value:
            out.append(("enum", name, "value %d, MuJoCo has %d" % (value, mj.enums[name])))
    # typedefs: the same type after resolving
    for name, t in tn.typedefs.items():
        if not is_mujoco_name(name):
            continue
        if name not in mj.typedefs:
            out.append(("typedef", name, "type %s is not a MuJoCo 3.14 typedef" % t))
        elif mj.typedefs[name] != t:
            out.append(("typedef", name, "is %s, MuJoCo has %s" % (t, mj.typedefs[name])))
    # global variables
    for name, t in tn.globals.items():
        if not is_mujoco_name(name):
            continue
        if name not in mj.globals:
            out.append(("global", name, "global %s is not in MuJoCo 3.14" % t))
        elif mj.globals[name] != t:
            out.append(("global", name, "type %s, MuJoCo has %s" % (t, mj.globals[name])))
    # macros: numeric value, or the body text (whitespace aside) and parameters
    for name, mac in tn.macros.items():
        if not is_mujoco_name(name):
            continue
        ref = mj.macros.get(name)
        if ref is None:
            out.append(("macro", name, "%s is not a MuJoCo 3.14 macro" % mac["body"]))
            continue
        if mac["params"] != ref["params"] and (mac["params"] is None
                                               or ref["params"] is None
                                               or len(mac["params"]) != len(ref["params"])):
            out.append(("macro", name, "parameters %s, MuJoCo has %s"
                        % (mac["params"], ref["params"])))
        elif mac["value"] is not None and ref["value"] is not None:
            if mac["value"] != ref["value"]:
                out.append(("macro", name, "value %r, MuJoCo has %r"
                            % (mac["value"], ref["value"])))
        elif _norm_body(mac) != _norm_body(ref):
            out.append(("macro", name, "expands to %s, MuJoCo to %s"
                        % (mac["body"], ref["body"])))
    return sorted(out)


def _norm_body(mac):
    """A macro body with whitespace removed and parameters renamed by position."""
    body = mac["body"]
    for i, p in enumerate(mac["params"] or []):
        body = re.sub(r"\b%s\b" % re.escape(p), "@%d" % i, body)
    return re.sub(r"\s+", "", body)
