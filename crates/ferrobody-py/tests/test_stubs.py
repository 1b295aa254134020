"""The type stubs name exactly what the module has, and every public name has a docstring."""

import ast
import dataclasses
import pathlib

import ferrobody

STUBS = pathlib.Path(ferrobody.__file__).with_name("__init__.pyi")


def stub_names():
    tree = ast.parse(STUBS.read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    members.add(item.target.id)
            names[node.name] = members
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = None
    return names


def test_stubs_match_the_module():
    stubs = stub_names()
    public = {n for n in ferrobody.__all__ if n != "__version__"}
    assert set(stubs) == public
    for cls, members in stubs.items():
        if members is None:
            continue
        obj = getattr(ferrobody, cls)
        fields = {f.name for f in dataclasses.fields(obj)} if dataclasses.is_dataclass(obj) else set()
        fields |= set(getattr(obj, "__annotations__", {}))  # a TypedDict's keys
        for member in members:
            assert hasattr(obj, member) or member in fields, f"{cls}.{member}"
        own = {m for m in vars(getattr(ferrobody, cls)) if not m.startswith("_")}
        assert own <= members, f"{cls}: not in the stubs: {own - members}"


def test_every_public_name_has_a_docstring():
    for name in ferrobody.__all__:
        if name == "__version__":
            continue
        obj = getattr(ferrobody, name)
        assert obj.__doc__, name
        if isinstance(obj, type):
            for member, value in vars(obj).items():
                if not member.startswith("_"):
                    assert getattr(value, "__doc__", None), f"{name}.{member}"
