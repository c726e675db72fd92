"""MuJoCo's mju_/mjd_ utility functions: programs under tests/capi/programs/util_*.c call
them on fixed inputs, compiled against MuJoCo 3.14's library and against Torsion's; the
printed results must agree (numbers to the tolerance of each case, text exactly)."""
import pytest

from capi_build import run_both

# (program, arguments, relative tolerance)
CASES = [
    ("util_boxqp.c", [], 1e-10),
    ("util_band.c", [], 1e-10),
    ("util_all.c", [], 1e-10),
    ("util_dot_bits.c", [], 0),
]


@pytest.mark.parametrize("program,args,rtol", CASES, ids=[c[0][:-2] for c in CASES])
def test_same_output(program, args, rtol, tmp_path):
    """The program prints the same text and numbers on both libraries."""
    expected, actual, diffs = run_both(program, tmp_path, args, rtol=rtol)
    assert expected.strip(), "the MuJoCo build printed nothing"
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)
