//! Conditions and expressions of integer merge rules, written as short text.
//!
//! A variant whose tiles are plain integers says when 2 to 5 neighbouring tiles of a line merge
//! (a [`Cond`], like `|a - b| <= 1` or `c divides a`) and what they make (an [`Expr`], like
//! `a + b`). Tiles are named from the wall outward: `a` (nearest the wall) to `e`, and `z` is the
//! tile behind them, farther from the wall, as the line lay before the move (0 when there is
//! none); see [`LETTERS`].
//!
//! Grammar (whitespace between tokens is ignored, so `2 a` is `2a`; `a2` is refused):
//! `expr := [+|-] term ((+|-) term)*`, `term := integer | [integer] letter`,
//! `side := expr | "|" expr "|"`, `cond := side op side | expr "divides" expr`,
//! with `op` one of `=` (or `==`), `!=`, `<`, `<=`, `>`, `>=`.

use std::fmt;

use tilebox_core::json_words::quote;

/// The tile letters, by index in [`Expr::coef`]: `a` to `e` from the wall outward, then `z`,
/// the tile behind the rule's tiles.
pub const LETTERS: [char; 6] = ['a', 'b', 'c', 'd', 'e', 'z'];

/// A linear expression over the tiles: sum of `coef[i]` times tile `i`, plus a constant.
/// Index 0..=4 are `a`..`e`, index 5 is `z`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Expr {
    /// The coefficient of each tile, indexed as [`LETTERS`].
    pub coef: [i64; 6],
    /// The constant term.
    pub constant: i64,
}

/// A comparison operator between the two sides of a [`Cond::Compare`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// `=` (also written `==`).
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

/// One side of a comparison: an expression, or its absolute value when written `|...|`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Side {
    /// The expression on this side.
    pub expr: Expr,
    /// Whether the side is the absolute value of `expr`.
    pub abs: bool,
}

/// A condition on the tiles, deciding whether a merge rule applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cond {
    /// `left op right`, like `|2a - b| <= 1`.
    Compare {
        /// The left side.
        left: Side,
        /// The comparison.
        op: Op,
        /// The right side.
        right: Side,
    },
    /// `x divides y`: y is a whole multiple of x (x = 0 never divides).
    Divides {
        /// The `x` of `x divides y`.
        divisor: Expr,
        /// The `y` of `x divides y`.
        of: Expr,
    },
}

/// The spellings of the comparisons, longest first so `<=` is not read as `<` then `=`.
const OPS: [(&str, Op); 7] = [
    ("==", Op::Eq),
    ("!=", Op::Ne),
    ("<=", Op::Le),
    (">=", Op::Ge),
    ("=", Op::Eq),
    ("<", Op::Lt),
    (">", Op::Gt),
];

impl Op {
    fn symbol(self) -> &'static str {
        OPS.iter()
            .rev()
            .find(|(_, op)| *op == self)
            .map_or("=", |(s, _)| s)
    }
}

/// A token of condition text; numbers are at most 2^63 (the magnitude of `i64::MIN`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok {
    Num(i128),
    Letter(usize),
    Plus,
    Minus,
    Bar,
    Op(Op),
    Divides,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Num(n) => write!(f, "\"{n}\""),
            Tok::Letter(i) => write!(f, "\"{}\"", LETTERS[*i]),
            Tok::Op(op) => write!(f, "\"{}\"", op.symbol()),
            Tok::Plus => f.write_str("\"+\""),
            Tok::Minus => f.write_str("\"-\""),
            Tok::Bar => f.write_str("\"|\""),
            Tok::Divides => f.write_str("\"divides\""),
        }
    }
}

fn tokenize(text: &str) -> Result<Vec<Tok>, String> {
    let mut toks = Vec::new();
    let mut rest = text.trim_start();
    while let Some(c) = rest.chars().next() {
        // Runs of ASCII characters, so their char count is their byte length.
        let run = |p: fn(&char) -> bool| &rest[..rest.chars().take_while(p).count()];
        let (tok, len) = match c {
            '0'..='9' => {
                let digits = run(char::is_ascii_digit);
                match digits.parse::<i128>() {
                    Ok(n) if n <= 1 << 63 => (Tok::Num(n), digits.len()),
                    _ => return Err(format!("the number {} is too large", quote(digits))),
                }
            }
            'a'..='z' | 'A'..='Z' => {
                let word = run(char::is_ascii_alphabetic);
                let tok = match LETTERS.iter().position(|l| word.starts_with(*l)) {
                    _ if word == "divides" => Tok::Divides,
                    Some(l) if word.len() == 1 => Tok::Letter(l),
                    _ if word.len() == 1 => {
                        return Err(format!(
                            "{} is not a tile letter (a to e, or z)",
                            quote(word)
                        ));
                    }
                    _ => {
                        return Err(format!(
                            "unknown word {} (tiles are single letters)",
                            quote(word)
                        ));
                    }
                };
                (tok, word.len())
            }
            '+' => (Tok::Plus, 1),
            '-' => (Tok::Minus, 1),
            '|' => (Tok::Bar, 1),
            _ => match OPS.iter().find(|(s, _)| rest.starts_with(s)) {
                Some((s, op)) => (Tok::Op(*op), s.len()),
                None => {
                    let column = text[..text.len() - rest.len()].chars().count() + 1;
                    let c = c.escape_debug();
                    return Err(format!("unexpected \"{c}\" at column {column}"));
                }
            },
        };
        toks.push(tok);
        rest = rest[len..].trim_start();
    }
    Ok(toks)
}

/// Reads an expression from tokens; `place` says where it stands, for the empty-expression error.
fn parse_expr(toks: &[Tok], place: &str) -> Result<Expr, String> {
    let bad = toks
        .iter()
        .find(|t| matches!(t, Tok::Bar | Tok::Op(_) | Tok::Divides));
    if let Some(t) = bad {
        return Err(format!("{t} is not allowed in an expression"));
    }
    let mut e = Expr {
        coef: [0; 6],
        constant: 0,
    };
    let mut add = |letter: Option<usize>, term: i128| -> Result<(), String> {
        let slot = letter.map_or(&mut e.constant, |l| &mut e.coef[l]);
        let sum = i64::try_from(term).ok().and_then(|t| slot.checked_add(t));
        *slot = sum.ok_or_else(|| match letter {
            Some(l) => format!("the coefficient of \"{}\" is too large", LETTERS[l]),
            None => "the constant is too large".to_string(),
        })?;
        Ok(())
    };
    let (mut sign, mut num, mut prev) = (1, None, None);
    for &t in toks {
        match (prev, t) {
            (None | Some(Tok::Plus | Tok::Minus), Tok::Num(n)) => num = Some(n),
            (None | Some(Tok::Plus | Tok::Minus | Tok::Num(_)), Tok::Letter(l)) => {
                add(Some(l), sign * num.take().unwrap_or(1))?;
            }
            (None | Some(Tok::Num(_) | Tok::Letter(_)), Tok::Plus | Tok::Minus) => {
                if let Some(n) = num.take() {
                    add(None, sign * n)?;
                }
                sign = if t == Tok::Minus { -1 } else { 1 };
            }
            (Some(p @ Tok::Letter(_)), Tok::Num(_)) => {
                return Err(format!("a number follows {p} (write 2a, not a2)"));
            }
            (Some(p @ (Tok::Plus | Tok::Minus)), _) => return Err(format!("{t} follows {p}")),
            (p, _) => {
                let p = p.map_or(String::new(), |p| p.to_string());
                return Err(format!("{t} follows {p} without \"+\" or \"-\""));
            }
        }
        prev = Some(t);
    }
    match prev {
        None => Err(format!("empty expression{place}")),
        Some(p @ (Tok::Plus | Tok::Minus)) => Err(format!("an expression ends with {p}")),
        _ => {
            if let Some(n) = num {
                add(None, sign * n)?;
            }
            Ok(e)
        }
    }
}

fn parse_side(toks: &[Tok], place: &str) -> Result<Side, String> {
    match (toks, toks.iter().filter(|t| **t == Tok::Bar).count()) {
        (_, 0) => Ok(Side {
            expr: parse_expr(toks, place)?,
            abs: false,
        }),
        ([Tok::Bar, inner @ .., Tok::Bar], 2) => {
            let expr = parse_expr(inner, &format!(" inside \"|...|\"{place}"))?;
            Ok(Side { expr, abs: true })
        }
        ([Tok::Bar, ..], 1) => Err("\"|\" is not closed".to_string()),
        _ => Err(format!("\"|...|\" must enclose a whole side{place}")),
    }
}

impl Expr {
    /// Reads an expression such as `2a + 1`; the error is one line naming what is wrong.
    pub fn parse(text: &str) -> Result<Expr, String> {
        parse_expr(&tokenize(text)?, "")
    }

    /// The value for tiles `v` (indexed as `coef`); `None` on overflow.
    pub fn eval(&self, v: &[i64; 6]) -> Option<i64> {
        let mut terms = self.coef.iter().zip(v);
        terms.try_fold(self.constant, |sum, (c, x)| {
            sum.checked_add(c.checked_mul(*x)?)
        })
    }

    /// The tiles the expression uses: bit i set when letter i has a non-zero coefficient.
    pub fn letters(&self) -> u8 {
        (0..6)
            .filter(|&i| self.coef[i] != 0)
            .fold(0, |m, i| m | 1 << i)
    }
}

impl Cond {
    /// Reads a condition such as `|a - b| <= 1` or `c divides a`; the error is one line naming
    /// what is wrong.
    pub fn parse(text: &str) -> Result<Cond, String> {
        let toks = tokenize(text)?;
        let mut cuts = (0..toks.len()).filter(|&i| matches!(toks[i], Tok::Op(_) | Tok::Divides));
        let k = cuts
            .next()
            .ok_or("no comparison (=, !=, <, <=, >, >=) or \"divides\"")?;
        if let Some(j) = cuts.next() {
            return Err(format!(
                "more than one comparison: {} and {}",
                toks[k], toks[j]
            ));
        }
        let (left, right, t) = (&toks[..k], &toks[k + 1..], toks[k]);
        let (before, after) = (format!(" before {t}"), format!(" after {t}"));
        match t {
            Tok::Op(op) => {
                let left = parse_side(left, &before)?;
                Ok(Cond::Compare {
                    left,
                    op,
                    right: parse_side(right, &after)?,
                })
            }
            _ if toks.contains(&Tok::Bar) => Err("\"|\" cannot be used with \"divides\"".into()),
            _ => {
                let divisor = parse_expr(left, &before)?;
                Ok(Cond::Divides {
                    divisor,
                    of: parse_expr(right, &after)?,
                })
            }
        }
    }

    /// Whether the condition holds for tiles `v` (indexed as [`Expr::coef`]); false on overflow.
    pub fn holds(&self, v: &[i64; 6]) -> bool {
        let side = |s: &Side| {
            s.expr
                .eval(v)
                .and_then(|x| if s.abs { x.checked_abs() } else { Some(x) })
        };
        match self {
            Cond::Compare { left, op, right } => match (side(left), side(right)) {
                (Some(l), Some(r)) => match op {
                    Op::Eq => l == r,
                    Op::Ne => l != r,
                    Op::Lt => l < r,
                    Op::Le => l <= r,
                    Op::Gt => l > r,
                    Op::Ge => l >= r,
                },
                _ => false,
            },
            Cond::Divides { divisor, of } => match (divisor.eval(v), of.eval(v)) {
                (Some(d), Some(y)) => d != 0 && i128::from(y) % i128::from(d) == 0,
                _ => false,
            },
        }
    }

    /// The tiles the condition uses: bit i set when letter i has a non-zero coefficient on
    /// either side.
    pub fn letters(&self) -> u8 {
        match self {
            Cond::Compare { left, right, .. } => left.expr.letters() | right.expr.letters(),
            Cond::Divides { divisor, of } => divisor.letters() | of.letters(),
        }
    }
}

/// Canonical text: terms in the order of [`LETTERS`], then the constant, like `2a - b + 1`;
/// `0` for the zero expression.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        // The letters added first, then those taken away, then the number: `c - a`, not
        // `-a + c`.
        let letters = || self.coef.iter().zip(LETTERS.map(Some));
        let terms = letters()
            .filter(|(c, _)| **c > 0)
            .chain(letters().filter(|(c, _)| **c < 0));
        for (&c, letter) in terms.chain([(&self.constant, None)]) {
            if c == 0 && !(first && letter.is_none()) {
                continue;
            }
            let sign = match (first, c < 0) {
                (true, false) => "",
                (true, true) => "-",
                (false, false) => " + ",
                (false, true) => " - ",
            };
            first = false;
            match (c.unsigned_abs(), letter) {
                (1, Some(l)) => write!(f, "{sign}{l}")?,
                (m, Some(l)) => write!(f, "{sign}{m}{l}")?,
                (m, None) => write!(f, "{sign}{m}")?,
            }
        }
        Ok(())
    }
}

/// Canonical text: the expression, between bars when it is an absolute value.
impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bar = if self.abs { "|" } else { "" };
        write!(f, "{bar}{}{bar}", self.expr)
    }
}

/// Canonical text, like `|2a - b| <= 1` or `c divides a`.
impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cond::Compare { left, op, right } => write!(f, "{left} {} {right}", op.symbol()),
            Cond::Divides { divisor, of } => write!(f, "{divisor} divides {of}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A side written as text, `|...|` for an absolute value (its expression read by `Expr`).
    fn side(text: &str) -> Side {
        let expr = Expr::parse(text.trim_matches('|')).unwrap();
        Side {
            expr,
            abs: text.starts_with('|'),
        }
    }

    #[test]
    fn expressions_parse_to_structure() {
        for (text, coef, constant) in [
            ("a", [1, 0, 0, 0, 0, 0], 0),
            ("-b", [0, -1, 0, 0, 0, 0], 0),
            ("2a - b", [2, -1, 0, 0, 0, 0], 0),
            ("c - a", [-1, 0, 1, 0, 0, 0], 0),
            ("z", [0, 0, 0, 0, 0, 1], 0),
            ("-1", [0; 6], -1),
            ("2b + 3", [0, 2, 0, 0, 0, 0], 3),
            ("a + b + c", [1, 1, 1, 0, 0, 0], 0),
            ("2a + 1", [2, 0, 0, 0, 0, 0], 1),
            ("a - 1", [1, 0, 0, 0, 0, 0], -1),
            ("3", [0; 6], 3),
            ("a + a - 3b + b", [2, -2, 0, 0, 0, 0], 0),
            (" 2 a+1 ", [2, 0, 0, 0, 0, 0], 1),
            ("-9223372036854775808", [0; 6], i64::MIN),
        ] {
            assert_eq!(Expr::parse(text), Ok(Expr { coef, constant }), "{text}");
        }
        assert_eq!(Expr::parse("a - a").map(|e| e.letters()), Ok(0));
        assert_eq!(
            Expr::parse("c - a + 2z").map(|e| e.letters()),
            Ok(0b10_0101)
        );
    }

    #[test]
    fn conditions_parse_to_structure() {
        for (text, left, op, right) in [
            ("a = b", "a", Op::Eq, "b"),
            ("a != b", "a", Op::Ne, "b"),
            ("a == b", "a", Op::Eq, "b"),
            ("|a - b| <= 1", "|a - b|", Op::Le, "1"),
            ("|2a-b|<=1", "|2a - b|", Op::Le, "1"),
            ("|c - a| <= 1", "|c - a|", Op::Le, "1"),
            ("a = -b", "a", Op::Eq, "-b"),
            ("a >= 1", "a", Op::Ge, "1"),
            ("c = -1", "c", Op::Eq, "-1"),
            ("z != 1", "z", Op::Ne, "1"),
            ("a < 2b + 3", "a", Op::Lt, "2b + 3"),
            ("|a| = |b|", "|a|", Op::Eq, "|b|"),
            ("a + b > 0", "a + b", Op::Gt, "0"),
        ] {
            let want = Cond::Compare {
                left: side(left),
                op,
                right: side(right),
            };
            assert_eq!(Cond::parse(text), Ok(want), "{text}");
        }
        let (c, a) = (side("c").expr, side("a").expr);
        assert_eq!(
            Cond::parse("c divides a"),
            Ok(Cond::Divides { divisor: c, of: a })
        );
        assert_eq!(Cond::parse("|c - a| <= 1").map(|c| c.letters()), Ok(0b101));
        assert_eq!(
            Cond::parse("z divides 2").map(|c| c.letters()),
            Ok(0b10_0000)
        );
    }

    #[test]
    fn examples_evaluate() {
        // (condition, tile values where it holds, tile values where it fails)
        for (text, yes, no) in [
            ("|2a - b| <= 1", [3, 5, 0, 0, 0, 0], [3, 8, 0, 0, 0, 0]),
            ("|2a - b| <= 1", [3, 6, 0, 0, 0, 0], [3, 4, 0, 0, 0, 0]),
            ("|2a - b| <= 1", [3, 7, 0, 0, 0, 0], [-3, 7, 0, 0, 0, 0]),
            ("c divides a", [6, 0, 3, 0, 0, 0], [6, 0, 4, 0, 0, 0]),
            ("c divides a", [-6, 0, -3, 0, 0, 0], [6, 0, 0, 0, 0, 0]),
            ("c divides a", [i64::MIN, 0, -1, 0, 0, 0], [0; 6]),
            ("z != 1", [0; 6], [0, 0, 0, 0, 0, 1]),
            ("a = b", [4, 4, 0, 0, 0, 0], [4, 2, 0, 0, 0, 0]),
            ("a != b", [4, 2, 0, 0, 0, 0], [4, 4, 0, 0, 0, 0]),
            ("|a - b| <= 1", [4, 5, 0, 0, 0, 0], [4, 6, 0, 0, 0, 0]),
            ("|c - a| <= 1", [2, 0, 1, 0, 0, 0], [2, 0, 4, 0, 0, 0]),
            ("a = -b", [3, -3, 0, 0, 0, 0], [3, 3, 0, 0, 0, 0]),
            ("a >= 1", [1, 0, 0, 0, 0, 0], [0; 6]),
            ("c = 1", [0, 0, 1, 0, 0, 0], [1, 0, 0, 0, 0, 0]),
            ("c = -1", [0, 0, -1, 0, 0, 0], [0, 0, 1, 0, 0, 0]),
            ("a < 2b + 3", [6, 2, 0, 0, 0, 0], [7, 2, 0, 0, 0, 0]),
            ("|a| = |b|", [-2, 2, 0, 0, 0, 0], [1, 2, 0, 0, 0, 0]),
            ("a + b > 0", [-1, 2, 0, 0, 0, 0], [-2, 2, 0, 0, 0, 0]),
        ] {
            let cond = Cond::parse(text).unwrap();
            assert!(cond.holds(&yes) && !cond.holds(&no), "{text}");
        }
        let v = [5, 3, 2, 0, 0, 0];
        for (text, want) in [
            ("a + b", 8),
            ("a + b + c", 10),
            ("2a + 1", 11),
            ("a - 1", 4),
        ] {
            assert_eq!(Expr::parse(text).unwrap().eval(&v), Some(want), "{text}");
        }
        assert_eq!(Expr::parse("3").unwrap().eval(&v), Some(3));
    }

    #[test]
    fn display_is_canonical_and_round_trips() {
        for (text, want) in [
            ("|2a - b| <= 1", "|2a - b| <= 1"),
            ("|c - a| <= 1", "|c - a| <= 1"),
            ("-a + c - 2b = 0", "c - a - 2b = 0"),
            ("a == b", "a = b"),
            ("c divides a", "c divides a"),
            ("a+b>0", "a + b > 0"),
            ("-z >= -0", "-z >= 0"),
            ("|a|!=|b|", "|a| != |b|"),
            ("1 + 2a < a - 1", "2a + 1 < a - 1"),
            ("a - a = -a - 7", "0 = -a - 7"),
        ] {
            let cond = Cond::parse(text).unwrap();
            assert_eq!(cond.to_string(), want);
            assert_eq!(Cond::parse(want), Ok(cond));
        }
    }

    #[test]
    fn bad_inputs_are_refused_with_a_reason() {
        for (text, part) in [
            ("a = x", "\"x\" is not a tile letter (a to e, or z)"),
            ("A = b", "\"A\" is not a tile letter"),
            ("ab = 1", "unknown word \"ab\""),
            ("a b", "no comparison (=, !=, <, <=, >, >=) or"),
            ("", "no comparison"),
            ("a + = b", "an expression ends with \"+\""),
            ("|a - b <= 1", "\"|\" is not closed"),
            ("|a| + |b| = 1", "must enclose a whole side before"),
            ("|| = 1", "empty expression inside \"|...|\""),
            ("= b", "empty expression before \"=\""),
            ("a <", "empty expression after \"<\""),
            ("a = b = c", "more than one comparison: \"=\" and"),
            ("a < b divides c", "more than one comparison"),
            ("a ! b", "unexpected \"!\" at column 3"),
            ("(a) = b", "unexpected \"(\" at column 1"),
            ("2 * a = b", "unexpected \"*\""),
            ("a2 = b", "a number follows \"a\" (write 2a, not a2)"),
            ("a b = 1", "\"b\" follows \"a\" without"),
            ("a + - b = 1", "\"-\" follows \"+\""),
            ("|a| divides b", "cannot be used with \"divides\""),
            ("a = 9223372036854775808", "the constant is too large"),
            ("a = 10000000000000000000", "the number \"1"),
            ("9223372036854775807a + a > 0", "coefficient of \"a\""),
            ("9223372036854775807 + 1 = a", "constant is too large"),
        ] {
            let err = Cond::parse(text).unwrap_err();
            assert!(err.contains(part), "{text:?} gave {err:?}");
        }
        let err = |text| Expr::parse(text).unwrap_err();
        assert!(err("a = b").contains("\"=\" is not allowed in an expression"));
        assert!(err(" ").contains("empty expression"));
        assert!(err("a +").contains("ends with \"+\""));
    }

    #[test]
    fn overflow_is_none_or_false() {
        let big = [i64::MAX, 2, 0, 0, 0, 0];
        assert_eq!(Expr::parse("a + b").unwrap().eval(&big), None);
        assert_eq!(Expr::parse("2a").unwrap().eval(&big), None);
        for text in ["a + b > 0", "a + b != 0", "2a divides 1", "1 divides 2a"] {
            assert!(!Cond::parse(text).unwrap().holds(&big), "{text}");
        }
        let min = [i64::MIN, 0, 0, 0, 0, 0];
        assert!(!Cond::parse("|a| >= 0").unwrap().holds(&min));
    }

    fn expr() -> impl Strategy<Value = Expr> {
        let n = || prop_oneof![-3i64..=3, any::<i64>()];
        (prop::array::uniform6(n()), n()).prop_map(|(coef, constant)| Expr { coef, constant })
    }

    fn cond() -> impl Strategy<Value = Cond> {
        let side = || (expr(), any::<bool>()).prop_map(|(expr, abs)| Side { expr, abs });
        let op = prop::sample::select(OPS.map(|(_, op)| op).to_vec());
        prop_oneof![
            (side(), op, side()).prop_map(|(left, op, right)| Cond::Compare { left, op, right }),
            (expr(), expr()).prop_map(|(divisor, of)| Cond::Divides { divisor, of }),
        ]
    }

    proptest! {
        #[test]
        fn parse_never_panics(t in "\\PC{0,30}", u in "([abcdezx0-9 +|<>=!-]|divides){0,16}") {
            let _ = (Cond::parse(&t), Expr::parse(&t), Cond::parse(&u), Expr::parse(&u));
        }

        #[test]
        fn display_round_trips(e in expr(), c in cond()) {
            prop_assert_eq!(Expr::parse(&e.to_string()), Ok(e));
            prop_assert_eq!(Cond::parse(&c.to_string()), Ok(c));
        }
    }
}
