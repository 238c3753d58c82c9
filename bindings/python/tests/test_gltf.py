"""glTF from Python against the command-line tool: to_gltf() gives the bytes `gtastream convert
--to glb|gltf --skeleton` writes, on every DFF seed (testkit's DFF shapes) and each game's
binding, and the tracks it leaves out as the tool reports them (docs/ANIMATION.md, "glTF")."""

import json
import struct

import pytest

import gtastream
from test_skeleton import ANIM


@pytest.fixture(scope="module")
def models(seeds):
    found = {name: data for name, data in seeds.items() if name.startswith("dff-")}
    assert len(found) >= 5, "the seeds hold the DFF shapes"
    return found


def test_to_gltf_is_what_convert_writes(models, cli, tmp_path):
    animation = tmp_path / "ped.ifp"
    animation.write_bytes(ANIM)
    unwritten = 0
    for name, data in models.items():
        model = tmp_path / name
        model.write_bytes(data)
        for game in (None, "sa", "vc", "iii", "mta"):
            for container in ("glb", "gltf"):
                out = tmp_path / f"out.{container}"
                run = cli("convert", "--to", container, "--skeleton", model,
                          *(["--game", game] if game else []), animation, out)
                assert run.returncode == 0, run.stderr
                got = gtastream.to_gltf(ANIM, data, game=game, json=container == "gltf")
                assert got["bytes"] == out.read_bytes(), (name, game, container)
                assert set(got) == {"bytes", "animations", "empty", "unwritten"}
                for u in got["unwritten"]:
                    assert f"track {u['track']} " in run.stderr and u["message"] in run.stderr
                assert (f"{got['animations']} animations written, "
                        f"{len(got['unwritten'])} tracks not written") in run.stderr
                unwritten += len(got["unwritten"])
    assert unwritten > 0, "the bone no model has is left out"


def test_to_gltf_picks_animations_and_reports_errors(models):
    data = next(iter(models.values()))
    glb = gtastream.to_gltf(ANIM, data, animations=["WALK"])["bytes"]
    assert glb[:4] == b"glTF"
    (length,) = struct.unpack_from("<I", glb, 12)
    document = json.loads(glb[20:20 + length])
    assert [a["name"] for a in document.get("animations", [])] in (["walk"], [])
    with pytest.raises(gtastream.DecodeError) as missing:
        gtastream.to_gltf(ANIM, data, animations=["run"])
    assert (missing.value.kind, missing.value.offset) == ("not_found", 0)
    assert "no animation named `run`" in str(missing.value)
    with pytest.raises(ValueError):
        gtastream.to_gltf(ANIM, ANIM)
    with pytest.raises(ValueError):
        gtastream.to_gltf(ANIM, data, game="gta4")


def test_from_gltf_is_what_convert_writes(models, cli, tmp_path):
    written = 0
    for name, data in models.items():
        model = tmp_path / name
        model.write_bytes(data)
        exported = gtastream.to_gltf(ANIM, data)
        if not exported["animations"]:
            continue
        glb = tmp_path / "in.glb"
        glb.write_bytes(exported["bytes"])
        for fmt in ("anp3", "anpk"):
            out = tmp_path / f"back.{fmt}.ifp"
            run = cli("convert", "--to", fmt, "--skeleton", model, "--block", "ped",
                      "--quantize", glb, out)
            if run.returncode != 0:
                with pytest.raises(gtastream.EncodeError) as refused:
                    gtastream.from_gltf(exported["bytes"], fmt, skeleton=data, quantize=True)
                assert str(refused.value) in run.stderr
                continue
            got = gtastream.from_gltf(exported["bytes"], fmt, skeleton=data, quantize=True,
                                      report=True)
            assert got["bytes"] == out.read_bytes(), (name, fmt)
            assert set(got) == {"bytes", "animations", "notes", "report"}
            assert got["animations"] == len(gtastream.decode(got["bytes"])["animations"])
            written += 1
    assert written > 0


def test_from_gltf_errors(models):
    with pytest.raises(gtastream.EncodeError) as bad:
        gtastream.from_gltf(b'{"asset": 3')
    assert bad.value.kind == "json"
    data = next(iter(models.values()))
    glb = gtastream.to_gltf(ANIM, data)["bytes"]
    with pytest.raises(ValueError):
        gtastream.from_gltf(glb, "bnry")
    with pytest.raises(ValueError):
        gtastream.from_gltf(glb, games=["gta4"])
    with pytest.raises(gtastream.EncodeError) as unmapped:
        gtastream.from_gltf(glb, bone_map="no equals sign")
    assert unmapped.value.kind == "bone_map"
