//! IMG archives: the archive decoder over arbitrary bytes, as a version 2 `.img` or as a
//! version 1 `.dir`/`.img` pair, never panics or hangs, and gives the same events, entry
//! results and archive result whole and cut into fuzzer-chosen pieces (with pauses at every
//! event when asked). The input: a flags byte (bit 0: version 1; bit 1: pause at every event),
//! a chunk-size byte, for version 1 two bytes of the `.dir`'s length, then the bytes.
#![no_main]

use gtastream::archive::{
    ArchiveDecoder, ArchiveInfo, ArchiveVisitor, ArchiveWarning, Choice, Entry, Input,
};
use gtastream::{
    AnimationInfo, BoneInfo, Error, FileInfo, Flow, IplCar, IplInstance, Keyframes, SectionLine,
    Status, Visitor, Warning,
};
use libfuzzer_sys::fuzz_target;

/// Every event as a line (keyframes one by one: batches follow the cuts).
#[derive(Default)]
struct Log {
    lines: Vec<String>,
    pause: bool,
}

impl Log {
    fn push(&mut self, line: String) -> Flow {
        self.lines.push(line);
        if self.pause {
            Flow::Pause
        } else {
            Flow::Continue
        }
    }
}

impl Visitor for Log {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.push(format!("file {:?}", info.format))
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.push(format!("animation {} {:?}", info.index, info.name))
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.push(format!("bone {}", info.index))
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let mut flow = Flow::Continue;
        for frame in frames.iter() {
            flow = self.push(format!("keyframe {:?}", frame.time.to_bits()));
        }
        flow
    }
    fn instance(&mut self, i: &IplInstance<'_>) -> Flow {
        self.push(format!("instance {}", i.model_id))
    }
    fn car(&mut self, car: &IplCar) -> Flow {
        self.push(format!("car {}", car.model_id))
    }
    fn section_line(&mut self, line: &SectionLine<'_>) -> Flow {
        self.push(format!("line {:?}", line.text))
    }
    fn warning(&mut self, warning: Warning) -> Flow {
        self.push(format!("warning {:?} {}", warning.kind, warning.offset))
    }
    fn end(&mut self) -> Flow {
        self.push("end".into())
    }
}

impl ArchiveVisitor for Log {
    fn archive(&mut self, info: &ArchiveInfo) -> Flow {
        self.push(format!("archive {:?} {}", info.version, info.entry_count))
    }
    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        self.lines.push(format!(
            "entry {} {:?} {} {} {:?}",
            entry.index, entry.name, entry.offset, entry.size, entry.format
        ));
        // Every other entry is decoded, whatever its format.
        if entry.index % 2 == 0 {
            Choice::Decode
        } else {
            Choice::Skip
        }
    }
    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        self.push(format!("entry_end {result:?}"))
    }
    fn archive_warning(&mut self, warning: ArchiveWarning) -> Flow {
        self.push(format!("archive_warning {:?} {}", warning.kind, warning.offset))
    }
}

fn new_decoder(v1: bool, dir: &[u8], img: &[u8]) -> ArchiveDecoder {
    if v1 {
        ArchiveDecoder::version1(dir.len() as u64, img.len() as u64)
    } else {
        ArchiveDecoder::new(img.len() as u64)
    }
}

fn chunked(v1: bool, dir: &[u8], img: &[u8], chunk: usize, log: &mut Log) -> Result<(), Error> {
    let mut archive = new_decoder(v1, dir, img);
    loop {
        let file = match archive.input() {
            Input::Directory => dir,
            Input::Data => img,
        };
        let at = usize::try_from(archive.position()).unwrap_or(usize::MAX);
        let rest = file.get(at..).unwrap_or_default();
        let mut piece = &rest[..rest.len().min(chunk)];
        if piece.is_empty() {
            return archive.finish(log);
        }
        loop {
            let progress = archive.feed(piece, log)?;
            piece = &piece[progress.consumed..];
            match progress.status {
                Status::Paused => continue,
                Status::Done => return archive.finish(log),
                Status::NeedInput | Status::Seek(_) => break,
            }
        }
    }
}

fuzz_target!(|input: &[u8]| {
    let [flags, chunk, rest @ ..] = input else {
        return;
    };
    let v1 = flags & 1 != 0;
    let (dir, img) = if v1 {
        let [a, b, rest @ ..] = rest else {
            return;
        };
        let split = usize::from(u16::from_le_bytes([*a, *b])).min(rest.len());
        rest.split_at(split)
    } else {
        (&[][..], rest)
    };
    let chunk = usize::from(*chunk).max(1) * if flags & 4 != 0 { 64 } else { 1 };

    let mut whole = Log::default();
    let whole_result = new_decoder(v1, dir, img).decode_slices(dir, img, &mut whole);
    let mut cut = Log {
        pause: flags & 2 != 0,
        ..Log::default()
    };
    let cut_result = chunked(v1, dir, img, chunk, &mut cut);
    assert_eq!(whole_result, cut_result);
    assert_eq!(whole.lines, cut.lines);
});
