//! The impulse problem shared by the PLUS and PGS solvers (Simbody `ImpulseSolver`, notes
//! §4.5).
//!
//! With `A = G M⁻¹ Gᵀ` over the rows of the proximal contacts, find impulses π with
//!
//! ```text
//! A π = v_start + v_applied − A π_E            (rows that are enforced)
//! sign·π_N ≤ 0                                  (normals push, never pull)
//! ‖π_F‖ ≤ μ·N,   N = −sign·(π_N + π_E,N)        (Coulomb cone; sliding: π_F = μ N v̂)
//! ```
//!
//! and complementarity (a released normal leaves its row separating). `v_start` are the
//! velocity errors at the start, `v_applied = G Δu` the change the applied forces would make,
//! and `π_E` known expansion impulses (Poisson restitution) on the rows marked known. The
//! velocity errors afterwards are `v_start + v_applied − A (π + π_E)`.

use crate::scalar::Real;
use nalgebra::DMatrix;

/// Which impulse solver the time stepper uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ImpulseSolverKind {
    /// Simbody's PLUS solver: Newton on the active set, sliding intervals ([`super::plus`]).
    Plus,
    /// Projected Gauss–Seidel with over-relaxation ([`super::pgs`]).
    Pgs,
}

/// One proximal contact in the constraint-space rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActiveContact<T: Real> {
    /// Index of the unilateral contact in the model.
    pub contact: usize,
    /// Its normal row.
    pub normal_row: usize,
    /// Its first friction row (the second follows), if it has friction.
    pub friction_row: Option<usize>,
    /// Sign convention.
    pub sign: f64,
    /// Effective friction coefficient for this step.
    pub mu: T,
}

/// One solve.
pub struct ImpulseProblem<'a, T: Real> {
    /// `A = G M⁻¹ Gᵀ` (the leading `m × m` block is used).
    pub a: &'a DMatrix<T>,
    /// Number of rows.
    pub m: usize,
    /// The proximal contacts.
    pub contacts: &'a [ActiveContact<T>],
    /// Which contacts take part (others get zero impulse).
    pub participating: &'a [bool],
    /// Velocity errors at the start.
    pub v_start: &'a [T],
    /// Velocity-error change of the applied forces (zeros in an impact).
    pub v_applied: &'a [T],
    /// Known impulses (expansion); nonzero only on known rows.
    pub known: &'a [T],
    /// Rows whose impulse is known (not solved for).
    pub known_rows: &'a [bool],
    /// Whether friction rows are solved (off for position projection).
    pub friction: bool,
    /// Slip speed below which a contact is rolling (m/s).
    pub max_rolling_speed: f64,
}

impl<T: Real> ImpulseProblem<'_, T> {
    /// `(A x)_i` over the leading block.
    pub(crate) fn a_times(&self, i: usize, x: &[T]) -> T {
        let mut s = T::zero();
        for (j, xj) in x[..self.m].iter().enumerate() {
            s += self.a[(i, j)] * *xj;
        }
        s
    }

    /// The right-hand side `v_start + v_applied − A π_E` into `out`.
    pub(crate) fn rhs(&self, out: &mut [T]) {
        for (i, o) in out[..self.m].iter_mut().enumerate() {
            *o = self.v_start[i] + self.v_applied[i] - self.a_times(i, self.known);
        }
    }

    /// The compressive normal impulse magnitude `N = max(0, −sign·(π_N + π_E,N))`.
    pub(crate) fn normal_magnitude(&self, c: &ActiveContact<T>, pi: &[T]) -> T {
        let n = -(pi[c.normal_row] + self.known[c.normal_row]) * T::c(c.sign);
        if n.re() > 0.0 {
            n
        } else {
            T::zero()
        }
    }

    /// Whether this contact's friction rows are solved.
    pub(crate) fn has_friction_rows(&self, c: &ActiveContact<T>) -> Option<usize> {
        if self.friction {
            c.friction_row
        } else {
            None
        }
    }
}

/// Workspace of both solvers, sized once for `m_max` rows and `n_contacts` contacts.
#[derive(Clone, Debug)]
pub struct SolverWorkspace<T: Real> {
    pub(crate) rhs: Vec<T>,
    pub(crate) pi: Vec<T>,
    pub(crate) v_cur: Vec<T>,
    pub(crate) x: Vec<T>,
    pub(crate) b: Vec<T>,
    pub(crate) unknown_of_row: Vec<Option<usize>>,
    pub(crate) row_of_unknown: Vec<usize>,
    pub(crate) status: Vec<super::plus::FrictionStatus>,
    pub(crate) active: Vec<bool>,
    pub(crate) dir: Vec<[T; 2]>,
    pub(crate) lsq: super::lsq::LeastSquares<T>,
}

impl<T: Real> SolverWorkspace<T> {
    /// Buffers for up to `m_max` rows and `n_contacts` contacts.
    pub fn new(m_max: usize, n_contacts: usize) -> Self {
        let z = || vec![T::zero(); m_max];
        Self {
            rhs: z(),
            pi: z(),
            v_cur: z(),
            x: z(),
            b: z(),
            unknown_of_row: vec![None; m_max],
            row_of_unknown: vec![0; m_max],
            status: vec![super::plus::FrictionStatus::Rolling; n_contacts],
            active: vec![false; n_contacts],
            dir: vec![[T::zero(); 2]; n_contacts],
            lsq: super::lsq::LeastSquares::new(m_max),
        }
    }
}

/// Solves `p` with the chosen solver; writes π (length m, zero on known and non-participating
/// rows).
pub fn solve<T: Real>(
    kind: ImpulseSolverKind,
    p: &ImpulseProblem<'_, T>,
    ws: &mut SolverWorkspace<T>,
    pi: &mut [T],
) {
    match kind {
        ImpulseSolverKind::Plus => super::plus::solve(p, ws, pi),
        ImpulseSolverKind::Pgs => super::pgs::solve(p, ws, pi),
    }
}
