//! Streams a file through the push decoder in small pieces, as a host that reads from an
//! archive or a socket would, and prints each bone's keyframe count and time span.
//! No allocation in the decoder; this example uses `std` only to read the file.
//!
//! It also follows the seek protocol by hand: Stories `.anim` files reach their records
//! through file offsets, and `feed` returns `Status::Seek(offset)` when the next one lies
//! behind what was fed. (`gtastream::io::decode_reader`, feature `std`, does the same.)
//!
//! ```text
//! cargo run --example stream                  # samples/walk.ifp
//! cargo run --example stream -- FILE
//! ```

use std::io::{Read, Seek, SeekFrom};
use std::process::ExitCode;

use gtastream::{AnimationInfo, BoneInfo, Decoder, Flow, Keyframes, Status, Visitor, Warning};

/// Prints one line per bone when the bone ends.
#[derive(Default)]
struct Printer {
    frames: u32,
    first: f32,
    last: f32,
}

impl Visitor for Printer {
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        println!("{} ({} bones)", latin1(info.name), info.bone_count);
        Flow::Continue
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        // Stories files store no names, only a key (a CRC-32 of the name).
        let name = match (info.name, info.bone_key) {
            (Some(name), _) => latin1(name),
            (None, Some(key)) => format!("{key:#010x}"),
            (None, None) => String::new(),
        };
        match info.bone_id {
            Some(id) => print!("  {name:<10} id {id:>3}"),
            None => print!("  {name:<10} no id "),
        }
        self.frames = 0;
        Flow::Continue
    }

    // Keyframes come in batches that borrow the input; how a bone's frames are split into
    // batches depends on the chunking, the frames themselves do not.
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        // `for_each` runs one loop per frame type, the fastest way through a batch.
        frames.iter().for_each(|frame| {
            if self.frames == 0 {
                self.first = frame.time;
            }
            self.last = frame.time;
            self.frames += 1;
        });
        Flow::Continue
    }

    fn bone_end(&mut self) -> Flow {
        if self.frames == 0 {
            println!("  no keyframes");
        } else {
            println!(
                "  {:>3} keyframes, {:.3} s to {:.3} s",
                self.frames, self.first, self.last
            );
        }
        Flow::Continue
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        println!("warning: {warning}");
        Flow::Continue
    }
}

/// Names are bytes; print one character per byte (Latin-1), so none is lost.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn main() -> ExitCode {
    let path = std::env::args().nth(1).unwrap_or("samples/walk.ifp".into());
    let mut file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("stream: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut decoder = Decoder::new();
    let mut printer = Printer::default();
    // Any piece size gives the same events; 100 bytes splits units across pieces.
    let mut piece = [0u8; 100];
    loop {
        let n = match file.read(&mut piece) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => {
                eprintln!("stream: {path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        // The printer never pauses, so `feed` consumes the whole piece, fails, or asks to
        // seek: then the rest of the piece is dropped and reading goes on from the offset.
        match decoder.feed(&piece[..n], &mut printer) {
            Ok(progress) => {
                if let Status::Seek(offset) = progress.status {
                    if let Err(e) = file.seek(SeekFrom::Start(offset)) {
                        eprintln!("stream: {path}: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
            Err(e) => {
                eprintln!("stream: {path}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if let Err(e) = decoder.finish(&mut printer) {
        eprintln!("stream: {path}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
