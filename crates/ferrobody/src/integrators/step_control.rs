//! Simbody's step-size control (`AbstractIntegratorRep::takeOneStep` / `adjustStepSize`).
//!
//! End of an attempt: `t1 = t_max` and *limited* if `t_max < t0 + 0.95 h`; `t1 = t0 + h` if
//! `t_max > t0 + 1.001 h`; otherwise `t1 = t_max` (stretched, not limited).
//!
//! New step: `h' = 0.1 h` for a non-finite error, `5 h` for zero error, else
//! `0.9 h (acc/err)^(1/p)`, p the method's error order (4 for Merson and Fehlberg). Growth is refused if limited or below 1.2 h; an accepted step
//! (err ≤ acc) never shrinks; a rejected one shrinks by at least 10%; then `h' ∈ [0.1 h, 5 h]`
//! and the user's min/max. The attempt is accepted iff `h' ≥ h`.

/// Where an attempt ends, and whether it was cut short by `t_max`.
#[inline]
pub fn choose_step_end(t0: f64, h: f64, t_max: f64) -> (f64, bool) {
    if t_max < t0 + 0.95 * h {
        (t_max, true)
    } else if t_max > t0 + 1.001 * h {
        (t0 + h, false)
    } else {
        (t_max, false)
    }
}

/// Updates `h` from the error norm of a method of error order `err_order`; returns whether
/// the attempt is accepted.
#[inline]
pub fn adjust_step_size(
    h: &mut f64,
    (err, err_order): (f64, i32),
    accuracy: f64,
    limited: bool,
    min_step: Option<f64>,
    max_step: Option<f64>,
) -> bool {
    let old = *h;
    let mut new = if !err.is_finite() {
        0.1 * old
    } else if err == 0.0 {
        5.0 * old
    } else {
        0.9 * old * (accuracy / err).powf(1.0 / f64::from(err_order))
    };
    if new > old && (limited || new < 1.2 * old) {
        new = old;
    }
    if new < old {
        new = if err <= accuracy {
            old
        } else {
            new.min(0.9 * old)
        };
    }
    new = new.min(5.0 * old).max(0.1 * old);
    if let Some(lo) = min_step {
        new = new.max(lo);
    }
    if let Some(hi) = max_step {
        new = new.min(hi);
    }
    *h = new;
    new >= old
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_rules() {
        assert_eq!(choose_step_end(0.0, 0.1, 0.05), (0.05, true));
        assert_eq!(choose_step_end(0.0, 0.1, 1.0), (0.1, false));
        assert_eq!(choose_step_end(0.0, 0.1, 0.1), (0.1, false));
        assert_eq!(choose_step_end(0.0, 0.1, 0.0955), (0.0955, false));
    }

    #[test]
    fn step_size_rules() {
        let mut h = 0.01;
        // Accepted with error in the hysteresis band: unchanged.
        assert!(adjust_step_size(
            &mut h,
            (0.5e-3, 4),
            1e-3,
            false,
            None,
            None
        ));
        assert_eq!(h, 0.01);
        // Tiny error: grows at most 5x.
        assert!(adjust_step_size(
            &mut h,
            (1e-12, 4),
            1e-3,
            false,
            None,
            None
        ));
        assert_eq!(h, 0.05);
        // Limited: no growth.
        assert!(adjust_step_size(&mut h, (1e-12, 4), 1e-3, true, None, None));
        assert_eq!(h, 0.05);
        // Rejected: shrinks by at least 10%, at most 90%.
        assert!(!adjust_step_size(
            &mut h,
            (1.1e-3, 4),
            1e-3,
            false,
            None,
            None
        ));
        let expected = 0.9 * 0.05 * (1.0f64 / 1.1).powf(0.25);
        assert_eq!(h, expected);
        assert!(!adjust_step_size(
            &mut h,
            (f64::NAN, 4),
            1e-3,
            false,
            None,
            None
        ));
        assert_eq!(h, 0.1 * expected);
        // A minimum step forces acceptance.
        let mut h = 0.01;
        assert!(adjust_step_size(
            &mut h,
            (1.0, 4),
            1e-3,
            false,
            Some(0.01),
            None
        ));
    }
}
