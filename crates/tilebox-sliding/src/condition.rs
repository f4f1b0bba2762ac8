//! Conditions and expressions of integer merge rules, written as short text.
//!
//! A variant whose tiles are plain integers says when 2 to 5 neighbouring tiles of a line merge
//! (a [`Cond`], like `|a - b| <= 1`, `c divides a` or, in format 3, `is_prime(a / gcd(a, b))`),
//! what they make and what the merge scores (an [`Expr`], like `a + b`). Tiles are named from the
//! wall outward: `a` (nearest the wall) to `e`, and `z` is the tile behind them, farther from the
//! wall, as the line lay before the move (0 when there is none); see [`LETTERS`]. `t` is the
//! move's number (the moves played before it) and `made`, in a score only, the tile the merge
//! made.
//!
//! An expression is a small tree held in one vector (children before their parents, the root
//! last), at most [`MAX_NODES`] nodes, evaluated without allocating by [`Expr::eval`] over an
//! [`Env`]. Every value is an `i64`; a division or `mod` by 0, an overflow or a function's
//! undefined value makes the expression undefined (`None`): a condition that is undefined does
//! not hold, and a `makes` that is undefined makes no merge.
//!
//! Grammar, loosest first (whitespace between tokens is ignored, so `2 a` is `2a`; `a2` is
//! refused):
//! `cond := conj ("or" conj)*`, `conj := neg ("and" neg)*`, `neg := "not" neg | cmp`,
//! `cmp := sum [(= | == | != | < | <= | > | >= | "divides") sum]`,
//! `sum := prod ((+ | -) prod)*`, `prod := unary ((* | / | "mod") unary)*`,
//! `unary := - unary | atom`, `atom := integer [letter | t] | letter | t | made | "|" cond "|" |
//! "(" cond ")" | func "(" cond ("," cond)* ")"`.
//! A condition is a comparison, `divides`, a test such as `is_prime(x)`, or `and`/`or`/`not` of
//! them; a number is never a condition and a condition never a number (`if(c, x, y)` turns one
//! into the other).

use std::fmt;

use tilebox_core::json_words::quote;

use crate::numtheory;

/// The tile letters, by index in [`Env::tiles`]: `a` to `e` from the wall outward, then `z`,
/// the tile behind the rule's tiles.
pub const LETTERS: [char; 6] = ['a', 'b', 'c', 'd', 'e', 'z'];

/// The most nodes (numbers, letters, operators and calls) an expression may have. Each node is
/// evaluated at most once, so an evaluation costs at most this many times the slowest function
/// (`docs/variants.md` states the bound).
pub const MAX_NODES: usize = 128;

/// The largest argument of `next_prime`: 2^32, below which primes are at most 336 apart, so
/// that its search tests a few hundred numbers at most.
pub const NEXT_PRIME_MOST: i64 = 1 << 32;

/// The deepest nesting of parentheses, bars and calls the parser reads.
const MAX_DEPTH: usize = 64;

/// A comparison operator.
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

    fn holds(self, l: i64, r: i64) -> bool {
        match self {
            Op::Eq => l == r,
            Op::Ne => l != r,
            Op::Lt => l < r,
            Op::Le => l <= r,
            Op::Gt => l > r,
            Op::Ge => l >= r,
        }
    }
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bin {
    /// `x + y`.
    Add,
    /// `x - y`.
    Sub,
    /// `x * y` (also `2a`: a number before a letter).
    Mul,
    /// `x / y`, Euclid's quotient (rounded down for y > 0: -7 / 2 = -4); undefined for y = 0.
    Div,
    /// `x mod y`, Euclid's remainder: from 0 to |y| - 1, so x = (x / y)·y + x mod y; undefined
    /// for y = 0.
    Mod,
    /// A comparison of two numbers.
    Cmp(Op),
    /// `x divides y`: y is a whole multiple of x (0 divides nothing).
    Divides,
    /// `p and q`.
    And,
    /// `p or q`.
    Or,
}

impl Bin {
    fn symbol(self) -> &'static str {
        match self {
            Bin::Add => "+",
            Bin::Sub => "-",
            Bin::Mul => "*",
            Bin::Div => "/",
            Bin::Mod => "mod",
            Bin::Cmp(op) => op.symbol(),
            Bin::Divides => "divides",
            Bin::And => "and",
            Bin::Or => "or",
        }
    }

    /// How tightly it binds ([`Node::precedence`]).
    fn precedence(self) -> u8 {
        match self {
            Bin::Or => 1,
            Bin::And => 2,
            Bin::Cmp(_) | Bin::Divides => 4,
            Bin::Add | Bin::Sub => 5,
            Bin::Mul | Bin::Div | Bin::Mod => 6,
        }
    }
}

/// A function of the closed library (`docs/variants.md` gives each one's exact meaning).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Func {
    /// `gcd(x, y)`.
    Gcd,
    /// `lcm(x, y)`.
    Lcm,
    /// `min(x, y)`.
    Min,
    /// `max(x, y)`.
    Max,
    /// `pow(x, y)`.
    Pow,
    /// `is_prime(x)`, a condition.
    IsPrime,
    /// `next_prime(x)`.
    NextPrime,
    /// `divisors(x)`.
    Divisors,
    /// `is_square(x)`, a condition.
    IsSquare,
    /// `isqrt(x)`.
    Isqrt,
    /// `power_exp(x)`.
    PowerExp,
    /// `tri(x)`.
    Tri,
    /// `is_tri(x)`, a condition.
    IsTri,
    /// `band(x, y)`.
    Band,
    /// `bor(x, y)`.
    Bor,
    /// `bxor(x, y)`.
    Bxor,
    /// `popcount(x)`.
    Popcount,
    /// `highbit(x)`.
    Highbit,
    /// `if(c, x, y)`.
    If,
}

impl Func {
    /// Every function, as written.
    pub const ALL: [(&'static str, Func); 19] = [
        ("gcd", Func::Gcd),
        ("lcm", Func::Lcm),
        ("min", Func::Min),
        ("max", Func::Max),
        ("pow", Func::Pow),
        ("is_prime", Func::IsPrime),
        ("next_prime", Func::NextPrime),
        ("divisors", Func::Divisors),
        ("is_square", Func::IsSquare),
        ("isqrt", Func::Isqrt),
        ("power_exp", Func::PowerExp),
        ("tri", Func::Tri),
        ("is_tri", Func::IsTri),
        ("band", Func::Band),
        ("bor", Func::Bor),
        ("bxor", Func::Bxor),
        ("popcount", Func::Popcount),
        ("highbit", Func::Highbit),
        ("if", Func::If),
    ];

    /// Its name, as written.
    pub fn name(self) -> &'static str {
        Func::ALL
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("if", |(n, _)| n)
    }

    /// The sorts of its arguments, in order.
    fn args(self) -> &'static [Sort] {
        use Sort::{Bool, Int};
        match self {
            Func::If => &[Bool, Int, Int],
            Func::Gcd
            | Func::Lcm
            | Func::Min
            | Func::Max
            | Func::Pow
            | Func::Band
            | Func::Bor
            | Func::Bxor => &[Int, Int],
            _ => &[Int],
        }
    }

    /// The sort of its value.
    fn sort(self) -> Sort {
        match self {
            Func::IsPrime | Func::IsSquare | Func::IsTri => Sort::Bool,
            _ => Sort::Int,
        }
    }

    /// Its value at `x` (and `y`): `None` where undefined. `if` is the evaluator's own.
    fn apply(self, x: i64, y: i64) -> Option<i64> {
        let bit = |b: bool| Some(i64::from(b));
        match self {
            Func::Gcd => numtheory::gcd(x, y),
            Func::Lcm => numtheory::lcm(x, y),
            Func::Min => Some(x.min(y)),
            Func::Max => Some(x.max(y)),
            Func::Pow => numtheory::pow(x, y),
            Func::IsPrime => bit(numtheory::is_prime(x)),
            // Past 2^32 its search for the next prime could be long: undefined there.
            Func::NextPrime if x > NEXT_PRIME_MOST => None,
            Func::NextPrime => numtheory::next_prime(x),
            Func::Divisors => numtheory::divisors(x),
            Func::IsSquare => bit(numtheory::is_square(x)),
            Func::Isqrt => numtheory::isqrt(x),
            Func::PowerExp => numtheory::power_exp(x),
            Func::Tri => numtheory::tri(x),
            Func::IsTri => bit(numtheory::is_tri(x)),
            Func::Band => Some(x & y),
            Func::Bor => Some(x | y),
            Func::Bxor => Some(x ^ y),
            Func::Popcount => numtheory::popcount(x),
            Func::Highbit => numtheory::highbit(x),
            Func::If => None,
        }
    }
}

/// What a node's value is: a number, or a truth (held as 1 or 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sort {
    /// A number.
    Int,
    /// A condition.
    Bool,
}

/// A node of an expression; its children are indices of earlier nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Node {
    /// An integer.
    Num(i64),
    /// A tile, by index in [`LETTERS`].
    Letter(u8),
    /// `t`, the move's number: the moves played before it.
    Turn,
    /// `made`, in a score: the tile the merge made.
    Made,
    /// A counter of the turn pipeline (format 3's `counters`), by index in
    /// [`Expr::parse_with`]'s names.
    Counter(u8),
    /// `-x`.
    Neg(u8),
    /// `|x|`.
    Abs(u8),
    /// `not p`.
    Not(u8),
    /// `x op y`.
    Bin(Bin, u8, u8),
    /// A call; the arguments past the function's arity are 0.
    Call(Func, [u8; 3]),
    /// `a.x`, a field of a tile that is a record: the letter, the field's name (ASCII, padded
    /// with 0) and its index in the record, [`NO_FIELD`] until [`Expr::bind`] finds it.
    Field(u8, FieldName, u8),
    /// `(x, y, …)`, a record that a rule makes (the root only): its fields and their count.
    Tuple([u8; MAX_FIELDS], u8),
}

/// The most fields a record has.
pub const MAX_FIELDS: usize = 4;

/// The index of a field not yet found in a record's fields ([`Expr::bind`]).
pub const NO_FIELD: u8 = u8::MAX;

/// The most letters a field's name has.
pub const MAX_FIELD_NAME: usize = 8;

/// A field's name, its ASCII letters padded with 0.
pub type FieldName = [u8; MAX_FIELD_NAME];

/// The text of a field's name.
pub fn field_text(name: &FieldName) -> &str {
    let len = name.iter().position(|&b| b == 0).unwrap_or(MAX_FIELD_NAME);
    std::str::from_utf8(&name[..len]).unwrap_or("?")
}

/// A field's name from its text, if it is 1 to [`MAX_FIELD_NAME`] ASCII letters.
pub fn field_name(text: &str) -> Option<FieldName> {
    if text.is_empty()
        || text.len() > MAX_FIELD_NAME
        || !text.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
    {
        return None;
    }
    let mut name = [0; MAX_FIELD_NAME];
    name[..text.len()].copy_from_slice(text.as_bytes());
    Some(name)
}

impl Node {
    /// How tightly the node binds when written: 1 for `or` to 8 for an atom.
    fn precedence(self) -> u8 {
        match self {
            Node::Bin(b, ..) => b.precedence(),
            Node::Not(_) => 3,
            Node::Neg(_) => 7,
            Node::Num(n) if n < 0 => 7,
            _ => 8,
        }
    }
}

/// What an expression reads besides its tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Env {
    /// The tiles, indexed as [`LETTERS`] (`z` is 0 when no tile lies behind).
    pub tiles: [i64; 6],
    /// `t`: the move's number.
    pub turn: i64,
    /// `made`: the tile the merge made (in a score).
    pub made: i64,
    /// The counters of the turn pipeline, in the order of their names.
    pub counters: [i64; 4],
    /// The fields of the tiles that are records, indexed as `tiles` (0 past a record's fields).
    pub fields: [[i64; MAX_FIELDS]; 6],
}

impl Env {
    /// The tiles `tiles` on move 0.
    pub fn of(tiles: [i64; 6]) -> Env {
        Env {
            tiles,
            ..Env::default()
        }
    }
}

/// An expression: a number (`a + b`, `gcd(a, b)`) or, as a [`Cond`], a condition.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Expr {
    nodes: Vec<Node>,
    /// The names of the counters it may read ([`Expr::parse_with`]), for writing it out.
    counters: Vec<String>,
}

/// A condition, deciding whether a merge rule applies: an expression whose value is a truth.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cond(Expr);

/// A token of expression text; numbers are at most 2^63 (the magnitude of `i64::MIN`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok<'t> {
    Num(i128),
    Word(&'t str),
    Sym(&'static str),
    Op(Op),
}

impl fmt::Display for Tok<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Num(n) => write!(f, "\"{n}\""),
            Tok::Word(w) => write!(f, "{}", quote(w)),
            Tok::Sym(s) => write!(f, "\"{s}\""),
            Tok::Op(op) => write!(f, "\"{}\"", op.symbol()),
        }
    }
}

const SYMBOLS: [&str; 9] = ["+", "-", "*", "/", "|", "(", ")", ",", "."];

fn tokenize(text: &str) -> Result<Vec<Tok<'_>>, String> {
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
            'a'..='z' | 'A'..='Z' | '_' => {
                let word = run(|c| c.is_ascii_alphabetic() || *c == '_');
                (Tok::Word(word), word.len())
            }
            _ => match (
                SYMBOLS.iter().find(|s| rest.starts_with(*s)),
                OPS.iter().find(|(s, _)| rest.starts_with(s)),
            ) {
                (Some(s), _) => (Tok::Sym(s), 1),
                (None, Some((s, op))) => (Tok::Op(*op), s.len()),
                (None, None) => {
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

/// The words that are not names of tiles or functions.
const KEYWORDS: [&str; 7] = ["and", "or", "divides", "mod", "not", "made", "t"];

/// A recursive-descent parser over tokens, building the node vector.
struct Parser<'t> {
    toks: Vec<Tok<'t>>,
    at: usize,
    nodes: Vec<Node>,
    depth: usize,
    /// The counters' names, which read as [`Node::Counter`].
    counters: &'t [String],
    /// The fields a bare word names, as `a`'s (a record's `worth` and `label`).
    bare: &'t [String],
}

type Parsed = Result<(u8, Sort), String>;

impl<'t> Parser<'t> {
    fn peek(&self) -> Option<Tok<'t>> {
        self.toks.get(self.at).copied()
    }

    fn eat(&mut self, tok: Tok<'_>) -> bool {
        let hit = self.peek() == Some(tok);
        self.at += usize::from(hit);
        hit
    }

    fn push(&mut self, node: Node) -> Result<u8, String> {
        if self.nodes.len() >= MAX_NODES {
            return Err(format!(
                "more than {MAX_NODES} numbers, letters, operators and calls"
            ));
        }
        self.nodes.push(node);
        u8::try_from(self.nodes.len() - 1).map_err(|_| "too many nodes".to_string())
    }

    /// Node `i` if it is of sort `want`; else why not, `what` naming what takes it (`None`:
    /// the whole text).
    fn want(&self, (i, sort): (u8, Sort), want: Sort, what: Option<&str>) -> Result<u8, String> {
        if sort == want {
            return Ok(i);
        }
        let text = quote(&Shown(&self.nodes, i).to_string());
        Err(match (want, what) {
            (Sort::Int, Some(w)) => format!("{text} is a condition where {w} takes a number"),
            (Sort::Bool, Some(w)) => format!("{text} is a number where {w} takes a condition"),
            (Sort::Int, None) => format!("{text} is a condition, not a number"),
            (Sort::Bool, None) => format!(
                "{text} is a number, not a condition (a comparison such as \"a = b\", or \"divides\")"
            ),
        })
    }

    fn nest(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("nested more than {MAX_DEPTH} deep"));
        }
        Ok(())
    }

    fn or(&mut self) -> Parsed {
        self.nest()?;
        let mut left = self.and()?;
        while self.eat(Tok::Word("or")) {
            let l = self.want(left, Sort::Bool, Some("\"or\""))?;
            let right = self.and()?;
            let r = self.want(right, Sort::Bool, Some("\"or\""))?;
            left = (self.push(Node::Bin(Bin::Or, l, r))?, Sort::Bool);
        }
        self.depth -= 1;
        Ok(left)
    }

    fn and(&mut self) -> Parsed {
        let mut left = self.not()?;
        while self.eat(Tok::Word("and")) {
            let l = self.want(left, Sort::Bool, Some("\"and\""))?;
            let right = self.not()?;
            let r = self.want(right, Sort::Bool, Some("\"and\""))?;
            left = (self.push(Node::Bin(Bin::And, l, r))?, Sort::Bool);
        }
        Ok(left)
    }

    fn not(&mut self) -> Parsed {
        if self.eat(Tok::Word("not")) {
            self.nest()?;
            let inner = self.not()?;
            self.depth -= 1;
            let i = self.want(inner, Sort::Bool, Some("\"not\""))?;
            return Ok((self.push(Node::Not(i))?, Sort::Bool));
        }
        self.cmp()
    }

    fn cmp(&mut self) -> Parsed {
        let left = self.sum()?;
        let bin = match self.peek() {
            Some(Tok::Op(op)) => Bin::Cmp(op),
            Some(Tok::Word("divides")) => Bin::Divides,
            _ => return Ok(left),
        };
        let t = self.peek().map(|t| t.to_string()).unwrap_or_default();
        self.at += 1;
        let l = self.want(left, Sort::Int, Some(&t))?;
        if self.peek().is_none() {
            return Err(format!("empty expression after {t}"));
        }
        let right = self.sum()?;
        let r = self.want(right, Sort::Int, Some(&t))?;
        if let Some(next @ (Tok::Op(_) | Tok::Word("divides"))) = self.peek() {
            return Err(format!("more than one comparison: {t} and {next}"));
        }
        Ok((self.push(Node::Bin(bin, l, r))?, Sort::Bool))
    }

    fn sum(&mut self) -> Parsed {
        let mut left = self.prod()?;
        loop {
            let bin = match self.peek() {
                Some(Tok::Sym("+")) => Bin::Add,
                Some(Tok::Sym("-")) => Bin::Sub,
                _ => return Ok(left),
            };
            self.at += 1;
            let l = self.want(left, Sort::Int, Some(&format!("\"{}\"", bin.symbol())))?;
            let right = self.prod()?;
            let r = self.want(right, Sort::Int, Some(&format!("\"{}\"", bin.symbol())))?;
            left = (self.push(Node::Bin(bin, l, r))?, Sort::Int);
        }
    }

    fn prod(&mut self) -> Parsed {
        let mut left = self.unary()?;
        loop {
            let bin = match self.peek() {
                Some(Tok::Sym("*")) => Bin::Mul,
                Some(Tok::Sym("/")) => Bin::Div,
                Some(Tok::Word("mod")) => Bin::Mod,
                _ => return Ok(left),
            };
            self.at += 1;
            let l = self.want(left, Sort::Int, Some(&format!("\"{}\"", bin.symbol())))?;
            let right = self.unary()?;
            let r = self.want(right, Sort::Int, Some(&format!("\"{}\"", bin.symbol())))?;
            left = (self.push(Node::Bin(bin, l, r))?, Sort::Int);
        }
    }

    fn unary(&mut self) -> Parsed {
        if !self.eat(Tok::Sym("-")) {
            return self.atom();
        }
        if let Some(Tok::Num(n)) = self.peek() {
            // `-5` is the number -5 (and `-9223372036854775808` is `i64::MIN`).
            self.at += 1;
            return self.number(-n);
        }
        self.nest()?;
        let inner = self.unary()?;
        self.depth -= 1;
        let i = self.want(inner, Sort::Int, Some("\"-\""))?;
        Ok((self.push(Node::Neg(i))?, Sort::Int))
    }

    /// A number, and the letter or `t` it multiplies if one follows it (`2a`).
    fn number(&mut self, n: i128) -> Parsed {
        let n = i64::try_from(n).map_err(|_| format!("the number {} is too large", n.abs()))?;
        let num = self.push(Node::Num(n))?;
        let by = match self.peek() {
            Some(Tok::Word("t")) => Some(Node::Turn),
            Some(Tok::Word(w)) => letter(w).map(Node::Letter),
            _ => None,
        };
        let Some(by) = by else {
            return Ok((num, Sort::Int));
        };
        self.at += 1;
        let by = self.push(by)?;
        Ok((self.push(Node::Bin(Bin::Mul, num, by))?, Sort::Int))
    }

    fn atom(&mut self) -> Parsed {
        let Some(tok) = self.peek() else {
            return Err(
                match self.at.checked_sub(1).and_then(|i| self.toks.get(i)) {
                    Some(t) => format!("an expression ends with {t}"),
                    None => "empty expression".to_string(),
                },
            );
        };
        self.at += 1;
        let parsed = match tok {
            Tok::Num(n) => self.number(n)?,
            Tok::Sym("(") => {
                let inner = self.or()?;
                if !self.eat(Tok::Sym(")")) {
                    return Err("\"(\" is not closed".to_string());
                }
                inner
            }
            Tok::Sym("|") => {
                let inner = self.or()?;
                if !self.eat(Tok::Sym("|")) {
                    return Err("\"|\" is not closed".to_string());
                }
                let i = self.want(inner, Sort::Int, Some("\"|...|\""))?;
                (self.push(Node::Abs(i))?, Sort::Int)
            }
            Tok::Word("t") => (self.push(Node::Turn)?, Sort::Int),
            Tok::Word("made") => (self.push(Node::Made)?, Sort::Int),
            Tok::Word(w) if self.counters.iter().any(|c| c == w) => {
                let i = self.counters.iter().position(|c| c == w).unwrap_or(0);
                let i = u8::try_from(i).map_err(|_| "too many counters".to_string())?;
                (self.push(Node::Counter(i))?, Sort::Int)
            }
            Tok::Word(w) if KEYWORDS.contains(&w) => {
                return Err(format!("{tok} {}", self.no_operand()));
            }
            Tok::Word(w) if self.bare.iter().any(|f| f == w) => {
                let name =
                    field_name(w).ok_or_else(|| format!("{} is not a field name", quote(w)))?;
                (self.push(Node::Field(0, name, NO_FIELD))?, Sort::Int)
            }
            Tok::Word(w)
                if !self.bare.is_empty()
                    && letter(w).is_none()
                    && !Func::ALL.iter().any(|(n, _)| *n == w) =>
            {
                return Err(format!(
                    "{} is not a field (the fields are {})",
                    quote(w),
                    self.bare.join(", ")
                ));
            }
            Tok::Word(w) => match (letter(w), Func::ALL.iter().find(|(n, _)| *n == w)) {
                (Some(l), _) if self.eat(Tok::Sym(".")) => {
                    let Some(Tok::Word(f)) = self.peek() else {
                        return Err(format!(
                            "{} is not followed by a field name",
                            quote(&format!("{w}."))
                        ));
                    };
                    self.at += 1;
                    let name = field_name(f).ok_or_else(|| {
                        format!(
                            "{} is not a field name (1 to {MAX_FIELD_NAME} letters)",
                            quote(f)
                        )
                    })?;
                    (self.push(Node::Field(l, name, NO_FIELD))?, Sort::Int)
                }
                (Some(l), _) => (self.push(Node::Letter(l))?, Sort::Int),
                (None, Some(&(_, f))) => self.call(f)?,
                (None, None) if w.len() == 1 => {
                    return Err(format!("{} is not a tile letter (a to e, or z)", quote(w)));
                }
                (None, None) if self.peek() == Some(Tok::Sym("(")) => {
                    let names: Vec<&str> = Func::ALL.iter().map(|(n, _)| *n).collect();
                    return Err(format!(
                        "unknown function {} (they are {})",
                        quote(w),
                        names.join(", ")
                    ));
                }
                (None, None) => {
                    return Err(format!(
                        "unknown word {} (tiles are single letters)",
                        quote(w)
                    ));
                }
            },
            _ => return Err(format!("{tok} {}", self.no_operand())),
        };
        match self.peek() {
            Some(Tok::Num(_)) => Err(format!("a number follows {tok} (write 2a, not a2)")),
            Some(next @ (Tok::Word(_) | Tok::Sym("("))) if !matches!(next, Tok::Word(w) if KEYWORDS[..4].contains(&w)) => {
                Err(format!("{next} follows {tok} without an operator"))
            }
            _ => Ok(parsed),
        }
    }

    fn no_operand(&self) -> String {
        match self.at.checked_sub(2).and_then(|i| self.toks.get(i)) {
            Some(p) => format!("follows {p}"),
            None => "has nothing before it".to_string(),
        }
    }

    fn call(&mut self, f: Func) -> Parsed {
        let name = f.name();
        if !self.eat(Tok::Sym("(")) {
            return Err(format!("{} is a function: write {name}(...)", quote(name)));
        }
        self.nest()?;
        let sorts = f.args();
        let mut args = [0u8; 3];
        let mut count = 0;
        if !self.eat(Tok::Sym(")")) {
            loop {
                let arg = self.or()?;
                if let (Some(slot), Some(&sort)) = (args.get_mut(count), sorts.get(count)) {
                    *slot = self.want(
                        arg,
                        sort,
                        Some(&format!("argument {} of {name}", count + 1)),
                    )?;
                }
                count += 1;
                if self.eat(Tok::Sym(")")) {
                    break;
                }
                if !self.eat(Tok::Sym(",")) {
                    return Err(format!("{name}(...) is not closed"));
                }
            }
        }
        self.depth -= 1;
        if count != sorts.len() {
            let s = if sorts.len() == 1 { "" } else { "s" };
            return Err(format!(
                "{name} takes {} argument{s}, not {count}",
                sorts.len()
            ));
        }
        Ok((self.push(Node::Call(f, args))?, f.sort()))
    }
}

/// The index of a tile letter.
fn letter(word: &str) -> Option<u8> {
    let mut chars = word.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    LETTERS
        .iter()
        .position(|&l| l == c)
        .and_then(|i| u8::try_from(i).ok())
}

/// Reads `text` as an expression of sort `sort`.
fn parse(text: &str, sort: Sort) -> Result<Vec<Node>, String> {
    parse_in(text, sort, &scope(), &[])
}

thread_local! {
    /// The counters that the texts read on this thread may name ([`with_counters`]).
    static SCOPE: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` with the counters `names` in scope: [`Expr::parse`], [`Expr::parse_score`],
/// [`Expr::parse_makes`] and [`Cond::parse`] then read them as counters (format 3's merge rules
/// that read the turn pipeline's counters: mod 27's `m`).
pub fn with_counters<T>(names: &[String], f: impl FnOnce() -> T) -> T {
    let old = SCOPE.replace(names.to_vec());
    let out = f();
    SCOPE.set(old);
    out
}

/// The counters in scope ([`with_counters`]).
fn scope() -> Vec<String> {
    SCOPE.with_borrow(Clone::clone)
}

/// The names an expression of `nodes` keeps for writing itself out: the counters in scope,
/// where it reads one.
fn names_of(nodes: &[Node]) -> Vec<String> {
    if nodes.iter().any(|n| matches!(n, Node::Counter(_))) {
        scope()
    } else {
        Vec::new()
    }
}

/// Reads `text` as an expression of sort `sort` that may read the counters `counters`, and
/// where the words `bare` are fields of `a`.
fn parse_in(
    text: &str,
    sort: Sort,
    counters: &[String],
    bare: &[String],
) -> Result<Vec<Node>, String> {
    let toks = tokenize(text)?;
    if toks.is_empty() {
        return Err(match sort {
            Sort::Int => "empty expression".to_string(),
            Sort::Bool => "empty condition".to_string(),
        });
    }
    let mut p = Parser {
        toks,
        at: 0,
        nodes: Vec::new(),
        depth: 0,
        counters,
        bare,
    };
    let top = p.or()?;
    if let Some(t) = p.peek() {
        return Err(format!("{t} {}", p.no_operand_here()));
    }
    p.want(top, sort, None)?;
    Ok(p.nodes)
}

impl Parser<'_> {
    fn no_operand_here(&self) -> String {
        match self.at.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(p) => format!("follows {p} where it cannot"),
            None => "cannot start an expression".to_string(),
        }
    }
}

impl Expr {
    /// Reads an expression such as `2a + 1` or `a / gcd(a, b)`; `made` is refused (a score
    /// reads it: [`Expr::parse_score`]). The error is one line naming what is wrong.
    pub fn parse(text: &str) -> Result<Expr, String> {
        let nodes = parse(text, Sort::Int)?;
        let e = Expr {
            counters: names_of(&nodes),
            nodes,
        };
        if e.reads_made() {
            return Err("\"made\" is the tile a merge made: only a rule's scores reads it".into());
        }
        Ok(e)
    }

    /// Reads a score, such as `|made|` or `a / b`.
    pub fn parse_score(text: &str) -> Result<Expr, String> {
        let nodes = parse(text, Sort::Int)?;
        Ok(Expr {
            counters: names_of(&nodes),
            nodes,
        })
    }

    /// Reads an expression that may also read the counters named `counters` (format 3's turn
    /// pipeline: `g + 1`, `tri(g)`); `made` is refused.
    pub fn parse_with(text: &str, counters: &[String]) -> Result<Expr, String> {
        let e = Expr {
            nodes: parse_in(text, Sort::Int, counters, &[])?,
            counters: counters.to_vec(),
        };
        if e.reads_made() {
            return Err("\"made\" is the tile a merge made: only a rule's scores reads it".into());
        }
        Ok(e)
    }

    /// Whether it reads the counter of index `i`.
    pub fn reads_counter(&self, i: usize) -> bool {
        self.nodes
            .iter()
            .any(|n| matches!(n, Node::Counter(c) if usize::from(*c) == i))
    }

    /// Reads what a rule makes: an expression, or a record of 2 to [`MAX_FIELDS`] of them
    /// between parentheses (`(a.x + b.x, a.y)`).
    pub fn parse_makes(text: &str) -> Result<Expr, String> {
        let parts = record_parts(text);
        if parts.len() < 2 {
            return Expr::parse(text);
        }
        if parts.len() > MAX_FIELDS {
            return Err(format!(
                "a record of {} fields, more than {MAX_FIELDS}",
                parts.len()
            ));
        }
        let mut nodes: Vec<Node> = Vec::new();
        let mut roots = [0u8; MAX_FIELDS];
        for (root, part) in roots.iter_mut().zip(&parts) {
            let e = Expr::parse(part)?;
            let base = u8::try_from(nodes.len()).map_err(|_| "too many nodes".to_string())?;
            nodes.extend(e.nodes.iter().map(|&n| shift(n, base)));
            *root = u8::try_from(nodes.len() - 1).map_err(|_| "too many nodes".to_string())?;
        }
        if nodes.len() >= MAX_NODES {
            return Err(format!(
                "more than {MAX_NODES} numbers, letters, operators and calls"
            ));
        }
        let count = u8::try_from(parts.len()).unwrap_or(u8::MAX);
        nodes.push(Node::Tuple(roots, count));
        Ok(Expr {
            counters: names_of(&nodes),
            nodes,
        })
    }

    /// Reads an expression of one tile whose fields `fields` are named by bare words (`v - q`).
    pub fn parse_of_fields(text: &str, fields: &[String]) -> Result<Expr, String> {
        let mut e = Expr {
            nodes: parse_in(text, Sort::Int, &[], fields)?,
            counters: Vec::new(),
        };
        if e.reads_made() {
            return Err("\"made\" is the tile a merge made: only a rule's scores reads it".into());
        }
        e.bind(fields)?;
        Ok(e)
    }

    /// How many values it makes: the fields of a record (`(x, y)`), else 1.
    pub fn arity(&self) -> usize {
        match self.nodes.last() {
            Some(Node::Tuple(_, n)) => usize::from(*n),
            _ => 1,
        }
    }

    /// The values of a record it makes (one value for an expression that is no record), and
    /// how many; `None` when one is undefined.
    pub fn eval_record(&self, env: &Env) -> Option<([i64; MAX_FIELDS], usize)> {
        let mut out = [0; MAX_FIELDS];
        match self.nodes.last()? {
            &Node::Tuple(roots, n) => {
                let n = usize::from(n);
                for (o, &r) in out.iter_mut().zip(&roots[..n]) {
                    *o = eval_at(&self.nodes, usize::from(r), env)?;
                }
                Some((out, n))
            }
            _ => {
                out[0] = self.eval(env)?;
                Some((out, 1))
            }
        }
    }

    /// Finds each field it reads (`a.x`) among `fields`; the refusal names the first that is
    /// not one of them.
    pub fn bind(&mut self, fields: &[String]) -> Result<(), String> {
        for node in &mut self.nodes {
            if let Node::Field(l, name, index) = node {
                let text = field_text(name);
                let i = fields.iter().position(|f| f == text).ok_or_else(|| {
                    let letter = LETTERS.get(usize::from(*l)).unwrap_or(&'?');
                    if fields.is_empty() {
                        format!(
                            "{} reads a field, but the tiles are not records",
                            quote(&format!("{letter}.{text}"))
                        )
                    } else {
                        format!(
                            "{} is not a field (the fields are {})",
                            quote(&format!("{letter}.{text}")),
                            fields.join(", ")
                        )
                    }
                })?;
                *index = u8::try_from(i).unwrap_or(NO_FIELD);
            }
        }
        Ok(())
    }

    /// The first field it reads that no [`Expr::bind`] has found, as `a.x`.
    pub fn unbound_field(&self) -> Option<String> {
        self.nodes.iter().find_map(|n| match n {
            Node::Field(l, name, NO_FIELD) => Some(format!(
                "{}.{}",
                LETTERS.get(usize::from(*l)).unwrap_or(&'?'),
                field_text(name)
            )),
            _ => None,
        })
    }

    /// The expression of a single tile letter (index in [`LETTERS`]).
    pub fn letter(i: u8) -> Expr {
        Expr {
            nodes: vec![Node::Letter(i)],
            counters: Vec::new(),
        }
    }

    /// The nodes, children before parents, the root last.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The value over `env`; `None` when undefined (a division by 0, an overflow, a function's
    /// undefined value).
    pub fn eval(&self, env: &Env) -> Option<i64> {
        let root = self.nodes.len().checked_sub(1)?;
        eval_at(&self.nodes, root, env)
    }

    /// The tiles the expression uses: bit i set when letter i occurs.
    pub fn letters(&self) -> u8 {
        self.nodes.iter().fold(0, |m, n| match n {
            Node::Letter(l) | Node::Field(l, ..) => m | 1 << l,
            _ => m,
        })
    }

    /// Whether it reads `t`.
    pub fn reads_turn(&self) -> bool {
        self.nodes.contains(&Node::Turn)
    }

    /// Whether it reads `made`.
    pub fn reads_made(&self) -> bool {
        self.nodes.contains(&Node::Made)
    }

    /// Whether it is in format 2's language: sums of whole multiples of letters and numbers
    /// (`2a - b + 1`); as a condition, one comparison of two such sums, each perhaps between
    /// bars as a whole, or `x divides y` of two sums.
    pub fn is_linear(&self) -> bool {
        self.nodes.last().is_some_and(|_| {
            let root = self.nodes.len() - 1;
            linear_sum(&self.nodes, root)
        })
    }

    /// The values of its parts that read `t` and no tile on move `turn`, in order: two moves
    /// that give the same values give every tile the same value ([`Cond::turn_parts`]).
    pub fn turn_parts(&self, turn: i64, out: &mut Vec<Option<i64>>) {
        let n = self.nodes.len();
        // For each node: reads t, reads a tile (or `made`), and its parent.
        let mut t = vec![false; n];
        let mut tile = vec![false; n];
        let mut parent = vec![usize::MAX; n];
        for (i, node) in self.nodes.iter().enumerate() {
            let kids = children(*node);
            t[i] = *node == Node::Turn;
            tile[i] = matches!(node, Node::Letter(_) | Node::Field(..) | Node::Made);
            for &k in kids.iter().flatten() {
                let k = usize::from(k);
                t[i] |= t[k];
                tile[i] |= tile[k];
                parent[k] = i;
            }
        }
        let env = Env {
            turn,
            ..Env::default()
        };
        let only = |i: usize| t[i] && !tile[i];
        for (i, &p) in parent.iter().enumerate() {
            if only(i) && (p >= n || !only(p)) {
                out.push(eval_at(&self.nodes, i, &env));
            }
        }
    }
}

/// Whether node `i` is a sum of whole multiples of letters and numbers.
fn linear_sum(nodes: &[Node], i: usize) -> bool {
    let at = |k: u8| usize::from(k);
    match nodes.get(i) {
        Some(Node::Num(_) | Node::Letter(_)) => true,
        Some(Node::Neg(k)) => linear_sum(nodes, at(*k)),
        Some(Node::Bin(Bin::Add | Bin::Sub, l, r)) => {
            linear_sum(nodes, at(*l)) && linear_sum(nodes, at(*r))
        }
        Some(Node::Bin(Bin::Mul, l, r)) => {
            matches!(nodes.get(at(*l)), Some(Node::Num(_)))
                && matches!(nodes.get(at(*r)), Some(Node::Letter(_)))
        }
        _ => false,
    }
}

/// The children of a node.
fn children(node: Node) -> [Option<u8>; MAX_FIELDS] {
    match node {
        Node::Num(_)
        | Node::Letter(_)
        | Node::Field(..)
        | Node::Turn
        | Node::Made
        | Node::Counter(_) => [None; MAX_FIELDS],
        Node::Neg(k) | Node::Abs(k) | Node::Not(k) => [Some(k), None, None, None],
        Node::Bin(_, l, r) => [Some(l), Some(r), None, None],
        Node::Call(f, args) => {
            let n = f.args().len();
            [0, 1, 2, 3].map(|i| args.get(i).copied().filter(|_| i < n))
        }
        Node::Tuple(roots, n) => [0, 1, 2, 3].map(|i| (i < usize::from(n)).then_some(roots[i])),
    }
}

/// Node `node` with its children `by` further on (a part of a record, placed after others).
fn shift(node: Node, by: u8) -> Node {
    let s = |k: u8| k.saturating_add(by);
    match node {
        Node::Neg(k) => Node::Neg(s(k)),
        Node::Abs(k) => Node::Abs(s(k)),
        Node::Not(k) => Node::Not(s(k)),
        Node::Bin(b, l, r) => Node::Bin(b, s(l), s(r)),
        Node::Call(f, args) => Node::Call(f, args.map(s)),
        Node::Tuple(roots, n) => Node::Tuple(roots.map(s), n),
        n => n,
    }
}

/// The parts of `(x, y, …)` split at its top-level commas; one part, the whole text, when it
/// is not such a record.
fn record_parts(text: &str) -> Vec<&str> {
    let t = text.trim();
    let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) else {
        return vec![text];
    };
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    // `(a) + (b)`: the first parenthesis closes before the end.
                    return vec![text];
                }
            }
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    if parts.len() < 2 { vec![text] } else { parts }
}

#[cfg(test)]
thread_local! {
    /// The nodes evaluated on this thread, for the test of the evaluation's bound.
    static VISITS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The value of node `i`; each node is visited at most once.
fn eval_at(nodes: &[Node], i: usize, env: &Env) -> Option<i64> {
    #[cfg(test)]
    VISITS.set(VISITS.get() + 1);
    let at = |k: u8| eval_at(nodes, usize::from(k), env);
    let bit = |b: bool| Some(i64::from(b));
    match *nodes.get(i)? {
        Node::Num(n) => Some(n),
        Node::Letter(l) => env.tiles.get(usize::from(l)).copied(),
        Node::Field(l, _, f) => env.fields.get(usize::from(l))?.get(usize::from(f)).copied(),
        Node::Tuple(..) => None,
        Node::Turn => Some(env.turn),
        Node::Made => Some(env.made),
        Node::Counter(c) => env.counters.get(usize::from(c)).copied(),
        Node::Neg(k) => at(k)?.checked_neg(),
        Node::Abs(k) => at(k)?.checked_abs(),
        Node::Not(k) => bit(at(k)? == 0),
        Node::Bin(Bin::And, l, r) => match at(l)? {
            0 => Some(0),
            _ => at(r),
        },
        Node::Bin(Bin::Or, l, r) => match at(l)? {
            0 => at(r),
            _ => Some(1),
        },
        Node::Bin(b, l, r) => {
            let (x, y) = (at(l)?, at(r)?);
            match b {
                Bin::Add => x.checked_add(y),
                Bin::Sub => x.checked_sub(y),
                Bin::Mul => x.checked_mul(y),
                Bin::Div => x.checked_div_euclid(y),
                Bin::Mod => x.checked_rem_euclid(y),
                Bin::Cmp(op) => bit(op.holds(x, y)),
                Bin::Divides => bit(x != 0 && i128::from(y) % i128::from(x) == 0),
                Bin::And | Bin::Or => None,
            }
        }
        Node::Call(Func::If, [c, x, y]) => match at(c)? {
            0 => at(y),
            _ => at(x),
        },
        Node::Call(f, [x, y, _]) => {
            let x = at(x)?;
            let y = if f.args().len() > 1 { at(y)? } else { 0 };
            f.apply(x, y)
        }
    }
}

impl Cond {
    /// Reads a condition such as `|a - b| <= 1`, `c divides a` or `a = b or |a - b| =
    /// gcd(a, b)`; the error is one line naming what is wrong.
    pub fn parse(text: &str) -> Result<Cond, String> {
        let nodes = parse(text, Sort::Bool)?;
        let e = Expr {
            counters: names_of(&nodes),
            nodes,
        };
        if e.reads_made() {
            return Err("\"made\" is the tile a merge made: only a rule's scores reads it".into());
        }
        Ok(Cond(e))
    }

    /// Reads a condition that may also read the counters named `counters` (`a = tri(g)`,
    /// `m = 27`).
    pub fn parse_with(text: &str, counters: &[String]) -> Result<Cond, String> {
        let e = Expr {
            nodes: parse_in(text, Sort::Bool, counters, &[])?,
            counters: counters.to_vec(),
        };
        if e.reads_made() {
            return Err("\"made\" is the tile a merge made: only a rule's scores reads it".into());
        }
        Ok(Cond(e))
    }

    /// Reads a condition of one tile whose fields `fields` are named by bare words (`p = 1`:
    /// a record's label chosen by a condition).
    pub fn parse_of_fields(text: &str, fields: &[String]) -> Result<Cond, String> {
        let mut e = Expr {
            nodes: parse_in(text, Sort::Bool, &[], fields)?,
            counters: Vec::new(),
        };
        if e.reads_made() {
            return Err("\"made\" is the tile a merge made: only a rule's scores reads it".into());
        }
        e.bind(fields)?;
        Ok(Cond(e))
    }

    /// Whether the condition holds over `env`; false when undefined.
    pub fn holds(&self, env: &Env) -> bool {
        self.0.eval(env).is_some_and(|v| v != 0)
    }

    /// The tiles the condition uses: bit i set when letter i occurs.
    pub fn letters(&self) -> u8 {
        self.0.letters()
    }

    /// The condition as an expression (1 when it holds, 0 when not).
    pub fn expr(&self) -> &Expr {
        &self.0
    }

    /// [`Expr::bind`].
    pub fn bind(&mut self, fields: &[String]) -> Result<(), String> {
        self.0.bind(fields)
    }

    /// Whether it is in format 2's language ([`Expr::is_linear`]): one comparison of two sums,
    /// each perhaps between bars as a whole, or `x divides y` of two sums.
    pub fn is_linear(&self) -> bool {
        let nodes = &self.0.nodes;
        let side = |k: u8| match nodes.get(usize::from(k)) {
            Some(Node::Abs(inner)) => linear_sum(nodes, usize::from(*inner)),
            _ => linear_sum(nodes, usize::from(k)),
        };
        match nodes.last() {
            Some(Node::Bin(Bin::Cmp(_), l, r)) => side(*l) && side(*r),
            Some(Node::Bin(Bin::Divides, l, r)) => {
                linear_sum(nodes, usize::from(*l)) && linear_sum(nodes, usize::from(*r))
            }
            _ => false,
        }
    }
}

/// Node `i` of `nodes`, written out.
struct Shown<'n>(&'n [Node], u8);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_node(f, self.0, usize::from(self.1), &[])
    }
}

/// Writes child `k` of a node, between parentheses unless it binds at least `min` tightly.
fn write_child(
    f: &mut fmt::Formatter<'_>,
    nodes: &[Node],
    k: u8,
    min: u8,
    names: &[String],
) -> fmt::Result {
    let k = usize::from(k);
    let prec = nodes.get(k).map_or(8, |n| n.precedence());
    if prec < min {
        f.write_str("(")?;
        write_node(f, nodes, k, names)?;
        f.write_str(")")
    } else {
        write_node(f, nodes, k, names)
    }
}

fn write_node(
    f: &mut fmt::Formatter<'_>,
    nodes: &[Node],
    i: usize,
    names: &[String],
) -> fmt::Result {
    let Some(&node) = nodes.get(i) else {
        return Ok(());
    };
    match node {
        Node::Num(n) => write!(f, "{n}"),
        Node::Letter(l) => write!(f, "{}", LETTERS.get(usize::from(l)).unwrap_or(&'?')),
        Node::Field(l, name, _) => write!(
            f,
            "{}.{}",
            LETTERS.get(usize::from(l)).unwrap_or(&'?'),
            field_text(&name)
        ),
        Node::Tuple(roots, n) => {
            f.write_str("(")?;
            for (i, &r) in roots.iter().take(usize::from(n)).enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_node(f, nodes, usize::from(r), names)?;
            }
            f.write_str(")")
        }
        Node::Turn => f.write_str("t"),
        Node::Made => f.write_str("made"),
        Node::Counter(c) => f.write_str(names.get(usize::from(c)).map_or("?", |n| n.as_str())),
        Node::Neg(k) => {
            f.write_str("-")?;
            // `-5` would read as the number -5: the negation of 5 is `-(5)`.
            let min = match nodes.get(usize::from(k)) {
                Some(Node::Num(n)) if *n >= 0 => 9,
                _ => 7,
            };
            write_child(f, nodes, k, min, names)
        }
        Node::Abs(k) => {
            f.write_str("|")?;
            write_node(f, nodes, usize::from(k), names)?;
            f.write_str("|")
        }
        Node::Not(k) => {
            f.write_str("not ")?;
            write_child(f, nodes, k, 3, names)
        }
        Node::Bin(Bin::Mul, l, r)
            if matches!(nodes.get(usize::from(l)), Some(Node::Num(_)))
                && matches!(
                    nodes.get(usize::from(r)),
                    Some(Node::Letter(_) | Node::Turn)
                ) =>
        {
            write_node(f, nodes, usize::from(l), names)?;
            write_node(f, nodes, usize::from(r), names)
        }
        Node::Bin(b, l, r) => {
            let p = b.precedence();
            // Left-associative, but a comparison takes no comparison on either side.
            let left = if p == 4 { p + 1 } else { p };
            write_child(f, nodes, l, left, names)?;
            write!(f, " {} ", b.symbol())?;
            write_child(f, nodes, r, p + 1, names)
        }
        Node::Call(func, args) => {
            write!(f, "{}(", func.name())?;
            for (n, &a) in args.iter().take(func.args().len()).enumerate() {
                if n > 0 {
                    f.write_str(", ")?;
                }
                write_node(f, nodes, usize::from(a), names)?;
            }
            f.write_str(")")
        }
    }
}

/// The text it was read from, in a canonical spacing that reads back to the same expression.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.nodes.len().checked_sub(1) {
            Some(root) => write_node(f, &self.nodes, root, &self.counters),
            None => f.write_str("0"),
        }
    }
}

/// Canonical text, like `|2a - b| <= 1` or `c divides a`.
impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests;
