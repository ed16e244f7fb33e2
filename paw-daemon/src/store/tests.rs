//! Unit tests of `paw_daemon::store`.

use super::*;

#[test]
fn write_atomic_replaces_and_leaves_no_temp_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("sub").join("state.json");
    write_atomic(&p, b"one", Durability::Sync).expect("first");
    write_atomic(&p, b"two", Durability::NoSync).expect("second");
    assert_eq!(fs::read(&p).expect("read"), b"two");
    let names: Vec<_> = fs::read_dir(p.parent().expect("parent"))
        .expect("ls")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("state.json")]);
}

#[test]
fn corrupt_files_are_moved_aside_not_lost() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("subscriptions.json");
    fs::write(&p, b"{not json").expect("write");
    let aside = move_aside_corrupt(&p).expect("move");
    assert!(!p.exists());
    assert_eq!(fs::read(&aside).expect("read"), b"{not json");
    let name = aside
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    assert!(name.starts_with("subscriptions.json.corrupt-"), "{name}");
    fs::write(&p, b"{again").expect("write");
    let second = move_aside_corrupt(&p).expect("move");
    assert_ne!(aside, second);
}

fn parse(bytes: &[u8]) -> Result<Vec<u32>, String> {
    serde_json::from_slice(bytes).map_err(|e| e.to_string())
}

#[test]
fn a_file_someone_else_wrote_is_found_before_a_write() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("state.json");
    assert!(matches!(check(&p, None, parse), Ok(OnDisk::Same)));
    let mine = write_atomic_stamped(&p, b"[1]", Durability::Sync).expect("write");
    assert!(matches!(check(&p, Some(mine), parse), Ok(OnDisk::Same)));
    // Another writer, same size: another inode.
    fs::write(dir.path().join("x"), b"[2]").expect("write");
    fs::rename(dir.path().join("x"), &p).expect("rename");
    match check(&p, Some(mine), parse) {
        Ok(OnDisk::Changed(v, _)) => assert_eq!(v, [2]),
        other => panic!("{other:?}"),
    }
    // Damaged in place: moved aside, never overwritten.
    let now = Stamp::read(&p).expect("stat");
    fs::write(&p, b"[2,").expect("damage");
    match check(&p, now, parse) {
        Ok(OnDisk::Corrupt(_, Ok(aside))) => {
            assert_eq!(fs::read(aside).expect("read"), b"[2,");
            assert!(!p.exists());
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(check(&p, now, parse), Ok(OnDisk::Gone)));
}

#[test]
fn a_crash_between_the_check_and_the_write_leaves_the_old_file_or_the_new() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("state.json");
    let old = write_atomic_stamped(&p, b"[1]", Durability::Sync).expect("write");
    assert!(matches!(check(&p, Some(old), parse), Ok(OnDisk::Same)));
    // The process dies after the check, in the middle of writing the new file: its
    // torn temporary file is left beside the target, which it never replaces.
    let tmp = temp_path(&p);
    fs::write(&tmp, b"[1, 2").expect("torn temporary file");
    assert_eq!(fs::read(&p).expect("read"), b"[1]");
    // The next start reads the old file, still the one paw wrote...
    assert!(matches!(check(&p, Some(old), parse), Ok(OnDisk::Same)));
    // ...and the next write replaces it whole.
    let new = write_atomic_stamped(&p, b"[1,2]", Durability::Sync).expect("write");
    assert_eq!(fs::read(&p).expect("read"), b"[1,2]");
    assert!(matches!(check(&p, Some(new), parse), Ok(OnDisk::Same)));
    assert_eq!(fs::read(&tmp).expect("left over"), b"[1, 2");
}
