//! Unit tests of `paw_daemon::home`.

use super::*;

#[test]
fn display_paths_are_relative_to_home_with_slashes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = Home::create(dir.path()).expect("home");
    let p = home.runs_dir().join("x.json");
    assert_eq!(
        home.display_path(&p).as_deref(),
        Some(".agents/artifacts/terminal_exec/runs/x.json")
    );
    assert_eq!(home.display_path(Path::new("/etc/passwd")), None);
}

#[test]
fn session_ids_become_single_safe_names() {
    assert_eq!(safe_session_id("default"), "default");
    assert_eq!(safe_session_id("../../etc"), "_2e_2e_2f_2e_2e_2fetc");
    assert_eq!(safe_session_id(".."), "_2e_2e");
    assert_eq!(safe_session_id(""), "_");
    assert_eq!(safe_session_id("a/b"), "a_2fb");
    // Injective: ids that the old mapping merged stay apart.
    let ids = [
        "a.b", "a_b", "a/b", "a b", "A.b", "a.B", "ab", "_", "", "_5f",
    ];
    let dirs: std::collections::HashSet<_> = ids.iter().map(|i| safe_session_id(i)).collect();
    assert_eq!(dirs.len(), ids.len(), "{dirs:?}");
    let long_a = "x".repeat(200);
    let long_b = format!("{}y", "x".repeat(199));
    assert_ne!(safe_session_id(&long_a), safe_session_id(&long_b));
    assert!(safe_session_id(&long_a).len() <= 97);
    for id in ids {
        let d = safe_session_id(id);
        assert!(!d.contains('/') && d != "." && d != "..", "{d}");
    }
}
