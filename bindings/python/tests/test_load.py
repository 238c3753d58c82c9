"""load(): Package with numpy arrays per bone, Placement with numpy columns."""

import gc
import math

import numpy as np
import pytest

import gtastream
from formats import anpk, bnry, ifp2


def f32(values):
    return np.array(values, dtype=np.float32)


PACKED = [(0, 0, 410, 4095, 0, 1024, -2048, 512), (100, -200, 300, 4000, 30, 0, 2, 4096)]
FLOATS = [(0.1, 0.2, 0.3, 0.9, 0.0), (0.5, -0.5, 0.25, 0.75, 1.5)]


def sample_anp3():
    return ifp2([
        ("Walk_Civi", [("Root", 4, 0, PACKED), ("Spine", 1, 3, FLOATS)]),
        ("IDLE", [("Head", 3, -1, [(0, 0, 0, 4096, 0)])]),
    ], package="ped")


def test_package_arrays_from_packed_and_float_frames():
    package = gtastream.load(sample_anp3())
    assert isinstance(package, gtastream.Package)
    assert (package.format, package.name, len(package)) == ("ANP3", "ped", 2)
    assert [a.name for a in package.animations] == ["Walk_Civi", "IDLE"]
    assert package.warnings == []

    walk = package.animations[0]
    assert (walk.frame_data_size, walk.flags, walk.duration) == (2 * 16 + 2 * 20, 1, None)
    root, spine = walk.bones
    assert (root.name, root.bone_id, root.bone_key, root.frame_type) == (
        "Root", 0, None, "ifp2_packed_rot_trans")
    assert root.times.dtype == np.float32 and root.times.shape == (2,)
    assert root.rotations.dtype == np.float32 and root.rotations.shape == (2, 4)
    assert root.translations.shape == (2, 3) and root.scales is None
    packed = np.array(PACKED, dtype=np.float32)
    # docs/FORMATS.md §2.2: quaternion / 4096, time / 60 (ticks), translation / 1024.
    np.testing.assert_array_equal(root.rotations, packed[:, 0:4] / np.float32(4096))
    np.testing.assert_array_equal(root.times, packed[:, 4] / np.float32(60))
    np.testing.assert_array_equal(root.translations, packed[:, 5:8] / np.float32(1024))
    assert len(root) == 2

    assert (spine.frame_type, spine.bone_id, spine.translations) == ("ifp2_rot", 3, None)
    np.testing.assert_array_equal(spine.rotations, f32([f[:4] for f in FLOATS]))
    np.testing.assert_array_equal(spine.times, f32([f[4] for f in FLOATS]))

    head = package.animations[1].bones[0]
    assert head.bone_id == -1 and head.rotations.tolist() == [[0, 0, 0, 1]]


def test_lookups_are_case_insensitive():
    package = gtastream.load(sample_anp3())
    assert package.animation("walk_civi").name == "Walk_Civi"
    assert package.animation("idle").name == "IDLE"
    assert package.animation("run") is None
    walk = package.animation("WALK_CIVI")
    assert walk.bone("spine").bone_id == 3
    assert walk.bone("neck") is None
    assert walk.bone_by_id(0).name == "Root"
    assert walk.bone_by_id(42) is None


def ped_shaped_anp3():
    """Shaped like a stock San Andreas ped.ifp: the root bone is "Normal", the others start
    with a space, bone ids are the SA skeleton's, one bone has id -1."""
    rotation = [(0, 0, 0, 4096, 0), (0, 0, 1, 4096, 30)]
    bones = [("Normal", 4, 0, [(0, 0, 0, 4096, 0, 0, 0, 1024)]),
             (" Pelvis", 3, 1, rotation), (" Spine", 3, 2, rotation),
             (" L Thigh", 3, 41, rotation), (" R Thigh", 3, 51, rotation),
             (" L Finger", 3, -1, rotation)]
    return ifp2([("WALK_player", bones), ("walk_civi", bones)], package="ped")


def test_lookups_find_the_names_of_a_real_ped_file():
    package = gtastream.load(ped_shaped_anp3())
    walk = package.animation("WALK_CIVI")
    assert walk.name == "walk_civi"
    assert package.animation(" walk_player ").name == "WALK_player"
    for query, bone_id in [("Normal", 0), ("normal", 0), ("Pelvis", 1), (" PELVIS", 1),
                           ("spine", 2), ("l thigh", 41), ("R Thigh\n", 51), ("L Finger", -1)]:
        assert walk.bone(query).bone_id == bone_id, query
    # The stored names are kept; only the lookup ignores the space.
    assert walk.bone_by_id(1).name == " Pelvis"
    assert walk.bone("Root") is None
    assert walk.bone("LThigh") is None
    assert package.animation("\xa0walk_civi") is None  # only ASCII whitespace is ignored


def test_anpk_rotations_are_conjugated_and_scales_kept():
    frames = [(0.1, 0.2, 0.3, 0.9, 1, 2, 3, 0.5, 0.5, 2, 0.0),
              (0.4, 0.5, 0.6, 0.7, 4, 5, 6, 1, 1, 1, 0.25)]
    package = gtastream.load(anpk([("jump", [("Pelvis", b"KRTS", 2, frames)])], package="vc"))
    assert (package.format, package.name) == ("ANPK", "vc")
    bone = package.animation("JUMP").bone("pelvis")
    assert (bone.frame_type, bone.bone_id) == ("krts", 2)
    stored = f32(frames)
    expected_rotations = stored[:, 0:4] * f32([-1, -1, -1, 1])
    np.testing.assert_array_equal(bone.rotations, expected_rotations)
    np.testing.assert_array_equal(bone.translations, stored[:, 4:7])
    np.testing.assert_array_equal(bone.scales, stored[:, 7:10])
    np.testing.assert_array_equal(bone.times, stored[:, 10])


def test_load_agrees_with_decode_on_every_animation_seed(seeds):
    """The arrays hold the same numbers as decode()'s frames (NaN where decode has None)."""
    checked = set()
    for name, data in seeds.items():
        try:
            document = gtastream.decode(data)
        except gtastream.DecodeError as error:
            with pytest.raises(gtastream.DecodeError) as caught:
                gtastream.load(data)
            assert (caught.value.kind, caught.value.offset) == (error.kind, error.offset)
            continue
        if document["format"] in ("dff", "ide"):
            # Models and definitions have no arrays to load: decode() gives their document.
            with pytest.raises(ValueError):
                gtastream.load(data)
            continue
        loaded = gtastream.load(data)
        if document["format"] in ("bnry", "text"):
            continue
        checked.add(document["format"])
        assert (loaded.format, loaded.name) == (document["format"], document["name"]), name
        assert len(loaded.animations) == len(document["animations"])
        for animation, expected in zip(loaded.animations, document["animations"]):
            assert animation.name == expected["name"]
            assert animation.duration == pytest.approx(expected["duration"])
            for bone, bone_doc in zip(animation.bones, expected["bones"]):
                assert (bone.name, bone.bone_id, bone.bone_key, bone.frame_type) == (
                    bone_doc["name"], bone_doc["bone_id"], bone_doc["bone_key"],
                    bone_doc["frame_type"]), name
                frames = bone_doc["frames"]
                assert_column(bone.times, [f["time"] for f in frames])
                assert_column(bone.rotations, [f["rotation"] for f in frames], width=4)
                for field, key in ((bone.translations, "translation"), (bone.scales, "scale")):
                    if frames and key in frames[0]:
                        assert_column(field, [f[key] for f in frames], width=3)
                    else:
                        assert field is None or field.shape == (0, 3)
            assert len(animation.bones) == len(expected["bones"])
    assert checked == {"ANP3", "ANP2", "ANPK", "ANIM"}


def assert_column(array, values, width=None):
    expected = np.array([[math.nan if v is None else v for v in row] for row in values]
                        if width else [math.nan if v is None else v for v in values],
                        dtype=np.float32).reshape((-1, width) if width else (-1,))
    np.testing.assert_array_equal(array, expected)


def test_placement_columns_binary():
    instances = [((1, 2, 3), (0, 0, 0.5, 0.5), 620, 13, -1),
                 ((-4.5, 5, 6e3), (0, 0, 0, 1), 700, 0x10D, 7)]
    cars = [((10, 20, 30), 1.5, (400, -1, 3, 1, 50, 10, 0, 100))]
    placement = gtastream.load(bnry(instances, cars))
    assert isinstance(placement, gtastream.Placement)
    assert (placement.format, placement.warnings, placement.section_lines) == ("bnry", [], [])
    inst = placement.instances
    np.testing.assert_array_equal(inst["position"], f32([i[0] for i in instances]))
    np.testing.assert_array_equal(inst["rotation"], f32([i[1] for i in instances]))
    assert inst["position"].shape == (2, 3) and inst["rotation"].shape == (2, 4)
    assert inst["model_id"].dtype == np.int32 and inst["model_id"].tolist() == [620, 700]
    assert inst["interior"].dtype == np.uint32 and inst["interior"].tolist() == [13, 0x10D]
    assert inst["lod"].tolist() == [-1, 7]
    assert inst["model_name"] == [None, None] and inst["scale"] is None
    car = placement.cars
    np.testing.assert_array_equal(car["position"], f32([[10, 20, 30]]))
    assert car["angle"].tolist() == [1.5]
    keys = ["model_id", "primary_color", "secondary_color", "flags", "alarm_chance",
            "door_lock_chance", "min_delay", "max_delay"]
    assert [car[k].tolist()[0] for k in keys] == [400, -1, 3, 1, 50, 10, 0, 100]
    assert all(car[k].dtype == np.int32 for k in keys)


def test_placement_columns_text():
    # A file has the layout of its first instance line (docs/FORMATS.md §4.5): San Andreas
    # here, Vice City (with a scale) below.
    text = (b"# San Andreas\r\n"
            b"inst\n"
            b"1337, LODroad, 0, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0, -1\n"
            b"99, door, 2, 4, 5, 6, 0, 0, 0.7, 0.7, 3\n"
            b"end\n"
            b"cull\n"
            b"1, 2, 3, 4\n"
            b"end\n"
            b"cars\n"
            b"1.5 2.5 3.5 0.25 -1 -1 -1 0 0 0 0 0\n"
            b"end\n")
    placement = gtastream.load(text)
    assert placement.format == "text"
    inst = placement.instances
    assert inst["model_name"] == ["LODroad", "door"]
    assert inst["model_id"].tolist() == [1337, 99]
    assert inst["interior"].tolist() == [0, 2]
    assert inst["lod"].tolist() == [-1, 3]
    np.testing.assert_array_equal(inst["rotation"], f32([[0, 0, 0, 1], [0, 0, 0.7, 0.7]]))
    assert inst["scale"] is None
    vice_city = gtastream.load(b"inst\n99, door, 2, 4, 5, 6, 1, 1, 2, 0, 0, 0.7, 0.7\nend\n")
    assert vice_city.instances["lod"].tolist() == [-1]
    np.testing.assert_array_equal(vice_city.instances["scale"], f32([[1, 1, 2]]))
    np.testing.assert_array_equal(vice_city.instances["rotation"], f32([[0, 0, 0.7, 0.7]]))
    assert placement.section_lines == [("cull", "1, 2, 3, 4")]
    assert placement.cars["angle"].tolist() == [0.25]
    assert placement.cars["model_id"].tolist() == [-1]


def test_paths_and_bytes_like_sources(tmp_path):
    data = sample_anp3()
    path = tmp_path / "ped.ifp"
    path.write_bytes(data)
    for source in (str(path), path, bytearray(data), memoryview(data)):
        package = gtastream.load(source)
        assert [len(b) for a in package.animations for b in a.bones] == [2, 2, 1]
    with pytest.raises(OSError):
        gtastream.load(str(tmp_path / "missing.ifp"))
    for wrong in (12, [65, 78], None):
        with pytest.raises(TypeError):
            gtastream.load(wrong)


def test_load_errors_and_warnings():
    data = sample_anp3()
    with pytest.raises(gtastream.DecodeError) as caught:
        gtastream.load(data[:40])
    assert (caught.value.kind, caught.value.offset) == ("truncated", 36)
    with pytest.raises(gtastream.DecodeError) as caught:
        gtastream.load(b"")
    assert caught.value.kind == "empty"
    sloppy = ifp2([("a", [("b", 3, 0, [(0, 0, 0, 4096, 0)])])], size=1) + b"\x07" * 9
    package = gtastream.load(sloppy)
    assert [w["kind"] for w in package.warnings] == ["size_mismatch", "trailing_data"]
    assert package.warnings[1]["offset"] == len(sloppy) - 9


def test_arrays_outlive_the_package():
    package = gtastream.load(sample_anp3())
    rotations = package.animations[0].bones[0].rotations
    assert rotations.flags["C_CONTIGUOUS"]
    del package
    gc.collect()
    np.testing.assert_array_equal(rotations, np.array(PACKED, dtype=np.float32)[:, 0:4] / 4096)
