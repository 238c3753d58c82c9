//! The games' level files: `default.dat` and `gta3.dat` (GTA III), `gta_vc.dat` (Vice City),
//! `gta.dat` (San Andreas), read line by line as the games read them, and the data
//! files `animgrp.dat` ([`AnimGroups`]) and `ped.dat` ([`PedDat`]) (docs/FORMATS.md §13).
//!
//! Each line is kept as stored; [`read_line`] says what the game makes of it: its keyword
//! (`IDE`, `IPL`, `IMG`, `CDIMAGE`, `COLFILE`, ...) and the path after it. [`Lines`] cuts a
//! file fed in chunks of any size into lines, in fixed memory (a line longer than
//! [`MAX_DAT_LINE`] bytes is cut and marked, as the games' fixed buffers cut it). Neither
//! allocates.
//!
//! ```
//! use gtastream::level::{read_line, Keyword, Lines};
//!
//! let mut lines = Lines::new();
//! let mut seen = Vec::new();
//! for chunk in b"# maps\r\nIDE DATA\\MAPS\\LA\\LAN.IDE\r\nCOLFILE 0 MODELS\\COLL\\WEAPONS.COL\r\nEXIT".chunks(5) {
//!     lines.feed(chunk, |line| seen.push((line.number, read_line(line.stored).keyword)));
//! }
//! lines.finish(|line| seen.push((line.number, read_line(line.stored).keyword)));
//! assert_eq!(
//!     seen,
//!     [(1, Keyword::Comment), (2, Keyword::Ide), (3, Keyword::ColFile), (4, Keyword::Exit)]
//! );
//! assert_eq!(read_line(b"COLFILE 0 MODELS\\COLL\\WEAPONS.COL").path, b"MODELS\\COLL\\WEAPONS.COL");
//! ```

/// Bytes of a line [`Lines`] keeps (San Andreas reads 512 into `CFileLoader::ms_line`; III and
/// VC 256).
pub const MAX_DAT_LINE: usize = 512;

/// What a level file's line asks the game to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Keyword {
    /// `IMG path`: an archive (San Andreas).
    Img,
    /// `CDIMAGE path`: an archive (GTA III, Vice City).
    CdImage,
    /// `IDE path`: object definitions.
    Ide,
    /// `IPL path`: placements (the first one also reads the archives' directories in VC, SA).
    Ipl,
    /// `COLFILE level path`: a collision file.
    ColFile,
    /// `TEXDICTION path`: a texture dictionary loaded whole.
    TexDiction,
    /// `MODELFILE path`: a model loaded whole.
    ModelFile,
    /// `HIERFILE path`: a clump loaded whole.
    HierFile,
    /// `SPLASH name`: a loading screen.
    Splash,
    /// `IMAGEPATH path`: where RenderWare looks for images.
    ImagePath,
    /// `EXIT`: the game stops reading the file here.
    Exit,
    /// A line starting with `#` (after blanks).
    Comment,
    /// Nothing but blanks.
    Blank,
    /// A line no game acts on (kept, ignored).
    Other,
}

impl Keyword {
    /// The keyword as the games spell it (`""` for comments, blank and other lines).
    pub const fn text(self) -> &'static str {
        match self {
            Keyword::Img => "IMG",
            Keyword::CdImage => "CDIMAGE",
            Keyword::Ide => "IDE",
            Keyword::Ipl => "IPL",
            Keyword::ColFile => "COLFILE",
            Keyword::TexDiction => "TEXDICTION",
            Keyword::ModelFile => "MODELFILE",
            Keyword::HierFile => "HIERFILE",
            Keyword::Splash => "SPLASH",
            Keyword::ImagePath => "IMAGEPATH",
            Keyword::Exit => "EXIT",
            Keyword::Comment | Keyword::Blank | Keyword::Other => "",
        }
    }

    /// Whether the argument names a file the game opens.
    pub const fn names_file(self) -> bool {
        matches!(
            self,
            Keyword::Img
                | Keyword::CdImage
                | Keyword::Ide
                | Keyword::Ipl
                | Keyword::ColFile
                | Keyword::TexDiction
                | Keyword::ModelFile
                | Keyword::HierFile
        )
    }
}

/// The keywords in the order the games test them (`strncmp` on the prefix: `IMAGEPATH` before
/// `IMG`, so that `IMAGEPATH` is never read as an archive).
const KEYWORDS: [Keyword; 11] = [
    Keyword::Exit,
    Keyword::ImagePath,
    Keyword::TexDiction,
    Keyword::ColFile,
    Keyword::ModelFile,
    Keyword::HierFile,
    Keyword::Ide,
    Keyword::Ipl,
    Keyword::Splash,
    Keyword::CdImage,
    Keyword::Img,
];

/// One line of a level file as the game reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DatLine<'a> {
    /// What the line asks for.
    pub keyword: Keyword,
    /// The line as stored (without its line break).
    pub stored: &'a [u8],
    /// The argument: for `COLFILE` the path after the level number, else everything after the
    /// keyword; blanks (and commas, which the games read as blanks) around it dropped. Empty
    /// for comments, blank and other lines.
    pub path: &'a [u8],
    /// `COLFILE`: the level number (the digit after the keyword).
    pub level: Option<u8>,
}

/// A byte the games' `LoadLine` turns into a blank: control characters and commas.
fn blank(b: u8) -> bool {
    b <= b' ' || b == b','
}

fn trim(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if !blank(*first) {
            break;
        }
        s = rest;
    }
    while let [rest @ .., last] = s {
        if !blank(*last) {
            break;
        }
        s = rest;
    }
    s
}

/// What the game makes of one stored line (without its line break): the games blank control
/// characters and commas, skip leading blanks, skip `#` lines and compare the keywords as
/// prefixes, case-sensitively (III, VC `FileLoader.cpp` `LoadLevel`, `LoadLine`; GR
/// `FileLoader.cpp` `LoadLevel`).
pub fn read_line(stored: &[u8]) -> DatLine<'_> {
    let text = trim(stored);
    let mut line = DatLine {
        keyword: Keyword::Other,
        stored,
        path: &[],
        level: None,
    };
    if text.is_empty() {
        line.keyword = Keyword::Blank;
        return line;
    }
    if text[0] == b'#' {
        line.keyword = Keyword::Comment;
        return line;
    }
    let Some(keyword) = KEYWORDS
        .into_iter()
        .find(|k| text.starts_with(k.text().as_bytes()))
    else {
        return line;
    };
    line.keyword = keyword;
    let mut rest = trim(&text[keyword.text().len()..]);
    if keyword == Keyword::ColFile {
        // `COLFILE 0 path`: the level, then the path.
        if let Some((&digit, after)) = rest.split_first() {
            if digit.is_ascii_digit() {
                line.level = Some(digit - b'0');
                rest = trim(after);
            }
        }
    }
    if keyword != Keyword::Exit {
        line.path = rest;
    }
    line
}

/// A line [`Lines`] cut from its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// From 1.
    pub number: u32,
    /// Absolute offset of its first byte.
    pub offset: u64,
    /// The bytes kept (at most [`MAX_DAT_LINE`]), without the line break.
    pub stored: &'a [u8],
    /// The line was longer than [`MAX_DAT_LINE`] bytes: the rest is not in `stored`.
    pub cut: bool,
}

/// Cuts text fed in chunks of any size into lines (`\n`, `\r\n` and a lone `\r` end a line,
/// as the games' `fgets` in text mode and their blanking of `\r` read them), in fixed memory.
#[derive(Clone, Debug)]
pub struct Lines {
    buffer: [u8; MAX_DAT_LINE],
    len: usize,
    cut: bool,
    number: u32,
    offset: u64,
    line_start: u64,
    /// The previous chunk ended with `\r`: a `\n` first in this one belongs to it.
    after_cr: bool,
}

impl Default for Lines {
    fn default() -> Self {
        Lines::new()
    }
}

impl Lines {
    /// A reader at the start of a file.
    pub const fn new() -> Self {
        Lines {
            buffer: [0; MAX_DAT_LINE],
            len: 0,
            cut: false,
            number: 0,
            offset: 0,
            line_start: 0,
            after_cr: false,
        }
    }

    /// Reads `chunk`, handing each line it completes to `each`.
    pub fn feed(&mut self, chunk: &[u8], mut each: impl FnMut(Line<'_>)) {
        for &b in chunk {
            let at = self.offset;
            self.offset += 1;
            if core::mem::take(&mut self.after_cr) && b == b'\n' {
                self.line_start = self.offset;
                continue;
            }
            match b {
                b'\n' | b'\r' => {
                    self.after_cr = b == b'\r';
                    self.emit(&mut each);
                    self.line_start = self.offset;
                }
                _ => {
                    if self.len == 0 && !self.cut {
                        self.line_start = at;
                    }
                    if self.len < MAX_DAT_LINE {
                        self.buffer[self.len] = b;
                        self.len += 1;
                    } else {
                        self.cut = true;
                    }
                }
            }
        }
    }

    /// The end of the input: a last line without a line break is handed to `each`.
    pub fn finish(&mut self, mut each: impl FnMut(Line<'_>)) {
        if self.len > 0 || self.cut {
            self.emit(&mut each);
        }
    }

    fn emit(&mut self, each: &mut impl FnMut(Line<'_>)) {
        self.number += 1;
        each(Line {
            number: self.number,
            offset: self.line_start,
            stored: &self.buffer[..self.len],
            cut: self.cut,
        });
        self.len = 0;
        self.cut = false;
    }
}

/// The level files a game reads, in order, from the game's folder (`data/default.dat` first).
pub const fn level_files(game: crate::Game) -> [&'static str; 2] {
    match game {
        crate::Game::Iii => ["data/default.dat", "data/gta3.dat"],
        crate::Game::ViceCity => ["data/default.dat", "data/gta_vc.dat"],
        crate::Game::SanAndreas => ["data/default.dat", "data/gta.dat"],
    }
}

/// The archives a game opens before any level file's: San Andreas `models/gta3.img` and
/// `models/gta_int.img` (GR `Streaming.cpp:L2905-2910`), GTA III and Vice City
/// `models/gta3.img` (III `Game.cpp:L506`).
pub const fn implicit_archives(game: crate::Game) -> &'static [&'static str] {
    match game {
        crate::Game::SanAndreas => &["models/gta3.img", "models/gta_int.img"],
        _ => &["models/gta3.img"],
    }
}

/// The name the game knows a file by: the part after the last `\` or `/`.
pub fn file_name(path: &[u8]) -> &[u8] {
    match path.iter().rposition(|&b| b == b'\\' || b == b'/') {
        Some(i) => &path[i + 1..],
        None => path,
    }
}

/// The parent text IPL's name of a stream IPL (`lae_stream0.ipl` → `lae`): the name before
/// `_stream` (any case), as `CIplStore::SetupRelatedIpls` matches it (GR `IplStore.cpp:L754-793`).
pub fn stream_parent(name: &[u8]) -> Option<&[u8]> {
    const STREAM: &[u8] = b"_stream";
    let name = file_name(name);
    (0..name.len().saturating_sub(STREAM.len() - 1))
        .find(|&i| name[i..i + STREAM.len()].eq_ignore_ascii_case(STREAM))
        .map(|i| &name[..i])
}

/// `name` without its extension (the part from the first `.`).
pub fn stem(name: &[u8]) -> &[u8] {
    let name = file_name(name);
    match name.iter().position(|&b| b == b'.') {
        Some(i) => &name[..i],
        None => name,
    }
}

/// San Andreas' key of a name: `CKeyGen::GetUppercaseKey`, the CRC-32 (reflected, polynomial
/// 0xEDB88320) of the upper-cased bytes, started at all ones and not inverted at the end
/// ("JAMCRC").
pub fn uppercase_key(name: &[u8]) -> u32 {
    let mut crc = u32::MAX;
    for &b in name {
        crc ^= u32::from(b.to_ascii_uppercase());
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    crc
}

/// What a line of San Andreas' `data/animgrp.dat` says (see [`AnimGroups`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnimGroupLine<'a> {
    /// `group block type count`: a group of `count` animations from the block (`.ifp`) named.
    Group {
        /// The group's name.
        name: &'a [u8],
        /// The animation block it takes its animations from.
        block: &'a [u8],
        /// The model type (`man`, `bike`, ...).
        kind: &'a [u8],
        /// The animations the group declares (`None`: the field is no number).
        count: Option<u32>,
    },
    /// An animation of the open group, its place in it (from 0), and the group's count.
    Animation {
        /// The animation's name.
        name: &'a [u8],
        /// Its place in the group (from 0).
        index: u32,
        /// The group's declared count: an index at or past it is written past the group's
        /// names (San Andreas asserts only).
        count: Option<u32>,
    },
    /// `end`: the group is closed.
    End,
    /// A comment, a blank line, or a header line of fewer than 4 fields (skipped).
    Other,
}

/// Reads San Andreas' `data/animgrp.dat` line by line as `CAnimManager::
/// ReadAnimAssociationDefinitions` does (GR `AnimManager.cpp`, 0x5BC910): outside a group a
/// line is `group block type count`; inside one, each line's first word is an animation name,
/// until `end`. Lines come from [`Lines`] (blanks and commas are separators, `#` lines and
/// empty lines are skipped). No allocation.
#[derive(Clone, Debug, Default)]
pub struct AnimGroups {
    open: bool,
    index: u32,
    count: Option<u32>,
}

impl AnimGroups {
    /// A reader at the file's start.
    pub const fn new() -> Self {
        AnimGroups {
            open: false,
            index: 0,
            count: None,
        }
    }

    /// What one stored line says.
    pub fn line<'a>(&mut self, stored: &'a [u8]) -> AnimGroupLine<'a> {
        let text = trim(stored);
        if text.is_empty() || text[0] == b'#' {
            return AnimGroupLine::Other;
        }
        let mut words = text.split(|&b| blank(b)).filter(|w| !w.is_empty());
        if self.open {
            let Some(name) = words.next() else {
                return AnimGroupLine::Other;
            };
            if name == b"end" {
                self.open = false;
                return AnimGroupLine::End;
            }
            self.index += 1;
            return AnimGroupLine::Animation {
                name,
                index: self.index - 1,
                count: self.count,
            };
        }
        let (Some(name), Some(block), Some(kind), Some(count)) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return AnimGroupLine::Other;
        };
        let count = core::str::from_utf8(count)
            .ok()
            .and_then(|c| c.parse().ok());
        self.open = true;
        self.index = 0;
        self.count = count;
        AnimGroupLine::Group {
            name,
            block,
            kind,
            count,
        }
    }
}

/// The ped type names `data/ped.dat` type lines select, in the game's order (the index is
/// the game's `ePedType`; `None`: a slot no name selects). GTA III and Vice City share one list
/// (re3 and reVC `PedType.h` `ePedType`, `PedType.cpp` `FindPedType` L126-152, the same in
/// both branches); San Andreas' is the table at 0x8D23B8 (GR `Enums/ePedType.h` L6-45,
/// L120-154).
const PED_TYPES_III_VC: [Option<&str>; 23] = [
    Some("PLAYER1"),
    Some("PLAYER2"),
    Some("PLAYER3"),
    Some("PLAYER4"),
    Some("CIVMALE"),
    Some("CIVFEMALE"),
    Some("COP"),
    Some("GANG1"),
    Some("GANG2"),
    Some("GANG3"),
    Some("GANG4"),
    Some("GANG5"),
    Some("GANG6"),
    Some("GANG7"),
    Some("GANG8"),
    Some("GANG9"),
    Some("EMERGENCY"),
    Some("FIREMAN"),
    Some("CRIMINAL"),
    None,
    Some("PROSTITUTE"),
    Some("SPECIAL"),
    None,
];

const PED_TYPES_SA: [Option<&str>; 32] = [
    Some("PLAYER1"),
    Some("PLAYER2"),
    Some("PLAYER_NETWORK"),
    Some("PLAYER_UNUSED"),
    Some("CIVMALE"),
    Some("CIVFEMALE"),
    Some("COP"),
    Some("GANG1"),
    Some("GANG2"),
    Some("GANG3"),
    Some("GANG4"),
    Some("GANG5"),
    Some("GANG6"),
    Some("GANG7"),
    Some("GANG8"),
    Some("GANG9"),
    Some("GANG10"),
    Some("DEALER"),
    Some("MEDIC"),
    Some("FIREMAN"),
    Some("CRIMINAL"),
    Some("BUM"),
    Some("PROSTITUTE"),
    Some("SPECIAL"),
    Some("MISSION1"),
    Some("MISSION2"),
    Some("MISSION3"),
    Some("MISSION4"),
    Some("MISSION5"),
    Some("MISSION6"),
    Some("MISSION7"),
    Some("MISSION8"),
];

/// The flag names GTA III and Vice City's `FindPedFlag` knows, with their bits (re3 and reVC
/// `PedType.h` `PED_FLAG_*`, `PedType.cpp` L154-184). San Andreas has no list of its own: a
/// name's flag is its type's bit.
const PED_FLAGS_III_VC: [(&str, u32); 26] = [
    ("PLAYER1", 1 << 0),
    ("PLAYER2", 1 << 1),
    ("PLAYER3", 1 << 2),
    ("PLAYER4", 1 << 3),
    ("CIVMALE", 1 << 4),
    ("CIVFEMALE", 1 << 5),
    ("COP", 1 << 6),
    ("GANG1", 1 << 7),
    ("GANG2", 1 << 8),
    ("GANG3", 1 << 9),
    ("GANG4", 1 << 10),
    ("GANG5", 1 << 11),
    ("GANG6", 1 << 12),
    ("GANG7", 1 << 13),
    ("GANG8", 1 << 14),
    ("GANG9", 1 << 15),
    ("EMERGENCY", 1 << 16),
    ("PROSTITUTE", 1 << 17),
    ("CRIMINAL", 1 << 18),
    ("SPECIAL", 1 << 19),
    ("GUN", 1 << 20),
    ("COP_CAR", 1 << 21),
    ("FAST_CAR", 1 << 22),
    ("EXPLOSION", 1 << 23),
    ("FIREMAN", 1 << 24),
    ("DEADPEDS", 1 << 25),
];

/// The ped types of `game`'s table (III, VC 23, SA 32): a type line of an unknown name selects
/// index [`ped_type_count`] in III and VC (past the table), the last one (`MISSION8`) in SA.
pub const fn ped_type_count(game: crate::Game) -> u8 {
    match game {
        crate::Game::SanAndreas => PED_TYPES_SA.len() as u8,
        _ => PED_TYPES_III_VC.len() as u8,
    }
}

/// The index of the ped type `name` (exactly, case-sensitively, as the games' `strcmp`) in
/// `game`'s table; `None`: no type of that name.
pub fn ped_type(game: crate::Game, name: &[u8]) -> Option<u8> {
    let names: &[Option<&str>] = match game {
        crate::Game::SanAndreas => &PED_TYPES_SA,
        _ => &PED_TYPES_III_VC,
    };
    names
        .iter()
        .position(|n| n.is_some_and(|n| n.as_bytes() == name))
        .map(|i| i as u8)
}

/// The flag a name in a relation line adds (III, VC `FindPedFlag`; SA its type's bit,
/// `GetPedFlag(FindPedType(name))`); `None`: no type or flag of that name (III, VC add
/// nothing; SA reads the name as `MISSION8`).
pub fn ped_flag(game: crate::Game, name: &[u8]) -> Option<u32> {
    match game {
        crate::Game::SanAndreas => ped_type(game, name).map(|i| 1u32 << i),
        _ => PED_FLAGS_III_VC
            .iter()
            .find(|(n, _)| n.as_bytes() == name)
            .map(|&(_, flag)| flag),
    }
}

/// Which relation a `data/ped.dat` line sets for the current type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PedRelation {
    /// `Threat` (III, VC).
    Threat,
    /// `Avoid` (III, VC).
    Avoid,
    /// `Hate` (SA).
    Hate,
    /// `Dislike` (SA).
    Dislike,
    /// `Like` (SA).
    Like,
    /// `Respect` (SA).
    Respect,
}

impl PedRelation {
    /// The keyword as the games spell it.
    pub const fn text(self) -> &'static str {
        match self {
            PedRelation::Threat => "Threat",
            PedRelation::Avoid => "Avoid",
            PedRelation::Hate => "Hate",
            PedRelation::Dislike => "Dislike",
            PedRelation::Like => "Like",
            PedRelation::Respect => "Respect",
        }
    }

    /// The relation a line's first word selects: III and VC compare the whole word
    /// (`strcmp`, re3 `PedType.cpp` L83, L96); San Andreas its first 4 or 7 bytes, in the
    /// order Hate, Dislike, Like, Respect (GR `PedType.cpp` L62-76, 0x608B30), so that
    /// `Hate:` is a `Hate` line there.
    fn of(game: crate::Game, word: &[u8]) -> Option<PedRelation> {
        match game {
            crate::Game::SanAndreas => [
                PedRelation::Hate,
                PedRelation::Dislike,
                PedRelation::Like,
                PedRelation::Respect,
            ]
            .into_iter()
            .find(|r| word.starts_with(r.text().as_bytes())),
            _ => [PedRelation::Threat, PedRelation::Avoid]
                .into_iter()
                .find(|r| word == r.text().as_bytes()),
        }
    }
}

/// The words of a line (between blanks and commas), without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let start = self.rest.iter().position(|&b| !blank(b))?;
        let rest = &self.rest[start..];
        let end = rest.iter().position(|&b| blank(b)).unwrap_or(rest.len());
        self.rest = &rest[end..];
        Some(&rest[..end])
    }
}

/// What a line of `data/ped.dat` says (see [`PedDat`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum PedDatLine<'a> {
    /// A type line (`NAME f1 f2 f3 f4 f5` in III and VC, `NAME` in SA): the type the relation
    /// lines after it set.
    Type {
        /// The first word.
        name: &'a [u8],
        /// Its index in the game's table (`None`: no type of that name).
        index: Option<u8>,
        /// The index the game writes: `index`, or for an unknown name [`ped_type_count`] in
        /// III and VC (past the table), `MISSION8` in SA.
        target: u8,
        /// III, VC: the five numbers after the name as `sscanf` `%f` reads them (the first
        /// that is no number ends them); SA reads none.
        values: [Option<f32>; 5],
    },
    /// A relation line: its keyword and the type names after it.
    Relation {
        /// Which relation.
        relation: PedRelation,
        /// The first word as stored (San Andreas matches a prefix of it).
        keyword: &'a [u8],
        /// The names after the keyword.
        names: Words<'a>,
        /// The index the game writes (see `Type`'s `target`): before any type line, past
        /// the table in III and VC, `MISSION8` in SA.
        target: u8,
        /// A type line came before it.
        after_type: bool,
    },
    /// A comment or a blank line (skipped).
    Other,
}

/// Reads `data/ped.dat` line by line as the games do: GTA III and Vice City's
/// `CPedType::LoadPedData` (re3, reVC `PedType.cpp` L43-124: the file loaded into 16 KiB,
/// lines cut at `\n` into 256 bytes, `\r`, `,` and tab blanked, `#` lines skipped; `Threat`
/// and `Avoid` lines, any other line a type line), San Andreas' (GR `PedType.cpp` L40-84,
/// 0x608B30: lines from `CFileLoader::LoadLine`, `Hate`, `Dislike`, `Like`, `Respect` lines,
/// any other line a type line). Lines come from [`Lines`]. The file is opened in text mode, so
/// [`text_bytes`](Self::text_bytes) counts a `\r\n` as one byte, as the game's buffer holds
/// it. No allocation.
#[derive(Clone, Debug)]
pub struct PedDat {
    game: crate::Game,
    target: u8,
    after_type: bool,
    /// `\r\n` line breaks before the current line.
    crlf: u64,
    /// The previous line's offset and stored length (`None`: cut, its length unknown).
    previous: Option<(u64, Option<usize>)>,
    text_end: u64,
}

impl PedDat {
    /// A reader at the start of `game`'s file.
    pub const fn new(game: crate::Game) -> Self {
        let target = match game {
            // SA starts at MISSION8 (GR PedType.cpp L42); III and VC at NUM_PEDTYPES (L55).
            crate::Game::SanAndreas => ped_type_count(game) - 1,
            _ => ped_type_count(game),
        };
        PedDat {
            game,
            target,
            after_type: false,
            crlf: 0,
            previous: None,
            text_end: 0,
        }
    }

    /// The bytes of the file up to the end of the last line read (without its line break),
    /// as the game's text-mode read counts them (`\r\n` one byte; a cut line's length taken
    /// from where the next one starts, so a `\r\n` after it counts two).
    pub const fn text_bytes(&self) -> u64 {
        self.text_end
    }

    /// What one line says.
    pub fn line<'a>(&mut self, line: &Line<'a>) -> PedDatLine<'a> {
        if let Some((offset, Some(len))) = self.previous {
            if line.offset == offset + len as u64 + 2 {
                self.crlf += 1;
            }
        }
        self.previous = Some((line.offset, (!line.cut).then_some(line.stored.len())));
        self.text_end = line.offset - self.crlf + line.stored.len() as u64;
        let text = trim(line.stored);
        if text.is_empty() || text[0] == b'#' {
            return PedDatLine::Other;
        }
        let mut words = Words { rest: text };
        let Some(first) = words.next() else {
            return PedDatLine::Other;
        };
        if let Some(relation) = PedRelation::of(self.game, first) {
            return PedDatLine::Relation {
                relation,
                keyword: first,
                names: words,
                target: self.target,
                after_type: self.after_type,
            };
        }
        let index = ped_type(self.game, first);
        self.target = match (index, self.game) {
            (Some(i), _) => i,
            (None, crate::Game::SanAndreas) => ped_type_count(self.game) - 1,
            (None, _) => ped_type_count(self.game),
        };
        self.after_type = true;
        let mut values = [None; 5];
        if self.game != crate::Game::SanAndreas {
            let mut scanner = crate::format::text::Scanner::new(words.rest);
            for value in &mut values {
                *value = scanner.float();
                if value.is_none() {
                    break;
                }
            }
        }
        PedDatLine::Type {
            name: first,
            index,
            target: self.target,
            values,
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec;
    use std::vec::Vec;

    #[test]
    fn keywords_and_paths() {
        let l = read_line(b"\tIMG DATA\\PAINT.IMG ");
        assert_eq!((l.keyword, l.path), (Keyword::Img, &b"DATA\\PAINT.IMG"[..]));
        let l = read_line(b"IMAGEPATH TXD");
        assert_eq!(l.keyword, Keyword::ImagePath);
        let l = read_line(b"COLFILE 2 MODELS\\COLL\\GENERIC.COL");
        assert_eq!(l.level, Some(2));
        assert_eq!(l.path, b"MODELS\\COLL\\GENERIC.COL");
        assert_eq!(read_line(b"  # IDE x").keyword, Keyword::Comment);
        assert_eq!(read_line(b"ide x").keyword, Keyword::Other);
        assert_eq!(read_line(b"\r").keyword, Keyword::Blank);
        assert_eq!(read_line(b"EXIT").path, b"");
        assert_eq!(
            read_line(b"IPL,DATA\\MAPS\\A.IPL,").path,
            b"DATA\\MAPS\\A.IPL"
        );
    }

    #[test]
    fn lines_in_any_chunking() {
        let text = b"a\r\nbb\rc\n\nlast";
        let mut whole = Vec::new();
        for size in 1..text.len() + 1 {
            let mut lines = Lines::new();
            let mut got = Vec::new();
            for chunk in text.chunks(size) {
                lines.feed(chunk, |l| got.push((l.number, l.offset, l.stored.to_vec())));
            }
            lines.finish(|l| got.push((l.number, l.offset, l.stored.to_vec())));
            if whole.is_empty() {
                whole = got.clone();
            }
            assert_eq!(got, whole, "chunks of {size}");
        }
        assert_eq!(
            whole,
            [
                (1, 0, b"a".to_vec()),
                (2, 3, b"bb".to_vec()),
                (3, 6, b"c".to_vec()),
                (4, 8, b"".to_vec()),
                (5, 9, b"last".to_vec()),
            ]
        );
    }

    #[test]
    fn long_lines_are_cut() {
        let mut text = vec![b'x'; MAX_DAT_LINE + 10];
        text.extend_from_slice(b"\nIDE a");
        let mut lines = Lines::new();
        let mut got = Vec::new();
        lines.feed(&text, |l| got.push((l.stored.len(), l.cut)));
        lines.finish(|l| got.push((l.stored.len(), l.cut)));
        assert_eq!(got, [(MAX_DAT_LINE, true), (5, false)]);
    }

    #[test]
    fn anim_groups() {
        let text = b"# groups\r\ndefault, ped, man, 2\r\nwalk_civi\r\n\r\nrun_civi ignored\r\nend\r\nshort line\r\nbike, bikes, bike, x\r\nbk_x\r\nend";
        let mut groups = AnimGroups::new();
        let mut got = Vec::new();
        let mut lines = Lines::new();
        let mut each = |l: Line<'_>| got.push(std::format!("{:?}", groups.line(l.stored)));
        for chunk in text.chunks(3) {
            lines.feed(chunk, &mut each);
        }
        lines.finish(&mut each);
        let expected = [
            "Other",
            "Group { name: [100, 101, 102, 97, 117, 108, 116], block: [112, 101, 100], kind: [109, 97, 110], count: Some(2) }",
            "Animation { name: [119, 97, 108, 107, 95, 99, 105, 118, 105], index: 0, count: Some(2) }",
            "Other",
            "Animation { name: [114, 117, 110, 95, 99, 105, 118, 105], index: 1, count: Some(2) }",
            "End",
            "Other",
            "Group { name: [98, 105, 107, 101], block: [98, 105, 107, 101, 115], kind: [98, 105, 107, 101], count: None }",
            "Animation { name: [98, 107, 95, 120], index: 0, count: None }",
            "End",
        ];
        assert_eq!(got, expected);
    }

    fn ped_dat_lines(game: crate::Game, text: &[u8]) -> (Vec<std::string::String>, u64) {
        let mut ped = PedDat::new(game);
        let mut got = Vec::new();
        let mut lines = Lines::new();
        let mut each = |l: Line<'_>| {
            got.push(match ped.line(&l) {
                PedDatLine::Type {
                    name,
                    index,
                    target,
                    values,
                } => std::format!(
                    "type {} {index:?} {target} {values:?}",
                    std::str::from_utf8(name).unwrap()
                ),
                PedDatLine::Relation {
                    relation,
                    names,
                    target,
                    after_type,
                    ..
                } => {
                    let flags: Vec<_> = names.map(|n| ped_flag(game, n)).collect();
                    std::format!("{} {flags:?} {target} {after_type}", relation.text())
                }
                PedDatLine::Other => "other".into(),
            })
        };
        for chunk in text.chunks(3) {
            lines.feed(chunk, &mut each);
        }
        lines.finish(&mut each);
        (got, ped.text_bytes())
    }

    #[test]
    fn ped_dat_iii_and_vc() {
        let text = b"# types\r\nThreat COP\r\nPLAYER1\t1.0, 2.5 1e1 x 4\r\n\r\nThreat COP GUN nobody\r\nAvoid\r\nThreat: COP\r\nthreat COP\r\nCOP 1 2 3 4 5";
        for game in [crate::Game::Iii, crate::Game::ViceCity] {
            let (got, bytes) = ped_dat_lines(game, text);
            assert_eq!(
                got,
                [
                    "other",
                    "Threat [Some(64)] 23 false",
                    "type PLAYER1 Some(0) 0 [Some(1.0), Some(2.5), Some(10.0), None, None]",
                    "other",
                    "Threat [Some(64), Some(1048576), None] 0 true",
                    "Avoid [] 0 true",
                    // A colon makes another word: a type line of no known type.
                    "type Threat: None 23 [None, None, None, None, None]",
                    "type threat None 23 [None, None, None, None, None]",
                    "type COP Some(6) 6 [Some(1.0), Some(2.0), Some(3.0), Some(4.0), Some(5.0)]",
                ]
            );
            // Text mode: each CR LF is one byte.
            assert_eq!(bytes, text.len() as u64 - 8);
        }
    }

    #[test]
    fn ped_dat_san_andreas() {
        let text = b"Hate PLAYER1\nPLAYER1 1.0\nHate: GANG10 MISSION8 GUN\nDislikes COP\nLike\nRespect BUM\nNOBODY\nLike COP";
        let (got, bytes) = ped_dat_lines(crate::Game::SanAndreas, text);
        assert_eq!(
            got,
            [
                "Hate [Some(1)] 31 false",
                "type PLAYER1 Some(0) 0 [None, None, None, None, None]",
                "Hate [Some(65536), Some(2147483648), None] 0 true",
                "Dislike [Some(64)] 0 true",
                "Like [] 0 true",
                "Respect [Some(2097152)] 0 true",
                "type NOBODY None 31 [None, None, None, None, None]",
                "Like [Some(64)] 31 true",
            ]
        );
        assert_eq!(bytes, text.len() as u64);
        // A cut line's length is where the next one starts (with its line break: a CR LF
        // after it counts two bytes); a lone CR one.
        let mut text = vec![b'#'; MAX_DAT_LINE + 88];
        text.extend(b"\r\nCOP\rPLAYER1");
        let (got, bytes) = ped_dat_lines(crate::Game::Iii, &text);
        assert_eq!(got.len(), 3);
        assert_eq!(bytes, MAX_DAT_LINE as u64 + 88 + 2 + 3 + 1 + 7);
        assert_eq!(ped_type(crate::Game::Iii, b"GANG10"), None);
        assert_eq!(ped_flag(crate::Game::ViceCity, b"DEADPEDS"), Some(1 << 25));
        assert_eq!(ped_flag(crate::Game::SanAndreas, b"DEADPEDS"), None);
    }

    #[test]
    fn names() {
        assert_eq!(stream_parent(b"LAe_STREAM0.ipl"), Some(&b"LAe"[..]));
        assert_eq!(stream_parent(b"lae.ipl"), None);
        assert_eq!(stem(b"DATA\\MAPS\\LA\\LAE.IPL"), b"LAE");
        // CRC-32 of "123456789" is 0xCBF43926; JAMCRC is its complement.
        assert_eq!(uppercase_key(b"123456789"), !0xCBF4_3926);
        assert_eq!(uppercase_key(b"abc"), uppercase_key(b"ABC"));
    }
}
