"""Builds the mesh-against-mesh elastic-foundation references with OpenSim's API:

* osim_ball_slab_ef: a ball mesh (an icosphere of 1280 faces) thrown with spin onto a slab mesh
  fixed to Ground (its top a grid of 24 x 24 squares), one ElasticFoundationForce over both;
* osim_ball_box_ef: the same ball thrown, without gravity, at a free box mesh (box.obj, 12
  faces) off its centre: both bodies carry meshes and both move.

Writes ball.obj, slab.obj, the models and their OpenSim runs (the same run and columns as
make_references.py: RK-Merson, accuracy 1e-6, rows every 0.01 s).

Needs `pip install opensim` (4.6; CI reads the stored files).
Usage: python3 scripts/opensim/make_mesh_mesh_reference.py testdata/opensim
"""

import math
import os
import sys

import opensim as osim

from make_references import run, set_defaults, vec3


def icosphere(radius, subdivisions):
    """Vertices and counter-clockwise (outward) triangles of a subdivided icosahedron."""
    t = (1 + math.sqrt(5)) / 2
    verts = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t),
             (0, -1, -t), (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    verts = [tuple(c / math.sqrt(sum(x * x for x in v)) for c in v) for v in verts]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
             (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
             (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(subdivisions):
        cache = {}

        def middle(a, b):
            key = (min(a, b), max(a, b))
            if key not in cache:
                m = [(x + y) / 2 for x, y in zip(verts[a], verts[b])]
                n = math.sqrt(sum(x * x for x in m))
                verts.append(tuple(x / n for x in m))
                cache[key] = len(verts) - 1
            return cache[key]

        new = []
        for a, b, c in faces:
            ab, bc, ca = middle(a, b), middle(b, c), middle(c, a)
            new += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = new
    return [tuple(radius * x for x in v) for v in verts], faces


def grid_box(half, divisions):
    """A closed box of half sides `half`, each side a grid of quads (outward, counter-clockwise)
    with `divisions` cells along x, y, z; corners shared between sides."""
    index = {}
    verts = []

    def vertex(i, j, k):
        key = (i, j, k)
        if key not in index:
            index[key] = len(verts)
            verts.append(tuple(-h + 2 * h * n / d for h, n, d in zip(half, key, divisions)))
        return index[key]

    quads = []
    nx, ny, nz = divisions
    # Each side: fixed axis and value, then two running axes (u, v) with u x v outward.
    sides = [(0, nx, 1, 2), (0, 0, 2, 1), (1, ny, 2, 0), (1, 0, 0, 2), (2, nz, 0, 1), (2, 0, 1, 0)]
    for axis, value, u, v in sides:
        for a in range(divisions[u]):
            for b in range(divisions[v]):
                corners = []
                for da, db in ((0, 0), (1, 0), (1, 1), (0, 1)):
                    key = [0, 0, 0]
                    key[axis], key[u], key[v] = value, a + da, b + db
                    corners.append(vertex(*key))
                quads.append(tuple(corners))
    return verts, quads


def write_obj(path, verts, faces):
    with open(path, "w") as f:
        f.write("# written by scripts/opensim/make_mesh_mesh_reference.py\n")
        for v in verts:
            f.write("v %.17g %.17g %.17g\n" % v)
        for face in faces:
            f.write("f " + " ".join(str(i + 1) for i in face) + "\n")


def add_ball(m):
    """The ball body: 0.5 kg, radius 0.05 m, a solid sphere's inertia (0.4 m r^2)."""
    r, mass = 0.05, 0.5
    i = 0.4 * mass * r * r
    ball = osim.Body("ball", mass, vec3(0, 0, 0), osim.Inertia(i, i, i, 0, 0, 0))
    m.addBody(ball)
    return ball


def add_foundation(m, name, geometries):
    """One ElasticFoundationForce over `geometries`, with the parameters of both references."""
    ef = osim.ElasticFoundationForce()
    ef.setName(name)
    for g in geometries:
        ef.addGeometry(g)
    ef.setStiffness(1e7)
    ef.setDissipation(2.0)
    ef.setStaticFriction(0.8)
    ef.setDynamicFriction(0.6)
    ef.setViscousFriction(0.0)
    ef.setTransitionVelocity(0.05)
    m.addForce(ef)


def ball_slab_model():
    m = osim.Model()
    m.setName("ball_slab_ef")
    m.setGravity(vec3(0, -9.81, 0))
    g = m.getGround()
    ball = add_ball(m)
    free = osim.FreeJoint("free", g, vec3(0, 0, 0), vec3(0, 0, 0), ball, vec3(0, 0, 0), vec3(0, 0, 0))
    m.addJoint(free)
    # Tilted a little, 1 cm above the slab, thrown along x with backspin about z and a
    # sideways spin about x.
    set_defaults(free, (0.1, 0.2, 0.3, -0.1, 0.06, 0.0), (1.0, 0.0, -4.0, 0.3, 0.0, 0.05))
    m.addContactGeometry(osim.ContactMesh("ball.obj", vec3(0, 0, 0), vec3(0, 0, 0), ball, "ballmesh"))
    m.addContactGeometry(osim.ContactMesh("slab.obj", vec3(0, -0.02, 0), vec3(0, 0, 0), g, "slabmesh"))
    add_foundation(m, "ball_slab", ["ballmesh", "slabmesh"])
    return m, 1.0


def ball_box_model():
    m = osim.Model()
    m.setName("ball_box_ef")
    m.setGravity(vec3(0, 0, 0))
    g = m.getGround()
    ball = add_ball(m)
    box = osim.Body("box", 2.0, vec3(0, 0, 0), osim.Inertia(0.008, 0.013, 0.008, 0, 0, 0))
    m.addBody(box)
    fb = osim.FreeJoint("ball_free", g, vec3(0, 0, 0), vec3(0, 0, 0), ball, vec3(0, 0, 0), vec3(0, 0, 0))
    fx = osim.FreeJoint("box_free", g, vec3(0, 0, 0), vec3(0, 0, 0), box, vec3(0, 0, 0), vec3(0, 0, 0))
    m.addJoint(fb)
    m.addJoint(fx)
    # The ball 5 cm short of the box's -x face, 3 cm off its centre line, spinning; the box
    # turned a little about y and drifting.
    set_defaults(fb, (0.0, 0.0, 0.0, -0.2, 0.03, 0.02), (0.0, 5.0, 2.0, 1.0, 0.0, 0.0))
    set_defaults(fx, (0.0, 0.2, 0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.5, 0.0, 0.05, 0.0))
    m.addContactGeometry(osim.ContactMesh("ball.obj", vec3(0, 0, 0), vec3(0, 0, 0), ball, "ballmesh"))
    m.addContactGeometry(osim.ContactMesh("box.obj", vec3(0, 0, 0), vec3(0, 0, 0), box, "boxmesh"))
    add_foundation(m, "ball_box", ["ballmesh", "boxmesh"])
    return m, 0.3


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "testdata/opensim"
    write_obj(os.path.join(out, "ball.obj"), *icosphere(0.05, 3))
    write_obj(os.path.join(out, "slab.obj"), *grid_box((0.3, 0.02, 0.3), (24, 1, 24)))
    for name, make in [("osim_ball_slab_ef", ball_slab_model), ("osim_ball_box_ef", ball_box_model)]:
        model, duration = make()
        model.finalizeConnections()
        path = os.path.join(out, name + ".osim")
        model.printToXML(path)
        # Simulate the file as written (OpenSim finds the meshes next to it).
        run(osim.Model(path), duration, os.path.join(out, name + ".csv"))
        print("wrote", name)


if __name__ == "__main__":
    main()
