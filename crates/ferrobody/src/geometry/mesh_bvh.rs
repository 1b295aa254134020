//! Bounding-volume hierarchy of a triangle mesh: axis-aligned boxes in the mesh frame M, split
//! at the median face centre along the longest side of the centres' bounds down to leaves of at most
//! [`LEAF_SIZE`] faces (Simbody keeps an oriented-box tree, `OBBTree`, for the same queries).
//!
//! Queries run on `f64` (real parts): they only decide which faces are tested. A box of centre
//! c and half sides e lies in the half space `{p : a·p + b > 0}` when `a·c + b − Σ|a_i| e_i > 0`
//! and out of it when `a·c + b + Σ|a_i| e_i ≤ 0`; it is within reach r of a point q when the
//! box's nearest point to q is.

use super::pass_cache::PassCache;
use nalgebra::{Matrix3, Vector3};

/// Whether box `a` (axes of frame 1) and box `b` of frame 2 may overlap, given `b`'s centre and
/// extents along frame 1's axes already carried by `r` (`c' = R c + p`, `h' = |R| h`): no
/// separating axis among the 3 + 3 face normals. The 9 edge–edge axes of the full oriented-box
/// test would reject a few more pairs but cost more than the pairs they save (conservative: a
/// pair kept in error only costs triangle tests).
#[inline]
fn carried_boxes_overlap(
    a: &Node,
    b: &Node,
    [b_centre, b_extent]: &[Vector3<f64>; 2],
    (r, abs_r): (&Matrix3<f64>, &Matrix3<f64>),
) -> bool {
    let t = b_centre - a.centre;
    let (ha, hb) = (&a.half, &b.half);
    for i in 0..3 {
        if t[i].abs() > ha[i] + b_extent[i] {
            return false;
        }
    }
    for j in 0..3 {
        let ra = ha[0] * abs_r[(0, j)] + ha[1] * abs_r[(1, j)] + ha[2] * abs_r[(2, j)];
        let tj = t[0] * r[(0, j)] + t[1] * r[(1, j)] + t[2] * r[(2, j)];
        if tj.abs() > ra + hb[j] {
            return false;
        }
    }
    true
}

/// Most faces in a leaf.
pub const LEAF_SIZE: usize = 4;

/// One node: its box, then either two children or a range of `order`.
#[derive(Clone, Debug)]
pub(super) struct Node {
    pub(super) centre: Vector3<f64>,
    pub(super) half: Vector3<f64>,
    /// Leaf: `start..start + count` of `order`; inner: `count == 0` and children at `start`,
    /// `start + 1`.
    start: u32,
    count: u32,
}

/// The tree: nodes (root first) and the face order its leaves index.
#[derive(Clone, Debug, Default)]
pub struct MeshBvh {
    nodes: Vec<Node>,
    order: Vec<u32>,
}

impl MeshBvh {
    /// The tree of `faces` over `vertices`.
    pub fn new(vertices: &[Vector3<f64>], faces: &[[u32; 3]]) -> Self {
        let centres: Vec<Vector3<f64>> = faces
            .iter()
            .map(|f| {
                f.iter()
                    .map(|&v| vertices[v as usize])
                    .sum::<Vector3<f64>>()
                    / 3.0
            })
            .collect();
        let mut tree = Self {
            nodes: vec![Node {
                centre: Vector3::zeros(),
                half: Vector3::zeros(),
                start: 0,
                count: 0,
            }],
            order: (0..faces.len() as u32).collect(),
        };
        tree.build(0, 0, faces.len(), vertices, faces, &centres);
        tree
    }

    fn build(
        &mut self,
        node: usize,
        lo: usize,
        hi: usize,
        vertices: &[Vector3<f64>],
        faces: &[[u32; 3]],
        centres: &[Vector3<f64>],
    ) {
        let mut min = Vector3::repeat(f64::INFINITY);
        let mut max = Vector3::repeat(f64::NEG_INFINITY);
        for &f in &self.order[lo..hi] {
            for &v in &faces[f as usize] {
                min = min.inf(&vertices[v as usize]);
                max = max.sup(&vertices[v as usize]);
            }
        }
        self.nodes[node].centre = (min + max) / 2.0;
        self.nodes[node].half = (max - min) / 2.0;
        if hi - lo <= LEAF_SIZE {
            self.nodes[node].start = lo as u32;
            self.nodes[node].count = (hi - lo) as u32;
            return;
        }
        // Split across the longest side of the face centres' bounds (not of the box): a
        // node holding both sides of a thin slab then parts them, and its leaves stay flat.
        let (mut lo_c, mut hi_c) = (
            Vector3::repeat(f64::INFINITY),
            Vector3::repeat(f64::NEG_INFINITY),
        );
        for &f in &self.order[lo..hi] {
            lo_c = lo_c.inf(&centres[f as usize]);
            hi_c = hi_c.sup(&centres[f as usize]);
        }
        let axis = (hi_c - lo_c).imax();
        let mid = (lo + hi) / 2;
        self.order[lo..hi].select_nth_unstable_by(mid - lo, |&a, &b| {
            centres[a as usize][axis].total_cmp(&centres[b as usize][axis])
        });
        let first = self.nodes.len();
        let empty = Node {
            centre: Vector3::zeros(),
            half: Vector3::zeros(),
            start: 0,
            count: 0,
        };
        self.nodes.push(empty.clone());
        self.nodes.push(empty);
        self.nodes[node].start = first as u32;
        self.build(first, lo, mid, vertices, faces, centres);
        self.build(first + 1, mid, hi, vertices, faces, centres);
    }

    /// Calls `f(face)` for every face that may reach into `{p : a·p + b > 0}`: every face of a
    /// box wholly inside, and the faces of straddling leaves (the caller tests the face).
    pub fn for_each_face_in_half_space(&self, a: &Vector3<f64>, b: f64, mut f: impl FnMut(usize)) {
        let abs_a = a.abs();
        self.visit(
            |n| {
                let mid = a.dot(&n.centre) + b;
                let reach = abs_a.dot(&n.half);
                (mid + reach > 0.0, mid - reach > 0.0)
            },
            &mut f,
        );
    }

    /// Calls `f(face)` for every face of a leaf whose box comes within `r` of `q` (the caller
    /// tests the face).
    pub fn for_each_face_near(&self, q: &Vector3<f64>, r: f64, mut f: impl FnMut(usize)) {
        self.visit(
            |n| {
                let gap = ((q - n.centre).abs() - n.half).sup(&Vector3::zeros());
                (gap.norm_squared() <= r * r, false)
            },
            &mut f,
        );
    }

    /// Calls `f(faces_1, faces_2)` for every pair of leaves, one of this tree and one of
    /// `other`, whose boxes overlap; `other`'s mesh frame is at rotation `r_12` and origin
    /// `p_12` in this tree's frame. Each pair of boxes is tested as two oriented boxes, by the
    /// separating axes of Gottschalk, Lin and Manocha (OBBTree, SIGGRAPH 1996; the six face
    /// normals), so that a flat box stays flat whatever the turn between the meshes.
    pub fn for_each_leaf_pair(
        &self,
        other: &MeshBvh,
        (r_12, p_12): (&Matrix3<f64>, &Vector3<f64>),
        carried: &mut PassCache<[Vector3<f64>; 2]>,
        mut f: impl FnMut(&[u32], &[u32]),
    ) {
        let abs_r = r_12.abs().add_scalar(1e-12);
        // `other`'s boxes in this frame (centre, extents along this frame's axes), each
        // carried once.
        carried.start(other.nodes.len());
        let mut overlaps = |a: &Node, j: u32| {
            let b = &other.nodes[j as usize];
            let b_here = carried.get_or(j as usize, || [r_12 * b.centre + p_12, abs_r * b.half]);
            carried_boxes_overlap(a, b, &b_here, (r_12, &abs_r))
        };
        // Each step pops one pair and pushes at most two, one level deeper in one tree: the
        // stack never holds more than the two depths together (median splits: ≤ 2·32).
        let mut stack = [(0u32, 0u32); 128];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let (i, j) = stack[top];
            let (a, b) = (&self.nodes[i as usize], &other.nodes[j as usize]);
            if !overlaps(a, j) {
                continue;
            }
            let split_a = match (a.count > 0, b.count > 0) {
                (true, true) => {
                    f(self.leaf_faces(a), other.leaf_faces(b));
                    continue;
                }
                (false, true) => true,
                (true, false) => false,
                (false, false) => a.half.norm_squared() >= b.half.norm_squared(),
            };
            if split_a {
                stack[top] = (a.start + 1, j);
                stack[top + 1] = (a.start, j);
            } else {
                stack[top] = (i, b.start + 1);
                stack[top + 1] = (i, b.start);
            }
            top += 2;
        }
    }

    /// Calls `f(face)` for every face of a leaf whose box overlaps the whole of `other` (its
    /// root box, carried into this frame by `r_12`, `p_12`, tested as an oriented box).
    pub fn for_each_face_near_tree(
        &self,
        other: &MeshBvh,
        r_12: &Matrix3<f64>,
        p_12: &Vector3<f64>,
        mut f: impl FnMut(usize),
    ) {
        let abs_r = r_12.abs().add_scalar(1e-12);
        let root = &other.nodes[0];
        let root_here = [r_12 * root.centre + p_12, abs_r * root.half];
        self.visit(
            |n| {
                (
                    carried_boxes_overlap(n, root, &root_here, (r_12, &abs_r)),
                    false,
                )
            },
            &mut f,
        );
    }

    /// Whether point `p` (this tree's frame) lies in the root box.
    pub fn root_box_holds(&self, p: &Vector3<f64>) -> bool {
        let root = &self.nodes[0];
        ((p - root.centre).abs() - root.half)
            .iter()
            .all(|&g| g <= 0.0)
    }

    /// The node at `index` (the root is 0).
    pub(super) fn node(&self, index: u32) -> &Node {
        &self.nodes[index as usize]
    }

    /// The faces of a leaf, or the indices of an inner node's two children.
    pub(super) fn children_or_faces(&self, node: &Node) -> Result<&[u32], [u32; 2]> {
        if node.count > 0 {
            Ok(self.leaf_faces(node))
        } else {
            Err([node.start, node.start + 1])
        }
    }

    fn leaf_faces(&self, node: &Node) -> &[u32] {
        let s = node.start as usize;
        &self.order[s..s + node.count as usize]
    }

    /// Depth-first walk: `test(node)` says (may touch, wholly inside); a wholly-inside node
    /// gives all its faces without testing its children.
    fn visit(&self, test: impl Fn(&Node) -> (bool, bool), f: &mut impl FnMut(usize)) {
        let mut stack = [0u32; 64];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let node = &self.nodes[stack[top] as usize];
            let (touches, inside) = test(node);
            if !touches {
                continue;
            }
            if inside {
                self.for_each_face_below(node, f);
            } else if node.count > 0 {
                let s = node.start as usize;
                for &face in &self.order[s..s + node.count as usize] {
                    f(face as usize);
                }
            } else {
                stack[top] = node.start + 1;
                stack[top + 1] = node.start;
                top += 2;
            }
        }
    }

    fn for_each_face_below(&self, node: &Node, f: &mut impl FnMut(usize)) {
        if node.count > 0 {
            let s = node.start as usize;
            for &face in &self.order[s..s + node.count as usize] {
                f(face as usize);
            }
        } else {
            self.for_each_face_below(&self.nodes[node.start as usize], f);
            self.for_each_face_below(&self.nodes[node.start as usize + 1], f);
        }
    }
}
