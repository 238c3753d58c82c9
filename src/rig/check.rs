//! The checks against a skeleton (docs/CHECKS.md, rules `skel.*`).

use crate::check::{games_of, Finding, Games, Level, Rule};
use crate::context::{Context, Item, Name};
use crate::{AnimationInfo, BoneInfo, FileInfo, Flow, Format, Keyframes, Unit, Visitor};

use super::bind::{Binder, Binding, Host, Unbound};
use super::model::{Skeleton, MAX_FRAMES, NODE_POP, NODE_PUSH};
use super::tracks::{AnimationTracks, MAX_TRACKS};

/// The bone tags SA's ped code looks up on every ped (ped_skin_path.md §3): a skinned
/// model without one is reported by `skel.dff.missing_bone`.
pub const PED_BONE_TAGS: [i32; 23] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 21, 22, 23, 24, 31, 32, 33, 34, 41, 42, 43, 51, 52, 53,
];

/// A pelvis moving farther than this across the ground (game units, on x or y) while the
/// root does not move is reported (`skel.track.pelvis_root_motion`): idle sway stays well
/// below, a walk cycle's stride is several times more.
pub const PELVIS_TRAVEL: f32 = 0.5;

fn finding(rule: Rule, games: Games, offset: u64, context: Context, value: Option<f64>) -> Finding {
    Finding {
        rule,
        games: games.and(rule.games()),
        offset,
        context,
        value,
        limit: None,
        error: None,
    }
}

fn frame_context(skeleton: &Skeleton, frame: usize) -> Context {
    let name = skeleton
        .frames()
        .get(frame)
        .and_then(|f| f.name)
        .unwrap_or(Name::EMPTY);
    Context {
        bone: Some(Item {
            index: frame as u32,
            name,
        }),
        ..Context::default()
    }
}

/// The skeleton report of a model on its own (rules `skel.dff.*`), for `games`, each
/// finding to `sink`; returns the number of errors. DFF findings carry offset 0 and the frame
/// as their bone. Allocation-free.
pub fn check_skeleton(skeleton: &Skeleton, games: Games, mut sink: impl FnMut(&Finding)) -> u32 {
    let mut errors = 0;
    let mut emit = |f: Finding| {
        if !f.games.is_empty() {
            errors += u32::from(f.rule.level() == Level::Error);
            sink(&f);
        }
    };
    let frames = skeleton.frames();
    for (i, frame) in frames.iter().enumerate() {
        if let Some(name) = &frame.name {
            let bytes = name.as_bytes();
            let blank = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_whitespace());
            if blank(bytes.first()) || blank(bytes.last()) {
                emit(finding(
                    Rule::SkelNameBlanks,
                    games,
                    0,
                    frame_context(skeleton, i),
                    None,
                ));
            }
        }
    }
    if skeleton.is_skinned() && skeleton.nodes().is_empty() {
        emit(finding(
            Rule::SkelNoTable,
            games,
            0,
            Context::default(),
            None,
        ));
    }
    let nodes = skeleton.nodes();
    if nodes.is_empty() {
        return errors;
    }
    let node_context = |i: usize| match nodes[i].frame {
        Some(f) => frame_context(skeleton, usize::from(f)),
        None => Context::default(),
    };
    for (i, node) in nodes.iter().enumerate() {
        if node.frame.is_none() {
            emit(finding(
                Rule::SkelNodeWithoutFrame,
                games,
                0,
                Context::default(),
                Some(f64::from(node.id)),
            ));
        }
        if nodes[..i].iter().any(|n| n.id == node.id) {
            emit(finding(
                Rule::SkelDuplicateNodeId,
                games,
                0,
                node_context(i),
                Some(f64::from(node.id)),
            ));
        }
    }
    for (i, frame) in frames.iter().enumerate() {
        if let Some(id) = frame.node_id {
            // Frames of another table (or none) have ids too: only ids the model's table
            // should name, those of frames below the table's frame.
            let in_hierarchy = skeleton.hierarchy().is_some_and(|h| {
                i == usize::from(h.frame) || skeleton.is_below(i, usize::from(h.frame))
            });
            if in_hierarchy && !nodes.iter().any(|n| n.id == id) {
                emit(finding(
                    Rule::SkelFrameIdNotInTable,
                    games,
                    0,
                    frame_context(skeleton, i),
                    Some(f64::from(id)),
                ));
            }
        }
    }
    // The parents the PUSH/POP flags give (RpHAnimHierarchyUpdateMatrices), against the
    // frames'.
    let mut stack = [0usize; MAX_FRAMES];
    let mut depth = 0usize;
    let mut parent: Option<usize> = None;
    for (i, node) in nodes.iter().enumerate() {
        if let (Some(p), Some(frame)) = (parent, node.frame) {
            let frame_parent = skeleton.parent_of(usize::from(frame));
            let node_parent = nodes[p].frame.map(usize::from);
            if node_parent.is_some() && frame_parent != node_parent {
                emit(finding(
                    Rule::SkelPushPopParent,
                    games,
                    0,
                    node_context(i),
                    Some(f64::from(node.id)),
                ));
            }
        }
        let current = parent.unwrap_or(0);
        if node.flags & NODE_PUSH != 0 && depth < stack.len() {
            stack[depth] = current;
            depth += 1;
        }
        if node.flags & NODE_POP != 0 {
            // A pop at the last node is never used (real tables end with one).
            if depth == 0 && i + 1 < nodes.len() {
                emit(finding(
                    Rule::SkelPopUnderflow,
                    games,
                    0,
                    node_context(i),
                    Some(f64::from(node.id)),
                ));
                parent = Some(i);
            } else if depth > 0 {
                depth -= 1;
                parent = Some(stack[depth]);
            }
        } else {
            parent = Some(i);
        }
    }
    if skeleton.is_skinned() {
        for tag in PED_BONE_TAGS {
            if !nodes.iter().any(|n| n.id == tag) {
                emit(finding(
                    Rule::SkelMissingBone,
                    games,
                    0,
                    Context::default(),
                    Some(f64::from(tag)),
                ));
            }
        }
    }
    errors
}

/// Checks each animation of a file against a skeleton (rules `skel.track.*`,
/// `skel.model.*`): a [`Visitor`] to give the decoder, each [`Finding`] to `sink`, for the
/// games of `games` that load the file. Fixed size (about 40 KB), no allocation.
pub struct SkeletonChecker<'s, S> {
    skeleton: &'s Skeleton,
    games: Games,
    file_games: Games,
    sink: S,
    tracks: AnimationTracks,
    animations: u32,
    context: Context,
    findings: u32,
    errors: u32,
}

impl<'s, S: FnMut(&Finding)> SkeletonChecker<'s, S> {
    /// A checker of `skeleton` for `games`.
    pub fn new(skeleton: &'s Skeleton, games: Games, sink: S) -> Self {
        SkeletonChecker {
            skeleton,
            games,
            file_games: Games::ALL,
            sink,
            tracks: AnimationTracks::default(),
            animations: 0,
            context: Context::default(),
            findings: 0,
            errors: 0,
        }
    }

    /// Findings so far.
    pub fn findings(&self) -> u32 {
        self.findings
    }

    /// Error-level findings so far.
    pub fn errors(&self) -> u32 {
        self.errors
    }

    /// The sink back.
    pub fn into_sink(self) -> S {
        self.sink
    }

    fn emit(
        &mut self,
        rule: Rule,
        games: Games,
        offset: u64,
        bone: Option<usize>,
        value: Option<f64>,
    ) {
        let games = games.and(rule.games()).and(self.games).and(self.file_games);
        if games.is_empty() {
            return;
        }
        let mut context = self.context;
        context.bone = bone.and_then(|b| self.tracks.infos().get(b)).map(|t| Item {
            index: t.index,
            name: t.name.unwrap_or(Name::EMPTY),
        });
        let f = Finding {
            rule,
            games,
            offset,
            context,
            value,
            limit: None,
            error: None,
        };
        self.findings += 1;
        self.errors += u32::from(rule.level() == Level::Error);
        (self.sink)(&f);
    }

    /// The checks of the animation just gathered.
    fn check_animation(&mut self) {
        let skeleton = self.skeleton;
        let active = self.games.and(self.file_games);
        let count = self.tracks.infos().len().min(MAX_TRACKS);
        // Per host: each track's binding.
        let mut results = [[Binding::Unbound(Unbound::NoKeys); MAX_TRACKS]; 4];
        let mut moved = [[false; MAX_FRAMES]; 4];
        for (h, host) in Host::ALL.into_iter().enumerate() {
            if !active.contains(host.games()) {
                continue;
            }
            let mut binder = Binder::new(skeleton, host);
            let mut raw = [Err(Unbound::NoKeys); MAX_TRACKS];
            for (t, track) in self.tracks.tracks().enumerate().take(count) {
                raw[t] = binder.bind(&track);
            }
            for (t, info) in self.tracks.infos().iter().enumerate().take(count) {
                results[h][t] = binder.binding(info.index, raw[t]);
                if let Ok(frame) = raw[t] {
                    moved[h][usize::from(frame)] = true;
                }
            }
        }
        let root = root_frame(skeleton);
        let pelvis = skeleton
            .nodes()
            .iter()
            .find(|n| n.id == 1)
            .and_then(|n| n.frame);
        let games_where = |t: usize, test: &dyn Fn(Binding) -> bool| {
            Host::ALL
                .into_iter()
                .enumerate()
                .filter(|&(h, host)| active.contains(host.games()) && test(results[h][t]))
                .fold(Games::NONE, |g, (_, host)| g.union(host.games()))
        };
        let mut root_moves = Games::NONE;
        let mut pelvis_travel: Option<(usize, f32)> = None;
        #[allow(clippy::needless_range_loop)] // `t` indexes the tracks and every host's results
        for t in 0..count {
            let info = self.tracks.infos()[t];
            let unbound = |reason: Unbound| move |b: Binding| b == Binding::Unbound(reason);
            let plain = games_where(t, &|b| {
                matches!(b, Binding::Unbound(r) if !matches!(r,
                    Unbound::NoKeys | Unbound::NameNotInTable | Unbound::IdOnUnskinned))
            });
            self.emit(Rule::SkelTrackUnbound, plain, info.offset, Some(t), None);
            let g = games_where(t, &unbound(Unbound::NameNotInTable));
            self.emit(Rule::SkelNameNotInTable, g, info.offset, Some(t), None);
            let g = games_where(t, &unbound(Unbound::IdOnUnskinned));
            self.emit(Rule::SkelIdOnUnskinned, g, info.offset, Some(t), None);
            let g = games_where(t, &|b| matches!(b, Binding::Overridden { .. }));
            let winner = (0..4).find_map(|h| match results[h][t] {
                Binding::Overridden { by, .. } => Some(by),
                _ => None,
            });
            self.emit(
                Rule::SkelDuplicateBone,
                g,
                info.offset,
                Some(t),
                winner.map(f64::from),
            );
            if !info.translation {
                continue;
            }
            let on_root = games_where(t, &|b| {
                b.frame()
                    .is_some_and(|f| Some(f) == root || is_top(skeleton, f))
            });
            root_moves = root_moves.union(on_root);
            let off_root = games_where(t, &|b| {
                b.frame()
                    .is_some_and(|f| Some(f) != root && !is_top(skeleton, f))
            });
            let zero = info
                .extent
                .is_some_and(|(lo, hi)| lo == [0.0; 3] && hi == [0.0; 3]);
            let rule = if zero {
                Rule::SkelTranslationZero
            } else {
                Rule::SkelTranslationNonRoot
            };
            self.emit(rule, off_root, info.offset, Some(t), None);
            if let (Some(p), Some((lo, hi))) = (pelvis, info.extent) {
                let travel = (hi[0] - lo[0]).max(hi[1] - lo[1]);
                let on_pelvis = games_where(t, &|b| b.frame() == Some(p));
                if !on_pelvis.is_empty() && travel > PELVIS_TRAVEL {
                    pelvis_travel = Some((t, travel));
                }
            }
        }
        if let Some((t, travel)) = pelvis_travel {
            let g = Games::VC.union(Games::SA).union(Games::MTA);
            let still = Host::ALL
                .into_iter()
                .map(Host::games)
                .filter(|h| g.contains(*h) && !root_moves.contains(*h))
                .fold(Games::NONE, Games::union);
            let offset = self.tracks.infos()[t].offset;
            self.emit(
                Rule::SkelPelvisRootMotion,
                still,
                offset,
                Some(t),
                Some(f64::from(travel)),
            );
        }
        // Bones no track moves: one note per animation and host set, with the count.
        let bones = bone_frames(skeleton);
        for (h, host) in Host::ALL.into_iter().enumerate() {
            if !active.contains(host.games()) {
                continue;
            }
            let unmoved = bones.iter().filter(|&&f| !moved[h][usize::from(f)]).count();
            if unmoved > 0 {
                let offset = self.tracks.infos().first().map_or(0, |t| t.offset);
                self.emit(
                    Rule::SkelUnmovedBones,
                    host.games(),
                    offset,
                    None,
                    Some(unmoved as f64),
                );
            }
        }
    }
}

/// The frame of the skeleton's root bone: node 0's on a skinned model; none otherwise
/// (then every frame just below the clump's frame is a root: [`is_top`]).
fn root_frame(skeleton: &Skeleton) -> Option<u16> {
    if skeleton.is_skinned() {
        skeleton.nodes().first().and_then(|n| n.frame)
    } else {
        None
    }
}

/// Whether `frame` is the clump's frame or just below it.
fn is_top(skeleton: &Skeleton, frame: u16) -> bool {
    !skeleton.is_skinned() && (frame == 0 || skeleton.parent_of(usize::from(frame)) == Some(0))
}

/// The frames that are bones: the table's nodes' frames on a skinned model, every frame
/// below the clump's frame otherwise.
fn bone_frames(skeleton: &Skeleton) -> heapless::Vec<u16, MAX_FRAMES> {
    let mut out = heapless::Vec::new();
    if skeleton.is_skinned() {
        for node in skeleton.nodes() {
            if let Some(f) = node.frame {
                if !out.contains(&f) {
                    let _ = out.push(f);
                }
            }
        }
    } else {
        for i in 1..skeleton.frames().len() {
            if skeleton.is_below(i, 0) {
                let _ = out.push(i as u16);
            }
        }
    }
    out
}

impl<S: FnMut(&Finding)> Visitor for SkeletonChecker<'_, S> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.file_games = games_of(info.format);
        self.tracks.file(info)
    }

    fn unit(&mut self, unit: &Unit<'_>) {
        self.tracks.unit(unit);
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.context.animation = Some(Item {
            index: self.animations,
            name: Name::new(info.name),
        });
        self.tracks.begin(info, self.animations);
        self.animations += 1;
        Flow::Continue
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.tracks.bone(info)
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.tracks.keyframes(frames)
    }

    fn animation_end(&mut self) -> Flow {
        self.check_animation();
        self.context.animation = None;
        Flow::Continue
    }
}

/// What [`check_file`] checked: the input's format, the games it was checked for and whether
/// they came from the file (as [`Checker::games`](crate::check::Checker::games) and
/// [`games_from_file`](crate::check::Checker::games_from_file) say).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The input's format (`None`: not known; a version 2 archive has none).
    pub format: Option<Format>,
    /// The games it was checked for.
    pub games: Games,
    /// Whether the games came from the file.
    pub from_file: bool,
}

/// Checks one input held in memory, named `name` (its stem is the block name the game
/// expects), for `games` (`None`: the games the file is for), each finding to `sink`, as
/// `gtastream check` and the bindings' `check()` do:
///
/// - a model (DFF): any decoding error, then its skeleton report ([`check_skeleton`]), for
///   the games its RenderWare version is for ([`model_games`](super::model_games)) or those
///   named;
/// - any other file: the [`Checker`](crate::check::Checker)'s findings, then, with a
///   `skeleton`, each animation against it ([`SkeletonChecker`]) for the games the checker
///   checked the file for;
/// - a version 2 archive (`VER2`): every entry checked (the skeleton is not used).
///
/// Allocation-free (the skeleton of a model is built on the stack).
pub fn check_file(
    data: &[u8],
    name: &[u8],
    games: Option<Games>,
    skeleton: Option<&Skeleton>,
    mut sink: impl FnMut(&Finding),
) -> Checked {
    use crate::archive::ArchiveDecoder;
    use crate::check::Checker;
    use crate::Decoder;

    let archive = data.starts_with(b"VER2");
    let (mut checked, decoded) = {
        let mut checker = Checker::with_games(games, |f: &Finding| sink(f));
        // An archive's name says whether it holds cutscenes (`cuts.img`).
        match archive {
            true => checker.set_archive_name(name),
            false => checker.set_file_name(name),
        }
        let failed = if archive {
            ArchiveDecoder::new(data.len() as u64).decode_slice(data, &mut checker)
        } else {
            // A single game named fixes the text IPL layout, as everywhere.
            let options = crate::Options {
                game: games.and_then(Games::layout),
                ..crate::Options::default()
            };
            Decoder::with_options(options).decode_slice(data, &mut checker)
        };
        let decoded = failed.is_ok();
        if let Err(error) = failed {
            checker.failed(error);
        }
        checker.finish();
        let checked = Checked {
            format: if archive { None } else { checker.format() },
            games: checker.games(),
            from_file: checker.games_from_file(),
        };
        (checked, decoded)
    };
    let format = checked.format;
    if archive {
        return checked;
    }
    if format == Some(Format::Dff) {
        if !decoded {
            checked.games = games.unwrap_or(Games::ALL);
            return checked;
        }
        let model = match super::read_skeleton(data) {
            Ok(model) => model,
            Err(_) => return checked,
        };
        let for_games = games.unwrap_or_else(|| super::model_games(model.rw_version()));
        check_skeleton(&model, for_games, &mut sink);
        checked.games = for_games;
        return checked;
    }
    if let Some(skeleton) = skeleton {
        let mut on_model = SkeletonChecker::new(skeleton, checked.games, &mut sink);
        // The file decoded as far as the checker said; the skeleton checks take what decodes.
        let _ = Decoder::new().decode_slice(data, &mut on_model);
    }
    checked
}
