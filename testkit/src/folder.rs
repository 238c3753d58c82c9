//! Game and mod folders built in code in a temporary directory, for `check DIR`: the level
//! files, text IPLs, IDEs and IMG archives of a San Andreas, Vice City or GTA III install in
//! the shapes the games ship (upper-case paths written with `\`, files on disk in other
//! cases, as on a Windows install copied to another system).

use std::path::PathBuf;
use std::string::String;
use std::vec::Vec;

use crate::img::Img;
use crate::ipl::{bnry, Inst};

/// A folder under the system's temporary directory, removed when dropped.
pub struct Folder {
    pub root: PathBuf,
}

impl Folder {
    /// An empty folder named after `name` and the process.
    pub fn new(name: &str) -> Folder {
        let root = std::env::temp_dir().join(format!("gtastream-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("temporary folder");
        Folder { root }
    }

    /// Writes `bytes` at `path` (`/`-separated, under the root), making its folders.
    pub fn write(&self, path: &str, bytes: &[u8]) -> &Self {
        let at = self.root.join(path);
        std::fs::create_dir_all(at.parent().expect("a parent")).expect("folders");
        std::fs::write(at, bytes).expect("a file");
        self
    }

    /// The path of `path` under the root.
    pub fn path(&self, path: &str) -> PathBuf {
        self.root.join(path)
    }

    /// Removes `path`.
    pub fn remove(&self, path: &str) -> &Self {
        std::fs::remove_file(self.root.join(path)).expect("remove");
        self
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A text IPL of San Andreas: one `inst` section of `instances` (`(id, name, lod)`).
pub fn sa_text_ipl(instances: &[(i32, &str, i32)]) -> Vec<u8> {
    let mut text = String::from("# built in code\r\ninst\r\n");
    for (i, (id, name, lod)) in instances.iter().enumerate() {
        text.push_str(&format!(
            "{id}, {name}, 0, {}.5, -20.25, 10, 0, 0, 0, 1, {lod}\r\n",
            i as f32 * 10.0
        ));
    }
    text.push_str("end\r\ncull\r\nend\r\n");
    text.into_bytes()
}

/// A San Andreas IDE of one `objs` section defining `ids` (`id, lae_mN, lae_txd, 100, 0`).
pub fn sa_ide(ids: &[i32]) -> Vec<u8> {
    let mut text = String::from("# built in code\r\nobjs\r\n");
    for id in ids {
        text.push_str(&format!("{id}, lae_m{id}, lae_txd, 100, 0\r\n"));
    }
    text.push_str("end\r\n");
    text.into_bytes()
}

/// A binary stream IPL of `lods.len()` instances of model `id`, with these LOD indexes.
pub fn stream_ipl(id: i32, lods: &[i32]) -> Vec<u8> {
    let instances: Vec<Inst> = lods
        .iter()
        .enumerate()
        .map(|(i, &lod)| Inst::binary([i as f32, 2.0, 3.0], [0.0, 0.0, 0.0, 1.0], id, 0, lod))
        .collect();
    bnry(&instances, 76, &[], 0)
}

/// The pieces of a San Andreas folder in the shape the game ships, small: `gta.dat` with
/// `extra` lines before its first IPL line, `gta3.img` with a model, a collision and the
/// stream IPLs of `lae.ipl`, `gta_int.img` with the models and texture dictionary of the IDE
/// (ids 4000 to 4003), and the text IPL `lae.ipl` of 4 instances.
pub fn san_andreas(name: &str, extra: &str) -> Folder {
    let folder = Folder::new(name);
    folder.write(
        "data/default.dat",
        b"# default\r\nIDE DATA\\DEFAULT.IDE\r\n",
    );
    folder.write("data/default.ide", b"objs\r\nend\r\n");
    let gta = format!(
        "# gta.dat\r\n{extra}IDE DATA\\MAPS\\LA\\LAE.IDE\r\nCOLFILE 0 DATA\\MAPS\\GENERIC.COL\r\nIPL DATA\\MAPS\\LA\\LAE.IPL\r\nEXIT\r\nIPL DATA\\MAPS\\NOT_READ.IPL\r\n"
    );
    folder.write("data/gta.dat", gta.as_bytes());
    folder.write("data/maps/la/lae.ide", &sa_ide(&[4000, 4001, 4002, 4003]));
    folder.write("data/maps/generic.col", b"COLL");
    folder.write(
        "data/maps/la/LAe.ipl",
        &sa_text_ipl(&[
            (4000, "lae_road", -1),
            (4001, "lae_roadlod", -1),
            (4002, "x", -1),
            (4003, "y", -1),
        ]),
    );
    let mut img = Img::default();
    img.add("lae_road.dff", &[0x10, 0, 0, 0, 0, 0, 0, 0])
        .add("lae.col", b"COL3")
        .add("lae_stream0.ipl", &stream_ipl(4000, &[0, 3, -1]))
        .add("lae_stream1.ipl", &stream_ipl(4000, &[-1]));
    folder.write("models/gta3.img", &img.v2());
    let mut int = Img::default();
    // The IDE's models and textures (in gta_int.img, which the tests leave as it is).
    int.add("interior.dff", &[0x10, 0, 0, 0])
        .add("lae_txd.txd", &[0x16, 0, 0, 0]);
    for id in 4000..4004 {
        int.add(&format!("lae_m{id}.dff"), &[0x10, 0, 0, 0]);
    }
    folder.write("models/gta_int.img", &int.v2());
    folder
}

/// A Vice City folder in the shape the game ships, small: `gta_vc.dat` with a `CDIMAGE` line
/// before the first IPL line and one after it (never read: the directories were read at the
/// IPL line), version 1 archives (`gta3.img` with the IDE's model and textures, `extra.img`
/// and `late.img` holding `b.dff`), one IDE and one text IPL placing its object.
pub fn vice_city(name: &str) -> Folder {
    let folder = Folder::new(name);
    folder.write("data/default.dat", b"IDE DATA\\DEFAULT.IDE\r\n");
    folder.write("data/default.ide", b"objs\r\nend\r\n");
    folder.write(
        "data/gta_vc.dat",
        b"CDIMAGE MODELS\\EXTRA.IMG\r\nIDE DATA\\MAPS\\A.IDE\r\nIPL DATA\\MAPS\\A.IPL\r\nCDIMAGE MODELS\\LATE.IMG\r\n",
    );
    folder.write(
        "data/maps/a.ide",
        b"objs\r\n100, a, a, 1, 100, 0\r\nend\r\n",
    );
    folder.write(
        "data/maps/a.ipl",
        b"inst\r\n100, a, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\r\nend\r\n",
    );
    let (dir, img) = Img::default()
        .add("a.dff", b"x")
        .add("a.txd", b"t")
        .clone()
        .v1();
    folder
        .write("models/gta3.dir", &dir)
        .write("models/gta3.img", &img);
    let (dir, img) = Img::default().add("b.dff", b"x").clone().v1();
    folder
        .write("models/extra.dir", &dir)
        .write("models/extra.img", &img);
    folder
        .write("models/late.dir", &dir)
        .write("models/late.img", &img);
    folder
}

/// A GTA III folder in the shape the game ships, small: `gta3.dat` with a `CDIMAGE` line after
/// the IPL line (III reads the directories after the level file: it is read), version 1
/// archives `gta3.img` and `late.img` both holding `a.dff`, one IDE and one text IPL.
pub fn gta3(name: &str) -> Folder {
    let folder = Folder::new(name);
    folder.write(
        "data/gta3.dat",
        b"IDE DATA\\MAPS\\A.IDE\r\nIPL DATA\\MAPS\\A.IPL\r\nCDIMAGE MODELS\\LATE.IMG\r\n",
    );
    folder.write(
        "data/maps/a.ide",
        b"objs\r\n100, a, a, 1, 100, 0\r\nend\r\n",
    );
    folder.write(
        "data/maps/a.ipl",
        b"inst\r\n100, a, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\r\nend\r\n",
    );
    let (dir, img) = Img::default().add("a.dff", b"x").clone().v1();
    folder
        .write("models/gta3.dir", &dir)
        .write("models/gta3.img", &img);
    folder
        .write("models/late.dir", &dir)
        .write("models/late.img", &img);
    folder
}

/// A folder's files held in memory, reached as [`gtastream::check::walk::ModFiles`]: the
/// way a host with its own file system (the C API's callbacks, a browser's dropped folder)
/// serves the walk. Paths match in any case with either slash; opening and reading never
/// allocate.
pub struct MemFiles {
    files: Vec<(Vec<u8>, Vec<u8>)>,
    /// Most bytes one read gives (a host whose reads come short).
    most: usize,
}

impl MemFiles {
    /// Every file under `folder`'s root, read now.
    pub fn read(folder: &Folder) -> MemFiles {
        fn walk(root: &std::path::Path, at: &std::path::Path, files: &mut Vec<(Vec<u8>, Vec<u8>)>) {
            for entry in std::fs::read_dir(at).expect("a folder").flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(root, &path, files);
                } else {
                    let name = path.strip_prefix(root).expect("under the root");
                    let name = name.to_string_lossy().replace('\\', "/").into_bytes();
                    files.push((name, std::fs::read(&path).expect("a file")));
                }
            }
        }
        let mut files = Vec::new();
        walk(&folder.root, &folder.root, &mut files);
        MemFiles {
            files,
            most: usize::MAX,
        }
    }

    /// The same files, each read giving at most `most` bytes (at least 1).
    pub fn with_reads_of(self, most: usize) -> MemFiles {
        MemFiles {
            most: most.max(1),
            ..self
        }
    }
}

/// Whether `wanted` (as a level file writes it) names `stored`: any case, either slash, a
/// leading `./` or `\` aside.
fn names(wanted: &[u8], stored: &[u8]) -> bool {
    let slash = |b: u8| {
        if b == b'\\' {
            b'/'
        } else {
            b.to_ascii_lowercase()
        }
    };
    let mut wanted = wanted;
    while let [b'.', b'/' | b'\\', rest @ ..] | [b'/' | b'\\', rest @ ..] = wanted {
        wanted = rest;
    }
    wanted.len() == stored.len()
        && wanted
            .iter()
            .zip(stored)
            .all(|(&a, &b)| slash(a) == slash(b))
}

impl MemFiles {
    /// The number of the file a level file names `path` (any case, either slash).
    pub fn find(&self, path: &[u8]) -> Option<usize> {
        self.files.iter().position(|(name, _)| names(path, name))
    }

    /// File `number`'s path (as stored, `/`-separated) and bytes.
    pub fn file(&self, number: usize) -> (&[u8], &[u8]) {
        let (name, bytes) = &self.files[number];
        (name, bytes)
    }
}

impl gtastream::check::walk::ModFiles for MemFiles {
    type File = usize;
    type Error = core::convert::Infallible;

    fn open(&mut self, path: &[u8]) -> Option<usize> {
        self.find(path)
    }

    fn len(&mut self, file: &mut usize) -> Result<u64, Self::Error> {
        Ok(self.files[*file].1.len() as u64)
    }

    fn read_at(
        &mut self,
        file: &mut usize,
        offset: u64,
        buf: &mut [u8],
    ) -> Result<usize, Self::Error> {
        let bytes = &self.files[*file].1;
        let from = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        let len = buf.len().min(bytes.len() - from).min(self.most);
        buf[..len].copy_from_slice(&bytes[from..len + from]);
        Ok(len)
    }
}

/// Where one file of a folder ends in [`MemFiles::to_bytes`]: each file is its path, a
/// newline, its bytes.
pub const FILE_MARK: &[u8] = b"\xffFILE";

impl MemFiles {
    /// Files from `(path, bytes)` pairs.
    pub fn new(files: Vec<(Vec<u8>, Vec<u8>)>) -> MemFiles {
        MemFiles {
            files,
            most: usize::MAX,
        }
    }

    /// The files as one input of the `walk` fuzz target: each `FILE_MARK`, path, `\n`, bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (path, bytes) in &self.files {
            out.extend_from_slice(FILE_MARK);
            out.extend_from_slice(path);
            out.push(b'\n');
            out.extend_from_slice(bytes);
        }
        out
    }

    /// The files of an input written by [`to_bytes`](Self::to_bytes) (any bytes: what is not
    /// a file is left out).
    pub fn from_bytes(input: &[u8]) -> MemFiles {
        let mut files = Vec::new();
        let mut rest = input;
        while let Some(at) = find(rest, FILE_MARK) {
            rest = &rest[at + FILE_MARK.len()..];
            let end = find(rest, FILE_MARK).unwrap_or(rest.len());
            let piece = &rest[..end];
            if let Some(newline) = piece.iter().position(|&b| b == b'\n') {
                files.push((piece[..newline].to_vec(), piece[newline + 1..].to_vec()));
            }
            rest = &rest[end..];
        }
        MemFiles::new(files)
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The `walk` fuzz target's check (replayed by the test suite): a folder from any bytes
/// ([`MemFiles::from_bytes`] after a first byte choosing the game and the host's read size)
/// is walked without a panic, to the same events however short the host's reads, every
/// finding naming files already numbered, the summary counting what was told.
pub fn check_walk(input: &[u8]) {
    use gtastream::check::mods::{model_ids, IdSlot, NameSlot};
    use gtastream::check::walk::{find_game, walk, WalkEvent};
    use gtastream::Game;

    let Some((&choice, rest)) = input.split_first() else {
        return;
    };
    let run = |most: usize| {
        let mut files = MemFiles::from_bytes(rest).with_reads_of(most);
        let game = match choice % 4 {
            0 => match find_game(&mut files) {
                Ok(game) => game,
                Err(_) => return None,
            },
            1 => Game::Iii,
            2 => Game::ViceCity,
            _ => Game::SanAndreas,
        };
        // A small name table: a full one is a note, and the walk goes on.
        let mut names = vec![NameSlot::EMPTY; 256];
        let mut ids = vec![IdSlot::EMPTY; model_ids(game)];
        let mut told = Vec::new();
        let (mut numbered, mut errors) = (0u32, 0u32);
        let summary = walk(&mut files, game, &mut names, &mut ids, |event| {
            match event {
                WalkEvent::File { file, .. } => {
                    assert_eq!(file, numbered, "files numbered in order");
                    numbered += 1;
                }
                WalkEvent::Finding(f) => {
                    assert!(f.file < numbered, "a finding names a file not yet numbered");
                    assert!(f.other.is_none_or(|o| o < numbered));
                    errors += u32::from(f.finding.level() == gtastream::check::Level::Error);
                }
                WalkEvent::Reading { file, .. } | WalkEvent::Unreadable { file, .. } => {
                    assert!(file < numbered);
                }
                _ => {}
            }
            told.push(format!("{event:?}"));
        });
        if let Ok(summary) = summary {
            assert_eq!(summary.files, numbered);
            assert_eq!(summary.errors, errors);
        }
        Some((told, summary))
    };
    let whole = run(usize::MAX);
    let most = 1 + usize::from(choice >> 2) % 61;
    assert_eq!(run(most), whole, "events differ in reads of {most} bytes");
}

/// Seeds of the `walk` fuzz target: folders of each game's shape (with findings of several
/// rules, and clean), each for the game its level file shows and in reads of a few bytes.
pub fn walk_inputs() -> Vec<(String, Vec<u8>)> {
    let ifp = |name: &str, animations: &[&str]| {
        let animations = animations
            .iter()
            .map(|a| {
                crate::ifp2::AnimSpec::new(a, vec![crate::ifp2::BoneSpec::packed("root", &[0, 4])])
            })
            .collect();
        crate::ifp2::FileSpec::anp3(name, animations).build()
    };
    let stock = san_andreas("walk-seed-stock", "");
    let findings = san_andreas(
        "walk-seed-findings",
        "IDE DATA\\MAPS\\TWICE.IDE\r\nIMG MODELS\\MISSING.IMG\r\nIPL DATA\\MAPS\\EARLY.IPL\r\n",
    );
    findings.write("data/maps/twice.ide", &sa_ide(&[4000, 4100]));
    findings.write("data/maps/early.ipl", &sa_text_ipl(&[(4200, "nowhere", 5)]));
    findings.write("anim/ped.ifp", &ifp("ped", &["walk", "run"]));
    findings.write(
        "data/animgrp.dat",
        b"player, ped, man, 2\r\nwalk\r\nsprint\r\nrun\r\nend\r\n",
    );
    findings.write(
        "data/ped.dat",
        b"Hate COP\r\nPLAYER1\r\nHate: GANG1 NOBODY\r\n",
    );
    let iii = Folder::new("walk-seed-iii");
    iii.write(
        "data/gta3.dat",
        b"IDE DATA\\A.IDE\r\nCDIMAGE MODELS\\X.IMG\r\nIPL DATA\\A.IPL\r\n",
    );
    iii.write("data/a.ide", b"objs\r\n100, a, a, 1, 100, 0\r\nend\r\n");
    iii.write(
        "data/ped.dat",
        b"PLAYER1 1.0 1.0 1.0 1.0 1.0\r\nThreat COP GUN\r\nAvoid\r\nThreat: COP\r\n",
    );
    iii.write("data/a.ipl", b"inst\r\n100, a, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\r\n101, b, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\r\nend\r\n");
    let mut img = Img::default();
    img.add("a.dff", &[0x10, 0, 0, 0]);
    let (dir, data) = img.v1();
    iii.write("models/x.img", &data);
    iii.write("models/x.dir", &dir);
    let mut out = Vec::new();
    for (name, folder) in [("stock", &stock), ("findings", &findings), ("iii", &iii)] {
        let bytes = MemFiles::read(folder).to_bytes();
        // The game from the folder (reads of 1 and of 5 bytes), and named (SA, III).
        for (tag, choice) in [("found", 0u8), ("reads5", 16), ("sa", 3), ("iii", 1)] {
            let mut input = vec![choice];
            input.extend_from_slice(&bytes);
            out.push((format!("walk-{name}-{tag}"), input));
        }
    }
    out
}
