//! What the page is made of, compiled into the binary so `physis studio` needs no files: the
//! HTML, the CodeMirror bundle esbuild builds from `crates/physis-cli/studio-web` (committed;
//! `.ci/studio-test.sh` checks it matches a rebuild), and the examples the page offers.

/// The page.
pub const PAGE: &str = include_str!("../../studio-web/index.html");

/// The editor and the page's logic, bundled.
pub const SCRIPT: &str = include_str!("../../studio-web/dist/studio.js");

/// The examples the page can load, by file name.
pub const EXAMPLES: &[(&str, &str)] = &[
    (
        "projectile.hph",
        include_str!("../../../../examples/projectile.hph"),
    ),
    (
        "bouncing_ball.hph",
        include_str!("../../../../examples/bouncing_ball.hph"),
    ),
    (
        "lotka_volterra.hph",
        include_str!("../../../../examples/lotka_volterra.hph"),
    ),
    (
        "dc_motor.hph",
        include_str!("../../../../examples/dc_motor.hph"),
    ),
    (
        "cart_pendulum.hph",
        include_str!("../../../../examples/cart_pendulum.hph"),
    ),
    (
        "heavy_top.hph",
        include_str!("../../../../examples/heavy_top.hph"),
    ),
    (
        "free_body.hph",
        include_str!("../../../../examples/free_body.hph"),
    ),
    ("heun.hph", include_str!("../../../../examples/heun.hph")),
    (
        "ornstein_uhlenbeck.hph",
        include_str!("../../../../examples/ornstein_uhlenbeck.hph"),
    ),
    (
        "heated_rod.hph",
        include_str!("../../../../examples/heated_rod.hph"),
    ),
];
