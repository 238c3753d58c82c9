//! The C types of the API: what `include/gtastream.h` declares (cbindgen reads this file).
//!
//! Every struct here is `#[repr(C)]` and only ever grows at its end: a field is never moved,
//! removed or retyped, and a status or enum value never changes its number.

use core::ffi::{c_char, c_void};

use crate::records::gts_record_kind;

/// Number of 64-bit words of a `gts_decoder`.
///
/// The decoder keeps in this storage the Rust decoder (at most 512 bytes, a bound the core
/// checks at compile time), a copy of the callbacks, the user pointer and a tag word. 128 words
/// (1 KiB) leave room for that bound and about 60 callbacks on 64-bit targets, and more on
/// 32-bit ones; the library checks at compile time that everything fits.
pub const GTS_DECODER_WORDS: usize = 128;

/// Most keyframes one `on_keyframes` call delivers: the size of the library's stack array.
pub const GTS_KEYFRAME_BATCH: usize = 64;

/// Version of the binary interface this header describes: compare with `gts_abi_version()` when
/// loading the shared library. It changes whenever a struct grows or a function is added.
pub const GTS_ABI_VERSION: u32 = 6;

/// Longest name a callback gets, in bytes (package, animation, bone and model names; a longer
/// one is the error `GTS_ERR_LIMIT`): `char name[GTS_MAX_NAME + 1]` holds any of them with a NUL.
pub const GTS_MAX_NAME: usize = 255;

/// "No offset": what the offset functions return when there is none (or the decoder is not
/// usable).
///
/// Offsets: every offset the library reports (errors, warnings, findings) counts from the first
/// byte of the input named (docs/FORMATS.md §0) and is where the unit or field concerned
/// begins. It is **not always inside the input**: where a field of the file places a unit (a
/// binary IPL's record offsets, a Stories file's pointers) at or past the end of the input
/// (or of the archive entry), the error, warning or finding about that unit names the offset
/// the file gives, which is then at least the input's length (a 76-byte binary IPL whose
/// records start at 5000 fails with `GTS_ERR_TRUNCATED` at 5000, and `gts_check_memory` finds
/// `bnry.bounds` at 5000). Compare an offset with the input's length before reading the input
/// there.
pub const GTS_NO_OFFSET: u64 = 0xFFFF_FFFF_FFFF_FFFF;

/// "No index": what `gts_decoder_animation` and `gts_decoder_bone` return outside an animation
/// or bone (or for a decoder that is not usable).
pub const GTS_NO_INDEX: u32 = 0xFFFF_FFFF;

/// Callback answer: go on decoding.
pub const GTS_CONTINUE: i32 = 0;
/// Callback answer: return from `gts_decoder_feed` with `GTS_PAUSED` (see `gts_callbacks`).
pub const GTS_PAUSE: i32 = 1;
/// Callback answer: stop with `GTS_ERR_ABORTED` (sticky). Any value other than `GTS_CONTINUE`
/// and `GTS_PAUSE` also aborts.
pub const GTS_ABORT: i32 = 2;

/// Caller-owned storage of one decoder: put it on the stack, in static memory or inside another
/// struct, and pass `sizeof` it to `gts_decoder_init`. Its contents are private. It needs no
/// cleanup, and may be copied with `memcpy` between calls (never during a callback): the copy is
/// an independent decoder in the same state.
#[repr(C)]
pub struct gts_decoder {
    /// Private storage; never read or written by the caller.
    pub opaque: [u64; GTS_DECODER_WORDS],
}

/// What a call returned. `GTS_OK`..`GTS_SEEK` are progress; every value from 100 up is an error:
/// 100..199 come from the input, 200..299 from the call itself (a bad argument, a misuse).
/// Numbers are stable; new statuses are only appended.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum gts_status {
    /// Every byte was consumed; feed more, or call `gts_decoder_finish` at the end of input.
    GTS_OK = 0,
    /// A callback returned `GTS_PAUSE`. `*consumed` bytes were used; feed the rest (from
    /// `data + *consumed`) to resume exactly where it stopped.
    GTS_PAUSED = 1,
    /// The file's content is complete; later bytes are trailing data. Call `gts_decoder_finish`.
    GTS_DONE = 2,
    /// The next record lies behind the bytes fed (Stories files point anywhere): drop the rest
    /// of the chunk and feed from the absolute offset `gts_decoder_position(d)` on.
    GTS_SEEK = 3,
    /// The first four bytes are not the magic of a supported format, or the input is text that
    /// is no placement file (no section keyword or record among its first lines).
    GTS_ERR_BAD_MAGIC = 100,
    /// The input ended inside a unit (`gts_decoder_finish` came too early).
    GTS_ERR_TRUNCATED = 101,
    /// A bone declares a keyframe type the format does not define.
    GTS_ERR_UNKNOWN_FRAME_TYPE = 102,
    /// A count whose records cannot fit in a file these formats can address (4 GiB).
    GTS_ERR_COUNT_TOO_LARGE = 103,
    /// A field holds a value the format forbids.
    GTS_ERR_MALFORMED = 104,
    /// A record lies behind the current position and the decoder was told it cannot seek
    /// (`gts_decoder_set_seekable`); the error offset is the record's.
    GTS_ERR_SEEK_REQUIRED = 105,
    /// A callback returned `GTS_ABORT`.
    GTS_ERR_ABORTED = 106,
    /// A field exceeds a documented bound of the decoder (a name longer than 255 bytes, a text
    /// line longer than the line limit); the file may be valid, but it is not decoded.
    GTS_ERR_LIMIT = 107,
    /// `gts_decoder_feed` or `gts_decoder_finish` after `gts_decoder_finish` ended the input.
    GTS_ERR_FINISHED = 108,
    /// The input is empty: `gts_decoder_finish` before any byte was fed.
    GTS_ERR_EMPTY = 109,
    /// The input is a collision file (`COLL`, `COL2`, `COL3`, `COL4`), not a format the library
    /// reads.
    GTS_ERR_COLLISION_FILE = 110,
    /// The input is a RenderWare model (`.dff`), not a format the library reads.
    GTS_ERR_RENDERWARE_MODEL = 111,
    /// The input is a RenderWare texture dictionary (`.txd`), not a format the library reads.
    GTS_ERR_TEXTURE_DICTIONARY = 112,
    /// The input is a Fastman92 IMG archive (`VERF`): not supported, its directory is encrypted.
    GTS_ERR_FASTMAN92_IMG = 113,
    /// The input is a GTA IV IMG archive: not supported.
    GTS_ERR_GTA4_IMG = 114,
    /// The input is text IPL and the library was built without it (never, as this repository
    /// builds it: the core's `ipl-text` feature is on).
    GTS_ERR_UNSUPPORTED = 115,
    /// Sampling: the file has no animation of the name or index asked for.
    GTS_ERR_NOT_FOUND = 116,
    /// Sampling a looped animation that the games would play for ever without reaching the
    /// time asked for (length 0, or a bone whose keys never advance).
    GTS_ERR_ENDLESS = 117,
    /// Sampling at a time that is not finite or is negative (the sampler's domain: every
    /// finite time from 0; docs/ANIMATION.md).
    GTS_ERR_BAD_TIME = 118,
    /// A decoding error this version of the C library has no number for.
    GTS_ERR_OTHER = 199,
    /// A NULL or misaligned pointer where one is required, `data == NULL` with `len > 0`, or
    /// input that overlaps the decoder.
    GTS_ERR_INVALID_ARGUMENT = 200,
    /// The size passed to `gts_decoder_init` (`gts_encoder_init`) is not `sizeof(gts_decoder)`
    /// (`sizeof(gts_encoder)`) as the library knows it: the header and the library do not match.
    GTS_ERR_SIZE_MISMATCH = 201,
    /// The decoder was not set up by `gts_decoder_init`.
    GTS_ERR_NOT_INITIALIZED = 202,
    /// A callback called back into the decoder that is calling it.
    GTS_ERR_REENTRANT = 203,
    /// The call is not allowed now (`gts_decoder_set_seekable` after the first feed).
    GTS_ERR_INVALID_STATE = 204,
    /// An internal failure of the library (a Rust panic caught at the boundary). The decoder is
    /// unusable until `gts_decoder_reset` or `gts_decoder_init`.
    GTS_ERR_PANIC = 205,
    /// The read or seek function given to `gts_decode_io` failed (returned an error, or more
    /// bytes than asked for). The decoder is unchanged: call again to retry.
    GTS_ERR_IO = 206,
    /// Writing (300..399): the format cannot be written (Stories `.anim`), or the events are
    /// animations for a placement format or the reverse.
    GTS_ERR_UNSUPPORTED_FORMAT = 300,
    /// A name does not fit its field with its NUL (ANP3/ANP2: 23 bytes; ANPK objects: 27).
    GTS_ERR_NAME_TOO_LONG = 301,
    /// A frame type the target format cannot store, or no `gts_frame_type`.
    GTS_ERR_UNSUPPORTED_FRAME_TYPE = 302,
    /// A value outside the `int16_t` range of a packed keyframe (`GTS_ENCODE_QUANTIZE`).
    GTS_ERR_OUT_OF_RANGE = 303,
    /// A value the target cannot hold exactly (a packed keyframe not on its steps, a NaN in a
    /// text IPL, a line or instance the target would change).
    GTS_ERR_NOT_REPRESENTABLE = 304,
    /// More records or bytes than the format's 32-bit fields hold.
    GTS_ERR_TOO_MANY = 305,
    /// An event where the format has no place for it, or after `gts_encoder_end`.
    GTS_ERR_OUT_OF_ORDER = 306,
    /// A sink callback returned non-zero.
    GTS_ERR_WRITE = 307,
    /// Archive writing (400..499): an entry name of no bytes.
    GTS_ERR_EMPTY_NAME = 400,
    /// An entry name longer than 23 bytes (the games cut it at byte 23).
    GTS_ERR_ENTRY_NAME_TOO_LONG = 401,
    /// An entry name the games skip: no `.`, its first `.` past index 20, nothing after the
    /// `.`, or a NUL, control byte or path separator in it.
    GTS_ERR_INVALID_NAME = 402,
    /// A version 2 entry of more than 65535 sectors (its size field is 16 bits).
    GTS_ERR_ENTRY_TOO_LARGE = 403,
    /// The archive would grow past the 4 GiB the games reach.
    GTS_ERR_ARCHIVE_TOO_LARGE = 404,
    /// More entries than the version 2 writer's capacity.
    GTS_ERR_TOO_MANY_ENTRIES = 405,
    /// A writer call out of order (data with no entry begun, finish inside an entry, any call
    /// after finish).
    GTS_ERR_WRITER_STATE = 406,
    /// A sink callback of the archive writer returned non-zero.
    GTS_ERR_ARCHIVE_SINK = 407,
    /// The same entry name twice (the editing layer's check).
    GTS_ERR_DUPLICATE_NAME = 408,
    /// Folder checking (500..599, `gts_mod_check`): no level file of any game in the folder
    /// (`data/gta.dat`, `data/gta_vc.dat`, `data/gta3.dat`).
    GTS_ERR_NO_GAME = 500,
    /// The level files of several games are in the folder: name the game.
    GTS_ERR_SEVERAL_GAMES = 501,
    /// The level file of the game named is not in the folder.
    GTS_ERR_NO_LEVEL_FILE = 502,
}

/// The file formats, recognised by their magic.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum gts_format {
    /// Not one this version of the library names.
    GTS_FORMAT_UNKNOWN = 0,
    /// San Andreas animation package, IFP version 2 with `frameDataSize` and `flags`.
    GTS_FORMAT_ANP3 = 1,
    /// San Andreas animation package, IFP version 2 without them.
    GTS_FORMAT_ANP2 = 2,
    /// GTA III / Vice City animation package, IFP version 1 (also each block of an `ANLF`).
    GTS_FORMAT_ANPK = 3,
    /// Liberty City / Vice City Stories animation file (`.anim`, magic `mina`).
    GTS_FORMAT_ANIM = 4,
    /// San Andreas binary item placement (`bnry`).
    GTS_FORMAT_IPL_BINARY = 5,
    /// Text item placement (GTA III, Vice City, San Andreas).
    GTS_FORMAT_IPL_TEXT = 6,
    /// Item (object) definitions, `.ide` (GTA III, Vice City, San Andreas): `ide_object` and
    /// `section_line` records.
    GTS_FORMAT_IDE = 7,
    /// RenderWare model (`.dff`, a clump stream): its frames as `on_record` records; the
    /// clump's version is `gts_file_info.rw_version`. `gts_skeleton_read` builds the skeleton.
    GTS_FORMAT_DFF = 8,
}

/// How a bone's keyframes are stored. The IFP version 2 values are the stored `frameType`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum gts_frame_type {
    /// Not one this version of the library names.
    GTS_FRAME_UNKNOWN = 0,
    /// IFP2 type 1: `float` quaternion, `float` time (20 bytes).
    GTS_FRAME_IFP2_ROT = 1,
    /// IFP2 type 2: `float` quaternion, `float` time, `float` translation (32 bytes).
    GTS_FRAME_IFP2_ROT_TRANS = 2,
    /// IFP2 type 3: `int16_t` quaternion / 4096, `int16_t` time / 60 (10 bytes).
    GTS_FRAME_IFP2_PACKED_ROT = 3,
    /// IFP2 type 4: as type 3, then `int16_t` translation / 1024 (16 bytes).
    GTS_FRAME_IFP2_PACKED_ROT_TRANS = 4,
    /// ANPK `KR00`: `float` quaternion (stored conjugated), `float` time (20 bytes).
    GTS_FRAME_KR00 = 10,
    /// ANPK `KRT0`: `float` quaternion, translation, time (32 bytes).
    GTS_FRAME_KRT0 = 11,
    /// ANPK `KRTS`: `float` quaternion, translation, scale, time (44 bytes).
    GTS_FRAME_KRTS = 12,
    /// Stories: half-float quaternion (stored conjugated), half-float time delta (10 bytes).
    GTS_FRAME_STORIES_ROT = 20,
    /// Stories: as `GTS_FRAME_STORIES_ROT`, then a half-float translation (16 bytes).
    GTS_FRAME_STORIES_ROT_TRANS = 21,
}

/// What a warning is about: the games accept the file, but it disagrees with its format.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum gts_warning_kind {
    /// Not one this version of the library names.
    GTS_WARNING_OTHER = 0,
    /// The header's `size` field disagrees with where the data really ends.
    GTS_WARNING_SIZE_MISMATCH = 1,
    /// Bytes follow the last declared record; they are skipped, not parsed.
    GTS_WARNING_TRAILING_DATA = 2,
    /// An ANP3 animation's `frameDataSize` disagrees with the keyframes that follow.
    GTS_WARNING_FRAME_DATA_SIZE_MISMATCH = 3,
    /// An ANP3 animation's `flags` bit 0 is clear although its keyframes are compressed.
    GTS_WARNING_COMPRESSED_FLAG_CLEAR = 4,
    /// Binary IPL: a section the game never reads declares records.
    GTS_WARNING_UNKNOWN_SECTION = 5,
    /// Text IPL: a line outside any section (the game skips it).
    GTS_WARNING_LINE_OUTSIDE_SECTION = 6,
    /// Text IPL: the input ends inside a section (no `end` line).
    GTS_WARNING_UNCLOSED_SECTION = 7,
    /// A chunk tag is not the one expected there (ANPK: the engines do not check it).
    GTS_WARNING_UNEXPECTED_TAG = 8,
    /// A keyframe's time is earlier than the previous one of its bone (once per bone).
    GTS_WARNING_TIME_BACKWARDS = 9,
    /// Text IPL: a line the game cannot read (a conversion failed); no record, the line is
    /// passed to `on_section_line`. The offset is the line's.
    GTS_WARNING_MALFORMED_LINE = 10,
    /// Text IPL: text after a record's last field that is no comment, ignored (the record is
    /// reported as the game reads it). The offset is the text's.
    GTS_WARNING_TRAILING_TEXT = 11,
    /// Animation: a bone has the name of an earlier bone of its animation. The offset is the
    /// second bone's.
    GTS_WARNING_DUPLICATE_BONE = 12,
    /// Writing: a bone's scale was dropped, the output format has none.
    GTS_WARNING_SCALE_DROPPED = 13,
    /// Writing a binary IPL: an instance's model name was dropped (the format stores the id).
    GTS_WARNING_MODEL_NAME_DROPPED = 14,
    /// Writing a text IPL: an instance without a model name was written as `dummy`.
    GTS_WARNING_MODEL_NAME_MISSING = 15,
    /// Writing a binary IPL with `GTS_ENCODE_DROP_TEXT_SECTIONS`: a text-only line dropped.
    GTS_WARNING_SECTION_LINE_DROPPED = 16,
}

/// Text IPL: the game a file is for, which fixes the layout of its `inst` lines
/// (`gts_decoder_set_game`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum gts_game {
    /// Decided by the file: the first `inst` line that has 11, 12 or 13 fields and reads whole
    /// in that layout (the default).
    GTS_GAME_AUTO = 0,
    /// GTA III: 12 fields (`id name x y z sx sy sz rx ry rz rw`).
    GTS_GAME_III = 1,
    /// Vice City: 13 fields (`id name interior x y z sx sy sz rx ry rz rw`).
    GTS_GAME_VC = 2,
    /// San Andreas: 11 fields (`id name interior x y z rx ry rz rw lod`).
    GTS_GAME_SA = 3,
}

/// The file was recognised: the first event.
#[repr(C)]
pub struct gts_file_info {
    /// The format, from the magic.
    pub format: gts_format,
    /// The format's short name, a static NUL-terminated string: "ANP3", "ANP2", "ANPK", "ANIM",
    /// "bnry", "text", "ide" or "dff".
    pub format_name: *const c_char,
    /// The package name: `name_len` bytes, not NUL-terminated. NULL if `!has_name`.
    pub name: *const c_char,
    /// Bytes of `name`.
    pub name_len: usize,
    /// Whether the format stores a package name (ANP3, ANP2, ANPK).
    pub has_name: bool,
    /// Animations the file declares (Stories: the entries of its offset table; 0 for placement
    /// files).
    pub animation_count: u32,
    /// Binary IPL: instances the header declares (0 if `!has_instance_count`).
    pub instance_count: u32,
    /// Whether `instance_count` is known (binary IPL).
    pub has_instance_count: bool,
    /// Binary IPL: car generators the header declares (0 if `!has_car_count`).
    pub car_count: u32,
    /// Whether `car_count` is known (binary IPL).
    pub has_car_count: bool,
    /// The header as stored (ANP3/ANP2: its 36 bytes), `raw_len` bytes valid for the call; NULL
    /// where the format keeps none. Passed to `gts_encoder_file` it lets a file be written back
    /// byte for byte (docs/FORMATS.md §9.7); a caller filling the struct itself sets NULL.
    pub raw: *const u8,
    /// Bytes of `raw`.
    pub raw_len: usize,
    /// `ANLF`: the container's `size` field as stored, on each block's `on_file` (and on the one
    /// `on_file`, without a name, of an `ANLF` of no blocks); 0 if `!has_container_size`.
    /// Passed to `gts_encoder_file`, the container is written back around the blocks.
    pub container_size: u32,
    /// Whether the file is a block of an `ANLF`.
    pub has_container_size: bool,
    /// DFF: the clump's RenderWare library id as stored (`0x1803FFFF`: 3.6.0.3); 0 if
    /// `!has_rw_version`. Not read by `gts_encoder_file`.
    pub rw_version: u32,
    /// Whether `rw_version` is known (DFF).
    pub has_rw_version: bool,
}

/// An animation begins.
#[repr(C)]
pub struct gts_animation_info {
    /// 0-based position in the file.
    pub index: u32,
    /// The name: `name_len` bytes up to the first NUL of the field, not NUL-terminated.
    pub name: *const c_char,
    /// Bytes of `name`.
    pub name_len: usize,
    /// Bones the animation declares.
    pub bone_count: u32,
    /// ANP3 only: declared bytes of all the animation's keyframes.
    pub frame_data_size: u32,
    /// Whether `frame_data_size` is stored (ANP3).
    pub has_frame_data_size: bool,
    /// ANP3 only: bit 0 = compressed.
    pub flags: u32,
    /// Whether `flags` is stored (ANP3).
    pub has_flags: bool,
    /// Stories only: the clip's length in seconds.
    pub duration: f32,
    /// Whether `duration` is stored (Stories).
    pub has_duration: bool,
    /// The animation header as stored (as `gts_file_info.raw`).
    pub raw: *const u8,
    /// Bytes of `raw`.
    pub raw_len: usize,
}

/// A bone (animated object) of the current animation begins.
#[repr(C)]
pub struct gts_bone_info {
    /// 0-based position in its animation.
    pub index: u32,
    /// The name: `name_len` bytes, not NUL-terminated. NULL if `!has_name` (Stories).
    pub name: *const c_char,
    /// Bytes of `name`.
    pub name_len: usize,
    /// Whether the format stores a bone name.
    pub has_name: bool,
    /// The bone id as stored (IFP2 keeps -1, "match the bone by name").
    pub bone_id: i32,
    /// Whether the bone has an id (not GTA III's ANPK objects, not Stories bones without flag
    /// 0x10).
    pub has_bone_id: bool,
    /// Stories only: the 32-bit bone key (CRC-32 of the upper-cased bone name; with flag 0x10
    /// its low 16 bits hold the bone id).
    pub bone_key: u32,
    /// Whether `bone_key` is stored (Stories).
    pub has_bone_key: bool,
    /// How the keyframes are stored.
    pub frame_type: gts_frame_type,
    /// Bytes of one stored keyframe.
    pub frame_size: u32,
    /// Keyframes the bone declares.
    pub frame_count: u32,
    /// Whether the keyframes carry a translation (else `translation` is zero).
    pub has_translation: bool,
    /// Whether the keyframes carry a scale (ANPK `KRTS`; else `scale` is zero).
    pub has_scale: bool,
    /// The bone header as stored (as `gts_file_info.raw`).
    pub raw: *const u8,
    /// Bytes of `raw`.
    pub raw_len: usize,
}

/// One decoded keyframe. Parts the bone's frame type does not carry are zero.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct gts_keyframe {
    /// Seconds from the start of the clip.
    pub time: f32,
    /// Quaternion x, y, z, w in the engine's convention (ANPK and Stories are un-conjugated).
    pub rotation: [f32; 4],
    /// Game units (metres).
    pub translation: [f32; 3],
    /// As stored.
    pub scale: [f32; 3],
}

/// The stored bytes of a batch of keyframes, unchanged (little-endian, as in the file), for
/// hosts that keep keyframes in their stored form (San Andreas keeps IFP2 types 3 and 4 packed).
#[repr(C)]
pub struct gts_raw_keyframes {
    /// How the keyframes are stored.
    pub frame_type: gts_frame_type,
    /// `count * frame_size` bytes; not aligned (read with `memcpy`).
    pub bytes: *const u8,
    /// Bytes of one keyframe.
    pub frame_size: usize,
    /// Keyframes in the batch (at least 1).
    pub count: usize,
}

/// A placed object: a binary IPL instance or a text IPL `inst` line. Deprecated:
/// `gts_record_instance` (`on_record`, `gts_encoder_record`) holds the same fields.
#[repr(C)]
pub struct gts_ipl_instance {
    /// World position.
    pub position: [f32; 3],
    /// Quaternion x, y, z, w as stored.
    pub rotation: [f32; 4],
    /// The object's model id.
    pub model_id: i32,
    /// Low 8 bits: the area code (13 = visible everywhere); bits 8..12: flags. 0 where the line
    /// has no interior (GTA III).
    pub interior: u32,
    /// Index of the LOD instance in the companion text IPL; -1 = none (and where absent).
    pub lod: i32,
    /// Text IPL: the model name, `model_name_len` bytes, not NUL-terminated; NULL in binary IPL.
    pub model_name: *const c_char,
    /// Bytes of `model_name`.
    pub model_name_len: usize,
    /// Whether `model_name` is given (text IPL).
    pub has_model_name: bool,
    /// Text IPL of GTA III and Vice City: the scale (else zero).
    pub scale: [f32; 3],
    /// Whether `scale` is given.
    pub has_scale: bool,
    /// Text IPL: the line as stored, with its line break, `raw_len` bytes valid for the call;
    /// NULL from a binary IPL. Passed to `gts_encoder_instance`, the line is written back as it
    /// is while it reads as these values (docs/FORMATS.md §9.7); a caller filling the struct
    /// itself sets NULL.
    pub raw: *const u8,
    /// Bytes of `raw`.
    pub raw_len: usize,
}

/// A car generator: a binary IPL car record or a text IPL `cars` line. Deprecated:
/// `gts_record_car` (`on_record`, `gts_encoder_record`) holds the same fields.
#[repr(C)]
pub struct gts_ipl_car {
    /// World position.
    pub position: [f32; 3],
    /// Heading in radians.
    pub angle: f32,
    /// Vehicle model id; -1 = random.
    pub model_id: i32,
    /// -1 = random.
    pub primary_color: i32,
    /// -1 = random.
    pub secondary_color: i32,
    /// Bit 0: force spawn; bit 1: ignore the population limit.
    pub flags: i32,
    /// Percent.
    pub alarm_chance: i32,
    /// Percent.
    pub door_lock_chance: i32,
    /// Minimum delay.
    pub min_delay: i32,
    /// Maximum delay.
    pub max_delay: i32,
    /// Text IPL: the line as stored, as `gts_ipl_instance.raw`.
    pub raw: *const u8,
    /// Bytes of `raw`.
    pub raw_len: usize,
}

/// A line of a text IPL section the decoder does not interpret (`cull`, `path`, `enex`, ...),
/// passed through for tools. Deprecated: `gts_record_section_line` (`on_record`,
/// `gts_encoder_record`) holds the same fields.
#[repr(C)]
pub struct gts_section_line {
    /// The section's name, lower case (`cull`, `grge`, ...; a section the games do not know:
    /// the bare word that opened it, `wanted`): `section_len` bytes, not NUL-terminated;
    /// `section_len` 0 for a line outside any section.
    pub section: *const c_char,
    /// Bytes of `section`.
    pub section_len: usize,
    /// The line without its line break and surrounding blanks: `text_len` bytes, not
    /// NUL-terminated.
    pub text: *const c_char,
    /// Bytes of `text`.
    pub text_len: usize,
    /// The line's number in the file (from 1; 0 where a caller does not know it): named by
    /// `GTS_ERR_NOT_REPRESENTABLE`'s message when a binary IPL has no place for the line.
    pub line: u32,
    /// The line as stored, with its line break, as `gts_ipl_instance.raw`: written back as it
    /// is while it holds `text`.
    pub raw: *const u8,
    /// Bytes of `raw`.
    pub raw_len: usize,
}

/// Something the games accept but that disagrees with the format: decoding goes on.
#[repr(C)]
pub struct gts_warning {
    /// What it is about.
    pub kind: gts_warning_kind,
    /// Absolute byte offset of the field or record concerned (it may lie past the end of the
    /// input: see `GTS_NO_OFFSET`).
    pub offset: u64,
    /// A stable short name (`snake_case`), static and NUL-terminated.
    pub name: *const c_char,
    /// A short human-readable description, static and NUL-terminated.
    pub reason: *const c_char,
}

/// The callbacks of a decoder. Start from `gts_callbacks_init` (all NULL) and set those you
/// need; a NULL callback skips its event. Each gets the `user` pointer given to
/// `gts_decoder_init` and returns `GTS_CONTINUE`, `GTS_PAUSE` or `GTS_ABORT`.
///
/// Events come in this order: `on_file`; per animation `on_animation`, per bone `on_bone`, its
/// keyframes (`on_keyframes_raw` then `on_keyframes`, zero or more batches), `on_bone_end`, then
/// `on_animation_end`; or, for placement files and models, `on_record` (one call per record, of
/// any kind: placed objects, car generators, section lines, DFF frames, ...);
/// `on_warning` anywhere; `on_end` last (from `gts_decoder_finish`).
///
/// Pointers passed to a callback are valid only during that call: copy what you keep. A callback
/// must not call any `gts_decoder_*` function on the decoder that called it (it gets
/// `GTS_ERR_REENTRANT`), and must not unwind (C++ exceptions, `longjmp`) out of the call.
///
/// `GTS_PAUSE` makes `gts_decoder_feed` return `GTS_PAUSED` right after that event. One stored
/// batch of keyframes is delivered as a whole: a pause asked for in `on_keyframes_raw` or in one
/// of the batch's `on_keyframes` calls takes effect after the batch's last `on_keyframes` call.
/// A pause asked for during `gts_decoder_finish` is not honoured (no input follows).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct gts_callbacks {
    /// The file was recognised; always the first event.
    pub on_file: Option<unsafe extern "C" fn(user: *mut c_void, info: *const gts_file_info) -> i32>,
    /// An animation begins.
    pub on_animation:
        Option<unsafe extern "C" fn(user: *mut c_void, info: *const gts_animation_info) -> i32>,
    /// A bone of the current animation begins.
    pub on_bone: Option<unsafe extern "C" fn(user: *mut c_void, info: *const gts_bone_info) -> i32>,
    /// `count` (1 to `GTS_KEYFRAME_BATCH`) consecutive decoded keyframes of the current bone.
    /// How a bone's keyframes are split into calls depends on how the input was cut; the
    /// keyframes, in order, do not.
    pub on_keyframes: Option<
        unsafe extern "C" fn(user: *mut c_void, frames: *const gts_keyframe, count: usize) -> i32,
    >,
    /// The current bone has no more keyframes.
    pub on_bone_end: Option<unsafe extern "C" fn(user: *mut c_void) -> i32>,
    /// The current animation has no more bones.
    pub on_animation_end: Option<unsafe extern "C" fn(user: *mut c_void) -> i32>,
    /// A placed object (IPL). Deprecated: `on_record` with `GTS_RECORD_INSTANCE`; not called
    /// when `on_record` is set.
    pub on_instance:
        Option<unsafe extern "C" fn(user: *mut c_void, instance: *const gts_ipl_instance) -> i32>,
    /// A car generator (IPL). Deprecated: `on_record` with `GTS_RECORD_CAR`; not called when
    /// `on_record` is set.
    pub on_car: Option<unsafe extern "C" fn(user: *mut c_void, car: *const gts_ipl_car) -> i32>,
    /// Something the games accept but that disagrees with the format; decoding goes on.
    pub on_warning:
        Option<unsafe extern "C" fn(user: *mut c_void, warning: *const gts_warning) -> i32>,
    /// The input ended cleanly (from `gts_decoder_finish`).
    pub on_end: Option<unsafe extern "C" fn(user: *mut c_void) -> i32>,
    /// The stored bytes of a batch of keyframes, called before the `on_keyframes` calls that
    /// deliver the same keyframes decoded.
    pub on_keyframes_raw:
        Option<unsafe extern "C" fn(user: *mut c_void, raw: *const gts_raw_keyframes) -> i32>,
    /// A line of a text IPL section that has no event of its own. Deprecated: `on_record` with
    /// `GTS_RECORD_SECTION_LINE`; not called when `on_record` is set.
    pub on_section_line:
        Option<unsafe extern "C" fn(user: *mut c_void, line: *const gts_section_line) -> i32>,
    /// `len` bytes after the file's content, valid for the call (the pieces follow the input's
    /// cuts): pass them to `gts_encoder_trailing` to write a file back byte for byte.
    pub on_trailing:
        Option<unsafe extern "C" fn(user: *mut c_void, bytes: *const u8, len: usize) -> i32>,
    /// Text IPL: a line that brings no other event (blank, comment, section name, `end`, or a
    /// line read before the text was known to be a placement file: those come before
    /// `on_file`), `len` bytes with its line break, valid for the call: pass it to
    /// `gts_encoder_text_line` to write the text back byte for byte.
    pub on_text_line:
        Option<unsafe extern "C" fn(user: *mut c_void, bytes: *const u8, len: usize) -> i32>,
    /// A record of any kind (`GTS_RECORD_INSTANCE`, `GTS_RECORD_CAR`,
    /// `GTS_RECORD_SECTION_LINE`, the DFF kinds, ...): `record` points to the struct of `kind`
    /// (`gts_record_NAME`), valid for the call; pass both to `gts_encoder_record` to write it.
    /// Set, it replaces the deprecated `on_instance`, `on_car` and `on_section_line`, which are
    /// then not called.
    pub on_record: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            kind: gts_record_kind,
            record: *const c_void,
        ) -> i32,
    >,
}

/// Reads up to `capacity` bytes into `buffer` for `gts_decode_io`: returns how many it read
/// (0 only at the end of input), or a negative number for an error.
pub type gts_read_fn =
    Option<unsafe extern "C" fn(io: *mut c_void, buffer: *mut u8, capacity: usize) -> isize>;

/// Moves the input of `gts_decode_io` to the absolute byte offset `offset` of the file: returns
/// 0 on success, anything else for an error.
pub type gts_seek_fn = Option<unsafe extern "C" fn(io: *mut c_void, offset: u64) -> i32>;
