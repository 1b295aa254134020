#!/usr/bin/env python3
"""MuJoCo side-by-side benchmark for ferrobody's validation scenes (s1, s6, s7).

Builds the scenes of shared/spec/scenarios.md as MJCF (Z-up, gravity (0, 0, -9.81)), steps them
with MuJoCo at a fixed timestep of 0.002 s with two settings (MuJoCo's defaults, i.e. the Euler
integrator, and integrator="implicitfast"), times only the mj_step loop, and prints one JSON line
per (scene, setting) with the keys of `ferrobody bench` plus behaviour fields (final state of the
last run), because MuJoCo's soft-constraint contact is not Simbody's compliant contact.

Usage:
    python3 -m venv /tmp/mjenv && /tmp/mjenv/bin/pip install mujoco
    /tmp/mjenv/bin/python bench/mujoco/mujoco_bench.py [--runs 5] [--scenes s1,s6,s7_n10,...]

Axis convention: the scenes are Y-up; they are mapped to MuJoCo's Z-up by the proper rotation
+90 deg about X, (x, y, z)_scene -> (x, -z, y)_mujoco. So the scene's height y becomes z, a spin
about the scene's +Z becomes a spin about MuJoCo's -Y, and a Pin about the scene's Z becomes a
hinge about MuJoCo's (0, -1, 0) (same sign of q as in Simbody).
"""

import argparse
import json
import math
import statistics
import sys
import time

import mujoco
import numpy as np

G = 9.81
TIMESTEP = 0.002
SETTINGS = ("default", "implicitfast")

# Reference values (Simbody 3.7, shared/reference/simbody37 == testdata/simbody37).
REF = {
    "s1_hc_ball": {"height": 0.0983343, "vx": 0.557396, "spin_scene_wz": -5.62080, "energy": 1.18995},
    "s6_chain_contact": {"energy": 49.0630},
    "s7_many_balls_n10": {"mean_height": 0.130800},
    "s7_many_balls_n100": {"mean_height": 0.139057},
    "s7_many_balls_n1000": {"mean_height": 0.139878},
}


def option_xml(setting):
    # MuJoCo defaults: timestep 0.002, Euler, Newton solver, pyramidal cone. Only the integrator
    # differs between the two settings.
    integ = "" if setting == "default" else ' integrator="implicitfast"'
    return f'<option timestep="{TIMESTEP}" gravity="0 0 {-G}"{integ}/>'


def ground_xml(friction):
    # Infinite plane z = 0 (size 0 0 ... = infinite), collides with everything of contype 1.
    return (f'<geom name="ground" type="plane" size="0 0 1" contype="1" conaffinity="1" '
            f'friction="{friction} 0.005 0.0001"/>')


# ---------------------------------------------------------------------------------------------
# Scenes. Each builder returns (xml, duration, init(model, data), behaviour(model, data) -> dict).
# ---------------------------------------------------------------------------------------------

def scene_s1(setting):
    # Ball radius 0.1, mass 1, inertia 0.4 m R^2 = 0.004, free joint. Scene: start (0, 0.5, 0),
    # v = (1, 0, 0), w = (0, 0, 5) -> Z-up: (0, 0, 0.5), v = (1, 0, 0), w = (0, -5, 0).
    xml = f"""
<mujoco model="s1_hc_ball">
  {option_xml(setting)}
  <worldbody>
    {ground_xml(0.8)}
    <body name="ball" pos="0 0 0.5">
      <freejoint name="ball"/>
      <inertial pos="0 0 0" mass="1" diaginertia="0.004 0.004 0.004"/>
      <geom type="sphere" size="0.1" contype="1" conaffinity="1" friction="0.8 0.005 0.0001"/>
    </body>
  </worldbody>
</mujoco>"""

    def init(m, d):
        # free joint qvel = [v (world), w (body frame = world at identity orientation)]
        d.qvel[:] = [1.0, 0.0, 0.0, 0.0, -5.0, 0.0]

    def behaviour(m, d):
        z = float(d.qpos[2])
        vx, vy = float(d.qvel[0]), float(d.qvel[1])
        # angular velocity in world frame: rotate body-frame w by the orientation
        w_world = np.zeros(3)
        mujoco.mju_rotVecQuat(w_world, d.qvel[3:6].copy(), d.qpos[3:7].copy())
        return {
            "final_height": z,
            "final_vx": vx,
            "final_vhorizontal": math.hypot(vx, vy),
            "final_spin_wy_zup": float(w_world[1]),
            "final_spin_scene_wz": -float(w_world[1]),  # same quantity in the scene's Y-up frame
            "final_energy": _energy(m, d),
            "ref_simbody": REF["s1_hc_ball"],
        }

    return "s1_hc_ball", xml, 2.0, init, behaviour


def scene_s6(setting):
    # Five pinned rods of length 0.5, mass 1, COM at 0.25, central inertia diag(0, 1/48, 1/48)
    # (scene frame; the axis along the rod is X in both frames, the two others swap, both 1/48).
    # Scene Pin about Z -> hinge about (0, -1, 0). First hinge at height 2. Rod geoms are visual
    # only (contype = conaffinity = 0); a sphere r = 0.05 (massless: explicit <inertial>) at
    # every tip collides with the ground and the other tip spheres.
    i_rod = 1.0 / 48.0
    i_axial = 1e-9  # MuJoCo wants strictly positive inertia; the axial moment never enters
    links = []
    for k in range(1, 6):
        pos = "0 0 2" if k == 1 else "0.5 0 0"
        links.append(f"""
<body name="link{k}" pos="{pos}">
  <joint name="q{k}" type="hinge" axis="0 -1 0"/>
  <inertial pos="0.25 0 0" mass="1" diaginertia="{i_axial} {i_rod} {i_rod}"/>
  <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.01" contype="0" conaffinity="0"/>
  <geom name="tip{k}" type="sphere" pos="0.5 0 0" size="0.05" contype="1" conaffinity="1"
        friction="0.8 0.005 0.0001"/>""")
    body = "".join(links) + "\n</body>" * 5
    # filterparent disabled: Simbody's contact set holds all 5 tip spheres, so adjacent links'
    # spheres may touch as well (world-child pairs are never filtered anyway).
    xml = f"""
<mujoco model="s6_chain_contact">
  {option_xml(setting)}
  <option><flag filterparent="disable"/></option>
  <worldbody>
    {ground_xml(0.8)}
    {body}
  </worldbody>
</mujoco>"""

    def init(m, d):
        pass  # q = u = 0: all horizontal, at rest

    def count_contacts(m, d):
        gid = m.geom("ground").id
        n_ground = n_ss = 0
        for k in range(d.ncon):
            c = d.contact[k]
            if gid in (c.geom1, c.geom2):
                n_ground += 1
            else:
                n_ss += 1
        return n_ground, n_ss

    def behaviour(m, d):
        mujoco.mj_forward(m, d)
        tips = [float(d.geom(f"tip{k}").xpos[2]) for k in range(1, 6)]
        n_ground, n_ss = count_contacts(m, d)
        # Untimed diagnostic replay: in how many steps was there a ground / sphere-sphere contact
        # (Simbody's reference has n_sphere_sphere = 0 at every report time).
        d2 = mujoco.MjData(m)
        init(m, d2)
        e0 = _energy(m, d2)
        steps_ground = steps_ss = 0
        for _ in range(int(round(3.0 / m.opt.timestep))):
            mujoco.mj_step(m, d2)
            g, ss = count_contacts(m, d2)
            steps_ground += g > 0
            steps_ss += ss > 0
        return {
            "initial_energy": e0,
            "final_energy": _energy(m, d),
            "final_tip_heights": tips,
            "final_q": [float(x) for x in d.qpos],
            "final_contacts_ground": n_ground,
            "final_contacts_sphere_sphere": n_ss,
            "steps_with_ground_contact": steps_ground,
            "steps_with_sphere_sphere_contact": steps_ss,
            "ref_simbody": {**REF["s6_chain_contact"],
                            "tip_heights": [1.55484, 1.14043, 0.644842, 0.288237, 0.0479137]},
        }

    return "s6_chain_contact", xml, 3.0, init, behaviour


def scene_s7(setting, n):
    # N balls r = 0.05, mass 1, inertia 0.4 m r^2 = 0.001. Ball j: layer l = j mod 3 at height
    # 0.1 + 0.2 l; column c = j // 3 on a square grid of side m = ceil(sqrt(ceil(N/3))) at scene
    # (x, z) = (0.2 (c mod m), 0.2 (c // m)) -> Z-up (x, y) = (0.2 (c mod m), -0.2 (c // m)).
    m_side = math.ceil(math.sqrt(math.ceil(n / 3)))
    balls = []
    for j in range(n):
        l, c = j % 3, j // 3
        x, y, z = 0.2 * (c % m_side), -0.2 * (c // m_side), 0.1 + 0.2 * l
        balls.append(
            f'<body name="ball{j}" pos="{x:.6g} {y:.6g} {z:.6g}"><freejoint/>'
            f'<inertial pos="0 0 0" mass="1" diaginertia="0.001 0.001 0.001"/>'
            f'<geom type="sphere" size="0.05" contype="1" conaffinity="1" '
            f'friction="0.8 0.005 0.0001"/></body>')
    name = f"s7_many_balls_n{n}"
    xml = f"""
<mujoco model="{name}">
  {option_xml(setting)}
  <size memory="{max(64, n // 4)}M"/>
  <worldbody>
    {ground_xml(0.8)}
    {chr(10).join(balls)}
  </worldbody>
</mujoco>"""

    def init(m, d):
        pass  # all at rest

    def behaviour(m, d):
        zs = [float(d.qpos[7 * j + 2]) for j in range(n)]
        return {
            "final_mean_height": sum(zs) / n,
            "final_min_height": min(zs),
            "final_max_height": max(zs),
            "ref_simbody_mean_height": REF[name]["mean_height"],
            "ref_simbody_min_height": 0.04468,
        }

    return name, xml, 1.0, init, behaviour


def _energy(m, d):
    """Kinetic + gravitational energy, PE zero at the ground (z = 0)."""
    mujoco.mj_forward(m, d)
    mujoco.mj_energyPos(m, d)
    mujoco.mj_energyVel(m, d)
    return float(d.energy[0] + d.energy[1])


SCENES = {
    "s1": scene_s1,
    "s6": scene_s6,
    "s7_n10": lambda s: scene_s7(s, 10),
    "s7_n100": lambda s: scene_s7(s, 100),
    "s7_n1000": lambda s: scene_s7(s, 1000),
}


def bench(key, setting, runs):
    name, xml, duration, init, behaviour = SCENES[key](setting)
    m = mujoco.MjModel.from_xml_string(xml)
    nsteps = int(round(duration / m.opt.timestep))
    walls = []
    d = None
    for _ in range(runs):
        d = mujoco.MjData(m)  # fresh state per run (outside the timed window)
        init(m, d)
        step = mujoco.mj_step
        t0 = time.perf_counter()
        for _ in range(nsteps):
            step(m, d)
        walls.append(time.perf_counter() - t0)
    # The same stepping with the loop inside MuJoCo's C++ binding (mj_step(m, d, nstep)), i.e.
    # without the ~1 us of Python call overhead per step: reported next to the main numbers.
    walls_c = []
    for _ in range(runs):
        dc = mujoco.MjData(m)
        init(m, dc)
        t0 = time.perf_counter()
        mujoco.mj_step(m, dc, nsteps)
        walls_c.append(time.perf_counter() - t0)
    same = bool(np.array_equal(dc.qpos, d.qpos) and np.array_equal(dc.qvel, d.qvel))
    out = {
        "scene": name,
        "setting": setting,
        "runs": runs,
        "wall_median_s": statistics.median(walls),
        "wall_min_s": min(walls),
        "wall_max_s": max(walls),
        "steps_taken": nsteps,
        "steps_failed": 0,
        "realizations": nsteps,
        "wall_median_s_nstep": statistics.median(walls_c),
        "wall_min_s_nstep": min(walls_c),
        "nstep_same_final_state": same,
        "mujoco_version": mujoco.__version__,
        "timestep": m.opt.timestep,
        "final_time": float(d.time),
        "final_ncon": int(d.ncon),
    }
    out.update(behaviour(m, d))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scenes", default=",".join(SCENES), help="comma list of " + ",".join(SCENES))
    ap.add_argument("--settings", default=",".join(SETTINGS))
    args = ap.parse_args()
    print(f"mujoco {mujoco.__version__}", file=sys.stderr)
    for key in args.scenes.split(","):
        for setting in args.settings.split(","):
            print(json.dumps(bench(key, setting, args.runs)), flush=True)


if __name__ == "__main__":
    main()
