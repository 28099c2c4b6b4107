//! `corridor`: the command line of the Corridor navigation library.

fn main() {}
