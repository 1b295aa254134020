"""The notebook-style tour of docs/python.md runs as written (names and indices, not numbers)."""

import ferrobody
import numpy as np
import pytest


def test_the_tour_of_docs_python_md_runs(root, monkeypatch):
    pytest.importorskip("pandas")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    pytest.importorskip("matplotlib")
    text = (root / "docs" / "python.md").read_text()
    tour = text.split("## A notebook-style tour", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(root)
    scope = {}
    exec(compile(tour, "docs/python.md", "exec"), scope)
    model = scope["model"]
    # The tour's named writes reached the state it simulated: the ball starts 0.8 m up,
    # spinning at 10 rad/s about z.
    assert scope["run"]["q:ball.py"][0] == 0.8 == scope["run"]["ball.py"][0]
    assert scope["run"]["u:ball.wz"][0] == 10.0
    assert len(scope["heights"]) == 200 and np.isfinite(scope["heights"]).all()
    assert scope["out"]["position"].shape == (64, 101, 2, 3)
    assert scope["ball"] == model.body_names.index("ball") == 1
    assert model.coordinate_names == ["ball.qw", "ball.qx", "ball.qy", "ball.qz", "ball.px", "ball.py", "ball.pz"]
    assert model.speed_names == ["ball.wx", "ball.wy", "ball.wz", "ball.vx", "ball.vy", "ball.vz"]


def test_the_python_example_of_the_readme_runs(root, monkeypatch, capsys):
    pytest.importorskip("pandas")
    text = (root / "README.md").read_text()
    example = text.split("## Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(root)
    scope = {}
    exec(compile(example, "README.md", "exec"), scope)
    assert scope["run"]["ball.py"].iloc[0] == 0.8
    assert scope["out"]["position"].shape == (64, 101, 2, 3)
    assert scope["best"].success
