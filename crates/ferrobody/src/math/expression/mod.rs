//! Arithmetic expressions of named variables in the syntax of Lepton, the parser OpenSim's
//! `ExpressionBased…` forces use: numbers (`1`, `2.5e-3`), variables, `+ − * / ^` (`^` binds
//! tightest and to the right, a unary minus binds tighter than `*` and `/`, so `-x^2` is
//! `−(x²)`), parentheses, and Lepton's functions `sqrt exp log sin cos sec csc tan cot asin
//! acos atan sinh cosh tanh erf erfc step delta square cube recip abs floor ceil` of one
//! argument, `atan2 min max` of two and `select(c, a, b)` (a where c ≠ 0, else b). `step(x)` is
//! 1 for x ≥ 0, else 0; `delta(x)` is 1 at 0, else 0. `erf` and `erfc` are the `libm` crate's
//! (FreeBSD's `s_erf.c`, the code glibc's `erf` that Lepton calls also comes from), with
//! Lepton's derivatives `±(2/√π) exp(−x²)`.
//!
//! A parsed expression is rewritten by Lepton's optimizer, as OpenSim rewrites it before
//! evaluating (`optimize.rs`): constants folded, divisions by constants turned into
//! multiplications by reciprocals, constant factors merged, constant powers turned into
//! squares, cubes, square roots, reciprocals or repeated squaring (`PowerConstant`), so that
//! the value has OpenSim's rounding, not only its mathematics. Evaluation is generic over
//! [`Real`] (dual numbers differentiate it; `floor`, `step` and the like carry no
//! derivative).
//!
//! Source: Lepton 2013 (Peter Eastman, SimTK), `Parser.cpp`, `Operation.h`,
//! `ParsedExpression.cpp`, as vendored in OpenSim 4.6's `Vendors/lepton`.

mod optimize;

use crate::error::{invalid, ModelError};
use crate::scalar::Real;

/// A parsed expression; its variables are numbered in the order of the names given to
/// [`Expression::parse`].
#[derive(Clone, Debug, PartialEq)]
pub struct Expression {
    root: Node,
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Number(f64),
    Variable(usize),
    Negate(Box<Node>),
    Binary(char, Box<Node>, Box<Node>),
    /// Lepton's `MultiplyConstant`: `x·c`.
    MultiplyConstant(Box<Node>, f64),
    /// Lepton's `AddConstant`: `x + c`.
    AddConstant(Box<Node>, f64),
    /// Lepton's `PowerConstant`: `x^c`, by repeated squaring for an integer c.
    PowerConstant(Box<Node>, f64),
    Call(Func, Vec<Node>),
}

/// Lepton's functions, resolved by name when parsing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Func {
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    Sec,
    Csc,
    Tan,
    Cot,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Erf,
    Erfc,
    Step,
    Delta,
    Square,
    Cube,
    Recip,
    Abs,
    Floor,
    Ceil,
    Atan2,
    Min,
    Max,
    Select,
}

/// Lepton's functions by name, with their argument counts.
const FUNCTIONS: [(&str, Func, usize); 29] = [
    ("sqrt", Func::Sqrt, 1),
    ("exp", Func::Exp, 1),
    ("log", Func::Log, 1),
    ("sin", Func::Sin, 1),
    ("cos", Func::Cos, 1),
    ("sec", Func::Sec, 1),
    ("csc", Func::Csc, 1),
    ("tan", Func::Tan, 1),
    ("cot", Func::Cot, 1),
    ("asin", Func::Asin, 1),
    ("acos", Func::Acos, 1),
    ("atan", Func::Atan, 1),
    ("sinh", Func::Sinh, 1),
    ("cosh", Func::Cosh, 1),
    ("tanh", Func::Tanh, 1),
    ("erf", Func::Erf, 1),
    ("erfc", Func::Erfc, 1),
    ("step", Func::Step, 1),
    ("delta", Func::Delta, 1),
    ("square", Func::Square, 1),
    ("cube", Func::Cube, 1),
    ("recip", Func::Recip, 1),
    ("abs", Func::Abs, 1),
    ("floor", Func::Floor, 1),
    ("ceil", Func::Ceil, 1),
    ("atan2", Func::Atan2, 2),
    ("min", Func::Min, 2),
    ("max", Func::Max, 2),
    ("select", Func::Select, 3),
];

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
    variables: &'a [&'a str],
}

impl Expression {
    /// Parses `text` with the variables `variables` (by name); an unknown name, a function
    /// with the wrong number of arguments or a syntax error is an error naming it.
    pub fn parse(text: &str, variables: &[&str]) -> Result<Self, ModelError> {
        let mut p = Parser {
            text: text.as_bytes(),
            at: 0,
            variables,
        };
        let root = p.expression(0)?;
        p.skip_space();
        if p.at < p.text.len() {
            return Err(invalid!(
                "expression '{text}': unexpected '{}' at character {}",
                p.text[p.at] as char,
                p.at + 1
            ));
        }
        Ok(Self {
            root: optimize::optimize(root),
        })
    }

    /// The value with the variables at `values` (in the order given to [`Expression::parse`]).
    pub fn eval<T: Real>(&self, values: &[T]) -> T {
        self.root.eval(values)
    }
}

/// Binding power of a binary operator (Lepton: `+ −` 0, `* /` 1, `^` 3; a unary minus 2).
fn precedence(op: u8) -> Option<u8> {
    match op {
        b'+' | b'-' => Some(0),
        b'*' | b'/' => Some(1),
        b'^' => Some(3),
        _ => None,
    }
}

const UNARY_MINUS: u8 = 2;

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.at < self.text.len() && self.text[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn error(&self, what: &str) -> ModelError {
        invalid!(
            "expression '{}': {what} at character {}",
            String::from_utf8_lossy(self.text),
            self.at + 1
        )
    }

    /// Operators of at least `min` precedence, by precedence climbing.
    fn expression(&mut self, min: u8) -> Result<Node, ModelError> {
        let mut left = self.operand()?;
        loop {
            self.skip_space();
            let Some(&op) = self.text.get(self.at) else {
                return Ok(left);
            };
            let Some(prec) = precedence(op).filter(|&p| p >= min) else {
                return Ok(left);
            };
            self.at += 1;
            // `^` is right-associative: its right side may hold another `^`.
            let right = self.expression(if op == b'^' { prec } else { prec + 1 })?;
            left = Node::Binary(op as char, Box::new(left), Box::new(right));
        }
    }

    fn operand(&mut self) -> Result<Node, ModelError> {
        self.skip_space();
        let Some(&c) = self.text.get(self.at) else {
            return Err(self.error("missing operand"));
        };
        if c == b'-' {
            self.at += 1;
            return Ok(Node::Negate(Box::new(self.expression(UNARY_MINUS)?)));
        }
        if c == b'(' {
            self.at += 1;
            let inner = self.expression(0)?;
            self.expect(b')')?;
            return Ok(inner);
        }
        if c.is_ascii_digit() || c == b'.' {
            return self.number();
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            return self.name();
        }
        Err(self.error(&format!("unexpected '{}'", c as char)))
    }

    fn expect(&mut self, c: u8) -> Result<(), ModelError> {
        self.skip_space();
        if self.text.get(self.at) == Some(&c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected '{}'", c as char)))
        }
    }

    fn number(&mut self) -> Result<Node, ModelError> {
        let start = self.at;
        let digits = |p: &mut Self| {
            while p.at < p.text.len() && (p.text[p.at].is_ascii_digit() || p.text[p.at] == b'.') {
                p.at += 1;
            }
        };
        digits(self);
        if matches!(self.text.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.text.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            digits(self);
        }
        let s = String::from_utf8_lossy(&self.text[start..self.at]);
        s.parse::<f64>()
            .map(Node::Number)
            .map_err(|_| self.error(&format!("bad number '{s}'")))
    }

    fn name(&mut self) -> Result<Node, ModelError> {
        let start = self.at;
        while self.at < self.text.len()
            && (self.text[self.at].is_ascii_alphanumeric() || self.text[self.at] == b'_')
        {
            self.at += 1;
        }
        let name = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
        self.skip_space();
        if self.text.get(self.at) != Some(&b'(') {
            return match self.variables.iter().position(|v| *v == name) {
                Some(i) => Ok(Node::Variable(i)),
                None => Err(self.error(&format!(
                    "unknown variable '{name}' (expected one of {})",
                    self.variables.join(", ")
                ))),
            };
        }
        self.at += 1;
        let mut args = vec![self.expression(0)?];
        loop {
            self.skip_space();
            match self.text.get(self.at) {
                Some(b',') => {
                    self.at += 1;
                    args.push(self.expression(0)?);
                }
                Some(b')') => {
                    self.at += 1;
                    break;
                }
                _ => return Err(self.error("expected ',' or ')'")),
            }
        }
        match FUNCTIONS.iter().find(|(f, _, _)| *f == name) {
            Some(&(_, f, n)) if n == args.len() => Ok(Node::Call(f, args)),
            Some((f, _, n)) => {
                Err(self.error(&format!("{f} takes {n} argument(s), not {}", args.len())))
            }
            None => Err(self.error(&format!("unknown function '{name}'"))),
        }
    }
}

/// `value` with the derivative parts of `x` times `slope` (exactly `value` for `f64`).
fn with_slope<T: Real>(x: T, value: f64, slope: f64) -> T {
    T::c(value) + T::c(slope) * (x - T::c(x.re()))
}

/// d erf(x)/dx = (2/√π) exp(−x²).
fn gaussian_slope(x: f64) -> f64 {
    std::f64::consts::FRAC_2_SQRT_PI * (-(x * x)).exp()
}

/// Lepton's `PowerConstant`: repeated squaring for an exponent that is an `int`, else `pow`.
fn power_constant<T: Real>(x: T, exponent: f64) -> T {
    let n = exponent as i32;
    if f64::from(n) == exponent {
        int_power(x, n)
    } else {
        x.powf_exact(exponent)
    }
}

/// Repeated squaring.
fn int_power<T: Real>(x: T, n: i32) -> T {
    let (mut base, mut e) = if n < 0 { (T::one() / x, -n) } else { (x, n) };
    let mut result = T::one();
    while e != 0 {
        if e & 1 == 1 {
            result *= base;
        }
        base *= base;
        e >>= 1;
    }
    result
}

impl Node {
    /// The operands, in order.
    fn children(&self) -> Vec<&Node> {
        match self {
            Node::Number(_) | Node::Variable(_) => Vec::new(),
            Node::Negate(a)
            | Node::MultiplyConstant(a, _)
            | Node::AddConstant(a, _)
            | Node::PowerConstant(a, _) => vec![a],
            Node::Binary(_, a, b) => vec![a, b],
            Node::Call(_, args) => args.iter().collect(),
        }
    }

    /// This node with each operand replaced by `f(operand)`.
    fn map_children(self, mut f: impl FnMut(Node) -> Node) -> Node {
        let mut map = |a: Box<Node>| Box::new(f(*a));
        match self {
            Node::Number(_) | Node::Variable(_) => self,
            Node::Negate(a) => Node::Negate(map(a)),
            Node::MultiplyConstant(a, c) => Node::MultiplyConstant(map(a), c),
            Node::AddConstant(a, c) => Node::AddConstant(map(a), c),
            Node::PowerConstant(a, c) => Node::PowerConstant(map(a), c),
            Node::Binary(op, a, b) => {
                let a = map(a);
                Node::Binary(op, a, map(b))
            }
            Node::Call(func, args) => Node::Call(func, args.into_iter().map(&mut f).collect()),
        }
    }

    fn eval<T: Real>(&self, v: &[T]) -> T {
        match self {
            Node::Number(x) => T::c(*x),
            Node::Variable(i) => v[*i],
            Node::Negate(a) => -a.eval(v),
            Node::MultiplyConstant(a, c) => a.eval(v) * T::c(*c),
            Node::AddConstant(a, c) => a.eval(v) + T::c(*c),
            Node::PowerConstant(a, c) => power_constant(a.eval(v), *c),
            Node::Binary(op, a, b) => {
                let (a, b) = (a.eval(v), b.eval(v));
                match op {
                    '+' => a + b,
                    '-' => a - b,
                    '*' => a * b,
                    '/' => a / b,
                    _ => a.powf_exact(b.re()),
                }
            }
            Node::Call(f, args) => {
                let x = args[0].eval(v);
                let flat = |y: f64| T::c(y);
                let other = |k: usize| args[k].eval(v);
                match f {
                    Func::Sqrt => x.sqrt(),
                    Func::Exp => x.exp(),
                    Func::Log => x.ln(),
                    Func::Sin => x.sin(),
                    Func::Cos => x.cos(),
                    Func::Sec => T::one() / x.cos(),
                    Func::Csc => T::one() / x.sin(),
                    Func::Tan => x.tan(),
                    Func::Cot => T::one() / x.tan(),
                    Func::Asin => x.asin(),
                    Func::Acos => x.acos(),
                    Func::Atan => x.atan(),
                    Func::Sinh => x.sinh(),
                    Func::Cosh => x.cosh(),
                    Func::Tanh => x.tanh_exact(),
                    Func::Erf => with_slope(x, libm::erf(x.re()), gaussian_slope(x.re())),
                    Func::Erfc => with_slope(x, libm::erfc(x.re()), -gaussian_slope(x.re())),
                    Func::Step => flat(if x.re() >= 0.0 { 1.0 } else { 0.0 }),
                    Func::Delta => flat(if x.re() == 0.0 { 1.0 } else { 0.0 }),
                    Func::Square => x * x,
                    Func::Cube => x * x * x,
                    Func::Recip => T::one() / x,
                    Func::Abs => x.abs(),
                    Func::Floor => flat(x.re().floor()),
                    Func::Ceil => flat(x.re().ceil()),
                    Func::Atan2 => x.atan2(other(1)),
                    Func::Min => {
                        let y = other(1);
                        if y.re() < x.re() {
                            y
                        } else {
                            x
                        }
                    }
                    Func::Max => {
                        let y = other(1);
                        if y.re() > x.re() {
                            y
                        } else {
                            x
                        }
                    }
                    Func::Select => other(if x.re() != 0.0 { 1 } else { 2 }),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Expression;

    fn eval(text: &str, q: f64, qdot: f64) -> f64 {
        Expression::parse(text, &["q", "qdot"])
            .unwrap()
            .eval(&[q, qdot])
    }

    #[test]
    fn precedence_and_associativity_follow_lepton() {
        assert_eq!(eval("-q^2", 3.0, 0.0), -9.0);
        assert_eq!(eval("2^3^2", 0.0, 0.0), 512.0);
        assert_eq!(eval("1-2-3", 0.0, 0.0), -4.0);
        assert_eq!(eval("8/2/2", 0.0, 0.0), 2.0);
        assert_eq!(eval("-q*qdot + 1", 2.0, 3.0), -5.0);
        assert_eq!(eval("(1+q)*(qdot-1)", 1.0, 4.0), 6.0);
        assert_eq!(eval("1.5e-3*1e3", 0.0, 0.0), 1.5);
    }

    #[test]
    fn functions_and_integer_powers() {
        assert_eq!(eval("q^-2", 2.0, 0.0), 0.25);
        assert_eq!(eval("q^0.5", 4.0, 0.0), 2.0);
        assert_eq!(eval("max(q, qdot) + min(q, qdot)", 1.0, 5.0), 6.0);
        assert_eq!(eval("select(step(q), 1, 2)", -1.0, 0.0), 2.0);
        assert_eq!(
            eval("atan2(q, qdot)", 1.0, 1.0),
            std::f64::consts::FRAC_PI_4
        );
        assert_eq!(
            eval("square(q) - cube(q) + recip(q)", 2.0, 0.0),
            4.0 - 8.0 + 0.5
        );
    }

    #[test]
    fn error_functions_and_their_derivatives() {
        // erf(0.5) and erfc(0.5) to 17 digits (glibc's values, which FreeBSD's code shares).
        assert_eq!(eval("erf(q)", 0.5, 0.0), 0.520_499_877_813_046_5);
        assert_eq!(eval("erfc(q)", 0.5, 0.0), 0.479_500_122_186_953_5);
        assert_eq!(eval("erf(q) + erfc(q)", -7.0, 0.0), 1.0);
        let e = Expression::parse("erf(2*q) - erfc(qdot)", &["q", "qdot"]).unwrap();
        let (q, qdot) = (0.3, -0.4);
        let dq = e.eval(&[num_dual::Dual64::new(q, 1.0), num_dual::Dual64::from(qdot)]);
        let du = e.eval(&[num_dual::Dual64::from(q), num_dual::Dual64::new(qdot, 1.0)]);
        let slope = |x: f64| std::f64::consts::FRAC_2_SQRT_PI * (-x * x).exp();
        assert_eq!(dq.re, eval("erf(2*q) - erfc(qdot)", q, qdot));
        assert!((dq.eps - 2.0 * slope(2.0 * q)).abs() < 1e-15);
        assert!((du.eps - slope(qdot)).abs() < 1e-15);
    }

    /// Lepton's optimizer changes the rounding of some terms (`optimize.rs`): the values are
    /// its, and for some q of the sweep each differs from the expression as written.
    #[test]
    fn optimized_terms_round_as_lepton_does() {
        let qs: Vec<f64> = (1..200).map(|k| 0.37 * f64::from(k) / 7.0).collect();
        let differs = |a: &dyn Fn(f64) -> f64, b: &dyn Fn(f64) -> f64| {
            qs.iter().any(|&q| a(q).to_bits() != b(q).to_bits())
        };
        let same = |text: &str, qdot: f64, lepton: &dyn Fn(f64) -> f64| {
            for &q in &qs {
                let ours = eval(text, q, qdot);
                assert_eq!(ours.to_bits(), lepton(q).to_bits(), "{text} at q = {q}");
            }
        };
        // x/c → x·(1/c)
        same("q/3", 0.0, &|q| q * (1.0 / 3.0));
        assert!(differs(&|q| q / 3.0, &|q| q * (1.0 / 3.0)));
        // c₁·(c₂·x) → (c₁c₂)·x, through a negation too
        same("0.1*(0.7*q)", 0.0, &|q| q * (0.1 * 0.7));
        same("-(0.1*(0.7*q))", 0.0, &|q| q * -(0.1 * 0.7));
        assert!(differs(&|q| 0.1 * (0.7 * q), &|q| q * (0.1 * 0.7)));
        // (k·x)/c → (k/c)·x
        same("(4*q)/7", 0.0, &|q| q * (4.0 / 7.0));
        assert!(differs(&|q| (4.0 * q) / 7.0, &|q| q * (4.0 / 7.0)));
        // a·(1/b) → a/b, a/(1/b) → a·b
        same("qdot*(1/(2+q))", 0.3, &|q| 0.3 / (q + 2.0));
        same("qdot/(1/(2+q))", 0.3, &|q| 0.3 * (q + 2.0));
        // constant powers: √, repeated squaring of the reciprocal, pow
        same("q^0.5", 0.0, &|q| q.sqrt());
        same("q^-2", 0.0, &|q| (1.0 / q) * (1.0 / q));
        same("q^2.5", 0.0, &|q| q.powf(2.5));
        // x·0 → 0 and x − x → 0 whatever x is
        assert_eq!(eval("q*0", f64::INFINITY, 0.0), 0.0);
        assert_eq!(eval("q-q", f64::NAN, 0.0), 0.0);
        // a NaN constant (which never equals itself) still ends the rewriting
        assert!(eval("q*(0/0)+1", 1.0, 0.0).is_nan());
    }

    #[test]
    fn bad_expressions_name_the_problem() {
        let err = |t: &str| {
            Expression::parse(t, &["q", "qdot"])
                .unwrap_err()
                .to_string()
        };
        assert!(err("-10*x").contains("unknown variable 'x'"));
        assert!(err("foo(q)").contains("unknown function 'foo'"));
        assert!(err("atan2(q)").contains("atan2 takes 2 argument(s), not 1"));
        assert!(err("q +").contains("missing operand"));
        assert!(err("(q").contains("expected ')'"));
        assert!(err("q q").contains("unexpected 'q'"));
        assert!(err("erf(q, qdot)").contains("erf takes 1 argument(s), not 2"));
    }
}
