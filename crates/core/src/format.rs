//! Numbers for people, the same everywhere on the page and in the tours' sentences that quote
//! it: digits grouped by three, a moment of a run, a mean that waits for the warm-up.

/// `1234567` → `1 234 567` (narrow no-break spaces, as SI writes large numbers).
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 2);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

/// `4512.347` with 2 places → `4 512.35`: the whole part grouped as [`group_digits`] does.
pub fn group_decimal(x: f64, places: usize) -> String {
    let text = format!("{:.*}", places, x.abs());
    let (whole, fraction) = text.split_once('.').map_or((text.as_str(), None), |(w, f)| (w, Some(f)));
    let sign = if x.is_sign_negative() && text.bytes().any(|b| (b'1'..=b'9').contains(&b)) { "-" } else { "" };
    let whole = whole.parse::<u64>().map_or_else(|_| whole.to_string(), group_digits);
    match fraction {
        Some(fraction) => format!("{sign}{whole}.{fraction}"),
        None => format!("{sign}{whole}"),
    }
}

/// A moment of a run for people, the same everywhere on the page: a whole slot or time unit
/// grouped (`20 955`), an event's time with four decimals (`20 955.9778`).
pub fn moment(t: f64) -> String {
    if t == t.floor() { group_digits(t as u64) } else { group_decimal(t, 4) }
}

/// A mean queue length for people: two decimals, digits grouped, or "–" before anything was
/// measured.
pub fn format_mean(mean: f64, measured: u64) -> String {
    if measured == 0 { "–".to_string() } else { group_decimal(mean, 2) }
}

/// `x` with `digits` significant digits and no exponent, for values a user types back in a
/// flag or a link (`0.00001234` stays `0.00001234`, where four decimals would give `0.0000`,
/// which no positive key accepts).
pub fn significant(x: f64, digits: u32) -> String {
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    let places = (digits as i32 - 1 - magnitude).max(0) as usize;
    format!("{x:.places$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn significant_digits_keep_small_values_positive() {
        assert_eq!(significant(0.000012345, 4), "0.00001234");
        assert_eq!(significant(4.5, 4), "4.500");
        assert_eq!(significant(12345.6, 4), "12346");
        assert_eq!(significant(0.0, 4), "0");
    }

    #[test]
    fn digits_are_grouped_by_three() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1_000), "1\u{202f}000");
        assert_eq!(group_digits(2_000_000), "2\u{202f}000\u{202f}000");
    }

    #[test]
    fn means_wait_for_the_warm_up() {
        assert_eq!(format_mean(0.0, 0), "–");
        assert_eq!(format_mean(1.236, 10), "1.24");
        assert_eq!(format_mean(4512.347, 10), "4\u{202f}512.35");
    }

    #[test]
    fn decimals_group_their_whole_part() {
        assert_eq!(group_decimal(0.0, 2), "0.00");
        assert_eq!(group_decimal(999.996, 2), "1\u{202f}000.00");
        assert_eq!(group_decimal(1_234_567.25, 1), "1\u{202f}234\u{202f}567.2");
        assert_eq!(group_decimal(-1234.5, 1), "-1\u{202f}234.5");
        assert_eq!(group_decimal(-0.001, 2), "0.00");
        assert_eq!(group_decimal(12.0, 0), "12");
    }
}
