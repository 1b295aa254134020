"""Pinocchio models of the testdata/urdf robots, built by Pinocchio's URDF parser and saved
with saveToBinary, for dynamics_pinocchio (the pin wheel has no urdfdom headers for C++ parsing).

    /tmp/pinenv/bin/python bench/pinocchio/export_models.py OUT_DIR
"""

import json
import pathlib
import sys

import pinocchio as pin

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for doc_path in sorted((ROOT / "testdata" / "urdf").glob("*.json")):
        doc = json.loads(doc_path.read_text())
        urdf = str(doc_path.with_suffix(".urdf"))
        model = pin.buildModelFromUrdf(urdf, pin.JointModelFreeFlyer()) if doc["floating_base"] else pin.buildModelFromUrdf(urdf)
        model.saveToBinary(str(out / f"{doc['robot']}.bin"))
        print(doc["robot"], int(doc["floating_base"]))


if __name__ == "__main__":
    main()
