//! The XML layer of the .osim reader: OpenSim's component tree, socket paths, and typed
//! properties with errors that name the line and the component path.
//!
//! Every XML element with a `name` attribute below `<Model>` is a component; its path is the
//! chain of those names (`/bodyset/thigh`, `/jointset/hip/pelvis_offset`), as OpenSim's
//! `Component::getAbsolutePathString` gives it. Socket paths are absolute (`/ground`) or relative
//! to the component that owns the socket (`pelvis_offset`, `../thigh_offset`), OpenSim's
//! `ComponentPath` rules; a relative path that does not resolve falls back to the one component
//! of that name, as OpenSim does for files written before 4.0's paths.
//!
//! `<defaults>` (a child of `<Model>`) holds one template object per class. OpenSim registers
//! each as its class's default object before reading the model
//! (`Object::updateDefaultObjectsFromXMLNode`), and every object it then reads starts as a copy
//! of its class's template, so a property the object leaves out takes the template's value
//! rather than the class's. [`Doc::text`], through which every typed property is read, does
//! the same: a property missing from an element is looked up in the template of the element's
//! class. The templates are not components.

use crate::error::ModelError;
use roxmltree::{Document, Node};
use std::collections::HashMap;

/// A problem found in the file: where (line, component path) and what.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OsimError {
    /// 1-based line of the element.
    pub line: u32,
    /// The component path (or the element's tag where it has none).
    pub path: String,
    /// What is wrong.
    pub problem: ModelError,
}

pub(super) type Res<T> = std::result::Result<T, OsimError>;

/// The parsed document with its component index.
pub(super) struct Doc<'a, 'input> {
    xml: &'a Document<'input>,
    /// The `<Model>` element.
    pub model: Node<'a, 'input>,
    paths: HashMap<String, Node<'a, 'input>>,
    by_name: HashMap<&'a str, Vec<Node<'a, 'input>>>,
    /// The folder of the model file, where OpenSim looks for `ContactMesh` files.
    pub dir: std::path::PathBuf,
    /// Controls from a controls file, by actuator name (`super::controls_file`).
    pub extra_controls: HashMap<String, crate::math::function::Function>,
    /// `ExternalForce`s of an external loads file, their frames found in this model.
    pub external_forces: Vec<super::external_loads::ResolvedExternalForce>,
    /// What OpenSim accepts with a warning, in reading order (see [`Doc::warn`]).
    pub warnings: std::cell::RefCell<Vec<OsimError>>,
    /// The `<defaults>` templates by class (the first of each).
    templates: HashMap<&'a str, Node<'a, 'input>>,
}

impl<'a, 'input> Doc<'a, 'input> {
    /// Finds `<Model>` and indexes every component.
    pub fn new(xml: &'a Document<'input>) -> Res<Self> {
        let root = xml.root_element();
        let model = if root.has_tag_name("Model") {
            root
        } else {
            root.children()
                .find(|n| n.has_tag_name("Model"))
                .ok_or_else(|| OsimError {
                    line: xml.text_pos_at(root.range().start).row,
                    path: root.tag_name().name().to_string(),
                    problem: "no <Model> element: not an OpenSim model file".into(),
                })?
        };
        let mut doc = Doc {
            xml,
            model,
            paths: HashMap::new(),
            by_name: HashMap::new(),
            dir: std::path::PathBuf::new(),
            extra_controls: HashMap::new(),
            external_forces: Vec::new(),
            warnings: std::cell::RefCell::new(Vec::new()),
            templates: HashMap::new(),
        };
        let defaults = child(model, "defaults");
        if let Some(defaults) = defaults {
            for template in defaults.children().filter(|n| n.is_element()) {
                doc.templates
                    .entry(template.tag_name().name())
                    .or_insert(template);
            }
        }
        for node in model.descendants().filter(|n| n.is_element()) {
            if node == model || defaults.is_some_and(|d| node.ancestors().any(|a| a == d)) {
                continue;
            }
            if let Some(name) = node.attribute("name") {
                doc.paths.insert(doc.path_of(node), node);
                doc.by_name.entry(name).or_default().push(node);
            }
        }
        Ok(doc)
    }

    /// The 1-based line of a node (in the file the user wrote, for an upgraded pre-4.0
    /// document: [`super::upgrade`]).
    pub fn line(&self, node: Node) -> u32 {
        node.ancestors()
            .find_map(|n| n.attribute(super::upgrade::tree::SOURCE_LINE_ATTRIBUTE))
            .and_then(|line| line.parse().ok())
            .unwrap_or_else(|| self.xml.text_pos_at(node.range().start).row)
    }

    /// The component path of a node (its own name included when it has one).
    pub fn path_of(&self, node: Node) -> String {
        let mut names: Vec<&str> = node
            .ancestors()
            .take_while(|n| *n != self.model)
            .filter(|n| n.is_element())
            .filter_map(|n| self.component_name(n))
            .collect();
        if names.is_empty() {
            return if node == self.model {
                "/".into()
            } else {
                format!("<{}>", tag_of(node))
            };
        }
        names.reverse();
        format!("/{}", names.join("/"))
    }

    /// The name a component goes by in paths: its `name`, except that the model's sets are
    /// always named after their class in lower case (`bodyset`, `forceset`, …), whatever the
    /// file says, as OpenSim's `ModelComponentSet::extendFinalizeFromProperties` renames them.
    fn component_name<'n>(&self, n: Node<'n, '_>) -> Option<&'n str> {
        if n.parent() == Some(self.model) {
            if let Some(set_name) = model_set_name(n.tag_name().name()) {
                return Some(set_name);
            }
        }
        n.attribute("name")
    }

    /// The nearest component owning `node` (itself if it is one).
    pub fn owner(&self, node: Node<'a, 'input>) -> Node<'a, 'input> {
        node.ancestors()
            .find(|n| n.is_element() && (n.attribute("name").is_some() || *n == self.model))
            .unwrap_or(self.model)
    }

    /// The document's `Version` (none when the root gives none: OpenSim then reads it as
    /// the current version).
    pub fn version(&self) -> Option<u32> {
        self.model
            .parent_element()
            .and_then(|root| root.attribute("Version"))
            .and_then(|v| v.trim().parse().ok())
    }

    /// Records a warning at `node` (same form as an error), for what OpenSim runs but a
    /// careful user should hear about; once, however often the element is read.
    pub fn warn(&self, node: Node, message: impl Into<ModelError>) {
        let w = self.err(node, message);
        let mut warnings = self.warnings.borrow_mut();
        if !warnings.contains(&w) {
            warnings.push(w);
        }
    }

    /// The component at an absolute path (`/bodyset/calcn_r`), if any.
    pub fn component(&self, path: &str) -> Option<Node<'a, 'input>> {
        self.paths.get(path).copied()
    }

    /// An error at `node`.
    pub fn err(&self, node: Node, message: impl Into<ModelError>) -> OsimError {
        OsimError {
            line: self.line(node),
            path: self.path_of(self.owner(node)),
            problem: message.into(),
        }
    }

    /// Resolves a socket path written on component `owner`.
    pub fn resolve(&self, owner: Node<'a, 'input>, at: Node, path: &str) -> Res<Node<'a, 'input>> {
        let path = path.trim();
        if path.is_empty() {
            return Err(self.err(at, "empty socket path"));
        }
        let absolute = if let Some(rest) = path.strip_prefix('/') {
            Some(format!("/{rest}"))
        } else {
            self.join(&self.path_of(owner), path)
        };
        if let Some(node) = absolute.as_deref().and_then(|p| self.paths.get(p)) {
            return Ok(*node);
        }
        let last = path.rsplit('/').next().unwrap_or(path);
        match self.by_name.get(last).map(Vec::as_slice) {
            Some([only]) if !path.starts_with('/') => Ok(*only),
            _ => Err(self.err(
                at,
                format!("socket path '{path}' names no component of the model"),
            )),
        }
    }

    /// `base/rel` with `.` and `..` segments applied; None if it climbs above the root.
    fn join(&self, base: &str, rel: &str) -> Option<String> {
        let mut parts: Vec<&str> = base.split('/').filter(|s| !s.is_empty()).collect();
        for seg in rel.split('/') {
            match seg {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                s => parts.push(s),
            }
        }
        Some(format!("/{}", parts.join("/")))
    }

    /// The component with this absolute path.
    pub fn at_path(&self, path: &str) -> Option<Node<'a, 'input>> {
        self.paths.get(path).copied()
    }
}

/// The name OpenSim gives the model's set `tag` (`BodySet` is `bodyset`), if it is one.
pub(super) fn model_set_name(tag: &str) -> Option<&'static str> {
    Some(match tag {
        "BodySet" => "bodyset",
        "JointSet" => "jointset",
        "ConstraintSet" => "constraintset",
        "ForceSet" => "forceset",
        "MarkerSet" => "markerset",
        "ContactGeometrySet" => "contactgeometryset",
        "ControllerSet" => "controllerset",
        "ProbeSet" => "probeset",
        "ComponentSet" => "componentset",
        _ => return None,
    })
}

/// OpenSim writes nested class names as tags (`<HuntCrossleyForce::ContactParametersSet>`),
/// which XML parsers reject (a name holds at most one colon). This rewrites `::` in tag names
/// as `__`, keeping every byte offset and line, so the document parses.
pub(super) fn escape_scoped_tags(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("::") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut in_name = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_name && c == ':' && chars.peek() == Some(&':') {
            chars.next();
            out.push_str("__");
            continue;
        }
        if c == '<' {
            in_name = true;
            out.push(c);
            if chars.peek() == Some(&'/') {
                out.push('/');
                chars.next();
            }
            continue;
        }
        if in_name && !(c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '-')) {
            in_name = false;
        }
        out.push(c);
    }
    out.into()
}

/// OpenSim's model always has its Ground, named `ground`; a file whose Ground has only
/// default properties may not write it (OpenSim's own `printToXML` of a converted 3.x model
/// does not), and its sockets still name `/ground`. When the text holds no `<Ground`, this
/// adds `<Ground name="ground" />` just before `</Model>`, on the same line, so every line
/// number stays as written.
pub(super) fn with_default_ground(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains("<Ground") {
        return text.into();
    }
    match text.rfind("</Model>") {
        Some(at) => format!("{}<Ground name=\"ground\" />{}", &text[..at], &text[at..]).into(),
        None => text.into(),
    }
}

/// A tag as OpenSim wrote it (`::` restored).
pub(super) fn tag_of(node: Node) -> String {
    node.tag_name().name().replace("__", "::")
}

/// The first child element with this tag.
pub(super) fn child<'a, 'input>(node: Node<'a, 'input>, tag: &str) -> Option<Node<'a, 'input>> {
    node.children().find(|n| n.has_tag_name(tag))
}

/// The elements of a set (`<XSet><objects>…</objects></XSet>`), or a list's children.
pub(super) fn objects<'a, 'input>(set: Node<'a, 'input>) -> Vec<Node<'a, 'input>> {
    let list = child(set, "objects").unwrap_or(set);
    list.children().filter(|n| n.is_element()).collect()
}

impl<'a, 'input> Doc<'a, 'input> {
    /// The trimmed text of property `tag` of `node`, if present: on the element itself, else
    /// on the `<defaults>` template of its class (see the module documentation).
    pub fn text(&self, node: Node<'a, 'input>, tag: &str) -> Option<(Node<'a, 'input>, String)> {
        child(node, tag)
            .or_else(|| {
                let template = self.templates.get(node.tag_name().name())?;
                child(*template, tag)
            })
            .map(|c| (c, c.text().unwrap_or("").trim().to_string()))
    }

    /// Property `tag` as numbers (whitespace separated), each finite.
    pub fn numbers(&self, node: Node<'a, 'input>, tag: &str) -> Res<Option<Vec<f64>>> {
        let Some((el, text)) = self.text(node, tag) else {
            return Ok(None);
        };
        let mut out = Vec::new();
        for word in text.split_whitespace() {
            let v: f64 = word
                .parse()
                .map_err(|_| self.err(el, format!("<{tag}>: '{word}' is not a number")))?;
            if !v.is_finite() {
                return Err(self.err(el, format!("<{tag}>: {word} is not finite")));
            }
            out.push(v);
        }
        Ok(Some(out))
    }

    /// Property `tag` as exactly `n` finite numbers (`default` when absent).
    pub fn fixed<const N: usize>(
        &self,
        node: Node<'a, 'input>,
        tag: &str,
        default: [f64; N],
    ) -> Res<[f64; N]> {
        match self.numbers(node, tag)? {
            None => Ok(default),
            Some(v) => v.as_slice().try_into().map_err(|_| {
                let el = child(node, tag).unwrap_or(node);
                self.err(
                    el,
                    format!("<{tag}>: expected {N} numbers, got {}", v.len()),
                )
            }),
        }
    }

    /// Property `tag` as one finite number (`default` when absent).
    pub fn scalar(&self, node: Node<'a, 'input>, tag: &str, default: f64) -> Res<f64> {
        Ok(self.fixed::<1>(node, tag, [default])?[0])
    }

    /// Property `tag` as one bound: a number or ±infinity (`Inf`, `-Inf`, as OpenSim writes
    /// an unbounded `min_control`/`max_control`), never NaN; `default` when absent.
    pub fn bound(&self, node: Node<'a, 'input>, tag: &str, default: f64) -> Res<f64> {
        let Some((el, text)) = self.text(node, tag) else {
            return Ok(default);
        };
        let word = text.trim();
        let v = match word.to_ascii_lowercase().as_str() {
            "inf" | "+inf" | "infinity" | "+infinity" => f64::INFINITY,
            "-inf" | "-infinity" => f64::NEG_INFINITY,
            _ => word
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    self.err(el, format!("<{tag}>: '{word}' is not a number or ±Inf"))
                })?,
        };
        Ok(v)
    }

    /// Property `tag` as a non-negative finite number (`default` when absent).
    pub fn non_negative(&self, node: Node<'a, 'input>, tag: &str, default: f64) -> Res<f64> {
        let v = self.scalar(node, tag, default)?;
        if v < 0.0 {
            let el = child(node, tag).unwrap_or(node);
            return Err(self.err(el, format!("<{tag}>: must not be negative, got {v}")));
        }
        Ok(v)
    }

    /// Property `tag` as a boolean (`true`/`false`), `default` when absent.
    pub fn boolean(&self, node: Node<'a, 'input>, tag: &str, default: bool) -> Res<bool> {
        match self.text(node, tag) {
            None => Ok(default),
            Some((el, t)) => match t.as_str() {
                "true" | "1" => Ok(true),
                "false" | "0" => Ok(false),
                _ => Err(self.err(el, format!("<{tag}>: '{t}' is not true or false"))),
            },
        }
    }
}
