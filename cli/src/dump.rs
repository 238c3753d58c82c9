//! `gtastream dump --json`: the library's document (`gtastream::json`, the same for every
//! front end), written to standard output as the decoder reports the file, so memory does not
//! grow with the file. A file that fails to decode writes nothing.

use std::io::{self, BufWriter, Read, StdoutLock, Write};

use gtastream::json::{self, JsonError};
use gtastream::{Decoder, Options};

use crate::source::{self, Access};
use crate::target::{self, Target};
use crate::walk::Only;
use crate::{failed, write_error};

/// Writes the document of `argument` (a file, `ARCHIVE:ENTRY`, or `-`) to standard output.
pub fn run(argument: &str, access: Access) -> Result<(), String> {
    let target = target::resolve(argument).map_err(|e| failed(argument, e))?;
    let mut out = Output {
        inner: BufWriter::with_capacity(64 << 10, io::stdout().lock()),
        error: None,
    };
    // Each pass of the document decodes the input again, from its first byte.
    let result = match target {
        Target::File(path) => json::write(&mut out, |pass| {
            source::decode(&path, access, pass)
                .map(drop)
                .map_err(|e| e.to_string())
        }),
        Target::Stdin(head) => {
            // A pipe cannot be read twice: the passes read what it gave, from memory.
            let data = stdin(head)?;
            let options = Options {
                can_seek: false,
                game: access.game,
            };
            json::write(&mut out, |pass| {
                gtastream::context::decode_slice(&mut Decoder::with_options(options), &data, pass)
                    .map_err(|e| e.to_string())
            })
        }
        Target::Entry(archive, name) => json::write(&mut out, |pass| {
            let mut only = Only::new(&name, pass);
            let result = archive.decode(&mut only);
            only.outcome(result).map_err(|e| e.to_string())
        }),
        Target::Archive(_) => {
            return Err(failed(
                argument,
                "an IMG archive: name one entry (ARCHIVE:ENTRY), or see `gtastream ls`",
            ))
        }
    };
    match result {
        Ok(()) => out.inner.flush().map_err(write_error),
        Err(JsonError::Decode(message)) => Err(failed(argument, message)),
        Err(JsonError::Write) => Err(out.error.map_or_else(String::new, write_error)),
    }
}

/// Standard input, whole (`data`: what was read of it already).
fn stdin(mut data: Vec<u8>) -> Result<Vec<u8>, String> {
    io::stdin()
        .lock()
        .read_to_end(&mut data)
        .map_err(|e| failed("-", e))?;
    Ok(data)
}

/// Standard output as a `fmt::Write` sink, keeping the I/O error that stopped it.
struct Output<'a> {
    inner: BufWriter<StdoutLock<'a>>,
    error: Option<io::Error>,
}

impl std::fmt::Write for Output<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.inner.write_all(s.as_bytes()).map_err(|e| {
            self.error = Some(e);
            std::fmt::Error
        })
    }
}
