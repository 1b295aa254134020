//! Contact materials and their combination (Simbody `HuntCrossleyForce::setBodyParameters`,
//! `ContactMaterial`; notes §3.1, §3.3).
//!
//! Each surface has a stiffness E (Pa, used as `k = E^(2/3)`), a dissipation c (s/m) and
//! static, dynamic and viscous friction coefficients (dimensionless, except viscous: s/m).
//! For a contact between surfaces 1 and 2:
//!
//! ```text
//! s1 = k2/(k1 + k2),  s2 = 1 − s1        (share of the deformation taken by each surface)
//! k  = k1 s1 = k1 k2/(k1 + k2)          (so k = E_eff^(2/3) of the series combination)
//! c  = c1 s1 + c2 s2
//! μ  = 2 μ1 μ2/(μ1 + μ2)                (harmonic mean; 0 if both are 0), for μs, μd, μv
//! ```

use crate::error::{invalid, ModelError};
use crate::scalar::Real;

/// Parameters of one contact surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactMaterial<T: Real = f64> {
    /// Stiffness E (Pa); the law uses `E^(2/3)`.
    pub stiffness: T,
    /// Hunt–Crossley dissipation c (s/m).
    pub dissipation: T,
    /// Static friction coefficient μs.
    pub static_friction: T,
    /// Dynamic friction coefficient μd (≤ μs).
    pub dynamic_friction: T,
    /// Viscous friction coefficient μv (s/m).
    pub viscous_friction: T,
}

impl<T: Real> ContactMaterial<T> {
    /// Checks Simbody's `ContactMaterial` rules: every value finite, E ≥ 0, c ≥ 0,
    /// 0 ≤ μd ≤ μs, μv ≥ 0.
    pub fn validate(&self) -> Result<(), ModelError> {
        let named = [
            ("stiffness", self.stiffness),
            ("dissipation", self.dissipation),
            ("static_friction", self.static_friction),
            ("dynamic_friction", self.dynamic_friction),
            ("viscous_friction", self.viscous_friction),
        ];
        super::checks::all_non_negative(&named)?;
        if self.dynamic_friction.re() > self.static_friction.re() {
            return Err(invalid!(
                "dynamic_friction: {} must not exceed static_friction ({})",
                self.dynamic_friction.re(),
                self.static_friction.re()
            ));
        }
        Ok(())
    }

    /// Converts to another scalar type through `f64`.
    pub fn cast<U: Real>(&self) -> ContactMaterial<U> {
        ContactMaterial {
            stiffness: U::c(self.stiffness.re()),
            dissipation: U::c(self.dissipation.re()),
            static_friction: U::c(self.static_friction.re()),
            dynamic_friction: U::c(self.dynamic_friction.re()),
            viscous_friction: U::c(self.viscous_friction.re()),
        }
    }
}

/// The combined parameters of one contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CombinedMaterial<T: Real> {
    /// Share of the deformation taken by surface 1, `s1 = k2/(k1 + k2)`.
    pub s1: T,
    /// Combined `k = E_eff^(2/3)`.
    pub k: T,
    /// Combined dissipation (s/m).
    pub c: T,
    /// Combined static friction.
    pub mu_s: T,
    /// Combined dynamic friction.
    pub mu_d: T,
    /// Combined viscous friction (s/m).
    pub mu_v: T,
}

impl<T: Real> CombinedMaterial<T> {
    /// Converts to another scalar type through `f64` (as [`ContactMaterial::cast`]).
    pub fn cast<U: Real>(&self) -> CombinedMaterial<U> {
        CombinedMaterial {
            s1: U::c(self.s1.re()),
            k: U::c(self.k.re()),
            c: U::c(self.c.re()),
            mu_s: U::c(self.mu_s.re()),
            mu_d: U::c(self.mu_d.re()),
            mu_v: U::c(self.mu_v.re()),
        }
    }
}

/// Harmonic mean `2ab/(a + b)`, 0 when both are 0.
#[inline]
pub fn harmonic_mean<T: Real>(a: T, b: T) -> T {
    let sum = a + b;
    if sum.re() == 0.0 {
        T::zero()
    } else {
        T::c(2.0) * a * b / sum
    }
}

/// Combines two surfaces' materials; `k1`, `k2` are their `E^(2/3)`.
#[inline]
pub fn combine<T: Real>(
    m1: &ContactMaterial<T>,
    k1: T,
    m2: &ContactMaterial<T>,
    k2: T,
) -> CombinedMaterial<T> {
    // Two rigid-less (zero-stiffness) surfaces carry no force; split the deformation evenly
    // rather than dividing 0 by 0.
    let sum = k1 + k2;
    let s1 = if sum.re() == 0.0 { T::c(0.5) } else { k2 / sum };
    let s2 = T::one() - s1;
    CombinedMaterial {
        s1,
        k: k1 * s1,
        c: m1.dissipation * s1 + m2.dissipation * s2,
        mu_s: harmonic_mean(m1.static_friction, m2.static_friction),
        mu_d: harmonic_mean(m1.dynamic_friction, m2.dynamic_friction),
        mu_v: harmonic_mean(m1.viscous_friction, m2.viscous_friction),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simbody_probe_values() {
        // Notes §3.3 probe: μs 0.7/0.9 → 0.7875, μd 0.5/0.3 → 0.375.
        assert!((harmonic_mean(0.7f64, 0.9) - 0.7875).abs() < 1e-15);
        assert!((harmonic_mean(0.5f64, 0.3) - 0.375).abs() < 1e-15);
        assert_eq!(harmonic_mean(0.0, 0.0), 0.0);
        // Notes §6.3: E1 = 1, E2 = 2 gives k = 0.61351179.
        let m = ContactMaterial {
            stiffness: 1.0,
            dissipation: 0.5,
            static_friction: 1.0,
            dynamic_friction: 0.5,
            viscous_friction: 0.1,
        };
        let (k1, k2) = (1.0f64, 2.0f64.powf(2.0 / 3.0));
        let c = combine(&m, k1, &m, k2);
        assert!((c.k - 0.61351179).abs() < 1e-8);
    }
}
