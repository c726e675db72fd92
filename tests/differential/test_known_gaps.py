"""Documented fidelity gaps (docs/fidelity.md, corpus.KNOWN_GAPS): the local scenes listed
there are left out of the dynamics corpus. The list is empty now; these checks keep it
honest: every entry names an existing local scene with a reason, is really left out of the
corpus, and scenes whose gap was closed (spatial tendons with the side site inside the
obstacle, now computed by MuJoCo's own iteration) run in the normal corpus tests again."""
from harness import corpus

# scenes that used to be listed and must now stay in the corpus
CLOSED_GAPS = ["local/tendons/sphere_wrap_inside", "local/tendons/cylinder_wrap_inside"]


def test_gap_entries_are_local_scenes_with_a_reason():
    local = {m.id for m in corpus.local_models()}
    for mid, reason in corpus.KNOWN_GAPS.items():
        assert mid in local, "KNOWN_GAPS names %s, which is no local scene" % mid
        assert reason.strip(), "KNOWN_GAPS entry %s gives no reason" % mid


def test_gap_scenes_are_left_out_of_the_corpus():
    corpus_ids = {m.id for m in corpus.all_models()}
    gaps = {m.id for m in corpus.gap_models()}
    assert gaps == set(corpus.KNOWN_GAPS)
    assert not gaps & corpus_ids


def test_closed_gaps_run_in_the_corpus():
    corpus_ids = {m.id for m in corpus.all_models()}
    for mid in CLOSED_GAPS:
        assert mid not in corpus.KNOWN_GAPS
        assert mid in corpus_ids, "%s is missing from the dynamics corpus" % mid
