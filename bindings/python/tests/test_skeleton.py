"""Skeletons from Python against the command-line tool: sample() on a model is `sample
--skeleton`, check() with a model is `check --skeleton`, check() of a model alone its skeleton
report (docs/SKELETON.md). The models are the DFF seeds (testkit's DFF shapes)."""

import json

import pytest

import gtastream
from formats import ifp2

# Root (id 0), Pelvis (id 1, the name SA's own files spell with a blank), Head (id 5) and a
# bone no model has; Root moves.
ANIM = ifp2([("walk", [
    ("Root", 4, 0, [(0, 0, 0, 4096, 0, 0, 0, 0), (0, 0, 4096, 0, 120, 2048, 0, -2048)]),
    (" Pelvis", 3, 1, [(0, 0, 0, 4096, 0), (0, 2048, 0, 3547, 60)]),
    ("Head", 3, 5, [(2048, 2048, 2048, 2048, 0)]),
    ("nothing", 3, 777, [(0, 0, 0, 4096, 0)]),
])], flags=1)


@pytest.fixture(scope="module")
def models(seeds):
    found = {name: data for name, data in seeds.items() if name.startswith("dff-")}
    assert len(found) >= 5, "the seeds hold the DFF shapes"
    return found


def test_decode_of_a_model(models):
    for name, data in models.items():
        doc = gtastream.decode(data)
        assert doc["format"] == "dff", name
        assert set(doc) == {"format", "rw_version", "frames", "hanim", "skin", "atomics",
                            "geometries"}
        assert doc["frames"] and doc["frames"][0]["parent"] == -1, name


def test_sample_on_a_model_is_the_cli_document(models, cli, tmp_path):
    animation = tmp_path / "ped.ifp"
    animation.write_bytes(ANIM)
    bound = 0
    for name, data in models.items():
        model = tmp_path / name
        model.write_bytes(data)
        for game in (None, "sa", "vc", "iii", "mta"):
            for time in (0.0, 0.5):
                args = ["sample", "--json", "--skeleton", model, "--animation", "walk", "--time",
                        time, *(["--game", game] if game else []), animation]
                run = cli(*args)
                assert run.returncode == 0, run.stderr
                pose = gtastream.sample(ANIM, "walk", time, skeleton=data, game=game)
                assert pose == json.loads(run.stdout), (name, game, time)
                assert len(pose["frames"]) == len(gtastream.decode(data)["frames"])
                assert all(len(f["matrix"]) == 16 for f in pose["frames"])
                bound += sum(b["frame"] is not None for b in pose["bones"])
    assert bound > 0


def test_check_with_a_model_is_the_cli_document(models, cli, tmp_path):
    animation = tmp_path / "ped.ifp"
    animation.write_bytes(ANIM)
    rules = set()
    for name, data in models.items():
        model = tmp_path / name
        model.write_bytes(data)
        run = cli("check", "--json", "--skeleton", model, animation)
        doc = gtastream.check(ANIM, name=str(animation), skeleton=data)
        assert doc == json.loads(run.stdout), name
        rules |= {f["rule"] for f in doc["inputs"][0]["findings"]}
        alone = cli("check", "--json", model)
        assert gtastream.check(data, name=str(model)) == json.loads(alone.stdout), name
    # The track no model has, at least, binds to nothing.
    assert any(rule.startswith("skel.") for rule in rules), rules


def test_a_skeleton_that_is_no_model(models):
    with pytest.raises(ValueError):
        gtastream.sample(ANIM, "walk", 0.0, skeleton=ANIM)
    with pytest.raises(gtastream.DecodeError):
        gtastream.check(ANIM, skeleton=next(iter(models.values()))[:40])
    with pytest.raises(ValueError):
        gtastream.sample(ANIM, "walk", [0.0, 1.0], skeleton=next(iter(models.values())))
    with pytest.raises(ValueError):
        gtastream.sample(ANIM, "walk", 0.0, skeleton=next(iter(models.values())), game="gta4")
