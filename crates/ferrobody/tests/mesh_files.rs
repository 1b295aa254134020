//! Triangle-mesh files (issue 20): OBJ, STL and VTP files of one box give the same mesh, and a
//! bad or missing mesh file is a one-line error naming the file.

use ferrobody::geometry::TriangleMesh;
use ferrobody::io::mesh::load_mesh;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn obj_stl_and_vtp_files_give_the_same_mesh() {
    let dir = root().join("testdata/meshes");
    let obj = load_mesh(&dir.join("box.obj")).unwrap();
    assert_eq!((obj.vertices().len(), obj.faces().len()), (8, 12));
    // STL stores single precision (0.1 becomes 0.10000000149...): same faces, vertices to 1e-8.
    let stl = load_mesh(&dir.join("box.stl")).unwrap();
    assert_eq!(stl.faces().len(), 12);
    let area = |m: &TriangleMesh| m.areas().iter().sum::<f64>();
    assert!((area(&stl) - area(&obj)).abs() < 1e-8);
    // tobj numbers the OBJ's vertices by first use; the faces and their springs are the same.
    let vtp = load_mesh(&dir.join("box.vtp")).unwrap();
    assert_eq!(vtp.centroids(), obj.centroids());
    assert_eq!(vtp.areas(), obj.areas());
}

/// Writes `text` to a file of that name in a fresh folder and loads it.
fn load_text(name: &str, text: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("ferrobody-mesh-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let e = load_mesh(&path).unwrap_err().to_string();
    assert!(
        e.starts_with(&path.display().to_string()),
        "the error names the file: {e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
    e
}

#[test]
fn bad_mesh_files_are_one_line_errors_naming_the_file() {
    let obj = std::fs::read_to_string(root().join("testdata/meshes/box.obj")).unwrap();
    let open: String = obj
        .lines()
        .filter(|l| *l != "f 1 2 4")
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(load_text("open.obj", open.as_bytes()).contains("the mesh is not closed"));
    let wound = obj.replace("f 1 2 4", "f 2 1 4");
    assert!(load_text("wound.obj", wound.as_bytes()).contains("winding is inconsistent"));
    let flat = format!("{obj}v -0.1 -0.05 -0.1\nf 1 9 2\n");
    assert!(load_text("flat.obj", flat.as_bytes()).contains("degenerate"));
    assert!(load_text("empty.obj", b"").contains("the mesh file is empty"));
    assert!(load_text("nofaces.obj", b"v 0 0 0\n").contains("no faces"));
    assert!(load_text("box.ply", obj.as_bytes()).contains("unknown mesh format '.ply'"));
    assert!(load_text("garbage.stl", b"this is not an STL file at all")
        .contains("not a readable STL file"));
    let binary = std::fs::read_to_string(root().join("testdata/meshes/box.vtp"))
        .unwrap()
        .replacen("format=\"ascii\"", "format=\"binary\"", 1);
    assert!(load_text("binary.vtp", binary.as_bytes()).contains("save the mesh as ASCII VTP"));
    assert!(load_text("broken.vtp", b"<VTKFile><PolyData>").contains("XML syntax error"));
    let missing = root().join("testdata/meshes/no_such_mesh.obj");
    assert!(load_mesh(&missing)
        .unwrap_err()
        .to_string()
        .contains("cannot read the mesh"));
}
