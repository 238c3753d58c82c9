//! Writing IMG archives (issue 25): the writer's bytes pinned field by field
//! (docs/FORMATS.md §5.4), its refusals, and the editing operations on disk over every real
//! shape of archive (junk after the directory, data out of directory order, an empty archive,
//! an entry whose size runs past the data), each entry's bytes kept, refusals changing nothing.
#![cfg(feature = "std")]

use std::fs;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use gtastream::archive::edit::{self, ArchivePaths, EditError, NewEntry, Step};
use gtastream::archive::{
    ArchiveDecoder, ArchiveVersion, ArchiveVisitor, ArchiveWriteErrorKind, ArchiveWriter, Choice,
    Entry, SplitSink,
};
use gtastream::encode::{Sink, SinkError};
use gtastream::Visitor;
use testkit::img::{name, Img, Record};

const SECTOR: usize = 2048;

fn le16(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

fn le32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// A version 2 archive of `entries`, each written in pieces of `piece` bytes.
fn write_v2(entries: &[(&[u8], &[u8])], capacity: u32, piece: usize) -> Vec<u8> {
    let mut img = Vec::new();
    let mut writer = ArchiveWriter::new(ArchiveVersion::V2, capacity);
    for (entry, data) in entries {
        writer.begin_entry(&mut img, entry).unwrap();
        for chunk in data.chunks(piece.max(1)) {
            writer.write(&mut img, chunk).unwrap();
        }
        writer.end_entry(&mut img).unwrap();
    }
    writer.finish(&mut img).unwrap();
    img
}

/// Every entry of an archive as (name, bytes), through the archive decoder.
fn entries(img: &[u8], dir: Option<&[u8]>) -> Vec<(Vec<u8>, Vec<u8>)> {
    #[derive(Default)]
    struct List(Vec<(Vec<u8>, u64, u64)>);
    impl Visitor for List {}
    impl ArchiveVisitor for List {
        fn entry(&mut self, entry: &Entry<'_>) -> Choice {
            self.0.push((entry.name.to_vec(), entry.offset, entry.size));
            Choice::Skip
        }
    }
    let mut list = List::default();
    match dir {
        Some(dir) => ArchiveDecoder::version1(dir.len() as u64, img.len() as u64)
            .decode_slices(dir, img, &mut list)
            .unwrap(),
        None => ArchiveDecoder::new(img.len() as u64)
            .decode_slice(img, &mut list)
            .unwrap(),
    }
    list.0
        .into_iter()
        .map(|(name, offset, size)| {
            let bytes = img[offset as usize..(offset + size) as usize].to_vec();
            (name, bytes)
        })
        .collect()
}

fn padded(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out.resize(bytes.len().div_ceil(SECTOR) * SECTOR, 0);
    out
}

#[test]
fn version2_fields_are_pinned() {
    let a = vec![0xAB; 3000];
    let img = write_v2(&[(b"walk.ifp", &a), (b"x.ipl", b"inst\nend\n")], 2, 4096);
    // Header: magic and count; the directory of 2 records fits sector 0.
    assert_eq!(&img[..4], b"VER2");
    assert_eq!(le32(&img, 4), 2);
    // Record 0: sector 1, 2 sectors, second size 0, the name NUL-padded.
    assert_eq!(le32(&img, 8), 1);
    assert_eq!(le16(&img, 12), 2);
    assert_eq!(le16(&img, 14), 0);
    assert_eq!(&img[16..40], &name("walk.ifp"));
    // Record 1: sector 3, 1 sector.
    assert_eq!(le32(&img, 40), 3);
    assert_eq!(le16(&img, 44), 1);
    assert_eq!(le16(&img, 46), 0);
    assert_eq!(&img[48..72], &name("x.ipl"));
    // The rest of the directory sector, the padding after each entry: zeros.
    assert!(img[72..SECTOR].iter().all(|&b| b == 0));
    assert_eq!(&img[SECTOR..SECTOR + 3000], &a[..]);
    assert!(img[SECTOR + 3000..3 * SECTOR].iter().all(|&b| b == 0));
    assert_eq!(&img[3 * SECTOR..3 * SECTOR + 9], b"inst\nend\n");
    assert_eq!(img.len(), 4 * SECTOR);
}

#[test]
fn version2_directory_room_and_count() {
    // Room for 64 records: 8 + 64 × 32 = 2056 bytes, two sectors; 1 entry written.
    let img = write_v2(&[(b"a.txt", b"x")], 64, 1);
    assert_eq!(le32(&img, 4), 1);
    assert_eq!(le32(&img, 8), 2);
    assert_eq!(img.len(), 3 * SECTOR);
    assert_eq!(
        ArchiveWriter::data_start(ArchiveVersion::V2, 64),
        2 * SECTOR as u64
    );
    // An empty archive: the header in one sector.
    let empty = write_v2(&[], 0, 1);
    assert_eq!(empty.len(), SECTOR);
    assert_eq!(&empty[..8], b"VER2\0\0\0\0");
}

#[test]
fn version1_pair_is_pinned() {
    let mut sink = SplitSink {
        img: Vec::new(),
        dir: Vec::new(),
    };
    let mut writer = ArchiveWriter::new(ArchiveVersion::V1, 0);
    for (entry, data) in [(&b"ped.ifp"[..], &[7u8; 2049][..]), (b"b.dff", b"")] {
        writer.begin_entry(&mut sink, entry).unwrap();
        writer.write(&mut sink, data).unwrap();
        writer.end_entry(&mut sink).unwrap();
    }
    let written = writer.finish(&mut sink).unwrap();
    assert_eq!((written.entries, written.dir_len), (2, 64));
    let (img, dir) = (sink.img, sink.dir);
    assert_eq!(dir.len(), 64);
    assert_eq!((le32(&dir, 0), le32(&dir, 4)), (0, 2));
    assert_eq!(&dir[8..32], &name("ped.ifp"));
    // An empty entry takes no sector.
    assert_eq!((le32(&dir, 32), le32(&dir, 36)), (2, 0));
    assert_eq!(&dir[40..64], &name("b.dff"));
    assert_eq!(img.len(), 2 * SECTOR);
    assert_eq!(&img[..2049], &[7u8; 2049][..]);
    assert!(img[2049..].iter().all(|&b| b == 0));
}

#[test]
fn any_cut_of_the_data_writes_the_same_bytes() {
    let a: Vec<u8> = (0..5000u32).map(|i| (i * 7) as u8).collect();
    let b: Vec<u8> = (0..2048u32).map(|i| (i * 3) as u8).collect();
    let whole = write_v2(&[(b"a.ifp", &a), (b"b.ipl", &b)], 2, usize::MAX);
    for piece in [1, 2, 7, 2047, 2048, 2049] {
        assert_eq!(write_v2(&[(b"a.ifp", &a), (b"b.ipl", &b)], 2, piece), whole);
    }
    assert_eq!(
        entries(&whole, None),
        vec![(b"a.ifp".to_vec(), padded(&a)), (b"b.ipl".to_vec(), b)]
    );
}

#[test]
fn names_the_games_cannot_read_are_refused() {
    use ArchiveWriteErrorKind::*;
    let cases: [(&[u8], Option<ArchiveWriteErrorKind>); 11] = [
        (b"a.b", None),
        (b"abcdefghijklmnopqrst.ab", None), // 23 bytes, the dot at index 20
        (b"", Some(EmptyName)),
        (b"abcdefghijklmnopqrst.abc", Some(NameTooLong)), // 24 bytes
        (b"noextension", Some(InvalidName)),
        (b"abcdefghijklmnopqrstu.a", Some(InvalidName)), // the dot at index 21
        (b"trailing.", Some(InvalidName)),
        (b"tab\t.ifp", Some(InvalidName)),
        (b"nul\0.ifp", Some(InvalidName)),
        (b"dir/a.ifp", Some(InvalidName)),
        (b"dir\\a.ifp", Some(InvalidName)),
    ];
    for (entry, kind) in cases {
        let mut img = Vec::new();
        let mut writer = ArchiveWriter::new(ArchiveVersion::V2, 1);
        let result = writer.begin_entry(&mut img, entry);
        assert_eq!(result.map_err(|e| e.kind).err(), kind, "{entry:?}");
        if kind.is_some() {
            // The error sticks, naming the entry.
            let error = writer.begin_entry(&mut img, b"ok.txt").unwrap_err();
            assert_eq!(Some(error.kind), kind);
            assert_eq!(error.name(), entry);
            assert_eq!(error.index, 0);
        }
    }
}

/// Counts bytes and keeps none: an archive larger than memory.
#[derive(Default)]
struct Discard(u64);

impl Sink for Discard {
    fn write(&mut self, bytes: &[u8]) -> Result<(), SinkError> {
        self.0 += bytes.len() as u64;
        Ok(())
    }
    fn patch(&mut self, offset: u64, bytes: &[u8]) -> Result<(), SinkError> {
        if offset + bytes.len() as u64 > self.0 {
            return Err(SinkError);
        }
        Ok(())
    }
}

#[test]
fn a_version2_entry_holds_at_most_65535_sectors() {
    let chunk = vec![0u8; 1 << 20];
    let mut sink = Discard::default();
    let mut writer = ArchiveWriter::new(ArchiveVersion::V2, 1);
    writer.begin_entry(&mut sink, b"big.dff").unwrap();
    // 127 MiB + 1022 KiB = 65535 sectors exactly: accepted.
    for _ in 0..127 {
        writer.write(&mut sink, &chunk).unwrap();
    }
    writer.write(&mut sink, &chunk[..1022 * 1024]).unwrap();
    let error = writer.write(&mut sink, b"!").unwrap_err();
    assert_eq!(error.kind, ArchiveWriteErrorKind::EntryTooLarge);
    assert_eq!(error.name(), b"big.dff");
    // Sticky.
    assert_eq!(writer.end_entry(&mut sink).unwrap_err(), error);
    // Version 1 has a 32-bit size: the same entry and a byte more are fine.
    let mut sink = SplitSink {
        img: Discard::default(),
        dir: Discard::default(),
    };
    let mut writer = ArchiveWriter::new(ArchiveVersion::V1, 0);
    writer.begin_entry(&mut sink, b"big.dff").unwrap();
    for _ in 0..128 {
        writer.write(&mut sink, &chunk).unwrap();
    }
    writer.end_entry(&mut sink).unwrap();
}

/// Bytes the caller appends itself (a copy between files) count as written: the record
/// holds them, the sector limit applies before they are appended.
#[test]
fn bytes_appended_outside_the_writer_are_counted() {
    let data = [7u8; 3000];
    let mut img = Vec::new();
    let mut writer = ArchiveWriter::new(ArchiveVersion::V2, 1);
    writer.begin_entry(&mut img, b"a.dff").unwrap();
    writer.write(&mut img, &data[..1000]).unwrap();
    writer.write_outside(2000).unwrap();
    img.extend_from_slice(&data[1000..]);
    writer.end_entry(&mut img).unwrap();
    writer.finish(&mut img).unwrap();
    assert_eq!(img, write_v2(&[(b"a.dff", &data)], 1, 1000));
    // Record: offset 1 sector, size 2 sectors.
    assert_eq!((le32(&img, 8), le16(&img, 12)), (1, 2));

    let mut sink = Discard::default();
    let mut writer = ArchiveWriter::new(ArchiveVersion::V2, 1);
    writer.begin_entry(&mut sink, b"big.dff").unwrap();
    writer.write_outside(65535 * SECTOR as u64).unwrap();
    let error = writer.write_outside(1).unwrap_err();
    assert_eq!(error.kind, ArchiveWriteErrorKind::EntryTooLarge);
    assert_eq!(error.name(), b"big.dff");
    // Outside an entry: out of order.
    let mut writer = ArchiveWriter::new(ArchiveVersion::V2, 1);
    let error = writer.write_outside(1).unwrap_err();
    assert_eq!(error.kind, ArchiveWriteErrorKind::InvalidState);
}

#[test]
fn calls_out_of_order_and_a_full_directory_are_errors() {
    let mut img = Vec::new();
    let mut writer = ArchiveWriter::new(ArchiveVersion::V2, 1);
    assert_eq!(
        writer.write(&mut img, b"x").unwrap_err().kind,
        ArchiveWriteErrorKind::InvalidState
    );
    let mut writer = ArchiveWriter::new(ArchiveVersion::V2, 1);
    writer.begin_entry(&mut img, b"a.txt").unwrap();
    assert_eq!(
        writer.finish(&mut img).unwrap_err().kind,
        ArchiveWriteErrorKind::InvalidState
    );
    let mut img = Vec::new();
    let mut writer = ArchiveWriter::new(ArchiveVersion::V2, 1);
    writer.begin_entry(&mut img, b"a.txt").unwrap();
    writer.end_entry(&mut img).unwrap();
    let full = writer.begin_entry(&mut img, b"b.txt").unwrap_err();
    assert_eq!(
        (full.kind, full.index, full.name()),
        (ArchiveWriteErrorKind::TooManyEntries, 1, &b"b.txt"[..])
    );
    let mut img = Vec::new();
    let mut writer = ArchiveWriter::new(ArchiveVersion::V2, 0);
    writer.finish(&mut img).unwrap();
    assert_eq!(
        writer.finish(&mut img).unwrap_err().kind,
        ArchiveWriteErrorKind::InvalidState
    );
    // Version 1 needs its .dir.
    let mut writer = ArchiveWriter::new(ArchiveVersion::V1, 0);
    assert_eq!(
        writer
            .begin_entry(&mut Vec::new(), b"a.txt")
            .unwrap_err()
            .kind,
        ArchiveWriteErrorKind::Sink
    );
}

// ---- editing archives on disk ----

/// A folder of its own under target/, emptied.
fn folder(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("archive_write")
        .join(test);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn file(dir: &Path, name: &str, bytes: &[u8]) -> NewEntry {
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap();
    NewEntry::from_path(path)
}

fn no_progress() -> impl FnMut(Step<'_>) -> ControlFlow<()> {
    |_| ControlFlow::Continue(())
}

/// The entries of the archive on disk.
fn on_disk(paths: &ArchivePaths) -> Vec<(Vec<u8>, Vec<u8>)> {
    let img = fs::read(&paths.img).unwrap();
    let dir = paths.dir.as_ref().map(|d| fs::read(d).unwrap());
    entries(&img, dir.as_deref())
}

/// The real shapes of FORMATS.md §5: junk between the directory and the data, data out of
/// directory order, an entry whose size runs past the end of the file.
fn odd_archive() -> Img {
    let mut img = Img::default();
    let a = vec![0xA1; 2048];
    let b = b"inst\n1, x, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n".to_vec();
    img.add_at("late.ifp", 6, &a);
    img.add_at("early.ipl", 3, &b);
    // Junk in sector 1, between the directory and the first data.
    img.data[SECTOR..SECTOR + 5].copy_from_slice(b"JUNK!");
    // The last entry declares 4 sectors; the file ends 100 bytes into its first.
    let start = img.data.len().div_ceil(SECTOR);
    img.data.resize(start * SECTOR + 100, 0x5C);
    img.records.push(Record {
        offset: start as u32,
        size: 4,
        size2: 0,
        name: name("cut.dff"),
    });
    img
}

fn write_v2_file(dir: &Path, img: &Img) -> ArchivePaths {
    let path = dir.join("test.img");
    fs::write(&path, img.v2()).unwrap();
    ArchivePaths {
        img: path,
        dir: None,
    }
}

fn write_v1_files(dir: &Path, img: &Img) -> ArchivePaths {
    let (d, data) = img.v1();
    let paths = ArchivePaths {
        img: dir.join("test.img"),
        dir: Some(dir.join("test.dir")),
    };
    fs::write(&paths.img, data).unwrap();
    fs::write(paths.dir.as_ref().unwrap(), d).unwrap();
    paths
}

/// Each entry's bytes as a copy reads them back: padded to whole sectors.
fn as_rewritten(list: Vec<(Vec<u8>, Vec<u8>)>) -> Vec<(Vec<u8>, Vec<u8>)> {
    list.into_iter().map(|(n, b)| (n, padded(&b))).collect()
}

#[test]
fn add_replace_remove_rebuild_keep_every_other_entry() {
    for v1 in [false, true] {
        let dir = folder(if v1 { "edit_v1" } else { "edit_v2" });
        let shape = odd_archive();
        let paths = if v1 {
            write_v1_files(&dir, &shape)
        } else {
            write_v2_file(&dir, &shape)
        };
        let before = as_rewritten(on_disk(&paths));
        assert_eq!(before.len(), 3);

        // Rebuild: the same entries in the same order, packed.
        let report = edit::rebuild(&paths, &mut no_progress()).unwrap();
        assert_eq!((report.entries, report.kept), (3, 3));
        assert_eq!(on_disk(&paths), before);

        // Add: a new name is appended, a name in another case replaced in its place.
        let new = file(&dir, "new.txt", b"hello");
        let replacement = file(&dir, "EARLY.IPL", b"inst\nend\n");
        let report = edit::add(&paths, &[new, replacement], &mut no_progress()).unwrap();
        assert_eq!((report.added, report.replaced, report.kept), (1, 1, 2));
        let mut expected = before.clone();
        expected[1] = (b"EARLY.IPL".to_vec(), padded(b"inst\nend\n"));
        expected.push((b"new.txt".to_vec(), padded(b"hello")));
        assert_eq!(on_disk(&paths), expected);

        // Remove, by a name in any case.
        let report = edit::remove(&paths, &[b"LATE.ifp"], &mut no_progress()).unwrap();
        assert_eq!((report.removed, report.kept), (1, 3));
        expected.remove(0);
        assert_eq!(on_disk(&paths), expected);
        // No temporary file is left.
        let mut left: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("test."))
            .collect();
        left.sort();
        let files = if v1 {
            vec!["test.dir", "test.img"]
        } else {
            vec!["test.img"]
        };
        assert_eq!(left, files);
    }
}

#[test]
fn an_empty_archive_takes_entries_and_gives_them_back() {
    let dir = folder("empty");
    let paths = write_v2_file(&dir, &Img::default());
    assert_eq!(fs::read(&paths.img).unwrap().len(), 8);
    let one = file(&dir, "one.ifp", &[1; 10]);
    edit::add(&paths, &[one], &mut no_progress()).unwrap();
    assert_eq!(
        on_disk(&paths),
        vec![(b"one.ifp".to_vec(), padded(&[1; 10]))]
    );
    edit::remove(&paths, &[b"one.ifp"], &mut no_progress()).unwrap();
    assert_eq!(on_disk(&paths), vec![]);
    assert_eq!(fs::read(&paths.img).unwrap().len(), SECTOR);
}

#[test]
fn refusals_leave_the_archive_as_it_was() {
    let dir = folder("refusals");
    let paths = write_v2_file(&dir, &odd_archive());
    let bytes = fs::read(&paths.img).unwrap();
    let bad = file(&dir, "abcdefghijklmnopqrstuvwxyz.ifp", b"x");
    let twice = [file(&dir, "a.txt", b"1"), file(&dir, "A.TXT", b"2")];
    let cases: Vec<(&str, Result<_, EditError>)> = vec![
        ("long name", edit::add(&paths, &[bad], &mut no_progress())),
        ("duplicate", edit::add(&paths, &twice, &mut no_progress())),
        (
            "missing",
            edit::remove(&paths, &[b"nope.dff"], &mut no_progress()),
        ),
        (
            "exists",
            edit::create(&paths, &[file(&dir, "b.txt", b"")], &mut no_progress()),
        ),
    ];
    for (what, result) in cases {
        let error = result.unwrap_err();
        match (what, &error) {
            ("long name", EditError::Write(e)) => {
                assert_eq!(e.kind, ArchiveWriteErrorKind::NameTooLong);
                assert_eq!(e.name(), b"abcdefghijklmnopqrstuvwxyz.ifp");
            }
            ("duplicate", EditError::Write(e)) => {
                assert_eq!((e.kind, e.index), (ArchiveWriteErrorKind::DuplicateName, 1));
            }
            ("missing", EditError::NoSuchEntry(name)) => assert_eq!(name, "nope.dff"),
            ("exists", EditError::Io(e)) => {
                assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists)
            }
            _ => panic!("{what}: {error}"),
        }
        assert_eq!(fs::read(&paths.img).unwrap(), bytes, "{what}");
    }
    assert!(!dir.join("test.img.gtastream-new").exists());
}

#[test]
fn create_makes_both_versions() {
    let dir = folder("create");
    let files = [
        file(&dir, "a.ifp", &[9; 4097]),
        file(&dir, "b.ipl", b"end\n"),
    ];
    for v1 in [false, true] {
        let paths = ArchivePaths {
            img: dir.join(format!("new{v1}.img")),
            dir: v1.then(|| dir.join(format!("new{v1}.dir"))),
        };
        let report = edit::create(&paths, &files, &mut no_progress()).unwrap();
        assert_eq!((report.entries, report.added), (2, 2));
        assert_eq!(
            on_disk(&paths),
            vec![
                (b"a.ifp".to_vec(), padded(&[9; 4097])),
                (b"b.ipl".to_vec(), padded(b"end\n"))
            ]
        );
    }
}

#[test]
fn an_interrupted_version1_commit_is_completed() {
    let dir = folder("recover");
    let shape = odd_archive();
    let paths = write_v1_files(&dir, &shape);
    // What a kill after the commit point leaves: the new .img not yet in place and the new
    // directory pending.
    let mut next = Img::default();
    next.add("only.txt", b"new");
    let (new_dir, new_img) = next.v1();
    fs::write(dir.join("test.img.gtastream-new"), new_img).unwrap();
    fs::write(dir.join("test.dir.pending"), new_dir).unwrap();
    edit::recover(&paths, &mut no_progress()).unwrap();
    assert_eq!(
        on_disk(&paths),
        vec![(b"only.txt".to_vec(), padded(b"new"))]
    );
    assert!(!dir.join("test.dir.pending").exists());
    // A kill before the commit point: the old archive stays, the leftovers go.
    fs::write(dir.join("test.img.gtastream-new"), b"partial").unwrap();
    fs::write(dir.join("test.dir.gtastream-new"), b"partial").unwrap();
    edit::recover(&paths, &mut no_progress()).unwrap();
    assert_eq!(
        on_disk(&paths),
        vec![(b"only.txt".to_vec(), padded(b"new"))]
    );
    assert!(!dir.join("test.img.gtastream-new").exists());
    assert!(!dir.join("test.dir.gtastream-new").exists());
}

// ---- a kill at any step (docs/FORMATS.md §5.5) ----

/// What a reader of `test.img` in a folder gets.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seen {
    /// No archive there.
    Nothing,
    /// The archive's entries.
    Entries(Vec<(Vec<u8>, Vec<u8>)>),
    /// Refused: an unfinished version 1 change.
    Unfinished,
}

fn seen(dir: &Path) -> Seen {
    let paths = match ArchivePaths::find(&dir.join("test.img")) {
        Ok(Some(paths)) => paths,
        Ok(None) => panic!("test.img is no archive"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Seen::Nothing,
        Err(e) => panic!("{e}"),
    };
    match paths.check_readable() {
        // The temporary files of an interrupted `create`, and no archive yet.
        Ok(_) if !paths.img.exists() => Seen::Nothing,
        Ok(_) => Seen::Entries(on_disk(&paths)),
        Err(EditError::Unfinished(pending)) => {
            assert!(pending.exists());
            Seen::Unfinished
        }
        Err(e) => panic!("{e}"),
    }
}

/// The files of a folder, by name.
fn files_of(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Copies the files of `from` into a new folder `to`: the disk as a kill would leave it.
fn copy_folder(from: &Path, to: &Path) {
    let _ = fs::remove_dir_all(to);
    fs::create_dir_all(to).unwrap();
    for name in files_of(from) {
        fs::copy(from.join(&name), to.join(&name)).unwrap();
    }
}

/// The paths of `test.img` (and `test.dir`) in `dir`.
fn test_paths(dir: &Path, v1: bool) -> ArchivePaths {
    ArchivePaths {
        img: dir.join("test.img"),
        dir: v1.then(|| dir.join("test.dir")),
    }
}

/// Each operation, on an archive of three entries (or none, for `create`), its sources in
/// `sources`.
fn operations(sources: &Path) -> Vec<(&'static str, bool)> {
    fs::create_dir_all(sources).unwrap();
    fs::write(sources.join("new.txt"), b"hello").unwrap();
    fs::write(sources.join("EARLY.IPL"), [7u8; 5000]).unwrap();
    vec![
        ("create", false),
        ("add", true),
        ("replace", true),
        ("remove", true),
        ("rebuild", true),
    ]
}

fn run_operation(
    what: &str,
    paths: &ArchivePaths,
    sources: &Path,
    progress: edit::Progress<'_>,
) -> Result<edit::EditReport, EditError> {
    let new = NewEntry::from_path(sources.join("new.txt"));
    let early = NewEntry::from_path(sources.join("EARLY.IPL"));
    match what {
        "create" => edit::create(paths, &[new, early], progress),
        "add" => edit::add(paths, &[new], progress),
        "replace" => edit::add(paths, &[early], progress),
        "remove" => edit::remove(paths, &[b"late.ifp"], progress),
        "rebuild" => edit::rebuild(paths, progress),
        _ => unreachable!(),
    }
}

/// Lays the old archive in a fresh folder `dir` (none for `create`).
fn lay_old(dir: &Path, v1: bool, has_old: bool) -> ArchivePaths {
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).unwrap();
    match (has_old, v1) {
        (false, _) => test_paths(dir, v1),
        (true, true) => write_v1_files(dir, &odd_archive()),
        (true, false) => write_v2_file(dir, &odd_archive()),
    }
}

/// Every operation on both versions, the disk copied at each of its steps (what a kill there
/// leaves): a reader sees the old archive until the commit point, then the new one or a
/// refusal naming the pending directory (only while it is there); `recover` gives the old
/// archive before the commit point and the new one after, whole, without leftovers, and so
/// it does again if it is itself killed at any of its steps.
#[test]
fn a_kill_at_any_step_leaves_the_old_archive_the_new_one_or_a_refusal() {
    let root = folder("kill_steps");
    let sources = root.join("sources");
    let mut kill_points = 0;
    for (what, has_old) in operations(&sources) {
        for v1 in [false, true] {
            let live = root.join("live");
            let paths = lay_old(&live, v1, has_old);
            let old = seen(&live);
            let mut snapshots: Vec<(PathBuf, bool)> = Vec::new();
            let mut committed = false;
            let mut on_step = |step: Step<'_>| {
                committed |= matches!(step, Step::Commit(_));
                let snap = root.join(format!("{what}-{v1}-{}", snapshots.len()));
                copy_folder(&live, &snap);
                snapshots.push((snap, committed));
                ControlFlow::Continue(())
            };
            run_operation(what, &paths, &sources, &mut on_step).unwrap();
            let new = seen(&live);
            assert_ne!(new, old, "{what}");
            assert_eq!(files_of(&live), files_of_archive(v1), "{what} {v1}");
            assert!(snapshots.iter().any(|(_, c)| !c) && snapshots.iter().any(|(_, c)| *c));
            for (snap, committed) in &snapshots {
                kill_points += 1;
                let at = format!("{what} v1={v1} {}", snap.display());
                let view = seen(snap);
                let pending = snap.join("test.dir.pending").exists();
                if *committed {
                    assert!(view == new || (view == Seen::Unfinished && pending), "{at}");
                } else {
                    assert_eq!(view, old, "{at}");
                    // What the kill left is named for the reader, beside the old archive.
                    if has_old {
                        let left = test_paths(snap, v1).check_readable().unwrap();
                        assert!(!left.is_empty(), "{at}");
                    }
                }
                assert_eq!(view == Seen::Unfinished, pending, "{at}");
                // The next operation's recovery, itself killed at each of its steps.
                let mut recoveries = Vec::new();
                let paths = test_paths(snap, v1);
                let mut on_step = |step: Step<'_>| {
                    assert!(matches!(step, Step::Recover(_)), "{step:?}");
                    let again = snap.with_extension(format!("r{}", recoveries.len()));
                    copy_folder(snap, &again);
                    recoveries.push(again);
                    ControlFlow::Break(())
                };
                let found = edit::recover(&paths, &mut on_step).unwrap();
                assert_eq!(found.is_empty(), recoveries.is_empty(), "{at}");
                let expected = if *committed { &new } else { &old };
                assert_eq!(&seen(snap), expected, "{at}: recovered");
                let files = if *committed || has_old {
                    files_of_archive(v1)
                } else {
                    vec![]
                };
                assert_eq!(files_of(snap), files, "{at}: recovered");
                for again in recoveries {
                    kill_points += 1;
                    let view = seen(&again);
                    assert!(view == *expected || view == Seen::Unfinished, "{at}");
                    edit::recover(&test_paths(&again, v1), &mut no_progress()).unwrap();
                    assert_eq!(&seen(&again), expected, "{at}: recovered twice");
                    assert_eq!(files_of(&again), files, "{at}: recovered twice");
                    fs::remove_dir_all(&again).unwrap();
                }
                fs::remove_dir_all(snap).unwrap();
            }
        }
    }
    // Every step of 5 operations on 2 versions, and of the recoveries.
    assert!(kill_points > 100, "{kill_points}");
    fs::remove_dir_all(&root).unwrap();
}

fn files_of_archive(v1: bool) -> Vec<String> {
    if v1 {
        vec!["test.dir".into(), "test.img".into()]
    } else {
        vec!["test.img".into()]
    }
}

/// A stop asked for at a step before the commit point removes the temporary files and names
/// them, the archive byte for byte as it was; asked for from the commit point on, it is too
/// late: the change is completed.
#[test]
fn a_stop_before_the_commit_point_removes_the_temporary_files() {
    let root = folder("stop_steps");
    let sources = root.join("sources");
    for (what, has_old) in operations(&sources) {
        for v1 in [false, true] {
            let live = root.join("live");
            let mut at = 1;
            loop {
                let paths = lay_old(&live, v1, has_old);
                let before: Vec<Vec<u8>> = files_of(&live)
                    .iter()
                    .map(|n| fs::read(live.join(n)).unwrap())
                    .collect();
                let (mut seen_steps, mut committed) = (0, false);
                let mut on_step = |step: Step<'_>| {
                    seen_steps += 1;
                    committed |= matches!(step, Step::Commit(_));
                    if seen_steps == at {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                };
                let result = run_operation(what, &paths, &sources, &mut on_step);
                let label = format!("{what} v1={v1} stopped at step {at}");
                if seen_steps < at {
                    break;
                }
                match result {
                    Err(EditError::Interrupted(removed)) => {
                        assert!(!committed, "{label}");
                        let mut expected = vec![live.join("test.img.gtastream-new")];
                        if v1 {
                            expected.push(live.join("test.dir.gtastream-new"));
                        }
                        assert_eq!(removed, expected, "{label}");
                        let after: Vec<Vec<u8>> = files_of(&live)
                            .iter()
                            .map(|n| fs::read(live.join(n)).unwrap())
                            .collect();
                        assert_eq!(after, before, "{label}");
                    }
                    Ok(_) => {
                        assert!(committed, "{label}");
                        assert_eq!(files_of(&live), files_of_archive(v1), "{label}");
                    }
                    Err(e) => panic!("{label}: {e}"),
                }
                at += 1;
            }
            assert!(at > 8, "{what}: {at} steps");
        }
    }
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_file_to_put_in_that_is_missing_or_a_folder_is_named() {
    let dir = folder("sources_named");
    let paths = write_v2_file(&dir, &odd_archive());
    let bytes = fs::read(&paths.img).unwrap();
    fs::create_dir_all(dir.join("imgw")).unwrap();
    let good = file(&dir, "good.txt", b"x");
    for (name, kind) in [
        ("missing.ifp", std::io::ErrorKind::NotFound),
        ("imgw", std::io::ErrorKind::IsADirectory),
    ] {
        let entries = [good.clone(), NewEntry::from_path(dir.join(name))];
        for result in [
            edit::add(&paths, &entries, &mut no_progress()),
            edit::create(
                &test_paths(&dir.join("fresh"), false),
                &entries,
                &mut no_progress(),
            ),
        ] {
            match result {
                Err(EditError::Source(path, error)) => {
                    assert_eq!(path, dir.join(name));
                    assert_eq!(error.kind(), kind);
                }
                other => panic!("{name}: {other:?}"),
            }
        }
        assert_eq!(fs::read(&paths.img).unwrap(), bytes);
        assert!(!dir.join("fresh").exists());
    }
}
