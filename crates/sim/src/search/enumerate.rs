//! Every order class of one more fault on a run ([`Classes`]): for each template, each of its
//! starts with its sizes walked ([`Walk`]), and where the actor it stops is working, each size
//! class with its start walked across the work (a pause that begins later in the work leaves
//! less of it for after), and then the sizes again at each start where that walk saw the run
//! change. The search proposes, runs and tells, one schedule at a time, so that it can stop
//! between any two.

use crate::scenario::Fault;
use crate::time::Millis;

use super::classes::{Shape, Template, Walk};

/// One schedule to run: the template's faults at a start and a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proposal {
    pub template: usize,
    pub start: Millis,
    pub size: Millis,
}

#[derive(Clone, Debug)]
enum Stage {
    /// Walking the sizes at `starts[start]`; every size run there (each side of each change of
    /// order: a change that does not show at a span's first millisecond can show later in it).
    Sizes { start: usize, walk: Walk, firsts: Vec<(u64, Millis)> },
    /// Walking the start across `spans[span]` at the `rep`-th size class found at its first
    /// millisecond; the behaviour of the last run.
    Starts { span: usize, rep: usize, walk: Walk, last: Option<u64> },
}

/// The order classes of one fault more on a run (see the module's comment).
#[derive(Clone, Debug)]
pub struct Classes {
    pub templates: Vec<Template>,
    end: Millis,
    template: usize,
    stage: Stage,
    /// For each span of the current template, the sizes that begin a class at its start.
    reps: Vec<Vec<Millis>>,
    /// Places walked (a start's sizes, or a span's starts at one size), and in all so far.
    pub walked: usize,
    /// The largest size walked.
    most: Millis,
    /// Starts inside the current template's spans where a walk of the start saw the run change:
    /// their sizes are walked too, once the spans are (a pause's end and the work's end cross
    /// events together there, in cells a walk from the span's first millisecond does not enter).
    turns: Vec<Millis>,
    /// The current template's spans have been walked.
    spans_done: bool,
}

impl Classes {
    pub fn new(templates: Vec<Template>, end: Millis) -> Classes {
        let walk = first_walk(&templates, 0, end, end);
        let reps = templates.first().map_or(Vec::new(), |t| vec![Vec::new(); t.spans.len()]);
        let stage = Stage::Sizes { start: 0, walk, firsts: Vec::new() };
        Classes { templates, end, template: 0, stage, reps, walked: 0, most: end, turns: Vec::new(), spans_done: false }
    }

    /// The classes that start no later than `last` and are at most `most` long: a window of the
    /// whole (`tests/search_classes.rs` compares a window with every schedule in it).
    pub fn within(mut self, last: Millis, most: Millis) -> Classes {
        for t in &mut self.templates {
            t.starts.retain(|&s| s <= last);
            t.spans.retain_mut(|s| {
                s.1 = s.1.min(Millis::new(last.get() + 1));
                s.1 > Millis::new(s.0.get() + 1)
            });
        }
        self.most = most;
        self.stage = Stage::Sizes { start: 0, walk: first_walk(&self.templates, 0, self.end, most), firsts: Vec::new() };
        self
    }

    /// The places in all: each template's starts, plus its spans (each walked at every size
    /// class its first millisecond has, a number known only once walked).
    pub fn places(&self) -> usize {
        self.templates.iter().map(|t| t.starts.len() + t.spans.len()).sum()
    }

    /// The template being walked (how far the enumeration is: templates before it are done).
    pub fn at_template(&self) -> usize {
        self.template
    }

    /// The next schedule to run, or `None` when every class has been run.
    pub fn propose(&mut self) -> Option<Proposal> {
        loop {
            let t = self.templates.get(self.template)?;
            match &self.stage {
                Stage::Sizes { start, walk, .. } => {
                    if let Some(size) = walk.propose() {
                        return Some(Proposal { template: self.template, start: t.starts[*start], size });
                    }
                    self.next_start();
                }
                Stage::Starts { span, rep, walk, .. } => {
                    if let (Some(o), Some(size)) = (walk.propose(), self.reps[*span].get(*rep)) {
                        return Some(Proposal {
                            template: self.template,
                            start: Millis::new(t.spans[*span].0.get() + o.get()),
                            size: *size,
                        });
                    }
                    self.next_span_walk();
                }
            }
        }
    }

    /// How the proposed schedule's run went.
    pub fn tell(&mut self, shape: Option<Shape>) {
        let sized = self.templates[self.template].knob != super::classes::Knob::None;
        match &mut self.stage {
            Stage::Sizes { walk, firsts, .. } => {
                let size = walk.propose().unwrap_or(Millis::new(1));
                if let Some(s) = &shape {
                    firsts.push((s.behaviour, size));
                }
                if sized {
                    walk.tell(shape);
                } else {
                    // One run: there is no size to walk.
                    walk.finish();
                }
            }
            Stage::Starts { span, walk, last, .. } => {
                let at = walk.propose().map(|o| Millis::new(self.templates[self.template].spans[*span].0.get() + o.get()));
                let now = shape.as_ref().map(|s| s.behaviour);
                if let (Some(at), Some(_), true) = (at, *last, now.is_some() && now != *last) {
                    self.turns.push(at);
                }
                *last = now.or(*last);
                walk.tell(shape);
            }
        }
    }

    /// The faults of a proposal.
    pub fn faults(&self, p: Proposal) -> Vec<Fault> {
        self.templates[p.template].at(p.start, p.size)
    }

    fn next_start(&mut self) {
        let Stage::Sizes { start, firsts, .. } = &mut self.stage else { return };
        let t = &self.templates[self.template];
        // The size classes at a span's first millisecond are the sizes its start walks at.
        if let Some(i) = t.spans.iter().position(|s| Some(&s.0) == t.starts.get(*start)) {
            self.reps[i] = firsts.iter().map(|(_, size)| *size).collect();
        }
        self.walked += 1;
        let next = *start + 1;
        if next < t.starts.len() {
            self.stage =
                Stage::Sizes { start: next, walk: Walk::new(t.max_size(t.starts[next], self.end).min(self.most)), firsts: Vec::new() };
        } else if !self.spans_done {
            self.span_walk(0, 0);
        } else {
            self.next_template();
        }
    }

    fn next_span_walk(&mut self) {
        let Stage::Starts { span, rep, .. } = self.stage else { return };
        if rep + 1 < self.reps[span].len() {
            self.span_walk(span, rep + 1);
        } else {
            self.walked += 1;
            self.span_walk(span + 1, 0);
        }
    }

    /// Walks span `span` at size class `rep`, skipping spans with no size class; past the last
    /// span, the next template.
    fn span_walk(&mut self, mut span: usize, rep: usize) {
        let t = &self.templates[self.template];
        while span < t.spans.len() && self.reps[span].is_empty() {
            span += 1;
        }
        if span < t.spans.len() {
            let (from, to) = t.spans[span];
            let walk = Walk::new(Millis::new(to.get().saturating_sub(from.get() + 1).max(1)));
            self.stage = Stage::Starts { span, rep, walk, last: None };
            return;
        }
        self.spans_done = true;
        let mut turns = std::mem::take(&mut self.turns);
        crate::sort::by(&mut turns, Ord::cmp);
        turns.dedup();
        let t = &mut self.templates[self.template];
        turns.retain(|s| !t.starts.contains(s));
        if let Some(&first) = turns.first() {
            let start = t.starts.len();
            t.starts.extend(turns);
            self.stage = Stage::Sizes { start, walk: Walk::new(t.max_size(first, self.end).min(self.most)), firsts: Vec::new() };
            return;
        }
        self.next_template();
    }

    fn next_template(&mut self) {
        self.spans_done = false;
        self.turns.clear();
        self.template += 1;
        self.reps = self.templates.get(self.template).map_or(Vec::new(), |t| vec![Vec::new(); t.spans.len()]);
        self.stage = Stage::Sizes { start: 0, walk: first_walk(&self.templates, self.template, self.end, self.most), firsts: Vec::new() };
    }
}

/// The walk of a template's first start (none for a template without starts).
fn first_walk(templates: &[Template], i: usize, end: Millis, most: Millis) -> Walk {
    match templates.get(i) {
        Some(t) if !t.starts.is_empty() => Walk::new(t.max_size(t.starts[0], end).min(most)),
        _ => Walk::done(),
    }
}
