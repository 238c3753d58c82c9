//! Binding an animation's tracks to a skeleton's frames as each game binds them
//! (docs/SKELETON.md §2).

use crate::check::Games;
use crate::context::Name;
use crate::{BoneInfo, Format};

use super::model::{Skeleton, MAX_FRAMES};

/// The game (or host) whose binding rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host {
    /// GTA III: by frame name only.
    Iii,
    /// Vice City: by HAnim id when the track has one, else by name.
    ViceCity,
    /// San Andreas (the executable's reading).
    SanAndreas,
    /// MTA:SA: its loader turns names into ids, then San Andreas binds.
    Mta,
}

impl Host {
    /// Every host, in the order III, VC, SA, MTA.
    pub const ALL: [Host; 4] = [Host::Iii, Host::ViceCity, Host::SanAndreas, Host::Mta];

    /// The host of a single game of [`Games`] (`None` for an empty or larger set).
    pub fn from_games(games: Games) -> Option<Host> {
        Host::ALL.into_iter().find(|h| h.games() == games)
    }

    /// The game as a [`Games`] set of one.
    pub const fn games(self) -> Games {
        match self {
            Host::Iii => Games::III,
            Host::ViceCity => Games::VC,
            Host::SanAndreas => Games::SA,
            Host::Mta => Games::MTA,
        }
    }

    /// `iii`, `vc`, `sa` or `mta` (as `--game`).
    pub fn name(self) -> &'static str {
        Games::EACH
            .iter()
            .find(|(g, _)| *g == self.games())
            .map_or("", |(_, n)| n)
    }
}

/// A track of an animation, as the binder needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Track<'a> {
    /// Its position in the animation.
    pub index: u32,
    /// Its name as stored (up to the first NUL).
    pub name: Option<&'a [u8]>,
    /// The bone id as stored (`BoneInfo::bone_id`).
    pub bone_id: Option<i32>,
    /// Its keyframes.
    pub frame_count: u32,
    /// Whether its keys carry a translation.
    pub translation: bool,
    /// The file's format (ANPK keeps an id only in a 44-byte ANIM chunk and SA then always
    /// binds by it; IFP2 stores −1 for "by name").
    pub format: Format,
}

impl<'a> Track<'a> {
    /// The track of a decoded bone.
    pub fn from_info(info: &BoneInfo<'a>, format: Format) -> Track<'a> {
        Track {
            index: info.index,
            name: info.name,
            bone_id: info.bone_id,
            frame_count: info.frame_count,
            translation: info.has_translation(),
            format,
        }
    }

    /// The id the host binds by, if it binds this track by id.
    fn tag(&self, host: Host) -> Option<i32> {
        match (host, self.format) {
            (Host::Iii, _) => None,
            // San Andreas sets the tag from every 44-byte ANIM chunk, −1 included.
            (Host::SanAndreas, Format::Anpk) => self.bone_id,
            _ => self.bone_id.filter(|&id| id != -1),
        }
    }
}

/// Why a track drives no frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unbound {
    /// It has no keyframes: the games bind none.
    NoKeys,
    /// It has neither an id nor a name.
    NoName,
    /// It binds by id and no node of the model's HAnim table has that id.
    NoSuchId,
    /// It binds by id and the id does not survive San Andreas' 16-bit compare (0x8000 and
    /// above never equal a node id).
    IdOutOfRange,
    /// It binds by id and the model is not skinned: ids never bind there.
    IdOnUnskinned,
    /// The model is skinned and the name is not in the engine's table of bone names (the
    /// DFF's frame names are not used); on MTA, not in its loader's table.
    NameNotInTable,
    /// The name is the engine's name of a bone the model lacks (skinned), or no frame of the
    /// model has the name (unskinned).
    NoSuchName,
    /// The model is skinned but has no HAnim table (San Andreas does not load it).
    NoTable,
    /// It binds to a node of the HAnim table whose id no frame carries: nothing to pose.
    NodeWithoutFrame,
}

impl Unbound {
    /// Every reason, in the order of the enum.
    pub const ALL: [Unbound; 9] = [
        Unbound::NoKeys,
        Unbound::NoName,
        Unbound::NoSuchId,
        Unbound::IdOutOfRange,
        Unbound::IdOnUnskinned,
        Unbound::NameNotInTable,
        Unbound::NoSuchName,
        Unbound::NoTable,
        Unbound::NodeWithoutFrame,
    ];

    /// A short stable name (`no_such_id`): the JSON's and the bindings'.
    pub const fn name(self) -> &'static str {
        match self {
            Unbound::NoKeys => "no_keys",
            Unbound::NoName => "no_name",
            Unbound::NoSuchId => "no_such_id",
            Unbound::IdOutOfRange => "id_out_of_range",
            Unbound::IdOnUnskinned => "id_on_unskinned",
            Unbound::NameNotInTable => "name_not_in_table",
            Unbound::NoSuchName => "no_such_name",
            Unbound::NoTable => "no_table",
            Unbound::NodeWithoutFrame => "node_without_frame",
        }
    }

    /// The reason of a [`name`](Self::name).
    pub fn named(name: &str) -> Option<Unbound> {
        Unbound::ALL.into_iter().find(|u| u.name() == name)
    }
}

/// What a track does on a skeleton.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// It drives the frame of this index.
    Drives(u16),
    /// It binds to the frame, but a later track binds there too and wins.
    Overridden {
        /// The frame.
        frame: u16,
        /// The winning track's index.
        by: u32,
    },
    /// It drives nothing.
    Unbound(Unbound),
}

impl Binding {
    /// The frame the track drives, if it does.
    pub fn frame(self) -> Option<u16> {
        match self {
            Binding::Drives(f) => Some(f),
            _ => None,
        }
    }
}

/// San Andreas' fixed tag→name table (`ConvertBoneTag2BoneName`, 0x4D56F0; gta-reversed
/// `RpAnimBlend.cpp`): the names a skinned model's bones answer to.
pub const SA_BONE_NAMES: &[(i32, &str)] = &[
    (0, "Root"),
    (1, "Pelvis"),
    (2, "Spine"),
    (3, "Spine1"),
    (4, "Neck"),
    (5, "Head"),
    (6, "L Brow"),
    (7, "R Brow"),
    (8, "Jaw"),
    (21, "Bip01 R Clavicle"),
    (22, "R UpperArm"),
    (23, "R Forearm"),
    (24, "R Hand"),
    (25, "R Fingers"),
    (26, "R Finger01"),
    (31, "Bip01 L Clavicle"),
    (32, "L UpperArm"),
    (33, "L Forearm"),
    (34, "L Hand"),
    (35, "L Fingers"),
    (36, "L Finger01"),
    (41, "L Thigh"),
    (42, "L Calf"),
    (43, "L Foot"),
    (44, "L Toe"),
    (51, "R Thigh"),
    (52, "R Calf"),
    (53, "R Foot"),
    (54, "R Toe"),
    (201, "Belly"),
    (301, "R Breast"),
    (302, "L Breast"),
];

/// Vice City's table (reVC `animation/RpAnimBlend.cpp` `ConvertBoneTag2BoneName`).
pub const VC_BONE_NAMES: &[(i32, &str)] = &[
    (0, "Root"),
    (1, "Pelvis"),
    (2, "Spine"),
    (3, "Spine1"),
    (4, "Neck"),
    (5, "Head"),
    (21, "Bip01 R Clavicle"),
    (22, "R UpperArm"),
    (23, "R Forearm"),
    (24, "R Hand"),
    (25, "R Fingers"),
    (31, "Bip01 L Clavicle"),
    (32, "L UpperArm"),
    (33, "L Forearm"),
    (34, "L Hand"),
    (35, "L Fingers"),
    (41, "L Thigh"),
    (42, "L Calf"),
    (43, "L Foot"),
    (51, "R Thigh"),
    (52, "R Calf"),
    (53, "R Foot"),
];

/// MTA's loader (`CClientIFP::GetBoneIDFromName`): a name, lower-cased with its spaces
/// removed, to the id it binds by (GTA III's frame names included).
pub const MTA_BONE_NAMES: &[(&str, i32)] = &[
    ("root", 0),
    ("normal", 0),
    ("pelvis", 1),
    ("spine", 2),
    ("spine1", 3),
    ("neck", 4),
    ("head", 5),
    ("jaw", 8),
    ("lbrow", 6),
    ("rbrow", 7),
    ("bip01lclavicle", 31),
    ("lupperarm", 32),
    ("lforearm", 33),
    ("lhand", 34),
    ("lfingers", 35),
    ("lfinger", 35),
    ("lfinger01", 36),
    ("bip01rclavicle", 21),
    ("rupperarm", 22),
    ("rforearm", 23),
    ("rhand", 24),
    ("rfingers", 25),
    ("rfinger", 25),
    ("rfinger01", 26),
    ("lbreast", 302),
    ("rbreast", 301),
    ("belly", 201),
    ("lthigh", 41),
    ("lcalf", 42),
    ("lfoot", 43),
    ("ltoe0", 44),
    ("rthigh", 51),
    ("rcalf", 52),
    ("rfoot", 53),
    ("rtoe0", 54),
    ("player", 0),
    ("swaist", 1),
    ("smid", 2),
    ("storso", 3),
    ("shead", 5),
    ("supperarml", 32),
    ("slowerarml", 33),
    ("supperarmr", 22),
    ("slowerarmr", 23),
    ("srhand", 24),
    ("slhand", 34),
    ("supperlegr", 51),
    ("slowerlegr", 52),
    ("sfootr", 53),
    ("supperlegl", 41),
    ("slowerlegl", 42),
    ("sfootl", 43),
];

/// The engine's table of bone names for a skinned model (`None`: the host binds by frame
/// names only).
pub fn engine_names(host: Host) -> Option<&'static [(i32, &'static str)]> {
    match host {
        Host::Iii => None,
        Host::ViceCity => Some(VC_BONE_NAMES),
        Host::SanAndreas | Host::Mta => Some(SA_BONE_NAMES),
    }
}

/// The id a name has in `host`'s table, compared as the engine compares (ASCII case aside,
/// blanks kept).
pub fn engine_tag(host: Host, name: &[u8]) -> Option<i32> {
    engine_names(host)?
        .iter()
        .find(|(_, n)| n.as_bytes().eq_ignore_ascii_case(name))
        .map(|&(id, _)| id)
}

/// The id MTA's loader gives a name: lower-cased, spaces removed, looked up in
/// [`MTA_BONE_NAMES`].
pub fn mta_tag(name: &[u8]) -> Option<i32> {
    let mut key = [0u8; 32];
    let mut n = 0;
    for &b in name.iter().filter(|&&b| b != b' ') {
        *key.get_mut(n)? = b.to_ascii_lowercase();
        n += 1;
    }
    let key = &key[..n];
    MTA_BONE_NAMES
        .iter()
        .find(|(k, _)| k.as_bytes() == key)
        .map(|&(_, id)| id)
}

/// Binds tracks to one skeleton for one host, remembering which track each frame ends up
/// with (the later of two wins). Fixed size, no allocation.
///
/// ```
/// use gtastream::rig::{Binder, Binding, Host, Skeleton, Track, Unbound};
/// use gtastream::Format;
///
/// let skeleton = Skeleton::new();
/// let mut binder = Binder::new(&skeleton, Host::SanAndreas);
/// let track = Track {
///     index: 0,
///     name: Some(b"Pelvis"),
///     bone_id: Some(1),
///     frame_count: 2,
///     translation: false,
///     format: Format::Anp3,
/// };
/// assert_eq!(binder.bind(&track), Err(Unbound::IdOnUnskinned));
/// ```
#[derive(Clone, Debug)]
pub struct Binder<'s> {
    skeleton: &'s Skeleton,
    host: Host,
    winners: [Option<u32>; MAX_FRAMES],
}

impl<'s> Binder<'s> {
    /// A binder of no tracks yet.
    pub fn new(skeleton: &'s Skeleton, host: Host) -> Binder<'s> {
        Binder {
            skeleton,
            host,
            winners: [None; MAX_FRAMES],
        }
    }

    /// The skeleton.
    pub fn skeleton(&self) -> &'s Skeleton {
        self.skeleton
    }

    /// The host.
    pub fn host(&self) -> Host {
        self.host
    }

    /// Binds `track` (tracks in file order): the frame it binds to, which it now holds, or
    /// why none.
    pub fn bind(&mut self, track: &Track<'_>) -> Result<u16, Unbound> {
        let frame = resolve(self.skeleton, self.host, track)?;
        if let Some(w) = self.winners.get_mut(usize::from(frame)) {
            *w = Some(track.index);
        }
        Ok(frame)
    }

    /// The track that holds `frame` (the last bound to it).
    pub fn winner(&self, frame: u16) -> Option<u32> {
        *self.winners.get(usize::from(frame))?
    }

    /// The final binding of a track once every track is bound: `result` is what
    /// [`bind`](Self::bind) returned for it.
    pub fn binding(&self, track: u32, result: Result<u16, Unbound>) -> Binding {
        match result {
            Err(reason) => Binding::Unbound(reason),
            Ok(frame) => match self.winner(frame) {
                Some(by) if by != track => Binding::Overridden { frame, by },
                _ => Binding::Drives(frame),
            },
        }
    }
}

/// Binds every track of `tracks` (an iterator walked twice) and hands each final binding to
/// `f`, in track order.
pub fn bind_all<'t, I>(
    skeleton: &Skeleton,
    host: Host,
    tracks: I,
    mut f: impl FnMut(&Track<'t>, Binding),
) where
    I: IntoIterator<Item = Track<'t>>,
    I::IntoIter: Clone,
{
    let tracks = tracks.into_iter();
    let mut binder = Binder::new(skeleton, host);
    for track in tracks.clone() {
        let _ = binder.bind(&track);
    }
    for track in tracks {
        let result = resolve(skeleton, host, &track);
        f(&track, binder.binding(track.index, result));
    }
}

/// The frame a track binds to on its own (before later tracks are seen).
pub fn resolve(skeleton: &Skeleton, host: Host, track: &Track<'_>) -> Result<u16, Unbound> {
    if track.frame_count == 0 {
        return Err(Unbound::NoKeys);
    }
    let skinned = host != Host::Iii && skeleton.is_skinned();
    let tag = match host {
        Host::Mta => {
            // MTA's loader turns a name into an id (ANPK: always; IFP2: without one) and
            // drops a name it does not know.
            let stored = match track.format {
                Format::Anpk => None,
                _ => track.tag(host),
            };
            match stored {
                Some(id) => Some(id),
                None => {
                    let name = track.name.ok_or(Unbound::NoName)?;
                    Some(mta_tag(name).ok_or(Unbound::NameNotInTable)?)
                }
            }
        }
        _ => track.tag(host),
    };
    if let Some(id) = tag {
        if !skinned {
            return Err(Unbound::IdOnUnskinned);
        }
        if skeleton.nodes().is_empty() {
            return Err(Unbound::NoTable);
        }
        // SA (and MTA, which hands SA the id) compares the id as a sign-extended 16-bit
        // value; VC compares it whole.
        let key = match host {
            Host::SanAndreas | Host::Mta => i32::from(id as i16),
            _ => id,
        };
        return match node_frame(skeleton, |node_id| node_id == key) {
            Some(found) => found,
            None if key != id => Err(Unbound::IdOutOfRange),
            None => Err(Unbound::NoSuchId),
        };
    }
    let name = track.name.ok_or(Unbound::NoName)?;
    if skinned {
        if skeleton.nodes().is_empty() {
            return Err(Unbound::NoTable);
        }
        let tag = engine_tag(host, name).ok_or(Unbound::NameNotInTable)?;
        return node_frame(skeleton, |id| id == tag).unwrap_or(Err(Unbound::NoSuchName));
    }
    frame_by_name(skeleton, name).ok_or(Unbound::NoSuchName)
}

/// The last node of the table whose id passes `matches` (the engine keeps the last match),
/// as its frame.
fn node_frame(skeleton: &Skeleton, matches: impl Fn(i32) -> bool) -> Option<Result<u16, Unbound>> {
    let node = skeleton.nodes().iter().rev().find(|n| matches(n.id))?;
    Some(node.frame.ok_or(Unbound::NodeWithoutFrame))
}

/// The frame an unskinned model's name binds to: among the frames below the clump's frame
/// (frame 0), walked as the engine walks them, the last whose name equals `name` (ASCII case
/// aside, blanks kept).
pub fn frame_by_name(skeleton: &Skeleton, name: &[u8]) -> Option<u16> {
    let mut found = None;
    skeleton.walk(|f| {
        let i = usize::from(f);
        if i == 0 || !skeleton.is_below(i, 0) {
            return;
        }
        let frame = &skeleton.frames()[i];
        if frame
            .name
            .as_ref()
            .is_some_and(|n: &Name| n.as_bytes().eq_ignore_ascii_case(name))
        {
            found = Some(f);
        }
    });
    found
}
