//! The client binary calls the server binary, both built from the same definitions.

use std::process::Command;

#[test]
fn the_client_calls_the_server_with_the_shared_types() {
    let out = Command::new(env!("CARGO_BIN_EXE_typed-client"))
        .arg(env!("CARGO_BIN_EXE_typed-server"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "2 ideas for Ann within $40\n\
         - Book ($15)\n\
         - Board game ($35)\n\
         Hello, Ada!\n\
         refused: nothing fits a budget of $5\n"
    );
}
