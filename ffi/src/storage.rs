//! The decoder as a C object: the state a `gts_decoder` holds, kept by the one handle
//! machinery (`handle.rs`, which holds the aliasing rules).

use core::ffi::c_void;

use gtastream_core::{Decoder, Error, Game, Options, Progress};

use crate::bridge::{Bridge, Place};
use crate::handle::{Handle, Object, Streaming};
use crate::types::{gts_callbacks, gts_decoder};

/// A checked `gts_decoder`.
pub(crate) type DecoderHandle = Handle<DecoderState>;

/// What a `gts_decoder` holds besides the handle's header.
pub(crate) struct DecoderState {
    /// The caller can seek (the default).
    seekable: bool,
    /// Text IPL: the game named by the caller (`gts_game` as a byte; 0: decided by the file).
    game: u8,
    callbacks: gts_callbacks,
    user: *mut c_void,
    /// What a paused `gts_decode_io` left unfed in the caller's buffer.
    pub(crate) io: IoPending,
    /// The animation and bone being decoded (or that failed).
    pub(crate) place: Place,
    pub(crate) decoder: Decoder,
}

impl Object for DecoderState {
    type Storage = gts_decoder;
    /// "gtsdec" and the version of this layout.
    const TAG: u64 = 0x6774_7364_6563_0004;

    fn position(&self) -> u64 {
        self.decoder.position()
    }
}

/// The bytes `buffer[start..end]` of the caller's buffer that a paused `gts_decode_io` had not
/// fed yet; they are the file's bytes from `position` (the decoder's position at the pause) on.
/// A later call resumes with them if it gets the same buffer and the decoder is still there.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct IoPending {
    pub(crate) buffer: *const u8,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) position: u64,
}

/// Nothing pending.
pub(crate) const NO_IO_PENDING: IoPending = IoPending {
    buffer: core::ptr::null(),
    start: 0,
    end: 0,
    position: 0,
};

/// Callbacks that skip every event.
pub(crate) const NO_CALLBACKS: gts_callbacks = gts_callbacks {
    on_file: None,
    on_animation: None,
    on_bone: None,
    on_keyframes: None,
    on_bone_end: None,
    on_animation_end: None,
    on_instance: None,
    on_car: None,
    on_warning: None,
    on_end: None,
    on_keyframes_raw: None,
    on_section_line: None,
    on_trailing: None,
    on_text_line: None,
    on_record: None,
};

/// The game a `gts_game` value names (`None`: decided by the file).
fn game_of(game: u8) -> Option<Game> {
    match game {
        1 => Some(Game::Iii),
        2 => Some(Game::ViceCity),
        3 => Some(Game::SanAndreas),
        _ => None,
    }
}

impl DecoderState {
    /// A decoder with the default options, ready for the first byte of a file.
    pub(crate) fn new(callbacks: gts_callbacks, user: *mut c_void) -> Self {
        let mut state = DecoderState {
            seekable: true,
            game: 0,
            callbacks,
            user,
            io: NO_IO_PENDING,
            place: Place::new(),
            decoder: Decoder::new(),
        };
        state.restart();
        state
    }

    /// A fresh decoder with the options set (the callbacks and user pointer kept). The old
    /// decoder owns nothing that needs dropping.
    fn restart(&mut self) {
        self.decoder = Decoder::with_options(Options {
            can_seek: self.seekable,
            game: game_of(self.game),
        });
        self.io = NO_IO_PENDING;
        self.place = Place::new();
    }

    /// Whether the caller said it can seek.
    pub(crate) fn seekable(&self) -> bool {
        self.seekable
    }

    /// Sets whether the caller can seek (through `Handle::configure`: before the first feed).
    pub(crate) fn set_seekable(&mut self, seekable: bool) {
        self.seekable = seekable;
        self.restart();
    }

    /// Names the game of a text IPL (a `gts_game` value, checked by the caller; through
    /// `Handle::configure`).
    pub(crate) fn set_game(&mut self, game: u8) {
        self.game = game;
        self.restart();
    }

    /// Forgets the file (through `Handle::reset`, which forgets any panic); keeps the
    /// callbacks, user pointer and options.
    pub(crate) fn reset(&mut self) {
        self.restart();
    }

    /// The decoder with the bridge to the callbacks, inside `Handle::run`. The bridge borrows
    /// the callbacks from the storage (a feed of a few bytes should not pay for a copy).
    pub(crate) fn parts(&mut self) -> (&mut Decoder, Bridge<'_>) {
        (
            &mut self.decoder,
            Bridge::new(&self.callbacks, self.user, &self.place),
        )
    }
}

impl Streaming for DecoderState {
    fn feed(&mut self, input: &[u8]) -> Result<Progress, Error> {
        self.decoder.feed(
            input,
            &mut Bridge::new(&self.callbacks, self.user, &self.place),
        )
    }

    fn feed_buffered(&mut self, input: &[u8]) -> Option<Progress> {
        self.decoder.feed_buffered(input)
    }

    fn finish(&mut self) -> Result<(), Error> {
        self.decoder
            .finish(&mut Bridge::new(&self.callbacks, self.user, &self.place))
    }
}
