// Package scenario owns the scenario file (YAML, version 1): its schema,
// strict validation with errors that name the file, line, field and allowed
// values, the flag form for quick runs, and the translation of a scenario
// into a simulator run (netsim.Spec).
//
// The same file runs on every engine; see DESIGN.md "Scenario file".
package scenario
