"""check() against `gtastream check --json`: the same document, and its findings."""

import json

import pytest

import gtastream

IPL = b"inst\n20000, x, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n"


def test_findings_of_a_text_ipl():
    doc = gtastream.check(IPL, name="x.ipl")
    (entry,) = doc["inputs"]
    assert (entry["file"], entry["format"]) == ("x.ipl", "text")
    finding = next(f for f in entry["findings"] if f["rule"] == "iplsa.inst.id_range")
    assert finding["severity"] == "error"
    assert finding["games"] == ["sa"]
    assert finding["offset"] == 5
    assert (finding["entry"], finding["animation"], finding["bone"]) == (None, None, None)
    assert finding["message"].startswith("line 2: a model id")
    assert gtastream.check(IPL, name="x.ipl", games=["mta"])["inputs"][0]["findings"] == []
    with pytest.raises(ValueError):
        gtastream.check(IPL, games=["gta4"])


def test_the_same_document_as_the_command(cli, tmp_path):
    path = tmp_path / "x.ipl"
    path.write_bytes(IPL)
    run = cli("check", "--json", path)
    assert run.returncode == 1, run.stderr
    assert gtastream.check(IPL, name=str(path)) == json.loads(run.stdout)
