"""decode() against `gtastream dump --json` on the seed files of every format, and its errors."""

import json
import math

import pytest

import gtastream
from formats import ifp2

FORMATS = {"ANP3", "ANP2", "ANPK", "ANIM", "bnry", "text", "dff", "ide"}
def cli_document(cli, path, *flags):
    """The command's JSON as json.loads reads it, or its error message when it fails."""
    run = cli("dump", "--json", *flags, path)
    if run.returncode == 0:
        return json.loads(run.stdout)
    assert run.returncode == 1, run.stderr
    prefix = f"gtastream: {path}: "
    assert run.stderr.startswith(prefix), run.stderr
    return run.stderr[len(prefix):].strip()


def as_json(value):
    """The document as the command prints it: the stored units (bytes) in hex."""
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    return value


def decoded(data):
    try:
        return as_json(gtastream.decode(data))
    except gtastream.DecodeError as error:
        return str(error)


def test_every_seed_matches_dump_json(seeds, cli, tmp_path):
    seen = set()
    for name, data in seeds.items():
        path = tmp_path / name
        path.write_bytes(data)
        expected = cli_document(cli, path)
        # Some seeds are refused (an empty file, text that is not a placement): the same error.
        assert decoded(data) == expected, name
        if isinstance(expected, dict):
            seen.add(expected["format"])
            # The layouts the document holds: a placement's stored lines, an ANLF's blocks.
            if expected.get("stored"):
                seen.add(("stored", expected["format"]))
            if expected.get("blocks"):
                seen.add("blocks")
    assert seen == FORMATS | {("stored", "text"), ("stored", "bnry"), ("stored", "ide"), "blocks"}


def test_cut_and_damaged_seeds_fail_where_the_command_fails(seeds, cli, tmp_path):
    """Every seed cut at several places, and with a byte changed: decode() succeeds with the
    command's document or fails with its reason and offset."""
    failures = 0
    for name, data in seeds.items():
        variants = {f"cut{n}": data[:n] for n in sorted({0, 1, 5, len(data) // 3, len(data) - 1})}
        for at in (4, 8, len(data) // 2):
            if at < len(data):
                damaged = bytearray(data)
                damaged[at] ^= 0xA5
                variants[f"flip{at}"] = bytes(damaged)
        for variant, bytes_ in variants.items():
            path = tmp_path / f"{name}-{variant}"
            path.write_bytes(bytes_)
            expected = cli_document(cli, path)
            assert decoded(bytes_) == expected, f"{name} {variant}"
            failures += isinstance(expected, str)
    assert failures > len(seeds), "most cut files fail"


def test_decode_error_attributes():
    data = ifp2([("walk", [("root", 3, 0, [(0, 0, 0, 4096, 0)] * 3)])])
    with pytest.raises(gtastream.DecodeError) as caught:
        gtastream.decode(data[:-4])
    error = caught.value
    assert isinstance(error, Exception)
    assert error.kind == "truncated"
    assert error.reason == "file cut short"
    # The last record starts 10 bytes before the end: the file header (36), the animation
    # header (36) and the bone header (36), then two whole 10-byte records.
    assert error.offset == 36 + 36 + 36 + 20 == len(data) - 10
    # Where: the first animation's first bone, by index and name; what decoded before.
    assert (error.animation, error.bone, error.line) == (0, 0, None)
    assert str(error) == ('file cut short: it ends before the data at offset 128 is complete (animation 0 "walk", '
                          'bone 0 "root"; after 1 animation, 1 bone, 2 keyframes)')

    with pytest.raises(gtastream.DecodeError) as caught:
        gtastream.decode(b"\x00\x01\x02\x03 not a file")
    assert (caught.value.kind, caught.value.offset) == ("bad_magic", 0)
    assert (caught.value.animation, caught.value.bone, caught.value.line) == (None, None, None)

    bad_type = ifp2([("walk", [("root", 7, 0, [])])])
    with pytest.raises(gtastream.DecodeError) as caught:
        gtastream.decode(bad_type)
    assert (caught.value.kind, caught.value.offset) == ("unknown_frame_type", 72)


def test_warnings_are_in_the_result():
    frames = [(0, 0, 0, 4096, 10), (0, 0, 0, 4096, 5)]
    data = ifp2([("walk", [("root", 3, 0, frames)])], size=999, frame_data_size=7, flags=0)
    warnings = gtastream.decode(data)["warnings"]
    kinds = [(w["kind"], w["offset"]) for w in warnings]
    assert ("size_mismatch", 4) in kinds
    assert ("frame_data_size_mismatch", 36 + 28) in kinds
    assert ("compressed_flag_clear", 36 + 32) in kinds
    # The second keyframe's time goes back: the record at header ends + 10.
    assert ("time_backwards", 36 + 36 + 36 + 10) in kinds
    assert all(w["reason"] for w in warnings)
    # Each warning's place: the file's size is the file's, the rest the animation's or bone's.
    places = {w["kind"]: (w["animation"], w["bone"], w["line"]) for w in warnings}
    assert places["size_mismatch"] == (None, None, None)
    assert places["frame_data_size_mismatch"] == (0, None, None)
    assert places["time_backwards"] == (0, 0, None)


def test_nan_is_none():
    nan = float("nan")
    data = ifp2([("a", [("b", 2, 1, [(nan, 0, 0, 1, 0, math.inf, 2, 3)])])])
    frame = gtastream.decode(data)["animations"][0]["bones"][0]["frames"][0]
    assert frame["rotation"] == [None, 0, 0, 1]
    assert frame["translation"] == [None, 2, 3]


def test_bytes_like_inputs_give_the_same_document():
    data = ifp2([("walk", [("root", 1, 0, [(0.0, 0.5, 0.0, 0.5, 0.25)])])])
    expected = gtastream.decode(data)
    assert gtastream.decode(bytearray(data)) == expected
    assert gtastream.decode(memoryview(data)) == expected
    with pytest.raises(TypeError):
        gtastream.decode("ANP3")


def typed(value):
    """The value with every number tagged by its type: `1 == 1.0` would hide an int/float mix."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (type(value).__name__, value)
    return value


def test_numbers_are_what_json_loads_reads(cli, tmp_path):
    """decode() builds the document without its text: every number must still be the one
    json.loads reads from `dump --json`, int or float as there (whole numbers are ints, a huge
    f32 the int of its shortest text)."""
    odd = [0.1, 1.0 / 3, 16384.0, -0.0, 3.4e38, 1e-40, 2.5, -7.0, 123456.789]
    frames = [(odd[i], odd[(i + 1) % 9], odd[(i + 2) % 9], 1.0, i / 30, odd[(i + 3) % 9],
               odd[(i + 4) % 9], odd[(i + 5) % 9]) for i in range(9)]
    data = ifp2([("odd", [("b", 2, 1, frames)])])
    path = tmp_path / "odd.ifp"
    path.write_bytes(data)
    expected = cli_document(cli, path)
    got = typed(as_json(gtastream.decode(data)))
    # Except -0.0, which stays the float -0.0 (so that the file can be written back): the int
    # 0 that json.loads reads from `-0` has no sign.
    zero = ("float", -0.0)
    assert str(got).count(str(zero)) == 6
    assert str(got).replace(str(zero), str(("int", 0))) == str(typed(expected))


def test_text_warnings_name_their_line():
    text = (b"# a comment\ninst\n1, dummy, 0, 1, 2, 3, 0, 0, 0, 1, -1\n"
            b"2, dummy, 0, 1, 2, 3, 0, 0, 0, 1, -1, 7 extra\nend\n")
    (warning,) = gtastream.decode(text)["warnings"]
    assert warning["kind"] == "trailing_text"
    # The fourth line (counted from 1, as the command prints it), in no animation or bone.
    assert (warning["animation"], warning["bone"], warning["line"]) == (None, None, 4)
