//! The arena: hash-consed nodes, declared symbols, and the source origins of nodes.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};

use physis_syntax::Span;

use crate::node::{Node, NodeId, OpaqueId, Symbol, SymbolId};
use crate::number::Number;

/// A fast non-cryptographic hasher (the rustc "Fx" mix): node keys are ours, not an attacker's.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(buf));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;
pub(crate) type FxMap<K, V> = HashMap<K, V, FxBuild>;
pub(crate) type FxSet<K> = HashSet<K, FxBuild>;

/// Most nodes one graph stores (docs/limits.md, Derivation): past it the derivation is
/// refused (PH0121). A second derivative of a product of k factors has about k³ nodes, so
/// the bound is reached by a long product's mass matrix long before memory runs out.
pub const MAX_DERIVED_NODES: usize = 2_000_000;

/// Most work a derivation may plan (docs/limits.md, Derivation): coordinates × (nodes of the
/// energies + coordinates), the number of node derivatives its mass matrix and forces take
/// at the least. Checked before any derivative is taken.
pub const MAX_DERIVATION_WORK: u64 = 1_000_000;

/// A declared symbol: its printed name and number of components.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolInfo {
    /// The name as printed (`θ'`, `v0`).
    pub name: String,
    /// Number of scalar components (1 for a scalar).
    pub len: u32,
}

/// An arena of hash-consed nodes: building a node equal to an existing one returns the
/// existing id, so equal sub-expressions are stored once and compare by id.
///
/// Ids belong to the graph that made them; passing an id of another graph is a programming
/// error (it may index out of bounds).
#[derive(Clone, Debug)]
pub struct Graph {
    nodes: Vec<Node>,
    /// Most nodes the graph stores ([`MAX_DERIVED_NODES`] unless set otherwise).
    budget: usize,
    /// Set when a node was asked for past the budget (it was not stored).
    over_budget: bool,
    /// Node hash -> ids with that hash (almost always one).
    index: FxMap<u64, Vec<NodeId>>,
    symbols: Vec<SymbolInfo>,
    opaques: Vec<String>,
    origins: FxMap<NodeId, Span>,
}

impl Default for Graph {
    fn default() -> Graph {
        Graph::new()
    }
}

impl Graph {
    /// The constant 0 (present in every graph).
    pub const ZERO: NodeId = NodeId(0);
    /// The constant 1 (present in every graph).
    pub const ONE: NodeId = NodeId(1);
    /// The constant −1 (present in every graph).
    pub const MINUS_ONE: NodeId = NodeId(2);
    /// The time `t` (present in every graph).
    pub const TIME: NodeId = NodeId(3);

    /// An empty graph holding only 0, 1, −1 and t.
    pub fn new() -> Graph {
        let mut g = Graph {
            nodes: Vec::new(),
            budget: MAX_DERIVED_NODES,
            over_budget: false,
            index: FxMap::default(),
            symbols: Vec::new(),
            opaques: Vec::new(),
            origins: FxMap::default(),
        };
        g.intern(Node::Const(Number::ZERO));
        g.intern(Node::Const(Number::ONE));
        g.intern(Node::Const(Number::MINUS_ONE));
        g.intern(Node::Time);
        g
    }

    /// Number of nodes stored (including ones no longer reachable from anything used).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Sets the most nodes the graph stores (at least its four predeclared ones).
    pub fn set_budget(&mut self, nodes: usize) {
        self.budget = nodes.max(4);
    }

    /// True once a node was asked for past the budget: every id handed out since may stand
    /// for a node that was never stored, so no result may be used.
    pub fn over_budget(&self) -> bool {
        self.over_budget
    }

    /// [`SymbolicError::TooLarge`](crate::SymbolicError::TooLarge) once the graph went over
    /// its budget.
    pub fn check_budget(&self) -> Result<(), crate::SymbolicError> {
        if self.over_budget {
            Err(crate::SymbolicError::TooLarge {
                what: "expression nodes",
                size: self.budget as u64 + 1,
                limit: self.budget as u64,
            })
        } else {
            Ok(())
        }
    }

    /// Always false: a graph holds at least its four predeclared nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node behind an id.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// The constant behind an id, if it is one.
    pub fn as_const(&self, id: NodeId) -> Option<Number> {
        match self.node(id) {
            Node::Const(c) => Some(*c),
            _ => None,
        }
    }

    fn hash_of(node: &Node) -> u64 {
        let mut h = FxHasher::default();
        node.hash(&mut h);
        h.finish()
    }

    /// The id of a node equal to `node`, if one is stored; never adds a node.
    pub fn lookup(&self, node: &Node) -> Option<NodeId> {
        self.index
            .get(&Graph::hash_of(node))?
            .iter()
            .copied()
            .find(|id| self.nodes[id.index()] == *node)
    }

    /// Store `node` exactly as given (no simplification), or return the id of an equal node.
    /// Children must be ids of this graph.
    pub fn intern(&mut self, node: Node) -> NodeId {
        let hash = Graph::hash_of(&node);
        if let Some(bucket) = self.index.get(&hash)
            && let Some(id) = bucket
                .iter()
                .copied()
                .find(|id| self.nodes[id.index()] == node)
        {
            return id;
        }
        if self.nodes.len() >= self.budget {
            // Past the budget nothing more is stored: the node reads as 0, so whatever is
            // being built collapses quickly, and the caller, which checks
            // [`Graph::over_budget`] before using any result, refuses the derivation.
            self.over_budget = true;
            return Graph::ZERO;
        }
        // Arenas beyond 4 billion nodes are out of reach of any model; saturating keeps the
        // arithmetic total.
        let id = NodeId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX));
        self.nodes.push(node);
        self.index.entry(hash).or_default().push(id);
        id
    }

    /// Declare a symbol with `len` scalar components (1 for a scalar) and a printed name.
    pub fn declare_symbol(&mut self, name: impl Into<String>, len: u32) -> SymbolId {
        let id = SymbolId(u32::try_from(self.symbols.len()).unwrap_or(u32::MAX));
        self.symbols.push(SymbolInfo {
            name: name.into(),
            len: len.max(1),
        });
        id
    }

    /// Name and size of a declared symbol (`None` for an id of another graph).
    pub fn symbol_info(&self, id: SymbolId) -> Option<&SymbolInfo> {
        self.symbols.get(id.index())
    }

    /// Declare an opaque construct (a stencil, a reduction) by its printed name.
    pub fn declare_opaque(&mut self, name: impl Into<String>) -> OpaqueId {
        let id = OpaqueId(u32::try_from(self.opaques.len()).unwrap_or(u32::MAX));
        self.opaques.push(name.into());
        id
    }

    /// The printed name of an opaque construct.
    pub fn opaque_name(&self, id: OpaqueId) -> &str {
        self.opaques.get(id.0 as usize).map_or("?", String::as_str)
    }

    /// Record where `id` came from in the source; the first origin recorded for a node wins
    /// (a shared node keeps the place it was first written).
    pub fn set_origin(&mut self, id: NodeId, span: Span) -> NodeId {
        self.origins.entry(id).or_insert(span);
        id
    }

    /// The recorded origin of `id`.
    pub fn origin(&self, id: NodeId) -> Option<Span> {
        self.origins.get(&id).copied()
    }

    /// The node for one component of a symbol.
    pub fn symbol(&mut self, id: SymbolId, component: u32) -> NodeId {
        self.intern(Node::Symbol(Symbol { id, component }))
    }

    /// The node for a symbol component.
    pub fn symbol_node(&mut self, s: Symbol) -> NodeId {
        self.intern(Node::Symbol(s))
    }

    /// The nodes of every component of a symbol, in order.
    pub fn symbol_components(&mut self, id: SymbolId) -> Vec<NodeId> {
        let len = self.symbol_info(id).map_or(1, |s| s.len);
        (0..len).map(|c| self.symbol(id, c)).collect()
    }

    /// A constant.
    pub fn number(&mut self, value: Number) -> NodeId {
        self.intern(Node::Const(value))
    }

    /// A float constant (stored exactly when it is a small dyadic fraction).
    pub fn constant(&mut self, value: f64) -> NodeId {
        self.number(Number::from_f64(value))
    }

    /// An integer constant.
    pub fn int(&mut self, value: i64) -> NodeId {
        self.number(Number::int(value))
    }

    /// The exact fraction `num/den`; a zero denominator or overflow gives the float quotient.
    pub fn rational(&mut self, num: i64, den: i64) -> NodeId {
        match crate::number::SmallRational::new(num, den) {
            Some(r) => self.number(Number::SmallRational(r)),
            None => self.constant(num as f64 / den as f64),
        }
    }

    /// Every node reachable from `roots`, in ascending id order (children before parents).
    pub fn reachable(&self, roots: &[NodeId]) -> Vec<NodeId> {
        let mut seen: FxSet<NodeId> = FxSet::default();
        let mut stack: Vec<NodeId> = roots.to_vec();
        let mut out = Vec::new();
        while let Some(id) = stack.pop() {
            if seen.insert(id) {
                out.push(id);
                stack.extend_from_slice(self.node(id).children());
            }
        }
        out.sort_unstable();
        out
    }

    /// Number of distinct nodes reachable from `roots`: the size of the DAG they span.
    pub fn count_nodes(&self, roots: &[NodeId]) -> usize {
        self.reachable(roots).len()
    }

    /// Whether `root` reads `var` (structurally, before any simplification).
    pub fn depends_on(&self, root: NodeId, var: crate::Var) -> bool {
        let target = match var {
            crate::Var::Symbol(s) => Node::Symbol(s),
            crate::Var::Time => Node::Time,
        };
        self.reachable(&[root])
            .iter()
            .any(|id| *self.node(*id) == target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_nodes_share_an_id() {
        let mut g = Graph::new();
        let x = g.declare_symbol("x", 1);
        let a = g.symbol(x, 0);
        let b = g.symbol(x, 0);
        assert_eq!(a, b);
        let s1 = g.intern(Node::Add(vec![a, Graph::ONE].into()));
        let n = g.len();
        let s2 = g.intern(Node::Add(vec![b, Graph::ONE].into()));
        assert_eq!(s1, s2);
        assert_eq!(g.len(), n);
        assert_eq!(g.constant(1.0), Graph::ONE);
        assert_eq!(g.rational(-2, 2), Graph::MINUS_ONE);
        assert_eq!(g.constant(0.5), g.rational(1, 2));
    }

    #[test]
    fn a_graph_past_its_budget_stores_nothing_more_and_says_so() {
        let mut g = Graph::new();
        g.set_budget(6);
        let x = g.declare_symbol("x", 3);
        let a = g.symbol(x, 0);
        let b = g.symbol(x, 1);
        assert_eq!(g.len(), 6);
        assert!(!g.over_budget() && g.check_budget().is_ok());
        // At the budget an existing node is still found; a new one is not stored.
        assert_eq!(g.symbol(x, 0), a);
        assert_ne!(a, b);
        assert_eq!(g.symbol(x, 2), Graph::ZERO);
        assert_eq!(g.len(), 6);
        assert!(g.over_budget());
        assert!(matches!(
            g.check_budget(),
            Err(crate::SymbolicError::TooLarge { limit: 6, .. })
        ));
    }

    #[test]
    fn reachable_is_topological() {
        let mut g = Graph::new();
        let x = g.declare_symbol("x", 2);
        let v = g.symbol_components(x);
        let s = g.intern(Node::Add(v.clone().into()));
        let p = g.intern(Node::Mul(vec![s, v[0]].into()));
        let order = g.reachable(&[p]);
        assert_eq!(order.last(), Some(&p));
        assert_eq!(order.len(), 4);
        assert!(g.depends_on(
            p,
            crate::Var::Symbol(Symbol {
                id: x,
                component: 1
            })
        ));
    }
}
