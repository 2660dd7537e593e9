//! The per-span type table: the dimension and shape the checker inferred for every
//! expression node it accepted, for tools that ask "what is this?" about a span (hover in the
//! language server, the studio). Recording is off unless [`check_source_with_types`] turns it
//! on, so a plain check pays one thread-local read per node.
//!
//! A thread-local recorder instead of a sink threaded through every checker: the checker runs
//! one source on one thread, and its many contexts (simulation scopes, scheme scopes, trial
//! inferences of implicit stages) all reach [`crate::infer`]'s one entry point.

use crate::Checked;
use crate::expr::Shape;
use physis_syntax::Span;
use std::cell::RefCell;
use units::Dimension;

/// One expression node's inferred type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Typed {
    /// The node's span in the source.
    pub span: Span,
    /// Its dimension (inside a scheme body, relative to the placeholder [`crate::scheme::Y`]).
    pub dim: Dimension,
    /// Its shape.
    pub shape: Shape,
}

/// Every typed node of one source, in the order the checker accepted them (inner before
/// outer; a span checked twice, as an implicit stage's trials are, has its last reading last).
#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    nodes: Vec<Typed>,
}

impl TypeTable {
    /// All nodes.
    pub fn nodes(&self) -> &[Typed] {
        &self.nodes
    }

    /// The innermost node holding the character that starts at byte `offset` (half-open: in
    /// `v₀·x` the `·` belongs to the product, not to `v₀`); its last reading when checked
    /// twice.
    pub fn innermost_at(&self, offset: usize) -> Option<&Typed> {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| (n.span.start as usize) <= offset && offset < n.span.end as usize)
            .min_by_key(|(i, n)| (n.span.len(), std::cmp::Reverse(*i)))
            .map(|(_, n)| n)
    }
}

thread_local! {
    static RECORDER: RefCell<Option<Vec<Typed>>> = const { RefCell::new(None) };
}

/// Note one accepted node (a no-op unless a recording is under way on this thread).
pub(crate) fn record(span: Span, dim: Dimension, shape: Shape) {
    RECORDER.with(|r| {
        if let Some(nodes) = r.borrow_mut().as_mut() {
            nodes.push(Typed { span, dim, shape });
        }
    });
}

/// Run `f` without recording (a module function's body is checked in its own text, whose
/// spans mean nothing in the file being recorded).
pub(crate) fn suspended<R>(f: impl FnOnce() -> R) -> R {
    let previous = RECORDER.with(|r| r.borrow_mut().take());
    let out = f();
    RECORDER.with(|r| *r.borrow_mut() = previous);
    out
}

/// [`crate::check_source`], also returning the type of every expression node it accepted.
pub fn check_source_with_types(source: &str) -> (Checked, TypeTable) {
    check_source_with_types_in(source, &crate::modules::NoFiles)
}

/// [`crate::check_source_with`] (module files from `files`), also returning the type of every
/// expression node it accepted.
pub fn check_source_with_types_in(
    source: &str,
    files: &dyn crate::modules::ModuleFiles,
) -> (Checked, TypeTable) {
    let previous = RECORDER.with(|r| r.borrow_mut().replace(Vec::new()));
    let checked = crate::check_source_with(source, files);
    let nodes = RECORDER.with(|r| std::mem::replace(&mut *r.borrow_mut(), previous));
    (
        checked,
        TypeTable {
            nodes: nodes.unwrap_or_default(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_every_node_of_a_law_and_nothing_when_off() {
        let src = "simulate S {\n  param v₀ : Velocity = 3 m/s\n  state x : Length = 0 m\n  \
                   law x' = v₀·2\n  stop when t ≥ 1 s\n}\n";
        let (checked, table) = check_source_with_types(src);
        assert!(!checked.has_errors(), "{:?}", checked.diagnostics);
        let at = src.find("v₀·2").unwrap();
        let two = table.innermost_at(at + "v₀·".len()).unwrap();
        assert_eq!(two.span.text(src), "2");
        let product = table.innermost_at(at + "v₀".len()).unwrap();
        assert_eq!(product.span.text(src), "v₀·2");
        assert_eq!(product.dim.kind_name(), Some("Velocity"));
        let name = table.innermost_at(at).unwrap();
        assert_eq!(name.span.text(src), "v₀");
        assert_eq!(name.dim.kind_name(), Some("Velocity"));
        // A plain check records nothing and leaves no recorder behind.
        crate::check_source(src);
        assert!(RECORDER.with(|r| r.borrow().is_none()));
    }
}
