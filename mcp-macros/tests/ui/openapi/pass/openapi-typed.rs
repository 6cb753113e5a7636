//! The generated items have the types the document gives.
use mcp_runtime::prelude::*;

#[mcp_runtime::openapi::tools(path = "../pets.yaml")]
mod pets {}

fn main() {
    let show = pets::ShowPetByIdArgs { pet_id: 7 };
    let add = pets::AddPetArgs { name: "Rex".into(), kind: Some(pets::AddPetKind::Dog) };
    let _: &[mcp_runtime::registry::ToolRecord] = pets::TOOLS;
    let _ = (show, add, pets::show_pet_by_id::TOOL, pets::add_pet::TOOL);
    let _ = Server::builder(server_info!());
}
