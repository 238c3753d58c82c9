"""check_folder() against `gtastream check --json DIR`: game and mod folders built here, the
same document from a folder on disk, from a mapping of its files and from an opener."""

import io
import json
import pathlib
import zipfile
from collections.abc import Mapping

import pytest

import formats
import gtastream


def _write(root, path, data):
    at = pathlib.Path(root, path)
    at.parent.mkdir(parents=True, exist_ok=True)
    at.write_bytes(data if isinstance(data, bytes) else data.encode())


def _text_ipl(instances):
    """A San Andreas text IPL: one inst section of (id, name, lod)."""
    lines = [f"{i}, {n}, 0, {k * 10}.5, -20.25, 10, 0, 0, 0, 1, {lod}"
             for k, (i, n, lod) in enumerate(instances)]
    return "inst\r\n" + "".join(line + "\r\n" for line in lines) + "end\r\ncull\r\nend\r\n"


def _ide(ids):
    return "objs\r\n" + "".join(f"{i}, lae_m{i}, lae_txd, 100, 0\r\n" for i in ids) + "end\r\n"


def _stream_ipl(model, lods):
    return formats.bnry([((k, 2.0, 3.0), (0.0, 0.0, 0.0, 1.0), model, 0, lod)
                         for k, lod in enumerate(lods)], [])


def san_andreas(root, extra="", stream_lods=(0, 3, -1)):
    """A small San Andreas folder in the shape the game ships (upper-case paths with `\\` in
    the level files, other cases on disk): the 7 files and 10 archive entries of a clean
    load, `extra` lines in gta.dat before its first IPL line."""
    _write(root, "data/default.dat", "# default\r\nIDE DATA\\DEFAULT.IDE\r\n")
    _write(root, "data/default.ide", "objs\r\nend\r\n")
    _write(root, "data/gta.dat",
           f"# gta.dat\r\n{extra}IDE DATA\\MAPS\\LA\\LAE.IDE\r\n"
           "COLFILE 0 DATA\\MAPS\\GENERIC.COL\r\nIPL DATA\\MAPS\\LA\\LAE.IPL\r\n"
           "EXIT\r\nIPL DATA\\MAPS\\NOT_READ.IPL\r\n")
    _write(root, "data/maps/la/lae.ide", _ide([4000, 4001, 4002, 4003]))
    _write(root, "data/maps/generic.col", b"COLL")
    _write(root, "data/maps/la/LAe.ipl", _text_ipl(
        [(4000, "lae_road", -1), (4001, "lae_roadlod", -1), (4002, "x", -1), (4003, "y", -1)]))
    _write(root, "models/gta3.img", gtastream.write_archive([
        ("lae_road.dff", b"\x10\0\0\0\0\0\0\0"),
        ("lae.col", b"COL3"),
        ("lae_stream0.ipl", _stream_ipl(4000, list(stream_lods))),
        ("lae_stream1.ipl", _stream_ipl(4000, [-1])),
    ]))
    interior = [("interior.dff", b"\x10\0\0\0"), ("lae_txd.txd", b"\x16\0\0\0")]
    interior += [(f"lae_m{i}.dff", b"\x10\0\0\0") for i in range(4000, 4004)]
    _write(root, "models/gta_int.img", gtastream.write_archive(interior))
    return root


def _command(cli, *args):
    """`gtastream check --json ARGS...`: its document (exit 0 or 1: loads or fails)."""
    run = cli("check", "--json", *args)
    assert run.returncode in (0, 1), run.stderr
    doc = json.loads(run.stdout)
    assert run.returncode == (doc["inputs"][0]["verdict"] == "fails")
    return doc


def _files(root):
    """Every file under `root`: {relative path: bytes}."""
    root = pathlib.Path(root)
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _rules(doc):
    return {f["rule"] for f in doc["inputs"][0]["findings"]}


def test_a_clean_folder_is_the_commands_document(cli, tmp_path):
    root = san_andreas(tmp_path / "sa")
    doc = gtastream.check_folder(root)
    assert doc == _command(cli, root)
    (folder,) = doc["inputs"]
    assert (folder["file"], folder["format"]) == (str(root), "DIR")
    assert (folder["game"], folder["games"], folder["games_from"]) == ("sa", ["sa"], "file")
    assert (folder["verdict"], folder["files"], folder["entries"]) == ("loads", 7, 10)
    assert folder["summary"]["errors"] == 0
    assert folder["unreadable"] == []
    # A str path and the name it is given as.
    assert gtastream.check_folder(str(root), name="game")["inputs"][0]["file"] == "game"


def test_findings_of_several_rules(cli, tmp_path):
    """A mod archive shadowing a stock entry, a stream IPL's LOD past its parent's 4
    instances, an IDE redefining an id, an IPL placing an id no IDE defines."""
    root = san_andreas(tmp_path / "mod", "IMG MODELS\\MOD.IMG\r\nIDE DATA\\MAPS\\AGAIN.IDE\r\n",
                       stream_lods=(7,))
    _write(root, "models/mod.img", gtastream.write_archive([("lae_road.dff", b"x")]))
    _write(root, "data/maps/again.ide", _ide([4001]))
    _write(root, "data/maps/la/LAe.ipl", _text_ipl([(4000, "a", -1), (4001, "b", -1),
                                                    (4002, "c", -1), (9000, "undefined", -1)]))
    doc = gtastream.check_folder(root)
    assert doc == _command(cli, root)
    (folder,) = doc["inputs"]
    assert {"mod.name.shadowed", "mod.stream.lod_range", "mod.ide.duplicate_id",
            "mod.ipl.undefined_id"} <= _rules(doc)
    assert folder["verdict"] == "fails"
    by_rule = {f["rule"]: f for f in folder["findings"]}
    shadow = by_rule["mod.name.shadowed"]
    assert (shadow["path"], shadow["entry"], shadow["line"], shadow["other"]) == (
        "MODELS\\MOD.IMG", "lae_road.dff", None, "models/gta3.img")
    lod = by_rule["mod.stream.lod_range"]
    assert (lod["severity"], lod["path"], lod["entry"]) == (
        "error", "models/gta3.img", "lae_stream0.ipl")
    undefined = by_rule["mod.ipl.undefined_id"]
    assert (undefined["path"], undefined["line"]) == ("DATA\\MAPS\\LA\\LAE.IPL", 5)
    duplicate = by_rule["mod.ide.duplicate_id"]
    # AGAIN.IDE comes first in gta.dat: LAE.IDE's line 3 defines 4001 again.
    assert (duplicate["path"], duplicate["line"], duplicate["other"]) == (
        "DATA\\MAPS\\LA\\LAE.IDE", 3, "DATA\\MAPS\\AGAIN.IDE")
    levels = [f["severity"] for f in folder["findings"]]
    assert folder["summary"]["errors"] == levels.count("error") > 0


def test_missing_files(cli, tmp_path):
    """An IPL the level file names that is not there (an error: the loader reads it unchecked)
    and an archive that is not there (its models are never loaded)."""
    root = san_andreas(tmp_path / "missing", "IPL DATA\\MAPS\\GONE.IPL\r\nIMG MODELS\\GONE.IMG\r\n")
    doc = gtastream.check_folder(root)
    assert doc == _command(cli, root)
    by_rule = {f["rule"]: f for f in doc["inputs"][0]["findings"]}
    missing = by_rule["mod.file.missing"]
    assert (missing["severity"], missing["path"], missing["line"]) == (
        "error", "data/gta.dat", 2)
    archive = by_rule["mod.archive.missing"]
    assert (archive["severity"], archive["path"], archive["line"]) == (
        "warning", "data/gta.dat", 3)
    assert doc["inputs"][0]["verdict"] == "fails"


def test_a_mod_folder_over_its_game(cli, tmp_path):
    game = san_andreas(tmp_path / "game", "IMG MODELS\\MOD.IMG\r\n")
    mod = tmp_path / "mod"
    _write(mod, "models/MOD.IMG", gtastream.write_archive([("new.dff", b"x")]))
    doc = gtastream.check_folder(mod, base=game)
    assert doc == _command(cli, "--base", game, mod)
    (folder,) = doc["inputs"]
    assert (folder["verdict"], folder["game"], folder["entries"]) == ("loads", "sa", 11)
    # The mod folder's file comes first: one shadowing the game's is what the walk reads.
    _write(mod, "data/maps/la/lae.ide", _ide([4000]))
    shadowed = gtastream.check_folder(mod, base=game)
    assert shadowed == _command(cli, "--base", game, mod)
    assert "mod.ide.model_not_streamed" not in _rules(shadowed)
    assert "mod.ipl.undefined_id" in _rules(shadowed)
    with pytest.raises(gtastream.FolderError) as alone:
        gtastream.check_folder(mod)
    assert alone.value.kind == "no_game"


def test_vice_city_and_iii(cli, tmp_path):
    vc = tmp_path / "vc"
    _write(vc, "data/default.dat", "IDE DATA\\DEFAULT.IDE\r\n")
    _write(vc, "data/default.ide", "objs\r\n100, box, generic, 1, 100, 0\r\nend\r\n")
    _write(vc, "data/gta_vc.dat", "IDE DATA\\MAPS\\VC.IDE\r\nIPL DATA\\MAPS\\VC.IPL\r\n")
    _write(vc, "data/maps/vc.ide", "objs\r\n100, box2, generic, 1, 100, 0\r\nend\r\n")
    _write(vc, "data/maps/vc.ipl",
           "inst\r\n100, box, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\r\n"
           "200, none, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\r\nend\r\n")
    _write(vc, "models/gta3.img", gtastream.write_archive([("box.dff", b"\x10\0\0\0")]))
    doc = gtastream.check_folder(vc)
    assert doc == _command(cli, vc)
    assert doc["inputs"][0]["game"] == "vc"
    assert {"mod.ide.duplicate_id", "mod.ipl.undefined_id_skipped"} <= _rules(doc)

    iii = tmp_path / "iii"
    _write(iii, "data/gta3.dat", "IDE DATA\\MAPS\\III.IDE\r\nIPL DATA\\MAPS\\GONE.IPL\r\n")
    _write(iii, "data/maps/iii.ide", "objs\r\n100, box, generic, 1, 100, 0\r\nend\r\n")
    doc = gtastream.check_folder(iii, game="iii")
    assert doc == _command(cli, "--game", "iii", iii)
    (folder,) = doc["inputs"]
    assert (folder["game"], folder["games_from"]) == ("iii", "caller")
    assert "mod.file.missing" in _rules(doc)


def test_folders_that_cannot_be_checked(cli, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(gtastream.FolderError) as no_game:
        gtastream.check_folder(empty)
    assert no_game.value.kind == "no_game"
    assert str(no_game.value) == f"{empty}: {no_game.value.reason}"
    assert "data/gta.dat" in no_game.value.reason

    both = san_andreas(tmp_path / "both")
    _write(both, "data/gta3.dat", "")
    with pytest.raises(gtastream.FolderError) as several:
        gtastream.check_folder(both)
    assert several.value.kind == "several_games"
    assert cli("check", "--json", both).returncode == 2
    assert gtastream.check_folder(both, game="sa") == _command(cli, "--game", "sa", both)

    with pytest.raises(gtastream.FolderError) as no_level:
        gtastream.check_folder(san_andreas(tmp_path / "sa"), game="vc")
    assert (no_level.value.kind, no_level.value.reason) == ("no_level_file",
                                                            "no data/gta_vc.dat")
    with pytest.raises(ValueError):
        gtastream.check_folder(empty, game="mta")
    with pytest.raises(FileNotFoundError):
        gtastream.check_folder(tmp_path / "not-there")
    with pytest.raises(NotADirectoryError):
        gtastream.check_folder(tmp_path / "sa" / "data" / "gta.dat")
    with pytest.raises(TypeError):
        gtastream.check_folder(42)  # type: ignore[arg-type]


def _renamed(files):
    """The paths as another host stores them: upper case, Windows slashes."""
    return {path.upper().replace("/", "\\"): data for path, data in files.items()}


def test_a_hosts_files_give_the_same_document(cli, tmp_path):
    root = san_andreas(tmp_path / "sa", "IMG MODELS\\MOD.IMG\r\n", stream_lods=(9,))
    _write(root, "models/mod.img", gtastream.write_archive([("lae_road.dff", b"x")]))
    expected = _command(cli, root)
    files = _files(root)
    assert gtastream.check_folder(files, name=str(root)) == expected
    assert gtastream.check_folder(_renamed(files), name=str(root)) == expected
    as_bytes = {path.encode(): bytearray(data) for path, data in files.items()}
    assert gtastream.check_folder(as_bytes, name=str(root)) == expected
    doc = gtastream.check_folder(files)
    assert doc["inputs"][0]["file"] == ""

    opened = []

    def opener(path):
        opened.append(path)
        key = path.replace("\\", "/").lower()
        return next((data for name, data in files.items() if name.lower() == key), None)

    assert gtastream.check_folder(opener, name=str(root)) == expected
    # Each path as the level file writes it.
    assert "DATA\\MAPS\\LA\\LAE.IDE" in opened and "MODELS\\MOD.IMG" in opened


class ZipFiles(Mapping):
    """A zip's members, read when looked up: what a tool checking a zipped mod passes."""

    def __init__(self, data):
        self.zip = zipfile.ZipFile(io.BytesIO(data))
        self.read = []

    def __getitem__(self, name):
        self.read.append(name)
        return self.zip.read(name)

    def __iter__(self):
        return iter(n for n in self.zip.namelist() if not n.endswith("/"))

    def __len__(self):
        return len(list(iter(self)))


def test_a_zipped_mod_over_its_game(cli, tmp_path):
    game = san_andreas(tmp_path / "game", "IMG MODELS\\MOD.IMG\r\nIDE DATA\\MOD.IDE\r\n")
    mod = tmp_path / "mod"
    _write(mod, "Models/Mod.img", gtastream.write_archive([("lae_road.dff", b"x")]))
    _write(mod, "data/mod.ide", _ide([4002]))
    _write(mod, "readme.txt", "not named by any level file")
    expected = _command(cli, "--base", game, mod)
    assert {"mod.name.shadowed", "mod.ide.duplicate_id"} <= _rules(expected)
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as z:
        for path, data in _files(mod).items():
            z.writestr(path, data)
    zipped = ZipFiles(packed.getvalue())
    assert gtastream.check_folder(zipped, base=game, name=str(mod)) == expected
    # Only the files the walk opened were read out of the zip.
    assert sorted(zipped.read) == ["Models/Mod.img", "data/mod.ide"]
    # The base may be a host's files too.
    both = gtastream.check_folder(zipped, base=_renamed(_files(game)), name=str(mod))
    assert both == expected


def test_what_the_host_raises_is_raised(tmp_path):
    files = {path.lower(): data for path, data in _files(san_andreas(tmp_path / "sa")).items()}

    def failing(path):
        if path.lower().endswith(".ipl"):
            raise PermissionError(path)
        return files.get(path.replace("\\", "/").lower())

    with pytest.raises(PermissionError, match="LAE.IPL"):
        gtastream.check_folder(failing)

    def failing_first(path):
        raise OSError("the host's disk is gone")

    # Raised over the FolderError it leads to (no level file found).
    with pytest.raises(OSError, match="disk is gone"):
        gtastream.check_folder(failing_first)
    with pytest.raises(TypeError):
        gtastream.check_folder({"data/gta.dat": 42})
    with pytest.raises(TypeError):
        gtastream.check_folder({1: b""})
