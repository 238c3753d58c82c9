//! Findings grouped for people to read, defined once for every front end (the command line's
//! text, the JSON document's `groups` and `summary`, the bindings, the inspector).
//!
//! A [`Grouping`] takes the findings of one input as they come and keeps, for each rule, one
//! [`Group`]: how many findings, in how many animations and archive entries, the games they
//! concern, and the first. A group of at most [`LISTED`] findings is shown finding by finding;
//! a larger one as one line with its count ("769 times in 330 animations"). A [`Tally`]
//! counts the findings by level, overall and per game. The state is fixed (one slot per rule):
//! no allocation, however many findings come.

use core::fmt::{self, Write};

use super::{Finding, Games, Level, Rule};

/// Groups of at most this many findings are shown finding by finding.
pub const LISTED: u32 = 3;

/// Rules in the table: one group slot each.
const RULES: usize = Rule::ALL.len();

/// The findings of one rule in one input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Group {
    /// The rule (and so the level).
    pub rule: Rule,
    /// The games any of the findings concern.
    pub games: Games,
    /// Findings.
    pub count: u32,
    /// Distinct animations the findings fall in (0: none is in an animation).
    pub animations: u32,
    /// Distinct archive entries the findings fall in (0: not in an archive).
    pub entries: u32,
    /// The first finding.
    pub first: Finding,
    /// The first finding's position among the input's findings (from 0).
    pub first_index: u32,
}

impl Group {
    /// The group's level (its rule's).
    pub fn level(&self) -> Level {
        self.rule.level()
    }

    /// Whether the group is shown finding by finding (at most [`LISTED`]), not as one line.
    pub fn listed(&self) -> bool {
        self.count <= LISTED
    }

    /// The one line of a group that is not listed: `FILE[:ENTRY]: LEVEL RULE (GAMES) N times
    /// in M animations, first at OFFSET, animation ...: reason`, without line break (the
    /// entry is the first finding's).
    pub fn write_line(&self, out: &mut impl Write, file: &str) -> fmt::Result {
        out.write_str(file)?;
        if let Some(entry) = &self.first.context.entry {
            write!(out, ":{}", entry.name)?;
        }
        write!(
            out,
            ": {} {} ({}) {}, first at {}",
            self.level().name(),
            self.rule.id(),
            self.games,
            Spread(self),
            self.first.offset
        )?;
        let mut place = self.first.context;
        place.entry = None;
        if place.animation.is_some() || place.line.is_some() {
            write!(out, ", {place}")?;
        }
        write!(out, ": {}", self.first)
    }

    /// `N times in M animations of K entries`: how far the group reaches.
    pub fn spread(&self) -> impl fmt::Display + '_ {
        Spread(self)
    }
}

struct Spread<'a>(&'a Group);

impl fmt::Display for Spread<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.0;
        let plural = |n: u32| if n == 1 { "" } else { "s" };
        write!(f, "{} time{}", g.count, plural(g.count))?;
        if g.animations > 0 {
            write!(f, " in {} animation{}", g.animations, plural(g.animations))?;
            if g.entries > 1 {
                write!(f, " of {} entries", g.entries)?;
            }
        } else if g.entries > 1 {
            write!(f, " in {} entries", g.entries)?;
        }
        Ok(())
    }
}

/// Findings counted by level: `[errors, warnings, notes]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Error findings.
    pub errors: u32,
    /// Warning findings.
    pub warnings: u32,
    /// Note findings.
    pub notes: u32,
}

impl Counts {
    fn add(&mut self, level: Level) {
        let n = match level {
            Level::Error => &mut self.errors,
            Level::Warning => &mut self.warnings,
            Level::Note => &mut self.notes,
        };
        *n = n.saturating_add(1);
    }

    /// Findings of every level.
    pub fn total(&self) -> u32 {
        self.errors
            .saturating_add(self.warnings)
            .saturating_add(self.notes)
    }
}

impl fmt::Display for Counts {
    /// `1 error, 2 warnings, 0 notes`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |n: u32| if n == 1 { "" } else { "s" };
        write!(
            f,
            "{} error{}, {} warning{}, {} note{}",
            self.errors,
            plural(self.errors),
            self.warnings,
            plural(self.warnings),
            self.notes,
            plural(self.notes)
        )
    }
}

/// The findings of one input by level, overall and per game (a finding counts for each game
/// it concerns).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Every finding.
    pub all: Counts,
    /// Per game, in the order of [`Games::EACH`].
    pub games: [Counts; 4],
}

impl Tally {
    /// Counts `finding`.
    pub fn add(&mut self, finding: &Finding) {
        let level = finding.level();
        self.all.add(level);
        for (counts, (game, _)) in self.games.iter_mut().zip(Games::EACH) {
            if finding.games.contains(game) {
                counts.add(level);
            }
        }
    }

    /// The counts of each game in `games`, with its name.
    pub fn by_game(&self, games: Games) -> impl Iterator<Item = (&'static str, Counts)> + '_ {
        self.games
            .iter()
            .zip(Games::EACH)
            .filter(move |(_, (game, _))| games.contains(*game))
            .map(|(counts, (_, name))| (name, *counts))
    }

    /// The summary line `FILE: N errors, N warnings, N notes (sa: ...; mta: ...)` for the
    /// games checked (`games`), without line break.
    pub fn write_line(&self, out: &mut impl Write, file: &str, games: Games) -> fmt::Result {
        write!(out, "{file}: {}", self.all)?;
        for (i, (name, counts)) in self.by_game(games).enumerate() {
            out.write_str(if i == 0 { " (" } else { "; " })?;
            write!(out, "{name}: {counts}")?;
        }
        if !games.is_empty() {
            out.write_char(')')?;
        }
        Ok(())
    }
}

/// The group slot of one rule, with what tells animations and entries apart.
#[derive(Clone, Copy, Debug)]
struct Slot {
    group: Group,
    /// (entry index, animation index) of the last finding counted as an animation.
    last_animation: Option<(Option<u32>, u32)>,
    last_entry: Option<u32>,
}

/// Groups the findings of one input (module documentation).
#[derive(Clone, Debug)]
pub struct Grouping {
    slots: [Option<Slot>; RULES],
    /// Rule indexes in the order their first finding came.
    order: [u16; RULES],
    len: usize,
    tally: Tally,
}

impl Default for Grouping {
    fn default() -> Self {
        Self::new()
    }
}

impl Grouping {
    /// No findings yet.
    pub const fn new() -> Self {
        Grouping {
            slots: [None; RULES],
            order: [0; RULES],
            len: 0,
            tally: Tally {
                all: Counts {
                    errors: 0,
                    warnings: 0,
                    notes: 0,
                },
                games: [Counts {
                    errors: 0,
                    warnings: 0,
                    notes: 0,
                }; 4],
            },
        }
    }

    /// Adds a finding (findings come in the order the checker gives them).
    pub fn add(&mut self, finding: &Finding) {
        self.tally.add(finding);
        let index = Rule::ALL
            .iter()
            .position(|&r| r == finding.rule)
            .unwrap_or(0);
        let c = &finding.context;
        let entry = c.entry.map(|e| e.index);
        let animation = c.animation.map(|a| (entry, a.index));
        match &mut self.slots[index] {
            Some(slot) => {
                let g = &mut slot.group;
                g.count = g.count.saturating_add(1);
                g.games = g.games.union(finding.games);
                if animation.is_some() && animation != slot.last_animation {
                    g.animations += 1;
                    slot.last_animation = animation;
                }
                if entry.is_some() && entry != slot.last_entry {
                    g.entries += 1;
                    slot.last_entry = entry;
                }
            }
            empty => {
                *empty = Some(Slot {
                    group: Group {
                        rule: finding.rule,
                        games: finding.games,
                        count: 1,
                        animations: u32::from(animation.is_some()),
                        entries: u32::from(entry.is_some()),
                        first: *finding,
                        first_index: self.tally.all.total() - 1,
                    },
                    last_animation: animation,
                    last_entry: entry,
                });
                self.order[self.len] = index as u16;
                self.len += 1;
            }
        }
    }

    /// The groups, in the order of their first findings.
    pub fn groups(&self) -> impl Iterator<Item = &Group> + '_ {
        self.order[..self.len]
            .iter()
            .filter_map(|&i| self.slots[usize::from(i)].as_ref().map(|s| &s.group))
    }

    /// The counts by level.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Forgets every finding (a new input).
    pub fn clear(&mut self) {
        *self = Self::new();
    }
}
