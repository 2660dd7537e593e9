//! The command line as a user meets it: output, stderr and exit codes.

use assert_cmd::Command;

fn cli() -> Command {
    Command::cargo_bin("centl-physics").unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = cli().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    String::from_utf8(out.stdout).unwrap()
}

fn fails(args: &[&str]) -> String {
    let out = cli().args(args).output().unwrap();
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(out.stdout.is_empty(), "nothing on stdout for {args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn convert_documented_examples() {
    assert_eq!(ok(&["convert", "100", "cm", "m"]), "1 m\n");
    assert_eq!(ok(&["convert", "1", "km/h", "m/s"]), "5/18 m/s\n");
    assert_eq!(ok(&["convert", "0.1", "m", "mm"]), "100 mm\n");
    assert_eq!(ok(&["convert", "-3/4", "h", "s"]), "-2700 s\n");
    assert_eq!(ok(&["convert", "1", "m/s²", "m/s^2"]), "1 m/s^2\n");
}

#[test]
fn convert_refusals_name_the_problem() {
    let e = fails(&["convert", "1", "m", "s"]);
    assert!(e.contains("Length") && e.contains("Time"), "{e}");
    let e = fails(&["convert", "1", "mtr", "m"]);
    assert!(e.contains("unknown unit `mtr`"), "{e}");
    let e = fails(&["convert", "NaN", "m", "m"]);
    assert!(e.contains("not an exact number"), "{e}");
    let e = fails(&["convert", "1/0", "m", "m"]);
    assert!(e.contains("divides by zero"), "{e}");
    let e = fails(&["convert", "90", "deg", "rad"]);
    assert!(e.contains('π'), "{e}");
}

#[test]
fn constants_and_refusals() {
    let c = ok(&["constant", "c"]);
    assert!(
        c.contains("value=299792458 m/s\n")
            && c.contains("exact=true")
            && c.contains("provenance="),
        "{c}"
    );
    assert!(ok(&["constant", "g0"]).contains("value=196133/20000 m/s^2\n"));
    let e = fails(&["constant", "G"]);
    assert!(e.contains("measured"), "{e}");
    fails(&["constant", "nope"]);
}

#[test]
fn help_everywhere() {
    for args in [
        &["--help"][..],
        &["convert", "--help"],
        &["constant", "--help"],
    ] {
        assert!(!ok(args).is_empty());
    }
}
