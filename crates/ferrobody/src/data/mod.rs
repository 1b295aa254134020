//! `Data`: everything computed from a `State`, grouped by stage, plus the workspace of the
//! algorithms. Sized once from the model; the contact buffers grow on the first evaluations to
//! the number of pairs and are reused after that, so stepping does not allocate.

mod accessors;
mod constraint_cache;
mod force_records;
mod muscle_helper;
mod stage;
mod thread_tuner;

pub(crate) use constraint_cache::ConstraintCache;
pub(crate) use force_records::{ForceOp, ForceRecords};
pub(crate) use muscle_helper::HelperSlot;
#[cfg(feature = "parallel")]
pub(crate) use muscle_helper::{HelperHandle, HelperJob, HelperShared};
pub use stage::Stage;
pub(crate) use thread_tuner::{ThreadMode, ThreadTuner};

use crate::math::inertia::RigidInertia;
use crate::math::{SpatialVec, Transform};
use crate::mobilizer::CustomJointFrame;
use crate::scalar::Real;
use crate::tree::Tree;
use nalgebra::{DVector, Matrix3, Matrix6, Vector3};

/// Position-stage results (depend on q).
#[derive(Clone, Debug)]
pub(crate) struct PositionCache<T: Real> {
    /// Pose of each body in Ground, `x_gb` (nbodies).
    pub x_gb: Vec<Transform<T>>,
    /// Pose of each mobilizer's inboard frame F in Ground, `x_gf` (nbodies).
    pub x_gf: Vec<Transform<T>>,
    /// Origin of each mobilizer's outboard frame M in Ground, `p_gm` (nbodies).
    pub p_gm: Vec<Vector3<T>>,
    /// Spatial inertia of each body about its origin, in Ground; its `c` is the COM offset
    /// `p_bc` in Ground (nbodies).
    pub inertia: Vec<RigidInertia<T>>,
    /// Hinge matrix columns in Ground, at the body origin: `V_GB = Φᵀ V_GP + Σ h_k u_k` (nu).
    pub h_g: Vec<SpatialVec<T>>,
    /// Each function-based mobilizer at q, by body (nbodies when the tree has one, else
    /// empty): its functions and rotations, evaluated once for the pose, H and `Ḣu`.
    pub custom_joints: Vec<CustomJointFrame<T>>,
}

/// Velocity-stage results (depend on q and u).
#[derive(Clone, Debug)]
pub(crate) struct VelocityCache<T: Real> {
    /// Spatial velocity of each body origin in Ground, `[w_gb; v_gb]` (nbodies).
    pub v_gb: Vec<SpatialVec<T>>,
    /// Coriolis (velocity-dependent) acceleration of each body relative to its parent (nbodies).
    pub coriolis: Vec<SpatialVec<T>>,
    /// Gyroscopic force of each body about its origin, in Ground (nbodies).
    pub gyroscopic: Vec<SpatialVec<T>>,
    /// q̇ (nq).
    pub qdot: DVector<T>,
}

/// Dynamics-stage results (applied forces).
#[derive(Clone, Debug)]
pub(crate) struct DynamicsCache<T: Real> {
    /// Applied force on each body, moment about the body origin then force, in Ground (nbodies).
    pub body_forces: Vec<SpatialVec<T>>,
    /// Applied generalized forces (nu).
    pub mobility_forces: DVector<T>,
    /// ż from force elements that own auxiliary variables (nz).
    pub zdot: DVector<T>,
}

/// Acceleration-stage results.
#[derive(Clone, Debug)]
pub(crate) struct AccelerationCache<T: Real> {
    /// u̇ (nu).
    pub udot: DVector<T>,
    /// Acceleration of each body origin in Ground, `[α; a]` (nbodies).
    pub a_gb: Vec<SpatialVec<T>>,
}

/// Workspace of the articulated-body algorithm.
#[derive(Clone, Debug)]
pub(crate) struct AbaWorkspace<T: Real> {
    /// Articulated inertia of each body about its origin (nbodies).
    pub p: Vec<Matrix6<T>>,
    /// Articulated bias force of each body (nbodies).
    pub z: Vec<SpatialVec<T>>,
    /// `P H D⁻¹` columns (nu).
    pub g: Vec<SpatialVec<T>>,
    /// `D⁻¹ ε` per u (nu).
    pub nu: Vec<T>,
    /// `P H` columns (nu).
    pub ph: Vec<SpatialVec<T>>,
    /// Body accelerations used as workspace by inverse dynamics (nbodies).
    pub a: Vec<SpatialVec<T>>,
    /// Bodies of planar subtrees (`crate::tree::planar`): reduced articulated inertia
    /// `Sᵀ P S` (nbodies).
    pub p3: Vec<Matrix3<T>>,
    /// Planar bodies: reduced bias force `Sᵀ z` (nbodies).
    pub z3: Vec<Vector3<T>>,
    /// Planar bodies: reduced acceleration `Sᵀ A` (nbodies).
    pub a3: Vec<Vector3<T>>,
    /// Planar bodies: reduced hinge columns `Sᵀ h` (nu).
    pub h3: Vec<Vector3<T>>,
    /// Planar bodies: reduced `G = P h D⁻¹` columns (nu).
    pub g3: Vec<Vector3<T>>,
    /// Planar-xy path: each body's shift `Φ = R_GP p_PB` from its parent, in Ground (nbodies).
    pub shift3: Vec<Vector3<T>>,
    /// Planar-xy path: each body's first child, then each body's next sibling, in index
    /// order (nbodies; 0 ends a list).
    pub first_child: Vec<usize>,
    /// See `first_child`.
    pub next_sibling: Vec<usize>,
    /// CRBA: each body's composite inertia about its tree's reference point (nbodies).
    pub composite: Vec<crate::math::inertia::InertiaAboutPoint<T>>,
    /// CRBA: the root body of each body's tree (nbodies; 0 for Ground).
    pub tree_root: Vec<usize>,
}

/// All computed quantities for one state, grouped by stage.
#[derive(Clone, Debug)]
pub struct Data<T: Real = f64> {
    pub(crate) realized: Stage,
    /// Position stage.
    pub(crate) pos: PositionCache<T>,
    /// Velocity stage.
    pub(crate) vel: VelocityCache<T>,
    /// Dynamics stage.
    pub(crate) dynamics: DynamicsCache<T>,
    /// Acceleration stage.
    pub(crate) acc: AccelerationCache<T>,
    /// Articulated-body workspace.
    pub(crate) aba: AbaWorkspace<T>,
    /// Auto-update values computed during the last realization (flat; see the model layout).
    pub(crate) auto_update_cache: Vec<T>,
    /// Which auto-update cache entries are valid (one per variable).
    pub(crate) auto_update_valid: Vec<bool>,
    /// Number of times the Dynamics stage was realized (force evaluations).
    pub(crate) realizations: u64,
    /// Constraint errors, multipliers and their workspace.
    pub(crate) constraints: ConstraintCache<T>,
    /// Reusable buffers of contact evaluation (surface poses, broad-phase pairs).
    pub(crate) contact_scratch: crate::geometry::ContactScratch<T>,
    /// Forces of elements evaluated in parallel, replayed in order.
    pub(crate) force_records: ForceRecords<T>,
}

impl<T: Real> Data<T> {
    /// Data sized for the tree alone (no constraint buffers), with nothing realized: for the
    /// tree algorithms. [`Data::new`] sizes it for a whole model.
    pub(crate) fn for_tree(model: &Tree<T>) -> Self {
        Self::with_constraint_rows(model, 0, 0)
    }

    /// Data sized for `model` and `rows` constraint rows (`holonomic` of them holonomic), with
    /// nothing realized.
    pub(crate) fn with_constraint_rows(model: &Tree<T>, rows: usize, holonomic: usize) -> Self {
        let nb = model.nbodies();
        let (nq, nu, nz) = (model.nq(), model.nu(), model.nz());
        let sv = || vec![SpatialVec::<T>::zeros(); nb];
        Self {
            realized: Stage::Time,
            pos: PositionCache {
                x_gb: vec![Transform::identity(); nb],
                x_gf: vec![Transform::identity(); nb],
                p_gm: vec![Vector3::zeros(); nb],
                inertia: vec![RigidInertia::zero(); nb],
                h_g: vec![SpatialVec::zeros(); nu],
                custom_joints: if model.bodies.iter().any(|b| b.spatial_transform.is_some()) {
                    vec![CustomJointFrame::default(); nb]
                } else {
                    Vec::new()
                },
            },
            vel: VelocityCache {
                v_gb: sv(),
                coriolis: sv(),
                gyroscopic: sv(),
                qdot: DVector::zeros(nq),
            },
            dynamics: DynamicsCache {
                body_forces: sv(),
                mobility_forces: DVector::zeros(nu),
                zdot: DVector::zeros(nz),
            },
            acc: AccelerationCache {
                udot: DVector::zeros(nu),
                a_gb: sv(),
            },
            aba: AbaWorkspace {
                p: vec![Matrix6::zeros(); nb],
                z: sv(),
                g: vec![SpatialVec::zeros(); nu],
                nu: vec![T::zero(); nu],
                ph: vec![SpatialVec::zeros(); nu],
                a: sv(),
                p3: vec![Matrix3::zeros(); nb],
                z3: vec![Vector3::zeros(); nb],
                a3: vec![Vector3::zeros(); nb],
                h3: vec![Vector3::zeros(); nu],
                g3: vec![Vector3::zeros(); nu],
                shift3: vec![Vector3::zeros(); nb],
                first_child: vec![0; nb],
                next_sibling: vec![0; nb],
                composite: vec![crate::math::inertia::InertiaAboutPoint::zero(); nb],
                tree_root: vec![0; nb],
            },
            auto_update_cache: model.auto_update.defaults.clone(),
            auto_update_valid: vec![false; model.auto_update.len()],
            realizations: 0,
            constraints: ConstraintCache::new(rows, holonomic, nu, nb),
            contact_scratch: Default::default(),
            force_records: Default::default(),
        }
    }

    /// The stage this data has been realized to.
    pub fn stage(&self) -> Stage {
        self.realized
    }

    /// Marks everything from `stage` on as stale (call after changing the state by hand).
    pub fn invalidate(&mut self, stage: Stage) {
        if self.realized >= stage {
            self.realized = match stage {
                Stage::Time | Stage::Position => Stage::Time,
                Stage::Velocity => Stage::Position,
                Stage::Dynamics => Stage::Velocity,
                Stage::Acceleration => Stage::Dynamics,
            };
        }
    }

    /// Debug check, inside the library, that a stage has been realized before its results
    /// are read (users read through the checked accessors, which fail in every build).
    #[inline(always)]
    pub(crate) fn require(&self, stage: Stage) {
        debug_assert!(
            self.realized >= stage,
            "Data read at {stage:?} but realized only to {:?}",
            self.realized
        );
    }
}
