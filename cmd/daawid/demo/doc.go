// Package demo is the main job of "daawid demo" on the embedded default:
// it compiles the bundled register samples and saved websites (served on
// loopback) into a local DuckDB state, merges Holzwerk Krause's owner
// revision and domain events, publishes everything with the exports and
// a static tree (Prepare), then runs the schedule (a delta every minute,
// the nightly run) beside the server, with an embedded mail catcher
// (Demo.Serve). No services, no network.
//
// It is the wiring of the pipeline, the server and the mail catcher for
// one directory, kept out of the command's main package so that main
// keeps to flags and configuration (STYLE rule 6); the tests of the
// command and of the server prepare their publications with it.
package demo
