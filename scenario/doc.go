// Package scenario owns the scenario file (YAML, version 1): its schema,
// strict validation with errors that name the file, line, field and allowed
// values, the flag form for quick runs, and the translation of a scenario
// into a simulator run (netsim.Spec). A scenario's network is one path
// (path:) or a topology of named links between nodes with a path per flow
// and moves between paths (links:, topology*.go). A path may take its loss
// (seed 000's p_tot) and its per-slot delay from an orbit geometry
// (path.loss_model, path.orbit, path.owd_source: orbit*.go; sim only).
//
// A link of a topology replays a path file's one-way delay with
// links[i].delay_file, the fields, checks and delay stage of
// path.delay_file (timevarying*.go), on that link only. Its handovers
// (handovers: true, the default) become the run's handover schedule, the
// one schedule every controller of the run gets (netsim.Spec.Schedule).
// So only one link may give handovers, and every flow must cross it on its
// path and on every move's path; anything else is refused with the field
// to change (set handovers: false on the others) rather than telling a
// flow of handovers on a link it never crosses.
//
// The same file runs on every engine; see DESIGN.md "Scenario file".
package scenario
