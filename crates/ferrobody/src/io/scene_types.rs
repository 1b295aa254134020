//! The serde shape of a scene file. Every table rejects unknown keys.

use serde::Deserialize;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct SceneFile {
    pub name: Option<String>,
    pub description: Option<String>,
    pub gravity: Option<[f64; 3]>,
    pub simulation: SimulationSection,
    pub integrator: Option<IntegratorSection>,
    #[serde(default, rename = "body")]
    pub bodies: Vec<BodySection>,
    #[serde(default, rename = "force")]
    pub forces: Vec<ForceSection>,
    #[serde(default, rename = "material")]
    pub materials: std::collections::BTreeMap<String, MaterialSection>,
    #[serde(default, rename = "contact")]
    pub contacts: Vec<ContactSection>,
    #[serde(default, rename = "constraint")]
    pub constraints: Vec<super::scene_constraints::ConstraintSection>,
    #[serde(default, rename = "unilateral_contact")]
    pub unilateral_contacts: Vec<super::scene_unilateral::UnilateralSection>,
    #[serde(default, rename = "robot")]
    pub robots: Vec<super::scene_robot::RobotSection>,
    #[serde(default, rename = "actuator")]
    pub actuators: Vec<toml::Spanned<super::scene_actuators::ActuatorSection>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct MaterialSection {
    pub stiffness: f64,
    pub dissipation: Option<f64>,
    pub static_friction: Option<f64>,
    pub dynamic_friction: Option<f64>,
    pub viscous_friction: Option<f64>,
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(super) enum ContactModelKind {
    HuntCrossley,
    Compliant,
    ElasticFoundation,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct ContactSection {
    pub name: Option<String>,
    pub model: ContactModelKind,
    pub transition_velocity: Option<f64>,
    #[serde(rename = "surface")]
    pub surfaces: Vec<SurfaceSection>,
    pub enabled: Option<bool>,
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(super) enum ShapeKind {
    Sphere,
    HalfSpace,
    Ellipsoid,
    Brick,
    Mesh,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct SurfaceSection {
    pub body: String,
    pub shape: ShapeKind,
    pub radius: Option<f64>,
    pub radii: Option<[f64; 3]>,
    pub half_lengths: Option<[f64; 3]>,
    pub file: Option<String>,
    pub frame: Option<FrameSection>,
    pub material: String,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct SimulationSection {
    pub duration: f64,
    pub report_interval: Option<f64>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct IntegratorSection {
    pub method: Option<crate::integrators::IntegratorKind>,
    pub accuracy: Option<f64>,
    pub constraint_tolerance: Option<f64>,
    pub initial_step: Option<f64>,
    pub min_step: Option<f64>,
    pub max_step: Option<f64>,
    pub fixed_step: Option<f64>,
    pub max_steps: Option<u64>,
    pub rigid_contact: Option<super::scene_unilateral::RigidContactSection>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct BodySection {
    pub name: String,
    pub parent: Option<String>,
    pub mobilizer: crate::mobilizer::Mobilizer,
    pub mass: f64,
    pub com: Option<[f64; 3]>,
    pub inertia: Option<Vec<f64>>,
    pub inboard: Option<FrameSection>,
    pub outboard: Option<FrameSection>,
    pub q: Option<Vec<f64>>,
    pub u: Option<Vec<f64>>,
    #[serde(default, rename = "visual")]
    pub visuals: Vec<super::scene_visual::VisualSection>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct FrameSection {
    pub translation: Option<[f64; 3]>,
    pub rotation: Option<RotationSection>,
    /// The other orientation forms (boxed: rarely given, and frames sit in large enums).
    #[serde(flatten)]
    pub orientation: Box<OrientationForms>,
}

/// Orientation forms besides axis–angle (see `frame_rotation.rs`).
#[derive(Deserialize, Debug, Default)]
pub(super) struct OrientationForms {
    /// Body-fixed x-y-z angles (rad), OpenSim's `orientation`.
    pub xyz: Option<[f64; 3]>,
    /// Body-fixed x-y-z angles (deg).
    pub xyz_deg: Option<[f64; 3]>,
    /// Unit quaternion, scalar first (normalized if not unit).
    pub quaternion: Option<[f64; 4]>,
    /// Rotation matrix, rows (`R_host_frame`: columns are the frame's axes in the host).
    pub matrix: Option<[[f64; 3]; 3]>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct RotationSection {
    pub axis: [f64; 3],
    pub angle: Option<f64>,
    pub angle_deg: Option<f64>,
}

#[derive(Deserialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum ForceSection {
    TwoPointLinearSpring {
        body1: String,
        station1: Option<[f64; 3]>,
        body2: String,
        station2: Option<[f64; 3]>,
        stiffness: f64,
        rest_length: f64,
        enabled: Option<bool>,
    },
    TwoPointLinearDamper {
        body1: String,
        station1: Option<[f64; 3]>,
        body2: String,
        station2: Option<[f64; 3]>,
        damping: f64,
        enabled: Option<bool>,
    },
    MobilityLinearSpring {
        body: String,
        coordinate: Option<usize>,
        stiffness: f64,
        q0: Option<f64>,
        enabled: Option<bool>,
    },
    MobilityLinearDamper {
        body: String,
        speed: Option<usize>,
        damping: f64,
        enabled: Option<bool>,
    },
    ConstantForce {
        body: String,
        station: Option<[f64; 3]>,
        force: [f64; 3],
        enabled: Option<bool>,
    },
    ConstantTorque {
        body: String,
        torque: [f64; 3],
        enabled: Option<bool>,
    },
    MobilityConstantForce {
        body: String,
        speed: Option<usize>,
        force: f64,
        enabled: Option<bool>,
    },
    SmoothSphereHalfSpace(Box<SmoothSection>),
    ExponentialSpring(Box<ExponentialSpringSection>),
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct SmoothSection {
    pub name: Option<String>,
    pub sphere_body: String,
    pub sphere_location: Option<[f64; 3]>,
    pub sphere_radius: f64,
    pub half_space_body: String,
    pub half_space_frame: Option<FrameSection>,
    pub stiffness: Option<f64>,
    pub dissipation: Option<f64>,
    pub static_friction: Option<f64>,
    pub dynamic_friction: Option<f64>,
    pub viscous_friction: Option<f64>,
    pub transition_velocity: Option<f64>,
    pub constant_contact_force: Option<f64>,
    pub hertz_smoothing: Option<f64>,
    pub hunt_crossley_smoothing: Option<f64>,
    pub enabled: Option<bool>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct ExponentialSpringSection {
    pub name: Option<String>,
    pub body: String,
    pub station: [f64; 3],
    pub plane: Option<FrameSection>,
    pub d0: Option<f64>,
    pub d1: Option<f64>,
    pub d2: Option<f64>,
    pub normal_viscosity: Option<f64>,
    pub max_normal_force: Option<f64>,
    pub friction_elasticity: Option<f64>,
    pub friction_viscosity: Option<f64>,
    pub settle_velocity: Option<f64>,
    pub mu_static: Option<f64>,
    pub mu_kinetic: Option<f64>,
    pub enabled: Option<bool>,
}

impl ForceSection {
    /// The force's `enabled` key (default true).
    pub fn enabled(&self) -> bool {
        match self {
            Self::TwoPointLinearSpring { enabled, .. }
            | Self::TwoPointLinearDamper { enabled, .. }
            | Self::MobilityLinearSpring { enabled, .. }
            | Self::MobilityLinearDamper { enabled, .. }
            | Self::ConstantForce { enabled, .. }
            | Self::ConstantTorque { enabled, .. }
            | Self::MobilityConstantForce { enabled, .. } => enabled.unwrap_or(true),
            Self::SmoothSphereHalfSpace(s) => s.enabled.unwrap_or(true),
            Self::ExponentialSpring(s) => s.enabled.unwrap_or(true),
        }
    }
}
