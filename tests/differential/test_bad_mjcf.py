"""Bad MJCF input (issue 2, item 6): every file in tests/models/bad/ must be rejected by
`torsion-sim info` with a clean non-zero exit and a message naming the file, the line, and
the element and attribute at fault (tests/models/bad/README.md lists what each file
breaks, and the line each message must give). No crash on any input."""
import os
import re

import pytest

from harness import corpus, torsion

BAD_DIR = os.path.join(corpus.REPO_ROOT, "tests", "models", "bad")
FILES = sorted(f for f in os.listdir(BAD_DIR) if f.endswith(".xml")) if os.path.isdir(
    BAD_DIR) else []


def _expectation(path):
    """Element and attribute the message must name, from an '<!-- expect: element=E
    attribute=A -->' comment in the file (either may be absent)."""
    with open(path, errors="replace") as f:
        text = f.read()
    found = re.search(r"expect:([^>]*)-->", text)
    if not found:
        return {}
    return dict(re.findall(r"(\w+)=([\w:./-]+)", found.group(1)))


def _expected_lines():
    """{file: line} from the README's table ("`name.xml:LINE: ...`" messages)."""
    path = os.path.join(BAD_DIR, "README.md")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {m.group(1): int(m.group(2))
                for m in re.finditer(r"`([\w.-]+\.xml):(\d+):", f.read())}


LINES = _expected_lines()


@pytest.mark.parametrize("name", FILES or ["(no files)"])
def test_bad_file_rejected(name):
    assert FILES, "tests/models/bad/ holds no .xml files"
    path = os.path.join(BAD_DIR, name)
    proc = torsion.run(["info", path], check=False)
    err = proc.stderr.strip()
    assert proc.returncode > 0, "%s: exit status %d, expected a clean failure (stderr: %s)" % (
        name, proc.returncode, err)
    assert name in err, "message does not name the file %s: %r" % (name, err)
    assert re.search(r"line\s*\d+|:\d+", err), "message has no line number: %r" % err
    if name in LINES:
        line = LINES[name]
        assert re.search(r"(%s:%d\b|line\s*%d\b)" % (re.escape(name), line, line), err), \
            "message does not give line %d (README.md): %r" % (line, err)
    for key in ("element", "attribute"):
        want = _expectation(path).get(key)
        if want:
            assert want in err, "message does not name the %s '%s': %r" % (key, want, err)
