//! Where an encoder's bytes go.

/// The sink failed; the sink itself may keep the details.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SinkError;

/// Receives an encoder's bytes. Writes append; a patch overwrites bytes already written (a
/// count or size field whose value is known once its chunk ends), never past the end.
pub trait Sink {
    /// Appends `bytes`.
    fn write(&mut self, bytes: &[u8]) -> Result<(), SinkError>;
    /// Overwrites the bytes at absolute `offset` (counted from the first byte written).
    fn patch(&mut self, offset: u64, bytes: &[u8]) -> Result<(), SinkError>;
}

impl<S: Sink + ?Sized> Sink for &mut S {
    fn write(&mut self, bytes: &[u8]) -> Result<(), SinkError> {
        (**self).write(bytes)
    }
    fn patch(&mut self, offset: u64, bytes: &[u8]) -> Result<(), SinkError> {
        (**self).patch(offset, bytes)
    }
}

/// A sink over a caller's buffer; writing past its end fails.
#[derive(Debug)]
pub struct SliceSink<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> SliceSink<'a> {
    /// An empty sink writing into `buf`.
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceSink { buf, len: 0 }
    }

    /// The bytes written.
    pub fn written(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Sink for SliceSink<'_> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), SinkError> {
        let end = self.len.checked_add(bytes.len()).ok_or(SinkError)?;
        self.buf
            .get_mut(self.len..end)
            .ok_or(SinkError)?
            .copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }

    fn patch(&mut self, offset: u64, bytes: &[u8]) -> Result<(), SinkError> {
        let at = usize::try_from(offset).map_err(|_| SinkError)?;
        let end = at.checked_add(bytes.len()).ok_or(SinkError)?;
        if end > self.len {
            return Err(SinkError);
        }
        self.buf[at..end].copy_from_slice(bytes);
        Ok(())
    }
}

#[cfg(feature = "alloc")]
impl Sink for alloc::vec::Vec<u8> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), SinkError> {
        self.extend_from_slice(bytes);
        Ok(())
    }

    fn patch(&mut self, offset: u64, bytes: &[u8]) -> Result<(), SinkError> {
        let at = usize::try_from(offset).map_err(|_| SinkError)?;
        let end = at.checked_add(bytes.len()).ok_or(SinkError)?;
        self.get_mut(at..end)
            .ok_or(SinkError)?
            .copy_from_slice(bytes);
        Ok(())
    }
}

/// A sink over a `std::io` writer that can seek (a file): patches seek back and return to the
/// end. Offsets count from where the writer was when the sink was made. The first I/O error is
/// kept in [`error`](Self::error).
#[cfg(feature = "std")]
#[derive(Debug)]
pub struct IoSink<W> {
    writer: W,
    base: u64,
    end: u64,
    error: Option<std::io::Error>,
}

#[cfg(feature = "std")]
impl<W: std::io::Write + std::io::Seek> IoSink<W> {
    /// A sink writing at the writer's current position.
    pub fn new(mut writer: W) -> std::io::Result<Self> {
        let base = writer.stream_position()?;
        Ok(IoSink {
            writer,
            base,
            end: 0,
            error: None,
        })
    }

    /// The first I/O error, if any.
    pub fn error(&self) -> Option<&std::io::Error> {
        self.error.as_ref()
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.writer
    }

    fn keep<T>(&mut self, result: std::io::Result<T>) -> Result<T, SinkError> {
        result.map_err(|error| {
            self.error.get_or_insert(error);
            SinkError
        })
    }
}

#[cfg(feature = "std")]
impl<W: std::io::Write + std::io::Seek> Sink for IoSink<W> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), SinkError> {
        let result = self.writer.write_all(bytes);
        self.keep(result)?;
        self.end += bytes.len() as u64;
        Ok(())
    }

    fn patch(&mut self, offset: u64, bytes: &[u8]) -> Result<(), SinkError> {
        use std::io::SeekFrom;
        if offset + bytes.len() as u64 > self.end {
            return Err(SinkError);
        }
        let result = self
            .writer
            .seek(SeekFrom::Start(self.base + offset))
            .and_then(|_| self.writer.write_all(bytes))
            .and_then(|()| self.writer.seek(SeekFrom::Start(self.base + self.end)));
        self.keep(result).map(drop)
    }
}
