//! What a command-line argument names: a file, standard input, an IMG archive (version 2, or
//! version 1 by its `.img` or its `.dir`; a version 2 archive on standard input too), or one
//! entry of an archive (`ARCHIVE:ENTRY`).

use std::fs::File;
use std::io::{self, Cursor, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use gtastream::archive::edit::{ArchivePaths, EditError};
use gtastream::archive::{ArchiveDecoder, ArchiveVisitor, Choice};
use gtastream::io::{decode_archive, stream_len, ReadError};

use crate::source::{CountSeeks, Failure};

/// Where an archive's `.img` is.
#[derive(Clone, Debug)]
pub enum Img {
    File(PathBuf),
    /// Read from standard input: an archive is reached by seeks, which a pipe cannot do.
    Memory(Rc<[u8]>),
}

/// An open `.img`.
pub enum ImgReader {
    File(File),
    Memory(Cursor<Rc<[u8]>>),
}

impl Read for ImgReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            ImgReader::File(f) => f.read(buf),
            ImgReader::Memory(m) => m.read(buf),
        }
    }
}

impl Seek for ImgReader {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        match self {
            ImgReader::File(f) => f.seek(pos),
            ImgReader::Memory(m) => m.seek(pos),
        }
    }
}

impl Img {
    pub fn open(&self) -> io::Result<ImgReader> {
        Ok(match self {
            Img::File(path) => ImgReader::File(File::open(path)?),
            Img::Memory(bytes) => ImgReader::Memory(Cursor::new(Rc::clone(bytes))),
        })
    }
}

/// An IMG archive's files.
#[derive(Clone, Debug)]
pub struct Archive {
    /// The `.img` (the only file of a version 2 archive).
    pub img: Img,
    /// The `.dir` of a version 1 archive.
    pub dir: Option<PathBuf>,
    /// How the user named it.
    pub shown: String,
}

/// What an argument names.
pub enum Target {
    /// Standard input, with the bytes already read from it to see what it holds.
    Stdin(Vec<u8>),
    File(PathBuf),
    Archive(Archive),
    /// An entry of an archive, by name (compared without case).
    Entry(Archive, String),
}

impl Archive {
    /// Decodes the archive into `visitor` (whatever its version), reading each file a piece
    /// at a time; returns the seeks made.
    pub fn decode<V: ArchiveVisitor>(&self, visitor: &mut V) -> Result<u64, Failure> {
        let open = |path: &Path| -> Result<CountSeeks<File>, Failure> {
            let file = File::open(path).map_err(Failure::Open)?;
            Ok(CountSeeks::new(file))
        };
        let mut img = CountSeeks::new(self.img.open().map_err(Failure::Open)?);
        let data_len = stream_len(&mut img).map_err(|e| Failure::Read(ReadError::Io(e)))?;
        let mut dir = match &self.dir {
            Some(path) => Some(open(path)?),
            None => None,
        };
        let mut decoder = match dir.as_mut() {
            Some(dir) => {
                let dir_len = stream_len(dir).map_err(|e| Failure::Read(ReadError::Io(e)))?;
                ArchiveDecoder::version1(dir_len, data_len)
            }
            None => ArchiveDecoder::new(data_len),
        };
        let result = decode_archive(&mut decoder, dir.as_mut(), &mut img, visitor);
        let seeks = img.seeks + dir.as_ref().map_or(0, |d| d.seeks);
        result.map_err(Failure::Read)?;
        Ok(seeks)
    }
}

/// Entries' formats as the decoder finds them, one answer for `ls`, `info` and `check`
/// ([`gtastream::archive::decoded_format`]): an entry whose first bytes are text is settled by
/// reading its first lines from the `.img` (opened once, at the first such entry).
pub struct EntryFormats {
    img: Img,
    reader: Option<ImgReader>,
    head: Vec<u8>,
}

impl EntryFormats {
    pub fn new(archive: &Archive) -> Self {
        EntryFormats {
            img: archive.img.clone(),
            reader: None,
            head: Vec::new(),
        }
    }

    /// The format of `entry`; the directory's sniffed one if its bytes cannot be read (the
    /// command that reads them says why).
    pub fn of(&mut self, entry: &gtastream::archive::Entry<'_>) -> Option<gtastream::Format> {
        use gtastream::archive::{decoded_format, FORMAT_HEAD_SIZE};
        if entry.format != Some(gtastream::Format::IplText) {
            return entry.format;
        }
        let want = entry.size.min(FORMAT_HEAD_SIZE as u64);
        let read = |reader: &mut ImgReader, head: &mut Vec<u8>| -> io::Result<()> {
            head.clear();
            reader.seek(SeekFrom::Start(entry.offset))?;
            reader.take(want).read_to_end(head)?;
            Ok(())
        };
        if self.reader.is_none() {
            self.reader = self.img.open().ok();
        }
        match self.reader.as_mut().map(|r| read(r, &mut self.head)) {
            Some(Ok(())) => decoded_format(&self.head, want == entry.size),
            _ => entry.format,
        }
    }
}

impl Archive {
    /// The bytes of the first entry named `wanted` (without case), as `extract` writes them:
    /// its sectors, cut at the end of the `.img`.
    pub fn entry_bytes(&self, wanted: &str) -> Result<Vec<u8>, Failure> {
        struct Find<'w> {
            wanted: &'w str,
            found: Option<(u64, u64)>,
        }
        impl gtastream::Visitor for Find<'_> {}
        impl ArchiveVisitor for Find<'_> {
            fn entry(&mut self, entry: &gtastream::archive::Entry<'_>) -> Choice {
                if self.found.is_none() && same_name(entry.name, self.wanted) {
                    self.found = Some((entry.offset, entry.size));
                }
                Choice::Skip
            }
        }
        let mut find = Find {
            wanted,
            found: None,
        };
        self.decode(&mut find)?;
        let (offset, size) = find
            .found
            .ok_or_else(|| Failure::Other(format!("no entry named {wanted}")))?;
        let mut img = self.img.open().map_err(Failure::Open)?;
        let io = |e| Failure::Read(ReadError::Io(e));
        img.seek(SeekFrom::Start(offset)).map_err(io)?;
        let mut bytes = Vec::new();
        img.take(size).read_to_end(&mut bytes).map_err(io)?;
        Ok(bytes)
    }
}

/// What `argument` names. A whole argument that is an existing file is a file (or an
/// archive), so `C:\x.ifp` is never read as `ARCHIVE:ENTRY`.
pub fn resolve(argument: &str) -> io::Result<Target> {
    if argument == "-" {
        return stdin();
    }
    let path = Path::new(argument);
    if path.is_file() {
        return Ok(match archive_at(path, argument)? {
            Some(archive) => Target::Archive(archive),
            None => Target::File(path.to_path_buf()),
        });
    }
    // The archive is the longest part before a `:` that is a file: an entry's name may hold
    // `:` (`my.img:we:ird.ifp`), and so may the archive's path (`C:\x.img:walk.ifp`).
    for (at, _) in argument.rmatch_indices(':') {
        let (archive, entry) = (&argument[..at], &argument[at + 1..]);
        let archive_path = Path::new(archive);
        if !entry.is_empty() && archive_path.is_file() {
            return match archive_at(archive_path, archive)? {
                Some(found) => Ok(Target::Entry(found, entry.to_string())),
                None => Err(io::Error::other(format!("{archive} is not an IMG archive"))),
            };
        }
    }
    // A version 1 archive that a killed `img new --v1` left with only its pending directory
    // is refused, naming it.
    if !path.exists() {
        match archive_at(path, argument) {
            Ok(Some(archive)) => return Ok(Target::Archive(archive)),
            Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
            _ => {}
        }
    }
    // Opening it gives the system's message (no such file, ...).
    Ok(Target::File(path.to_path_buf()))
}

/// Standard input: a version 2 archive there is read into memory (its entries are reached
/// by seeks); anything else is left to be read front to back.
fn stdin() -> io::Result<Target> {
    let mut stdin = io::stdin().lock();
    let mut magic = vec![0u8; 4];
    let read = read_up_to(&mut stdin, &mut magic)?;
    magic.truncate(read);
    if magic != b"VER2" {
        return Ok(Target::Stdin(magic));
    }
    stdin.read_to_end(&mut magic)?;
    Ok(Target::Archive(Archive {
        img: Img::Memory(magic.into()),
        dir: None,
        shown: "-".into(),
    }))
}

/// The kind of error that names the file at `path` as one of another format (another tool's
/// or game's archive, a model, ...), as the decoder tells it by the file's first bytes.
pub fn foreign_kind(path: &Path) -> Option<gtastream::ErrorKind> {
    let mut head = [0u8; gtastream::archive::SNIFF_SIZE];
    let read = read_up_to(&mut File::open(path).ok()?, &mut head).ok()?;
    let kind = gtastream::Decoder::new()
        .decode_slice(&head[..read], &mut Ignore)
        .err()?
        .kind;
    kind.is_foreign().then_some(kind)
}

/// Why the file at `path` is no IMG archive: the format it is of, when the decoder names it
/// (another tool's or game's archive), else that it has neither magic nor `.dir`.
pub fn not_an_archive(path: &Path) -> &'static str {
    match foreign_kind(path) {
        Some(kind) => kind.reason(),
        None => "not an IMG archive (no VER2 magic, no .dir beside it)",
    }
}

/// A visitor that keeps nothing.
pub struct Ignore;
impl gtastream::Visitor for Ignore {}

/// The archive whose file is at `path` (the library's rule, `ArchivePaths::find`). `None` for
/// any other file. A version 1 archive whose change an interrupted `gtastream img` command
/// left unfinished is refused (its two files may not belong together); the temporary files
/// of one interrupted before its commit are named on stderr (the archive is as before it).
pub fn archive_at(path: &Path, shown: &str) -> io::Result<Option<Archive>> {
    let Some(found) = ArchivePaths::find(path)? else {
        return Ok(None);
    };
    match found.check_readable() {
        Err(EditError::Unfinished(pending)) => {
            return Err(io::Error::other(unfinished(&pending, shown)))
        }
        Err(error) => return Err(io::Error::other(error.to_string())),
        Ok(temporary) => {
            for file in temporary {
                eprintln!("gtastream: {shown}: {}", left_behind(&file, shown));
            }
        }
    }
    // Only the temporary files of an interrupted `img new` are there: no archive yet.
    File::open(&found.img)?;
    Ok(Some(Archive {
        img: Img::File(found.img),
        dir: found.dir,
        shown: shown.to_string(),
    }))
}

/// Why an archive whose version 1 change is past its commit point is not read, and what to do.
pub fn unfinished(pending: &Path, shown: &str) -> String {
    format!(
        "unfinished change: an interrupted `gtastream img` command left the new directory in \
         {} (games and tools read a broken archive until it is in place); `gtastream img \
         recover {shown}` completes it",
        pending.display()
    )
}

/// What a temporary file an interrupted `gtastream img` command left beside an archive is,
/// and what to do with it.
pub fn left_behind(file: &Path, shown: &str) -> String {
    format!(
        "{} was left by an interrupted `gtastream img` command (unless one is running now); \
         the archive is as before it, and `gtastream img recover {shown}` removes it",
        file.display()
    )
}

fn read_up_to(reader: &mut impl Read, buffer: &mut [u8]) -> io::Result<usize> {
    let mut read = 0;
    while read < buffer.len() {
        match reader.read(&mut buffer[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(read)
}

/// Whether `name` (an entry's stored bytes) is `wanted`, without case.
pub fn same_name(name: &[u8], wanted: &str) -> bool {
    name.eq_ignore_ascii_case(wanted.as_bytes())
        || crate::names::latin1(name).eq_ignore_ascii_case(wanted)
}

/// The whole bytes `argument` names: a file, standard input (`-`), or an archive's entry
/// (`ARCHIVE:ENTRY`); an archive as a whole is refused (it names many files).
pub fn read_bytes(argument: &str) -> Result<Vec<u8>, String> {
    match resolve(argument).map_err(|e| e.to_string())? {
        Target::Stdin(mut head) => {
            io::stdin()
                .lock()
                .read_to_end(&mut head)
                .map_err(|e| e.to_string())?;
            Ok(head)
        }
        Target::File(path) => std::fs::read(&path).map_err(|e| e.to_string()),
        Target::Entry(archive, entry) => archive.entry_bytes(&entry).map_err(|e| e.to_string()),
        Target::Archive(_) => Err("an archive, not one file: name an entry, ARCHIVE:ENTRY".into()),
    }
}
