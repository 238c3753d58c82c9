"""IMG archives from Python: write_archive() in memory, img_new/add/remove/rebuild on disk,
checked against the command-line tool's listing and extraction of the same archives."""

import json

import pytest

import gtastream

SECTOR = 2048


def padded(data):
    return data + b"\0" * (-len(data) % SECTOR)


def listing(cli, archive):
    out = cli("ls", "--json", archive)
    assert out.returncode == 0, out.stderr
    return [(e["name"], e["size"], e["format"]) for e in json.loads(out.stdout)["entries"]]


def test_write_archive_in_memory_is_what_the_tool_reads(cli, seeds, tmp_path):
    entries = [(f"{name[:15]}.{i}", data) for i, (name, data) in enumerate(seeds.items())]
    img = gtastream.write_archive(entries)
    assert img[:4] == b"VER2"
    assert int.from_bytes(img[4:8], "little") == len(entries)
    (tmp_path / "a.img").write_bytes(img)
    listed = listing(cli, tmp_path / "a.img")
    assert [(n, s) for n, s, _ in listed] == [
        (name, len(padded(data))) for name, data in entries
    ]
    # Each entry extracts to its bytes, padded to its sector.
    out = cli("extract", tmp_path / "a.img", "-o", tmp_path / "out")
    assert out.returncode == 0, out.stderr
    for name, data in entries:
        assert (tmp_path / "out" / name).read_bytes() == padded(data)


def test_write_archive_version1_pair(cli, tmp_path):
    img, directory = gtastream.write_archive([("a.ipl", b"inst\nend\n"), (b"b.dff", b"")], v1=True)
    assert len(directory) == 64 and directory[8:13] == b"a.ipl"
    assert img == padded(b"inst\nend\n")
    (tmp_path / "p.img").write_bytes(img)
    (tmp_path / "p.dir").write_bytes(directory)
    assert listing(cli, tmp_path / "p.dir") == [("a.ipl", SECTOR, "text"), ("b.dff", 0, None)]


@pytest.mark.parametrize(
    "name, kind",
    [
        ("", "empty_name"),
        ("abcdefghijklmnopqrst.abc", "name_too_long"),
        ("noextension", "invalid_name"),
        ("dir/a.ifp", "invalid_name"),
    ],
)
def test_names_the_games_cannot_read_are_refused(name, kind):
    with pytest.raises(gtastream.ArchiveError) as error:
        gtastream.write_archive([("ok.txt", b"1"), (name, b"2")])
    assert error.value.kind == kind
    assert error.value.entry == name


@pytest.mark.parametrize("v1", [False, True])
def test_new_add_remove_rebuild_on_disk(cli, tmp_path, v1):
    a = tmp_path / "walk.ifp"
    a.write_bytes(b"\x01" * 3000)
    b = tmp_path / "x.ipl"
    b.write_bytes(b"inst\nend\n")
    archive = tmp_path / "custom.img"
    report = gtastream.img_new(archive, [a, b], v1=v1)
    assert (report["entries"], report["added"]) == (2, 2)
    assert (tmp_path / "custom.dir").exists() == v1
    replacement = tmp_path / "WALK.IFP"
    replacement.write_bytes(b"\x02" * 10)
    report = gtastream.img_add(archive, [replacement])
    assert (report["replaced"], report["kept"]) == (1, 1)
    assert [n for n, _, _ in listing(cli, archive)] == ["WALK.IFP", "x.ipl"]
    report = gtastream.img_remove(archive, ["X.IPL"])
    assert report["removed"] == 1
    assert gtastream.img_rebuild(archive)["entries"] == 1
    with pytest.raises(gtastream.ArchiveError) as error:
        gtastream.img_remove(archive, ["missing.dff"])
    assert (error.value.kind, error.value.entry) == ("no_such_entry", "missing.dff")
    before = archive.read_bytes()
    with pytest.raises(FileExistsError):
        gtastream.img_new(archive, [a])
    assert archive.read_bytes() == before


def test_a_file_to_put_in_that_is_missing_or_a_folder_is_named(tmp_path):
    a = tmp_path / "walk.ifp"
    a.write_bytes(b"\x01" * 3000)
    archive = tmp_path / "custom.img"
    gtastream.img_new(archive, [a])
    before = archive.read_bytes()
    missing = tmp_path / "missing.ifp"
    with pytest.raises(FileNotFoundError, match="missing.ifp"):
        gtastream.img_add(archive, [missing])
    folder = tmp_path / "imgw"
    folder.mkdir()
    with pytest.raises(IsADirectoryError, match="imgw: a folder, not a file"):
        gtastream.img_add(archive, [folder])
    with pytest.raises(FileNotFoundError, match="missing.ifp"):
        gtastream.img_new(tmp_path / "other.img", [a, missing])
    assert archive.read_bytes() == before
    assert not (tmp_path / "other.img").exists()
