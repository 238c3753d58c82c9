"""check() against `gtastream check --json`: the same document, and its findings."""

import json

import pytest

import formats
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


def test_every_seed_matches_check_json(seeds, cli, tmp_path):
    """Findings, groups, summary and the games checked: the command's document for every seed
    file, with the games read from the file and with games named."""
    compared = 0
    # A Vice City text IPL: named games fix its layout (`--game sa` reads it as San Andreas).
    vc = b"inst\n1, name, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\nend\n"
    for name, data in [*seeds.items(), ("vc.ipl", vc)]:
        path = tmp_path / name
        path.write_bytes(data)
        for games in (None, ["sa"], ["iii", "vc"]):
            flags = [arg for game in games or [] for arg in ("--game", game)]
            run = cli("check", "--json", *flags, path)
            if run.returncode not in (0, 1):
                continue  # not a file check reads (the command says why on stderr)
            doc = gtastream.check(data, name=str(path), games=games)
            assert doc == json.loads(run.stdout), (name, games)
            (entry,) = doc["inputs"]
            assert entry["games_from"] == ("caller" if games else "file")
            levels = [f["severity"] for f in entry["findings"]]
            summary = entry["summary"]
            assert (summary["errors"], summary["warnings"], summary["notes"]) == (
                levels.count("error"), levels.count("warning"), levels.count("note"))
            assert sum(g["count"] for g in entry["groups"]) == len(entry["findings"])
            compared += 1
    assert compared > 20, compared


def _games(data, name, games=None):
    (entry,) = gtastream.check(data, name=name, games=games)["inputs"]
    return entry["games"], entry["games_from"]


KEYS = [(0, 0, 0, 1, 0.0), (0, 0, 0, 1, 1.0)]


def test_the_games_come_from_the_file():
    anp3 = formats.ifp2([("walk", [("Root", 3, 0, [(0, 0, 0, 4096, 0), (0, 0, 0, 4096, 5)])])],
                        package="demo")
    assert _games(anp3, "demo.ifp") == (["sa", "mta"], "file")
    iii = formats.anpk([("walk", [("Root", b"KR00", 0, KEYS)])], package="demo", anim48=True)
    assert _games(iii, "demo.ifp") == (["iii"], "file")
    assert _games(anp3, "demo.ifp", ["vc", "sa"]) == (["sa"], "caller")


def test_a_vice_city_ped_passes_by_default_and_fails_iii(cli, tmp_path):
    animations = [(f"anim{i}", [("Root", b"KR00", 0, KEYS)]) for i in range(269)]
    ped = formats.anpk(animations, package="ped")
    (entry,) = gtastream.check(ped, name="ped.ifp")["inputs"]
    assert [f for f in entry["findings"] if f["severity"] == "error"] == []
    assert entry["summary"]["errors"] == 0
    assert "iii" not in entry["games"]
    (iii,) = gtastream.check(ped, name="ped.ifp", games=["iii"])["inputs"]
    assert iii["games"] == ["iii"]
    over = next(g for g in iii["groups"] if g["rule"] == "ifp.anims.total_over_limit")
    assert (over["severity"], over["games"]) == ("error", ["iii"])
    assert iii["summary"]["games"]["iii"]["errors"] == iii["summary"]["errors"] > 0
    path = tmp_path / "ped.ifp"
    path.write_bytes(ped)
    run = cli("check", "--json", "--game", "iii", path)
    assert run.returncode == 1, run.stderr
    assert gtastream.check(ped, name=str(path), games=["iii"]) == json.loads(run.stdout)


def test_a_version1_archive_with_its_dir_is_the_commands_document(cli, tmp_path):
    """check(img, dir=...) is `gtastream check --json NAME.img` with the .dir beside."""
    img, directory = gtastream.write_archive([("walk.ipl", IPL)], v1=True)
    path = tmp_path / "gta3.img"
    path.write_bytes(img)
    (tmp_path / "gta3.dir").write_bytes(directory)
    run = cli("check", "--json", path)
    doc = gtastream.check(img, name=str(path), dir=directory)
    assert doc == json.loads(run.stdout)
    (entry,) = doc["inputs"]
    assert entry["format"] == "VER1"
    assert any(f["entry"] == "walk.ipl" for f in entry["findings"])
    with pytest.raises(ValueError):
        gtastream.check(img, dir=directory, skeleton=b"\x10\0\0\0")
