//! OpenSim's `PrescribedForce` as [`PrescribedForce`], its `ExpressionBasedCoordinateForce`
//! as [`CoordinateExpressionForce`] (`coordinate`, `expression` of `q` and `qdot`, default
//! `0.0`; a Lepton syntax error names the element) and its `ExpressionBasedPointToPointForce`
//! as [`PointToPointExpressionForce`] (`body1`, `body2`, `point1`, `point2`, `expression` of
//! `d` and `ddot`). `PrescribedForce`: `socket_frame` (or before version
//! 30506 `body`, upgraded), `pointIsGlobal` (default false), `forceIsGlobal` (default true),
//! and the `FunctionSet`s `forceFunctions`, `pointFunctions`, `torqueFunctions` of three
//! functions each or none (OpenSim refuses one or two: so does the reader).

use super::custom_joint::read_function;
use super::document::{child, objects, Res};
use super::forces::ForceCtx;
use super::frames::{resolve_frame, socket_frame};
use crate::forces::{
    CoordinateExpressionForce, ExpressedIn, PointToPointExpressionForce, PrescribedForce,
};
use crate::ids::BodyId;
use crate::math::expression::Expression;
use crate::math::function::Function;
use crate::model::Force;
use nalgebra::Vector3;
use roxmltree::Node;

/// Ground when `global`, else the force's own frame.
fn global_or_applied(global: bool) -> ExpressedIn {
    if global {
        ExpressedIn::Ground
    } else {
        ExpressedIn::Applied
    }
}

impl ForceCtx<'_, '_, '_> {
    /// Adds a `PrescribedForce`.
    pub(super) fn prescribed_force(&mut self, node: Node) -> Res<()> {
        let doc = self.doc;
        let frame = socket_frame(doc, node, "socket_frame")?;
        let force = PrescribedForce {
            name: node
                .attribute("name")
                .unwrap_or("PrescribedForce")
                .to_string(),
            body: self.body(node, &frame.body)?,
            x_bf: frame.x_bf,
            force: self.function_triple(node, "forceFunctions")?,
            point: self.function_triple(node, "pointFunctions")?,
            torque: self.function_triple(node, "torqueFunctions")?,
            point_in: global_or_applied(doc.boolean(node, "pointIsGlobal", false)?),
            force_in: global_or_applied(doc.boolean(node, "forceIsGlobal", true)?),
        };
        self.push(node, Force::Prescribed(Box::new(force)))?;
        Ok(())
    }

    /// The expression property `tag` of an `ExpressionBased…` element (default `0.0`), its
    /// whitespace removed as OpenSim removes it, parsed with `variables`; a syntax error names
    /// the element, the line and the property.
    pub(super) fn expression_property(
        &self,
        node: Node,
        tag: &str,
        variables: &[&str],
    ) -> Res<Expression> {
        let doc = self.doc;
        let (at, text) = doc.text(node, tag).unwrap_or((node, "0.0".to_string()));
        let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        Expression::parse(&text, variables).map_err(|e| doc.err(at, format!("<{tag}>: {e}")))
    }

    /// An `ExpressionBased…` force's `expression` ([`Self::expression_property`]) and its name
    /// (its tag when unnamed).
    fn expression(&self, node: Node, variables: &[&str]) -> Res<(Expression, String)> {
        let expression = self.expression_property(node, "expression", variables)?;
        let name = node.attribute("name").unwrap_or(node.tag_name().name());
        Ok((expression, name.to_string()))
    }

    /// Adds an `ExpressionBasedCoordinateForce`.
    pub(super) fn coordinate_expression(&mut self, node: Node) -> Res<()> {
        let (body, coordinate, _) = self.coordinate(node)?;
        let (expression, name) = self.expression(node, &CoordinateExpressionForce::VARIABLES)?;
        let force = CoordinateExpressionForce {
            name,
            body,
            coordinate,
            expression,
        };
        self.push(node, Force::CoordinateExpression(Box::new(force)))?;
        Ok(())
    }

    /// Adds an `ExpressionBasedPointToPointForce`: its `body1` and `body2` are names or
    /// paths, looked up as OpenSim looks them up (the path from the model, else
    /// `./bodyset/NAME`); its points are in the frames' base bodies (OpenSim applies them to
    /// the mobilized body even when the name is an offset frame's); `expression` defaults to
    /// `0.0`.
    pub(super) fn point_to_point_expression(&mut self, node: Node) -> Res<()> {
        let doc = self.doc;
        let body = |tag: &str| -> Res<BodyId> {
            let (at, name) = doc
                .text(node, tag)
                .ok_or_else(|| doc.err(node, format!("missing <{tag}>")))?;
            let name = name.trim();
            let path = format!("/{}", name.trim_start_matches('/'));
            let frame = doc
                .component(&path)
                .or_else(|| doc.component(&format!("/bodyset/{name}")))
                .ok_or_else(|| {
                    doc.err(
                        at,
                        format!("<{tag}> '{name}' names no body or frame of the model"),
                    )
                })?;
            let base = resolve_frame(doc, frame).map_err(|mut e| {
                e.problem = crate::error::invalid!("<{tag}> '{name}': {}", e.problem);
                e
            })?;
            self.body(at, &base.body)
        };
        let body1 = body("body1")?;
        let body2 = body("body2")?;
        let (expression, name) = self.expression(node, &PointToPointExpressionForce::VARIABLES)?;
        let force = PointToPointExpressionForce {
            name,
            body1,
            p1: Vector3::from(doc.fixed(node, "point1", [0.0; 3])?),
            body2,
            p2: Vector3::from(doc.fixed(node, "point2", [0.0; 3])?),
            expression,
        };
        self.push(node, Force::PointToPointExpression(Box::new(force)))?;
        Ok(())
    }

    /// The function set `name` (a `<FunctionSet name="NAME">`, or a `<NAME>` element):
    /// three functions, or `None` when it is absent or empty.
    fn function_triple(&self, node: Node, name: &str) -> Res<Option<[Function; 3]>> {
        let doc = self.doc;
        let set = node
            .children()
            .find(|c| c.is_element() && c.attribute("name") == Some(name))
            .or_else(|| child(node, name));
        let Some(set) = set else { return Ok(None) };
        let functions = objects(set)
            .into_iter()
            .map(|f| read_function(doc, f))
            .collect::<Res<Vec<_>>>()?;
        match <[Function; 3]>::try_from(functions) {
            Ok(three) => Ok(Some(three)),
            Err(v) if v.is_empty() => Ok(None),
            Err(v) => Err(doc.err(
                set,
                format!(
                    "{name}: three components must be given, or none, not {}",
                    v.len()
                ),
            )),
        }
    }
}
