//! Per-contact outputs for inspection and `contacts.csv`: every overlapping pair of every
//! contact element at the current state.

use super::hunt_crossley::ContactEvaluation;
use crate::data::{Data, Stage};
use crate::forces::{Force, ForceContext};
use crate::geometry::{candidate_pairs, BroadPhase};
use crate::model::Model;
use crate::scalar::Real;
use crate::state::State;

/// One contact of one element.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactReport<T: Real> {
    /// Index of the contact element among the model's force elements.
    pub element: usize,
    /// The element's name.
    pub element_name: String,
    /// The contact itself.
    pub contact: ContactEvaluation<T>,
}

/// All contacts (overlapping surface pairs, including separating ones with zero force) of all
/// contact elements. Needs the Velocity stage. Allocates: for reporting, not for the step loop.
pub fn contact_reports<T: Real>(
    model: &Model<T>,
    state: &State<T>,
    data: &Data<T>,
) -> Vec<ContactReport<T>> {
    data.require(Stage::Velocity);
    let ctx = ForceContext::new(model, state, data);
    let mut out = Vec::new();
    let (mut x_gs, mut broad) = (Vec::new(), BroadPhase::default());
    for (e, f) in model.forces().iter().enumerate() {
        let Force::HuntCrossley(hc) = f else { continue };
        hc.surface_poses(&ctx, &mut x_gs);
        candidate_pairs(&hc.surfaces, &x_gs, &mut broad);
        for &(i, j) in &broad.pairs {
            if let Some(contact) = hc.evaluate(&ctx, &x_gs, i as usize, j as usize) {
                out.push(ContactReport {
                    element: e,
                    element_name: hc.name.clone(),
                    contact,
                });
            }
        }
    }
    out
}
