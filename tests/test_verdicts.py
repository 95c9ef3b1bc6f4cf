"""apply-verdicts: statuses from a round's reviews, all or nothing, idempotent."""

import json

from conftest import item, snapshot

OK = {"evidence": "Checked the page and the markup.", "blocking": False}


def review(item_id, verdict, round_no=1, **kw):
    codes = {"accept": ["CLEAN"], "revise": ["NO-RATIONALE"], "reject": ["LEAKAGE"]}[verdict]
    rec = {
        "item_id": item_id,
        "round": round_no,
        "verdict": verdict,
        "reason_codes": codes,
        **OK,
        "required_change": "Rewrite the rationale." if verdict == "revise" else None,
    }
    rec["blocking"] = verdict != "accept"
    rec.update(kw)
    return rec


def two_passes(**kw):
    return item(
        gold_alt_passes=[
            {"author": "pass-a", "alt": "Settings", "rationale": "r"},
            {"author": "pass-b", "alt": "Settings", "rationale": "the blind pass agrees"},
        ],
        image_url=None,
        implementation="inline-svg",
        **kw,
    )


def statuses(jfi):
    return [json.loads(line)["status"] for line in jfi.corpus.read_text().splitlines()]


def test_maps_verdicts_last_record_wins_and_is_idempotent(jfi):
    jfi.write_corpus([two_passes(id="fi-0001"), two_passes(id="fi-0002"), two_passes(id="fi-0003")])
    jfi.write_round(
        1,
        "review.jsonl",
        [
            review("fi-0001", "reject"),
            review("fi-0001", "accept"),
            review("fi-0002", "revise"),
            review("fi-0003", "reject"),
        ],
    )
    before = jfi.corpus.read_bytes()
    r = jfi("corpus", "apply-verdicts", "--round", "1", "--dry-run")
    assert r.exit_code == 0 and "would change" in r.stdout
    assert jfi.corpus.read_bytes() == before
    r = jfi("corpus", "apply-verdicts", "--round", "1")
    assert r.exit_code == 0, r.stderr
    assert statuses(jfi) == ["accepted", "needs-revision", "rejected"]
    after = jfi.corpus.read_bytes()
    r = jfi("corpus", "apply-verdicts", "--round", "1")
    assert r.exit_code == 1 and "0 status(es) changed" in r.stdout  # nothing to do
    assert jfi.corpus.read_bytes() == after
    # only the status changed, key order kept
    a, b = before.decode().splitlines()[1], after.decode().splitlines()[1]
    assert list(json.loads(a)) == list(json.loads(b))
    assert a.replace('"status":"candidate"', '"status":"needs-revision"') == b
    assert jfi("corpus", "validate", "--json").json["errors"] == []


def test_refused_round_leaves_every_file_byte_identical(example):
    corpus = [json.loads(line) for line in example.corpus.read_text().splitlines()]
    single = next(d for d in corpus if d["status"] == "candidate" and len(d["gold_alt_passes"]) == 1)
    leaky = next(d for d in corpus if d["leaky"])
    example.write_round(
        2,
        "review.jsonl",
        [review(single["id"], "accept", 2), review(leaky["id"], "accept", 2), review("fi-0011", "reject", 2)],
    )
    before = snapshot(example.project)
    r = example("corpus", "apply-verdicts", "--round", "2")
    assert r.exit_code == 2
    assert f"{single['id']}: accept_refused: a single gold-standard pass" in r.stderr
    assert f"{leaky['id']}: accept_refused: the item is leaky" in r.stderr
    assert "nothing written" in r.stderr
    assert snapshot(example.project) == before


def test_accept_needs_a_copy_whose_bytes_match(example):
    example.write_round(2, "review.jsonl", [review("fi-0001", "accept", 2)])
    image = example.project / "corpus" / "images" / "fi-0001.png"
    image.write_bytes(image.read_bytes() + b"tampered")
    before = snapshot(example.project)
    r = example("corpus", "apply-verdicts", "--round", "2")
    assert r.exit_code == 2 and "does not match image_sha256" in r.stderr
    assert snapshot(example.project) == before
    image.unlink()
    r = example("corpus", "apply-verdicts", "--round", "2")
    assert r.exit_code == 2 and "is missing" in r.stderr


def test_invalid_review_file_refuses_whole_round(jfi):
    jfi.write_corpus([two_passes(id="fi-0001")])
    jfi.write_round(1, "review.jsonl", [review("fi-0001", "reject"), review("fi-0009", "reject")])
    before = jfi.corpus.read_bytes()
    r = jfi("corpus", "apply-verdicts", "--round", "1")
    assert r.exit_code == 2 and "round-01-review.jsonl:2: item_id: unknown_item" in r.stderr
    assert jfi.corpus.read_bytes() == before


def test_missing_review_file(jfi):
    jfi.write_corpus([item()])
    r = jfi("corpus", "apply-verdicts", "--round", "4")
    assert r.exit_code == 2 and "round-04-review.jsonl" in r.stderr and "no_review_file" in r.stderr


def test_example_round_is_already_applied(example):
    before = snapshot(example.project)
    r = example("corpus", "apply-verdicts", "--round", "1")
    assert r.exit_code == 1 and "0 status(es) changed" in r.stdout
    assert snapshot(example.project) == before
