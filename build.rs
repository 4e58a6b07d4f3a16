//! Compiles `grammar/*.lalrpop` into `$OUT_DIR`.
fn main() {
    println!("cargo:rerun-if-changed=grammar");
    lalrpop::Configuration::new()
        .set_in_dir("grammar")
        .set_out_dir(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts"))
        .process()
        .expect("grammar/ compiles with lalrpop");
}
