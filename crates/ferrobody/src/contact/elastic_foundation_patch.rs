//! Contact reports of an elastic foundation: the springs of one mesh inside one other surface,
//! summed into one `contacts.csv` row (docs/scene-format.md): the centre of their normal forces,
//! the direction of the summed normal force, the deepest spring, the summed forces.

use super::elastic_foundation::ElasticFoundationForce;
use crate::forces::ForceContext;
use crate::ids::BodyId;
use crate::scalar::Real;
use nalgebra::Vector3;

/// The springs of one mesh pressed by one other surface, summed (for reports).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FoundationPatch<T: Real> {
    /// The other surface's body, then the mesh's.
    pub bodies: (BodyId, BodyId),
    /// Centre of the springs' normal forces (Ground); the mean spring point when no spring
    /// pushes.
    pub point: Vector3<T>,
    /// Unit direction of the summed normal force on the mesh (from the other surface).
    pub normal: Vector3<T>,
    /// The deepest spring's compression (m).
    pub depth: T,
    /// Sum of the springs' normal forces (N).
    pub normal_force: T,
    /// Sum of the friction forces on the mesh (N, Ground).
    pub friction_force: Vector3<T>,
    /// Slip speed at the deepest spring (m/s).
    pub slip_speed: T,
    /// Springs inside the other surface.
    pub springs: usize,
    /// Potential energy (J).
    pub potential_energy: T,
}

/// A patch being summed: the patch, Σ f·Q and Σ Q.
type PatchSums<T> = (FoundationPatch<T>, Vector3<T>, Vector3<T>);

impl<T: Real> ElasticFoundationForce<T> {
    /// Each (other, mesh) pair with springs inside, summed (for contact reports).
    pub fn patches(&self, ctx: &ForceContext<'_, T>) -> Vec<FoundationPatch<T>> {
        let mut sums: Vec<Option<PatchSums<T>>> = vec![None; self.pairs.len()];
        self.for_each_spring(ctx, |k, s| {
            let (m, o) = self.pairs[k];
            let entry = sums[k].get_or_insert_with(|| {
                let bodies = (self.surfaces()[o].body, self.surfaces()[m].body);
                let empty = FoundationPatch {
                    bodies,
                    point: Vector3::zeros(),
                    normal: Vector3::zeros(),
                    depth: T::zero(),
                    normal_force: T::zero(),
                    friction_force: Vector3::zeros(),
                    slip_speed: T::zero(),
                    springs: 0,
                    potential_energy: T::zero(),
                };
                (empty, Vector3::zeros(), Vector3::zeros())
            });
            let (patch, weighted, points) = entry;
            patch.springs += 1;
            patch.potential_energy += s.energy;
            patch.normal += s.normal * s.f;
            patch.normal_force += s.f;
            patch.friction_force += s.friction;
            if s.depth.re() > patch.depth.re() {
                patch.depth = s.depth;
                patch.slip_speed = s.slip;
            }
            *weighted += s.point * s.f;
            *points += s.point;
        });
        sums.into_iter()
            .flatten()
            .map(|(mut patch, weighted, points)| {
                let n = patch.normal.norm();
                if patch.normal_force.re() > 0.0 {
                    patch.point = weighted / patch.normal_force;
                    patch.normal /= n;
                    patch.normal_force = n;
                } else {
                    patch.point = points / T::c(patch.springs as f64);
                }
                patch
            })
            .collect()
    }
}
