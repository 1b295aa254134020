//! Lepton's `ParsedExpression::optimize`, which OpenSim runs on every expression before
//! evaluating it (`Lepton::Parser::parse(e).optimize().createProgram()`): the constant
//! subexpressions are evaluated once, then the tree is rewritten by Lepton's rules until no
//! rule applies. Most rules keep every bit of the value (`x + 0 → x`, `x − c → x + (−c)`,
//! `x·x → square(x)`), but some change the rounding, so an expression evaluated without
//! them can differ from OpenSim's in the last bits:
//!
//! * a division by a constant becomes a multiplication by its reciprocal: `x/c → x·(1/c)`,
//!   `(k·x)/c → (k/c)·x`;
//! * multiplications by constants merge: `c₁·(c₂·x) → (c₁c₂)·x`, also through negations;
//! * `a·(1/b) → a/b` and `a/(1/b) → a·b`;
//! * a constant power becomes `square`, `cube`, `sqrt` (for ½), `recip` (for −1), repeated
//!   squaring (other integers) or `pow`; `x^0 → 1`, `0^y → 0`, `1^y → 1`;
//! * `x·0 → 0`, `0/x → 0`, `x − x → 0`, `x/x → 1` (whatever x is, NaN and ∞ included).
//!
//! Source: Lepton 2013 (Peter Eastman, SimTK), `ParsedExpression.cpp` (`optimize`,
//! `precalculateConstantSubexpressions`, `substituteSimplerExpression`), as vendored in
//! OpenSim 4.6's `Vendors/lepton`.

use super::{Func, Node};

/// Lepton's `optimize()`. Lepton repeats its rules until the tree stops changing; a tree
/// holding a NaN constant never compares equal to itself (NaN ≠ NaN), on which Lepton would
/// not stop: the passes are capped, far above what any rule chain needs.
pub(super) fn optimize(root: Node) -> Node {
    let mut result = precalculate_constants(root);
    for _ in 0..MAX_PASSES {
        let simplified = simplify(&result);
        if simplified == result {
            break;
        }
        result = simplified;
    }
    result
}

/// The cap on [`optimize`]'s passes (the expressions of model files settle in a handful).
const MAX_PASSES: usize = 256;

/// `getConstantValue`: the value of a constant node, else NaN.
fn constant(node: &Node) -> f64 {
    match node {
        Node::Number(x) => *x,
        _ => f64::NAN,
    }
}

/// `precalculateConstantSubexpressions`: every node whose children are all constants (a
/// variable excepted) is replaced by its value.
fn precalculate_constants(node: Node) -> Node {
    let node = node.map_children(precalculate_constants);
    if matches!(node, Node::Variable(_)) {
        return node;
    }
    if node.children().iter().all(|c| matches!(c, Node::Number(_))) {
        return Node::Number(node.eval::<f64>(&[]));
    }
    node
}

fn boxed(node: &Node) -> Box<Node> {
    Box::new(node.clone())
}

fn multiply_constant(value: f64, node: &Node) -> Node {
    Node::MultiplyConstant(boxed(node), value)
}

/// The child of a negation, if `node` is one.
fn negated(node: &Node) -> Option<&Node> {
    match node {
        Node::Negate(a) => Some(a),
        _ => None,
    }
}

/// The value and operand of a `MultiplyConstant`, if `node` is one.
fn multiplied(node: &Node) -> Option<(f64, &Node)> {
    match node {
        Node::MultiplyConstant(a, v) => Some((*v, a)),
        _ => None,
    }
}

/// The operand of a reciprocal, if `node` is one.
fn reciprocal(node: &Node) -> Option<&Node> {
    match node {
        Node::Call(Func::Recip, args) => Some(&args[0]),
        _ => None,
    }
}

/// The operand of a square, if `node` is one.
fn squared(node: &Node) -> Option<&Node> {
    match node {
        Node::Call(Func::Square, args) => Some(&args[0]),
        _ => None,
    }
}

fn call(f: Func, node: &Node) -> Node {
    Node::Call(f, vec![node.clone()])
}

fn binary(op: char, a: &Node, b: &Node) -> Node {
    Node::Binary(op, boxed(a), boxed(b))
}

/// One pass of `substituteSimplerExpression`: the children first, then this node's rule.
fn simplify(node: &Node) -> Node {
    let node = node.clone().map_children(|c| simplify(&c));
    let replaced = match &node {
        Node::Binary('+', a, b) => add(a, b),
        Node::Binary('-', a, b) => subtract(a, b),
        Node::Binary('*', a, b) => multiply(a, b),
        Node::Binary('/', a, b) => divide(a, b),
        Node::Binary('^', a, b) => power(a, b),
        Node::Negate(a) => negate(a),
        Node::MultiplyConstant(a, v) => multiply_constant_rule(*v, a),
        _ => None,
    };
    replaced.unwrap_or(node)
}

fn add(a: &Node, b: &Node) -> Option<Node> {
    let (first, second) = (constant(a), constant(b));
    if first == 0.0 {
        return Some(b.clone());
    }
    if second == 0.0 {
        return Some(a.clone());
    }
    if !first.is_nan() {
        return Some(Node::AddConstant(boxed(b), first));
    }
    if !second.is_nan() {
        return Some(Node::AddConstant(boxed(a), second));
    }
    if let Some(b) = negated(b) {
        return Some(binary('-', a, b));
    }
    negated(a).map(|a| binary('-', b, a))
}

fn subtract(a: &Node, b: &Node) -> Option<Node> {
    if a == b {
        return Some(Node::Number(0.0));
    }
    if constant(a) == 0.0 {
        return Some(Node::Negate(boxed(b)));
    }
    let second = constant(b);
    if second == 0.0 {
        return Some(a.clone());
    }
    if !second.is_nan() {
        return Some(Node::AddConstant(boxed(a), -second));
    }
    negated(b).map(|b| binary('+', a, b))
}

fn multiply(a: &Node, b: &Node) -> Option<Node> {
    let (first, second) = (constant(a), constant(b));
    if first == 0.0 || second == 0.0 {
        return Some(Node::Number(0.0));
    }
    if first == 1.0 {
        return Some(b.clone());
    }
    if second == 1.0 {
        return Some(a.clone());
    }
    if matches!(a, Node::Number(_)) {
        return Some(match multiplied(b) {
            Some((v, x)) => multiply_constant(first * v, x),
            None => multiply_constant(first, b),
        });
    }
    if matches!(b, Node::Number(_)) {
        return Some(match multiplied(a) {
            Some((v, x)) => multiply_constant(second * v, x),
            None => multiply_constant(second, a),
        });
    }
    if let (Some(x), Some(y)) = (negated(a), negated(b)) {
        return Some(binary('*', x, y));
    }
    if let (Some(x), Some((v, y))) = (negated(a), multiplied(b)) {
        return Some(binary('*', x, &multiply_constant(-v, y)));
    }
    if let (Some(y), Some((v, x))) = (negated(b), multiplied(a)) {
        return Some(binary('*', &multiply_constant(-v, x), y));
    }
    if let Some(x) = negated(a) {
        return Some(Node::Negate(Box::new(binary('*', x, b))));
    }
    if let Some(y) = negated(b) {
        return Some(Node::Negate(Box::new(binary('*', a, y))));
    }
    if let Some(y) = reciprocal(b) {
        return Some(binary('/', a, y));
    }
    if let Some(x) = reciprocal(a) {
        return Some(binary('/', b, x));
    }
    if a == b {
        return Some(call(Func::Square, a));
    }
    if squared(a) == Some(b) {
        return Some(call(Func::Cube, b));
    }
    if squared(b) == Some(a) {
        return Some(call(Func::Cube, a));
    }
    None
}

fn divide(a: &Node, b: &Node) -> Option<Node> {
    if a == b {
        return Some(Node::Number(1.0));
    }
    let numerator = constant(a);
    if numerator == 0.0 {
        return Some(Node::Number(0.0));
    }
    if numerator == 1.0 {
        return Some(call(Func::Recip, b));
    }
    let denominator = constant(b);
    if denominator == 1.0 {
        return Some(a.clone());
    }
    if matches!(b, Node::Number(_)) {
        return Some(match multiplied(a) {
            Some((v, x)) => multiply_constant(v / denominator, x),
            None => multiply_constant(1.0 / denominator, a),
        });
    }
    if let (Some(x), Some(y)) = (negated(a), negated(b)) {
        return Some(binary('/', x, y));
    }
    if let (Some(y), Some((v, x))) = (negated(b), multiplied(a)) {
        return Some(binary('/', &multiply_constant(-v, x), y));
    }
    if let Some(x) = negated(a) {
        return Some(Node::Negate(Box::new(binary('/', x, b))));
    }
    if let Some(y) = negated(b) {
        return Some(Node::Negate(Box::new(binary('/', a, y))));
    }
    reciprocal(b).map(|y| binary('*', a, y))
}

fn power(a: &Node, b: &Node) -> Option<Node> {
    let base = constant(a);
    if base == 0.0 {
        return Some(Node::Number(0.0));
    }
    if base == 1.0 {
        return Some(Node::Number(1.0));
    }
    let exponent = constant(b);
    let rewritten = if exponent == 0.0 {
        Node::Number(1.0)
    } else if exponent == 1.0 {
        a.clone()
    } else if exponent == -1.0 {
        call(Func::Recip, a)
    } else if exponent == 2.0 {
        call(Func::Square, a)
    } else if exponent == 3.0 {
        call(Func::Cube, a)
    } else if exponent == 0.5 {
        call(Func::Sqrt, a)
    } else if !exponent.is_nan() {
        Node::PowerConstant(boxed(a), exponent)
    } else {
        return None;
    };
    Some(rewritten)
}

fn negate(a: &Node) -> Option<Node> {
    if let Some((v, x)) = multiplied(a) {
        return Some(multiply_constant(-v, x));
    }
    if let Node::Number(x) = a {
        return Some(Node::Number(-x));
    }
    negated(a).cloned()
}

fn multiply_constant_rule(value: f64, a: &Node) -> Option<Node> {
    if let Some((v, x)) = multiplied(a) {
        return Some(multiply_constant(value * v, x));
    }
    if let Node::Number(x) = a {
        return Some(Node::Number(value * x));
    }
    negated(a).map(|x| multiply_constant(-value, x))
}
