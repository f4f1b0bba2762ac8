use super::*;
use proptest::prelude::*;

fn env(tiles: [i64; 6]) -> Env {
    Env::of(tiles)
}

fn value(text: &str, tiles: [i64; 6]) -> Option<i64> {
    Expr::parse(text).unwrap().eval(&env(tiles))
}

#[test]
fn expressions_evaluate() {
    let v = [5, 3, 2, 0, 0, 7];
    for (text, want) in [
        ("a + b", Some(8)),
        ("a + b + c", Some(10)),
        ("2a + 1", Some(11)),
        ("a - 1", Some(4)),
        ("3", Some(3)),
        ("-b", Some(-3)),
        ("2 a+1", Some(11)),
        ("a * b - c", Some(13)),
        ("a - b * c", Some(-1)),
        ("(a - b) * c", Some(4)),
        ("a / c", Some(2)),
        ("-a / c", Some(-3)),
        ("a mod c", Some(1)),
        ("-a mod c", Some(1)),
        ("a mod -c", Some(1)),
        ("a / 0", None),
        ("a mod 0", None),
        ("|b - a|", Some(2)),
        ("--a", Some(5)),
        ("-(5)", Some(-5)),
        ("z", Some(7)),
        ("gcd(12, 18)", Some(6)),
        ("lcm(4, 6)", Some(12)),
        ("min(a, b) + max(a, b)", Some(8)),
        ("pow(b, 4)", Some(81)),
        ("pow(b, -1)", None),
        ("next_prime(z)", Some(11)),
        ("next_prime(4294967296)", Some(4294967311)),
        ("next_prime(4294967297)", None),
        ("divisors(12)", Some(6)),
        ("divisors(0)", None),
        ("isqrt(17)", Some(4)),
        ("power_exp(64)", Some(6)),
        ("tri(4)", Some(10)),
        (
            "band(12, 10) + bor(12, 10) + bxor(12, 10)",
            Some(8 + 14 + 6),
        ),
        ("popcount(255)", Some(8)),
        ("highbit(1024)", Some(10)),
        ("if(a > b, a, b)", Some(5)),
        ("if(a < b, a, b / 0)", None),
        ("if(a > b, a, b / 0)", Some(5)),
        ("9223372036854775807 + 1", None),
        ("-9223372036854775808", Some(i64::MIN)),
        ("-9223372036854775808 / -1", None),
    ] {
        assert_eq!(value(text, v), want, "{text}");
    }
    let turn = Env { turn: 9, ..env(v) };
    assert_eq!(Expr::parse("t / 4 + 1").unwrap().eval(&turn), Some(3));
    assert_eq!(Expr::parse("2t").unwrap().eval(&turn), Some(18));
    let made = Env { made: -4, ..env(v) };
    assert_eq!(Expr::parse_score("|made|").unwrap().eval(&made), Some(4));
}

#[test]
fn conditions_hold_or_not() {
    // (condition, tile values where it holds, tile values where it fails)
    for (text, yes, no) in [
        ("|2a - b| <= 1", [3, 5, 0, 0, 0, 0], [3, 8, 0, 0, 0, 0]),
        ("|2a - b| <= 1", [3, 7, 0, 0, 0, 0], [-3, 7, 0, 0, 0, 0]),
        ("c divides a", [6, 0, 3, 0, 0, 0], [6, 0, 4, 0, 0, 0]),
        ("c divides a", [-6, 0, -3, 0, 0, 0], [6, 0, 0, 0, 0, 0]),
        ("c divides a", [i64::MIN, 0, -1, 0, 0, 0], [0; 6]),
        ("z != 1", [0; 6], [0, 0, 0, 0, 0, 1]),
        ("a = -b", [3, -3, 0, 0, 0, 0], [3, 3, 0, 0, 0, 0]),
        ("|a| = |b|", [-2, 2, 0, 0, 0, 0], [1, 2, 0, 0, 0, 0]),
        (
            "a = b or |a - b| = gcd(a, b)",
            [6, 9, 0, 0, 0, 0],
            [6, 10, 0, 0, 0, 0],
        ),
        (
            "a = b or |a - b| = gcd(a, b)",
            [4, 4, 0, 0, 0, 0],
            [5, 7, 0, 0, 0, 0],
        ),
        (
            "a >= b and not a = b",
            [5, 4, 0, 0, 0, 0],
            [4, 4, 0, 0, 0, 0],
        ),
        (
            "not (a = 1 or b = 1)",
            [2, 2, 0, 0, 0, 0],
            [1, 2, 0, 0, 0, 0],
        ),
        ("is_prime(a + b)", [2, 3, 0, 0, 0, 0], [2, 4, 0, 0, 0, 0]),
        ("is_square(a * b)", [2, 8, 0, 0, 0, 0], [2, 6, 0, 0, 0, 0]),
        ("is_tri(a + b)", [3, 3, 0, 0, 0, 0], [3, 4, 0, 0, 0, 0]),
        ("band(a, b) = 0", [4, 3, 0, 0, 0, 0], [4, 5, 0, 0, 0, 0]),
        ("a = 1 or a / 0 = 1", [1, 0, 0, 0, 0, 0], [0; 6]),
    ] {
        let cond = Cond::parse(text).unwrap();
        assert!(cond.holds(&env(yes)), "{text} of {yes:?}");
        assert!(!cond.holds(&env(no)), "{text} of {no:?}");
    }
    // An undefined part makes the whole undefined: `not` of it does not hold either.
    assert!(
        !Cond::parse("not a / b = 1")
            .unwrap()
            .holds(&env([1, 0, 0, 0, 0, 0]))
    );
    assert!(
        !Cond::parse("a / 0 = 1 or a = 1")
            .unwrap()
            .holds(&env([1, 0, 0, 0, 0, 0]))
    );
}

#[test]
fn display_is_canonical_and_round_trips() {
    for (text, want) in [
        ("|2a - b| <= 1", "|2a - b| <= 1"),
        ("|c - a| <= 1", "|c - a| <= 1"),
        ("a == b", "a = b"),
        ("c divides a", "c divides a"),
        ("a+b>0", "a + b > 0"),
        ("|a|!=|b|", "|a| != |b|"),
        ("(a - b) * c = 2 * a", "(a - b) * c = 2a"),
        ("a - (b - c) = -(5)", "a - (b - c) = -(5)"),
        (
            "not (a = b or b = c) and c > 1",
            "not (a = b or b = c) and c > 1",
        ),
        ("is_prime(a/gcd(a,b))", "is_prime(a / gcd(a, b))"),
        ("||a| - b| = 1", "||a| - b| = 1"),
        ("a - -2b = 1", "a - -2b = 1"),
    ] {
        let cond = Cond::parse(text).unwrap();
        assert_eq!(cond.to_string(), want, "{text}");
        assert_eq!(Cond::parse(want), Ok(cond));
    }
}

#[test]
fn bad_inputs_are_refused_with_a_reason() {
    for (text, part) in [
        ("a = x", "\"x\" is not a tile letter (a to e, or z)"),
        ("A = b", "\"A\" is not a tile letter"),
        ("ab = 1", "unknown word \"ab\""),
        ("foo(a) = 1", "unknown function \"foo\" (they are gcd, lcm"),
        ("gcd(a) = 1", "gcd takes 2 arguments, not 1"),
        ("is_prime(a, b)", "is_prime takes 1 argument, not 2"),
        (
            "if(a, b, c) = 1",
            "\"a\" is a number where argument 1 of if takes a condition",
        ),
        ("gcd = 1", "\"gcd\" is a function: write gcd(...)"),
        ("a b", "\"b\" follows \"a\" without an operator"),
        ("a + b", "\"a + b\" is a number, not a condition"),
        ("", "empty condition"),
        ("a + = b", "\"=\" follows \"+\""),
        ("|a - b <= 1", "\"|\" is not closed"),
        ("(a = b", "\"(\" is not closed"),
        ("|| = 1", "\"=\" follows \"|\""),
        ("|a| |b| = 1", "\"|\" follows \"|\" where it cannot"),
        ("= b", "\"=\" has nothing before it"),
        ("a <", "empty expression after \"<\""),
        ("a = b = c", "more than one comparison: \"=\" and \"=\""),
        ("a < b divides c", "more than one comparison"),
        ("a ! b", "unexpected \"!\" at column 3"),
        ("a2 = b", "a number follows \"a\" (write 2a, not a2)"),
        (
            "(a = b) + 1 = c",
            "\"a = b\" is a condition where \"+\" takes a number",
        ),
        ("not a", "\"a\" is a number where \"not\" takes a condition"),
        (
            "a and b = c",
            "\"a\" is a number where \"and\" takes a condition",
        ),
        ("a = made", "\"made\" is the tile a merge made"),
        (
            "a = 9223372036854775808",
            "the number 9223372036854775808 is too large",
        ),
        ("a = 10000000000000000000", "the number \"1"),
        ("a = b)", "\")\" follows \"b\" where it cannot"),
        ("and", "\"and\" has nothing before it"),
        ("gcd(a, b", "gcd(...) is not closed"),
        (
            "gcd(a, b = 1",
            "\"b = 1\" is a condition where argument 2 of gcd takes a number",
        ),
    ] {
        let err = Cond::parse(text).unwrap_err();
        assert!(err.contains(part), "{text:?} gave {err:?}");
    }
    let err = |text| Expr::parse(text).unwrap_err();
    assert!(err("a = b").contains("\"a = b\" is a condition, not a number"));
    assert!(err(" ").contains("empty expression"));
    assert!(err("a +").contains("an expression ends with \"+\""));
    assert!(err("|made|").contains("only a rule's scores reads it"));
    // Size and nesting are bounded.
    let long = vec!["a"; MAX_NODES / 2 + 1].join(" + ");
    assert!(err(&long).contains("more than 128"));
    let deep = format!("{}a{}", "(".repeat(200), ")".repeat(200));
    assert!(err(&deep).contains("nested more than 64 deep"));
    let negs = format!("{}a", "-".repeat(10_000));
    assert!(err(&negs).contains("nested more than 64 deep"));
    let nots = format!("{}a = b", "not ".repeat(10_000));
    assert!(
        Cond::parse(&nots)
            .unwrap_err()
            .contains("nested more than 64 deep")
    );
}

#[test]
fn format_2s_language_is_the_linear_forms() {
    for text in [
        "a = b",
        "|2a - b| <= 1",
        "c divides a",
        "|a| = |b|",
        "a + b > 0",
        "z != 1",
    ] {
        assert!(Cond::parse(text).unwrap().is_linear(), "{text}");
    }
    for text in [
        "a * b = c",
        "a = b or a = c",
        "not a = b",
        "|a| + |b| = 1",
        "is_prime(a)",
        "|a| divides b",
        "t divides a",
        "a / 2 = b",
    ] {
        assert!(!Cond::parse(text).unwrap().is_linear(), "{text}");
    }
    assert!(Expr::parse("2a - b + 1").unwrap().is_linear());
    assert!(!Expr::parse("a * b").unwrap().is_linear());
    assert!(!Expr::parse("2t").unwrap().is_linear());
}

#[test]
fn turn_parts_tell_moves_apart_by_what_the_rules_read_of_t() {
    let e = Cond::parse("a / b divides t / 4 + 1 and t > 2a").unwrap();
    let parts = |turn| {
        let mut out = Vec::new();
        e.expr().turn_parts(turn, &mut out);
        out
    };
    // `t / 4 + 1` and `t` alone (beside a tile).
    assert_eq!(parts(5), vec![Some(2), Some(5)]);
    let f = Cond::parse("a / b divides t / 4 + 1").unwrap();
    let fparts = |turn| {
        let mut out = Vec::new();
        f.expr().turn_parts(turn, &mut out);
        out
    };
    assert_eq!(fparts(4), fparts(7));
    assert_ne!(fparts(7), fparts(8));
}

#[test]
fn the_largest_expression_evaluates_each_node_once() {
    // The slowest function on its slowest argument, as often as the size allows: the divisors of
    // the largest prime below 2^32, by trial division to 2^16.
    let term = "divisors(4294967291)";
    let k = (MAX_NODES + 1) / 3;
    let text = vec![term; k].join(" + ");
    let e = Expr::parse(&text).unwrap();
    assert!(e.nodes().len() <= MAX_NODES);
    VISITS.set(0);
    assert_eq!(e.eval(&Env::default()), Some(2 * k as i64));
    assert_eq!(VISITS.get(), e.nodes().len());
    assert!(Expr::parse(&format!("{text} + {term}")).is_err());
}

/// Format 2's expressions, as it held them: a constant plus whole multiples of the tiles.
#[derive(Debug, Clone)]
struct Linear {
    coef: [i64; 6],
    constant: i64,
}

impl Linear {
    fn eval(&self, v: &[i64; 6]) -> Option<i64> {
        let mut terms = self.coef.iter().zip(v);
        terms.try_fold(self.constant, |sum, (c, x)| {
            sum.checked_add(c.checked_mul(*x)?)
        })
    }

    /// As format 2 wrote it: the letters added, then those taken away, then the number.
    fn text(&self) -> String {
        let mut out = String::new();
        let letters = || self.coef.iter().zip(LETTERS.map(Some));
        let terms = letters()
            .filter(|(c, _)| **c > 0)
            .chain(letters().filter(|(c, _)| **c < 0));
        let mut first = true;
        for (&c, letter) in terms.chain([(&self.constant, None)]) {
            if c == 0 && !(first && letter.is_none()) {
                continue;
            }
            out += match (first, c < 0) {
                (true, false) => "",
                (true, true) => "-",
                (false, false) => " + ",
                (false, true) => " - ",
            };
            first = false;
            out += &match (c.unsigned_abs(), letter) {
                (1, Some(l)) => l.to_string(),
                (m, Some(l)) => format!("{m}{l}"),
                (m, None) => m.to_string(),
            };
        }
        out
    }
}

fn linear() -> impl Strategy<Value = Linear> {
    (prop::array::uniform6(-3i64..=3), -20i64..=20)
        .prop_map(|(coef, constant)| Linear { coef, constant })
}

/// A random expression tree of numbers, letters, `t`, operators and calls, of the sort asked.
fn tree(sort: Sort, depth: u32) -> BoxedStrategy<String> {
    let leaf_int = prop_oneof![
        (-30i64..30).prop_map(|n| n.to_string()),
        (0usize..6).prop_map(|i| LETTERS[i].to_string()),
        Just("t".to_string()),
        ((1i64..9), (0usize..6)).prop_map(|(n, i)| format!("{n}{}", LETTERS[i])),
    ];
    if depth == 0 {
        return match sort {
            Sort::Int => leaf_int.boxed(),
            Sort::Bool => (leaf_int.clone(), leaf_int)
                .prop_map(|(l, r)| format!("{l} = {r}"))
                .boxed(),
        };
    }
    let int = || tree(Sort::Int, depth - 1);
    let cond = || tree(Sort::Bool, depth - 1);
    match sort {
        Sort::Int => prop_oneof![
            leaf_int,
            (
                int(),
                prop::sample::select(vec!["+", "-", "*", "/", "mod"]),
                int()
            )
                .prop_map(|(l, o, r)| format!("({l}) {o} ({r})")),
            int().prop_map(|x| format!("-({x})")),
            int().prop_map(|x| format!("|{x}|")),
            (
                prop::sample::select(vec!["gcd", "min", "band", "pow", "lcm"]),
                int(),
                int()
            )
                .prop_map(|(f, x, y)| format!("{f}({x}, {y})")),
            (
                prop::sample::select(vec!["divisors", "isqrt", "tri", "highbit"]),
                int()
            )
                .prop_map(|(f, x)| format!("{f}({x})")),
            (cond(), int(), int()).prop_map(|(c, x, y)| format!("if({c}, {x}, {y})")),
        ]
        .boxed(),
        Sort::Bool => prop_oneof![
            (
                int(),
                prop::sample::select(vec!["=", "!=", "<", ">=", "divides"]),
                int()
            )
                .prop_map(|(l, o, r)| format!("({l}) {o} ({r})")),
            (cond(), prop::sample::select(vec!["and", "or"]), cond())
                .prop_map(|(l, o, r)| format!("({l}) {o} ({r})")),
            cond().prop_map(|c| format!("not ({c})")),
            int().prop_map(|x| format!("is_prime({x})")),
        ]
        .boxed(),
    }
}

proptest! {
    #[test]
    fn parse_never_panics(
        t in "\\PC{0,30}",
        u in "([abcdezxt0-9 +*/|()<>=!,-]|divides|mod|and|or|not|gcd|is_prime|if|made){0,20}",
    ) {
        let _ = (Cond::parse(&t), Expr::parse(&t), Cond::parse(&u), Expr::parse(&u));
        let _ = Expr::parse_score(&u).map(|e| e.eval(&Env::default()));
    }

    #[test]
    fn display_round_trips(c in tree(Sort::Bool, 3), e in tree(Sort::Int, 3)) {
        let c = Cond::parse(&c).unwrap();
        prop_assert_eq!(Cond::parse(&c.to_string()), Ok(c));
        let e = Expr::parse(&e).unwrap();
        prop_assert_eq!(Expr::parse(&e.to_string()), Ok(e));
    }

    #[test]
    fn format_2s_forms_evaluate_as_before(
        l in linear(),
        r in linear(),
        abs in any::<(bool, bool)>(),
        op in prop::sample::select(OPS.to_vec()),
        tiles in prop::array::uniform6(-(1i64 << 20)..(1 << 20)),
    ) {
        let e = Expr::parse(&l.text()).unwrap();
        prop_assert!(e.is_linear());
        prop_assert_eq!(e.eval(&env(tiles)), l.eval(&tiles));
        let side = |x: &Linear, abs: bool| {
            let v = x.eval(&tiles);
            if abs { v.and_then(i64::checked_abs) } else { v }
        };
        let bar = |abs: bool| if abs { "|" } else { "" };
        let (sl, sr) = (bar(abs.0), bar(abs.1));
        let text = format!("{sl}{}{sl} {} {sr}{}{sr}", l.text(), op.0, r.text());
        let cond = Cond::parse(&text).unwrap();
        prop_assert!(cond.is_linear());
        let want = matches!((side(&l, abs.0), side(&r, abs.1)), (Some(x), Some(y)) if op.1.holds(x, y));
        prop_assert_eq!(cond.holds(&env(tiles)), want, "{}", text);
        let divides = Cond::parse(&format!("{} divides {}", l.text(), r.text())).unwrap();
        let want = matches!((l.eval(&tiles), r.eval(&tiles)), (Some(d), Some(y)) if d != 0 && y % d == 0);
        prop_assert_eq!(divides.holds(&env(tiles)), want);
    }
}
