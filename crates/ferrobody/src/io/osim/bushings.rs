//! OpenSim's bushings between two frames (`socket_frame1` F, `socket_frame2` M, each a frame of
//! the model or one of the force's own `<frames>`):
//!
//! | OpenSim | ferrobody | properties |
//! |---|---|---|
//! | `BushingForce` | [`LinearBushing`] (Simbody's `LinearBushing`, with its dissipated-energy state) | `rotational_stiffness`, `translational_stiffness`, `rotational_damping`, `translational_damping` (default 0) |
//! | `FunctionBasedBushingForce` | [`NonlinearBushing`] with [`BushingStiffness::Functions`] | `m_x_theta_x_function` … `f_z_delta_z_function` (default `Constant` 0), the two dampings |
//! | `ExpressionBasedBushingForce` | [`NonlinearBushing`] with [`BushingStiffness::Expressions`] | `Mx_expression` … `Fz_expression` of `theta_x` … `delta_z` (default `0.0`; whitespace removed before parsing, as OpenSim does), the two dampings |
//!
//! The visual properties (`moment_visual_scale`, `force_visual_scale`, `visual_aspect_ratio`)
//! do not change the motion and are not read. Files older than version 30505 (`body_1`,
//! `location_body_1` …) are upgraded first (`upgrade/components.rs`).

use super::custom_joint::function_property;
use super::document::Res;
use super::forces::ForceCtx;
use super::frames::socket_frame;
use crate::forces::{BushingStiffness, LinearBushing, NonlinearBushing};
use crate::math::expression::Expression;
use crate::math::function::Function;
use crate::model::Force;
use roxmltree::Node;

/// `FunctionBasedBushingForce`'s function properties, in `dq`'s order.
const FUNCTIONS: [&str; 6] = [
    "m_x_theta_x_function",
    "m_y_theta_y_function",
    "m_z_theta_z_function",
    "f_x_delta_x_function",
    "f_y_delta_y_function",
    "f_z_delta_z_function",
];

/// `ExpressionBasedBushingForce`'s expression properties, in `dq`'s order.
const EXPRESSIONS: [&str; 6] = [
    "Mx_expression",
    "My_expression",
    "Mz_expression",
    "Fx_expression",
    "Fy_expression",
    "Fz_expression",
];

impl ForceCtx<'_, '_, '_> {
    /// OpenSim's `BushingForce` (Simbody's `LinearBushing` between `frame1` and `frame2`).
    pub(super) fn bushing(&mut self, node: Node) -> Res<()> {
        let doc = self.doc;
        let f1 = socket_frame(doc, node, "socket_frame1")?;
        let f2 = socket_frame(doc, node, "socket_frame2")?;
        let [kr, kt, cr, ct] = [
            "rotational_stiffness",
            "translational_stiffness",
            "rotational_damping",
            "translational_damping",
        ]
        .map(|tag| doc.fixed(node, tag, [0.0; 3]));
        let (kr, kt, cr, ct) = (kr?, kt?, cr?, ct?);
        let z = self.builder.add_z(0.0);
        let path = format!("{}/dissipated_energy", doc.path_of(node));
        self.state_variables.push((path, z));
        let bushing = LinearBushing {
            name: node.attribute("name").unwrap_or("BushingForce").to_string(),
            body1: self.body(node, &f1.body)?,
            x_b1f: f1.x_bf,
            body2: self.body(node, &f2.body)?,
            x_b2m: f2.x_bf,
            stiffness: [kr[0], kr[1], kr[2], kt[0], kt[1], kt[2]],
            damping: [cr[0], cr[1], cr[2], ct[0], ct[1], ct[2]],
            dissipated_energy: Some(z),
        };
        self.push(node, Force::LinearBushing(bushing))?;
        Ok(())
    }

    /// OpenSim's `FunctionBasedBushingForce` or `ExpressionBasedBushingForce`.
    pub(super) fn nonlinear_bushing(&mut self, node: Node) -> Res<()> {
        let doc = self.doc;
        let tag = node.tag_name().name();
        let f1 = socket_frame(doc, node, "socket_frame1")?;
        let f2 = socket_frame(doc, node, "socket_frame2")?;
        let cr = doc.fixed(node, "rotational_damping", [0.0; 3])?;
        let ct = doc.fixed(node, "translational_damping", [0.0; 3])?;
        let stiffness = if tag == "FunctionBasedBushingForce" {
            let mut functions = Vec::with_capacity(6);
            for property in FUNCTIONS {
                let f = function_property(doc, node, property)?;
                functions.push(f.unwrap_or(Function::Constant(0.0)));
            }
            let functions: [Function; 6] = functions.try_into().expect("six functions");
            BushingStiffness::Functions(Box::new(functions))
        } else {
            let mut expressions = Vec::with_capacity(6);
            for property in EXPRESSIONS {
                expressions.push(self.expression_property(
                    node,
                    property,
                    &NonlinearBushing::VARIABLES,
                )?);
            }
            let expressions: [Expression; 6] = expressions.try_into().expect("six expressions");
            BushingStiffness::Expressions(Box::new(expressions))
        };
        let bushing = NonlinearBushing {
            name: node.attribute("name").unwrap_or(tag).to_string(),
            body1: self.body(node, &f1.body)?,
            x_b1f: f1.x_bf,
            body2: self.body(node, &f2.body)?,
            x_b2m: f2.x_bf,
            stiffness,
            damping: [cr[0], cr[1], cr[2], ct[0], ct[1], ct[2]],
        };
        self.push(node, Force::NonlinearBushing(Box::new(bushing)))?;
        Ok(())
    }
}
