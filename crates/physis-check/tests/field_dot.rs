//! `dot` and `norm` over fields: two fields of the simulation's grid reduce to one number;
//! a field beside a vector or a single number, or a field with no grid, is refused with
//! the code the manual gives.

use physis_check::check_source;

fn codes(body: &str, grid: bool) -> Vec<String> {
    let grid = if grid {
        "grid (x) : Length[11] from 0 m to 1 m\n  field u : Temperature = 1 K·x/1 m\n  field w : Length = x\n  law w' = 0 m/s\n"
    } else {
        ""
    };
    let src = format!(
        "simulate Case {{
  param D : Diffusivity = 1 m²/s
  state p : Length[3] = [1 m, 2 m, 3 m]
  law p' = [0 m/s, 0 m/s, 0 m/s]
  {grid}  law u' = D·laplacian(u)
  {body}
  stop when t > 1 s
}}
"
    );
    let checked = check_source(&src);
    checked
        .diagnostics
        .iter()
        .map(|d| d.code.as_str().to_string())
        .collect()
}

#[test]
fn dot_and_norm_of_fields_check_clean() {
    assert_eq!(
        codes("observe a ≔ dot(u, w)\n  observe b ≔ norm(u)", true),
        Vec::<String>::new()
    );
    assert_eq!(
        codes(
            "observe a ≔ dot(u, u) + 1 K²\n  observe b ≔ norm(w) + 1 m",
            true
        ),
        Vec::<String>::new()
    );
}

#[test]
fn dot_of_a_field_and_a_non_field_is_a_shape_mismatch() {
    assert_eq!(codes("observe a ≔ dot(u, p)", true), ["PH0109"]);
    assert_eq!(codes("observe a ≔ dot(p, u)", true), ["PH0109"]);
    assert_eq!(codes("observe a ≔ dot(u, 2 m)", true), ["PH0109"]);
    assert_eq!(codes("observe a ≔ norm(2 m)", true), ["PH0109"]);
}

#[test]
fn dimensions_of_field_products_are_checked() {
    // dot(u, w) is K·m, not K².
    assert_eq!(codes("observe a ≔ dot(u, w) + 1 K²", true), ["PH0203"]);
}
