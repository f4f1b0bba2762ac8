//! Test support for Tilebox, shared by this crate's tests and the hosts' (the app's, the CLI's):
//! a toy game kind that exists only in the tests ([`toy::Toy`]), and the registries that carry
//! it: the toy alone ([`toy::registry`]) and the real catalogue followed by the toy
//! ([`toy::catalogue_with_toy`]). A host that takes its games from a registry must list, start,
//! play, save and load the toy like any other kind, in the app's plain view for want of its own.
//! For hints and benches, [`toy::ToyCoach`] is a front end of the toy with an assistant whose
//! player refuses rows it cannot count, registered with [`toy::with_toy_front_end`].
//!
//! The tests themselves are in `tests/`, one binary: every registered entry played through the
//! object-safe layer, each kind's fixtures, bad saves and arbitrary input, the previous release's
//! files, and golden text forms.

pub mod toy;
