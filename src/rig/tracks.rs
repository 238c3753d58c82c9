//! The tracks of an animation, gathered from the decoder's events for binding.

use crate::context::Name;
use crate::error::{Error, ErrorKind};
use crate::{AnimationInfo, BoneInfo, Decoder, FileInfo, Flow, Format, Keyframes, Unit, Visitor};

use super::bind::Track;

/// Tracks of one animation an [`AnimationTracks`] keeps: more than any skeleton has bones
/// ([`MAX_FRAMES`](super::MAX_FRAMES)); past it the rest are counted
/// ([`AnimationTracks::dropped`]).
pub const MAX_TRACKS: usize = 256;

/// A track of an animation: what binding and the skeleton checks need.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrackInfo {
    /// Its position in the animation.
    pub index: u32,
    /// Its name as stored, where there is one.
    pub name: Option<Name>,
    /// The bone id as stored.
    pub bone_id: Option<i32>,
    /// Keyframes it declares.
    pub frame_count: u32,
    /// Whether its keys carry a translation.
    pub translation: bool,
    /// Absolute offset of its header.
    pub offset: u64,
    /// The smallest and the largest translation over its keys, per axis (with translation).
    pub extent: Option<([f32; 3], [f32; 3])>,
}

impl TrackInfo {
    /// As the binder takes it.
    pub fn track(&self, format: Format) -> Track<'_> {
        Track {
            index: self.index,
            name: self.name.as_ref().map(Name::as_bytes),
            bone_id: self.bone_id,
            frame_count: self.frame_count,
            translation: self.translation,
            format,
        }
    }
}

/// The tracks of one animation, in file order, fixed size: a [`Visitor`] that gathers the
/// animation's events ([`begin`](Self::begin) to [`animation_end`](Visitor::animation_end)),
/// or [`find`](Self::find) on a file in memory.
#[derive(Clone, Debug)]
pub struct AnimationTracks {
    format: Format,
    index: u32,
    name: Name,
    tracks: heapless::Vec<TrackInfo, MAX_TRACKS>,
    dropped: u32,
    last_offset: u64,
}

impl Default for AnimationTracks {
    fn default() -> Self {
        AnimationTracks::new(Format::Anp3)
    }
}

impl AnimationTracks {
    /// No tracks, of a file of `format`.
    pub fn new(format: Format) -> AnimationTracks {
        AnimationTracks {
            format,
            index: 0,
            name: Name::EMPTY,
            tracks: heapless::Vec::new(),
            dropped: 0,
            last_offset: 0,
        }
    }

    /// Starts gathering the animation `info`, the `index`-th of the file.
    pub fn begin(&mut self, info: &AnimationInfo<'_>, index: u32) {
        self.index = index;
        self.name = Name::new(info.name);
        self.tracks.clear();
        self.dropped = 0;
    }

    /// The file's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The animation's position in the file.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The animation's name as stored.
    pub fn name(&self) -> &Name {
        &self.name
    }

    /// The tracks kept.
    pub fn infos(&self) -> &[TrackInfo] {
        &self.tracks
    }

    /// Tracks past [`MAX_TRACKS`], not kept.
    pub fn dropped(&self) -> u32 {
        self.dropped
    }

    /// The tracks as the binder takes them.
    pub fn tracks(&self) -> impl Iterator<Item = Track<'_>> + Clone {
        let format = self.format;
        self.tracks.iter().map(move |t| t.track(format))
    }

    /// The tracks of the animation of `data` named `name` (compared as
    /// [`name_matches`](crate::name_matches) does), or the `index`-th without a name.
    /// [`ErrorKind::NotFound`] if none.
    pub fn find(data: &[u8], name: Option<&[u8]>, index: u32) -> Result<AnimationTracks, Error> {
        let mut finder = Finder {
            name,
            index,
            seen: 0,
            state: State::Searching,
            tracks: AnimationTracks::default(),
        };
        let result = Decoder::new().decode_slice(data, &mut finder);
        match (result, finder.state) {
            (_, State::Done) => Ok(finder.tracks),
            (Err(e), _) => Err(e),
            (Ok(()), _) => Err(Error::new(ErrorKind::NotFound, 0)),
        }
    }
}

impl Visitor for AnimationTracks {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.format = info.format;
        Flow::Continue
    }

    fn unit(&mut self, unit: &Unit<'_>) {
        self.last_offset = unit.offset;
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        let track = TrackInfo {
            index: info.index,
            name: info.name.map(Name::new),
            bone_id: info.bone_id,
            frame_count: info.frame_count,
            translation: info.has_translation(),
            offset: self.last_offset,
            extent: None,
        };
        if self.tracks.push(track).is_err() {
            self.dropped = self.dropped.saturating_add(1);
        }
        Flow::Continue
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        if self.dropped > 0 {
            return Flow::Continue;
        }
        let Some(track) = self.tracks.last_mut() else {
            return Flow::Continue;
        };
        if !track.translation {
            return Flow::Continue;
        }
        for key in frames.iter() {
            let t = key.translation;
            let (lo, hi) = track.extent.get_or_insert((t, t));
            for axis in 0..3 {
                lo[axis] = lo[axis].min(t[axis]);
                hi[axis] = hi[axis].max(t[axis]);
            }
        }
        Flow::Continue
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Searching,
    Inside,
    Done,
}

struct Finder<'n> {
    name: Option<&'n [u8]>,
    index: u32,
    seen: u32,
    state: State,
    tracks: AnimationTracks,
}

impl Visitor for Finder<'_> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.tracks.file(info)
    }

    fn unit(&mut self, unit: &Unit<'_>) {
        self.tracks.unit(unit);
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        let position = self.seen;
        self.seen += 1;
        let wanted = match self.name {
            Some(name) => crate::name_matches(info.name, name),
            None => position == self.index,
        };
        if self.state == State::Searching && wanted {
            self.state = State::Inside;
            self.tracks.begin(info, position);
        }
        Flow::Continue
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        if self.state == State::Inside {
            return self.tracks.bone(info);
        }
        Flow::Continue
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        if self.state == State::Inside {
            return self.tracks.keyframes(frames);
        }
        Flow::Continue
    }

    fn animation_end(&mut self) -> Flow {
        if self.state == State::Inside {
            self.state = State::Done;
            return Flow::Abort;
        }
        Flow::Continue
    }
}
