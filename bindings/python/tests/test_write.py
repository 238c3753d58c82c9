"""write() and convert(): the core's encoder behind Python (docs/FORMATS.md §9)."""

import struct

import numpy as np
import pytest

import gtastream
from formats import anpk, bnry, ifp2

PACKED = [(0, 0, 410, 4095, 0, 1024, -2048, 512), (100, -200, 300, 4000, 30, 0, 2, 4096)]
FLOATS = [(0.1, 0.2, 0.3, 0.9, 0.0), (0.5, -0.5, 0.25, 0.75, 1.5)]
FLOATS_TRANS = [(0.1, 0.2, 0.3, 0.9, 0.0, 1.1, 2.2, 3.3), (0.5, -0.5, 0.25, 0.75, 1.5, 0, 0, 1)]


def sample_ifp2(magic=b"ANP3"):
    return ifp2([
        ("Walk_Civi", [("Root", 4, 0, PACKED), ("Spine", 1, 3, FLOATS)]),
        ("IDLE", [("Head", 3, -1, [(0, 0, 0, 4096, 0)]), ("Hand", 2, 7, FLOATS_TRANS)]),
    ], package="ped", magic=magic)


def sample_anpk():
    # Values on the packed steps (KRT0, KRTS) and off them (KR00). No zero in the quaternions:
    # ANPK stores them conjugated, and a -0.0 has no packed form (the encoder is bit-exact).
    return anpk([
        ("walk", [("Root", b"KRT0", 0, [(0.25, 0.5, -0.5, 0.75, 1, 2, 0.25, 0.5),
                                         (0.5, 0.25, 0.5, 1, 0, 0, 0, 1)]),
                  ("Head", b"KR00", 5, [(0.1, 0.2, 0.3, 0.9, 0.0)])]),
        ("jump", [("Foot", b"KRTS", 9, [(0.5, 0.5, 0.5, 0.5, 1, 2, 3, 0.5, 0.5, 2, 0.25)])]),
    ])


def animation_samples(seeds):
    """Animation files: the hand-packed ones and the seeds of every animation format."""
    files = {"anp3": sample_ifp2(), "anp2": sample_ifp2(b"ANP2"), "anpk": sample_anpk()}
    for name, data in seeds.items():
        try:
            loaded = gtastream.load(data)
        except (gtastream.DecodeError, ValueError):  # a broken file, a model
            continue
        if isinstance(loaded, gtastream.Package):
            files[name] = data
    return files


def bones(package):
    return [(a.name, b) for a in package.animations for b in a.bones]


def assert_same_arrays(before, after):
    assert [a.name for a in after.animations] == [a.name for a in before.animations]
    assert len(bones(after)) == len(bones(before))
    for (anim, old), (_, new) in zip(bones(before), bones(after)):
        where = f"{anim}/{old.name}"
        np.testing.assert_array_equal(new.times, old.times, err_msg=where)
        np.testing.assert_array_equal(new.rotations, old.rotations, err_msg=where)
        if old.translations is None:
            assert new.translations is None or not new.translations.any(), where
        else:
            np.testing.assert_array_equal(new.translations, old.translations, err_msg=where)


def test_anp3_writes_back_to_the_same_bytes():
    for magic in (b"ANP3", b"ANP2"):
        data = sample_ifp2(magic)
        package = gtastream.load(data)
        assert gtastream.write(package) == data
        assert gtastream.write(package, format=magic.decode()) == data
        again = gtastream.load(gtastream.write(package))
        assert [b.frame_type for _, b in bones(again)] == [b.frame_type for _, b in bones(package)]


@pytest.mark.filterwarnings("ignore:scale dropped")
def test_round_trip_keeps_every_array(seeds):
    samples = animation_samples(seeds)
    assert any(gtastream.load(d).format == "ANIM" for d in samples.values()), "a Stories seed"
    checked = []
    for name, data in samples.items():
        package = gtastream.load(data)
        for target in ("anp3", "anp2", "anpk"):
            try:
                written = gtastream.write(package, None, format=target)
            except gtastream.EncodeError as error:
                # Seeds with names that fill a 24-byte field without a NUL (ANP3/ANP2 hold 23).
                assert error.kind == "name_too_long", (name, target, error)
                continue
            back = gtastream.load(written)
            assert back.format == target.upper(), (name, target)
            # No warning the source did not have (a seed may hold times going backwards).
            kinds = {w["kind"] for w in package.warnings}
            assert {w["kind"] for w in back.warnings} <= kinds, (name, target)
            assert_same_arrays(package, back)
            checked.append((name, target))
    # Every file in one target at least (ANPK holds the seeds' 24-byte names), the hand-packed
    # ones in all three.
    assert {name for name, _ in checked} == set(samples)
    assert len(checked) >= 3 * 3 + len(samples) - 3


def test_scale_dropped_with_a_warning():
    package = gtastream.load(sample_anpk())
    with pytest.warns(UserWarning, match="scale"):
        written = gtastream.write(package, format="anp3")
    foot = gtastream.load(written).animation("jump").bone("Foot")
    assert foot.scales is None and foot.translations.tolist() == [[1, 2, 3]]
    kept = gtastream.load(gtastream.write(package, format="anpk")).animation("jump").bone("Foot")
    assert kept.frame_type == "krts" and kept.scales.tolist() == [[0.5, 0.5, 2]]


@pytest.mark.filterwarnings("ignore:scale dropped")
def test_float_bones_on_the_steps_are_packed_as_the_command_packs_them():
    package = gtastream.load(sample_anpk())
    written = gtastream.write(package, format="anp3")
    types = {b.name: b.frame_type for _, b in bones(gtastream.load(written))}
    # Root's and Foot's values all sit on the steps, Head's 0.1 does not.
    assert types == {"Root": "ifp2_packed_rot_trans", "Head": "ifp2_rot",
                     "Foot": "ifp2_packed_rot_trans"}
    rounded = gtastream.load(gtastream.write(package, format="anp3", quantize=True))
    assert rounded.animation("walk").bone("Head").frame_type == "ifp2_packed_rot"


@pytest.mark.filterwarnings("ignore:scale dropped")
def test_convert_matches_the_command(seeds, cli, tmp_path):
    samples = animation_samples(seeds)
    cases = [(name, data, target) for name, data in samples.items()
             for target in ("anp3", "anp2", "anpk")]
    cases += [("ipl", bnry([((1, 2, 3), (0, 0, 0.5, 0.5), 620, 13, -1)],
                           [((4, 5, 6), 1.5, (400, 1, 2, 3, 4, 5, 6, 7))]), t)
              for t in ("text", "bnry")]
    for quantize, normalise in ((False, False), (True, False), (False, True)):
        for name, data, target in cases:
            source = tmp_path / "in"
            source.write_bytes(data)
            out = tmp_path / "out"
            flags = ["--quantize"] * quantize + ["--normalise"] * normalise
            run = cli("convert", "--to", target, *flags, source, out)
            options = {"quantize": quantize, "normalise": normalise}
            if run.returncode != 0:
                # The same refusal, with the same message.
                with pytest.raises(gtastream.EncodeError) as caught:
                    gtastream.convert(data, target, **options)
                assert str(caught.value) in run.stderr, (name, target)
                continue
            assert gtastream.convert(data, target, **options) == out.read_bytes(), (
                name, target, options)


def test_convert_to_its_own_format_gives_the_file_back(seeds):
    """Unedited, an ANP3, ANP2 or ANPK comes back byte for byte, stale fields, garbage after
    names and bytes after the content included (docs/FORMATS.md §9.7); normalise=True writes
    the clean file, which is its own rewrite."""
    formats = {b"ANP3": "anp3", b"ANP2": "anp2", b"ANPK": "anpk"}
    checked = 0
    for name, data in seeds.items():
        target = formats.get(data[:4])
        try:
            again = gtastream.convert(data, target) if target else None
        except (gtastream.DecodeError, gtastream.EncodeError):
            continue
        if again is None:
            continue
        assert again == data, name
        checked += 1
        try:
            clean = gtastream.convert(data, target, normalise=True)
        except gtastream.EncodeError:
            continue  # a name filling its whole field: kept as stored, refused when cleaned
        assert gtastream.convert(clean, target) == clean, name
    assert checked >= 3, checked


def test_write_of_another_format_matches_convert():
    data = sample_anpk()
    with pytest.warns(UserWarning):
        expected = gtastream.convert(data, "ANP3")
    with pytest.warns(UserWarning):
        assert gtastream.write(gtastream.load(data), format="anp3") == expected


def test_name_too_long_raises_encode_error():
    # ANPK keeps long names (28-byte field), ANP3 bone names have 24 bytes with the NUL.
    data = anpk([("walk", [("B" * 26, b"KR00", 1, [(0, 0, 0, 1, 0)])])])
    package = gtastream.load(data)
    with pytest.raises(gtastream.EncodeError) as caught:
        gtastream.write(package, format="anp3")
    assert caught.value.kind == "name_too_long"
    assert "B" * 26 in str(caught.value)
    with pytest.raises(gtastream.EncodeError) as caught:
        gtastream.convert(data, "anp3")
    assert caught.value.kind == "name_too_long"
    assert gtastream.load(gtastream.write(package, format="anpk")).animations[0].bones[0].name \
        == "B" * 26


def test_other_errors():
    package = gtastream.load(sample_ifp2())
    with pytest.raises(gtastream.EncodeError) as caught:
        gtastream.write(package, format="text")
    assert caught.value.kind == "unsupported_format"
    with pytest.raises(gtastream.EncodeError) as caught:
        gtastream.convert(sample_ifp2(), "bnry")
    assert caught.value.kind == "unsupported_format"
    with pytest.raises(ValueError, match="not a format"):
        gtastream.write(package, format="mina")
    with pytest.raises(TypeError):
        gtastream.write(b"ANP3")
    with pytest.raises(gtastream.DecodeError):
        gtastream.convert(b"ANP3\x10", "anpk")
    # A value changed in place that the packed frame cannot hold is refused, never rounded.
    root = package.animations[0].bones[0]
    root.times[1] = 0.01
    with pytest.raises(gtastream.EncodeError) as caught:
        gtastream.write(package)
    assert caught.value.kind == "not_representable"
    rounded = gtastream.load(gtastream.write(package, quantize=True)).animations[0].bones[0]
    assert rounded.times[1] == np.float32(1) / np.float32(60)


def test_write_to_a_path(tmp_path):
    data = sample_ifp2()
    target = tmp_path / "out.ifp"
    assert gtastream.write(gtastream.load(data), target) is None
    assert target.read_bytes() == data
    gtastream.write(gtastream.load(data), str(tmp_path / "b.ifp"), format="anpk")
    assert gtastream.load(tmp_path / "b.ifp").format == "ANPK"
    # Nothing is written when the encoder refuses.
    with pytest.raises(gtastream.EncodeError):
        gtastream.write(gtastream.load(data), tmp_path / "c.ipl", format="bnry")
    assert not (tmp_path / "c.ipl").exists()


def assert_same_instances(a, b, names=True):
    for key in ("position", "rotation", "model_id", "interior", "lod"):
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)
    if names:
        assert a["model_name"] == b["model_name"]


def test_binary_and_text_placements_keep_their_instances():
    instances = [((1, 2, 3), (0, 0, 0.5, 0.5), 620, 13, -1),
                 ((-1.25, 1e6, 0.1), (0.1, 0.2, 0.3, 0.9), 700, 0x10D, 7)]
    cars = [((4, 5, 6), 1.5, (400, 1, 2, 3, 4, 5, 6, 7))]
    binary = gtastream.load(bnry(instances, cars))
    text = gtastream.load(gtastream.write(binary, format="text"))
    assert text.format == "text"
    assert_same_instances(binary.instances, text.instances, names=False)
    for key, column in binary.cars.items():
        np.testing.assert_array_equal(column, text.cars[key], err_msg=key)
    back = gtastream.write(text, format="bnry")
    assert back == bnry(instances, cars)
    assert gtastream.write(binary) == bnry(instances, cars)


def test_text_placement_round_trip_with_names_scales_and_sections():
    source = (b"inst\n1337, LODroad, 0, 1.5, -2, 3, 0, 0, 0, 1, -1\nend\n"
              b"cull\n1, 2, 3, 4\nend\n")
    placement = gtastream.load(source)
    again = gtastream.load(gtastream.write(placement))
    assert_same_instances(placement.instances, again.instances)
    assert again.section_lines == placement.section_lines
    with pytest.raises(gtastream.EncodeError) as caught:
        gtastream.write(placement, format="bnry")
    assert caught.value.kind == "not_representable"
    scaled = gtastream.load(b"inst\n99, door, 1, 2, 3, 1, 1, 2, 0, 0, 0.7, 0.7\nend\n")
    assert scaled.instances["scale"] is not None
    kept = gtastream.load(gtastream.write(scaled)).instances
    np.testing.assert_array_equal(kept["scale"], scaled.instances["scale"])
    with pytest.raises(gtastream.EncodeError) as caught:
        gtastream.write(scaled, format="bnry")
    assert caught.value.kind == "not_representable"


def test_text_sections_are_refused_or_dropped():
    """Text → bnry: the first line a binary IPL has no place for is named; with
    drop_text_sections the records are written and each dropped line is a warning."""
    text = b"inst\n1, a, 0, 1.5, 2, 3, 0, 0, 0, 1, -1\nend\ncull\n1 2 3\nend\n"
    with pytest.raises(gtastream.EncodeError) as caught:
        gtastream.convert(text, "bnry")
    assert "line 5 (section cull)" in str(caught.value)
    with pytest.warns(UserWarning):
        data = gtastream.convert(text, "bnry", drop_text_sections=True)
    assert data[:4] == b"bnry" and int.from_bytes(data[4:8], "little") == 1


# write() of a decode() document: the units as stored (docs/FORMATS.md §9.7).

def sloppy_files():
    """Files as careless exporters write them: bytes after the names' NUL, flags 0, stale size
    fields, bytes after the content."""
    junk = b"\xcd\xcd Bip01"
    frames = [(0, 0, 410, 4095, 0, 1024, -2048, 512), (100, -200, 300, 4000, 30, 0, 2, 4096)]
    animations = [("Walk_Civi", [("Root", 4, 0, frames), ("Spine", 1, 3, FLOATS)]),
                  ("IDLE", [("Head", 3, -1, [(0, 0, 0, 4096, 0)])])]
    anp3 = ifp2(animations, package="ped", size=12345, frame_data_size=7, flags=0, tail=junk)
    anp2 = ifp2(animations, package="ped", magic=b"ANP2", size=99, tail=junk)
    keyframes = [(0.25, 0.5, -0.5, 0.75, 1, 2, 0.25, 0.5)]
    sloppy_anpk = anpk([("walk", [("Root", b"KRT0", 0, keyframes)])], tail=b"\x01\x02\x03")
    placements = bnry([((1, 2, 3), (0, 0, 0, 1), 7, 0, -1)], [((4, 5, 6), 1.5, [1] * 8)])
    return {
        "sloppy-anp3": anp3 + b"\0\0\0\0trailing",
        "sloppy-anp2": anp2,
        "sloppy-anpk": sloppy_anpk + b"\0" * 7,
        "sloppy-bnry": placements + b"\x00padding",
    }


def without_stored(doc):
    """The document's values: its stored units, the fields normalising computes and the
    warnings the stored fields cause left out."""
    if isinstance(doc, dict):
        return {k: without_stored(v) for k, v in doc.items()
                if k not in ("raw", "trailing", "stored", "blocks", "container_size", "warnings",
                             "frame_data_size", "flags")}
    if isinstance(doc, list):
        return [without_stored(v) for v in doc]
    return doc


def holds_none(value):
    """Whether a number of the document is None (NaN or an infinity: its bits are not kept)."""
    if isinstance(value, dict):
        return any(holds_none(v) for k, v in value.items() if k in ("frames", "rotation",
                   "translation", "scale", "time", "position", "angle", "animations", "bones",
                   "instances", "cars") or isinstance(v, (list, dict)))
    if isinstance(value, list):
        return any(v is None or holds_none(v) for v in value)
    return False


def test_an_unedited_document_is_written_back_byte_for_byte(seeds):
    files = dict(sloppy_files())
    for name, data in seeds.items():
        try:
            doc = gtastream.decode(data)
        except gtastream.DecodeError:
            continue
        # Stories files and models are not written; NaN bits are not kept.
        lists = [key for key in ("animations", "instances", "objects") if key in doc]
        if doc["format"] not in ("ANIM", "dff") and not holds_none(doc[lists[0]]):
            files[name] = data
    exact = 0
    kept = set()
    for name, data in files.items():
        doc = gtastream.decode(data)
        try:
            written = gtastream.write(doc)
        except gtastream.EncodeError as error:
            # What the encoder refuses from its events, it refuses from the document too.
            with pytest.raises(gtastream.EncodeError):
                gtastream.convert(data, doc["format"])
            assert error.kind
            continue
        assert without_stored(gtastream.decode(written)) == without_stored(doc), name
        # Byte for byte wherever the decoder's events straight into the encoder are (text
        # IPL, ANLF and a bnry of cars first included: the document holds their stored lines,
        # blocks and order), and always for the sloppy files.
        if name.startswith("sloppy") or gtastream.convert(data, doc["format"]) == data:
            assert written == data, name
            exact += 1
            if doc.get("blocks"):
                kept.add("blocks")
            if doc.get("stored"):
                kept.add(doc["format"])
    assert exact > 8
    # The layouts the document holds were among them.
    assert kept == {"blocks", "text", "bnry", "ide"}, kept


def test_the_sloppy_files_keep_their_units():
    for name, data in sloppy_files().items():
        doc = gtastream.decode(data)
        assert isinstance(doc["raw"], bytes) and data.startswith(doc["raw"]), name
        assert isinstance(doc["trailing"], (bytes, type(None))), name
        if doc["trailing"]:
            assert data.endswith(doc["trailing"]), name
    doc = gtastream.decode(sloppy_files()["sloppy-anp3"])
    assert doc["trailing"] == b"\0\0\0\0trailing"
    assert doc["animations"][0]["raw"][:18] == b"Walk_Civi\0\xcd\xcd Bip01"
    assert doc["animations"][0]["bones"][0]["raw"][:5] == b"Root\0"
    # A file with nothing after its content keeps no trailing bytes.
    assert gtastream.decode(sample_ifp2())["trailing"] is None


def test_an_edited_value_changes_its_own_bytes_only():
    data = sloppy_files()["sloppy-anp3"]
    doc = gtastream.decode(data)
    frame = doc["animations"][0]["bones"][0]["frames"][1]
    frame["translation"][0] = 0.5  # stored as 512 / 1024
    written = gtastream.write(doc)
    assert len(written) == len(data)
    changed = [i for i, (a, b) in enumerate(zip(data, written)) if a != b]
    # The second record of the first bone: the file header (36), the animation header (36),
    # the bone header (36), one record (16), then qx qy qz qw time (10): tx's two bytes.
    at = 36 + 36 + 36 + 16 + 10
    assert changed and set(changed) <= {at, at + 1}
    assert written[at:at + 2] == (512).to_bytes(2, "little")
    assert gtastream.decode(written)["animations"][0]["bones"][0]["frames"][1] == frame

    # A renamed animation: its new name with a zeroed tail, the other bytes as they were.
    doc = gtastream.decode(data)
    doc["animations"][1]["name"] = "RUN"
    written = gtastream.write(doc)
    header = data.index(b"IDLE\0")
    assert written[header:header + 24] == b"RUN" + b"\0" * 21
    assert written[:header] == data[:header] and written[header + 24:] == data[header + 24:]


def test_normalise_writes_the_clean_file():
    for name, data in sloppy_files().items():
        doc = gtastream.decode(data)
        clean = gtastream.write(doc, normalise=True)
        assert clean != data, name
        assert clean == gtastream.convert(data, doc["format"], normalise=True), name
        again = gtastream.decode(clean)
        assert without_stored(again) == without_stored(doc), name
        assert again["warnings"] == [] and again["trailing"] is None, name
        # The clean file is its own clean form.
        assert gtastream.write(again) == clean, name


TEXT_IPL = (b"# a map\r\ninst\r\n1337,  prop_a, 13, 1.5, -2, 3.25, 0, 0, 0.5, 1, -1\r\n"
            b"2, prop_b, 0, 1, 2, 3, 0, 0, 0, 1, -1\r\nend\r\n\r\ncull\r\n1, 2, 3\r\nend\r\n")


def anlf(blocks, size=None):
    body = struct.pack("<I", len(blocks)) + b"".join(blocks)
    return b"ANLF" + struct.pack("<I", len(body) if size is None else size) + body


def anlf_blocks():
    bone = ("root", b"KR00", 0, [(0, 0, 0, 1, 0), (0, 0, 0, 1, 0.5)])
    return [anpk([("walk", [bone])], package="one"),
            anpk([("run", [bone]), ("idle", [])], package="two")]


def test_a_text_ipl_keeps_its_lines():
    doc = gtastream.decode(TEXT_IPL)
    items = [(s["item"], s["index"]) for s in doc["stored"]]
    assert items == [("text", None), ("text", None), ("instance", 0), ("instance", 1),
                     ("text", None), ("text", None), ("text", None), ("section_line", 0),
                     ("text", None)]
    assert "".join(s["raw"] for s in doc["stored"]).encode("latin-1") == TEXT_IPL
    assert gtastream.write(doc) == TEXT_IPL
    # An edited instance: its own line changes, and only it.
    doc["instances"][0]["model_id"] = 7
    written = gtastream.write(doc)
    before, after = TEXT_IPL.splitlines(True), written.splitlines(True)
    assert len(after) == len(before)
    assert [i for i, (a, b) in enumerate(zip(before, after)) if a != b] == [2]
    assert gtastream.decode(written)["instances"][0]["model_id"] == 7
    # An instance added after the stored ones comes after them, in its section.
    doc["instances"].append(dict(doc["instances"][1], model_id=9))
    again = gtastream.decode(gtastream.write(doc))
    assert [i["model_id"] for i in again["instances"]] == [7, 2, 9]
    assert without_stored(again) == without_stored(doc)
    # Clean: what `convert --normalise` writes from the events.
    clean = gtastream.write(gtastream.decode(TEXT_IPL), normalise=True)
    assert clean == gtastream.convert(TEXT_IPL, "text", normalise=True)
    assert b"# a map" not in clean


def test_an_anlf_keeps_its_blocks():
    for size in (None, 4):  # the container's size as it should be, and stale
        data = anlf(anlf_blocks(), size)
        doc = gtastream.decode(data)
        first, second = anlf_blocks()
        assert doc["container_size"] == struct.unpack_from("<I", data, 4)[0]
        assert [(b["name"], b["animations"]) for b in doc["blocks"]] == [("one", 1), ("two", 2)]
        assert first.startswith(doc["blocks"][0]["raw"]) and doc["raw"] == doc["blocks"][0]["raw"]
        assert second.startswith(doc["blocks"][1]["raw"])
        assert gtastream.write(doc) == data
        # Clean: one ANPK, as `convert --normalise` writes it.
        clean = gtastream.write(doc, normalise=True)
        assert clean[:4] == b"ANPK" and clean == gtastream.convert(data, "anpk", normalise=True)
        # A Package from load() keeps them too; an edited keyframe changes its own bytes.
        package = gtastream.load(data)
        assert gtastream.write(package) == data
        assert gtastream.write(package, normalise=True) == clean
        package.animations[1].bones[0].rotations[1, 2] = 0.25
        written = gtastream.write(package)
        changed = [i for i, (a, b) in enumerate(zip(data, written)) if a != b]
        assert len(written) == len(data) and len(changed) in (1, 2, 3, 4)
        assert data.index(b"run\0") < changed[0] and changed[-1] - changed[0] < 4
        assert gtastream.load(written).animations[1].bones[0].rotations[1, 2] == 0.25
    # The document's name is the first block's.
    renamed = dict(gtastream.decode(data), name="uno")
    written = gtastream.write(renamed)
    at = data.index(b"one\0")
    assert written == data[:at] + b"uno" + data[at + 3:]
    # An animation added goes into the last block; the container's size follows.
    added = dict(doc["animations"][0], name="jump", raw=None)  # new: no stored units
    added["bones"] = [dict(bone, raw=None) for bone in added["bones"]]
    doc["animations"].append(added)
    written = gtastream.write(doc)
    again = gtastream.decode(written)
    assert [(b["name"], b["animations"]) for b in again["blocks"]] == [("one", 1), ("two", 3)]
    assert [a["name"] for a in again["animations"]] == ["walk", "run", "idle", "jump"]
    assert again["container_size"] == len(written) - 8 != doc["container_size"]
    # An ANLF of no blocks.
    empty = anlf([])
    doc = gtastream.decode(empty)
    assert (doc["blocks"], doc["container_size"], doc["name"]) == ([], 4, None)
    assert gtastream.write(doc) == empty


def test_a_document_converted_is_written_clean():
    data = sloppy_files()["sloppy-anp3"]
    doc = gtastream.decode(data)
    anpk_bytes = gtastream.write(doc, format="anpk")
    assert anpk_bytes == gtastream.convert(data, "anpk")
    assert without_stored(gtastream.decode(anpk_bytes))["animations"][0]["name"] == "Walk_Civi"


def test_a_malformed_document_is_refused():
    doc = gtastream.decode(sample_ifp2())
    with pytest.raises(ValueError, match="not a decode"):
        gtastream.write({**doc, "format": "XYZ"})
    broken = gtastream.decode(sample_ifp2())
    del broken["animations"][0]["bones"][0]["frame_type"]
    with pytest.raises(ValueError, match="frame_type"):
        gtastream.write(broken)
    broken = gtastream.decode(sample_ifp2())
    broken["animations"][0]["bones"][0]["frames"][0]["rotation"] = [0, 0, 1]
    with pytest.raises(ValueError, match="4 numbers"):
        gtastream.write(broken)


def test_a_loaded_package_keeps_its_units_too():
    for name, data in sloppy_files().items():
        loaded = gtastream.load(data)
        if isinstance(loaded, gtastream.Package):
            assert gtastream.write(loaded) == data, name
            assert gtastream.write(loaded, normalise=True) == \
                gtastream.convert(data, loaded.format, normalise=True), name
    data = sloppy_files()["sloppy-anp3"]
    package = gtastream.load(data)
    package.animations[0].bones[0].translations[1, 0] = 0.5  # stored as 512 / 1024
    written = gtastream.write(package)
    at = 36 + 36 + 36 + 16 + 10  # as in test_an_edited_value_changes_its_own_bytes_only
    changed = [i for i, (a, b) in enumerate(zip(data, written)) if a != b]
    assert len(written) == len(data) and changed and set(changed) <= {at, at + 1}


IDE = (b"objs\r\n1337, box, generic, 100, 0\r\n1338, box2, generic, 1, 30, 4\r\nend\r\n"
       b"txdp\r\ngeneric, parent\r\nend\r\n")


def test_an_ide_lists_its_definitions_and_comes_back():
    doc = gtastream.decode(IDE)
    assert doc["format"] == "ide"
    assert [(o["section"], o["id"], o["model_name"], o["txd_name"], o["mesh_count"],
             o["draw_distance"], o["flags"]) for o in doc["objects"]] == [
        ("objs", 1337, "box", "generic", None, 100, 0),
        ("objs", 1338, "box2", "generic", 1, 30, 4)]
    assert [(line["section"], line["text"]) for line in doc["section_lines"]] == [
        ("txdp", "generic, parent")]
    assert gtastream.write(doc) == IDE
    assert gtastream.convert(IDE, "ide") == IDE
    doc["objects"][1]["id"] = 1400
    assert gtastream.write(doc) == IDE.replace(b"1338, box2", b"1400, box2")
