"""Type stubs of gtastream's native module (re-exported by the ``gtastream`` package)."""

import os
from typing import (
    Any,
    Callable,
    Dict,
    Iterator,
    List,
    Literal,
    Mapping,
    Optional,
    Protocol,
    Tuple,
    TypedDict,
    Union,
    final,
    type_check_only,
)

import numpy
import numpy.typing as npt

__all__ = [
    "DECODER_SIZE",
    "Animation",
    "ArchiveError",
    "Bone",
    "DecodeError",
    "EncodeError",
    "EventReader",
    "FolderError",
    "Package",
    "Placement",
    "check",
    "check_folder",
    "convert",
    "decode",
    "events",
    "from_gltf",
    "img_add",
    "img_new",
    "img_rebuild",
    "img_remove",
    "load",
    "sample",
    "to_gltf",
    "write",
    "write_archive",
]

_Bytes = Union[bytes, bytearray, memoryview]

DECODER_SIZE: int
"""Size of the core's decoder in bytes (what a C host reserves)."""

class DecodeError(Exception):
    """The file did not decode: the error the command-line tool reports, with its place."""

    kind: str
    """Stable name (the core's, docs/FORMATS.md §7.2): "bad_magic", "truncated",
    "unknown_frame_type", "count_too_large", "malformed", "seek_required", "aborted", "limit",
    "finished" or "empty"; for a file of another format, "collision_file", "renderware_model",
    "texture_dictionary", "fastman92_img" or "gta4_img"."""
    reason: str
    """Short description, e.g. "file cut short"."""
    offset: int
    """Absolute byte offset of the unit that failed."""
    animation: Optional[int]
    """The animation it failed in (0-based index), None outside one."""
    bone: Optional[int]
    """The bone it failed in (0-based index in its animation), None outside one."""
    line: Optional[int]
    """Text files: the line it failed on (from 1), else None. The message (``str()``) names
    the place by index and name and says what was decoded before the error, as the
    command-line tool does."""

class EncodeError(Exception):
    """The file cannot be written as asked without losing or changing something (a name too
    long for its field, a value the target cannot hold exactly, ...); nothing is written."""

    kind: str
    """Stable name: "unsupported_format" (also animations to a placement format or the
    reverse), "name_too_long" (also a name that is not Latin-1), "unsupported_frame_type",
    "out_of_range", "not_representable", "too_many", "out_of_order" or "write"."""
    reason: str
    """Short description of the kind; the message (``str(error)``) gives the details."""

@type_check_only
class WarningDict(TypedDict):
    """Something the games accept but the file disagrees with its format about."""

    kind: str
    """Stable name, e.g. "size_mismatch", "trailing_data", "time_backwards"."""
    reason: str
    offset: int
    """Absolute byte offset of the field or record concerned."""

@type_check_only
class PlacedWarningDict(WarningDict):
    """A warning with its place, as decode()'s and Package/Placement's warnings have it (the
    "warning" events have none: the events around them say where)."""

    animation: Optional[int]
    """The animation it concerns (0-based index), None outside one."""
    bone: Optional[int]
    """The bone it concerns (0-based index in its animation), None outside one."""
    line: Optional[int]
    """Text files: its line (from 1), else None."""

def sample(
    data: _Bytes,
    animation: str,
    time: Any,
    loop: bool = False,
    skeleton: Optional[_Bytes] = None,
    game: Optional[str] = None,
) -> Dict[str, Any]:
    """The games' pose of ``animation`` (any case, trimmed) at ``time`` seconds (docs/ANIMATION.md).

    A number: the structure ``gtastream sample --json`` prints, {"animation", "time", "bones":
    [{"name", "bone_id", "rotation", "translation"}]}. A sequence or numpy array of T times:
    {"animation", "times" (T,), "bones": [{"name", "bone_id", "rotation" float32 (T, 4),
    "translation" (T, 3) or None}]}. Raises DecodeError ("not_found", "endless", "bad_time", ...).
    With ``skeleton`` (a model's DFF bytes) and one time: what ``gtastream sample --skeleton
    MODEL --json`` prints (docs/SKELETON.md §3), each bone's "frame" and "unbound", and
    "frames": every frame of the model in model space ({"index", "name", "matrix": 16 numbers,
    column-major}), bound as ``game`` ("iii", "vc", "sa", "mta"; None: the files' default)
    binds. ValueError where ``skeleton`` is no model.
    """

def to_gltf(
    data: _Bytes,
    skeleton: _Bytes,
    animations: Optional[List[str]] = None,
    game: Optional[str] = None,
    json: bool = False,
) -> Dict[str, Any]:
    """The animations of ``data`` as glTF 2.0 on the skeleton of ``skeleton`` (a model's DFF
    bytes): the bytes ``gtastream convert --to glb --skeleton MODEL`` writes (``json``: the
    ``.gltf`` of ``--to gltf``; docs/ANIMATION.md, "glTF").

    Returns {"bytes", "animations" (how many it holds), "empty" (animations left out: no track
    to write), "unwritten": [{"animation", "track", "name", "bone_id", "reason", "message",
    "key"?, "by"?}]}, the object JavaScript's ``toGltf`` gives. ``animations``: the names to
    write (any case; None: all); ``game``: "iii", "vc", "sa" or "mta" (None: the files'
    default binding). Raises DecodeError ("not_found" for an animation the file lacks, or a
    decoding error), ValueError where ``skeleton`` is no model.
    """

def from_gltf(
    data: _Bytes,
    format: str = "anp3",
    block: str = "ped",
    animations: Optional[List[str]] = None,
    skeleton: Optional[_Bytes] = None,
    bone_map: Optional[str] = None,
    resample: Optional[int] = None,
    quantize: bool = False,
    games: Optional[List[str]] = None,
    report: bool = False,
) -> Dict[str, Any]:
    """A ``.glb`` (or a ``.gltf`` with its buffers embedded) written as an IFP (``format``:
    "anp3", "anp2" or "anpk"), the bytes ``gtastream convert --to FORMAT IN.glb OUT.ifp``
    writes (docs/ANIMATION.md, "From glTF").

    Returns {"bytes", "animations" (how many it holds), "notes" (what was skipped or changed,
    a line each), "report": [{"animation", "bone", "node", "angle" (degrees), "position"
    (metres)}] (with ``report``)}, the object JavaScript's ``fromGltf`` gives. Nodes are mapped
    by ``bone_map`` (the text of a map file: ``glTF-name = GTA name|id`` a line), gtastream's
    node extras, the frame names of ``skeleton`` (a model's DFF bytes) and the standard bone
    names; keys are kept exactly unless ``resample`` (keys a second) or ``quantize``; the output
    is checked for ``games`` ("iii", "vc", "sa", "mta"; None: every game that loads it).
    Raises EncodeError (``kind``: "glb", "json", "key", "unmapped", "check", ...; the message
    names the animation, node or key), ValueError for another format or a skeleton that is no
    model.
    """

def decode(data: _Bytes) -> Dict[str, Any]:
    """Decode a whole file held in memory into the structure ``gtastream dump --json`` prints.

    Keys: "format", "name", "warnings", then "animations" (animation files) or "instances",
    "cars" and "section_lines" (placement files), then "raw" and "trailing", as `gtastream dump
    --help` describes. NaN and infinities are None; numbers are as ``json.loads`` reads them (a
    whole-number float such as a time of 1.0 is the int 1). The units as stored are ``bytes``
    (None where none is kept; the command prints them in hex): the file header ("raw"), the
    bytes after the content ("trailing"), each animation's and bone's header ("raw"); an
    ANLF's "blocks" ([{"name", "raw", "animations"}], None for other files) and
    "container_size"; a placement file's lines and records in file order ("stored":
    [{"item", "index", "raw"}], each line a str with its line break; None for a bnry of
    instances then cars), so that ``write(decode(data)) == data``. Raises DecodeError where the command would fail.
    """

_Game = Literal["iii", "vc", "sa", "mta"]
_Severity = Literal["error", "warning", "note"]

@type_check_only
class CheckFindingDict(TypedDict):
    """One finding (docs/CHECKS.md lists the rules)."""

    rule: str
    severity: _Severity
    games: List[_Game]
    offset: int
    """Absolute byte offset (in the archive for an entry's)."""
    entry: Optional[str]
    animation: Optional[int]
    bone: Optional[int]
    message: str

@type_check_only
class CheckGroupDict(TypedDict):
    """One rule's findings in an input: ``listed`` groups are shown finding by finding, the
    others as one line with their ``spread`` ("769 times in 330 animations")."""

    rule: str
    severity: _Severity
    games: List[_Game]
    count: int
    animations: int
    entries: int
    first: int
    """Index of its first finding in ``findings``."""
    listed: bool
    spread: str

@type_check_only
class CheckCountsDict(TypedDict):
    errors: int
    warnings: int
    notes: int

@type_check_only
class CheckSummaryDict(CheckCountsDict):
    """The summary line: findings by level, and by level for each game."""

    games: Dict[_Game, CheckCountsDict]

@type_check_only
class CheckInputDict(TypedDict):
    """One checked input: its findings, grouped and counted, and the games it was checked for
    (``games_from``: "file" when they were read from the file, "caller" when named)."""

    file: str
    format: Optional[str]
    findings: List[CheckFindingDict]
    groups: List[CheckGroupDict]
    summary: CheckSummaryDict
    games: List[_Game]
    games_from: Literal["file", "caller"]

@type_check_only
class CheckDict(TypedDict):
    inputs: List[CheckInputDict]

def check(
    data: _Bytes,
    name: Optional[str] = None,
    games: Optional[List[str]] = None,
    skeleton: Optional[_Bytes] = None,
    dir: Optional[_Bytes] = None,
) -> CheckDict:
    """Check a file (or a VER2 archive) held in memory against the games' loading rules: the
    structure ``gtastream check --json NAME`` prints ({"inputs": [{"file", "format",
    "findings": [{"rule", "severity", "games", "offset", "entry", "animation", "bone",
    "message"}], "groups": [{"rule", "severity", "games", "count", "animations", "entries",
    "first", "listed", "spread"}], "summary": {"errors", "warnings", "notes", "games": {game:
    {"errors", "warnings", "notes"}}}, "games", "games_from"}]}). ``games``: "iii", "vc",
    "sa", "mta"; None: the games the file is for, read from the file (ANP3 → SA and MTA, an
    ANPK of 48-byte ANIM chunks → III, ...), which "games" and "games_from" say.
    ``skeleton`` (a model's DFF bytes): its animations also checked against the model, as
    ``check --skeleton MODEL`` does (rules ``skel.*``); a DFF alone gets its skeleton report.
    ``dir`` (a version 1 archive's ``.dir`` bytes): ``data`` is its ``.img``, checked as
    ``gtastream check NAME.img`` with the ``.dir`` beside (format "VER1")."""

class FolderError(Exception):
    """A folder cannot be checked at all (``check_folder``); the message is ``NAME: reason``."""

    kind: Literal["no_game", "several_games", "no_level_file"]
    """Why: no data/gta.dat, data/gta_vc.dat or data/gta3.dat ("no_game"), the level files of
    several games are there and no ``game`` was named ("several_games"), the named game's
    level file is not there ("no_level_file")."""
    reason: str
    """The reason in words, e.g. "no data/gta3.dat"."""

@type_check_only
class CheckFolderFindingDict(CheckFindingDict):
    """A finding of a folder: also its file, line and the other file involved."""

    path: str
    """The file, as the level file writes it (``DATA\\MAPS\\LA\\LAE.IPL``) or as the game
    names it (``models/gta3.img``); an archive entry's name is in ``entry``."""
    line: Optional[int]
    """The line of a text file (from 1), else None."""
    other: Optional[str]
    """The other file of a finding across files (the archive that also holds a name, ...)."""

@type_check_only
class CheckUnreadableDict(TypedDict):
    path: str
    reason: str

@type_check_only
class CheckFolderInputDict(TypedDict):
    """The folder as one input of format "DIR": its findings, grouped and counted, then the
    game checked, the verdict, the files numbered, the archive entries read and the files that
    were there but could not be read."""

    file: str
    format: Literal["DIR"]
    findings: List[CheckFolderFindingDict]
    groups: List[CheckGroupDict]
    summary: CheckSummaryDict
    games: List[_Game]
    games_from: Literal["file", "caller"]
    """"file" when the folder's level file told the game, "caller" when ``game`` named it."""
    verdict: Literal["loads", "fails"]
    game: Literal["iii", "vc", "sa"]
    files: int
    entries: int
    unreadable: List[CheckUnreadableDict]

@type_check_only
class CheckFolderDict(TypedDict):
    inputs: List[CheckFolderInputDict]

_Folder = Union[
    str,
    "os.PathLike[str]",
    Mapping[str, _Bytes],
    Mapping[bytes, _Bytes],
    Callable[[str], Optional[_Bytes]],
]

def check_folder(
    folder: _Folder,
    *,
    game: Optional[str] = None,
    base: Optional[_Folder] = None,
    name: Optional[str] = None,
) -> CheckFolderDict:
    """Check a game or mod folder as the game loads it (docs/CHECKS.md, "Whole folders"): the
    document ``gtastream check --json DIR`` prints, as a dict (one input of format "DIR",
    findings with "path", "line" and "other", then "verdict", "game", "files", "entries",
    "unreadable").

    ``folder``: a path to the folder, or the host's own files: a mapping of relative paths to
    bytes (matched as the games match them: any case, ``\\`` or ``/``; a value is read only
    when the walk opens its file), or a callable given each path as the level file writes it
    (``DATA\\MAPS\\LA\\LAE.IDE``, ``models/gta3.img``) that returns its bytes or None.
    ``game``: "sa", "vc" or "iii" (None: the folder's level file decides). ``base``: a game
    folder (the same kinds) the folder is checked against, a path looked up in ``folder``
    first. ``name``: the input's "file" (default: the path as given, "" for a host's files).
    Raises FolderError where the folder cannot be checked at all, OSError where a path is no
    folder, ValueError for another game, and what the host's mapping or callable raised."""

def load(source: Union[str, "os.PathLike[str]", _Bytes]) -> Union["Package", "Placement"]:
    """Decode a whole file (a path, or its bytes) into a Package (animation files) or a
    Placement (item placement files). Raises DecodeError where ``dump --json`` would fail,
    OSError when the file cannot be read."""

@final
class Package:
    """A decoded animation file (ANP3, ANP2, ANPK, ANLF, Stories .anim)."""

    @property
    def format(self) -> Literal["ANP3", "ANP2", "ANPK", "ANIM"]:
        """The format ("ANPK" also for ANLF containers, "ANIM" for Stories files)."""
    @property
    def name(self) -> Optional[str]:
        """The package name (one character per byte); None where the format has none."""
    @property
    def animations(self) -> List["Animation"]:
        """The animations in file order (an ANLF container's blocks together)."""
    @property
    def warnings(self) -> List[PlacedWarningDict]:
        """Everything odd the decoder noticed, in file order."""
    def animation(self, name: str) -> Optional["Animation"]:
        """The first animation of that name, or None: ASCII case aside, as the game compares, and
        ASCII whitespace around either name ignored (``gtastream::name_matches``)."""
    def __len__(self) -> int: ...

@final
class Animation:
    """One animation (clip)."""

    @property
    def name(self) -> str: ...
    @property
    def frame_data_size(self) -> Optional[int]:
        """ANP3 only: the declared bytes of all keyframes."""
    @property
    def flags(self) -> Optional[int]:
        """ANP3 only: bit 0 = compressed."""
    @property
    def duration(self) -> Optional[float]:
        """Stories only: the clip's length in seconds."""
    @property
    def bones(self) -> List["Bone"]:
        """The animated bones in file order."""
    def bone(self, name: str) -> Optional["Bone"]:
        """The first bone of that name, or None, compared as ``Package.animation`` compares:
        ``"pelvis"`` finds the ``" Pelvis"`` of a real San Andreas file."""
    def bone_by_id(self, bone_id: int) -> Optional["Bone"]:
        """The first bone with that id; or None."""
    def __len__(self) -> int: ...

@final
class Bone:
    """One animated bone; its keyframes as numpy arrays, row i being keyframe i."""

    @property
    def name(self) -> Optional[str]:
        """None for Stories files, which store no names."""
    @property
    def bone_id(self) -> Optional[int]:
        """As stored (-1: match the bone by name); None where the format has none."""
    @property
    def bone_key(self) -> Optional[int]:
        """Stories only: the 32-bit bone key."""
    @property
    def frame_type(self) -> str:
        """How the keyframes were stored: "ifp2_rot", "ifp2_rot_trans", "ifp2_packed_rot",
        "ifp2_packed_rot_trans", "kr00", "krt0", "krts", "stories_rot", "stories_rot_trans"."""
    @property
    def times(self) -> npt.NDArray[numpy.float32]:
        """Seconds from the start of the clip, shape (n,)."""
    @property
    def rotations(self) -> npt.NDArray[numpy.float32]:
        """Quaternions x, y, z, w in the engine convention, shape (n, 4)."""
    @property
    def translations(self) -> Optional[npt.NDArray[numpy.float32]]:
        """Metres, shape (n, 3); None when the frame type stores none."""
    @property
    def scales(self) -> Optional[npt.NDArray[numpy.float32]]:
        """Shape (n, 3); None when the frame type stores none (only ANPK KRTS has them)."""
    def __len__(self) -> int:
        """Number of keyframes."""

@final
class Placement:
    """A decoded item placement file (binary or text IPL), as dicts of numpy columns."""

    @property
    def format(self) -> Literal["bnry", "text"]: ...
    @property
    def instances(self) -> Dict[str, Any]:
        """Columns, row i being instance i:
        "position" float32 (n, 3); "rotation" float32 (n, 4), x y z w as stored;
        "model_id" int32 (n,); "interior" uint32 (n,) (area code in the low 8 bits);
        "lod" int32 (n,) (-1 = none); "model_name" list of str or None (text IPL only);
        "scale" float32 (n, 3) or None when no instance has one (GTA III / Vice City lines;
        NaN rows for instances without)."""
    @property
    def cars(self) -> Dict[str, Any]:
        """Columns, row i being car generator i: "position" float32 (n, 3); "angle" float32
        (n,) radians; int32 (n,): "model_id", "primary_color", "secondary_color", "flags",
        "alarm_chance", "door_lock_chance", "min_delay", "max_delay"."""
    @property
    def section_lines(self) -> List[Tuple[str, str]]:
        """Text IPL: (section, text) for each line of the sections without events of their own
        (cull, path, enex, ...), in file order."""
    @property
    def warnings(self) -> List[PlacedWarningDict]: ...

@type_check_only
class _BinaryFile(Protocol):
    def read(self, n: int, /) -> bytes: ...

@type_check_only
class FileEvent(TypedDict):
    format: Literal["ANP3", "ANP2", "ANPK", "ANIM", "bnry", "text", "dff"]
    name: Optional[str]
    animation_count: int
    instance_count: Optional[int]
    """Binary IPL only: as the header declares."""
    car_count: Optional[int]
    rw_version: Optional[int]
    """A RenderWare file (DFF): the library id as stored (0x1803FFFF: 3.6.0.3)."""

@type_check_only
class AnimationEvent(TypedDict):
    index: int
    name: str
    bone_count: int
    frame_data_size: Optional[int]
    flags: Optional[int]
    duration: Optional[float]

@type_check_only
class BoneEvent(TypedDict):
    index: int
    name: Optional[str]
    bone_id: Optional[int]
    bone_key: Optional[int]
    frame_type: str
    frame_count: int
    has_translation: bool
    has_scale: bool

# BEGIN record kinds: generated from src/record.rs by tests/decode/record_types.rs

@type_check_only
class InstanceEvent(TypedDict):
    """A placed object: a binary IPL instance or a text IPL `inst` line. (`Default`
    gives zeros and no name or scale: other crates cannot name every field of a
    `#[non_exhaustive]` struct, so an encoder's caller starts from it.)"""

    model_id: int
    """The object's model id."""
    model_name: Optional[str]
    """Text IPL: the model name."""
    interior: int
    """Low 8 bits: the area code (13 = visible everywhere); bits 8..12: flags. 0 where the line has no interior (GTA III)."""
    position: List[float]
    """World position."""
    rotation: List[float]
    """Quaternion `x, y, z, w` as stored."""
    scale: Optional[List[float]]
    """Text IPL of GTA III and Vice City: the scale."""
    lod: int
    """Index of the LOD instance in the companion text IPL; −1 = none (and where absent)."""

@type_check_only
class CarEvent(TypedDict):
    """A car generator: a binary IPL car record or a text IPL `cars` line (`Default`:
    zeros)."""

    position: List[float]
    """World position."""
    angle: float
    """Heading in radians."""
    model_id: int
    """Vehicle model id; −1 = random."""
    primary_color: int
    """−1 = random."""
    secondary_color: int
    """−1 = random."""
    flags: int
    """Bit 0: force spawn; bit 1: ignore the population limit."""
    alarm_chance: int
    """Percent."""
    door_lock_chance: int
    """Percent."""
    min_delay: int
    """Minimum delay."""
    max_delay: int
    """Maximum delay."""

@type_check_only
class SectionLineEvent(TypedDict):
    """A line of a text IPL section the decoder does not interpret (`cull`, `path`,
    `enex`, ...), passed through for tools."""

    section: str
    """The section's name, lower case (`cull`, `grge`, ...; a section the games do not know: the bare word that opened it, `wanted`); `""` for a line outside any section."""
    text: str
    """The line without its line break and surrounding blanks."""

@type_check_only
class IdeObjectEvent(TypedDict):
    """An object definition: a line of an IDE section that defines a model (`objs`,
    `tobj`, `anim`, `weap`, `hier`, `cars`, `peds`), with the fields every front end
    needs by name; the others are in its text (docs/FORMATS.md §12)."""

    section: str
    """The section's name (`objs`, `tobj`, `anim`, `weap`, `hier`, `cars`, `peds`)."""
    id: int
    """The model id."""
    model_name: str
    """The model's name (its `.dff` without the extension)."""
    txd_name: str
    """The texture dictionary's name (its `.txd` without the extension)."""
    mesh_count: Optional[int]
    """`objs`, `tobj`: the number of meshes of the layout that states it (every game); absent in San Andreas' short layout."""
    draw_distance: Optional[float]
    """`objs`, `tobj`, `anim`, `weap`: the draw distance (the first, with several meshes)."""
    flags: Optional[int]
    """`objs`, `tobj`, `anim`: the flags."""
    time_on: Optional[int]
    """`tobj`: the hour the object appears."""
    time_off: Optional[int]
    """`tobj`: the hour it disappears."""
    animation: Optional[str]
    """`anim`: the animation block (`.ifp`) it uses; `weap`: its animation."""
    text: str
    """The line without its line break and surrounding blanks."""

@type_check_only
class RwSectionEvent(TypedDict):
    """RenderWare: a section the reader does not interpret, skipped (its id, library
    version and size as stored)."""

    offset: int
    """Absolute offset of the section's 12-byte header."""
    id: int
    """The section id (`0x0253F2FE`: node name, ...)."""
    size: int
    """Bytes after the header, as stored."""
    version: int
    """The library id (version and build) as stored."""
    parent: int
    """The id of the section it lies in (0 at the top level)."""

@type_check_only
class DffClumpEvent(TypedDict):
    """DFF: the clump's counts (its struct)."""

    atomics: int
    """Atomics."""
    lights: Optional[int]
    """Lights (RenderWare 3.3 and later)."""
    cameras: Optional[int]
    """Cameras (RenderWare 3.3 and later)."""

@type_check_only
class DffFrameEvent(TypedDict):
    """DFF: a frame of the clump's frame list (its matrix as stored; its name and bone
    id come in [`DffFrameName`] and [`DffHAnim`] records after the list)."""

    index: int
    """Its index in the frame list."""
    rotation: List[float]
    """The rotation matrix: right, up and at vectors, 3 floats each."""
    position: List[float]
    """The position relative to the parent."""
    parent: int
    """The parent frame's index; −1 for a root."""
    flags: int
    """The matrix flags as stored."""

@type_check_only
class DffFrameNameEvent(TypedDict):
    """DFF: a frame's name (the node name extension, `0x0253F2FE`)."""

    frame: int
    """The frame's index."""
    name: str
    """The name as stored (no NUL)."""

@type_check_only
class DffHanimEvent(TypedDict):
    """DFF: a frame's HAnim extension (`0x011E`): its node id and, on the root of a
    hierarchy, the node table's header ([`DffHAnimNode`] records follow)."""

    frame: int
    """The frame's index."""
    version: int
    """The extension's version (`0x100`)."""
    node_id: int
    """The frame's node id (the bone id an animation's track names)."""
    node_count: int
    """Nodes of the table this frame carries (0 on a frame that only has an id)."""
    flags: Optional[int]
    """The hierarchy's flags (with a table)."""
    key_frame_size: Optional[int]
    """The key frame size (with a table)."""

@type_check_only
class DffHanimNodeEvent(TypedDict):
    """DFF: a node of an HAnim hierarchy's table, in table order."""

    frame: int
    """The frame that carries the table."""
    index: int
    """The node's position in the table (the index the engine binds by)."""
    node_id: int
    """The node id."""
    node_index: int
    """The node index as stored (the engine never reads it)."""
    flags: int
    """Bit 0: POP (the next node's parent is the one before this branch); bit 1: PUSH (this node's parent is kept for the next branch)."""

@type_check_only
class DffGeometryEvent(TypedDict):
    """DFF: a geometry of the clump's geometry list: its counts, its arrays skipped."""

    index: int
    """Its index in the geometry list."""
    flags: int
    """The format flags as stored."""
    triangles: int
    """Triangles."""
    vertices: int
    """Vertices."""
    morph_targets: int
    """Morph targets."""
    materials: int
    """Materials of its material list."""

@type_check_only
class DffSkinEvent(TypedDict):
    """DFF: a geometry's skin (`0x0116`): the bones its vertices are weighted to
    ([`DffSkinBone`] records follow with the inverse bind matrices)."""

    geometry: int
    """The geometry's index."""
    bones: int
    """Bones."""
    used_bones: int
    """Bones the vertices use."""
    max_weights: int
    """Weights per vertex at most (0 in the old layout: then computed)."""
    layout: int
    """0: the old layout (RenderWare 3.2 and before: a 4-byte marker before each matrix); 1: the later one."""

@type_check_only
class DffSkinBoneEvent(TypedDict):
    """DFF: a bone of a skin: its inverse bind matrix."""

    geometry: int
    """The geometry's index."""
    bone: int
    """The bone's index (in the HAnim table's order)."""
    inverse_bind: List[float]
    """The matrix from the model to the bone, 4 columns of 4 floats as stored."""

@type_check_only
class DffAtomicEvent(TypedDict):
    """DFF: an atomic: a geometry hung on a frame."""

    index: int
    """Its index in the clump."""
    frame: int
    """The frame's index."""
    geometry: int
    """The geometry's index."""
    flags: int
    """The flags as stored."""

_RecordEvent = Union[
    Tuple[Literal["instance"], InstanceEvent],
    Tuple[Literal["car"], CarEvent],
    Tuple[Literal["section_line"], SectionLineEvent],
    Tuple[Literal["ide_object"], IdeObjectEvent],
    Tuple[Literal["rw_section"], RwSectionEvent],
    Tuple[Literal["dff_clump"], DffClumpEvent],
    Tuple[Literal["dff_frame"], DffFrameEvent],
    Tuple[Literal["dff_frame_name"], DffFrameNameEvent],
    Tuple[Literal["dff_hanim"], DffHanimEvent],
    Tuple[Literal["dff_hanim_node"], DffHanimNodeEvent],
    Tuple[Literal["dff_geometry"], DffGeometryEvent],
    Tuple[Literal["dff_skin"], DffSkinEvent],
    Tuple[Literal["dff_skin_bone"], DffSkinBoneEvent],
    Tuple[Literal["dff_atomic"], DffAtomicEvent],
]
"""A record of any kind: (its kind's name, its fields)."""
# END record kinds

_Event = Union[
    Tuple[Literal["file"], FileEvent],
    Tuple[Literal["animation"], AnimationEvent],
    Tuple[Literal["bone"], BoneEvent],
    Tuple[Literal["keyframes"], npt.NDArray[numpy.float32]],
    Tuple[Literal["bone_end"], None],
    Tuple[Literal["animation_end"], None],
    _RecordEvent,
    Tuple[Literal["warning"], WarningDict],
    Tuple[Literal["end"], None],
]
"""One event: (name, payload).

Order: "file"; per animation "animation", per bone "bone", "keyframes" (zero or more
batches), "bone_end", then "animation_end"; a record's kind ("instance", "car" and
"section_line" for placement files; "dff_frame", "dff_hanim", ... for models: every kind of
_RecordEvent, in the file's order) for the records; "end" last. "warning" may come anywhere. A "keyframes" payload is a float32 array with
one row per keyframe: time, rotation x y z w, then translation x y z if the bone's
"has_translation", then scale x y z if "has_scale" (5, 8 or 11 columns); how a bone's keyframes
split into batches depends on the reads, the keyframes in order do not. Floats are as decoded
(NaN stays NaN here)."""

@final
class EventReader(Iterator[_Event]):
    """The iterator events() returns."""

    def __iter__(self) -> "EventReader": ...
    def __next__(self) -> _Event: ...
    @property
    def position(self) -> int:
        """Offset (from where reading began) of the next byte the decoder wants."""

def events(f: _BinaryFile, chunk_size: int = 65536) -> EventReader:
    """Stream the decoder's events from a binary file object, in constant memory.

    Reads ``f.read(chunk_size)`` until it returns b"". If ``f.seekable()`` is true, the reader
    seeks ``f`` where the format needs (Stories files point anywhere), offsets counting from
    ``f.tell()`` at the call; otherwise it reads front to back, and a file that needs a seek
    back fails with DecodeError kind "seek_required". Raises DecodeError, after the events
    before the failure, where the file fails.
    """

def write(
    obj: Union[Dict[str, Any], Package, Placement],
    path: Union[str, "os.PathLike[str]", None] = None,
    format: Optional[str] = None,
    quantize: bool = False,
    normalise: bool = False,
) -> Optional[bytes]:
    """Writes a decode() document or a Package as "anp3", "anp2" or "anpk", placements as "bnry"
    or "text" (any case; None: the format it was decoded or loaded from), as they are now.

    A document keeps the units as stored: unedited, to its own format, it is written back byte
    for byte (a text IPL's lines, an ANLF's blocks, a bnry's section order included); an edited
    value is written the format's usual way and the rest stays. ``normalise=True`` writes the
    clean file. A Package keeps the units too (an ANLF its blocks); a Placement is written
    clean.

    Lossless: what the target cannot hold exactly raises EncodeError and nothing is written.
    Bones keep their stored frame type where the target has it; other formats' float bones
    go packed into ANP3/ANP2 when every value lies on the packed steps. ``quantize=True``
    packs every ANP3/ANP2 bone, rounding. A dropped scale (ANPK KRTS to ANP3/ANP2) is a
    UserWarning. Returns the bytes when ``path`` is None, else writes the file and returns
    None."""

def convert(
    data: _Bytes,
    format: str,
    quantize: bool = False,
    normalise: bool = False,
    drop_text_sections: bool = False,
) -> bytes:
    """Converts a whole file to "anp3", "anp2", "anpk", "bnry" or "text": the bytes
    ``gtastream convert --to FORMAT [--quantize] [--normalise]`` writes (to its own format, an
    unedited file byte for byte unless ``normalise``; ``drop_text_sections`` drops the lines a
    binary IPL has no place for, with warnings). Raises DecodeError or EncodeError."""

class ArchiveError(Exception):
    """An archive cannot be written as asked; nothing was changed on disk."""

    kind: str
    """Stable name: "empty_name", "name_too_long", "invalid_name", "entry_too_large",
    "archive_too_large", "too_many_entries", "duplicate_name" (the core's
    ArchiveWriteErrorKind), "no_such_entry" (img_remove of a name not there) or "verify" (the
    new archive read back wrong)."""
    entry: Optional[str]
    """The entry's name, one character per byte, or None."""

@type_check_only
class EditReport(TypedDict):
    entries: int
    kept: int
    replaced: int
    added: int
    removed: int
    img_len: int

_Name = Union[str, _Bytes]
_Path = Union[str, "os.PathLike[str]"]

def write_archive(
    entries: Any, *, v1: bool = False
) -> Union[bytes, Tuple[bytes, bytes]]:
    """Builds an IMG archive in memory of ``entries``, an iterable of (name, data) pairs in
    order: the bytes of a San Andreas VER2 archive, or with ``v1=True`` the pair (img, dir) of
    a GTA III / Vice City one. Raises ArchiveError naming an entry the games cannot read."""

def img_new(path: _Path, files: List[_Path], *, v1: bool = False) -> EditReport:
    """Makes a new archive at ``path`` of ``files`` (each named after its file), refusing to
    replace an existing one; ``v1=True`` also makes the .dir beside it. Written beside,
    read back and compared, then renamed: never a broken archive."""

def img_add(path: _Path, files: List[_Path]) -> EditReport:
    """Puts ``files`` into the archive at ``path`` (a VER2 .img, or a version 1 .img or .dir):
    a name already there, ASCII case aside, is replaced in its place, a new one appended."""

def img_remove(path: _Path, names: List[_Name]) -> EditReport:
    """Removes the entries named ``names`` (ASCII case aside); a name not there raises
    ArchiveError kind "no_such_entry" and changes nothing."""

def img_rebuild(path: _Path) -> EditReport:
    """Writes the archive anew, entries in their order, without holes, junk and unused
    directory room."""
