//! The multibody tree: bodies on mobilizers in tree order, and the layout of the state.
//!
//! A [`Tree`] is what the tree algorithms ([`crate::algorithms`]), the state and the data need
//! to know of a model: the bodies (Ground first, every parent before its children), where each
//! mobilizer's q and u live, the defaults of q and z, and the slot layouts of the discrete and
//! auto-update variables. It knows nothing of force elements, constraints or contacts: those
//! are assembled above it into a [`Model`](crate::Model), which dereferences to its tree
//! (Simbody's SimbodyMatterSubsystem within its System; Pinocchio's `Model` apart from its
//! algorithms).

pub(crate) mod body;
pub(crate) mod body_checks;
mod layout;
pub mod planar;

pub use body::{Body, BodyDef};
pub use layout::{SlotLayout, VarSlot};

use crate::ids::{BodyId, DiscreteVarId};
use crate::mobilizer::Mobilizer;
use crate::scalar::Real;

/// Largest mass (kg) or inertia entry (kg·m²) a body may have: the spatial inertia and the
/// mass matrix square these values, so larger ones overflow f64 or make every other body's
/// contribution round-off.
pub const MAX_MASS_PROPERTY: f64 = 1e30;

/// The bodies of a model in tree order and the layout of its state.
#[derive(Clone)]
pub struct Tree<T: Real = f64> {
    pub(crate) bodies: Vec<Body<T>>,
    pub(crate) nq: usize,
    pub(crate) nu: usize,
    pub(crate) default_q: Vec<T>,
    pub(crate) default_z: Vec<T>,
    pub(crate) discrete: SlotLayout<T>,
    pub(crate) auto_update: SlotLayout<T>,
    /// Offsets of the quaternions within q (for projection and error norms).
    pub(crate) quaternion_starts: Vec<usize>,
    /// Body name → index (O(1) lookups).
    pub(crate) body_names: std::collections::HashMap<String, usize>,
    /// Whether every mobilizer has q̇ = u (no quaternion or Euler-angle Ball/Free), so that
    /// q̇ is one copy of u.
    pub(crate) qdot_is_u: bool,
    /// The discrete variable holding the control vector and where its force-element
    /// controls start (after the actuators'), if the model has a control vector.
    pub(crate) controls: Option<(DiscreteVarId, usize)>,
}

impl<T: Real> Tree<T> {
    /// All bodies, Ground first, in tree order.
    pub fn bodies(&self) -> &[Body<T>] {
        &self.bodies
    }

    /// One body.
    pub fn body(&self, id: BodyId) -> &Body<T> {
        &self.bodies[id.0]
    }

    /// Number of bodies including Ground.
    pub fn nbodies(&self) -> usize {
        self.bodies.len()
    }

    /// Finds a body by name.
    pub fn body_id(&self, name: &str) -> Option<BodyId> {
        self.body_names.get(name).copied().map(BodyId)
    }

    /// Number of generalized coordinates.
    pub fn nq(&self) -> usize {
        self.nq
    }

    /// The number of q Simbody allocates for this tree: nq plus one for every Ball, Free or
    /// Ellipsoid mobilizer in Euler-angle mode (Simbody keeps the quaternion's slot count there). The
    /// integrators' error norm divides by it.
    pub fn simbody_q_count(&self) -> usize {
        let euler = self.bodies[1..]
            .iter()
            .filter(|b| b.mobilizer.keeps_quaternion_slot())
            .count();
        self.nq + euler
    }

    /// Number of generalized speeds.
    pub fn nu(&self) -> usize {
        self.nu
    }

    /// Names of the generalized coordinates in q order, `BODY.SUFFIX` with the mobilizer's
    /// [`Mobilizer::coordinate_suffixes`]: a free body's are `ball.qw … ball.pz`, a pin's
    /// `link.rz`.
    pub fn coordinate_names(&self) -> Vec<String> {
        self.mobility_names(Mobilizer::coordinate_suffixes)
    }

    /// Names of the generalized speeds in u order (`ball.wx … ball.vz` for a free body).
    pub fn speed_names(&self) -> Vec<String> {
        self.mobility_names(Mobilizer::speed_suffixes)
    }

    fn mobility_names(&self, suffixes: impl Fn(Mobilizer) -> Vec<String>) -> Vec<String> {
        self.bodies[1..]
            .iter()
            .flat_map(|b| {
                suffixes(b.mobilizer)
                    .into_iter()
                    .map(move |s| format!("{}.{s}", b.name))
            })
            .collect()
    }

    /// Number of continuous auxiliary variables.
    pub fn nz(&self) -> usize {
        self.default_z.len()
    }

    /// Start indices (in q) of every quaternion.
    pub fn quaternion_starts(&self) -> &[usize] {
        &self.quaternion_starts
    }

    /// Layout of the discrete variables.
    pub fn discrete_layout(&self) -> &SlotLayout<T> {
        &self.discrete
    }

    /// Layout of the auto-update discrete variables.
    pub fn auto_update_layout(&self) -> &SlotLayout<T> {
        &self.auto_update
    }

    /// Converts the tree to another scalar type (through `f64`; derivative parts are dropped).
    pub(crate) fn cast<U: Real>(&self) -> Tree<U> {
        let mut bodies: Vec<Body<U>> = self.bodies.iter().map(cast_body).collect();
        Body::mark_tree_flags(&mut bodies);
        Tree {
            bodies,
            nq: self.nq,
            nu: self.nu,
            default_q: cast_vec(&self.default_q),
            default_z: cast_vec(&self.default_z),
            discrete: self.discrete.cast(),
            auto_update: self.auto_update.cast(),
            quaternion_starts: self.quaternion_starts.clone(),
            body_names: self.body_names.clone(),
            qdot_is_u: self.qdot_is_u,
            controls: self.controls,
        }
    }
}

fn cast_vec<T: Real, U: Real>(v: &[T]) -> Vec<U> {
    v.iter().map(|x| U::c(x.re())).collect()
}

fn cast_body<T: Real, U: Real>(b: &Body<T>) -> Body<U> {
    let def = BodyDef {
        name: b.name.clone(),
        parent: b.parent,
        mobilizer: b.mobilizer,
        x_pf: b.x_pf.cast(),
        x_bm: b.x_bm.cast(),
        mass_properties: b.mass_properties.cast(),
        spatial_transform: b.spatial_transform.clone(),
        ellipsoid_radii: b.ellipsoid_radii.map(|r| r.map(|x| U::c(x.re()))),
    };
    Body::new(def, b.q_start, b.u_start)
}
