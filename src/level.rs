//! The games' level files: `default.dat` and `gta3.dat` (GTA III), `gta_vc.dat` (Vice City),
//! `gta.dat` (San Andreas), read line by line as the games read them (docs/FORMATS.md §13).
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
