#!/usr/bin/env python3
"""Write a small test GLB (and optionally a replay page) shaped like ferrobody's replay export.

Scene (Y up, metres):
  * ground: box 40 x 0.02 x 40, top face at y = 0, grey
  * sphere_a / sphere_b: UV spheres of radius 0.1 that fall from 1.0 m and 0.6 m
  * box: 0.2 m cube that spins about a tilted axis (32-bit indices, STEP translation channel)
  * one animation: 100 samples over 1 s (translation LINEAR for the spheres,
    rotation LINEAR + translation STEP for the box)

Usage:
  python3 scripts/make_test_glb.py OUT.glb [--page TEMPLATE.html PAGE.html]

With --page, the placeholders of the replay template are substituted the same
way the Rust side does it, giving a page that can be opened in a browser.
Standard library only.
"""
import base64
import json
import math
import struct
import sys

FLOAT, USHORT, UINT = 5126, 5123, 5125


class GlbBuilder:
    def __init__(self):
        self.bin = bytearray()
        self.json = {"asset": {"version": "2.0", "generator": "ferrobody make_test_glb.py"},
                     "buffers": [], "bufferViews": [], "accessors": [], "meshes": [],
                     "materials": [], "nodes": [], "scenes": [{"nodes": []}], "scene": 0}

    def accessor(self, values, ctype, atype, with_bounds=False):
        """Append a tightly packed bufferView + accessor; values is a flat list."""
        ncomp = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[atype]
        fmt = {FLOAT: "f", USHORT: "H", UINT: "I"}[ctype]
        while len(self.bin) % 4:
            self.bin.append(0)
        offset = len(self.bin)
        self.bin += struct.pack("<%d%s" % (len(values), fmt), *values)
        self.json["bufferViews"].append({"buffer": 0, "byteOffset": offset,
                                         "byteLength": len(self.bin) - offset})
        acc = {"bufferView": len(self.json["bufferViews"]) - 1, "componentType": ctype,
               "count": len(values) // ncomp, "type": atype}
        if with_bounds:
            acc["min"] = [min(values[i::ncomp]) for i in range(ncomp)]
            acc["max"] = [max(values[i::ncomp]) for i in range(ncomp)]
        self.json["accessors"].append(acc)
        return len(self.json["accessors"]) - 1

    def mesh(self, name, positions, normals, indices, rgba, index_type=USHORT):
        self.json["materials"].append({"name": name, "pbrMetallicRoughness": {
            "baseColorFactor": rgba, "metallicFactor": 0.0, "roughnessFactor": 0.8}})
        prim = {"attributes": {"POSITION": self.accessor(positions, FLOAT, "VEC3", True),
                               "NORMAL": self.accessor(normals, FLOAT, "VEC3")},
                "indices": self.accessor(indices, index_type, "SCALAR"),
                "material": len(self.json["materials"]) - 1, "mode": 4}
        self.json["meshes"].append({"name": name, "primitives": [prim]})
        return len(self.json["meshes"]) - 1

    def node(self, name, mesh, translation, rotation=(0.0, 0.0, 0.0, 1.0)):
        self.json["nodes"].append({"name": name, "mesh": mesh, "translation": list(translation),
                                   "rotation": list(rotation)})
        idx = len(self.json["nodes"]) - 1
        self.json["scenes"][0]["nodes"].append(idx)
        return idx

    def to_glb(self):
        while len(self.bin) % 4:
            self.bin.append(0)
        self.json["buffers"] = [{"byteLength": len(self.bin)}]
        js = json.dumps(self.json, separators=(",", ":")).encode()
        js += b" " * (-len(js) % 4)
        total = 12 + 8 + len(js) + 8 + len(self.bin)
        return (struct.pack("<III", 0x46546C67, 2, total)
                + struct.pack("<II", len(js), 0x4E4F534A) + js
                + struct.pack("<II", len(self.bin), 0x004E4942) + bytes(self.bin))


def box_mesh(sx, sy, sz, cy=0.0):
    """Axis-aligned box centred on (0, cy, 0): 24 vertices with face normals, 36 indices."""
    pos, nor, idx = [], [], []
    hx, hy, hz = sx / 2, sy / 2, sz / 2
    for axis in range(3):
        for sign in (-1.0, 1.0):
            n = [0.0, 0.0, 0.0]
            n[axis] = sign
            u, v = [(1, 2), (2, 0), (0, 1)][axis]   # right-handed tangent axes
            base = len(pos) // 3
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                p = [0.0, 0.0, 0.0]
                p[axis], p[u], p[v] = sign, a, b
                pos += [p[0] * hx, p[1] * hy + cy, p[2] * hz]
                nor += n
            quad = [0, 1, 2, 0, 2, 3] if sign > 0 else [0, 2, 1, 0, 3, 2]
            idx += [base + q for q in quad]
    return pos, nor, idx


def sphere_mesh(r, rings=16, segments=24):
    pos, nor, idx = [], [], []
    for i in range(rings + 1):
        th = math.pi * i / rings
        for j in range(segments + 1):
            ph = 2 * math.pi * j / segments
            n = [math.sin(th) * math.cos(ph), math.cos(th), math.sin(th) * math.sin(ph)]
            nor += n
            pos += [r * c for c in n]
    for i in range(rings):
        for j in range(segments):
            a = i * (segments + 1) + j
            b = a + segments + 1
            idx += [a, a + 1, b, a + 1, b + 1, b]
    return pos, nor, idx


def quat_axis_angle(axis, angle):
    l = math.sqrt(sum(c * c for c in axis))
    s = math.sin(angle / 2) / l
    return [axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2)]


def build():
    g = GlbBuilder()
    ground = g.mesh("ground", *box_mesh(40.0, 0.02, 40.0, cy=-0.01), [0.45, 0.45, 0.45, 1.0])
    sphere_a = g.mesh("sphere_a", *sphere_mesh(0.1), [0.85, 0.2, 0.15, 1.0])
    sphere_b = g.mesh("sphere_b", *sphere_mesh(0.1), [0.15, 0.35, 0.85, 1.0])
    box = g.mesh("box", *box_mesh(0.2, 0.2, 0.2), [0.95, 0.65, 0.1, 1.0], index_type=UINT)

    g.node("ground", ground, [0.0, 0.0, 0.0])
    heights = {"sphere_a": 1.0, "sphere_b": 0.6}
    na = g.node("sphere_a", sphere_a, [-0.3, heights["sphere_a"], 0.0])
    nb = g.node("sphere_b", sphere_b, [0.3, heights["sphere_b"], 0.1])
    nbox = g.node("box", box, [0.0, 0.3, -0.4])

    times = [i / 99 for i in range(100)]
    anim = {"name": "replay", "channels": [], "samplers": []}

    def channel(node, path, values, atype, interpolation="LINEAR"):
        anim["samplers"].append({"input": t_acc, "interpolation": interpolation,
                                 "output": g.accessor(values, FLOAT, atype)})
        anim["channels"].append({"sampler": len(anim["samplers"]) - 1,
                                 "target": {"node": node, "path": path}})

    t_acc = g.accessor(times, FLOAT, "SCALAR", True)
    for node, x, z, h in ((na, -0.3, 0.0, 1.0), (nb, 0.3, 0.1, 0.6)):
        vals = []
        for t in times:   # free fall, stopped by the ground (centre at y = radius)
            vals += [x, max(0.1, h - 0.5 * 9.81 * t * t), z]
        channel(node, "translation", vals, "VEC3")
    rot = []
    for t in times:
        rot += quat_axis_angle([0.3, 1.0, 0.2], 2 * math.pi * t)
    channel(nbox, "rotation", rot, "VEC4")
    slide = []
    for t in times:
        slide += [0.1 * math.floor(4 * t) - 0.15, 0.3, -0.4]
    channel(nbox, "translation", slide, "VEC3", "STEP")
    g.json["animations"] = [anim]
    return g.to_glb()


def main(argv):
    if len(argv) not in (2, 5) or (len(argv) == 5 and argv[2] != "--page"):
        sys.exit(__doc__)
    glb = build()
    with open(argv[1], "wb") as f:
        f.write(glb)
    if len(argv) == 5:
        with open(argv[3], encoding="utf-8") as f:
            page = f.read()
        page = page.replace("__FERROBODY_GLB_BASE64__", base64.b64encode(glb).decode("ascii"))
        page = page.replace("__FERROBODY_TITLE__", "ferrobody test replay")
        with open(argv[4], "w", encoding="utf-8") as f:
            f.write(page)


if __name__ == "__main__":
    main(sys.argv)
