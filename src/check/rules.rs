//! The table of rules: what the games do with each part of a file (from the San Andreas
//! executable's reading, re3, reVC, gta-reversed and MTA's loader: each rule names its source,
//! and docs/CHECKS.md, made from this table, lists them), each rule defined once.
//!
//! A rule's **engine** severity says what the game does; its **level** is what `check`
//! reports, calibrated so that files the games ship give no error: crashes and memory
//! corruption are errors, hangs that need a looped playback and wrong results are warnings,
//! what the engine skips is a note. Rules resting only on gta-reversed code written from
//! documentation (SA's IFP loader, "GR-docs") are at most warnings.

use core::fmt;

/// A set of games (and hosts) a rule or finding concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Games(u8);

impl Games {
    /// GTA III.
    pub const III: Games = Games(1);
    /// Vice City.
    pub const VC: Games = Games(2);
    /// San Andreas.
    pub const SA: Games = Games(4);
    /// MTA:SA, a host that loads IFP files itself.
    pub const MTA: Games = Games(8);
    /// No game.
    pub const NONE: Games = Games(0);
    /// Every game and host.
    pub const ALL: Games = Games(15);
    /// Each game alone, with its name as `--game` and the JSON spell it.
    pub const EACH: [(Games, &'static str); 4] = [
        (Games::III, "iii"),
        (Games::VC, "vc"),
        (Games::SA, "sa"),
        (Games::MTA, "mta"),
    ];

    /// The games of both sets.
    pub const fn union(self, other: Games) -> Games {
        Games(self.0 | other.0)
    }

    /// The games in both sets.
    pub const fn and(self, other: Games) -> Games {
        Games(self.0 & other.0)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every game of `other` is in the set.
    pub const fn contains(self, other: Games) -> bool {
        self.0 & other.0 == other.0
    }

    /// The bits (III 1, VC 2, SA 4, MTA 8), as the C API gives them.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The set of these bits (others ignored).
    pub const fn from_bits(bits: u8) -> Games {
        Games(bits & Games::ALL.0)
    }

    /// The text IPL layout these games fix (`Options::game`): the one of III, VC and SA
    /// among them, `None` when there are none or several (the file decides). Every front end
    /// decodes with it, so that `--game sa` reads a text IPL as San Andreas does everywhere.
    pub fn layout(self) -> Option<crate::Game> {
        let only = |g: Games| self.and(Games::III.union(Games::VC).union(Games::SA)) == g;
        if only(Games::III) {
            Some(crate::Game::Iii)
        } else if only(Games::VC) {
            Some(crate::Game::ViceCity)
        } else if only(Games::SA) {
            Some(crate::Game::SanAndreas)
        } else {
            None
        }
    }

    /// The game named `name` (`iii`, `vc`, `sa`, `mta`, any case).
    pub fn from_name(name: &str) -> Option<Games> {
        Games::EACH
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .map(|&(g, _)| g)
    }

    /// The names of the games in the set, in the order III, VC, SA, MTA.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Games::EACH
            .into_iter()
            .filter(move |&(g, _)| self.contains(g))
            .map(|(_, n)| n)
    }
}

impl fmt::Display for Games {
    /// `sa, mta`: the names, comma-separated.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.names().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

/// What the engine does (the severity words of docs/CHECKS.md's "Engine" column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Null or wild pointer, out-of-bounds write reached directly.
    Crash,
    /// Memory overwritten: crashes later, anywhere.
    Corrupt,
    /// An infinite loop (here: when the animation is played looped).
    Hang,
    /// Loads, but not as meant.
    Wrong,
    /// Skipped, no effect.
    Ignored,
    /// Not a game's behaviour: the checker's own report.
    Check,
}

impl Engine {
    /// The severity word.
    pub const fn name(self) -> &'static str {
        match self {
            Engine::Crash => "crash",
            Engine::Corrupt => "corrupt",
            Engine::Hang => "hang",
            Engine::Wrong => "wrong",
            Engine::Ignored => "ignored",
            Engine::Check => "check",
        }
    }
}

/// The level of a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Worth knowing; the game copes.
    Note,
    /// The game loads the file but does not do what was meant (or may fail: unconfirmed).
    Warning,
    /// The game crashes or corrupts memory.
    Error,
}

impl Level {
    /// `error`, `warning` or `note`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

/// Defines [`Rule`] from one table: variant, stable id, games, engine severity, level,
/// reason and source. The enum, `ALL`, the accessors and the C numbers (`code`, the position
/// in the table from 1: rows are only ever appended) all come from the table.
macro_rules! rules {
    ($($variant:ident = $id:literal, [$($game:ident),+], $engine:ident, $level:ident,
        $reason:literal, $source:literal;)*) => {
        /// A rule of `check` (docs/CHECKS.md lists them all).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Rule {
            $(#[doc = $reason] $variant,)*
        }

        impl Rule {
            /// Every rule, in table order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// The stable id (`ifp.time.zero_duration`): never renamed.
            pub const fn id(self) -> &'static str {
                match self { $(Rule::$variant => $id,)* }
            }

            /// The games the rule concerns (a finding may name fewer).
            pub const fn games(self) -> Games {
                match self { $(Rule::$variant => Games(0 $(| Games::$game.0)+),)* }
            }

            /// What the engine does.
            pub const fn engine(self) -> Engine {
                match self { $(Rule::$variant => Engine::$engine,)* }
            }

            /// The level of its findings.
            pub const fn level(self) -> Level {
                match self { $(Rule::$variant => Level::$level,)* }
            }

            /// One line: what happens.
            pub const fn reason(self) -> &'static str {
                match self { $(Rule::$variant => $reason,)* }
            }

            /// The engine code the rule rests on.
            pub const fn source(self) -> &'static str {
                match self { $(Rule::$variant => $source,)* }
            }

            /// [`id`](Self::id), [`reason`](Self::reason) and [`source`](Self::source) with a
            /// final NUL, for the C API's static strings.
            pub const fn texts_nul(self) -> [&'static str; 3] {
                match self { $(Rule::$variant => [
                    concat!($id, "\0"), concat!($reason, "\0"), concat!($source, "\0")
                ],)* }
            }

            /// The rule's number in the C API: its place in the table, from 1.
            pub fn code(self) -> u32 {
                Rule::ALL.iter().position(|&r| r == self).map_or(0, |i| i as u32 + 1)
            }

            /// The rule of a number from [`code`](Self::code).
            pub fn from_code(code: u32) -> Option<Rule> {
                Rule::ALL.get(usize::try_from(code).ok()?.checked_sub(1)?).copied()
            }

            /// The rule of an id.
            pub fn from_id(id: &str) -> Option<Rule> {
                Rule::ALL.iter().copied().find(|r| r.id() == id)
            }
        }
    };
}

rules! {
    // The checker's own.
    DecodeFailed = "file.decode_failed", [III, VC, SA, MTA], Check, Error,
        "the file does not decode: the games read garbage from here on",
        "gtastream's decoder (docs/FORMATS.md)";
    Incomplete = "check.incomplete", [III, VC, SA, MTA], Check, Note,
        "decoding stopped here: the rest of the file was not checked",
        "gtastream's decoder";
    TableFull = "check.table_full", [III, VC, SA, MTA], Check, Note,
        "the checker's table of names is full: later names were not compared for duplicates",
        "gtastream (check::NAME_TABLE, check::ANIMATION_TABLE)";

    // IFP framing (ANPK).
    AnpkChunkTooBig = "ifp.anpk.chunk_too_big", [III, VC, SA], Crash, Error,
        "an ANPK chunk body larger than the loader's stack buffer (III, VC 256 bytes; SA 260) overwrites the return address",
        "SA exe LoadAnimFile 0x4D47F0 stack buffer of 260 bytes (INU ifp_path.md §3.13); III AnimManager.cpp:L808 char buf[256], L827-859; VC L1287, L1293-1359";
    AnpkStructOverrun = "ifp.anpk.struct_overrun", [SA], Corrupt, Note,
        "retired, never reported: SA reads ANPK chunk bodies whole into a 260-byte buffer (ifp.anpk.chunk_too_big), not into structs of their size",
        "SA exe LoadAnimFile 0x4D47F0 (INU ifp_path.md §1.3, §3.13) overrides GR AnimManager.cpp:L672-761 (GR-docs)";
    MtaAnpkStructOverrun = "mta.ifp.anpk_struct_overrun", [MTA], Crash, Warning,
        "MTA copies ANPK INFO, NAME and ANIM chunks into structs of 28, 24 and 48 bytes",
        "MTA CClientIFP.cpp (01f7999), PR #5059";
    AnpkKfrmUnknown = "ifp.anpk.kfrm_unknown", [III, VC, SA], Crash, Error,
        "an unknown keyframe chunk tag: III/VC write the frames through a null array",
        "III AnimManager.cpp:L870-881; VC L1366-1376; GR L794-800";
    AnpkKfrmOnZeroFrames = "ifp.anpk.kfrm_on_zero_frames", [III, VC, SA], Crash, Error,
        "an object of no keyframes followed by a keyframe chunk: the engines read the next object from it",
        "III AnimManager.cpp:L867; VC L1362; GR L776";
    AnpkAnimSize = "ifp.anpk.anim_size", [VC, SA], Ignored, Note,
        "ANIM chunks of other than 44 bytes carry no bone tag: VC and SA bind these bones by name",
        "SA exe 0x4D4BA8 (bone id only when the size is 44; INU ifp_path.md §1.3); VC AnimManager.cpp:L1360; GR L767-769";

    // ANP3 / ANP2 (SA; GR-docs).
    Anp3FrameDataTooSmall = "ifp.anp3.frame_data_too_small", [SA], Corrupt, Warning,
        "GR-docs: frameDataSize is below the keyframes' bytes, which overflow the one allocation",
        "GR AnimManager.cpp:L861-868, L892-899";
    Anp3FrameTypeInvalid = "ifp.anp3.frame_type_invalid", [SA], Crash, Warning,
        "GR-docs: an unknown frame type leaves the stream unread (desync)",
        "GR AnimManager.cpp:L902-908";
    Anp3CompressFlagMismatch = "ifp.anp3.compress_flag_mismatch", [SA], Crash, Warning,
        "an animation of no bones with flags bit 0 set: no first bone resets the flag, so SA frees what lies past the empty bone array on first use",
        "SA exe 0x4D52D2, 0x4D53E4-0x4D540D (the first bone's frame type overrides the flag), Uncompress 0x4CF5F0 (INU ifp_path.md §1.2, §3.2); overrides GR AnimManager.cpp:L865, L915-918";
    Anp2CompressedTypes = "ifp.anp2.compressed_types", [SA], Corrupt, Note,
        "retired, never reported: SA sets the compressed flag from the first bone's frame type in ANP2 too (ifp.ifp2.mixed_frame_classes)",
        "SA exe 0x4D53E4-0x4D540D (INU ifp_path.md §1.2) overrides GR AnimManager.cpp:L861-868, L915-918";
    Anp3FramesOverU16 = "ifp.anp3.frames_over_u16", [SA], Corrupt, Error,
        "more than 32767 keyframes: SA keeps the count as an int16, which turns negative (ANPK: the stream desyncs; ANP3: keys read before the buffer)",
        "SA exe SetNumFrames 0x4D0D2E (INU ifp_path.md §3.9); GR AnimBlendSequence.cpp:L141-148 SetNumFrames";
    Anp3SeqsOverU16 = "ifp.anp3.seqs_over_u16", [SA], Crash, Error,
        "more than 32767 bones: SA keeps the count as an int16, which turns negative, and writes through a failed allocation",
        "SA exe 0x4D52FF, 0x4D5305 (INU ifp_path.md §3.9); GR AnimBlendHierarchy.cpp SetNumSequences";
    Anp3NameUnterminated = "ifp.anp3.name_unterminated", [SA], Wrong, Warning,
        "a 24-byte name without NUL: the name lookups read past the field",
        "GR AnimManager.cpp:L839-843, L851-853, L880-889";
    MtaFloatFrames = "mta.ifp.float_frames", [MTA], Crash, Error,
        "MTA misreads ANP3/ANP2 float frames (types 1, 2) as ANPK ones; write packed frames (--quantize)",
        "MTA CClientIFP.cpp frame type cast; issue 23 (a crash on every converted real file)";

    // Package and block.
    BlockNameMismatch = "ifp.block.name_mismatch", [VC, SA], Crash, Error,
        "the block name differs from the archive entry's (or file's) name: the block stays unloaded",
        "GR Streaming.cpp:L1175-1176, AnimManager.cpp:L591-618; VC Streaming.cpp:L456-459, AnimManager.cpp:L1297-1308";
    BlockNameMismatchLoose = "ifp.block.name_mismatch_file", [VC, SA], Wrong, Warning,
        "the block name differs from the file's name: streamed from an archive under that name, the block stays unloaded",
        "as ifp.block.name_mismatch";
    BlockNameTooLong = "ifp.block.name_too_long", [III, VC, SA], Wrong, Warning,
        "the block name does not fit CAnimBlock::Name (23 / 19 / 15 characters): it never matches",
        "GR AnimManager.cpp:L334-335, L604-606; VC L1058, L1305";
    BlockPedName = "ifp.block.ped_name", [III, VC, SA], Crash, Error,
        "ped.ifp must hold block \"ped\": the ped animation groups find nothing and crash",
        "III AnimManager.cpp:L762-786; VC L1234-1260; GR Initialise L53-62";
    AnimDuplicateName = "ifp.anim.duplicate_name", [III, VC, SA, MTA], Wrong, Warning,
        "two animations of the block have one name (case-insensitive): the second is unreachable",
        "GR AnimManager.cpp:L155-163; III L637-648; VC L1109-1120";
    AnimNameTooLong = "ifp.anim.name_too_long", [III, VC], Wrong, Warning,
        "an animation name of 24 characters or more loses its NUL and never matches",
        "III AnimBlendHierarchy.cpp:L24 strncpy(name, 24)";
    AnimsTotalOverLimit = "ifp.anims.total_over_limit", [III, VC, SA], Corrupt, Error,
        "more animations than the game's array holds (250 / 450 / 2500)",
        "NUMANIMATIONS; GR AnimManager.h ms_aAnimations, AnimManager.cpp:L848";
    BlocksOverLimit = "ifp.blocks.over_limit", [VC, SA], Corrupt, Warning,
        "more .ifp entries in one archive than the game has blocks (35 / 180)",
        "VC AnimManager.cpp:L1057, L1304; GR L334, L604";
    AnimNoSequences = "ifp.anim.no_sequences", [III, VC, SA, MTA], Hang, Warning,
        "an animation of no bones has length 0: played looped, it hangs",
        "GR AnimBlendHierarchy.cpp RemoveAnimSequences; AnimBlendAssociation.cpp:L191";
    SeqZeroFrames = "ifp.seq.zero_frames", [VC, SA], Corrupt, Warning,
        "a bone of no keyframes: CalcTotalTime reads key frame -1 (VC ANPK; SA ANP3: the bytes before the bone's keys, a garbage length)",
        "SA exe CalcTotalTime 0x4CF2F0 (INU ifp_path.md §3.1); VC AnimBlendHierarchy.cpp:L32-50; GR AnimBlendHierarchy.h:L72";
    SeqDuplicateBone = "ifp.seq.duplicate_bone", [III, VC, SA, MTA], Wrong, Warning,
        "two bones of the animation bind to one frame (one name, or one bone id): the last one wins",
        "SA exe CAnimBlendAssociation::Init 0x4CED50, binding by id 0x4CEDC3 (INU ifp_path.md §1.5, §3.17); GR AnimBlendStaticAssociation.cpp:L43-56; III AnimBlendAssociation.cpp Init";

    // Timing and values.
    TimeZeroDuration = "ifp.time.zero_duration", [III, VC, SA, MTA], Hang, Warning,
        "the animation's length is 0: played looped, SetCurrentTime never ends",
        "GR AnimBlendAssociation.cpp:L191-198; III AnimBlendAssociation.cpp:L124-130";
    TimeSeqNonpositiveSpan = "ifp.time.seq_nonpositive_span", [III, VC, SA, MTA], Hang, Warning,
        "a bone's last key is not after its first: looped, FindKeyFrame never ends",
        "GR AnimBlendNode.cpp:L33-63; VC AnimBlendNode.cpp:L162-190";
    TimeSeqLastNonpositive = "ifp.time.seq_last_nonpositive", [III, VC, SA, MTA], Hang, Warning,
        "a bone's last key time is not above 0: looped, NextKeyFrame never ends",
        "GR AnimBlendNode.h:L131; VC AnimBlendNode.cpp:L87-120";
    TimeDecreasing = "ifp.time.decreasing", [III, VC, SA, MTA], Wrong, Warning,
        "a key time goes back: the interpolation extrapolates",
        "GR AnimBlendNode.cpp FindKeyFrame";
    TimeDuplicate = "ifp.time.duplicate", [III, VC, SA, MTA], Wrong, Note,
        "two keys at one time: the pose snaps",
        "GR AnimBlendNode.h GetTimeRemainingProgress";
    TimeFirstNotZero = "ifp.time.first_not_zero", [III, VC, SA, MTA], Wrong, Note,
        "a bone's first key is not at 0: each loop holds the pose that much longer (before 0: that much shorter)",
        "SA exe NextKeyFrame 0x4D04A0 adds the first key's time at each wrap (INU ifp_path.md §1.4, §3.7); GR AnimBlendHierarchy.h:L66-80, AnimBlendNode.h:L131-145";
    TimeTickOverflow = "ifp.time.tick_overflow", [SA], Wrong, Warning,
        "a key time past 546.1 s wraps when SA packs it into 60 Hz int16 ticks",
        "GR FixedFloat.hpp Set; AnimManager.cpp:L809-822; Streaming.cpp:L599";
    ValueQuatRange = "ifp.value.quat_range", [SA], Wrong, Warning,
        "a quaternion component of 8 or more wraps when SA packs it (x 4096 into int16)",
        "GR AnimSequenceFrames.h FixedQuat<int16,4096>";
    ValueTransRange = "ifp.value.trans_range", [SA], Wrong, Warning,
        "a translation of 32 or more wraps when SA packs it (x 1024 into int16)",
        "GR AnimSequenceFrames.h FixedVector<int16,1024>";
    ValueNan = "ifp.value.nan", [III, VC, SA, MTA], Wrong, Warning,
        "a NaN or infinite time, rotation or translation: the bone matrices become NaN",
        "no check on the load path";
    ValueScaleIgnored = "ifp.value.scale_ignored", [III, VC, SA], Ignored, Note,
        "KRTS scale is read and thrown away",
        "III AnimManager.cpp:L883-893; GR L814";

    // IMG version 1 (III, VC).
    Img1PartialRecord = "img1.dir.partial_record", [III, VC], Wrong, Warning,
        "the .dir ends inside a record: the tail is parsed with stale bytes",
        "III Streaming.cpp:L416";
    Img1NameNoDot = "img1.name.no_dot", [III], Crash, Error,
        "an entry name without '.': III dereferences a null extension",
        "III Streaming.cpp:L417-423";
    Img1NameRules = "img1.name.rules", [VC], Ignored, Warning,
        "no '.' at index 20 or before: Vice City skips the record",
        "VC Streaming.cpp:L422-428";
    Img1NameUnterminated = "img1.name.unterminated", [III], Crash, Error,
        "24 name bytes without NUL: III reads past the field",
        "III Streaming.cpp:L417";
    Img1ExtExact = "img1.ext.exact", [III, VC], Ignored, Note,
        "an extension the game does not stream (III: DFF/dff/TXD/txd exactly; VC: DFF, TXD, COL, IFP)",
        "III Streaming.cpp:L423, L444; VC L432-463";
    Img1Duplicate = "img1.duplicate", [III, VC], Ignored, Note,
        "a name registered earlier: the first one wins",
        "III Streaming.cpp:L425-427; VC L466-469";
    Img1SlotNameLen = "img1.slot_name_len", [III, VC], Corrupt, Error,
        "a TXD (or VC COL) base name of 20 characters or more overflows its slot name",
        "III TxdStore.h:L8; VC ColStore.h:L9";
    Img1SlotsOverLimit = "img1.slots_over_limit", [III, VC], Crash, Error,
        "more TXD, COL or IFP records than the game has slots (III TXD 850; VC TXD 1385, COL 31, IFP 35)",
        "III/VC config.h; VC ColStore.cpp AddColSlot";
    Img1OffsetRange = "img1.offset_range", [III, VC], Wrong, Warning,
        "an offset the engine cannot reach (2^24 sectors, or a 32-bit byte offset)",
        "III Streaming.cpp:L429; CdStream.h _GET_OFFSET; CdStream.cpp:L239";
    Img1DataOverlap = "img1.data_overlap", [III, VC], Wrong, Warning,
        "the entry's data overlaps the previous entry's",
        "no check in the loader";

    // IMG version 2 (SA).
    Img2CountVsSize = "img2.count_vs_size", [SA], Hang, Warning,
        "the count promises more records than the file holds: stale records are read",
        "GR Streaming.cpp:L1115-1119";
    Img2NameRules = "img2.name.rules", [SA], Ignored, Warning,
        "SA forces a NUL at byte 23 and needs the first '.' at index 20 or before: the record is skipped",
        "GR Streaming.cpp:L1124-1145";
    Img2ExtKinds = "img2.ext.kinds", [SA], Ignored, Note,
        "an extension SA does not stream (DFF, TXD, COL, IPL, DAT, IFP, RRR, SCM), outside a cutscene archive",
        "GR Streaming.cpp:L1144-1185";
    Img2SizeField = "img2.size_field", [SA], Wrong, Warning,
        "the second size (u16 at +6) is set: SA uses it instead of the first",
        "GR Streaming.cpp:L1188-1192";
    Img2StreamBufferOverflow = "img2.stream_buffer_overflow", [SA], Corrupt, Warning,
        "a second size above every first size: the streaming buffer overflows unless another archive has a bigger entry",
        "GR Streaming.cpp:L1122, L2881-2896";
    Img2ZeroSize = "img2.zero_size", [SA], Ignored, Note,
        "an entry of no sectors: the slot stays free",
        "GR Streaming.cpp:L1188-1202; StreamingInfo.h:L59";
    Img2Duplicate = "img2.duplicate", [SA], Ignored, Note,
        "a name registered earlier: the first one wins",
        "GR Streaming.cpp:L1188, L1220-1226";
    Img2ColNoDedupe = "img2.col_no_dedupe", [SA], Wrong, Warning,
        "a .col name repeated: SA never deduplicates COL records, both load",
        "GR Streaming.cpp:L1161-1165; ColStore.h FindColSlot";
    Img2RrrScmSlots = "img2.rrr_scm_slots", [SA], Corrupt, Error,
        "more than 475 .rrr or 82 .scm records",
        "GR VehicleRecording.cpp:L126-137; StreamedScripts.cpp:L124-127";
    Img2DatName = "img2.dat_name", [SA], Wrong, Warning,
        "a .dat entry not named nodes0 .. nodes63, outside a cutscene archive",
        "GR Streaming.cpp:L1171-1174";
    Img2SlotNameLen = "img2.slot_name_len", [SA], Corrupt, Error,
        "an IPL or COL base name of 18 characters or more overflows its slot name",
        "GR IplDef.h; ColStore.h:L11";
    Img2OffsetRange = "img2.offset_range", [SA], Wrong, Warning,
        "an offset of 2^21 sectors or more: the byte offset is 32-bit",
        "GR CdStreamInfo.cpp:L181";
    Img2DataOverlap = "img2.data_overlap", [SA], Wrong, Warning,
        "the entry's data overlaps the directory or the previous entry's",
        "no check in the loader";

    // Text IPL.
    Ipl3Sections = "ipl3.sections", [III], Ignored, Note,
        "a section III does not read (inst, zone, cull, pick, path; lowercase)",
        "III FileLoader.cpp:L1502-1507";
    IplvcSections = "iplvc.sections", [VC], Ignored, Note,
        "a section Vice City does not read (inst, zone, cull, pick, path, occl; lowercase)",
        "VC FileLoader.cpp:L1124-1131";
    IplsaSections = "iplsa.sections", [SA], Ignored, Note,
        "a section San Andreas does not read (lowercase prefix of path inst mult zone cull occl grge enex pick cars jump tcyc auzo)",
        "GR FileLoader.cpp:L2139-2166";
    Ipl3MissingEnd = "ipl3.missing_end", [III, VC], Wrong, Warning,
        "a section without end: the next header and its lines are read as the open section",
        "III FileLoader.cpp:L1508-1510";
    IplsaMissingEnd = "iplsa.missing_end", [SA], Crash, Error,
        "inst is not closed by end: the next lines are read as inst with garbage ids",
        "GR FileLoader.cpp:L2064-2075";
    Ipl3InstFields = "ipl3.inst.fields", [III], Ignored, Warning,
        "an inst line that does not scan as III's 12 fields: dropped",
        "III FileLoader.cpp:L1555-1560";
    IplvcInstFields = "iplvc.inst.fields", [VC], Ignored, Warning,
        "an inst line that scans neither as VC's 13 nor 12 fields: dropped",
        "VC FileLoader.cpp:L1189-1199";
    IplsaInstFields = "iplsa.inst.fields", [SA], Crash, Error,
        "an inst line of fewer than 11 fields: the rest are stack garbage",
        "GR FileLoader.cpp:L1092-1110";
    Ipl3InstNameLen = "ipl3.inst.name_len", [III, VC], Corrupt, Error,
        "a model name of 24 characters or more overflows the scan buffer",
        "III FileLoader.cpp:L1549, L1555";
    IplsaInstNameLen = "iplsa.inst.name_len", [SA], Corrupt, Warning,
        "a model name of 24 characters or more (the original sscanf is likely unbounded)",
        "GR FileLoader.cpp:L1093";
    Ipl3InstIdRange = "ipl3.inst.id_range", [III], Crash, Error,
        "a model id outside 0..5499 indexes past the model table",
        "III ModelInfo.h:L43";
    IplvcInstIdRange = "iplvc.inst.id_range", [VC], Crash, Error,
        "a model id outside 0..6499 indexes past the model table",
        "VC config.h MODELINFOSIZE";
    IplsaInstIdRange = "iplsa.inst.id_range", [SA], Crash, Error,
        "a model id outside 0..19999 indexes past the model table",
        "GR ModelInfo.h:L92";
    Ipl3InstScaleIgnored = "ipl3.inst.scale_ignored", [III, VC], Ignored, Note,
        "a scale other than 1: parsed and never applied",
        "III FileLoader.cpp:L1567-1570";
    Ipl3InstQuat = "ipl3.inst.quat", [III, VC], Wrong, Warning,
        "a rotation w outside [-1, 1] or NaN: the rotation becomes NaN",
        "III FileLoader.cpp:L1567";
    Ipl3InstOutsideWorld = "ipl3.inst.outside_world", [III], Corrupt, Error,
        "a position outside x, y in [-2000, 2000): III indexes sectors without clamping",
        "III Entity.cpp:L462-480; World.h:L11-24";
    IplvcInstOutsideWorld = "iplvc.inst.outside_world", [VC], Corrupt, Error,
        "a position outside x in [-2400, 1600), y in [-2000, 2000): VC indexes sectors without clamping",
        "VC Entity.cpp:L500-518; World.h";
    IplsaPosNan = "iplsa.pos.nan", [SA], Crash, Error,
        "a NaN position: the sector clamp lets it through",
        "GR Entity.cpp:L150-165; World.h:L291";
    IplsaPosOffMap = "iplsa.pos.off_map", [SA], Wrong, Warning,
        "a position beyond +-3000: clamped into the edge sectors",
        "GR Entity.cpp:L151-162";
    IplsaLodRange = "iplsa.lod.range", [SA], Crash, Error,
        "a LOD index below -1 or past the file's inst lines: a stale or null entity",
        "GR FileLoader.cpp:L1958-1966; IplStore.h:L64-67";
    IplsaInstCount = "iplsa.inst.count", [SA], Corrupt, Error,
        "more than 4096 inst lines overflow gpLoadedBuildings",
        "GR IplStore.cpp:L434-438";
    IplsaPathStops = "iplsa.path_stops", [SA], Wrong, Warning,
        "a path line: SA stops reading the file after it (GR TODO)",
        "GR FileLoader.cpp:L2135-2136";
    IplsaCars = "iplsa.cars", [SA], Ignored, Note,
        "a car generator of a model neither -1 nor 400..630: dropped",
        "GR FileLoader.cpp:L310-330; TheCarGenerators.cpp";
    IdeIdRange = "ide.id.range", [III, VC, SA], Corrupt, Error,
        "a model id below 0 or past the game's model table (III 5500, VC 6500, SA 20000): its pointer is written outside the table",
        "III config.h:L15, ModelInfo.cpp:L127; VC config.h:L15, ModelInfo.cpp:L124; GR ModelInfo.h:L23, ModelInfo.cpp:L120";
    IdeNameLength = "ide.name.length", [III, VC, SA], Corrupt, Error,
        "a model or texture dictionary name of 24 bytes or more: sscanf's %s overruns the loader's 24-byte buffer on the stack",
        "III FileLoader.cpp:L1091; VC FileLoader.cpp:L709; GR FileLoader.cpp:L925-926";
    Ipl3ZoneFields = "ipl3.zone.fields", [III, VC], Ignored, Note,
        "a zone line of other than 9 fields: dropped",
        "III FileLoader.cpp:L1611";
    IplsaZoneFields = "iplsa.zone.fields", [SA], Wrong, Warning,
        "a zone line of 9 fields: SA reads an uninitialised 10th (textLabel)",
        "GR FileLoader.cpp:L1943-1952";
    Ipl3CullFields = "ipl3.cull.fields", [III], Wrong, Warning,
        "a cull line of fewer than 11 fields: the rest are garbage",
        "III FileLoader.cpp:L1624";
    IplsaCull = "iplsa.cull", [SA], Wrong, Warning,
        "a cull line of neither 11 nor 14 fields",
        "GR FileLoader.cpp:L1114-1160";
    IplvcOcclFields = "iplvc.occl.fields", [VC], Wrong, Warning,
        "an occl line of fewer than 7 fields: the rest are garbage",
        "VC FileLoader.cpp:L1297-1309";
    IplsaEnexFields = "iplsa.enex.fields", [SA], Wrong, Warning,
        "an enex line of fewer than 18 fields: the rest are garbage",
        "GR FileLoader.cpp:L1174-1195";
    IplsaAuzoName = "iplsa.auzo.name", [SA], Corrupt, Warning,
        "an audio-zone name of 8 characters or more (its 8-byte field is left without a NUL)",
        "GR FileLoader.cpp:L266-280";
    IplsaTcyc = "iplsa.tcyc", [SA], Wrong, Warning,
        "a tcyc line of fewer than 8 fields: farClip and extraColor are garbage",
        "GR FileLoader.cpp:L1714-1745";
    IplsaJumpPickGrge = "iplsa.jump/pick/grge", [SA], Ignored, Note,
        "a jump, pick or grge line of other than 16, 4 or 11 fields: dropped",
        "GR LoadStuntJump, LoadPickup, LoadGarage";

    // Binary IPL (SA).
    BnryBounds = "bnry.bounds", [SA], Crash, Error,
        "the records run past the file: SA reads into the rest of the streaming buffer",
        "GR tBinaryIplFile.h GetObjInstances/GetCarGens";
    BnryInstIdRange = "bnry.inst.id_range", [SA], Crash, Error,
        "a model id outside 0..19999 indexes past the model table",
        "GR ModelInfo.h:L92";
    BnryLodNoParent = "bnry.lod.no_parent", [SA], Crash, Error,
        "a LOD index in a binary IPL whose name has no _stream: there is no parent to index",
        "GR IplStore.cpp:L349, L359-361, SetupRelatedIpls L754-793";
    BnryLodRange = "bnry.lod.range", [SA], Crash, Error,
        "a LOD index below -1",
        "GR IplStore.cpp:L361, L232-236";
    BnryCarsModel = "bnry.cars.model", [SA], Ignored, Note,
        "a car generator of a model neither -1 nor 400..630: dropped",
        "GR TheCarGenerators.cpp";
    BnryName = "bnry.name", [SA], Corrupt, Error,
        "a binary IPL entry base name of 18 characters or more overflows IplDef::name",
        "GR IplDef.h";

    // From the San Andreas executable's reading (INU-ez/INU_Check-GTA docs/re/ifp_path.md)
    // and the misses of issue 30.
    Ifp2MixedFrameClasses = "ifp.ifp2.mixed_frame_classes", [SA], Corrupt, Error,
        "float (types 1, 2) and packed (types 3, 4) bones in one animation: SA takes the first bone's class for all and walks the others with the wrong stride",
        "SA exe 0x4D53E4 (first bone decides), CalcTotalTime 0x4CF2F0, Uncompress 0x4D0D40 (INU ifp_path.md §3.6)";
    SeqBoneIdRange = "ifp.seq.bone_id_range", [SA], Wrong, Warning,
        "a bone id outside -1..32767: SA keeps its low 16 bits and compares them signed, so the bone never binds (or binds to another)",
        "SA exe SetBoneTag 0x4D0C70, movsx at 0x4CEDC3 (INU ifp_path.md §1.5, §3.16)";
    AnpkZeroFramesSa = "ifp.anpk.zero_frames", [SA], Crash, Warning,
        "an ANPK bone of no keyframes: its keys stay NULL and SA reads key -1 through it on the animation's first play",
        "SA exe CalcTotalTime 0x4CF2F0 via Uncompress 0x4CF5F0 (INU ifp_path.md §3.1)";
    MagicUnknown = "ifp.magic.unknown", [VC], Crash, Error,
        "Vice City never compares the magic: it reads an ANP3/ANP2 file as ANPK chunks and overflows its stack buffer",
        "VC AnimManager.cpp LoadAnimFile (no magic check), L1287 char buf[256]; SA exe 0x4D47F0 reads any magic but ANP2/ANP3 as ANPK (INU ifp_path.md §1.1)";
    CutsceneBlockName = "ifp.cutscene.block_name", [III, VC, SA], Crash, Error,
        "a cutscene archive's IFP whose block name differs from the entry's: the cutscene loader looks the block up by the cutscene's name, finds none and crashes",
        "SA CCutsceneMgr::LoadCutsceneData_postload then CreateAssociations (INU ifp_path.md §0, §3.10, from GR); III/VC CutsceneMgr.cpp LoadCutsceneData, CreateAssociations";
    ForeignFile = "file.foreign", [III, VC, SA, MTA], Check, Error,
        "the file is of another format or tool (named here): the games do not load it as this kind of file",
        "gtastream's decoder (docs/FORMATS.md §8.1)";
    IplInstShifted = "ipl.inst.shifted_fields", [III, VC, SA], Wrong, Warning,
        "an inst line with a decimal comma and more fields than the game reads: every value after it shifts (the value is what the game loads as the last field it reads: the LOD, or III's w)",
        "III FileLoader.cpp:L1555 sscanf; VC L1189; GR FileLoader.cpp:L1092-1110 (sscanf reads the first fields)";

    // Skeletons (`check --skeleton`): an animation against a model (docs/SKELETON.md).
    SkelTrackUnbound = "skel.track.unbound", [III, VC, SA, MTA], Ignored, Warning,
        "a track binds to no frame of the model: it moves nothing",
        "SA CAnimBlendAssociation::Init 0x4CED50 (ifp_path.md 1.5, 3.16); reVC, re3 AnimBlendAssociation.cpp Init";
    SkelNameNotInTable = "skel.track.name_not_in_table", [VC, SA, MTA], Ignored, Warning,
        "a track without a bone id, on a skinned model, whose name the engine's bone-name table lacks: the DFF's frame names are not used, it moves nothing",
        "SA RpAnimBlendClumpFindFrameFromHashKey 0x4D6370, ConvertBoneTag2BoneName 0x4D56F0 (ifp_path.md 1.5); reVC RpAnimBlend.cpp; MTA CClientIFP.cpp GetBoneIDFromName";
    SkelIdOnUnskinned = "skel.track.id_on_unskinned", [VC, SA, MTA], Ignored, Warning,
        "a track with a bone id on a model without a skin: ids never bind there, it moves nothing",
        "SA RpAnimBlendClumpFindBone 0x4D6400, bone tag -1 on unskinned clumps (ifp_path.md 1.5); reVC RpAnimBlend.cpp FrameInitCallBack";
    SkelDuplicateBone = "skel.track.duplicate_bone", [III, VC, SA, MTA], Wrong, Warning,
        "two tracks bind to one frame of the model: the later one wins",
        "SA CAnimBlendAssociation::Init 0x4CEE07 (ifp_path.md 1.5, 3.17); reVC AnimBlendAssociation.cpp Init";
    SkelTranslationNonRoot = "skel.track.translation_non_root", [III, VC, SA, MTA], Wrong, Note,
        "translation keys on a bone other than the root replace its bind position",
        "SA FrameUpdateCallBackSkinned 0x4D2B90 (ifp_path.md 3.15)";
    SkelTranslationZero = "skel.track.translation_zero", [III, VC, SA, MTA], Wrong, Warning,
        "translation keys of (0, 0, 0) on a bone other than the root: the bone collapses onto its parent",
        "SA FrameUpdateCallBackSkinned 0x4D2B90 (ifp_path.md 3.15)";
    SkelPelvisRootMotion = "skel.track.pelvis_root_motion", [VC, SA, MTA], Wrong, Warning,
        "the pelvis moves across the ground and the root does not: the games take a ped's movement from the root bone only, so the body walks away from the ped",
        "SA RpAnimBlendClumpInitSkinned 0x4D6510, frame flag 8 on the first bone (ped_skin_path.md 1.5); reVC RpAnimBlend.cpp RpAnimBlendClumpInitSkinned";
    SkelUnmovedBones = "skel.model.unmoved_bones", [III, VC, SA], Ignored, Note,
        "bones of the model that no track of the animation moves (they keep their pose)",
        "SA CAnimBlendAssociation::Init 0x4CED50: a node without a sequence is not updated (ifp_path.md 1.5)";

    // Skeletons: the model alone (`check MODEL.dff`).
    SkelNoTable = "skel.dff.no_table", [SA], Crash, Error,
        "the last atomic is skinned but no frame carries an HAnim node table: SA writes through a null hierarchy at load",
        "SA CClumpModelInfo::SetClump 0x4C4F70 (ped_skin_path.md 4, C01)";
    SkelNodeWithoutFrame = "skel.dff.node_without_frame", [VC, SA], Wrong, Warning,
        "a node of the HAnim table whose id no frame of the model carries",
        "RpHAnim node table and frame ids (ped_skin_path.md 1.3, 1.4)";
    SkelFrameIdNotInTable = "skel.dff.frame_id_not_in_table", [VC, SA], Ignored, Note,
        "a frame's HAnim id is not in the node table: no track reaches it",
        "SA RpAnimBlendClumpInitSkinned 0x4D6510 takes the bone tags from the table (ifp_path.md 1.5)";
    SkelDuplicateNodeId = "skel.dff.duplicate_node_id", [VC, SA], Wrong, Warning,
        "two nodes of the table have one id: collision and IK use the first, animations the last",
        "SA RpHAnimIDGetIndex 0x7C51A0, RpAnimBlendClumpFindBone 0x4D6400 (ped_skin_path.md 4, C18)";
    SkelPushPopParent = "skel.dff.push_pop_parent", [VC, SA], Wrong, Warning,
        "the parent a node gets from the table's PUSH/POP flags is not its frame's parent: the bones are posed on other parents than the frames say",
        "SA RpHAnimHierarchyUpdateMatrices 0x7C51D0, SkinGetBonePositionsToTable 0x735360 (ped_skin_path.md 4, C17)";
    SkelPopUnderflow = "skel.dff.pop_underflow", [VC, SA], Corrupt, Error,
        "the node table pops more parents than it pushed: SA reads an uninitialised matrix pointer",
        "SA RpHAnimHierarchyUpdateMatrices 0x7C51D0 (ped_skin_path.md 4, C17)";
    SkelMissingBone = "skel.dff.missing_bone", [SA], Corrupt, Warning,
        "a skinned model lacks a bone tag SA's ped code looks up on every ped: used as a ped, it writes through a bad matrix",
        "SA CreateHitColModelSkinned 0x4C6D90, FillFrameArrayIndicesSkinned 0x4D6450, CPed::PreRenderAfterTest 0x5E6B50 (ped_skin_path.md 3)";
    SkelNameBlanks = "skel.dff.name_blanks", [III, VC, SA], Ignored, Note,
        "a frame name begins or ends with a blank: the games compare frame names as stored, blanks included",
        "SA 0x4D6340 GetUppercaseKey(GetFrameNodeName) (ifp_path.md 1.5); reVC RpAnimBlend.cpp FrameFindByNameCallback";

    // Whole game and mod folders (`check DIR`): the links between files, in load order.
    ModFileMissing = "mod.file.missing", [III, VC, SA], Crash, Error,
        "an IDE or IPL file the level file names is not there: the loader reads it through a file it never checked it opened",
        "III/VC FileLoader.cpp LoadLevel, LoadObjectTypes, LoadScene (CFileMgr::OpenFile, then LoadLine, unchecked); SA exe LoadLine 0x536F80 on an unchecked FILE* (INU GTACHECK_RULES.md, conventions); GR FileLoader.cpp LoadLevel";
    ModArchiveMissing = "mod.archive.missing", [III, VC, SA], Wrong, Warning,
        "an archive or other file the level file names is not there: what it holds is never loaded",
        "III/VC FileLoader.cpp LoadLevel (CDIMAGE, COLFILE, TEXDICTION, MODELFILE, HIERFILE); GR FileLoader.cpp LoadLevel, Streaming.cpp:L143-153 AddImageToList";
    ModImgTooMany = "mod.img.too_many", [SA], Ignored, Warning,
        "more than 5 IMG lines: San Andreas has 8 archive slots, gta3.img, gta_int.img and player.img take three, the rest are ignored",
        "SA exe CStreaming::Init2 0x5B9020, 8 slots at 0x8E48D8 (INU GTACHECK_RULES.md §1); GR Streaming.cpp:L143-153 AddImageToList, FileLoader.cpp:L1379-1383";
    ModCdImageTooMany = "mod.cdimage.too_many", [III, VC], Corrupt, Error,
        "more than 7 CDIMAGE lines: with gta3.img they overflow the 8 image slots",
        "III CdStream.cpp:L480-504 CdStreamAddImage (assert only), config.h MAX_CDIMAGES; VC the same";
    ModImgAfterIpl = "mod.img.after_ipl", [VC, SA], Ignored, Warning,
        "an IMG (CDIMAGE) line after the first IPL line: the directories were read at that IPL line, this archive is never read",
        "GR FileLoader.cpp:L1333-1350 (CStreaming::Init2 at the first IPL line); VC FileLoader.cpp:L95-101 (CStreaming::Init)";
    ModNameShadowed = "mod.name.shadowed", [III, VC, SA], Ignored, Warning,
        "an entry name another archive holds too: only one is streamed (SA: the first archive in load order, gta3.img first; III, VC: the last CDIMAGE)",
        "GR Streaming.cpp:L1188, L1220-1226, L2905-2910; III Streaming.cpp:L391-395, VC L393-397 (directories read from the last image to the first)";
    ModSlotsOverLimit = "mod.slots.over_limit", [III, VC, SA], Crash, Error,
        "more streamed entries of one kind across the archives than the game has slots (SA TXD 5000, COL 254 besides the generic slot, IPL 255, DAT 64, IFP 180, RRR 475, SCM 82; VC TXD 1385, COL 31, IFP 35; III TXD 850)",
        "SA exe CStreaming::Init2 0x5B9020, ms_aInfoForModel 26316 (INU GTACHECK_RULES.md §1); GR constants.h:L7-10, Streaming.cpp:L1161-1165 (every COL record a new slot); III/VC config.h";
    ModStreamLodRange = "mod.stream.lod_range", [SA], Crash, Error,
        "a stream IPL's LOD index past the instances of its parent text IPL (lae_stream0.ipl: lae.ipl): read past the parent's array",
        "GR IplStore.cpp:L361, L232-236, SetupRelatedIpls L754-793";
    ModStreamNoParent = "mod.stream.no_parent", [SA], Crash, Error,
        "a stream IPL with LOD indexes whose parent text IPL (lae_stream0.ipl: lae.ipl) no IPL line loads, or loads without inst lines: the LODs index a null array",
        "GR IplStore.cpp:L349, L359-361, SetupRelatedIpls L754-793";
    ModIdeDuplicateId = "mod.ide.duplicate_id", [III, VC, SA], Wrong, Warning,
        "a model id an IDE loaded earlier defines too: the later definition replaces the earlier one (whose model info stays allocated)",
        "III ModelInfo.cpp AddSimpleModel, AddTimeModel (ms_modelInfoPtrs[id] = the new one); VC the same; GR ModelInfo.cpp AddAtomicModel, SetModelInfo";
    ModIplUndefinedId = "mod.ipl.undefined_id", [SA], Crash, Error,
        "an IPL instance of a model id no IDE loaded before it defines: San Andreas keeps a null building and crashes linking the LODs (a stream IPL: when it streams in)",
        "GR FileLoader.cpp:L2075, L1007-1010 LoadObjectInstance, LinkLods L1956-1968; IplStore.cpp:L353-368, L399";
    ModIplUndefinedIdSkipped = "mod.ipl.undefined_id_skipped", [III, VC], Ignored, Warning,
        "an IPL instance of a model id no IDE loaded before it defines: the object is not placed",
        "III FileLoader.cpp LoadObjectInstance (no model info: nothing created); VC the same";
    ModIdeDefinedAfterUse = "mod.ide.defined_after_use", [III, VC, SA], Wrong, Note,
        "an IDE defines a model id an IPL loaded earlier placed (mod.ipl.undefined_id there): the placement came too early",
        "III/VC, GR FileLoader.cpp LoadLevel (each line loaded in turn: an IPL sees the IDEs before it)";
    ModAnimgrpTooManyNames = "mod.animgrp.too_many_names", [SA], Corrupt, Error,
        "an animgrp.dat group lists more animations than its count: the names are written past the group's array",
        "GR AnimManager.cpp ReadAnimAssociationDefinitions (0x5BC910), AddAnimAssocDefinition (0x4D3BA0: count slots), AddAnimToAssocDefinition (0x4D3C80: the next empty slot, an assert only)";
    ModIdeModelNotStreamed = "mod.ide.model_not_streamed", [SA], Wrong, Warning,
        "a map object (objs, tobj, anim) whose model (.dff) or texture dictionary (.txd) no archive the game reads holds, or whose IDE line comes after the first IPL line (the directories were read without it): it has no place to stream from and is never drawn",
        "GR Streaming.cpp:L1146-1152 (a .dff is matched to its IDE model by name when the directory is read, else it goes to the extra objects), StreamingInfo.h:L59 (no CD position: nothing to load); FileLoader.cpp:L1333-1350 (directories read at the first IPL line)";
    ModIdeAnimBlockMissing = "mod.ide.anim_block_missing", [SA], Wrong, Warning,
        "an IDE anim object whose animation block (its .ifp) neither anim/ped.ifp nor an archive the game reads provides (named at the first object naming it): its animation file index becomes -1, no block streams with it and it stands still",
        "GR FileLoader.cpp LoadAnimatedClumpObject (0x5B40C0), L1357-1362 (ConvertAnimFileIndex after CStreaming::Init2 at the first IPL line); ClumpModelInfo.cpp ConvertAnimFileIndex (0x4C5250), CreateInstance L103-107; AnimManager.cpp GetAnimationBlockIndex (0x4D3990: -1, names in any case); Streaming.cpp:L1176, L353-360 (no block requested for -1)";
    ModAnimgrpBlockMissing = "mod.animgrp.block_missing", [SA], Crash, Warning,
        "an animgrp.dat group whose block neither anim/ped.ifp nor an archive the game reads provides: the group is never created, and a ped that uses it reads its null association array",
        "GR AnimManager.cpp CreateAnimAssocGroups (0x4D3CC0: a group whose block is not found or not loaded is skipped), GetAnimationBlock (0x4D3940); AnimBlendAssocGroup.cpp GetAnimation(AnimationId) (0x4CE090: the array unchecked), CopyAnimation (0x4CE130)";
    ModAnimgrpAnimationMissing = "mod.animgrp.animation_missing", [SA], Crash, Error,
        "an animation an animgrp.dat group lists that its block lacks (names compared by their upper-cased keys, as the game does): when the block loads (ped: at start-up) the group's association is made from a null animation",
        "GR AnimBlendAssocGroup.cpp CreateAssociations (0x4CE6E0, L146-165) from AnimManager.cpp CreateAnimAssocGroups (0x4D3CC0); AnimManager.cpp GetAnimation (0x4D42F0, 0x4D39F0: CKeyGen::GetUppercaseKey of the name against each animation's key); AnimBlendStaticAssociation.cpp:L29-43 Init (reads the null animation's sequences)";
    ModAnimsOverLimit = "mod.anims.over_limit", [III, VC, SA], Corrupt, Error,
        "more animations in anim/ped.ifp and the archives' .ifp blocks together than the game's table holds (III 250, VC 450, SA 2500): a streamed block keeps its range after it unloads, so loading them all writes past the table (SA: into the block table after it)",
        "GR AnimManager.h (ms_aAnimations[2500] at 0xB4EA40, ms_aAnimBlocks at 0xB5D4A0), AnimManager.cpp L591-618 (FirstAnimIdx = ms_numAnimations, kept while NumAnims is set), L833, L921; III config.h NUMANIMATIONS, AnimManager.cpp L829-836; VC AnimManager.cpp L1315 (an assert only)";
    ModAnimBlocksOverLimit = "mod.anim_blocks.over_limit", [VC, SA], Corrupt, Error,
        "more animation blocks than the game's table holds (VC 35, SA 180): ped, each .ifp name of the archives the game reads, and each block name inside a file that matches none; the next block is written past the table",
        "GR AnimManager.h:L20 NUM_ANIM_BLOCKS, AnimManager.cpp Initialise L61 (ped first), RegisterAnimBlock (0x4D3E50) L331-341, L604 (ms_aAnimBlocks[ms_numAnimBlocks++] unchecked), Streaming.cpp:L1176; VC AnimManager.cpp L1057, L1304, Streaming.cpp L456-459";
    ModPeddatUnknownType = "mod.peddat.unknown_type", [III, VC], Corrupt, Error,
        "a ped.dat type line whose first word names no ped type (names compared exactly, case included; a keyword with a colon, `Threat:`, is such a line): FindPedType returns NUM_PEDTYPES and the line's values are written through the pointer past the type table",
        "re3 PedType.cpp:L109-118 (type line), L126-152 FindPedType (0x4EEC10: Error, then NUM_PEDTYPES), PedType.h ePedType; reVC (miami) PedType.cpp the same lines";
    ModPeddatRelationBeforeType = "mod.peddat.relation_before_type", [III, VC], Corrupt, Error,
        "a ped.dat Threat or Avoid line before any type line: the current type is still NUM_PEDTYPES and the flags are written through the pointer past the type table",
        "re3 PedType.cpp:L55 (type = NUM_PEDTYPES), L83-108 (ms_apPedType[type]->m_threats, m_avoid); reVC (miami) PedType.cpp the same lines";
    ModPeddatUnknownTypeMission8 = "mod.peddat.unknown_type_mission8", [SA], Wrong, Warning,
        "a ped.dat type line whose first word names no ped type: San Andreas reads it as MISSION8, so the relation lines after it replace MISSION8's",
        "GR PedType.cpp:L79-81 (pedType = FindPedType), L107-122 FindPedType (0x608790: MISSION8 for an unknown name), Enums/ePedType.h:L120-154 (the names at 0x8D23B8)";
    ModPeddatRelationBeforeTypeMission8 = "mod.peddat.relation_before_type_mission8", [SA], Wrong, Warning,
        "a ped.dat Hate, Dislike, Like or Respect line before any type line: San Andreas starts at MISSION8 and sets its relations",
        "GR PedType.cpp:L42 (pedType = PED_TYPE_MISSION8), L62-77 (0x608B30)";
    ModPeddatUnknownName = "mod.peddat.unknown_name", [III, VC, SA], Wrong, Warning,
        "a name in a ped.dat relation line (Threat, Avoid; SA Hate, Dislike, Like, Respect) that is no ped type or flag the game knows: III and VC add no flag for it, San Andreas reads it as MISSION8",
        "re3 PedType.cpp:L154-184 FindPedFlag (0x4EEF40: 0 for an unknown name); reVC (miami) the same; GR PedType.cpp:L52-58, L107-122 FindPedType (0x608790), L125-133 GetPedFlag (0x608830)";
    ModPeddatLineTooLong = "mod.peddat.line_too_long", [III, VC], Corrupt, Error,
        "a ped.dat line of 256 bytes or more (a CR LF counted as one byte, as the text-mode read gives it): it is copied into a 256-byte stack buffer with no bound, and its final NUL written past it",
        "re3 PedType.cpp:L47 (char line[256]), L64-71 (no bound on linelen); FileMgr.cpp:L93-107 (text mode: CR LF read as LF); reVC (miami) the same lines";
    ModPeddatFileTooBig = "mod.peddat.file_too_big", [III, VC], Corrupt, Error,
        "a ped.dat of 16384 bytes or more (a CR LF counted as one byte): LoadFile keeps reading 16 KiB pieces into the 16 KiB buffer while they fill it, and writes its final NUL past the buffer",
        "re3 PedType.cpp:L56-59 (new char[16 * 1024], LoadFile(..., 16 * 1024, \"r\")), FileMgr.cpp:L243-264 LoadFile (reads while 0x4000 bytes come, assert only, buf[len] = 0); reVC (miami) the same lines";
    ModPeddatWordTooLong = "mod.peddat.word_too_long", [III, VC, SA], Corrupt, Error,
        "a ped.dat word of 32 bytes or more that the game copies with sscanf %s into a 32-byte stack buffer (III, VC: a line's first word and the names of Threat and Avoid lines; SA: the first word)",
        "re3 PedType.cpp:L48 (char word[32]), L81, L86, L99, L110 (sscanf %s); reVC (miami) the same lines; GR PedType.cpp:L48-49 (char buf[32], sscanf %s, 0x608B30)";
}

impl Rule {
    /// Rules kept in the table for their number and id, never reported: the executable's
    /// reading (docs/CHECKS.md, "Changed by the executable") showed them wrong.
    pub const RETIRED: &'static [Rule] = &[Rule::AnpkStructOverrun, Rule::Anp2CompressedTypes];
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids, numbers and names identify a rule; every id is lowercase dotted.
    #[test]
    fn ids_are_unique_and_numbers_lead_back() {
        for (i, &a) in Rule::ALL.iter().enumerate() {
            assert_eq!(Rule::from_code(a.code()), Some(a));
            assert_eq!(Rule::from_id(a.id()), Some(a));
            assert!(a.id().contains('.'), "{}", a.id());
            assert!(!a.games().is_empty());
            for &b in &Rule::ALL[i + 1..] {
                assert_ne!(a.id(), b.id());
            }
        }
        assert_eq!(Rule::from_code(0), None);
    }
}
