// Package scenario owns the scenario file (YAML, version 1): its schema,
// strict validation with errors that name the file, line, field and allowed
// values, the flag form for quick runs, and the translation of a scenario
// into a simulator run (netsim.Spec). A scenario's network is one path
// (path:) or a topology of named links between nodes with a path per flow
// and moves between paths (links:, topology*.go). A path may take its loss
// (seed 000's p_tot) and its per-slot delay from an orbit geometry
// (path.loss_model, path.orbit, path.owd_source: orbit*.go; sim only).
//
// The same file runs on every engine; see DESIGN.md "Scenario file".
package scenario
