"""The C unit tests' results, so that pytest's closing summary counts them too.

scripts/test.sh runs `meson test` first and exports TORSION_MESON_TESTLOG (meson's
build/meson-logs/testlog.json). Each unit test found there becomes one test here that
passes only when meson reported it OK. Without that variable (pytest run on its own) these
tests are not generated at all; run `meson test -C build` for them."""
import json
import os

import pytest

LOG = os.environ.get("TORSION_MESON_TESTLOG")


def _results():
    """[(name, result, log excerpt)] from meson's test log (a JSON object per line)."""
    if not os.path.exists(LOG):
        return [("testlog.json", "MISSING", "meson wrote no %s" % LOG)]
    out = []
    with open(LOG) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                out.append((r.get("name", "?"), r.get("result", "?"),
                            (r.get("stdout") or "")[-3000:]))
    return out


if LOG:
    RESULTS = _results()
    if RESULTS:
        @pytest.mark.parametrize("name,result,log", RESULTS, ids=[r[0] for r in RESULTS])
        def test_c_unit(name, result, log):
            assert result == "OK", "meson test %s: %s\n%s" % (name, result, log)
