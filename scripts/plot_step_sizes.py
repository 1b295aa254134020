"""Step size over time on the Hunt–Crossley block at vt = 0.001 (docs/integrators.md):
RK-Merson and the implicit TR-BDF2 on examples/scenes/block_hunt_crossley_vt0.001.toml, and
RK-Merson on the exponential-spring block, one point per accepted step.

    bash scripts/test-python.sh            # builds the extension into crates/ferrobody-py/python
    python3 -m venv /tmp/plotenv && /tmp/plotenv/bin/pip install matplotlib numpy
    PYTHONPATH=crates/ferrobody-py/python /tmp/plotenv/bin/python scripts/plot_step_sizes.py
"""

import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import ferrobody  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCENES = ROOT / "examples" / "scenes"


def step_sizes(scene, integrator):
    model = ferrobody.load(SCENES / scene)
    sim = ferrobody.Simulation(model, integrator=integrator)
    times, sizes = [], []
    while sim.t < model.duration:
        t0 = sim.t
        sim.step(model.duration)
        times.append(sim.t)
        sizes.append(sim.t - t0)
    return times, sizes, sim.stats


def main():
    runs = [
        ("block_hunt_crossley_vt0.001.toml", "rk-merson", "Hunt–Crossley block, rk-merson"),
        ("block_hunt_crossley_vt0.001.toml", "implicit", "Hunt–Crossley block, implicit (TR-BDF2)"),
        ("block_exponential_springs.toml", "rk-merson", "exponential-spring block, rk-merson"),
    ]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for scene, integrator, label in runs:
        t, h, stats = step_sizes(scene, integrator)
        ax.semilogy(t, h, ".", markersize=2, label=f"{label}: {stats['steps_taken']} steps")
        print(label, stats)
    ax.set_xlabel("t (s)")
    ax.set_ylabel("accepted step size (s)")
    ax.set_title("Step sizes at accuracy 1e-5 (block sliding, spinning, then at rest)")
    ax.legend(markerscale=6, fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    out = ROOT / "docs" / "images" / "step_sizes_block.png"
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
