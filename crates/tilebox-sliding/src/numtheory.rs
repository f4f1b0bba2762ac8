//! The closed library of functions that format 3's expressions may call.
//!
//! Every function here is pure and total: it takes any `i64`, never panics, and ends within a
//! bound (the slowest, [`divisors`], divides by at most 2^16 numbers; [`is_prime`] does twelve
//! modular exponentiations; [`next_prime`] tests at most the ~1,500 numbers of the longest gap
//! between primes below 2^63). `None` means the result is undefined or does not fit an `i64`: in
//! an expression it makes a condition false and a merge make nothing, as an overflow does.
//!
//! Each function has a property test against a plain reference (trial division, counting, a
//! loop), below.

/// The largest number whose divisors [`divisors`] counts: 2^32, so that trial division needs at
/// most 2^16 steps.
pub const MOST_FACTORED: u64 = 1 << 32;

/// The greatest common divisor of `|a|` and `|b|`; `gcd(0, 0) = 0` and `gcd(a, 0) = |a|`.
/// `None` only when it is 2^63 (`gcd(i64::MIN, 0)`), which no `i64` holds.
pub fn gcd(a: i64, b: i64) -> Option<i64> {
    i64::try_from(gcd_u64(a.unsigned_abs(), b.unsigned_abs())).ok()
}

fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The least common multiple of `|a|` and `|b|`: 0 when either is 0, `None` when it overflows.
pub fn lcm(a: i64, b: i64) -> Option<i64> {
    let (a, b) = (a.unsigned_abs(), b.unsigned_abs());
    if a == 0 || b == 0 {
        return Some(0);
    }
    let l = (a / gcd_u64(a, b)).checked_mul(b)?;
    i64::try_from(l).ok()
}

/// `a` to the power `b`, for `b >= 0`; `None` for a negative `b` or when it overflows.
pub fn pow(a: i64, b: i64) -> Option<i64> {
    if b < 0 {
        return None;
    }
    match u32::try_from(b) {
        Ok(b) => a.checked_pow(b),
        // Exponents past u32: only 0, 1 and -1 stay in range.
        Err(_) => match a {
            0 | 1 => Some(a),
            -1 => Some(if b % 2 == 0 { 1 } else { -1 }),
            _ => None,
        },
    }
}

fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    // Both below m < 2^63, so the product fits u128 and the remainder fits u64.
    ((u128::from(a) * u128::from(b)) % u128::from(m)) as u64
}

fn pow_mod(mut base: u64, mut exp: u64, m: u64) -> u64 {
    let mut result = 1 % m;
    base %= m;
    while exp > 0 {
        if exp & 1 == 1 {
            result = mul_mod(result, base, m);
        }
        base = mul_mod(base, base, m);
        exp >>= 1;
    }
    result
}

/// The bases that make Miller–Rabin exact for every number below 3.3 · 10^24, so for every `u64`.
const WITNESSES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];

/// Whether `n` is prime: exact for every `i64` (a deterministic Miller–Rabin test); numbers
/// below 2 are not prime.
pub fn is_prime(n: i64) -> bool {
    let Ok(n) = u64::try_from(n) else {
        return false;
    };
    if n < 2 {
        return false;
    }
    for p in WITNESSES {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    let d = (n - 1) >> (n - 1).trailing_zeros();
    let s = (n - 1).trailing_zeros();
    WITNESSES.iter().all(|&a| {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            return true;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                return true;
            }
        }
        false
    })
}

/// The smallest prime above `n` (2 for any `n` below 2); `None` above the largest prime an
/// `i64` holds.
pub fn next_prime(n: i64) -> Option<i64> {
    let mut m = n.max(1);
    loop {
        m = m.checked_add(1)?;
        if is_prime(m) {
            return Some(m);
        }
    }
}

/// How many positive numbers divide `|n|` (1 has one, a prime two, 12 six); `None` for 0, which
/// every number divides, and above [`MOST_FACTORED`].
pub fn divisors(n: i64) -> Option<i64> {
    let mut m = n.unsigned_abs();
    if m == 0 || m > MOST_FACTORED {
        return None;
    }
    let mut count = 1;
    let mut p = 2;
    while p * p <= m {
        let mut e = 0;
        while m.is_multiple_of(p) {
            m /= p;
            e += 1;
        }
        count *= e + 1;
        p += if p == 2 { 1 } else { 2 };
    }
    if m > 1 {
        count *= 2;
    }
    Some(count)
}

/// The whole part of the square root of `n`; `None` for a negative `n`.
pub fn isqrt(n: i64) -> Option<i64> {
    n.checked_isqrt()
}

/// Whether `n` is the square of a whole number (0 and 1 are).
pub fn is_square(n: i64) -> bool {
    isqrt(n).is_some_and(|r| r * r == n)
}

/// The whole `k`-th root of `n`, if `n` is a `k`-th power (`n >= 2`, `k >= 2`).
fn exact_root(n: i64, k: u32) -> Option<i64> {
    // The float root is within one of the true root for every i64; check around it exactly.
    let guess = (n as f64).powf(1.0 / f64::from(k)).round() as i64;
    (guess.saturating_sub(1)..=guess.saturating_add(1))
        .find(|&r| r >= 2 && r.checked_pow(k) == Some(n))
}

/// The largest `k` such that `n = m^k` for a whole `m`, for `n >= 2`: 1 where `n` is no higher
/// power (6), 2 for 36, 6 for 64 (2^6). `None` below 2, where every exponent would do.
pub fn power_exp(n: i64) -> Option<i64> {
    if n < 2 {
        return None;
    }
    // 2^63 overflows, so exponents reach 62.
    let k = (2..=62u32).rev().find(|&k| exact_root(n, k).is_some());
    Some(k.map_or(1, i64::from))
}

/// The `n`-th triangular number, `n(n + 1) / 2`, for `n >= 0`; `None` below 0 or on overflow.
pub fn tri(n: i64) -> Option<i64> {
    if n < 0 {
        return None;
    }
    let t = i128::from(n) * (i128::from(n) + 1) / 2;
    i64::try_from(t).ok()
}

/// Whether `n` is a triangular number: 0, 1, 3, 6, 10 …
pub fn is_tri(n: i64) -> bool {
    if n < 0 {
        return false;
    }
    // If n = k(k+1)/2, then k = floor(sqrt(2n)).
    let two_n = u128::from(n.unsigned_abs()) * 2;
    let k = two_n.isqrt();
    k * (k + 1) / 2 == u128::from(n.unsigned_abs())
}

/// How many bits of `n` are set, for `n >= 0`; `None` for a negative `n`.
pub fn popcount(n: i64) -> Option<i64> {
    (n >= 0).then(|| i64::from(n.count_ones()))
}

/// The place of the highest set bit of `n` (`floor(log2 n)`) for `n >= 1`; `None` otherwise.
pub fn highbit(n: i64) -> Option<i64> {
    (n >= 1).then(|| i64::from(63 - n.leading_zeros()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn prime_by_trial(n: u64) -> bool {
        n >= 2
            && (2..)
                .take_while(|d| d * d <= n)
                .all(|d| !n.is_multiple_of(d))
    }

    fn gcd_by_search(a: i64, b: i64) -> i64 {
        let (a, b) = (a.abs(), b.abs());
        (1..=a.max(b))
            .rev()
            .find(|d| a % d == 0 && b % d == 0)
            .unwrap_or(0)
    }

    proptest! {
        #[test]
        fn gcd_is_the_largest_common_divisor(a in -3000i64..3000, b in -3000i64..3000) {
            prop_assert_eq!(gcd(a, b), Some(gcd_by_search(a, b)));
        }

        #[test]
        fn gcd_of_any_two_numbers_divides_both_and_leaves_them_coprime(a: i64, b: i64) {
            let g = gcd(a, b);
            if a == i64::MIN && (b == 0 || b == i64::MIN) {
                prop_assert_eq!(g, None);
            } else {
                let g = g.unwrap_or(-1);
                prop_assert!(g >= 0);
                if g > 0 {
                    prop_assert_eq!(a % g, 0);
                    prop_assert_eq!(b % g, 0);
                    let (x, y) = ((a / g).unsigned_abs(), (b / g).unsigned_abs());
                    prop_assert_eq!(gcd_u64(x, y), 1);
                } else {
                    prop_assert!(a == 0 && b == 0);
                }
            }
        }

        #[test]
        fn lcm_is_the_smallest_common_multiple(a in -300i64..300, b in -300i64..300) {
            let want = if a == 0 || b == 0 {
                0
            } else {
                (1..).find(|m: &i64| m % a == 0 && m % b == 0).unwrap_or(0)
            };
            prop_assert_eq!(lcm(a, b), Some(want));
        }

        #[test]
        fn lcm_of_large_numbers_is_exact_or_none(a: i64, b: i64) {
            let want = if a == 0 || b == 0 {
                Some(0)
            } else {
                let (x, y) = (i128::from(a).abs(), i128::from(b).abs());
                let g = i128::from(gcd_u64(a.unsigned_abs(), b.unsigned_abs()));
                i64::try_from(x / g * y).ok()
            };
            prop_assert_eq!(lcm(a, b), want);
        }

        #[test]
        fn pow_is_repeated_multiplication(a in -40i64..40, b in -3i64..70) {
            let want = if b < 0 {
                None
            } else {
                let p = (0..b).try_fold(1i128, |p, _| {
                    let p = p * i128::from(a);
                    (p.abs() <= i128::from(i64::MAX) + 1).then_some(p)
                });
                p.and_then(|p| i64::try_from(p).ok())
            };
            prop_assert_eq!(pow(a, b), want);
        }

        #[test]
        fn pow_with_a_huge_exponent_is_defined_for_zero_and_units_only(a in -3i64..4, b in (1i64 << 40)..i64::MAX) {
            let want = match a {
                0 | 1 => Some(a),
                -1 => Some(if b % 2 == 0 { 1 } else { -1 }),
                _ => None,
            };
            prop_assert_eq!(pow(a, b), want);
        }

        #[test]
        fn is_prime_agrees_with_trial_division(n in -10i64..(1i64 << 32)) {
            prop_assert_eq!(is_prime(n), n >= 0 && prime_by_trial(n.unsigned_abs()));
        }

        #[test]
        fn is_prime_agrees_with_trial_division_on_small_numbers(n in 0i64..100_000) {
            prop_assert_eq!(is_prime(n), prime_by_trial(n.unsigned_abs()));
        }

        #[test]
        fn a_product_of_two_large_primes_is_not_prime(p in (1u64 << 20)..(1u64 << 26), q in (1u64 << 20)..(1u64 << 26)) {
            let next = |mut m: u64| { while !prime_by_trial(m) { m += 1; } m };
            let (p, q) = (next(p), next(q));
            prop_assert!(is_prime(i64::try_from(p).unwrap_or(0)));
            prop_assert!(!is_prime(i64::try_from(p * q).unwrap_or(4)));
        }

        #[test]
        fn next_prime_is_the_first_prime_above(n in -10i64..100_000) {
            let want = (n.max(1) + 1..).find(|&m| prime_by_trial(m.unsigned_abs()));
            prop_assert_eq!(next_prime(n), want);
        }

        #[test]
        fn divisors_counts_the_divisors(n in -20_000i64..20_000) {
            let want = (n != 0).then(|| (1..=n.abs()).filter(|d| n % d == 0).count() as i64);
            prop_assert_eq!(divisors(n), want);
        }

        #[test]
        fn divisors_of_large_numbers_multiply_over_coprime_factors(a in 1i64..65_536, b in 1i64..65_536) {
            prop_assume!(gcd_u64(a.unsigned_abs(), b.unsigned_abs()) == 1);
            let product = divisors(a).zip(divisors(b)).map(|(x, y)| x * y);
            prop_assert_eq!(divisors(a * b), product);
        }

        #[test]
        fn divisors_refuses_what_it_would_take_too_long_to_factor(n in (MOST_FACTORED as i64 + 1)..i64::MAX) {
            prop_assert_eq!(divisors(n), None);
            prop_assert_eq!(divisors(-n), None);
        }

        #[test]
        fn isqrt_is_the_whole_root(n: i64) {
            match isqrt(n) {
                None => prop_assert!(n < 0),
                Some(r) => {
                    let (r, n) = (i128::from(r), i128::from(n));
                    prop_assert!(r * r <= n && n < (r + 1) * (r + 1));
                }
            }
        }

        #[test]
        fn is_square_holds_for_squares_alone(m in 0i64..3_037_000_499) {
            prop_assert!(is_square(m * m));
            prop_assert_eq!(is_square(m * m + 1), m == 0);
            prop_assert!(!is_square(-(m * m) - 1));
        }

        #[test]
        fn is_square_agrees_with_counting(n in -10i64..50_000) {
            prop_assert_eq!(is_square(n), (0..).take_while(|m| m * m <= n).any(|m| m * m == n));
        }

        #[test]
        fn power_exp_is_the_largest_exponent(n in -5i64..200_000) {
            let want = (n >= 2).then(|| {
                (2..=n)
                    .take_while(|m| m * m <= n)
                    .filter_map(|m| {
                        let mut p = m;
                        let mut k = 1;
                        while p < n {
                            p *= m;
                            k += 1;
                        }
                        (p == n).then_some(k)
                    })
                    .max()
                    .unwrap_or(1)
            });
            prop_assert_eq!(power_exp(n), want);
        }

        #[test]
        fn a_power_of_a_non_power_has_its_exponent(m in 2i64..3_000_000, k in 2u32..40) {
            prop_assume!(power_exp(m) == Some(1));
            if let Some(n) = m.checked_pow(k) {
                prop_assert_eq!(power_exp(n), Some(i64::from(k)));
                // m^k + 1 is never a k-th or higher power (Catalan: 8 + 1 = 3^2 is the nearest).
                prop_assert!(power_exp(n + 1) < Some(i64::from(k)));
            }
        }

        #[test]
        fn tri_is_the_sum_of_the_first_numbers(n in -5i64..5_000) {
            let want = (n >= 0).then(|| (0..=n).sum::<i64>());
            prop_assert_eq!(tri(n), want);
        }

        #[test]
        fn tri_is_exact_or_none_for_large_numbers(n: i64) {
            let want = (n >= 0)
                .then(|| i64::try_from(i128::from(n) * (i128::from(n) + 1) / 2).ok())
                .flatten();
            prop_assert_eq!(tri(n), want);
        }

        #[test]
        fn is_tri_agrees_with_the_list(n in -5i64..100_000) {
            prop_assert_eq!(is_tri(n), (0..).map(|k| k * (k + 1) / 2).take_while(|&t| t <= n).any(|t| t == n));
        }

        #[test]
        fn is_tri_holds_for_triangular_numbers_alone(k in 2i64..3_037_000_000) {
            let t = k * (k + 1) / 2;
            prop_assert!(is_tri(t));
            prop_assert!(!is_tri(t + 1));
            prop_assert!(!is_tri(t - 1));
        }

        #[test]
        fn popcount_counts_the_set_bits(n: i64) {
            let want = (n >= 0).then(|| (0..63).filter(|i| (n >> i) & 1 == 1).count() as i64);
            prop_assert_eq!(popcount(n), want);
        }

        #[test]
        fn highbit_is_the_place_of_the_highest_set_bit(n: i64) {
            let want = (n >= 1).then(|| (0..63).rev().find(|i| (n >> i) & 1 == 1).unwrap_or(0));
            prop_assert_eq!(highbit(n), want);
        }
    }

    #[test]
    fn the_extremes_of_an_i64_give_an_answer_and_no_panic() {
        for n in [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX] {
            let _ = (gcd(n, n), lcm(n, n), pow(n, n), is_prime(n), divisors(n));
            let _ = (isqrt(n), is_square(n), power_exp(n), tri(n), is_tri(n));
            let _ = (popcount(n), highbit(n), gcd(n, i64::MIN), lcm(n, -1));
        }
        // Past the largest prime an i64 holds (2^63 - 25), there is no next prime.
        let largest = (i64::MAX - 100..=i64::MAX).rev().find(|&n| is_prime(n));
        assert_eq!(largest.and_then(next_prime), None);
        assert!(largest.is_some_and(|p| next_prime(p - 1) == Some(p)));
    }

    #[test]
    fn strong_pseudoprimes_to_small_bases_are_not_prime() {
        // Composites that fool Miller–Rabin with the first few bases (OEIS A014233's terms):
        // each is the product below, so none is prime.
        for (n, factor) in [
            (2047_i64, 23_i64),
            (1_373_653, 829),
            (25_326_001, 2251),
            (3_215_031_751, 151),
            (2_152_302_898_747, 6763),
            (3_474_749_660_383, 1303),
            (341_550_071_728_321, 10_670_053),
        ] {
            assert_eq!(n % factor, 0, "{n} is a multiple of {factor}");
            assert!(!is_prime(n), "{n}");
        }
        // Mersenne primes 2^31 - 1 and 2^61 - 1.
        assert!(is_prime((1 << 31) - 1) && is_prime((1 << 61) - 1));
    }
}
